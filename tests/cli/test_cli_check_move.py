"""``chess-actors check-move`` end to end: one case, its explanation and JSON, and --batch.

Each test runs ``python -m actors.cli`` in a subprocess; bad input must end in exit 2 with exactly
one line on stderr and no traceback, after the answers to any batch lines before it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

OPENING = json.dumps([
    ["B", "K", 3, 8], ["B", "Q", 1, 5], ["B", "N", 4, 7], ["B", "N", 7, 8], ["B", "B", 2, 4],
    ["B", "R", 4, 8], ["B", "R", 8, 8], ["B", "P", 1, 7], ["B", "P", 2, 7], ["B", "P", 3, 6],
    ["B", "P", 5, 6], ["B", "P", 6, 7], ["B", "P", 7, 7], ["B", "P", 8, 7], ["W", "K", 5, 1],
    ["W", "Q", 6, 3], ["W", "N", 3, 3], ["W", "B", 5, 2], ["W", "B", 6, 4], ["W", "R", 1, 1],
    ["W", "R", 8, 1], ["W", "P", 1, 3], ["W", "P", 2, 2], ["W", "P", 3, 2], ["W", "P", 4, 4],
    ["W", "P", 6, 2], ["W", "P", 7, 2], ["W", "P", 8, 3],
])
KING_STEP = json.dumps([
    ["B", "K", 7, 3], ["B", "Q", 2, 4], ["B", "N", 5, 2], ["B", "N", 1, 6], ["B", "B", 7, 7],
    ["B", "B", 1, 8], ["W", "K", 7, 1], ["W", "Q", 6, 1], ["W", "N", 5, 6], ["W", "N", 3, 3],
    ["W", "B", 2, 2], ["W", "B", 6, 5],
])
SMALLEST_MATE: list[list[Any]] = [["B", "K", 6, 1], ["B", "Q", 6, 2], ["W", "K", 8, 1]]


def chess_actors(*arguments: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would, in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "check-move", *arguments],
        cwd=ROOT,
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return subprocess.CompletedProcess(
        result.args, result.returncode, result.stdout.decode(), result.stderr.decode()
    )


def case(position: object, move: object) -> str:
    return json.dumps({"position": position, "move": move})


def assert_usage_error(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {lines}"
    assert lines[0].startswith("chess-actors check-move: "), lines[0]
    for needle in needles:
        assert needle in lines[0], f"{needle!r} not in {lines[0]!r}"


def test_a_valid_move_prints_true() -> None:
    result = chess_actors(OPENING, '["W","R",8,2]')
    assert (result.returncode, result.stdout, result.stderr) == (0, "true\n", "")


def test_an_invalid_move_prints_false_and_still_exits_0() -> None:
    result = chess_actors(KING_STEP, '["B","K",8,3]')
    assert (result.returncode, result.stdout, result.stderr) == (0, "false\n", "")


def test_explain_prints_one_line_per_candidate_after_the_answer() -> None:
    result = chess_actors(OPENING, '["W","R",8,2]', "--explain")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "true",
        "rook on a1: cannot reach h2: not on its file or rank",
        "rook on h1: can go to h2",
    ]


def test_explain_names_the_bishop_that_guards_the_square() -> None:
    answer, king_line = chess_actors(KING_STEP, '["B","K",8,3]', "--explain").stdout.splitlines()
    assert answer == "false"
    assert king_line.startswith("king on g3: h3 is attacked by") and "white bishop on f5" in king_line


def test_json_prints_one_object_with_the_reasons() -> None:
    result = chess_actors(OPENING, '["B","R",4,1]', "--json")
    assert result.returncode == 0, result.stderr
    [line] = result.stdout.splitlines()
    record = json.loads(line)
    assert record["valid"] is False
    assert "rook on d8: blocked by the black knight on d7" in record["reasons"]


def test_zero_based_coordinates() -> None:
    shifted = json.dumps([[colour, kind, x - 1, y - 1] for colour, kind, x, y in SMALLEST_MATE])
    assert chess_actors(shifted, '["B","Q",6,0]', "--zero-based").stdout == "true\n"
    assert chess_actors(shifted, '["W","K",7,1]', "--zero-based").stdout == "false\n"


BATCH_CASES = [
    (case(SMALLEST_MATE, ["B", "Q", 7, 1]), "true"),
    (case(SMALLEST_MATE, ["W", "K", 8, 2]), "false"),
    (case(json.loads(OPENING), ["W", "B", 4, 3]), "true"),
    (case(json.loads(OPENING), ["B", "R", 4, 1]), "false"),
    (case([], ["W", "K", 1, 1]), "false"),
]


def test_batch_from_a_file_answers_every_line_in_order(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(line + "\n" for line, _ in BATCH_CASES), encoding="utf-8")
    result = chess_actors("--batch", str(cases))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [expected for _, expected in BATCH_CASES]
    assert result.stderr == ""


def test_batch_from_stdin_without_a_final_newline() -> None:
    result = chess_actors("--batch", "-", stdin="\n".join(line for line, _ in BATCH_CASES))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [expected for _, expected in BATCH_CASES]


def test_batch_json_prints_one_object_a_line() -> None:
    two_lines = BATCH_CASES[0][0] + "\n" + BATCH_CASES[1][0] + "\n"
    result = chess_actors("--batch", "-", "--json", stdin=two_lines)
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["valid"] for record in records] == [True, False]
    assert records[0]["reasons"] == ["queen on f2: can go to g1"]


def test_batch_zero_based() -> None:
    shifted = [[colour, kind, x - 1, y - 1] for colour, kind, x, y in SMALLEST_MATE]
    result = chess_actors("--batch", "-", "--zero-based", stdin=case(shifted, ["B", "Q", 6, 0]) + "\n")
    assert result.stdout == "true\n"


def test_a_utf8_byte_order_mark_is_not_part_of_the_first_case() -> None:
    result = chess_actors("--batch", "-", stdin=b"\xef\xbb\xbf" + BATCH_CASES[0][0].encode() + b"\n")
    assert (result.returncode, result.stdout) == (0, "true\n")


@pytest.mark.parametrize(
    ("bad_line", "needles"),
    [
        pytest.param("", ["stdin line 3: empty"], id="empty-line"),
        pytest.param(
            "not json", ["stdin line 3: case is not JSON: Expecting value at column 1"], id="not-json"
        ),
        pytest.param('[1, 2]', ["stdin line 3: expected an object"], id="not-an-object"),
        pytest.param('{"position": []}', ['stdin line 3: the case has no "move"'], id="no-move"),
        pytest.param(
            case([["W", "K", 5, 1], ["B", "K", 5, 1]], ["W", "K", 5, 2]),
            ["stdin line 3: position pieces 1", "are both on e1"],
            id="two-on-a-square",
        ),
        pytest.param(
            case([], ["W", "K", 9, 1]), ["stdin line 3: move", "x = 9 is off the board"], id="move-off"
        ),
    ],
)
def test_batch_stops_at_a_malformed_line_after_answering_the_lines_before(
    bad_line: str, needles: list[str]
) -> None:
    lines = [BATCH_CASES[0][0], BATCH_CASES[1][0], bad_line, BATCH_CASES[2][0]]
    result = chess_actors("--batch", "-", stdin="\n".join(lines) + "\n")
    assert_usage_error(result, *needles)
    assert result.stdout.splitlines() == ["true", "false"], "the lines before are answered, none after"


def test_batch_names_the_file_and_refuses_text_that_is_not_utf8(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(BATCH_CASES[0][0].encode() + b"\n" + b'{"position": "\xff"}\n')
    result = chess_actors("--batch", str(cases))
    assert_usage_error(result, f"{cases} line 2: not UTF-8 text")
    assert result.stdout == "true\n"


@pytest.mark.parametrize(
    ("arguments", "needles"),
    [
        pytest.param(["[[", '["W","K",1,1]'], ["position is not JSON"], id="position-not-json"),
        pytest.param([OPENING, "W R 8 2"], ["move is not JSON"], id="move-not-json"),
        pytest.param(['{"a": 1}', '["W","K",1,1]'], ["position must be a list"], id="position-object"),
        pytest.param(["[1]", '["W","K",1,1]'], ["position piece 1 must be a list"], id="piece-not-a-list"),
        pytest.param(
            [json.dumps([["W", "P", x % 8 + 1, x // 8 + 1] for x in range(33)]), '["W","K",1,1]'],
            ["33 pieces"],
            id="too-many-pieces",
        ),
        pytest.param(
            ['[["W","K",5,1],["B","N",5,1]]', '["W","K",1,1]'],
            ["pieces 1", "and 2", "both on e1"],
            id="shared",
        ),
        pytest.param(['[["W","K",0,1]]', '["W","K",1,1]'], ["x = 0 is off the board (1..8)"], id="off-board"),
        pytest.param(
            ['[["W","K",8,1]]', '["W","K",1,1]', "--zero-based"],
            ["x = 8 is off the board (0..7)"],
            id="zero-based",
        ),
        pytest.param(['[["G","K",1,1]]', '["W","K",1,1]'], ['colour "G"'], id="colour"),
        pytest.param(['[["W","X",1,1]]', '["W","K",1,1]'], ['kind "X"'], id="kind"),
        pytest.param(['[["W","K",1.5,1]]', '["W","K",1,1]'], ["x 1.5 is not a whole number"], id="float"),
        pytest.param(['[["W","K",1,true]]', '["W","K",1,1]'], ["y true is not a whole number"], id="bool"),
        pytest.param(
            ['[["W","K",1,1],["W","K",3,3]]', '["W","K",1,2]'], ["two white kings"], id="two-kings"
        ),
        pytest.param(["[]", '["W","K",1]'], ["move must be a list [colour, kind, x, y]"], id="move-shape"),
        pytest.param(["[]"], ["needs POSITION and MOVE"], id="move-missing"),
        pytest.param([], ["needs POSITION and MOVE"], id="nothing"),
        pytest.param(
            ["[]", '["W","K",1,1]', "--batch", "-"], ["give no POSITION or MOVE"], id="batch-and-case"
        ),
        pytest.param(
            ["--batch", "-", "--explain"], ["--explain with --batch needs --json"], id="batch-explain"
        ),
        pytest.param(["--batch", "/no/such/cases.jsonl"], ["/no/such/cases.jsonl"], id="missing-file"),
        pytest.param(["--bogus"], ["unrecognized arguments: --bogus"], id="unknown-flag"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(arguments: list[str], needles: list[str]) -> None:
    result = chess_actors(*arguments, stdin="")
    if "--bogus" in arguments:
        # argparse speaks for itself (prog "chess-actors check-move"), still one line, exit 2.
        assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
        assert needles[0] in result.stderr and "Traceback" not in result.stderr
        return
    assert_usage_error(result, *needles)
    assert result.stdout == ""
