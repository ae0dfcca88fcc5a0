#!/usr/bin/env python3
"""Soak: replay a large generated PGN through ``chess-actors replay`` and sample its memory every second.

    python scripts/soak.py [--games 20000] [--actor-games 1000] [--seed 1] [--interval 1.0] [--keep DIR]

Writes seeded random games (legal moves from board/ itself; one in twenty ends with an illegal move,
one in a hundred with a garbled token) to a temporary PGN file, game by game, then runs
``chess-actors replay FILE --engine direct --json`` as a subprocess while reading VmRSS from
/proc/PID/status every ``--interval`` seconds; then the same with ``--engine actors`` on the first
``--actor-games`` games, whose verdicts must equal the direct engine's. Prints RSS at the start,
middle and end of each run; memory must stay flat (exit 1 if the end exceeds the start by more than
``--tolerance`` MB).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the project, with the harnesses' shared helpers (scripts.random_play)
    sys.path.insert(0, str(ROOT))


from board.notation.pgn_writer import format_game  # noqa: E402
from scripts.random_play import illegal_move, random_play  # noqa: E402

ILLEGAL = ("Ke5", "Nf7", "Qxh8", "O-O-O", "Bb5", "exd6", "Rxa8", "Kxe2")
GARBLED = ("Nxx9", "e9", "--", "P@e4", "{unterminated")


def write_games(out: IO[str], games: int, seed: int, max_plies: int = 160) -> int:
    """Write ``games`` seeded random games to ``out``; return the plies written."""
    rng = random.Random(seed)
    plies = 0
    for number in range(1, games + 1):
        moves, game = random_play(rng, max_plies)
        plies += len(moves)
        tags = {"Event": "soak", "Round": str(number), "White": f"white {number}", "Black": f"black {number}"}
        roll = rng.random()
        if roll < 0.05:
            illegal = illegal_move(rng, game, ILLEGAL)
            if illegal is not None:
                moves.append(illegal)
        text = format_game(tags, moves, "*")
        if roll > 0.99:
            text = text.replace(" *\n", f" {rng.choice(GARBLED)} *\n")
        out.write(text)
    return plies


def first_games(source: Path, target: Path, games: int) -> None:
    """Copy the first ``games`` games of a PGN written by :func:`write_games`."""
    count = 0
    with source.open(encoding="utf-8") as read, target.open("w", encoding="utf-8") as write:
        for line in read:
            if line.startswith("[Event ") and count == games:
                return
            count += line.startswith("[Event ")
            write.write(line)


def rss_mb(pid: int) -> float | None:
    """The resident set size of process ``pid`` in MB (None once it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


@dataclass
class Run:
    """One replay run: its exit status, time, output and RSS samples (seconds, MB) from its first verdict."""

    status: int
    seconds: float
    output: Path
    samples: list[tuple[float, float]]

    def at(self, fraction: float) -> float:
        """The RSS sampled nearest ``fraction`` of the run (0: the first sample, 1: the last)."""
        index = round(fraction * (len(self.samples) - 1))
        return self.samples[index][1]

    def summary(self, name: str) -> str:
        """One paragraph for people."""
        lines = sum(1 for _ in self.output.open(encoding="utf-8"))
        peak = max(rss for _, rss in self.samples)
        return (
            f"{name}: exit {self.status}, {lines} verdicts in {self.seconds:.0f} s,"
            f" {len(self.samples)} RSS samples\n"
            f"  RSS start {self.at(0):.1f} MB, middle {self.at(0.5):.1f} MB, end {self.at(1):.1f} MB,"
            f" peak {peak:.1f} MB"
        )


def replay(pgn: Path, engine: str, output: Path, interval: float) -> Run:
    """Run ``chess-actors replay`` on ``pgn`` and sample its RSS until it exits."""
    command = [sys.executable, "-m", "actors.cli", "replay", str(pgn), "--engine", engine, "--json"]
    began = time.monotonic()
    samples: list[tuple[float, float]] = []
    with output.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE, cwd=ROOT)
        while process.poll() is None:
            rss = rss_mb(process.pid)
            # Sampling starts with the first verdict: before it, the process is still starting up.
            if rss is not None and output.stat().st_size:
                samples.append((time.monotonic() - began, rss))
            time.sleep(interval)
        _, err = process.communicate()
    if err.strip():
        print(f"  stderr: {err.decode(errors='replace').strip()[:300]}")
    return Run(process.returncode, time.monotonic() - began, output, samples or [(0.0, 0.0)])


def verdict(line: str) -> dict[str, object]:
    """A ``--json`` verdict less the name of the file its error points into: the actor engine reads a
    copy of the first games, so the same error is at the same line and column of another file."""
    game: dict[str, object] = json.loads(line)
    error = game.get("error")
    if isinstance(error, dict):
        error.pop("file", None)
    return game


def flat(run: Run, tolerance_mb: float) -> bool:
    """Whether memory stayed flat: the end within ``tolerance_mb`` of the start."""
    return run.at(1) - run.at(0) <= tolerance_mb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games to generate (default 20000)")
    parser.add_argument("--actor-games", type=int, default=1_000,
                        help="of those, how many the actor engine replays (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between RSS samples")
    parser.add_argument("--tolerance", type=float, default=10.0,
                        help="MB the end may exceed the early RSS by (default 10)")
    parser.add_argument("--keep", metavar="DIR", help="write the PGN and outputs here, and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="soak-") as scratch:
        where = Path(args.keep or scratch)
        where.mkdir(parents=True, exist_ok=True)
        pgn = where / "soak.pgn"
        began = time.monotonic()
        with pgn.open("w", encoding="utf-8") as out:
            plies = write_games(out, args.games, args.seed)
        print(f"generated {args.games} games, {plies} plies, {pgn.stat().st_size / 1e6:.1f} MB of PGN"
              f" in {time.monotonic() - began:.0f} s", flush=True)
        direct = replay(pgn, "direct", where / "direct.jsonl", args.interval)
        print(direct.summary("direct engine"), flush=True)
        ok = flat(direct, args.tolerance)
        if args.actor_games:
            sliced = where / "slice.pgn"
            first_games(pgn, sliced, args.actor_games)
            actors = replay(sliced, "actors", where / "actors.jsonl", args.interval)
            print(actors.summary(f"actor engine ({args.actor_games} games)"), flush=True)
            ok = ok and flat(actors, args.tolerance)
            with direct.output.open(encoding="utf-8") as left, actors.output.open(encoding="utf-8") as right:
                pairs = zip(left, right, strict=False)
                differ = sum(verdict(a) != verdict(b) for a, b in pairs)
            print(f"  verdicts that differ from the direct engine's: {differ}")
            ok = ok and differ == 0
        print("memory stayed flat" if ok else "memory grew (or verdicts differ)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
