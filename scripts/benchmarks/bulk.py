"""Bulk replay throughput: one worker, two worker processes, and a local Ray, on one file."""

from __future__ import annotations

import subprocess
import sys
import time

from benchmarks.common import random_games_pgn


def _timed(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    return time.perf_counter() - start, result.stdout


def run(quick: bool) -> None:
    """Print games/s and plies/s for 1 and 2 workers (and Ray when installed), and the speed-ups."""
    path = random_games_pgn(1000 if quick else 4000, max_plies=160)
    base = [sys.executable, "-m", "actors.cli", "replay", "--engine", "direct", "--json", str(path)]
    runs = {"1 worker": base, "2 workers": [*base, "--workers", "2"]}
    try:
        import ray  # noqa: F401

        runs["local Ray, 2 workers"] = [*base, "--ray", "local", "--workers", "2"]
    except ImportError:
        print("(Ray is not installed: pip install '.[cluster]' to include it)")
    reference: float | None = None
    expected: str | None = None
    for label, command in runs.items():
        seconds, output = min((_timed(command) for _ in range(1 if quick else 3)), key=lambda r: r[0])
        if expected is None:
            expected = output
        same = "same output" if output == expected else "OUTPUT DIFFERS"
        games = output.count("\n")
        plies = sum(int(line.split('"plies": ')[1].split(",")[0]) for line in output.splitlines())
        reference = reference or seconds
        print(f"{label:<22} {games / seconds:>8,.0f} games/s {plies / seconds:>9,.0f} plies/s "
              f"speed-up {reference / seconds:.2f}x  ({same})")
