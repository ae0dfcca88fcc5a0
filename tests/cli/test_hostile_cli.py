"""Hostile input and hostile surroundings, through the real command line.

Each case runs ``chess-actors`` as a child process under a memory limit (RLIMIT_AS) and a timeout,
in a session of its own: it must end within seconds, with the documented exit status, at most one
line on stderr, no traceback, and no process of its session left behind.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers.extras import needs

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
MEMORY_LIMIT = 300 * 1024 * 1024
THREAD_STACK = 2 * 1024 * 1024
SECONDS = 60.0
"""Generous for a loaded two-core machine; each case takes a few seconds."""
OPERA = DATA / "opera-game.pgn"
EVIL_TAG = "\x1b]0;pwned\x07\x1b[2J"


@dataclass(frozen=True)
class Ended:
    status: int
    stdout: str
    stderr: str
    seconds: float


CHILD_ENV = {**os.environ, "MALLOC_ARENA_MAX": "2"}
"""glibc reserves 64 MB of address space per malloc arena, one per thread up to 8 a core: under
RLIMIT_AS that, not the input, would be the limit."""


def _limited(close_stdout: bool = False, memory: int | None = MEMORY_LIMIT) -> Callable[[], None]:
    def prepare() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            # Threads take their stack size from this limit: 34 actor threads at the usual 8 MB
            # would reserve most of the address space before any input is read.
            hard = resource.getrlimit(resource.RLIMIT_STACK)[1]
            resource.setrlimit(resource.RLIMIT_STACK, (THREAD_STACK, hard))
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if close_stdout:
            os.close(1)
    return prepare


def _session_alive(session: int) -> list[int]:
    """Processes still in the session the child led (its workers, if any outlived it)."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            alive.append(int(entry))
    return alive


def _no_orphans(session: int) -> None:
    deadline = time.monotonic() + 10
    while _session_alive(session) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _session_alive(session), f"processes left behind: {_session_alive(session)}"


def chess_actors(*args: str, stdin: str | None = None, close_stdout: bool = False,
                 stdout_path: str | None = None, stderr_path: str | None = None,
                 memory: int | None = MEMORY_LIMIT, env: dict[str, str] | None = None) -> Ended:
    """Run the command line to its end under the limits, and check it left nothing behind."""
    out = open(stdout_path, "w") if stdout_path else subprocess.PIPE  # noqa: SIM115
    err = open(stderr_path, "w") if stderr_path else subprocess.PIPE  # noqa: SIM115
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "actors.cli", *args], cwd=ROOT, text=True,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL if close_stdout else out, stderr=err,
        preexec_fn=_limited(close_stdout, memory), start_new_session=True,
        env={**CHILD_ENV, **(env or {})},
    )
    try:
        stdout, stderr = child.communicate(stdin, timeout=SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise AssertionError(f"chess-actors {' '.join(args)} did not end within {SECONDS} s") from None
    finally:
        for stream in (out, err):
            if not isinstance(stream, int):
                stream.close()
    _no_orphans(child.pid)
    return Ended(child.returncode, stdout or "", stderr or "", time.monotonic() - started)


def one_error(ended: Ended, status: int, *words: str) -> None:
    """The documented end of a failure: ``status``, one line on stderr holding ``words``."""
    assert ended.status == status, (ended.status, ended.stderr[-2000:])
    assert "Traceback" not in ended.stderr, ended.stderr[-2000:]
    lines = ended.stderr.splitlines()
    assert len(lines) == 1, ended.stderr[-2000:]
    for word in words:
        assert word in lines[0], lines[0]


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- output conditions -------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["actors", "direct"])
def test_a_closed_stdout_is_one_line_naming_it(engine: str) -> None:
    ended = chess_actors("replay", str(OPERA), "--engine", engine, close_stdout=True)
    one_error(ended, 2, "cannot write standard output", "closed")


@pytest.mark.parametrize("args", [["replay", str(OPERA)], ["replay", str(OPERA), "--json"],
                                  ["check-move", '[["W","K",5,1]]', '["W","K",5,2]'],
                                  ["perft", "startpos", "2"]])
def test_a_full_stdout_is_one_line_naming_it(args: list[str]) -> None:
    ended = chess_actors(*args, stdout_path="/dev/full")
    one_error(ended, 2, "cannot write standard output", "No space left on device")


def test_full_stdout_and_stderr_still_end_with_the_status() -> None:
    ended = chess_actors("replay", str(OPERA), stdout_path="/dev/full", stderr_path="/dev/full")
    assert ended.status == 2


@pytest.mark.parametrize("command", ["replay", "run"])
def test_a_trace_that_cannot_be_written_is_named_after_the_verdicts(command: str) -> None:
    target = str(OPERA) if command == "replay" else str(ROOT / "actors/examples/checkmate.scenario")
    ended = chess_actors(command, target, "--trace", "/dev/full")
    one_error(ended, 2, "cannot write --trace /dev/full", "No space left on device")
    verdict = "game 1: Morphy" if command == "replay" else "steps passed"
    assert verdict in ended.stdout


