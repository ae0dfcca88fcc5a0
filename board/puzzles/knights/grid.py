"""Knight geometry on any W x H board as flat integer squares (square = rank * W + file, 0-based).

The knight puzzles work on small integers and precomputed tables; names appear only at the edges.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from board.rules.squares import Coord, file_name

KNIGHT_STEPS: Final[tuple[tuple[int, int], ...]] = (
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
)
"""The eight (file, rank) offsets of a knight move, clockwise from one o'clock."""


def to_index(coord: Coord, width: int) -> int:
    """Return the flat square of a 1-based (file, rank) on a board ``width`` files wide."""
    return (coord[1] - 1) * width + (coord[0] - 1)


def to_coord(index: int, width: int) -> Coord:
    """Return the 1-based (file, rank) of a flat square on a board ``width`` files wide."""
    rank, file = divmod(index, width)
    return file + 1, rank + 1


def neighbour_table(width: int, height: int) -> list[list[int]]:
    """Return, for every flat square, the flat squares a knight reaches from it in one move."""
    table: list[list[int]] = []
    for rank in range(height):
        for file in range(width):
            table.append(
                [
                    (rank + rank_step) * width + file + file_step
                    for file_step, rank_step in KNIGHT_STEPS
                    if 0 <= file + file_step < width and 0 <= rank + rank_step < height
                ]
            )
    return table


def neighbours(index: int, width: int, height: int) -> list[int]:
    """Return the flat squares one knight move from ``index`` (no table: for huge boards)."""
    rank, file = divmod(index, width)
    return [
        (rank + rank_step) * width + file + file_step
        for file_step, rank_step in KNIGHT_STEPS
        if 0 <= file + file_step < width and 0 <= rank + rank_step < height
    ]


def is_knight_move(first: int, second: int, width: int) -> bool:
    """Return whether two flat squares of a board ``width`` files wide are a knight move apart."""
    first_rank, first_file = divmod(first, width)
    second_rank, second_file = divmod(second, width)
    return abs(first_file - second_file) * abs(first_rank - second_rank) == 2


def index_names(indices: Iterable[int], width: int, height: int) -> list[str]:
    """Return the algebraic names of flat squares; fast for a million squares (tables, no calls)."""
    files = [file_name(file) for file in range(1, width + 1)]
    ranks = [str(rank) for rank in range(1, height + 1)]
    return [files[index % width] + ranks[index // width] for index in indices]
