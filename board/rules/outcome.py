"""How a game stands: the outcomes that end it, the dead position, and the draws a player may claim.

Checkmate, stalemate, the fivefold repetition and the seventy-five-move rule end the game (FIDE
9.6: no claim is needed); insufficient material is reported but play may go on, as many real
games do; the threefold repetition and the fifty-move rule are draws a player may claim, not ends.
Precedence, most decisive first: checkmate, stalemate, seventy-five moves, fivefold repetition,
insufficient material.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, Literal

from board.rules.bitboards import DARK_SQUARES, squares_of
from board.rules.pieces import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK
from board.rules.position import Position

Outcome = Literal[
    "checkmate", "stalemate", "insufficient_material", "fivefold_repetition", "seventyfive_moves"
]
Claim = Literal["threefold_repetition", "fifty_moves"]
GAME_OVER: Final = ("checkmate", "stalemate", "seventyfive_moves", "fivefold_repetition")
"""The outcomes after which no move may be played."""
SEVENTYFIVE_MOVES: Final = 150
"""Halfmoves without a capture or a pawn move that end the game (FIDE 9.6.2)."""
FIVEFOLD: Final = 5
FIFTY_MOVES: Final = 100
THREEFOLD: Final = 3
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
    """The outcome of a position from its facts, most decisive first.

    A mate on the move that reaches the seventy-fifth move, or the fifth occurrence, is still a
    mate (FIDE 9.6.2), and so a stalemate is still a stalemate. The automatic ends come before
    insufficient material because that alone does not end a game here.
    """
    if not has_move:
        return "checkmate" if in_check else "stalemate"
    if halfmove >= SEVENTYFIVE_MOVES:
        return "seventyfive_moves"
    if repetitions >= FIVEFOLD:
        return "fivefold_repetition"
    if insufficient_material(pieces):
        return "insufficient_material"
    return None


def ends_by_rule(halfmove: int, repetitions: int) -> bool:
    """Whether the clock or the repetitions alone may have ended the game (a cheap first test
    before the full :func:`decide_outcome`)."""
    return halfmove >= SEVENTYFIVE_MOVES or repetitions >= FIVEFOLD


def claims(outcome: str | None, halfmove: int, repetitions: int) -> tuple[Claim, ...]:
    """The draws a player could claim in a position the game has reached, if it has not ended.

    Only the position itself counts: a claim announced with a move that would make the third
    occurrence or the fiftieth move (FIDE 9.2.1, 9.3.1) is not considered.
    """
    if outcome in GAME_OVER:
        return ()
    found: list[Claim] = []
    if repetitions >= THREEFOLD:
        found.append("threefold_repetition")
    if halfmove >= FIFTY_MOVES:
        found.append("fifty_moves")
    return tuple(found)


def ending(outcome: str | None, ply: int) -> str | None:
    """How a game that has ended did so, for the reason a later move is refused
    ('fivefold repetition at ply 20'); None if ``outcome`` does not end the game."""
    if outcome not in GAME_OVER:
        return None
    where = f"at ply {ply}" if ply else "in the starting position"
    return f"{outcome.replace('_', ' ')} {where}"
