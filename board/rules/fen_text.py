"""FEN as text from its parts: the placement field and the whole record, with no judgement in it.

board.notation.fen reads and validates FEN; this module only writes it, so anything may use it without
pulling in the move generator (a position's repr, the board actor, trace payloads).
"""

from __future__ import annotations

from collections.abc import Sequence

from board.rules.castling import STANDARD, CastlingTable
from board.rules.pieces import WHITE, fen_letter
from board.rules.squares import SQUARE_NAMES


def placement_field(squares: Sequence[int]) -> str:
    """FEN's first field for 64 piece codes, a1 first (rank 8 is written first)."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = [], 0
        for file in range(8):
            code = squares[rank * 8 + file]
            if code:
                if empty:
                    row.append(str(empty))
                    empty = 0
                row.append(fen_letter(code))
            else:
                empty += 1
        if empty:
            row.append(str(empty))
        rows.append("".join(row))
    return "/".join(rows)


def format_fen(
    squares: Sequence[int],
    turn: int,
    castling: int,
    en_passant: int,
    halfmove: int,
    fullmove: int,
    table: CastlingTable = STANDARD,
) -> str:
    """FEN from its parts: 64 piece codes (a1 first), side, rights, en passant square (-1: none);
    ``table`` is the castling layout the rights refer to (it decides the castling field's letters)."""
    passant = SQUARE_NAMES[en_passant] if en_passant >= 0 else "-"
    side = "w" if turn == WHITE else "b"
    rights = table.rights_text(castling, squares)
    return f"{placement_field(squares)} {side} {rights} {passant} {halfmove} {fullmove}"
