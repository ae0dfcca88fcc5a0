"""Fuzzing the command line: random arguments for every subcommand, run in-process and a few as processes.

Whatever is typed, ``chess-actors`` exits 0, 1 or 2, says what went wrong in at most one line on stderr,
and never shows a traceback.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import chdir, redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actors.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
TRIED: Counter[str] = Counter()
WORK = Path(tempfile.mkdtemp(prefix="fuzz-cli-"))


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the command line has no subcommands")


SUBCOMMANDS = _subcommands()


def _write(name: str, content: bytes) -> str:
    path = WORK / name
    path.write_bytes(content)
    return str(path)


OPERA = (DATA / "opera-game.pgn").read_bytes()
SCENARIOS = sorted((ROOT / "actors" / "examples").glob("*.scenario"))
INPUT_FILES = [
    _write("opera.pgn", OPERA),
    _write("illegal.pgn", b'[White "x"]\n\n1. e4 e5 2. Ke3 *\n'),
    _write("garbage.pgn", b"1. e4 {never closed ( [ 2. Nf3\n\x00\xff\n"),
    _write("latin1.pgn", '[White "Müller"]\n\n1. e4 *\n'.encode("latin-1")),
    _write("empty.txt", b""),
    _write("trace.jsonl", (DATA / "sample.trace.jsonl").read_bytes()),
    _write("bad.jsonl", b'{"msg_id": 1}\nnot json\n'),
    _write("batch.jsonl", b'{"position": [["W","K",5,1]], "move": ["W","K",5,2]}\n'),
    _write("bad-batch.jsonl", b'{"position": [["W","K",5,1]]}\n\n[]\n'),
    _write("bad.scenario", b"start startpos\nplay e4\nexpect maybe\n"),
    _write("ok.scenario", SCENARIOS[0].read_bytes() if SCENARIOS else b"start startpos\nplay e4\n"),
    str(WORK),  # a directory
    str(WORK / "missing.pgn"),
    "-",
]
OUTPUT_FILES = [str(WORK / "out.jsonl"), str(WORK), str(WORK / "no" / "such" / "dir.jsonl"), "-"]
GARBAGE = ["", " ", "-", "--", "x", "é", "-1", "0", "1", "--nope", "-z", "a" * 300, "1e9", "None", "'e4'",
           "\t"]
SQUARES = ["e4", "a1", "h8", "aa27", "zz0", "e9", "E4", " e4", "e0", "a-1", "4e", "ba1000"]
FENS = [
    "startpos", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", "8/8/8/8/8/8/8/K6k w - - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "k7/8/K7 w",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
]
DEPTHS = ["0", "1", "2", "-1", "x", "1.5", "", "٣", " 2 ", "+1"]
POSITIONS = ['[["W","K",5,1],["W","R",8,1]]', "[]", "[[]]", '[["W","K",9,1]]', "{}", "[", '[["W","K",5,1]] x',
             '[["W","K",0,0]]', '"W"', "null"]
MOVES = ['["W","R",8,2]', '["W","K",5,2]', '["B","Q",1,1]', "[1,2]", '["W","X",1,1]', "", "[]"]
PLIES = ["1-2", "3", "2-1", "a-b", "", "0-0", "1-99999", "-", "1-"]
SIZES = ["8", "10x12", "0", "x", "3x", "5x5", "1", "-4", "8X8"]
WORKERS = ["1", "0", "-3", "x"]  # more than one worker forks processes: one process test does that

POSITIONAL_POOLS = {
    ("color", "square"): SQUARES,
    ("perft", "fen"): FENS,
    ("perft", "depth"): DEPTHS,
    ("trace", "path"): INPUT_FILES,
    ("run", "scenario"): INPUT_FILES,
    ("replay", "pgn"): INPUT_FILES,
    ("check-move", "position"): POSITIONS,
    ("check-move", "move"): MOVES,
}
OPTION_POOLS = {
    "--workers": WORKERS, "--trace": OUTPUT_FILES, "--batch": INPUT_FILES, "--plies": PLIES,
    "--size": SIZES, "--start": SQUARES,
}
NEVER = {"--ray"}  # it would start or look for a Ray cluster


async def _stopped_at_once(server: object) -> None:
    """``chess-actors studio`` serves until a signal: in-process, the signal comes as it starts."""


@st.composite
def argv_for(draw: st.DrawFn, command: str) -> list[str]:
    """Arguments for ``command``: its own options and positionals, with good and bad values, in any order."""
    parser = SUBCOMMANDS[command]
    parts: list[list[str]] = []
    for action in parser._actions:
        if not action.option_strings:
            pool = POSITIONAL_POOLS.get((command, action.dest), SQUARES + GARBAGE)
            optional = action.nargs in ("*", "?")
            count = draw(st.integers(0, 2)) if optional else draw(st.integers(0, 1) | st.just(1))
            parts += [[draw(st.sampled_from(pool + GARBAGE[:4]))] for _ in range(count)]
            continue
        option = draw(st.sampled_from(action.option_strings))
        if option in NEVER or (option in ("-h", "--help") and draw(st.integers(0, 20))):
            continue
        if not draw(st.booleans()):
            continue
        if action.nargs == 0:
            parts.append([option])
        elif action.choices is not None:
            parts.append([option, draw(st.sampled_from([*map(str, action.choices), "nope", ""]))])
        else:
            parts.append([option, draw(st.sampled_from(OPTION_POOLS.get(option, SQUARES + GARBAGE)))])
    if draw(st.integers(0, 9)) == 0:
        parts.append([draw(st.sampled_from(GARBAGE))])
    order = draw(st.permutations(range(len(parts)))) if parts else []
    return [command] + [word for index in order for word in parts[index]]


stdin_bytes = st.one_of(
    st.just(b""), st.just(OPERA), st.binary(max_size=200),
    st.sampled_from([b"1. e4 e5 *\n", b'{"position": [], "move": ["W","K",1,1]}\n',
                     b"start startpos\nplay e4\n", (DATA / "sample.trace.jsonl").read_bytes()[:2000]]),
)


def run_in_process(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    """Run ``main(argv)`` with ``stdin`` as standard input; the exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    # As a real process reads it here (C.UTF-8 locale): UTF-8, undecodable bytes kept as surrogates.
    fake_stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
    # In the scratch directory: '--trace -' writes a file called '-' wherever the command runs.
    with (chdir(WORK), redirect_stdout(out), redirect_stderr(err),
          mock.patch.object(sys, "stdin", fake_stdin),
          mock.patch("actors.cli.studio._serve_until_stopped", _stopped_at_once)):
        try:
            status: object = main(argv)
        except SystemExit as exit_:
            status = 0 if exit_.code is None else exit_.code
    assert isinstance(status, int), f"{argv}: exit status {status!r}"
    return status, out.getvalue(), err.getvalue()


