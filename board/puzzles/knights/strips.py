"""Knight's tours of long boards 3 or 4 squares wide in linear time: a searched core, then bands.

The core, a tour of a 5 to 12 rank piece holding the start square, grows by bands of four ranks:
a 4 x 4 band as four spliced 4-cycles, a 3 x 4 band as one open path inserted into a move.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from typing import Final

from board.puzzles.knights.search import find_tour
from board.puzzles.knights.stitch import Stitcher

BAND: Final = 4
"""Ranks per band added on each side of the core."""


def _band(names: str) -> tuple[tuple[int, int], ...]:
    """0-based (file, rank) pairs within a band, from square names such as ``"a1 b3 d4 c2"``."""
    return tuple((ord(name[0]) - ord("a"), int(name[1:]) - 1) for name in names.split())


# Four 4-cycles that together cover a 4 x 4 band.
_FOUR_WIDE_BAND: Final = tuple(
    map(_band, ("a1 b3 d4 c2", "d1 c3 a4 b2", "b1 a3 c4 d2", "c1 d3 b4 a2"))
)

# The two open tours of a 3 x 4 band with both ends on its first rank. Each holds both moves c4-a3
# and a4-c3, and one of those takes the next band, so the chain goes on for ever.
_THREE_WIDE_BAND: Final = tuple(
    map(_band, ("a1 b3 c1 a2 b4 c2 a3 c4 b2 a4 c3 b1", "b1 a3 c4 b2 a4 c3 a2 b4 c2 a1 b3 c1"))
)


def core_length(width: int, length: int) -> int:
    """The ranks of the searched core of a ``width`` x ``length`` strip (the rest is whole bands).

    4 wide: 5 to 8 ranks (4 x 4 has no tour). 3 wide and even: 10 or 12, which have closed tours.
    3 wide and odd: 9 or 11, where an open tour starts on every square of the majority colour.
    """
    if width == 4:
        return 5 + (length - 5) % BAND
    if length % 2 == 0:
        return 10 if length % BAND == 2 else 12
    return 9 if length % BAND == 1 else 11


def strip_tour(width: int, height: int, start: int, *, closed: bool) -> list[int]:
    """Return a tour of a board with a side of 3 or 4 from flat square ``start``.

    The long side must be at least :func:`core_length`. A board 3 wide and of even length gets a
    closed tour listed from ``start``; the others an open tour from ``start``, which must be a
    square that can start one (the caller checks).
    """
    if width > height:
        # Work on the transposed board, where the long side runs up the ranks.
        tour = strip_tour(height, width, (start % width) * height + start // width, closed=closed)
        return [(square % height) * width + square // height for square in tour]
    length = height
    core = core_length(width, length)
    cyclic = width == 3 and length % 2 == 0
    assert not closed or cyclic, "only a 3-wide board of even length has a closed tour here"
    # The core starts on a band boundary (an even rank, so its colours are the board's) and holds
    # the start square; a cyclic core can sit at the bottom, since any square starts a cycle.
    bottom = 0 if cyclic else min(BAND * (start // width // BAND), length - core)
    above, below = bottom + core < length, bottom > 0
    local = _core_tour(width, core, 0 if cyclic else start - bottom * width, cyclic, above, below)
    stitcher = Stitcher(width, length)
    offset = bottom * width
    if cyclic:
        stitcher.lay_cycle([offset + square for square in local])
    else:
        stitcher.lay_path([offset + square for square in local])
    for band in [*range(bottom + core, length, BAND), *range(bottom - BAND, -1, -BAND)]:
        upward = band > bottom
        if width == 3:
            # Every knight 4-cycle on 3 files has two corners on one rank, so no cycle can be
            # spliced across a straight seam; a path of the whole band is inserted instead.
            runs = [
                [
                    (band + (rank if upward else BAND - 1 - rank)) * width + file
                    for file, rank in run
                ]
                for run in _THREE_WIDE_BAND
            ]
            if not stitcher.insert(runs):  # pragma: no cover - the tests stitch every core
                raise AssertionError(f"no way to join band {band} of a 3x{length} board")
            continue
        pending = [
            [(band + rank) * width + file for file, rank in cycle] for cycle in _FOUR_WIDE_BAND
        ]
        while pending:
            joined = [cycle for cycle in pending if stitcher.splice(cycle)]
            if not joined:  # pragma: no cover - the tests stitch every core and band
                raise AssertionError(f"no way to join band {band} of a 4x{length} board")
            pending = [cycle for cycle in pending if cycle not in joined]
    return stitcher.walk(start)


@cache
def _core_tour(
    width: int, length: int, start: int, closed: bool, above: bool, below: bool
) -> tuple[int, ...]:
    """A tour of the core from ``start``, found once by search.

    On 3 files a band joins only through the move c(top)-a(top-1) or a(top)-c(top-1) of what is
    below it (mirrored for bands below), so the core's tour must hold one of those at each side
    that gets bands.
    """

    def seams_ready(tour: list[int]) -> bool:
        if width != 3:
            return True
        moves = {frozenset(pair) for pair in pairwise(tour)}
        if closed:
            moves.add(frozenset((tour[-1], tour[0])))
        top = length - 1
        top_ok = (
            frozenset((top * 3 + 2, (top - 1) * 3)) in moves
            or frozenset((top * 3, (top - 1) * 3 + 2)) in moves
        )
        bottom_ok = frozenset((2, 3)) in moves or frozenset((0, 5)) in moves
        return (top_ok or not above) and (bottom_ok or not below)

    tour = find_tour(width, length, start, closed=closed, accept=seams_ready)
    assert tour is not None, f"{width}x{length} has a tour from {start} that bands can join"
    return tuple(tour)
