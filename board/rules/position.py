"""A chess position and the two operations that change it: make a move, take it back.

Placement is kept twice, as a 64-square mailbox and as one bitboard per piece code, so that move
generation asks bitboards and everything else looks squares up directly.
"""

from __future__ import annotations

from typing import Final

from board.rules.bitboards import BIT
from board.rules.castling import (
    BLACK_KINGSIDE,
    BLACK_QUEENSIDE,
    CASTLINGS,
    KEEP_RIGHTS,
    STANDARD,
    WHITE_KINGSIDE,
    WHITE_QUEENSIDE,
    CastlingTable,
)
from board.rules.fen_text import format_fen
from board.rules.moves import CASTLE, DOUBLE_PUSH, EN_PASSANT
from board.rules.pieces import BLACK, KING, PAWN, ROOK, WHITE

# Re-exported for callers that learnt these names here; board.rules.castling is where they are defined.
__all__ = [
    "BLACK_KINGSIDE",
    "BLACK_QUEENSIDE",
    "CASTLING_ROOK",
    "KEEP_RIGHTS",
    "WHITE_KINGSIDE",
    "WHITE_QUEENSIDE",
    "Position",
]

CASTLING_ROOK: Final[dict[int, tuple[int, int]]] = {
    castling.king_to: (castling.rook_from, castling.rook_to) for castling in CASTLINGS
}
"""For each king destination when castling in standard chess: the rook's from and to squares."""