def check(argv: list[str], status: int, out: str, err: str) -> None:
    """The contract every run keeps."""
    assert status in (0, 1, 2), f"{argv}: exit status {status}; stderr: {err!r}"
    assert "Traceback" not in out + err, f"{argv}: a traceback:\n{err}"
    lines = err.strip().splitlines()
    assert len(lines) <= 1, f"{argv}: stderr should be at most one line, got {len(lines)}:\n{err}"
    if status == 2:
        assert len(lines) == 1, f"{argv}: exit 2 without a one-line reason on stderr"


@pytest.fixture(scope="module", autouse=True)
def report_counts() -> Iterator[None]:
    yield
    print("\nCLI argument vectors tried per subcommand:", dict(sorted(TRIED.items())))
    shutil.rmtree(WORK, ignore_errors=True)


# Lone surrogates cannot come from a real command line; hypothesis' text() excludes them anyway.
CLI_FUZZ = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_every_subcommand_answers_any_arguments_with_a_clear_status(command: str) -> None:
    @CLI_FUZZ
    @given(argv=argv_for(command), stdin=stdin_bytes)
    def run(argv: list[str], stdin: bytes) -> None:
        if any((command, word) in HARD for word in argv[1:]):
            return  # see test_known_bugs_as_a_process
        TRIED[command] += 1
        check(argv, *run_in_process(argv, stdin))

    run()


