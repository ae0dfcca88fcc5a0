"""``chess-actors trace`` end to end: a subprocess per run, on tests/data/sample.trace.jsonl.

Bad input of every kind must end in exit 2 with one line on stderr and no traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "data" / "sample.trace.jsonl"
SAMPLE_LINES = SAMPLE.read_text(encoding="utf-8").splitlines()

# ``python -m actors.cli`` needs actors/cli/__main__.py; until the package has one, run the same
# entry point through -c (it reads sys.argv exactly as -m would).
if (ROOT / "actors" / "cli" / "__main__.py").exists():
    ENTRY = ["-m", "actors.cli"]
else:
    ENTRY = ["-c", "import sys; from actors.cli import main; sys.exit(main())"]


def chess_actors(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would, in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, *ENTRY, *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_trace_to_mermaid_prints_a_sequence_diagram() -> None:
    result = chess_actors("trace", str(SAMPLE), "--to", "mermaid")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "sequenceDiagram"
    assert "    participant white_knight_g1 as white-knight-g1" in lines
    assert "        referee->>white_knight_g1: MoveQuery" in lines
    assert result.stderr == ""


def test_trace_plies_keeps_only_that_range() -> None:
    result = chess_actors("trace", str(SAMPLE), "--to", "mermaid", "--plies", "2-2")
    assert result.returncode == 0, result.stderr
    assert "black-pawn-d7" in result.stdout
    assert "white-knight-g1" not in result.stdout


def test_trace_to_perfetto_prints_one_chrome_trace_object() -> None:
    result = chess_actors("trace", str(SAMPLE), "--to", "perfetto")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1
    trace = json.loads(result.stdout)
    assert trace["displayTimeUnit"] == "ns"
    slices = [
        item for item in trace["traceEvents"] if item["ph"] == "X" and item["cat"] != "request"
    ]
    assert len(slices) == len(SAMPLE_LINES)


def test_trace_to_jsonl_reprints_the_events_and_reads_stdin() -> None:
    result = chess_actors("trace", "-", "--to", "jsonl", stdin=SAMPLE.read_text(encoding="utf-8"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == SAMPLE_LINES


def test_trace_json_flag_wraps_the_diagram_in_one_object() -> None:
    result = chess_actors("trace", str(SAMPLE), "--to", "mermaid", "--plies", "1", "--json")
    assert result.returncode == 0, result.stderr
    [line] = result.stdout.splitlines()
    record = json.loads(line)
    assert record["format"] == "mermaid"
    assert record["plies"] == [1, 1]
    assert record["diagram"].startswith("sequenceDiagram\n")


def _write(tmp_path: Path, lines: list[str]) -> str:
    path = tmp_path / "bad.trace.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _without(field: str) -> str:
    record = json.loads(SAMPLE_LINES[1])
    del record[field]
    return json.dumps(record)


@pytest.mark.parametrize(
    ("make_args", "expected"),
    [
        (lambda tmp: [str(tmp / "missing.jsonl"), "--to", "mermaid"], "cannot read"),
        (
            lambda tmp: [_write(tmp, [*SAMPLE_LINES[:2], "{oops"]), "--to", "jsonl"],
            "line 3: not JSON",
        ),
        (
            lambda tmp: [_write(tmp, [SAMPLE_LINES[0], _without("receiver")]), "--to", "perfetto"],
            "line 2: missing field 'receiver'",
        ),
        (lambda tmp: [_write(tmp, []), "--to", "mermaid"], "holds no events"),
        (lambda tmp: [str(SAMPLE), "--to", "mermaid", "--plies", "5-2"], "ends before it starts"),
        (lambda tmp: [str(SAMPLE), "--to", "mermaid", "--plies", "x"], "expected a range of plies"),
        (lambda tmp: [str(SAMPLE), "--to", "mermaid", "--plies", "3-4"], "the trace has plies 1-2"),
        (lambda tmp: [str(SAMPLE), "--to", "svg"], "invalid choice"),
        (lambda tmp: [str(SAMPLE)], "--to"),
        (lambda tmp: [str(tmp), "--to", "jsonl"], "cannot read"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_no_traceback(
    tmp_path: Path, make_args: object, expected: str
) -> None:
    assert callable(make_args)
    result = chess_actors("trace", *make_args(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert expected in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("phase", [" ", "#", "", "\t ply"], ids=repr)
@pytest.mark.parametrize("to", ["mermaid", "markdown", "perfetto", "jsonl", "html"])
def test_any_phase_text_is_drawn_in_every_format(tmp_path: Path, phase: str, to: str) -> None:
    lines = [json.dumps({**json.loads(line), "phase": phase}) for line in SAMPLE_LINES]
    result = chess_actors("trace", _write(tmp_path, lines), "--to", to)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout
