"""Replay time is linear in the input however it is laid out, each layout side by side with games as
written, in one run:

* 50 MB of random games as written (tags, a line of moves each) against the same games on one line;
* a 50 MB line of the longest games the limits allow (8,000 plies each, every one legal and unfinished);
* one game 50 MB long on one line: the limits refuse it (a game is at most 8,000 plies and 1 MiB), so
  what is measured is how fast it is read through and refused, at 5 and 50 MB.

Each figure is the median of whole commands ``chess-actors replay FILE --engine direct --json``,
alternated, with the peak RSS of the command. ``--quick``: 1 and 5 MB, one run each.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.common import big_pgn_files, random_games_pgn

PLY_LIMIT = 8_000
"""A game's length in plies past which replay refuses it (board/pgn_limits: ``PgnLimits.plies``)."""


@dataclass(frozen=True)
class Outcome:
    """One whole command: plies judged, wall time, peak RSS, and each game's error reason."""

    plies: int
    seconds: float
    peak_mb: float
    errors: list[str]


def _high_water_kb(pid: int) -> int:
    """The peak resident set of process ``pid`` so far (VmHWM), in kB; 0 once it has ended."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _replay(path: Path) -> Outcome:
    """Run ``chess-actors replay PATH --engine direct --json`` and read its verdicts and its peak RSS.

    The peak is the child's own VmHWM, read while it runs: the rusage of a waited-for child would
    also count the memory of this process, which the child was forked from.
    """
    with tempfile.TemporaryFile("w+", encoding="utf-8") as verdicts:
        start = time.perf_counter()
        command = [sys.executable, "-m", "actors.cli", "replay", str(path), "--engine", "direct", "--json"]
        child = subprocess.Popen([*command, "--quiet"], stdout=verdicts, stderr=subprocess.DEVNULL)
        peak_kb = 0
        while child.poll() is None:
            peak_kb = max(peak_kb, _high_water_kb(child.pid))
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        if child.returncode not in (0, 1):
            raise SystemExit(f"replay {path} failed with status {child.returncode}")
        verdicts.seek(0)
        plies, errors = 0, []
        for line in verdicts:
            game = json.loads(line)
            plies += game["plies"]
            if game["error"] is not None:
                errors.append(game["error"]["reason"])
    return Outcome(plies, seconds, peak_kb / 1024, errors)


def _alternate(runs: int, paths: dict[str, Path]) -> dict[str, Outcome]:
    """Each file's median run, the files taken in turn ``runs`` times (a noisy machine moves all alike)."""
    seen: dict[str, list[Outcome]] = {name: [] for name in paths}
    for _ in range(runs):
        for name, path in paths.items():
            seen[name].append(_replay(path))
    medians: dict[str, Outcome] = {}
    for name, outcomes in seen.items():
        assert len({outcome.plies for outcome in outcomes}) == 1, f"{name}: runs judged different plies"
        seconds = statistics.median(outcome.seconds for outcome in outcomes)
        peak = max(outcome.peak_mb for outcome in outcomes)
        medians[name] = Outcome(outcomes[0].plies, seconds, peak, outcomes[0].errors)
    return medians


def longest_game(seed: int) -> str:
    """The movetext of a random legal game of exactly PLY_LIMIT plies that no rule has ended.

    Pieces shuffle at random (never into a fivefold repetition, mate or stalemate) and a pawn steps
    or something is taken only when the 75-move rule comes near, so the pawns last the distance.
    """
    import chess

    rng = random.Random(seed)
    board = chess.Board()
    while board.ply() < PLY_LIMIT:
        moves = list(board.legal_moves)
        progress = [m for m in moves if board.is_capture(m) or board.pawns >> m.from_square & 1]
        quiet = [m for m in moves if m not in progress]
        rng.shuffle(progress)
        rng.shuffle(quiet)
        if board.halfmove_clock >= 140 or not quiet:
            steps = [m for m in progress if not board.is_capture(m) and abs(m.to_square - m.from_square) == 8]
            order = steps + [m for m in progress if m not in steps] + quiet
        else:
            order = quiet + progress
        for move in order:
            board.push(move)
            if not board.is_game_over():
                break
            board.pop()
        else:
            raise SystemExit(f"seed {seed}: every move ends the game at ply {board.ply()}")
    replayed = chess.Board()
    return replayed.variation_san(board.move_stack) + " *"


def _long_games_line(megabytes: int) -> Path:
    """About ``megabytes`` MB on one line: the longest games the limits allow, one after another."""
    path = Path(tempfile.gettempdir()) / f"chess-actors-bench-longest-line-{megabytes}mb.pgn"
    if not path.exists():
        games = " ".join(longest_game(seed) for seed in range(1, 9)) + " "
        copies = max(1, megabytes * 1_000_000 // len(games.encode()))
        path.write_text(games * copies, encoding="utf-8")
    return path


def _one_game_line(megabytes: int) -> Path:
    """One game of about ``megabytes`` MB on one line: knights out and back, no result."""
    path = Path(tempfile.gettempdir()) / f"chess-actors-bench-one-game-{megabytes}mb.pgn"
    if not path.exists():
        with path.open("w", encoding="ascii") as out:
            written, number = 0, 1
            while written < megabytes * 1_000_000:
                written += out.write(f"{number}. Nf3 Nf6 {number + 1}. Ng1 Ng8 ")
                number += 2
    return path


def run(quick: bool) -> None:
    """Print plies/s per layout at two sizes, the ratios to games as written, and the refusal times."""
    runs = 1 if quick else 3
    small, large = (1, 5) if quick else (5, 50)
    source = random_games_pgn(100 if quick else 400)
    rates: dict[tuple[str, int], float] = {}
    for size in (small, large):
        normal, line = big_pgn_files(source, size)
        paths = {"as written": normal, "one line": line, "longest games, one line": _long_games_line(size)}
        medians = _alternate(runs, paths)
        print(f"{size} MB, median of {runs}:")
        for name, outcome in medians.items():
            assert not outcome.errors, f"{name}: {outcome.errors[:1]}"
            rates[name, size] = outcome.plies / outcome.seconds
            print(
                f"  {name + ':':<25} {outcome.plies:>10,} plies {outcome.seconds:>7.1f} s "
                f"{rates[name, size]:>8,.0f} plies/s  peak RSS {outcome.peak_mb:.0f} MB"
            )
        for name in ("one line", "longest games, one line"):
            ratio = rates[name, size] / rates["as written", size]
            print(f"  {name} / as written: {ratio:.2f} (target within 2x)")
    for name in ("as written", "one line", "longest games, one line"):
        ratio = rates[name, large] / rates[name, small]
        print(f"linear, {name}: plies/s at {large} MB / at {small} MB {ratio:.2f}")

    refused = _alternate(runs, {f"{size} MB": _one_game_line(size) for size in (small, large)})
    for name, outcome in refused.items():
        megabytes = int(name.split()[0])
        print(
            f"one game, {name} on one line: refused in {outcome.seconds:.2f} s "
            f"({megabytes / outcome.seconds:,.0f} MB/s), peak RSS {outcome.peak_mb:.0f} MB, "
            f"{outcome.plies} plies judged: {outcome.errors[0] if outcome.errors else 'no error'}"
        )