@CLI_FUZZ
@given(argv=st.lists(st.sampled_from([*SUBCOMMANDS, *GARBAGE, "--help", "--json", "-h", *SQUARES[:3]]),
                     max_size=5))
def test_any_words_at_all_get_a_clear_status(argv: list[str]) -> None:
    TRIED["<any words>"] += 1
    check(argv, *run_in_process(argv, b""))


# --- as real processes -------------------------------------------------------------------------


def _cli(*args: str, stdin: bytes = b"", shell_pipe: str | None = None) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "actors.cli", *args]
    if shell_pipe is not None:
        line = " ".join(f"'{part}'" for part in command) + f" | {shell_pipe}"
        return subprocess.run(["bash", "-o", "pipefail", "-c", line], input=stdin, capture_output=True,
                              cwd=ROOT, timeout=120, check=False)
    return subprocess.run(command, input=stdin, capture_output=True, cwd=ROOT, timeout=120, check=False,
                          env={**os.environ, "PYTHONIOENCODING": ""})


@pytest.mark.parametrize(
    ("args", "stdin", "status"),
    [
        ((), b"", 2),
        (("replay", str(DATA / "no-such-file.pgn")), b"", 2),
        (("color", "zz0"), b"", 2),
        (("perft", "startpos", "x"), b"", 2),
        (("check-move", "--batch", "-"), b'{"position": [], "move": ["W","K",1,1]}\n\n', 2),
        (("trace", "-", "--to", "mermaid"), b"not json\n", 2),
        (("replay", "-", "--engine", "direct"), b"1. e4 e5 2. Ke3 *\n", 1),
    ],
)
def test_as_a_process_errors_are_one_line_and_the_status_says_what_happened(
    args: tuple[str, ...], stdin: bytes, status: int
) -> None:
    TRIED["<process>"] += 1
    result = _cli(*args, stdin=stdin)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == status, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) <= 1, err


def test_as_a_process_a_closed_pipe_ends_quietly() -> None:
    TRIED["<process>"] += 1
    result = _cli("replay", str(DATA / "famous.pgn"), "--engine", "direct", shell_pipe="head -c 10")
    assert result.returncode == 0, result.stderr.decode()
    assert b"Traceback" not in result.stderr


def test_as_a_process_workers_give_the_same_output_as_one_process() -> None:
    TRIED["<process>"] += 1
    famous = str(DATA / "famous.pgn")
    one = _cli("replay", famous, "--engine", "direct", "--json")
    two = _cli("replay", famous, "--engine", "direct", "--json", "--workers", "2")
    assert one.returncode == two.returncode == 0, two.stderr.decode()
    assert one.stdout == two.stdout


HUGE = "9" * 5000  # past Python's 4300-digit limit for int(str), which then raises a bare ValueError
DEEP = _write("deep.jsonl", b"[" * 100_000 + b"\n")
HARD_INPUTS = [
    # actors/cli/run.py opens the scenario as strict UTF-8: UnicodeDecodeError escapes main()
    ("run", INPUT_FILES[2]),
    ("run", INPUT_FILES[3]),
    # board/rules/squares.py: int() of a rank past 4300 digits
    ("color", f"a{HUGE}"),
    # actors/cli/perft.py: parse_depth's int()
    ("perft", "startpos", HUGE),
    # board/puzzles/chessmoveq.py: _decode lets json's digit-limit ValueError through
    ("check-move", f'[["W","K",{HUGE},1]]', '["W","K",1,1]'),
    # actors/trace_export.py: read_jsonl lets RecursionError (and the digit limit) through
    ("trace", DEEP, "--to", "jsonl"),
]
HARD = {command[:2] for command in HARD_INPUTS}


@pytest.mark.parametrize("args", HARD_INPUTS, ids=[" ".join(Path(word).name for word in args)[:40]
                                                  for args in HARD_INPUTS])
def test_hard_inputs_as_a_process_end_with_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    TRIED["<process>"] += 1
    result = _cli(*args)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2 and "Traceback" not in err, err[-300:]
