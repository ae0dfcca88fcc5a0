"""The rules core's two builds side by side with python-chess: compiled (mypyc), pure, python-chess.

Each workload runs in a fresh interpreter per build (one process cannot hold both builds), timed
inside it ("in process") and from outside it ("whole command"); runs alternate the three sides and
each side's median is reported, with the ratios to python-chess.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

SIDES = ("compiled", "pure", "python-chess")

_OUR_PERFT = """
import sys, time
from board.notation.fen import parse_fen
from board.rules.perft import perft
position = parse_fen(sys.argv[1], chess960=None)
start = time.perf_counter()
nodes = perft(position, int(sys.argv[2]))
print(nodes, time.perf_counter() - start)
"""

_THEIR_PERFT = """
import sys, time
import chess
sys.path.insert(0, sys.argv[3])
from benchmarks.perft import python_chess_perft
board = chess.Board(sys.argv[1], chess960=True)
start = time.perf_counter()
nodes = python_chess_perft(board, int(sys.argv[2]))
print(nodes, time.perf_counter() - start)
"""

_OUR_REPLAY = """
import sys, time
start = time.perf_counter()
from board.notation.pgn import read_games
from board.games.replay import replay_direct
plies = 0
with open(sys.argv[1], encoding="utf-8") as source:
    for game in read_games(source):
        plies += replay_direct(game).plies
print(plies, time.perf_counter() - start)
"""

_THEIR_REPLAY = """
import sys, time
start = time.perf_counter()
import chess.pgn
plies = 0
with open(sys.argv[1], encoding="utf-8") as source:
    while (game := chess.pgn.read_game(source)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
        board.outcome()
print(plies, time.perf_counter() - start)
"""


def environment(side: str) -> dict[str, str]:
    """The environment of a run of ``side``: the pure build is asked for, the compiled one is not."""
    env = {key: value for key, value in os.environ.items() if key != "CHESS_ACTORS_PURE"}
    if side == "pure":
        env["CHESS_ACTORS_PURE"] = "1"
    return env


def build_of_this_install() -> str:
    """'compiled' when this install has a compiled rules core, else 'pure'."""
    return _board_says("BUILD")


def _board_says(name: str) -> str:
    """``board.<name>`` as a fresh interpreter of this install, not asked for the pure build, sees it."""
    result = subprocess.run([sys.executable, "-c", f"import board; print(board.{name})"], capture_output=True,
                            text=True, check=True, env=environment("compiled"))
    return result.stdout.strip()


def _run(command: Sequence[str], side: str) -> tuple[str, float, float]:
    """(first output word, seconds it timed itself, seconds of the whole process)."""
    start = time.perf_counter()
    result = subprocess.run(list(command), capture_output=True, text=True, check=False, env=environment(side))
    whole = time.perf_counter() - start
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command[:4])} failed: {result.stderr.strip()}")
    words = result.stdout.split()
    try:
        inner = float(words[1])
    except (IndexError, ValueError):  # a whole command prints its own output, not a timing
        inner = whole
    return words[0] if words else "", inner, whole


def compare(
    label: str,
    in_process: dict[str, Sequence[str]],
    whole: dict[str, Sequence[str]],
    rounds: int,
    unit: str,
    amount: int,
) -> None:
    """Run each side's two commands ``rounds`` times in turn; print medians, rates and ratios.

    ``in_process`` commands print their answer and the seconds they timed themselves; ``whole``
    commands are timed from outside, start-up included.
    """
    sides = SIDES
    if build_of_this_install() != "compiled":
        # A 'compiled' side that imports the source (no compiler, or a source file edited since the
        # install) would measure the pure build twice under two names.
        print(f"{label}: no compiled side: this install runs {_board_says('BUILD_NOTE')}", flush=True)
        sides = tuple(side for side in SIDES if side != "compiled")
    inner: dict[str, list[float]] = {side: [] for side in sides}
    outer: dict[str, list[float]] = {side: [] for side in sides}
    answers: dict[str, str] = {}
    for _ in range(rounds):
        for side in sides:
            answers[side], seconds, _ = _run(in_process[side], side)
            inner[side].append(seconds)
            outer[side].append(_run(whole[side], side)[2])
    if len(set(answers.values())) != 1:
        raise SystemExit(f"{label}: the sides disagree: {answers}")
    print(f"{label} ({amount:,} {unit}), median of {rounds} alternating runs", flush=True)
    theirs_in = statistics.median(inner["python-chess"])
    theirs_whole = statistics.median(outer["python-chess"])
    for side in sides:
        mid_in, mid_whole = statistics.median(inner[side]), statistics.median(outer[side])
        ratios = ""
        if side != "python-chess":
            speedups = (theirs_in / mid_in, theirs_whole / mid_whole)
            ratios = f"  vs python-chess: in process {speedups[0]:5.2f}x, whole {speedups[1]:5.2f}x"
        print(
            f"  {side:<13} in process {mid_in:7.3f} s ({amount / mid_in:>11,.0f} {unit}/s)"
            f"  whole command {mid_whole:7.3f} s ({amount / mid_whole:>11,.0f} {unit}/s){ratios}",
            flush=True,
        )


def perft(fen: str, depth: int, nodes: int, rounds: int, scripts: str) -> None:
    """Perft side by side: in process, and as whole commands (``chess-actors perft`` / a script)."""
    ours = [sys.executable, "-c", _OUR_PERFT, fen, str(depth)]
    theirs = [sys.executable, "-c", _THEIR_PERFT, fen, str(depth), scripts]
    command = [sys.executable, "-m", "actors.cli", "perft", fen, str(depth)]
    compare(
        f"perft depth {depth} of {fen}",
        {"compiled": ours, "pure": ours, "python-chess": theirs},
        {"compiled": command, "pure": command, "python-chess": theirs},
        rounds, "nodes", nodes,
    )


def replay(path: str, plies: int, rounds: int) -> None:
    """Replay side by side: in process, and as whole commands (``chess-actors replay`` / a script)."""
    ours = [sys.executable, "-c", _OUR_REPLAY, path]
    theirs = [sys.executable, "-c", _THEIR_REPLAY, path]
    command = [sys.executable, "-m", "actors.cli", "replay", path, "--engine", "direct", "--json", "--quiet"]
    compare(
        f"replay of {os.path.basename(path)}",
        {"compiled": ours, "pure": ours, "python-chess": theirs},
        {"compiled": command, "pure": command, "python-chess": theirs},
        rounds, "plies", plies,
    )
