"""Every long computation answers signals: the rules core's long loops (perft, the knight treasure
hunt) call a checkpoint the command line gives them, where a pending signal's handler runs even when
the loop is compiled and never returns to the interpreter otherwise."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from actors.clusters.cluster import RUN_MARK_VARIABLE
from board.notation.fen import parse_fen, write_fen
from board.puzzles.knights.treasure import MAX_TREASURES, hunt_moves, treasure_hunt
from board.rules.perft import divided, perft
from board.rules.squares import parse_square
from tests.helpers.extras import needs
from tests.helpers.processes import alive, living_descendants

ROOT = Path(__file__).resolve().parents[2]
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
TREASURES = [parse_square(name) for name in
             ("b3", "c6", "d8", "e2", "f5", "g7", "h1", "h8", "a5", "c1", "e7", "g3")]


class Stop(Exception):
    pass


def test_perft_calls_its_checkpoint_every_two_plies_from_the_leaves() -> None:
    position = parse_fen(KIWIPETE)
    calls = []
    assert perft(position, 3, lambda: calls.append(1)) == 97862
    assert len(calls) == 48  # one call for each position two plies from the leaves: perft 1
    assert sum(count for _, count in divided(position, 3, lambda: calls.append(1))) == 97862


def test_what_the_checkpoint_raises_ends_the_count_with_the_position_restored() -> None:
    position = parse_fen(KIWIPETE)
    calls = 0

    def stop_at_the_hundredth() -> None:
        nonlocal calls
        calls += 1
        if calls == 100:
            raise Stop

    with pytest.raises(Stop):
        perft(position, 4, stop_at_the_hundredth)
    assert write_fen(position) == KIWIPETE


def test_the_treasure_search_calls_its_checkpoint_and_stops_when_it_raises() -> None:
    start = parse_square("a1")
    calls = []
    assert hunt_moves(start, TREASURES, checkpoint=lambda: calls.append(1)) == hunt_moves(start, TREASURES)
    assert len(calls) == ((1 << len(TREASURES)) - 1) // 1024  # every 1,024 sets of treasures

    def stop() -> None:
        raise Stop

    with pytest.raises(Stop):
        treasure_hunt(start, TREASURES, checkpoint=stop)


def test_the_treasure_cap_is_where_the_search_finishes_in_seconds() -> None:
    assert MAX_TREASURES == 16


def _cpu_seconds(pid: int) -> float:
    """The processor time process ``pid`` has used (user and system), in seconds."""
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize(("signum", "status", "said"), [
    (signal.SIGINT, 130, "chess-actors perft: interrupted"),
    (signal.SIGTERM, 143, "chess-actors perft: terminated"),
])
def test_a_long_perft_ends_on_a_signal_with_its_status_and_line(signum: int, status: int, said: str) -> None:
    child = subprocess.Popen([sys.executable, "-m", "actors.cli", "perft", "startpos", "8"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        # Counting by then, however loaded the machine: starting takes well under a second of
        # processor time, and perft 8 takes hours of it.
        deadline = time.monotonic() + 120
        while _cpu_seconds(child.pid) < 2.5 and time.monotonic() < deadline:
            time.sleep(0.05)
        child.send_signal(signum)
        stdout, stderr = child.communicate(timeout=5)  # generous: a checkpoint comes every few ms
    finally:
        child.kill()
        child.wait()
    assert (child.returncode, stdout, stderr) == (status, "", said + "\n")


@needs("ray")
def test_no_ray_process_of_a_nodes_run_outlives_its_killed_parent() -> None:
    child = subprocess.Popen([sys.executable, "-m", "actors.cli", "shell", "--nodes", "2"], cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT),
                                  # as when the parent of this shell has a local Ray of its own
                                  RUN_MARK_VARIABLE: f"{os.getpid()}-inherited"})
    started: list[int] = []
    try:
        assert child.stdout is not None
        line = ""
        while "nodes:" not in line:  # the placement is shown once the nodes answer
            line = child.stdout.readline()
            assert line, "the shell ended before its nodes started"
        started = living_descendants(child.pid)
        assert len(started) >= 3  # Ray's servers and the two nodes at least
    finally:
        child.kill()  # SIGKILL: no cleanup of its own runs
        child.wait()
    # Ray's agents outlived such a parent by 40 to 70 s; the watcher ends them within about ten
    # (SIGTERM, then SIGKILL swept for eight seconds), given slack here for a loaded machine.
    deadline = time.monotonic() + 30
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = alive(started)
    commands = {pid: _command(pid) for pid in left}
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"still running after 30 s: {commands}"


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "?"
