"""Castling, written once: the four rights, their squares, and the lookups every rule derives from.

Each right is one row (FEN letter, king and rook from/to); the squares that must be empty, the
squares the king crosses and the right bits are computed from those rows, never spelled out again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from board.pieces import BLACK, KING, ROOK, WHITE, piece_code
from board.squares import SQUARE_INDEX

Side = Literal["K", "Q"]
"""Kingside ('K', O-O) or queenside ('Q', O-O-O)."""


@dataclass(frozen=True, slots=True)
class Castling:
    """One castling right and everything about the move it allows (squares as 0..63 indexes).

    ``between`` are the squares strictly between king and rook, which must all be empty;
    ``king_crossed`` the squares the king crosses and lands on, nearest the king first, none of
    which may be attacked (nor may the king's own square); ``rook_crossed`` likewise for the rook.
    """

    letter: str
    right: int
    colour: int
    side: Side
    king_from: int
    king_to: int
    rook_from: int
    rook_to: int
    between: tuple[int, ...]
    king_crossed: tuple[int, ...]
    rook_crossed: tuple[int, ...]
    between_mask: int

    @property
    def side_name(self) -> str:
        """'kingside' or 'queenside'."""
        return "kingside" if self.side == "K" else "queenside"

    @property
    def san(self) -> str:
        """How SAN writes the move: 'O-O' or 'O-O-O'."""
        return "O-O" if self.side == "K" else "O-O-O"


def _walk(start: int, end: int) -> tuple[int, ...]:
    """The squares of one rank from ``start`` (excluded) to ``end`` (included), in that order."""
    step = 1 if end > start else -1
    return tuple(range(start + step, end + step, step))


def _right(order: int, letter: str, colour: int, king: tuple[str, str], rook: tuple[str, str]) -> Castling:
    king_from, king_to = SQUARE_INDEX[king[0]], SQUARE_INDEX[king[1]]
    rook_from, rook_to = SQUARE_INDEX[rook[0]], SQUARE_INDEX[rook[1]]
    between = _walk(king_from, rook_from)[:-1]
    side: Side = "K" if rook_from > king_from else "Q"
    return Castling(
        letter,
        1 << order,
        colour,
        side,
        king_from,
        king_to,
        rook_from,
        rook_to,
        between,
        _walk(king_from, king_to),
        _walk(rook_from, rook_to),
        sum(1 << square for square in between),
    )


# The only place castling squares are written: FEN letter, colour, king from/to, rook from/to.
# The order is FEN's (KQkq), and each row's position in it is its right bit.
CASTLINGS: Final[tuple[Castling, ...]] = tuple(
    _right(order, letter, colour, king, rook)
    for order, (letter, colour, king, rook) in enumerate(
        (
            ("K", WHITE, ("e1", "g1"), ("h1", "f1")),
            ("Q", WHITE, ("e1", "c1"), ("a1", "d1")),
            ("k", BLACK, ("e8", "g8"), ("h8", "f8")),
            ("q", BLACK, ("e8", "c8"), ("a8", "d8")),
        )
    )
)

WHITE_KINGSIDE: Final = CASTLINGS[0].right
WHITE_QUEENSIDE: Final = CASTLINGS[1].right
BLACK_KINGSIDE: Final = CASTLINGS[2].right
BLACK_QUEENSIDE: Final = CASTLINGS[3].right
ALL_RIGHTS: Final = sum(castling.right for castling in CASTLINGS)

BY_COLOUR: Final[tuple[tuple[Castling, ...], tuple[Castling, ...]]] = (
    tuple(castling for castling in CASTLINGS if castling.colour == WHITE),
    tuple(castling for castling in CASTLINGS if castling.colour == BLACK),
)
"""Each colour's rights, kingside first."""

BY_LETTER: Final[dict[str, Castling]] = {castling.letter: castling for castling in CASTLINGS}
BY_KING_TARGET: Final[dict[int, Castling]] = {castling.king_to: castling for castling in CASTLINGS}
BY_RIGHT: Final[dict[int, Castling]] = {castling.right: castling for castling in CASTLINGS}

KING_HOMES: Final[tuple[int, int]] = (BY_COLOUR[WHITE][0].king_from, BY_COLOUR[BLACK][0].king_from)
"""The square each colour's king starts on (and must still stand on to castle)."""


def castling_for(colour: int, side: str) -> Castling:
    """The right of ``colour`` on ``side`` ('K' or 'Q')."""
    return BY_COLOUR[colour][0 if side == "K" else 1]


def _keep_rights() -> tuple[int, ...]:
    keep = [ALL_RIGHTS] * 64
    for castling in CASTLINGS:
        keep[castling.king_from] &= ~castling.right
        keep[castling.rook_from] &= ~castling.right
    return tuple(keep)


KEEP_RIGHTS: Final[tuple[int, ...]] = _keep_rights()
"""Rights that survive a move from or to each square: a king or rook leaving home (or a rook
captured there) ends the rights that need it."""


def _home_rights() -> dict[tuple[int, int], int]:
    homes: dict[tuple[int, int], int] = {}
    for castling in CASTLINGS:
        for square, kind in ((castling.king_from, KING), (castling.rook_from, ROOK)):
            key = (square, piece_code(castling.colour, kind))
            homes[key] = homes.get(key, 0) | castling.right
    return homes


HOME_RIGHTS: Final[dict[tuple[int, int], int]] = _home_rights()
"""For a (square, piece code) pair: the rights an unmoved king or rook standing there keeps."""


def home_rights(square: int, code: int) -> int:
    """The rights that an unmoved piece ``code`` on ``square`` keeps alive (0: none)."""
    return HOME_RIGHTS.get((square, code), 0)


def rights_text(rights: int) -> str:
    """The FEN castling field for a set of right bits ('-' for none)."""
    return "".join(castling.letter for castling in CASTLINGS if rights & castling.right) or "-"
