"""Chess960 start positions by their number, 0-959, and back (the standard Scharnagl numbering).

Number 518 is standard chess's start. The back rank is found from the number's digits in mixed
radix: the light-squared bishop (4 files), the dark-squared one (4), the queen (6 free squares),
the knights (10 pairs of the 5 left); rook, king, rook fill the last three squares in that order.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from board.errors import FenError

COUNT: Final = 960
"""How many Chess960 start positions there are."""

_KNIGHT_PAIRS: Final = tuple(combinations(range(5), 2))
"""The 10 ways to place two knights on five free squares, in the numbering's order."""


def back_rank(number: int) -> str:
    """White's back rank, a-file first, of start position ``number`` (518: 'RNBQKBNR').

    Raises:
        FenError: the number is not in 0..959.
    """
    if not 0 <= number < COUNT:
        raise FenError(f"Chess960 position number {number} is not in 0..959")
    rank: list[str | None] = [None] * 8
    number, light = divmod(number, 4)
    rank[2 * light + 1] = "B"
    number, dark = divmod(number, 4)
    rank[2 * dark] = "B"
    number, queen = divmod(number, 6)
    rank[_free(rank)[queen]] = "Q"
    free = _free(rank)
    for pair_index in _KNIGHT_PAIRS[number]:
        rank[free[pair_index]] = "N"
    for file, piece in zip(_free(rank), "RKR", strict=True):
        rank[file] = piece
    return "".join(piece or "" for piece in rank)


def start_fen(number: int) -> str:
    """The X-FEN of Chess960 start position ``number`` (castling 'KQkq', white to move).

    Raises:
        FenError: the number is not in 0..959.
    """
    white = back_rank(number)
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"


def number_of(rank: str) -> int | None:
    """The number of the start position whose back rank (a-file first, either case) is ``rank``;
    None when it is no Chess960 start (bishops on one colour, king not between the rooks, ...)."""
    rank = rank.upper()
    if sorted(rank) != sorted("RNBQKBNR"):
        return None
    bishops = [file for file, piece in enumerate(rank) if piece == "B"]
    light = next((file for file in bishops if file % 2 == 1), None)
    dark = next((file for file in bishops if file % 2 == 0), None)
    if light is None or dark is None:
        return None
    others = [piece for piece in rank if piece != "B"]
    queen = others.index("Q")
    rest = [file for file, piece in enumerate(p for p in others if p != "Q") if piece == "N"]
    if [piece for piece in others if piece not in "QN"] != ["R", "K", "R"]:
        return None
    knights = _KNIGHT_PAIRS.index((rest[0], rest[1]))
    return ((knights * 6 + queen) * 4 + dark // 2) * 4 + (light - 1) // 2


def _free(rank: list[str | None]) -> list[int]:
    return [file for file, piece in enumerate(rank) if piece is None]


def position_number(fen: str) -> int | None:
    """The number of the Chess960 start position a FEN's placement shows (castling, side and clocks
    aside); None when the placement is not one of the 960 starts.

    Raises:
        FenError: the FEN has no placement field.
    """
    fields = fen.split()
    if not fields:
        raise FenError("FEN is empty; expected a placement field")
    ranks = fields[0].split("/")
    if len(ranks) != 8 or ranks[1] != "pppppppp" or ranks[6] != "PPPPPPPP" or ranks[2:6] != ["8"] * 4:
        return None
    if ranks[0] != ranks[7].lower() or not ranks[7].isupper():
        return None
    return number_of(ranks[7])