class Position:
    """Placement, side to move, castling rights, en passant square and move clocks.

    ``en_passant`` is the square a pawn just skipped (or -1), whether or not a capture is possible;
    FEN output shows it only when an en passant capture is legal. ``castling_table`` is the layout
    the rights refer to: standard chess, or a Chess960 start (board.rules.castling).
    """

    __slots__ = (
        "_undo",
        "bitboards",
        "castling",
        "castling_table",
        "en_passant",
        "fullmove",
        "halfmove",
        "kings",
        "occupancy",
        "squares",
        "turn",
    )

    def __init__(self) -> None:
        self.squares: list[int] = [0] * 64
        self.bitboards: list[int] = [0] * 16
        self.occupancy: list[int] = [0, 0]
        self.kings: list[int] = [-1, -1]
        self.turn = WHITE
        self.castling = 0
        self.castling_table: CastlingTable = STANDARD
        self.en_passant = -1
        self.halfmove = 0
        self.fullmove = 1
        self._undo: list[tuple[int, int, int, int, int]] = []

    # -- placement -----------------------------------------------------------------------------


    def __repr__(self) -> str:
        state = (self.turn, self.castling, self.en_passant, self.halfmove, self.fullmove)
        fen = format_fen(self.squares, *state, table=self.castling_table)
        return f"Position({fen!r})"

    def _repr_svg_(self) -> str:
        """Jupyter: the placement as an SVG board."""
        from board.svg import board_svg

        return board_svg(self.squares)
    def put(self, square: int, code: int) -> None:
        """Place piece ``code`` on an empty square (for setting up positions)."""
        self.squares[square] = code
        self.bitboards[code] |= BIT[square]
        self.occupancy[code >> 3] |= BIT[square]
        if code & 7 == KING:
            self.kings[code >> 3] = square

    def piece_at(self, square: int) -> int:
        """The piece code on ``square``, 0 when empty."""
        return self.squares[square]

    def copy(self) -> Position:
        """An independent copy without the move history."""
        twin = Position()
        twin.squares = self.squares[:]
        twin.bitboards = self.bitboards[:]
        twin.occupancy = self.occupancy[:]
        twin.kings = self.kings[:]
        twin.turn, twin.castling, twin.en_passant = self.turn, self.castling, self.en_passant
        twin.castling_table = self.castling_table
        twin.halfmove, twin.fullmove = self.halfmove, self.fullmove
        return twin

    @property
    def ply_count(self) -> int:
        """How many moves have been made on this position object."""
        return len(self._undo)

    # -- make / unmake -------------------------------------------------------------------------

    def push(self, move: int) -> None:
        """Make an encoded legal move."""
        origin, target, promoted, special = move & 63, move >> 6 & 63, move >> 12 & 7, move >> 15
        if special == CASTLE:
            self._castle(target, True)
            return
        squares, bitboards, occupancy = self.squares, self.bitboards, self.occupancy
        us = self.turn
        piece = squares[origin]
        captured = squares[target]
        self._undo.append((move, captured, self.castling, self.en_passant, self.halfmove))
        travel = BIT[origin] | BIT[target]
        bitboards[piece] ^= travel
        occupancy[us] ^= travel
        squares[origin] = 0
        squares[target] = piece
        if captured:
            bitboards[captured] ^= BIT[target]
            occupancy[us ^ 1] ^= BIT[target]
        if special == EN_PASSANT:
            victim_square = target - 8 if us == WHITE else target + 8
            victim = squares[victim_square]
            squares[victim_square] = 0
            bitboards[victim] ^= BIT[victim_square]
            occupancy[us ^ 1] ^= BIT[victim_square]
        if promoted:
            bitboards[piece] ^= BIT[target]
            new_piece = us * 8 + promoted
            bitboards[new_piece] |= BIT[target]
            squares[target] = new_piece
        if piece & 7 == KING:
            self.kings[us] = target
        keep = self.castling_table.keep_rights
        self.castling &= keep[origin] & keep[target]
        self.en_passant = (origin + target) >> 1 if special == DOUBLE_PUSH else -1
        self.halfmove = 0 if captured or piece & 7 == PAWN else self.halfmove + 1
        if us == BLACK:
            self.fullmove += 1
        self.turn = us ^ 1

    def pop(self) -> int:
        """Take back the last move made with :meth:`push`; return it."""
        move, captured, self.castling, self.en_passant, self.halfmove = self._undo.pop()
        origin, target, promoted, special = move & 63, move >> 6 & 63, move >> 12 & 7, move >> 15
        if special == CASTLE:
            self._castle(target, False)
            return move
        squares, bitboards, occupancy = self.squares, self.bitboards, self.occupancy
        us = self.turn ^ 1
        self.turn = us
        if us == BLACK:
            self.fullmove -= 1
        piece = squares[target]
        if promoted:
            bitboards[piece] ^= BIT[target]
            piece = us * 8 + PAWN
            bitboards[piece] |= BIT[target]
        travel = BIT[origin] | BIT[target]
        bitboards[piece] ^= travel
        occupancy[us] ^= travel
        squares[origin] = piece
        squares[target] = captured
        if captured:
            bitboards[captured] |= BIT[target]
            occupancy[us ^ 1] |= BIT[target]
        if special == EN_PASSANT:
            victim_square = target - 8 if us == WHITE else target + 8
            victim = (us ^ 1) * 8 + PAWN
            squares[victim_square] = victim
            bitboards[victim] |= BIT[victim_square]
            occupancy[us ^ 1] |= BIT[victim_square]
        if piece & 7 == KING:
            self.kings[us] = origin
        return move

    def _castle(self, king_target: int, forward: bool) -> None:
        """Make (``forward``) or take back the castling whose king lands on ``king_target``.

        King and rook are lifted together and set down together, because in Chess960 either may
        land on the other's square, or the king may not move at all.
        """
        squares, bitboards = self.squares, self.bitboards
        if forward:
            us = self.turn
            row = self.castling_table.by_king_target[king_target]
            self._undo.append((row.king_from | king_target << 6 | CASTLE << 15, 0, self.castling,
                               self.en_passant, self.halfmove))
            king_from, king_to, rook_from, rook_to = row.king_from, row.king_to, row.rook_from, row.rook_to
        else:
            us = self.turn ^ 1
            row = self.castling_table.by_king_target[king_target]
            king_from, king_to, rook_from, rook_to = row.king_to, row.king_from, row.rook_to, row.rook_from
        king, rook = us * 8 + KING, us * 8 + ROOK
        squares[king_from] = squares[rook_from] = 0
        squares[king_to], squares[rook_to] = king, rook
        king_travel = BIT[king_from] ^ BIT[king_to]
        rook_travel = BIT[rook_from] ^ BIT[rook_to]
        bitboards[king] ^= king_travel
        bitboards[rook] ^= rook_travel
        self.occupancy[us] ^= king_travel ^ rook_travel
        self.kings[us] = king_to
        if forward:
            self.castling &= self.castling_table.keep_rights[king_from]
            self.en_passant = -1
            self.halfmove += 1
            if us == BLACK:
                self.fullmove += 1
        elif us == BLACK:
            self.fullmove -= 1
        self.turn = us ^ 1 if forward else us
