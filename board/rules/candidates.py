"""The board's rule for which enemy pieces might reach a square: what it reports, never a verdict.

The first piece on each of the eight rays (if it belongs to the attacker and its kind moves along
that ray), the attacker's knights a knight's jump away; pieces confirm by their own move functions.
"""

from __future__ import annotations

from collections.abc import Sequence

from board.rules.bitboards import KNIGHT_ATTACKS, PAWN_ATTACKS, RAYS, squares_of
from board.rules.pieces import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK

Squares = Sequence[int]
"""64 piece codes, a1 first (0 for an empty square)."""

_KNIGHT_SQUARES = tuple(tuple(squares_of(KNIGHT_ATTACKS[square])) for square in range(64))


def _ray_kinds(direction: int) -> tuple[int, int]:
    """The slider kinds that move along rays of this direction (0-3 straight, 4-7 diagonal)."""
    return (ROOK, QUEEN) if direction < 4 else (BISHOP, QUEEN)


_RAY_KINDS = tuple(_ray_kinds(direction) for direction in range(8))


def reach_candidates(squares: Squares, square: int, by: int) -> tuple[int, ...]:
    """The squares (ascending) of ``by``'s pieces that might reach ``square`` on this occupancy.

    ``square`` -1 stands for a king that is not on the board (position-only mode): nobody reaches it.
    """
    if square < 0:
        return ()
    found: list[int] = []
    for direction, ray in enumerate(RAYS[square]):
        for step, seen in enumerate(ray):
            code = squares[seen]
            if not code:
                continue
            if code >> 3 == by:
                kind = code & 7
                adjacent = step == 0 and (
                    kind == KING or (kind == PAWN and PAWN_ATTACKS[by][seen] >> square & 1 == 1)
                )
                if adjacent or kind in _RAY_KINDS[direction]:
                    found.append(seen)
            break
    knight = by * 8 + KNIGHT
    found.extend(seen for seen in _KNIGHT_SQUARES[square] if squares[seen] == knight)
    if len(found) > 1:
        found.sort()
    return tuple(found)


def after_move(squares: Squares, origin: int, target: int, victim: int = -1) -> list[int]:
    """The occupancy once the piece on ``origin`` stands on ``target`` (``victim``: also emptied)."""
    hypothetical = list(squares)
    hypothetical[target] = hypothetical[origin]
    hypothetical[origin] = 0
    if victim >= 0:
        hypothetical[victim] = 0
    return hypothetical


def reach_candidates_after(
    squares: Squares, origin: int, target: int, king_square: int, by: int, victim: int = -1
) -> tuple[int, ...]:
    """Who of ``by`` might reach ``king_square`` once origin -> target is made (a probe).

    A king move passes its target as ``king_square``; en passant passes the captured pawn's
    square as ``victim``. A piece standing on the target is captured, so it is never a candidate.
    """
    return reach_candidates(after_move(squares, origin, target, victim), king_square, by)
