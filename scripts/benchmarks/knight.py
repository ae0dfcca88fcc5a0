"""Knight puzzles: tours through the whole command line and in-process, shortest paths and hunts.

    python scripts/bench.py knight [--quick]

Tours of n x n boards (n = 8, 100, 1000; --quick skips 1000), open and closed, are timed as whole
``chess-actors knight tour`` runs (a fresh interpreter, output to a pipe) and as in-process calls,
and every tour is checked square by square. Paths and hunts are set beside the plain searches they
replace (breadth-first search for distances, search over (square, treasures found) for the hunt).
Without --quick the closed form is also checked against search for every pair up to 20 x 20.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from board.puzzles.knights.grid import KNIGHT_STEPS
from board.puzzles.knights.path import (
    bfs_distances,
    closed_form_distance,
    has_closed_form,
    knight_distance,
    shortest_path,
)
from board.puzzles.knights.tour import knight_tour_indices
from board.puzzles.knights.treasure import treasure_hunt
from board.rules.squares import Coord, Size, parse_square

ROOT = Path(__file__).resolve().parents[2]


def run(quick: bool) -> None:
    """Print tour, path and hunt timings (and, without ``quick``, a full closed-form check)."""
    _tours(quick)
    _paths()
    _hunts(quick)
    if not quick:
        _check_closed_form(20)


def _median_seconds(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def _cli(*args: str) -> Callable[[], object]:
    def work() -> object:
        result = subprocess.run(
            [sys.executable, "-m", "actors.cli", *args],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
        if result.returncode != 0:
            raise SystemExit(f"chess-actors {' '.join(args)} failed: {result.stderr.decode()}")
        return result

    return work


def _check_tour(tour: list[int], size: Size, closed: bool) -> None:
    width, height = size
    assert sorted(tour) == list(range(width * height)), "not every square exactly once"
    pairs = zip(tour, [*tour[1:], tour[0]] if closed else tour[1:], strict=False)
    assert all(abs(a % width - b % width) * abs(a // width - b // width) == 2 for a, b in pairs)


def _tours(quick: bool) -> None:
    interpreter = _median_seconds(5, lambda: subprocess.run([sys.executable, "-c", "pass"]))
    colour = _median_seconds(5, _cli("color", "e4"))
    loading = statistics.median(_cold_tour(8, False)[0] for _ in range(5))
    print(
        f"start-up: bare interpreter {_ms(interpreter)}, 'chess-actors color e4' {_ms(colour)}, "
        f"importing the tour module {_ms(loading)}",
        flush=True,
    )
    print(
        "cold: the first tour in a fresh interpreter (block searches included, imports not); "
        "warm: the same call repeated",
        flush=True,
    )
    print(f"{'tour':<16}{'CLI run':>12}{'cold':>12}{'warm':>12}{'squares/s':>14}", flush=True)
    for side in (8, 100) if quick else (8, 100, 1000):
        size = (side, side)
        for closed in (False, True):
            runs = 1 if side >= 1000 else 5
            flags = ["--closed"] if closed else []
            command = _median_seconds(runs, _cli("knight", "tour", "--size", str(side), *flags))
            cold = statistics.median(_cold_tour(side, closed)[1] for _ in range(runs))
            warm = _median_seconds(runs, partial(knight_tour_indices, size, closed=closed))
            _check_tour(knight_tour_indices(size, closed=closed), size, closed)
            label = f"{side}x{side} {'closed' if closed else 'open'}"
            print(
                f"{label:<16}{_ms(command):>12}{_ms(cold):>12}{_ms(warm):>12}"
                f"{side * side / cold:>14,.0f}",
                flush=True,
            )


def _cold_tour(side: int, closed: bool) -> tuple[float, float]:
    """Seconds to import the tour module, and for one tour, timed inside a fresh interpreter."""
    probe = (
        "import time; began = time.perf_counter(); "
        "from board.puzzles.knights.tour import knight_tour_indices; "
        "loaded = time.perf_counter(); "
        f"knight_tour_indices(({side}, {side}), closed={closed}); "
        "print(loaded - began, time.perf_counter() - loaded)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loading, touring = result.stdout.split()
    return float(loading), float(touring)


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f} ms"


def _paths() -> None:
    print("paths:", flush=True)
    g2, a8 = parse_square("g2"), parse_square("a8")
    seed = _median_seconds(200, lambda: shortest_path(g2, a8))
    print(f"  g2 -> a8 on 8x8 (search, with path)         {seed * 1e6:10.1f} us", flush=True)
    far = (1000, 1000)
    searched = _median_seconds(3, lambda: knight_distance((1, 1), far, far))
    formula = _median_seconds(200, lambda: closed_form_distance((1, 1), far, far))
    print(
        f"  a1 -> all1000 on 1000x1000: search {_ms(searched)}, closed form "
        f"{formula * 1e6:.1f} us ({searched / formula:,.0f}x)",
        flush=True,
    )
    billion = (10**9, 10**9)
    instant = _median_seconds(200, lambda: knight_distance((1, 1), billion, billion))
    print(f"  a1 -> corner of a 10^9 x 10^9 board          {instant * 1e6:10.1f} us", flush=True)
    target = (150_001, 200_000)
    walk = _median_seconds(3, lambda: shortest_path((1, 1), target, billion))
    moves = knight_distance((1, 1), target, billion)
    print(f"  {moves:,}-move path on 10^9 x 10^9 (greedy)  {_ms(walk):>13}", flush=True)


def _brute_force_hunt(start: Coord, treasures: list[Coord], size: Size) -> int:
    """Breadth-first search over (square, treasures found): the seed's approach, as reference."""
    width, height = size
    bits = {square: 1 << index for index, square in enumerate(dict.fromkeys(treasures))}
    everything = (1 << len(bits)) - 1
    frontier = [(start, bits.get(start, 0))]
    seen = set(frontier)
    moves = 0
    while True:
        if any(mask == everything for _, mask in frontier):
            return moves
        moves += 1
        following = []
        for (file, rank), mask in frontier:
            for step_file, step_rank in KNIGHT_STEPS:
                square = (file + step_file, rank + step_rank)
                if 1 <= square[0] <= width and 1 <= square[1] <= height:
                    state = (square, mask | bits.get(square, 0))
                    if state not in seen:
                        seen.add(state)
                        following.append(state)
        frontier = following


