"""The knight treasure hunt: the shortest knight walk from a start square over all treasure squares.

Exact: Held–Karp dynamic programming over the knight distances between start and treasures; the
walk is then stitched together from shortest paths. Squares may be visited more than once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from operator import add
from typing import Final

from board.errors import InputError
from board.puzzles.knights.path import (
    MAX_PATH_MOVES,
    PathTooLongError,
    _formula,
    bfs_distances,
    has_closed_form,
    shortest_path,
)
from board.rules.squares import STANDARD, Coord, Size, check_on_board

MAX_TREASURES: Final = 16
"""The most distinct treasure squares one hunt takes: the search more than doubles with each one
(16 take one to two seconds and a few tens of megabytes; 20 took half a minute and 600 MB)."""

_CHECKPOINT_EVERY: Final = 1 << 10
"""How many sets of treasures the search fills between two calls of its checkpoint."""

_SEARCHED_BOARD_LIMIT: Final = 1 << 16
"""Boards up to this many squares get one breadth-first search per square of interest."""

_UNREACHED: Final = 1 << 40


class TreasureCountError(InputError):
    """No treasure squares, or more distinct ones than the exact search takes."""


def treasure_hunt(
    start: Coord, treasures: Sequence[Coord], size: Size = STANDARD,
    checkpoint: Callable[[], object] | None = None,
) -> list[Coord] | None:
    """Return a shortest knight walk from ``start`` that visits every treasure square, or None.

    The walk begins with ``start``; its number of moves is one less than its length. Repeated
    treasures, and treasures on the start square, count once. None means some treasure cannot be
    reached from the start at all.

    Args:
        start: the knight's first square, a 1-based (file, rank).
        treasures: the squares to visit, in any order.
        size: the board, (width, height).
        checkpoint: called every so often during the search (a few milliseconds apart); whatever
            it raises ends the search. Compiled, the search hands control back to the interpreter
            nowhere else, so a caller that must answer signals (the command line) passes one.

    Returns:
        The walk's squares, or None (see above).

    Raises:
        SquareError: a square is off the board.
        TreasureCountError: no treasures, or more than :data:`MAX_TREASURES` distinct ones.
        PathTooLongError: the walk is longer than :data:`~board.puzzles.knights.path.MAX_PATH_MOVES`.
    """
    plan = _plan(start, treasures, size, checkpoint)
    if plan is None:
        return None
    stops, moves = plan
    if moves > MAX_PATH_MOVES:
        raise PathTooLongError(moves, MAX_PATH_MOVES)
    walk = [start]
    for here, there in pairwise(stops):
        leg = shortest_path(here, there, size)
        assert leg is not None  # every treasure is reachable from the start, hence from each other
        walk.extend(leg[1:])
    return walk


def hunt_moves(start: Coord, treasures: Sequence[Coord], size: Size = STANDARD,
               checkpoint: Callable[[], object] | None = None) -> int | None:
    """Return just the number of moves of the shortest hunt, or None (see :func:`treasure_hunt`).

    No walk is written out, so this answers on any board, however long the walk.
    """
    plan = _plan(start, treasures, size, checkpoint)
    return None if plan is None else plan[1]


def _plan(start: Coord, treasures: Sequence[Coord], size: Size,
          checkpoint: Callable[[], object] | None) -> tuple[list[Coord], int] | None:
    """The squares to visit in order (start first) and the total moves, or None if unreachable."""
    if not treasures:
        raise TreasureCountError("no treasure squares given")
    check_on_board(start, size)
    for treasure in treasures:
        check_on_board(treasure, size)
    targets = list(dict.fromkeys(treasure for treasure in treasures if treasure != start))
    if len(targets) > MAX_TREASURES:
        raise TreasureCountError(
            f"{len(targets)} distinct treasure squares; "
            f"the exact search takes at most {MAX_TREASURES}"
        )
    if not targets:
        return [start], 0
    distances = _distance_table([start, *targets], size)
    if any(distance >= _UNREACHED for distance in distances[0]):
        return None
    order = _best_order(distances, checkpoint)
    moves = sum(distances[here][there] for here, there in pairwise([0, *order]))
    return [start, *(targets[index - 1] for index in order)], moves


def _distance_table(points: list[Coord], size: Size) -> list[list[int]]:
    """Knight distances between every pair of points (``_UNREACHED`` where there is no path)."""
    width, height = size
    if width * height <= _SEARCHED_BOARD_LIMIT or not has_closed_form(size):
        table = []
        for point in points:
            reach = bfs_distances(point, size)
            row = [reach[(rank - 1) * width + file - 1] for file, rank in points]
            table.append([distance if distance >= 0 else _UNREACHED for distance in row])
        return table
    return [
        [
            _UNREACHED if distance is None else distance
            for distance in (
                _formula(width, height, a[0] - 1, a[1] - 1, b[0] - 1, b[1] - 1) for b in points
            )
        ]
        for a in points
    ]


def _best_order(distances: list[list[int]], checkpoint: Callable[[], object] | None) -> list[int]:
    """Held–Karp: the order of points 1..k that makes the walk from point 0 through all shortest.

    ``cost[mask][j]`` is the length of the shortest walk from point 0 over exactly the treasures in
    ``mask`` that ends on treasure j (bit j stands for point j + 1). Each row is a plain list with
    one extra column for point 0, so that every entry is one ``min(map(add, ...))`` running in C:
    about a microsecond each, some 2.4 million of them for 18 treasures.
    """
    count = len(distances) - 1
    # into[j][i]: the distance from treasure i (or, at i == count, from the start) to treasure j.
    into = [
        [distances[i + 1][j + 1] for i in range(count)] + [distances[0][j + 1]]
        for j in range(count)
    ]
    full = (1 << count) - 1
    cost: list[list[int]] = [[_UNREACHED] * count + [0]]
    pairs = [(1 << j, into[j]) for j in range(count)]
    for mask in range(1, full + 1):
        if checkpoint is not None and not mask % _CHECKPOINT_EVERY:
            checkpoint()
        cost.append(
            [
                min(map(add, cost[mask ^ bit], distance_in)) if mask & bit else _UNREACHED
                for bit, distance_in in pairs
            ]
            + [_UNREACHED]
        )
    last = min(range(count), key=lambda j: cost[full][j])
    order = [last]
    mask = full
    while mask != 1 << last:
        before = mask ^ (1 << last)
        previous = next(
            i
            for i in range(count)
            if before >> i & 1 and cost[before][i] + into[last][i] == cost[mask][last]
        )
        order.append(previous)
        mask, last = before, previous
    order.reverse()
    return [index + 1 for index in order]
