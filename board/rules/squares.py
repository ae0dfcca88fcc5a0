"""Squares by name and by number: algebraic names, 1-based (file, rank) pairs, board sizes.

Works on any W x H board: files past ``z`` continue ``aa, ab, ... az, ba, ...`` (bijective base 26).
The 8x8 game itself numbers squares 0..63 (a1 = 0, b1 = 1, ..., h8 = 63) for speed.
"""

from __future__ import annotations

import re
from typing import Final, Literal

from board.errors import BoardSizeError, SquareError
from board.numbers import whole_number

Coord = tuple[int, int]
"""A square as a 1-based (file, rank) pair: a1 is (1, 1), h8 is (8, 8)."""

Size = tuple[int, int]
"""A board size as (width, height): files, then ranks."""

STANDARD: Final[Size] = (8, 8)

_SQUARE_RE = re.compile(r"([a-z]+)([0-9]+)")
_SIZE_RE = re.compile(r"([0-9]+)(?:[xX]([0-9]+))?")

FILE_LETTERS: Final = "abcdefgh"
SQUARE_NAMES: Final[tuple[str, ...]] = tuple(
    f"{FILE_LETTERS[index % 8]}{index // 8 + 1}" for index in range(64)
)
SQUARE_INDEX: Final[dict[str, int]] = {name: index for index, name in enumerate(SQUARE_NAMES)}


def file_name(file: int) -> str:
    """Return the letters naming a 1-based file: 1 -> 'a', 26 -> 'z', 27 -> 'aa', 53 -> 'ba'."""
    if file < 1:
        raise SquareError(f"file {file} is not on any board (files start at 1)")
    letters = []
    while file:
        file, remainder = divmod(file - 1, 26)
        letters.append(chr(ord("a") + remainder))
    return "".join(reversed(letters))


def file_number(letters: str) -> int:
    """Return the 1-based file named by ``letters`` (the inverse of :func:`file_name`)."""
    number = 0
    for letter in letters:
        number = number * 26 + (ord(letter) - ord("a") + 1)
    return number


def square_name(coord: Coord) -> str:
    """The algebraic name of a 1-based (file, rank): (5, 4) -> 'e4', (27, 27) -> 'aa27'.

    Args:
        coord: the file and rank, each from 1 (files past z go on aa, ab, ...).

    Returns:
        The name.

    Raises:
        SquareError: a rank or a file below 1.
    """
    file, rank = coord
    if rank < 1:
        raise SquareError(f"rank {rank} is not on any board (ranks start at 1)")
    return f"{file_name(file)}{rank}"


def parse_square(text: str, size: Size | None = STANDARD) -> Coord:
    """Parse an algebraic square name on a board of ``size`` into a 1-based (file, rank).

    ``size=None`` accepts any square of an unbounded board (rank 1 or more).

    Args:
        text: a square name such as ``e4`` or ``aa27``.
        size: the board, (width, height), or None for an unbounded one.

    Returns:
        The square's 1-based (file, rank).

    Raises:
        SquareError: the text is not a square name, or the square is off the board.
    """
    match = _SQUARE_RE.fullmatch(text.strip().lower())
    if match is None:
        raise SquareError(f"{text!r} is not a square name (expected letters then a number, e.g. e4)")
    file = file_number(match.group(1))
    rank = whole_number(match.group(2), f"the rank of {text!r}", SquareError)
    if size is None:
        if rank < 1:
            raise SquareError(f"square {text} has rank {rank}; ranks start at 1")
    else:
        check_on_board((file, rank), size, text)
    return file, rank


def check_on_board(coord: Coord, size: Size = STANDARD, shown: str | None = None) -> None:
    """Raise :class:`SquareError` unless ``coord`` lies on a board of ``size``."""
    file, rank = coord
    width, height = size
    if not (1 <= file <= width and 1 <= rank <= height):
        name = shown if shown is not None else f"({file}, {rank})"
        raise SquareError(f"square {name} is off the {width}x{height} board")


def parse_size(text: str) -> Size:
    """Parse a board size written ``N`` (square board) or ``WxH``.

    Raises:
        BoardSizeError: not of that form, or a side below 1.
    """
    match = _SIZE_RE.fullmatch(text.strip())
    if match is None:
        raise BoardSizeError(f"board size {text!r} is not N or WxH with whole numbers (e.g. 8 or 10x12)")
    what = f"board size {text!r}"
    width = whole_number(match.group(1), what, BoardSizeError)
    height = width if match.group(2) is None else whole_number(match.group(2), what, BoardSizeError)
    if width < 1 or height < 1:
        raise BoardSizeError(f"board size {text!r} has a side below 1")
    return width, height


def square_colour(coord: Coord) -> Literal["light", "dark"]:
    """The colour of a square: 'dark' when file + rank is even (a1 is dark), else 'light'.

    Args:
        coord: a 1-based (file, rank), on a board of any size.

    Returns:
        'light' or 'dark'.
    """
    file, rank = coord
    return "dark" if (file + rank) % 2 == 0 else "light"


def index_of(coord: Coord) -> int:
    """Return the 0..63 index of a 1-based (file, rank) on the 8x8 board."""
    return (coord[1] - 1) * 8 + (coord[0] - 1)


def coord_of(index: int) -> Coord:
    """Return the 1-based (file, rank) of a 0..63 index on the 8x8 board."""
    return index % 8 + 1, index // 8 + 1


def parse_standard_square(text: str) -> int:
    """Parse a square of the 8x8 board ('e4') into its 0..63 index."""
    index = SQUARE_INDEX.get(text)
    if index is None:
        return index_of(parse_square(text, STANDARD))
    return index
