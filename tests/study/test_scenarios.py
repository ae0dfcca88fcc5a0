"""Scenario scripts: every example runs green, a wrong expectation fails on its line, bad syntax exits 2.

The runs are end to end (``chess-actors run`` in a fresh interpreter); the parser is also tested directly.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from actors.study.runner import run_scenario
from actors.study.script import PARTITION_SECONDS, parse_scenario
from actors.study.steps import (
    Crash,
    Expect,
    FenCheck,
    Legal,
    OutcomeCheck,
    Play,
    Reject,
    ScenarioError,
    Send,
    SquareCheck,
    Start,
)
from actors.tracing.export import read_jsonl
from board.notation.fen import STARTING_FEN

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "actors" / "examples").glob("*.scenario"))


def chess_actors(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would, in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, check=False, timeout=120,
    )


# --- the examples -------------------------------------------------------------------------


def test_the_examples_cover_what_the_readme_promises() -> None:
    names = {path.stem for path in EXAMPLES}
    assert {"pin", "castling-through-check", "en-passant", "promotion", "crash-and-restart",
            "checkmate"} <= names
    readme = (ROOT / "actors" / "examples" / "README.md").read_text(encoding="utf-8")
    for name in names:
        assert f"`{name}.scenario`" in readme, f"{name}.scenario is not in the README's table"


@pytest.mark.parametrize("path", EXAMPLES, ids=[path.stem for path in EXAMPLES])
def test_every_example_scenario_runs_green(path: Path) -> None:
    steps = parse_scenario(path.read_text(encoding="utf-8"), str(path)).steps
    result = chess_actors("run", str(path.relative_to(ROOT)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    # A long step's answer goes on a line of its own, indented under the answers.
    step_lines = [line for line in lines[:-1] if not line.startswith(" ")]
    assert len(step_lines) == len(steps)
    assert all(line.startswith("✓ line ") for line in step_lines)
    assert lines[-1] == f"{len(steps)} steps passed"


def test_json_prints_one_object_per_step() -> None:
    path = ROOT / "actors" / "examples" / "pin.scenario"
    result = chess_actors("run", str(path), "--json")
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    steps = parse_scenario(path.read_text(encoding="utf-8")).steps
    assert [record["line"] for record in records] == [step.line for step in steps]
    assert all(record["ok"] for record in records)
    reject = next(record for record in records if record["step"].startswith("reject Ne4"))
    assert reject["got"] == (
        "rejected (illegal): the knight on c3 is pinned to the king on e1 by the bishop on b4"
    )


def test_run_trace_writes_a_readable_trace(tmp_path: Path) -> None:
    trace = tmp_path / "first.jsonl"
    result = chess_actors("run", "actors/examples/first-messages.scenario", "--trace", str(trace))
    assert result.returncode == 0, result.stderr
    with trace.open("rb") as file:
        events = read_jsonl(file, source=str(trace))
    queries = [event for event in events if event["kind"] == "MoveQuery" and event["sender"] == "client"]
    assert [event["receiver"] for event in queries] == ["white-bishop-f1", "white-knight-g1"]


# --- failing and malformed scripts ----------------------------------------------------------


def test_a_wrong_expectation_fails_naming_its_line(tmp_path: Path) -> None:
    script = tmp_path / "wrong.scenario"
    script.write_text("play e4\n# the pawn is white, of course\nsquare e4 black pawn\nplay e5\n")
    result = chess_actors("run", str(script))
    assert result.returncode == 1
    [failure] = result.stderr.splitlines()
    assert failure == (
        f"chess-actors run: {script}, line 3: square e4 black pawn: "
        "expected black pawn on e4; got white pawn on e4 (white-pawn-e2)"
    )
    lines = result.stdout.splitlines()
    assert lines[1].startswith("✗ line   3  square e4 black pawn")
    assert lines[-1] == "1 passed, the step on line 3 failed; 1 step not run"


def test_a_refused_move_fails_the_play_step(tmp_path: Path) -> None:
    result = chess_actors("run", "-", stdin="play e4\nplay Ke2\n")
    assert result.returncode == 1
    assert "line 2: play Ke2: expected Ke2 accepted; got rejected (illegal):" in result.stderr


def test_a_malformed_scenario_exits_2_with_one_line(tmp_path: Path) -> None:
    script = tmp_path / "typo.scenario"
    script.write_text("play e4\nplya e5\n")
    result = chess_actors("run", str(script))
    assert result.returncode == 2
    assert result.stdout == "", "nothing runs when the script is malformed"
    [line] = result.stderr.splitlines()
    assert line.startswith(f"chess-actors run: {script}, line 2: unknown step 'plya'")


def test_a_missing_scenario_file_exits_2(tmp_path: Path) -> None:
    result = chess_actors("run", str(tmp_path / "absent.scenario"))
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1
    assert "absent.scenario" in result.stderr


# --- the parser ---------------------------------------------------------------------------


def test_a_hash_inside_a_move_is_not_a_comment() -> None:
    [step] = parse_scenario("play Qh4#   # fool's mate\n").steps
    assert step == Play(1, "play Qh4#", "Qh4#")


def test_each_step_parses_to_its_own_value() -> None:
    text = "\n".join([
        "start 4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        'reject Ke3 "the king \\"would\\" be in check"',
        "send white-rook-h1 move h1 h8 white",
        "expect yes traversed h2 h3 h4 h5 h6 h7",
        "expect no",
        "crash board on Survey",
        "square h1 white rook white-rook-h1",
        "square a1 empty",
        "legal e1 f2 d1 d2",
        "fen startpos",
        "outcome none",
    ])
    steps = parse_scenario(text).steps
    assert steps[0] == Start(1, "start 4k3/8/8/8/8/8/8/4K2R w K - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    assert steps[1] == Reject(2, 'reject Ke3 "the king \\"would\\" be in check"', "Ke3",
                              'the king "would" be in check')
    assert steps[2] == Send(3, "send white-rook-h1 move h1 h8 white", "white-rook-h1", "h1", "h8", 0)
    assert steps[3] == Expect(4, "expect yes traversed h2 h3 h4 h5 h6 h7", True,
                              ("h2", "h3", "h4", "h5", "h6", "h7"), None)
    assert steps[4] == Expect(5, "expect no", False, None, None)
    assert steps[5] == Crash(6, "crash board on Survey", "board", "Survey")
    assert steps[6] == SquareCheck(7, "square h1 white rook white-rook-h1", "h1", "white rook",
                                   "white-rook-h1")
    assert steps[7] == SquareCheck(8, "square a1 empty", "a1", None, None)
    assert steps[8] == Legal(9, "legal e1 f2 d1 d2", "e1", ("d1", "d2", "f2"))
    assert steps[9] == FenCheck(10, "fen startpos", STARTING_FEN)
    assert steps[10] == OutcomeCheck(11, "outcome none", None)


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("play e4\nstart startpos\n", 2, "start must be the first step"),
        ("expect yes\n", 1, "no send comes before it"),
        ("play e4 e5\n", 1, "play needs exactly one move"),
        ('reject Ke2 "open\n', 1, "never closed"),
        ("reject Ke2 check\n", 1, "double quotes"),
        ("square e9 empty\n", 1, "e9 is off the 8x8 board"),
        ("square e4 white dragon\n", 1, "kinds: pawn, knight"),
        ("crash board on Yes\n", 1, "unknown message kind 'Yes'"),
        ("\n\nfen 8/8 w\n", 3, "FEN"),
        ("outcome mate\n", 1, "outcome needs one of"),
        ("send Bishop move f1 c4\n", 1, "is not an actor"),
        ("restarts one\n", 1, "restarts needs a count"),
        ("play e4\nschedule fifo\n", 2, "schedule comes once, at the top"),
        ("schedule fifo\nschedule fifo\n", 2, "schedule comes once"),
        ("schedule random\n", 1, "schedule needs fifo"),
        ("play e4\nnetwork loss=0.1\n", 2, "network comes once, at the top"),
        ("network seed=1\nschedule fifo\nnetwork seed=2\n", 3, "network comes once"),
        ("network\n", 1, "network needs the links' model"),
        ("network loss=2\n", 1, "loss is a probability from 0 to 1, not '2'"),
        ("network colour=blue\n", 1, "unknown key 'colour'"),
        ("order referee\n", 1, "order needs a step after it"),
        ("order referee\norder board\nplay e4\n", 2, "order (line 1) needs a step after it"),
        ("order\nplay e4\n", 1, "order needs actor names"),
        ("order referee drop\nplay e4\n", 1, "order needs actor names"),
        ("order drop duplicate board\nplay e4\n", 1, "one fault, then a name"),
        ("order Referee\nplay e4\n", 1, "'Referee' is not an actor"),
    ],
)
def test_a_malformed_line_is_named_with_its_problem(text: str, line: int, problem: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, source="t.scenario")
    assert caught.value.line == line
    assert str(caught.value).startswith(f"t.scenario, line {line}: ")
    assert problem in str(caught.value)


def test_a_partition_longer_than_what_heals_is_refused_by_the_grammar() -> None:
    with pytest.raises(ScenarioError, match=r"partition: '3' is not a number of seconds from 0 to 0.3 \("):
        parse_scenario("start startpos\npartition board 3\n", "long.scenario")


def test_a_partition_as_long_as_the_grammar_allows_heals_and_the_game_goes_on() -> None:
    steps = ["start startpos", "play e4", f"partition board {PARTITION_SECONDS:g}", "play e5", "play Nf3"]
    scenario = parse_scenario("\n".join(steps))
    results = run_scenario(scenario)
    assert [result.ok for result in results] == [True] * 5, [result.got for result in results]
