"""Move tables for the 8x8 board, built once at import from the move functions in geometry.

Squares are 0..63 (a1 = 0, h8 = 63) and sets of squares are int bitboards. Sliding attacks use
occupancy-indexed dictionaries per square (rank, file and diagonals), so a rook's or bishop's
attacks cost a mask and two dictionary look-ups.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from board.rules.geometry import Path, king_move, knight_move, pawn_capture, queen_move
from board.rules.pieces import BLACK, WHITE
from board.rules.squares import Coord, coord_of, index_of

SQUARES: Final = range(64)
BIT: Final = tuple(1 << square for square in SQUARES)
ALL: Final = (1 << 64) - 1
RANK_1: Final = 0xFF
RANK_2: Final = RANK_1 << 8
RANK_7: Final = RANK_1 << 48
RANK_8: Final = RANK_1 << 56
FILE_A: Final = 0x0101010101010101
FILE_H: Final = FILE_A << 7
DARK_SQUARES: Final = sum(BIT[s] for s in SQUARES if (s % 8 + s // 8) % 2 == 0)


def squares_of(bitboard: int) -> Iterator[int]:
    """Yield the squares of a bitboard, lowest first."""
    while bitboard:
        lowest = bitboard & -bitboard
        yield lowest.bit_length() - 1
        bitboard ^= lowest


def _targets(mover: Callable[[Coord, Coord], Path | None], square: int) -> int:
    start = coord_of(square)
    return sum(BIT[target] for target in SQUARES if mover(start, coord_of(target)) is not None)


KNIGHT_ATTACKS: Final = tuple(_targets(knight_move, square) for square in SQUARES)
KING_ATTACKS: Final = tuple(_targets(king_move, square) for square in SQUARES)


def _pawn_targets(colour: int, square: int) -> int:
    start = coord_of(square)
    return sum(BIT[target] for target in SQUARES if pawn_capture(colour, start, coord_of(target)))


PAWN_ATTACKS: Final = tuple(
    tuple(_pawn_targets(colour, square) for square in SQUARES) for colour in (WHITE, BLACK)
)


def _between(a: int, b: int) -> tuple[int, ...]:
    path = queen_move(coord_of(a), coord_of(b))
    return tuple(index_of(coord) for coord in path.traversed) if path else ()


BETWEEN_SQUARES: Final = tuple(tuple(_between(a, b) for b in SQUARES) for a in SQUARES)
"""The squares strictly between two aligned squares, nearest ``a`` first; () if not aligned."""
BETWEEN: Final = tuple(tuple(sum(BIT[s] for s in row[b]) for b in SQUARES) for row in BETWEEN_SQUARES)

_DIRECTIONS: Final = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))


def _ray(square: int, direction: tuple[int, int]) -> tuple[int, ...]:
    file, rank = coord_of(square)
    squares: list[int] = []
    while True:
        file, rank = file + direction[0], rank + direction[1]
        if not (1 <= file <= 8 and 1 <= rank <= 8):
            return tuple(squares)
        squares.append(index_of((file, rank)))


RAYS: Final = tuple(tuple(_ray(square, d) for d in _DIRECTIONS) for square in SQUARES)
"""RAYS[square][d]: the squares from ``square`` outward in direction d (4 straight, 4 diagonal)."""


def _line(a: int, b: int) -> int:
    if a == b or queen_move(coord_of(a), coord_of(b)) is None:
        return 0
    for forward_ray, backward_ray in zip(RAYS[a][0::2], RAYS[a][1::2], strict=True):
        if b in forward_ray or b in backward_ray:
            return BIT[a] | sum(BIT[s] for s in forward_ray + backward_ray)
    return 0


LINE: Final = tuple(tuple(_line(a, b) for b in SQUARES) for a in SQUARES)
"""The whole line (edge to edge) through two aligned squares; 0 if they are not aligned."""


def _slide(square: int, directions: range, occupied: int) -> int:
    attacks = 0
    for direction in directions:
        for target in RAYS[square][direction]:
            attacks |= BIT[target]
            if occupied & BIT[target]:
                break
    return attacks


def _subsets(mask: int) -> Iterator[int]:
    subset = 0
    while True:
        yield subset
        subset = (subset - mask) & mask
        if subset == 0:
            return


def _slider_table(directions: range) -> tuple[tuple[int, ...], tuple[dict[int, int], ...]]:
    masks, tables = [], []
    for square in SQUARES:
        # The last square of each ray never blocks anything beyond it, so it is left out.
        mask = sum(BIT[s] for d in directions for s in RAYS[square][d][:-1])
        masks.append(mask)
        tables.append({occ: _slide(square, directions, occ) for occ in _subsets(mask)})
    return tuple(masks), tuple(tables)


RANK_MASK, RANK_ATTACKS = _slider_table(range(0, 2))
FILE_MASK, FILE_ATTACKS = _slider_table(range(2, 4))
DIAG_MASK, DIAG_ATTACKS = _slider_table(range(4, 8))
ROOK_EMPTY: Final = tuple(RANK_ATTACKS[s][0] | FILE_ATTACKS[s][0] for s in SQUARES)
BISHOP_EMPTY: Final = tuple(DIAG_ATTACKS[s][0] for s in SQUARES)


def rook_attacks(square: int, occupied: int) -> int:
    """The squares a rook on ``square`` attacks, given the occupied squares."""
    return (
        RANK_ATTACKS[square][occupied & RANK_MASK[square]]
        | FILE_ATTACKS[square][occupied & FILE_MASK[square]]
    )


def bishop_attacks(square: int, occupied: int) -> int:
    """The squares a bishop on ``square`` attacks, given the occupied squares."""
    return DIAG_ATTACKS[square][occupied & DIAG_MASK[square]]