def _hunts(quick: bool) -> None:
    print("treasure hunts (Held-Karp beside search over (square, treasures found)):", flush=True)
    start = parse_square("a8")
    treasures = [parse_square(name) for name in ("e6", "c4", "b3", "a2", "b2", "b1")]
    ours = _median_seconds(20, lambda: treasure_hunt(start, treasures))
    brute = _median_seconds(5, lambda: _brute_force_hunt(start, treasures, (8, 8)))
    walk = treasure_hunt(start, treasures)
    assert walk is not None and len(walk) - 1 == _brute_force_hunt(start, treasures, (8, 8)) == 11
    print(
        f"  seed, 6 treasures, 11 moves: {_ms(ours)} vs {_ms(brute)} ({brute / ours:.1f}x)",
        flush=True,
    )
    rng = random.Random(12)
    squares = rng.sample([(file, rank) for file in range(1, 9) for rank in range(1, 9)], 13)
    ours = _median_seconds(3, lambda: treasure_hunt(squares[0], squares[1:]))
    brute = _median_seconds(1, lambda: _brute_force_hunt(squares[0], squares[1:], (8, 8)))
    print(f"  12 treasures: {_ms(ours)} vs {_ms(brute)} ({brute / ours:.1f}x)", flush=True)
    for count in (16,) if quick else (16, 18):
        squares = rng.sample(
            [(file, rank) for file in range(1, 9) for rank in range(1, 9)], count + 1
        )
        alone = _median_seconds(1, partial(treasure_hunt, squares[0], squares[1:]))
        print(f"  {count} treasures: {_ms(alone)}", flush=True)


def _check_closed_form(limit: int) -> None:
    began = time.perf_counter()
    pairs = 0
    for width in range(1, limit + 1):
        for height in range(1, limit + 1):
            if not has_closed_form((width, height)):
                continue
            for source_index in range(width * height):
                source = (source_index % width + 1, source_index // width + 1)
                for index, found in enumerate(bfs_distances(source, (width, height))):
                    target = (index % width + 1, index // width + 1)
                    expected = None if found < 0 else found
                    assert closed_form_distance(source, target, (width, height)) == expected, (
                        f"{width}x{height}: {source} -> {target}"
                    )
                    pairs += 1
    print(
        f"closed form = search for all {pairs:,} pairs on boards up to {limit}x{limit} "
        f"({time.perf_counter() - began:.0f} s)",
        flush=True,
    )
