"""Knight's tours of boards at least 5 x 5 in linear time: a grid of small blocks, stitched.

Each block (5 to 11 squares a side) gets a searched, cached closed tour, spliced to its neighbours;
with both sides odd, the block holding the start square gets an open tour from it instead.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Final

from board.puzzles.knights.search import find_tour
from board.puzzles.knights.stitch import Stitcher

_ODD_PARTS: Final = (5, 7, 9, 11)
_SIDES: Final = ((-1, 0), (1, 0), (0, -1), (0, 1))


def block_tour(width: int, height: int, start: int, *, closed: bool) -> list[int]:
    """Return a tour of a ``width`` x ``height`` board (both at least 5) from flat square ``start``.

    With both sides odd the tour is open and ``start`` must have file + rank even; otherwise it is a
    closed tour listed from ``start`` (drop the closing move for an open one).
    """
    start_file, start_rank = start % width, start // width
    if width % 2 and height % 2:
        assert not closed, "a board with both sides odd has no closed tour"
        columns, root_column = _parts_around(width, start_file)
        rows, root_row = _parts_around(height, start_rank)
    else:
        columns, rows = _parts(width), _parts(height)
        root_column, root_row = 0, 0
    grid = _BlockGrid(width, height, columns, rows)
    if width % 2 and height % 2:
        grid.lay_root_path(root_column, root_row, start)
    else:
        grid.stitcher.lay_cycle(grid.squares(root_column, root_row, 0))
    # Breadth-first over the blocks, so that each new block has a placed neighbour to join.
    done = {(root_column, root_row)}
    queue = deque(done)
    while queue:
        column, row = queue.popleft()
        for step_column, step_row in _SIDES:
            block = (column + step_column, row + step_row)
            if block in done or not (0 <= block[0] < len(columns) and 0 <= block[1] < len(rows)):
                continue
            grid.join(block, done)
            done.add(block)
            queue.append(block)
    return grid.stitcher.walk(start)


class _BlockGrid:
    """The board cut into columns and rows of blocks, and the structure growing over it."""

    def __init__(self, width: int, height: int, columns: list[int], rows: list[int]) -> None:
        self.width = width
        self.columns = columns
        self.rows = rows
        self.column_starts = _starts(columns)
        self.row_starts = _starts(rows)
        self.stitcher = Stitcher(width, height)
        self._offsets: dict[tuple[int, int, int], list[int]] = {}

    def squares(self, column: int, row: int, variant: int) -> list[int]:
        """The flat squares of a block's cycle (mirrored by ``variant``), in cycle order."""
        block_width, block_height = self.columns[column], self.rows[row]
        key = (block_width, block_height, variant)
        offsets = self._offsets.get(key)
        if offsets is None:
            offsets = [
                rank * self.width + file
                for file, rank in _cycle_coords(block_width, block_height, variant)
            ]
            self._offsets[key] = offsets
        base = self.row_starts[row] * self.width + self.column_starts[column]
        return [base + offset for offset in offsets]

    def lay_root_path(self, column: int, row: int, start: int) -> None:
        """Lay an open tour of one block from ``start`` as the first piece."""
        block_width, block_height = self.columns[column], self.rows[row]
        left, bottom = self.column_starts[column], self.row_starts[row]
        local_start = (start // self.width - bottom) * block_width + start % self.width - left
        base = bottom * self.width + left
        self.stitcher.lay_path(
            [
                base + (square // block_width) * self.width + square % block_width
                for square in _block_path(block_width, block_height, local_start)
            ]
        )

    def join(self, block: tuple[int, int], done: set[tuple[int, int]]) -> None:
        """Splice a block's cycle in next to a placed neighbour, trying mirror images if needed."""
        column, row = block
        block_width, block_height = self.columns[column], self.rows[row]
        for variant in range(4):
            squares = self.squares(column, row, variant)
            for step_column, step_row in _SIDES:
                if (column + step_column, row + step_row) not in done:
                    continue
                facing = _facing(block_width, block_height, variant, step_column, step_row)
                if self.stitcher.splice(squares, facing):
                    return
        raise AssertionError(  # pragma: no cover - the tests stitch every size they try
            f"no way to join a {block_width}x{block_height} block"
        )


@cache
def _facing(
    width: int, height: int, variant: int, step_column: int, step_row: int
) -> tuple[int, ...]:
    """Positions in a block's cycle of its squares within two lines of the side facing the
    neighbour one (column, row) step away: only those can make a knight move into it."""
    coords = _cycle_coords(width, height, variant)
    if step_column < 0:
        return tuple(position for position, (file, _) in enumerate(coords) if file < 2)
    if step_column > 0:
        return tuple(position for position, (file, _) in enumerate(coords) if file >= width - 2)
    if step_row < 0:
        return tuple(position for position, (_, rank) in enumerate(coords) if rank < 2)
    return tuple(position for position, (_, rank) in enumerate(coords) if rank >= height - 2)


def _fits(total: int) -> bool:
    """Whether ``total`` is a sum of even parts 6, 8 and 10 (0 counts: no parts)."""
    return total == 0 or (total >= 6 and total % 2 == 0)


def _even_parts(total: int) -> list[int]:
    """Split a total that :func:`_fits` into parts of 6, 8 and 10, mostly 8."""
    parts: list[int] = []
    if total == 0:
        return parts
    remainder = total % 8
    if remainder == 2:
        parts.append(10)
    elif remainder == 4:
        parts.extend((6, 6))
    elif remainder == 6:
        parts.append(6)
    return parts + [8] * ((total - sum(parts)) // 8)


def _parts(total: int) -> list[int]:
    """Split a side of at least 5 into even parts and, if it is odd, one odd part first."""
    if total % 2 == 0:
        return _even_parts(total)
    return _parts_around(total, 0)[0]


def _parts_around(total: int, position: int) -> tuple[list[int], int]:
    """Split an odd side into even parts and one odd part covering ``position``; return the parts
    and the index of the odd one. The parts before it are even, so the odd block's corner has
    file + rank even like the board's: its majority colour is the board's."""
    for odd in _ODD_PARTS:
        for before in range(position, position - odd, -1):
            after = total - before - odd
            if before >= 0 and after >= 0 and _fits(before) and _fits(after):
                head = _even_parts(before)
                return [*head, odd, *_even_parts(after)], len(head)
    raise AssertionError(f"cannot split {total} around {position}")  # pragma: no cover


def _starts(parts: list[int]) -> list[int]:
    """The first line of each part."""
    starts = [0]
    for part in parts[:-1]:
        starts.append(starts[-1] + part)
    return starts


@cache
def _block_cycle(width: int, height: int) -> tuple[int, ...]:
    """A closed tour of a small block, found once by search."""
    tour = find_tour(width, height, 0, closed=True)
    assert tour is not None, f"{width}x{height} has a closed tour (Schwenk)"
    return tuple(tour)


@cache
def _cycle_coords(width: int, height: int, variant: int) -> tuple[tuple[int, int], ...]:
    """The block's cycle as 0-based (file, rank) pairs, mirrored left-right (bit 0) and top-bottom
    (bit 1) by ``variant``: four cycles to try where one will not join."""
    return tuple(
        (
            width - 1 - square % width if variant & 1 else square % width,
            height - 1 - square // width if variant & 2 else square // width,
        )
        for square in _block_cycle(width, height)
    )


@cache
def _block_path(width: int, height: int, start: int) -> tuple[int, ...]:
    """An open tour of a small block from ``start``, found once by search."""
    tour = find_tour(width, height, start, closed=False)
    assert tour is not None, f"{width}x{height} has an open tour from {start}"
    return tuple(tour)
