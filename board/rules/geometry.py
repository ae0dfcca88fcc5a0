"""The move function of every piece kind: where a piece could go and which squares it crosses.

``move_function(kind, colour, start, end)`` answers a :class:`Path` (target, traversed squares
ordered from the start outward, and whether the target must be empty or hold an enemy) or ``None``
for a move the piece's geometry cannot make. Pure arithmetic on 1-based (file, rank) pairs with no
board edges, as in the Erlang design; it never raises for a non-geometric move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from board.rules.paths import Path, TargetRule
from board.rules.pieces import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
from board.rules.squares import Coord, coord_of, index_of

__all__ = [
    "Path",
    "TargetRule",
    "bishop_move",
    "forward",
    "king_move",
    "knight_move",
    "move_function",
    "pawn_capture",
    "pawn_move",
    "pawn_push",
    "queen_move",
    "reach_of",
    "rook_move",
]


def _ray(start: Coord, end: Coord, diagonal: bool, straight: bool) -> Path | None:
    file_step, rank_step = end[0] - start[0], end[1] - start[1]
    distance = max(abs(file_step), abs(rank_step))
    if distance == 0:
        return None
    is_straight = file_step == 0 or rank_step == 0
    is_diagonal = abs(file_step) == abs(rank_step)
    if not ((straight and is_straight) or (diagonal and is_diagonal)):
        return None
    df, dr = file_step // distance, rank_step // distance
    traversed = tuple((start[0] + df * step, start[1] + dr * step) for step in range(1, distance))
    return Path(end, traversed)


def rook_move(start: Coord, end: Coord) -> Path | None:
    """Along a file or a rank, any distance."""
    return _ray(start, end, diagonal=False, straight=True)


def bishop_move(start: Coord, end: Coord) -> Path | None:
    """Along a diagonal, any distance."""
    return _ray(start, end, diagonal=True, straight=False)


def queen_move(start: Coord, end: Coord) -> Path | None:
    """Along a file, rank or diagonal, any distance."""
    return _ray(start, end, diagonal=True, straight=True)


def king_move(start: Coord, end: Coord) -> Path | None:
    """One square in any direction (castling is the referee's rule, not the king's geometry)."""
    if start != end and abs(end[0] - start[0]) <= 1 and abs(end[1] - start[1]) <= 1:
        return Path(end, ())
    return None


def knight_move(start: Coord, end: Coord) -> Path | None:
    """Two squares one way and one the other; a knight traverses nothing."""
    if {abs(end[0] - start[0]), abs(end[1] - start[1])} == {1, 2}:
        return Path(end, ())
    return None


def forward(colour: int) -> int:
    """The rank direction a pawn of ``colour`` moves in."""
    return 1 if colour == WHITE else -1


def pawn_push(colour: int, start: Coord, end: Coord) -> Path | None:
    """One square forward onto an empty square, or two from the pawn's home rank (2 or 7)."""
    step = forward(colour)
    if end[0] != start[0]:
        return None
    if end[1] - start[1] == step:
        return Path(end, (), "empty")
    home_rank = 2 if colour == WHITE else 7
    if start[1] == home_rank and end[1] - start[1] == 2 * step:
        return Path(end, ((start[0], start[1] + step),), "empty")
    return None


def pawn_capture(colour: int, start: Coord, end: Coord) -> Path | None:
    """One square diagonally forward, onto an enemy piece (or the en passant square)."""
    if abs(end[0] - start[0]) == 1 and end[1] - start[1] == forward(colour):
        return Path(end, (), "enemy")
    return None


def pawn_move(colour: int, start: Coord, end: Coord) -> Path | None:
    """A pawn's whole geometry: its push if that fits, else its capture."""
    return pawn_push(colour, start, end) or pawn_capture(colour, start, end)


_SLIDERS: Final = {ROOK: rook_move, BISHOP: bishop_move, QUEEN: queen_move}
_STEPPERS: Final = {KING: king_move, KNIGHT: knight_move}


def move_function(kind: int, colour: int, start: Coord, end: Coord) -> Path | None:
    """The geometry of ``kind`` (a board.rules.pieces kind) moving start -> end; ``None`` means no."""
    if kind == PAWN:
        return pawn_move(colour, start, end)
    mover = _SLIDERS.get(kind) or _STEPPERS.get(kind)
    if mover is None:
        return None
    return mover(start, end)


def reach_of(
    moves: Callable[[int, Coord, Coord], Path | None], colour: int, square: int
) -> tuple[tuple[int, tuple[int, ...], TargetRule], ...]:
    """Every move the rule ``moves`` allows a ``colour`` piece on ``square`` (0..63) of the 8x8 board:
    (target, traversed squares nearest first, target rule), ascending by target."""
    start = coord_of(square)
    found = []
    for target in range(64):
        if target == square:
            continue
        path = moves(colour, start, coord_of(target))
        if path is not None:
            found.append((target, tuple([index_of(coord) for coord in path.traversed]), path.target_rule))
    return tuple(found)
