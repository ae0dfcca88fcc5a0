"""Castling, written once: the rights, their squares, and the lookups every rule derives from.

Each right is one row (FEN letter, king and rook from/to); the squares that must be empty, the
squares the king crosses and the right bits are computed from those rows, never spelled out again.
A :class:`CastlingTable` holds the rows of one starting layout: standard chess has one table, and
each Chess960 layout (king and rooks anywhere on the back rank) builds its own from the same rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from board.rules.moves import CASTLE
from board.rules.pieces import BLACK, KING, ROOK, WHITE, piece_code
from board.rules.squares import FILE_LETTERS, SQUARE_INDEX

Side = Literal["K", "Q"]
"""Kingside ('K', O-O, towards the h-file) or queenside ('Q', O-O-O, towards the a-file)."""

RIGHT_LETTERS: Final = "KQkq"
"""The rights in FEN's order; a right's place here is its bit (white kingside = 1 ... black queenside = 8)."""


@dataclass(frozen=True, slots=True)
class Castling:
    """One castling right and everything about the move it allows (squares as 0..63 indexes).

    ``between`` are the squares that must be empty (those the king and the rook cross or land on,
    less the two castling pieces' own squares), nearest the king first; ``king_crossed`` the squares
    the king crosses and lands on, nearest the king first, none of which may be attacked (nor may the
    king's own square); ``rook_crossed`` likewise for the rook. In Chess960 the king may not move at
    all (then ``king_crossed`` is its own square, judged with the rook gone) and the king may land
    on the rook's square or the rook on the king's.
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
    lifted_mask: int
    """The king's and the rook's squares: castling is judged on the occupancy without them."""

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


def castling_row(right_order: int, king_from: int, rook_from: int) -> Castling:
    """The row of one right (its place in 'KQkq') for a king and rook on these back-rank squares.

    Wherever they start, the king ends on the g-file (kingside) or c-file (queenside) and the rook
    beside it, on the f-file or d-file: the rule of standard chess and of Chess960 alike.
    """
    colour = WHITE if right_order < 2 else BLACK
    side: Side = "K" if right_order % 2 == 0 else "Q"
    rank_start = king_from - king_from % 8
    king_to = rank_start + (6 if side == "K" else 2)
    rook_to = rank_start + (5 if side == "K" else 3)
    king_crossed = _walk(king_from, king_to) if king_to != king_from else (king_from,)
    rook_crossed = _walk(rook_from, rook_to) if rook_to != rook_from else ()
    crossed = {*_walk(king_from, king_to), *rook_crossed, king_to, rook_to} - {king_from, rook_from}
    between = tuple(sorted(crossed, key=lambda square: (abs(square - king_from), square)))
    return Castling(
        RIGHT_LETTERS[right_order],
        1 << right_order,
        colour,
        side,
        king_from,
        king_to,
        rook_from,
        rook_to,
        between,
        king_crossed,
        rook_crossed,
        sum(1 << square for square in between),
        1 << king_from | 1 << rook_from,
    )


class CastlingTable:
    """The castling rows of one starting layout and every lookup derived from them (built once).

    ``chess960`` says how castling is written: in UCI as the king taking its own rook, and in FEN
    as X-FEN (or, with ``shredder``, Shredder-FEN's file letters). Tables are values: build them with
    :func:`castling_table`, which keeps one per layout.
    """

    __slots__ = ("by_colour", "by_king_target", "chess960", "home_squares", "keep_rights", "rows", "shredder")

    def __init__(self, rows: tuple[Castling, ...], chess960: bool = False, shredder: bool = False) -> None:
        self.rows: Final = rows
        self.chess960: Final = chess960
        self.shredder: Final = shredder
        self.by_colour: Final[tuple[tuple[Castling, ...], tuple[Castling, ...]]] = (
            tuple(castling for castling in rows if castling.colour == WHITE),
            tuple(castling for castling in rows if castling.colour == BLACK),
        )
        """Each colour's rows, kingside first."""
        self.by_king_target: Final[dict[int, Castling]] = {castling.king_to: castling for castling in rows}
        """The row whose king lands on a square (a colour's two targets differ: g- and c-file)."""
        keep = [ALL_RIGHTS] * 64
        homes: dict[tuple[int, int], int] = {}
        for castling in rows:
            keep[castling.king_from] &= ~castling.right
            keep[castling.rook_from] &= ~castling.right
            for square, kind in ((castling.king_from, KING), (castling.rook_from, ROOK)):
                key = (square, piece_code(castling.colour, kind))
                homes[key] = homes.get(key, 0) | castling.right
        self.keep_rights: Final[tuple[int, ...]] = tuple(keep)
        """Rights that survive a move from or to each square: a king or rook leaving home (or a rook
        captured there) ends the rights that need it."""
        self.home_squares: Final[dict[tuple[int, int], int]] = homes
        """For a (square, piece code) pair: the rights an unmoved king or rook standing there keeps."""

    def __repr__(self) -> str:
        kind = "Chess960" if self.chess960 else "standard"
        return f"CastlingTable({kind}: {self.rights_text(ALL_RIGHTS)})"

    def row(self, colour: int, side: str) -> Castling | None:
        """The row of ``colour`` on ``side`` ('K' or 'Q'); None when this layout has no such right."""
        for castling in self.by_colour[colour]:
            if castling.side == side:
                return castling
        return None

    def home_rights(self, square: int, code: int) -> int:
        """The rights that an unmoved piece ``code`` on ``square`` keeps alive (0: none)."""
        return self.home_squares.get((square, code), 0)

    def uci_target(self, move: int) -> int:
        """The square UCI writes as an encoded move's destination: the rook's, for Chess960 castling."""
        target = move >> 6 & 63
        if self.chess960 and move >> 15 == CASTLE:
            return self.by_king_target[target].rook_from
        return target

    def rights_text(self, rights: int, squares: Sequence[int] | None = None) -> str:
        """The FEN castling field for a set of right bits ('-' for none).

        A standard table writes 'KQkq'. A Chess960 table writes X-FEN (K or Q for the outermost rook
        on its side, the rook's file letter when another rook stands beyond it, which needs
        ``squares``) or, when ``shredder``, Shredder-FEN (always the file letter).
        """
        letters = []
        for castling in self.rows:
            if rights & castling.right:
                beyond = self.chess960 and squares is not None and _rook_beyond(castling, squares)
                if self.shredder or beyond:
                    letters.append(_file_letter(castling))
                else:
                    letters.append(castling.letter)
        return "".join(letters) or "-"


def _file_letter(castling: Castling) -> str:
    letter = FILE_LETTERS[castling.rook_from % 8]
    return letter.upper() if castling.colour == WHITE else letter


def _rook_beyond(castling: Castling, squares: Sequence[int]) -> bool:
    """Whether another rook of the castling colour stands between the castling rook and its edge."""
    rook = piece_code(castling.colour, ROOK)
    edge = castling.rook_from - castling.rook_from % 8 + (7 if castling.side == "K" else 0)
    return edge != castling.rook_from and any(squares[s] == rook for s in _walk(castling.rook_from, edge))


@lru_cache(maxsize=1024)
def castling_table(
    rooks: tuple[int | None, int | None, int | None, int | None],
    kings: tuple[int, int],
    chess960: bool = True,
    shredder: bool = False,
) -> CastlingTable:
    """The table of a layout: the rook square of each right in 'KQkq' order (None: no such right),
    and each colour's king square. One table is kept per layout, so positions share them."""
    rows = tuple(
        castling_row(order, kings[order // 2], rook) for order, rook in enumerate(rooks) if rook is not None
    )
    return CastlingTable(rows, chess960, shredder)


ALL_RIGHTS: Final = 15
"""Every right's bit."""

STANDARD: Final[CastlingTable] = castling_table(
    (SQUARE_INDEX["h1"], SQUARE_INDEX["a1"], SQUARE_INDEX["h8"], SQUARE_INDEX["a8"]),
    (SQUARE_INDEX["e1"], SQUARE_INDEX["e8"]),
    chess960=False,
)
"""Standard chess: kings on e1 and e8, rooks in the corners."""

# The names below are standard chess's table, as they were before Chess960 existed here.
CASTLINGS: Final[tuple[Castling, ...]] = STANDARD.rows
WHITE_KINGSIDE: Final = CASTLINGS[0].right
WHITE_QUEENSIDE: Final = CASTLINGS[1].right
BLACK_KINGSIDE: Final = CASTLINGS[2].right
BLACK_QUEENSIDE: Final = CASTLINGS[3].right

BY_COLOUR: Final[tuple[tuple[Castling, ...], tuple[Castling, ...]]] = STANDARD.by_colour
"""Each colour's rights, kingside first (standard chess)."""

BY_LETTER: Final[dict[str, Castling]] = {castling.letter: castling for castling in CASTLINGS}
BY_KING_TARGET: Final[dict[int, Castling]] = STANDARD.by_king_target
BY_RIGHT: Final[dict[int, Castling]] = {castling.right: castling for castling in CASTLINGS}

KING_HOMES: Final[tuple[int, int]] = (BY_COLOUR[WHITE][0].king_from, BY_COLOUR[BLACK][0].king_from)
"""The square each colour's king starts on in standard chess."""

KEEP_RIGHTS: Final[tuple[int, ...]] = STANDARD.keep_rights
"""Rights that survive a move from or to each square (standard chess)."""

HOME_RIGHTS: Final[dict[tuple[int, int], int]] = STANDARD.home_squares
"""For a (square, piece code) pair: the rights an unmoved king or rook standing there keeps (standard)."""


def castling_for(colour: int, side: str) -> Castling:
    """The standard-chess right of ``colour`` on ``side`` ('K' or 'Q')."""
    return BY_COLOUR[colour][0 if side == "K" else 1]


def home_rights(square: int, code: int) -> int:
    """The rights that an unmoved piece ``code`` on ``square`` keeps alive in standard chess (0: none)."""
    return HOME_RIGHTS.get((square, code), 0)


def rights_text(rights: int, table: CastlingTable = STANDARD, squares: Sequence[int] | None = None) -> str:
    """The FEN castling field for a set of right bits ('-' for none): :meth:`CastlingTable.rights_text`."""
    return table.rights_text(rights, squares)
