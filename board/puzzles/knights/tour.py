"""Knight's tours, open or closed, of any W x H board that has one, from any square that starts one.

Small boards are searched; boards at least 5 x 5 are stitched from blocks, and long boards 3 or 4
wide from a core and bands, both in linear time (1000 x 1000 takes about half a second).
"""

from __future__ import annotations

from typing import Final

from board.errors import ChessActorsError, InputError
from board.puzzles.knights.blocks import block_tour
from board.puzzles.knights.existence import tour_obstacle
from board.puzzles.knights.grid import to_coord, to_index
from board.puzzles.knights.search import find_tour
from board.puzzles.knights.strips import core_length, strip_tour
from board.rules.squares import STANDARD, Coord, Size, check_on_board

MAX_TOUR_SQUARES: Final = 4_000_000
"""The largest board :func:`knight_tour` lists a tour of."""


class NoTourError(ChessActorsError):
    """No knight's tour of the requested kind exists; the message says why, in one line."""


class TourTooLargeError(InputError):
    """The board has more squares than a tour is listed for."""


def knight_tour(
    size: Size = STANDARD, start: Coord | None = None, *, closed: bool = False
) -> list[Coord]:
    """Return a knight's tour of a ``size`` board as 1-based (file, rank) squares.

    The tour visits every square once, each step a knight move, beginning at ``start`` (default a1).
    With ``closed`` the last square is also a knight move from the first.

    Args:
        size: the board, (width, height).
        start: the first square (default a1).
        closed: the tour must end a knight move from its start.

    Returns:
        Every square of the board once, in the tour's order.

    Raises:
        SquareError: ``start`` is off the board.
        NoTourError: no such tour exists (from ``start``); the message gives the reason.
        TourTooLargeError: the board has more than :data:`MAX_TOUR_SQUARES` squares.
    """
    width = size[0]
    return [to_coord(square, width) for square in knight_tour_indices(size, start, closed=closed)]


def knight_tour_indices(
    size: Size = STANDARD, start: Coord | None = None, *, closed: bool = False
) -> list[int]:
    """Return a knight's tour as flat squares (rank * W + file, 0-based); see :func:`knight_tour`.

    This is the fast form for big boards: no tuple per square.
    """
    width, height = size
    if start is None:
        start = (1, 1)
    check_on_board(start, size)
    reason = tour_obstacle(size, closed=closed, start=start)
    if reason is not None:
        raise NoTourError(reason)
    if width * height > MAX_TOUR_SQUARES:
        raise TourTooLargeError(
            f"a {width}x{height} board has {width * height} squares; tours are listed for boards "
            f"of at most {MAX_TOUR_SQUARES}"
        )
    first = to_index(start, width)
    short, long = sorted(size)
    if width * height == 1:
        return [0]
    if short >= 5:
        # Both sides odd: no closed tour, so the blocks carry an open tour from the start. Else a
        # closed tour is listed from the start, which is an open one too.
        return block_tour(width, height, first, closed=closed)
    if long < core_length(short, long) + 4:
        tour = find_tour(width, height, first, closed=closed)
        if tour is None:  # pragma: no cover - tour_obstacle names every small board without one
            raise NoTourError(f"no tour of {width}x{height} from {start} (exhaustive search)")
        return tour
    return strip_tour(width, height, first, closed=closed)
