"""Which boards have knight's tours, and from which squares: the theorems, as one-line reasons.

Closed tours: Schwenk (1991). Open tours: Conrad, Hindrichs, Morsy and Wegener (1994). Where only
open tours exist, their start squares: colour and edge counting, exhaustive search on 3x7 and 3x8.
"""

from __future__ import annotations

from board.rules.squares import Coord, Size, square_name


def tour_obstacle(size: Size, *, closed: bool = False, start: Coord | None = None) -> str | None:
    """Return why no tour of that kind exists on a board of ``size`` (from ``start``), else None.

    The reason is one line naming the theorem or the count behind it; ``start`` must be on the
    board. Every claim about start squares is checked against exhaustive search in the tests.
    """
    width, height = size
    short, long = sorted(size)
    board = f"{width}x{height}"
    if closed:
        if width * height % 2:
            return (
                f"no closed tour of {board}: it has an odd number of squares and a closed tour "
                "alternates colours (Schwenk)"
            )
        if short in (1, 2, 4):
            return f"no closed tour of {board}: no board with a side of 1, 2 or 4 has one (Schwenk)"
        if short == 3 and long in (4, 6, 8):
            return f"no closed tour of {board}: 3x4, 3x6 and 3x8 have none (Schwenk)"
        return None
    if short == long == 1:
        return None
    if short in (1, 2):
        return (
            f"no knight's tour of {board}: on a board 1 or 2 squares wide the knight cannot visit "
            "every square (Conrad et al.)"
        )
    if short == 3 and long in (3, 5, 6):
        return f"no knight's tour of {board}: 3x3, 3x5 and 3x6 have none (Conrad et al.)"
    if short == long == 4:
        return f"no knight's tour of {board}: 4x4 has none (Conrad et al.)"
    if start is None or tour_obstacle(size, closed=True) is None:
        return None  # a closed tour passes every square, so an open tour can start anywhere
    file, rank = start
    name = square_name(start)
    if width * height % 2 and (file + rank) % 2:
        return (
            f"no open tour of {board} starts on {name}: the board has one more square with file + "
            "rank even than odd, and a tour alternates colours, so it starts on such a square"
        )
    if 4 in size:  # 4 x n, and 3 x 4 too
        across = file if width == 4 else rank
        if across not in (2, 3):
            return None
        lines = "files a and d" if width == 4 else "ranks 1 and 4"
        return (
            f"no open tour of {board} starts on {name}: the squares on {lines} reach only the two "
            "lines between them and are half the board, so a tour starts on one of them"
        )
    if (short, long) == (3, 7) and start == ((2, 4) if width == 3 else (4, 2)):
        return f"no open tour of {board} starts on {name}, its centre (exhaustive search)"
    if (short, long) == (3, 8) and start in (((2, 3), (2, 6)) if width == 3 else ((3, 2), (6, 2))):
        return f"no open tour of {board} starts on {name} (exhaustive search)"
    return None