@pytest.mark.parametrize("args", [["replay", str(OPERA)], ["run", "actors/examples/checkmate.scenario"],
                                  ["replay", str(DATA / "famous.pgn"), "--engine", "direct"]])
def test_a_reader_that_goes_away_is_not_an_illegal_move(args: list[str]) -> None:
    child = subprocess.Popen([sys.executable, "-m", "actors.cli", *args], cwd=ROOT, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                             preexec_fn=_limited(), env=CHILD_ENV)
    assert child.stdout is not None and child.stderr is not None
    first = child.stdout.readline()
    child.stdout.close()  # as `| head -1` does
    status = child.wait(timeout=SECONDS)
    stderr = child.stderr.read()
    child.stderr.close()
    _no_orphans(child.pid)
    assert first
    assert status == 0, stderr
    assert stderr == ""


@pytest.mark.parametrize("args", [
    ["replay", "/dev/zero"], ["replay", "/dev/zero", "--engine", "direct"],
    ["trace", "/dev/zero", "--to", "jsonl"], ["check-move", "--batch", "/dev/zero"], ["run", "/dev/zero"],
])
def test_endless_input_under_a_memory_limit_is_one_line(args: list[str]) -> None:
    ended = chess_actors(*args)
    one_error(ended, 2, "/dev/zero" if args[0] != "replay" else "")


# --- terminal-safe text ------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["actors", "direct"])
def test_escape_sequences_from_a_pgn_never_reach_the_terminal(tmp_path: Path, engine: str) -> None:
    path = _write(tmp_path, "evil.pgn", f'[White "{EVIL_TAG}"]\n[Black "\u202eevil"]\n\n'
                                        "1. e4 e5 2. Nf3\x1b[31m *\n")
    ended = chess_actors("replay", path, "--engine", engine)
    assert ended.status == 1, ended.stderr
    for shown in (ended.stdout, ended.stderr):
        assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in ended.stdout
    exact = chess_actors("replay", path, "--engine", engine, "--json")
    assert '"white": "\\u001b]0;pwned\\u0007\\u001b[2J"' in exact.stdout


def test_escape_sequences_in_a_scenario_are_escaped(tmp_path: Path) -> None:
    path = _write(tmp_path, "evil.scenario", "start startpos\nplay e4\x1b[2J\n")
    ended = chess_actors("run", path)
    assert ended.status in (1, 2)
    assert "\x1b" not in ended.stdout + ended.stderr
    assert "\\x1b[2J" in ended.stdout + ended.stderr


def test_escape_sequences_piped_into_the_shell_are_escaped_in_its_transcript() -> None:
    # OSC 52 would set the clipboard, OSC 0 the title, CSI 2J clear the screen of whoever reads it.
    commands = f"play e4{EVIL_TAG}\nfoo \x1b]52;c;SGVsbG8=\x07\nsend board \"\x1b[2J\nplay e4\nquit\n"
    ended = chess_actors("shell", stdin=commands)
    assert ended.status == 1, ended.stderr
    for shown in (ended.stdout, ended.stderr):
        assert "\x1b" not in shown and "\x07" not in shown
    assert "chess> play e4\\x1b]0;pwned\\x07\\x1b[2J" in ended.stdout
    assert "chess> foo \\x1b]52;c;SGVsbG8=\\x07" in ended.stdout


@pytest.mark.parametrize("args", [
    ["replay", str(OPERA), "--html", "{}"], ["replay", str(OPERA), "--trace", "{}"],
    ["run", "--example", "pin", "--html", "{}"], ["run", "--example", "pin", "--trace", "{}"],
    ["explore", str(OPERA), "--counterexample", "{}"],
    ["trace", str(DATA / "sample.trace.jsonl"), "--to", "html", "-o", "{}"],
], ids=lambda args: f"{args[0]} {args[-2]}")
def test_an_output_path_that_cannot_be_written_is_refused_before_any_work(
    tmp_path: Path, args: list[str]
) -> None:
    path = str(tmp_path / "missing" / "out")
    ended = chess_actors(*[path if arg == "{}" else arg for arg in args])
    one_error(ended, 2, f"{args[-2]} {path}: cannot write: no such directory {tmp_path / 'missing'}")
    assert ended.stdout == ""


# --- worker processes --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def many_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "many.pgn"
    path.write_text((DATA / "famous.pgn").read_text(encoding="utf-8") * 150, encoding="utf-8")
    return path


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def _start_bulk(path: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-m", "actors.cli", "replay", str(path), "--workers", "2", "--json"], cwd=ROOT,
        text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_limited(memory=None),
    )
    deadline = time.monotonic() + SECONDS
    while len([pid for pid in _children(child.pid) if _is_python(pid)]) < 2:
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    time.sleep(0.5)  # past the forks: the run is under way
    return child


