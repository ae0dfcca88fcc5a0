"""ChessMoveQ throughput: ``check-move --batch`` answered by the actors and by the direct engine."""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import alternate, one_core_like_the_command_line

from tests.helpers.chessmoveq_positions import played_position, sparse_position


def cases_file(count: int, seed: int = 11) -> Path:
    """``count`` cases, half on sparse positions and half from play, a move each to any square."""
    path = Path(tempfile.gettempdir()) / f"chess-actors-bench-checkmove-{count}-{seed}.jsonl"
    if path.exists():
        return path
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for index in range(count):
            position = sparse_position(rng) if index % 2 else played_position(rng)
            move = [rng.choice("WB"), rng.choice("PNBRQK"), rng.randint(1, 8), rng.randint(1, 8)]
            if position and rng.random() < 0.5:  # a move of a piece that is there, to find valid ones
                colour, kind, _, _ = rng.choice(position)
                move[:2] = [colour, kind]
            out.write(json.dumps({"position": position, "move": move}) + "\n")
    return path


def _timed(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user and system, every thread) and the output of ``command``.

    On a machine shared with other work the wall time says how busy the machine was as much as how
    fast the command is; the CPU time the command itself used says the second alone.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, result.stdout


def run(quick: bool) -> None:
    """Print lines/s of ``check-move --batch`` with each engine, whole process and in-process."""
    count = 2000 if quick else 10000
    path = cases_file(count)
    outputs: dict[str, str] = {}
    rates: dict[str, float] = {}
    cpu_rates: dict[str, float] = {}
    for engine in ("actors", "direct"):
        command = [sys.executable, "-m", "actors.cli", "check-move", "--batch", str(path), "--engine", engine]
        runs = [_timed(command) for _ in range(1 if quick else 3)]
        seconds, _, outputs[engine] = min(runs, key=lambda timed: timed[0])
        cpu_seconds = min(timed[1] for timed in runs)
        rates[engine], cpu_rates[engine] = count / seconds, count / cpu_seconds
        print(f"check-move --batch --engine {engine:<7} {rates[engine]:>9,.0f} lines/s (whole process),"
              f" {cpu_rates[engine]:>9,.0f} lines a CPU second")
    same = "same output" if outputs["actors"] == outputs["direct"] else "OUTPUT DIFFERS"
    print(f"direct / actors: {rates['direct'] / rates['actors']:.1f}x,"
          f" {cpu_rates['direct'] / cpu_rates['actors']:.1f}x in CPU time  ({same})")

    from actors.game.session import CheckMoveSession
    from board.puzzles.chessmoveq import answer, parse_json_case

    cases = [parse_json_case(line) for line in path.read_text(encoding="utf-8").splitlines()]
    # As the command runs it: actor threads on one core, 16 cases in flight.
    with one_core_like_the_command_line(), CheckMoveSession() as session:
        list(session.answer_many(cases))  # start the actor of every piece and square first
        actors, direct = alternate(
            1 if quick else 3,
            lambda: list(session.answer_many(cases)),
            lambda: [answer(pieces, move) for pieces, move in cases],
        )
        print(f"in-process (one core, 16 in flight): actors {count / actors:,.0f} cases/s,"
              f" direct {count / direct:,.0f} cases/s, ratio {actors / direct:.1f}x;"
              f" {session.piece_actors} piece actors (one for each piece code and square seen)")
