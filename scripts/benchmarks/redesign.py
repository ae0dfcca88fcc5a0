"""Whether the shape changed and not the speed: this tree against the one before the plain messages,
the package roots and the packages by purpose (``BEFORE_REDESIGN``), both rules cores compiled. Whole
commands in alternating runs (an actor replay, ChessMoveQ through the actors, the start-up of two
small commands), and the instructions an actor replay executes, which the noise of a shared machine
does not move.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from benchmarks.checkmove import cases_file
from benchmarks.common import alternate, compiled, random_games_pgn, tree_at
from benchmarks.pool import GAMES, PLIES, _built_in_place, _side_by_side

BEFORE_REDESIGN = "b30334b"
"""The last commit before the redesign: its figures are the ones not to fall behind (a ratio of at
least 0.95, as the noise of a shared two-core machine allows)."""

ROOT = Path(__file__).resolve().parent.parent.parent


def _run(command: list[str], folder: Path) -> None:
    subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True)


def _alternating(command: list[str], other: Path, runs: int) -> tuple[float, float]:
    """Median wall seconds of ``command`` run here and in ``other``, in turns."""
    return alternate(runs, lambda: _run(command, ROOT), lambda: _run(command, other))


def _instructions(command: list[str], folder: Path) -> int | None:
    """The instructions ``command`` executes in ``folder``, counted by valgrind (None without it)."""
    if shutil.which("valgrind") is None:
        return None
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          cwd=folder, capture_output=True, text=True, check=True)
    counted = re.search(r"Collected : (\d+)", done.stderr)
    return int(counted.group(1)) if counted else None


def run(quick: bool) -> None:
    """Print this tree's figures beside the ones before the redesign, and their ratios."""
    folder, why = tree_at(BEFORE_REDESIGN)
    if folder is None or not _built_in_place(compiled(folder)):
        print(f"  (no side-by-side run of {BEFORE_REDESIGN}: {why or 'its rules core would not compile'})")
        return
    compiled(ROOT)
    games = 40 if quick else GAMES
    path = random_games_pgn(games, seed=17, max_plies=PLIES)
    measured = _side_by_side(str(path), 1 if quick else 5, BEFORE_REDESIGN, native=True)
    if measured is not None:
        mine, before, plies = measured
        print(f"actor replay, {games} games, {plies:,} plies (replay FILE --engine actors --json):"
              f" this tree {mine:5.2f} s, {BEFORE_REDESIGN} {before:5.2f} s: ratio {before / mine:.2f}"
              " (target >= 0.95)")
    # The wall clock of a shared machine wanders by more than the difference looked for: the
    # instructions a replay executes do not.
    few = random_games_pgn(10, seed=17, max_plies=PLIES)
    replay = [sys.executable, "-m", "actors.cli", "replay", str(few), "--engine", "actors", "--json"]
    mine_counted, before_counted = _instructions(replay, ROOT), _instructions(replay, folder)
    if mine_counted and before_counted:
        print(f"instructions, actor replay of 10 games (valgrind --tool=callgrind): this tree"
              f" {mine_counted / 1e6:,.0f} M, {BEFORE_REDESIGN} {before_counted / 1e6:,.0f} M:"
              f" ratio {before_counted / mine_counted:.3f}")
    else:
        print("  (no instruction counts: valgrind is not installed)")
    count = 2000 if quick else 10000
    cases = cases_file(count)
    batch = [sys.executable, "-m", "actors.cli", "check-move", "--batch", str(cases), "--engine", "actors"]
    mine, before = _alternating(batch, folder, 1 if quick else 5)
    print(f"ChessMoveQ through the actors, {count:,} cases (check-move --batch --engine actors): this tree"
          f" {mine:5.2f} s, {BEFORE_REDESIGN} {before:5.2f} s: ratio {before / mine:.2f} (target >= 0.95)")
    for words in (["--version"], ["color", "e4"]):
        command = [sys.executable, "-m", "actors.cli", *words]
        mine, before = _alternating(command, folder, 5 if quick else 21)
        print(f"start-up, chess-actors {' '.join(words)}: this tree {mine * 1e3:5.0f} ms,"
              f" {BEFORE_REDESIGN} {before * 1e3:5.0f} ms: ratio {before / mine:.2f} (target >= 0.95)")