def _is_python(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return b"python" in cmdline.read()
    except OSError:
        return False


@pytest.mark.parametrize(("signum", "status", "word"), [(signal.SIGTERM, 143, "terminated"),
                                                       (signal.SIGINT, 130, "interrupted")])
def test_a_signal_ends_bulk_replay_and_every_worker(many_games: Path, signum: int, status: int,
                                                    word: str) -> None:
    child = _start_bulk(many_games)
    child.send_signal(signum)
    assert child.wait(timeout=SECONDS) == status
    assert child.stderr is not None
    stderr = child.stderr.read()
    child.stderr.close()
    one_error(Ended(status, "", stderr, 0), status, word)
    _no_orphans(child.pid)


def test_a_dead_worker_ends_the_run_with_every_other_worker(many_games: Path) -> None:
    child = _start_bulk(many_games)
    os.kill(next(pid for pid in _children(child.pid) if _is_python(pid)), signal.SIGKILL)
    assert child.wait(timeout=SECONDS) == 1
    assert child.stderr is not None
    stderr = child.stderr.read()
    child.stderr.close()
    one_error(Ended(1, "", stderr, 0), 1, "a worker process died")
    _no_orphans(child.pid)


def test_too_many_workers_is_a_clear_usage_error() -> None:
    one_error(chess_actors("replay", str(OPERA), "--workers", "1000"), 2, "--workers 1000", "at most")


def test_a_fifo_is_read_once_as_a_stream(tmp_path: Path) -> None:
    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat {OPERA} > {fifo}"])
    ended = chess_actors("replay", str(fifo), "--engine", "direct", "--json")
    writer.wait(timeout=SECONDS)
    assert ended.status == 0, ended.stderr
    assert '"plies": 33' in ended.stdout and '"outcome": "checkmate"' in ended.stdout


def test_a_directory_as_pgn_is_one_line() -> None:
    one_error(chess_actors("replay", str(DATA)), 2, str(DATA), "directory")


# --- the trace reader --------------------------------------------------------------------------


def test_an_overlong_trace_line_is_refused_by_its_limit(tmp_path: Path) -> None:
    path = _write(tmp_path, "long.jsonl", '{"msg_id": 1, "pad": "' + "x" * 2_000_000 + '"}\n')
    one_error(chess_actors("trace", path, "--to", "jsonl"), 2, "line 1", "longer than the limit")


# --- Ray ---------------------------------------------------------------------------------------


def test_an_address_that_is_no_ray_address_is_one_line() -> None:
    ended = chess_actors("replay", str(OPERA), "--ray", "http://x")
    one_error(ended, 2, "--ray http://x", "not a Ray address")


@needs("ray")
def test_an_unreachable_ray_cluster_fails_within_the_bound() -> None:
    ended = chess_actors("replay", str(OPERA), "--ray", "127.0.0.1:1", "--ray-timeout", "5", memory=None)
    one_error(ended, 2, "--ray 127.0.0.1:1")
    assert ended.seconds < 30


# --- the rules' end of a game ------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["actors", "direct"])
def test_a_long_knight_shuffle_ends_at_the_fivefold_repetition(tmp_path: Path, engine: str) -> None:
    moves = " ".join(f"{2 * n + 1}. Nf3 Nf6 {2 * n + 2}. Ng1 Ng8" for n in range(5000))
    path = _write(tmp_path, "shuffle.pgn", f'[White "a"]\n[Black "b"]\n\n{moves} 1/2-1/2\n')
    ended = chess_actors("replay", path, "--engine", engine, "--json")
    assert ended.status == 1, ended.stderr
    assert '"plies": 16' in ended.stdout
    assert '"reason": "the game is over (fivefold repetition at ply 16)"' in ended.stdout


# --- what the fuzzers try ----------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["perft", "not a fen", "2"], ["perft", "startpos", "-1"], ["color", "e"], ["color", "4e"],
    ["check-move", "[[", '["W","K",5,2]'], ["check-move", "[]", '["W","Q",99,2]'],
    ["knight", "path", "a1", "zz99"], ["replay", "/nonexistent.pgn"],
    ["trace", "/nonexistent", "--to", "jsonl"],
    ["run", "/nonexistent.scenario"], ["replay", str(OPERA), "--workers", "0"], ["replay", "--engine", "x"],
    ["replay", "--ray", "127.0.0.1:1", "--ray-timeout", "1e300"],
    ["replay", "--ray", "127.0.0.1:1", "--ray-timeout", "nan"],
])
def test_malformed_arguments_are_one_line_and_status_2(args: list[str]) -> None:
    one_error(chess_actors(*args), 2)
