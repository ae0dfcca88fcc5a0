"""How a game ends: checkmate, stalemate, insufficient material, fifty moves, threefold repetition.

Checkmate and stalemate end the game; the others are reported for the position reached (a draw
that could be claimed or, for insufficient material, a dead position).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, Literal

from board.bitboards import DARK_SQUARES, squares_of
from board.pieces import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK
from board.position import Position

Outcome = Literal["checkmate", "stalemate", "insufficient_material", "fifty_moves", "threefold_repetition"]
GAME_OVER: Final = ("checkmate", "stalemate")
_MATING_KINDS: Final = frozenset({PAWN, ROOK, QUEEN})
"""A side with one of these can always mate (a pawn by promoting)."""


def side_cannot_mate(pieces: list[tuple[int, int]], colour: int) -> bool:
    """Whether ``colour`` lacks the material to ever mate, given (square, code) of all pieces.

    A lone king; a king and one knight when the other side has nothing but king and queens (no
    piece to build a mate with); bishops only, all of them (both sides') on one colour of square,
    with no knight or pawn anywhere.
    """
    own = [(square, code & 7) for square, code in pieces if code >> 3 == colour and code & 7 != KING]
    if not own:
        return True
    kinds = {kind for _, kind in own}
    if kinds == {KNIGHT}:
        others = [code & 7 for _, code in pieces if code >> 3 != colour and code & 7 not in (KING, QUEEN)]
        return len(own) == 1 and not others
    if kinds == {BISHOP}:
        if any(code & 7 in (PAWN, KNIGHT) for _, code in pieces):
            return False
        colours = {bool(1 << square & DARK_SQUARES) for square, code in pieces if code & 7 == BISHOP}
        return len(colours) == 1
    return False


def insufficient_material(pieces: Iterable[tuple[int, int]]) -> bool:
    """Neither side can ever checkmate (pieces as (square, code)).

    A pawn, rook or queen anywhere settles it at once, so ``pieces`` is read only that far.
    """
    listed: list[tuple[int, int]] = []
    for square, code in pieces:
        if code & 7 in _MATING_KINDS:
            return False
        listed.append((square, code))
    return side_cannot_mate(listed, 0) and side_cannot_mate(listed, 1)


def pieces_of(position: Position) -> Iterator[tuple[int, int]]:
    """Every piece of a position as (square, code), a1 first, read as they are asked for."""
    occupied = position.occupancy[0] | position.occupancy[1]
    squares = position.squares
    return ((square, squares[square]) for square in squares_of(occupied))


def decide_outcome(
    has_move: bool, in_check: bool, pieces: Iterable[tuple[int, int]], halfmove: int, repetitions: int
) -> Outcome | None:
    """The outcome of a position from its facts, most decisive first."""
    if not has_move:
        return "checkmate" if in_check else "stalemate"
    if insufficient_material(pieces):
        return "insufficient_material"
    if halfmove >= 100:
        return "fifty_moves"
    if repetitions >= 3:
        return "threefold_repetition"
    return None
