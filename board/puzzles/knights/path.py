"""The least number of knight moves between two squares, and one shortest path, on any W x H board.

Breadth-first search on boards up to about a million squares; above that an exact closed form
(the infinite-board formula plus the few corrections near corners and on boards 3 or 4 wide).
"""

from __future__ import annotations

from typing import Final

from board.errors import BoardSizeError, ChessActorsError
from board.puzzles.knights.grid import KNIGHT_STEPS
from board.rules.squares import STANDARD, Coord, Size, check_on_board

BFS_SQUARE_LIMIT: Final = 1 << 20
"""Boards with at most this many squares are searched; larger ones use the closed form."""

MAX_PATH_MOVES: Final = 1_000_000
"""The longest path :func:`shortest_path` writes out square by square."""

_NO_CLOSED_FORM: Final = frozenset({(3, 3), (3, 4), (4, 3), (4, 4)})


class PathTooLongError(ChessActorsError):
    """A shortest path (or treasure walk) exists but is too long to list square by square."""

    def __init__(self, moves: int, limit: int) -> None:
        super().__init__(
            f"the shortest walk takes {moves} moves, more than the {limit} "
            "that are listed square by square"
        )
        self.moves = moves
        self.limit = limit


def infinite_board_distance(file_delta: int, rank_delta: int) -> int:
    """Return the least number of knight moves for a displacement on an unbounded board."""
    long, short = abs(file_delta), abs(rank_delta)
    if long < short:
        long, short = short, long
    if long == 1 and short == 0:
        return 3
    if long == 2 and short == 2:
        return 4
    spread = long - short
    # Near the diagonal (short > spread) each move gains at most 3 on long + short, elsewhere at
    # most 2 on the long side; the floor divisions add the extra moves that colour parity forces.
    if short > spread:
        return spread - 2 * ((spread - short) // 3)
    return spread - 2 * ((spread - short) // 4)


def has_closed_form(size: Size) -> bool:
    """Return whether :func:`closed_form_distance` covers a board (all but 3x3, 3x4 and 4x4)."""
    return size not in _NO_CLOSED_FORM


def closed_form_distance(start: Coord, end: Coord, size: Size) -> int | None:
    """Return the knight distance between two squares by formula, or None when unreachable.

    Exact on every board but 3x3, 3x4 and 4x4 (checked against breadth-first search in the tests).

    Raises:
        BoardSizeError: the board is one of those three.
    """
    if not has_closed_form(size):
        raise BoardSizeError(f"no closed form for the knight distance on {size[0]}x{size[1]}")
    width, height = size
    return _formula(width, height, start[0] - 1, start[1] - 1, end[0] - 1, end[1] - 1)


def _formula(width: int, height: int, x1: int, y1: int, x2: int, y2: int) -> int | None:
    """The closed form on 0-based coordinates; see :func:`closed_form_distance`."""
    file_gap, rank_gap = abs(x1 - x2), abs(y1 - y2)
    if width == 1 or height == 1:
        return 0 if file_gap == rank_gap == 0 else None
    if width == 2 or height == 2:
        # Every move steps two along the long side and flips the short side: the distance is fixed
        # by the long gap, and the flips must agree with the short gap.
        along, across = (rank_gap, file_gap) if width == 2 else (file_gap, rank_gap)
        if along % 2:
            return None
        moves = along // 2
        return moves if moves % 2 == across else None
    if (
        file_gap == 1
        and rank_gap == 1
        and (
            (x1 in (0, width - 1) and y1 in (0, height - 1))
            or (x2 in (0, width - 1) and y2 in (0, height - 1))
        )
    ):
        return 4  # a corner's diagonal neighbour: both two-move routes leave the board
    if width == 3 and x1 == x2 == 1 and rank_gap == 2:
        return 4  # the middle file of a 3-wide board: both two-move routes leave the board
    if height == 3 and y1 == y2 == 1 and file_gap == 2:
        return 4
    if width == 4 and file_gap == 3 and rank_gap == 0 and y1 in (0, height - 1):
        return 5  # the two corners of a 4-wide edge: the three-move routes leave the board
    if height == 4 and rank_gap == 3 and file_gap == 0 and x1 in (0, width - 1):
        return 5
    return infinite_board_distance(file_gap, rank_gap)


def bfs_distances(source: Coord, size: Size = STANDARD) -> list[int]:
    """Return the knight distance from ``source`` to every square, -1 where there is no path.

    The list is indexed by flat square, rank * W + file (0-based).

    Raises:
        SquareError: ``source`` is off the board.
    """
    check_on_board(source, size)
    width, height = size
    padded, stride = _search(width, height, source[0] - 1, source[1] - 1, None)
    distances: list[int] = []
    for rank in range(height):
        row = (rank + 2) * stride + 2
        distances.extend(padded[row : row + width])
    return distances


def _search(
    width: int, height: int, file: int, rank: int, stop: int | None
) -> tuple[list[int], int]:
    """Breadth-first search from (file, rank) on a board padded by two walls on every side.

    Returns the padded distances (-1 unseen, -2 wall) and the padded row length. With ``stop`` (a
    padded square) it ends once that square is reached; every square nearer the source is final.
    """
    stride = width + 4
    distance = [-2] * (stride * (height + 4))
    unseen = [-1] * width
    for row in range(2, height + 2):
        distance[row * stride + 2 : row * stride + 2 + width] = unseen
    # The walls make the eight neighbours plain offsets: no bounds checks in the hot loop.
    offsets = [rank_step * stride + file_step for file_step, rank_step in KNIGHT_STEPS]
    source = (rank + 2) * stride + file + 2
    distance[source] = 0
    queue = [source]
    if stop == source:
        return distance, stride
    for square in queue:
        reached = distance[square] + 1
        for offset in offsets:
            neighbour = square + offset
            if distance[neighbour] == -1:
                distance[neighbour] = reached
                queue.append(neighbour)
                if neighbour == stop:
                    return distance, stride
    return distance, stride


def _toward(start: Coord, end: Coord) -> list[tuple[int, int]]:
    """The knight steps ordered by how straight they head from ``start`` to ``end``.

    Trying these first makes the path chosen among the shortest ones look like a line.
    """
    file_way, rank_way = end[0] - start[0], end[1] - start[1]
    return sorted(KNIGHT_STEPS, key=lambda step: -(step[0] * file_way + step[1] * rank_way))


def knight_distance(start: Coord, end: Coord, size: Size = STANDARD) -> int | None:
    """Return the least number of knight moves from ``start`` to ``end``, or None if unreachable.

    Args:
        start: a 1-based (file, rank).
        end: another.
        size: the board, (width, height).

    Returns:
        The number of moves, or None when ``end`` cannot be reached.

    Raises:
        SquareError: a square is off the board.
    """
    check_on_board(start, size)
    check_on_board(end, size)
    width, height = size
    if width * height > BFS_SQUARE_LIMIT:
        return _formula(width, height, start[0] - 1, start[1] - 1, end[0] - 1, end[1] - 1)
    stride = width + 4
    target = (end[1] + 1) * stride + end[0] + 1
    distance, _ = _search(width, height, start[0] - 1, start[1] - 1, target)
    found = distance[target]
    return found if found >= 0 else None


def shortest_path(
    start: Coord, end: Coord, size: Size = STANDARD, *, max_moves: int = MAX_PATH_MOVES
) -> list[Coord] | None:
    """Return one shortest knight path from ``start`` to ``end`` (both included), or None.

    On huge boards the path is walked greedily, each step to a neighbour one move nearer by the
    closed form, so it is exact there too.

    Args:
        start: a 1-based (file, rank).
        end: another.
        size: the board, (width, height).
        max_moves: refuse to list a path of more moves than this.

    Returns:
        The squares from ``start`` to ``end``, or None when ``end`` cannot be reached.

    Raises:
        SquareError: a square is off the board.
        PathTooLongError: the path has more than ``max_moves`` moves.
    """
    check_on_board(start, size)
    check_on_board(end, size)
    width, height = size
    if width * height > BFS_SQUARE_LIMIT:
        return _greedy_path(start, end, size, max_moves)
    stride = width + 4
    source = (start[1] + 1) * stride + start[0] + 1
    # Search from the end so that walking downhill from the start needs no parent table.
    distance, _ = _search(width, height, end[0] - 1, end[1] - 1, source)
    moves = distance[source]
    if moves < 0:
        return None
    if moves > max_moves:
        raise PathTooLongError(moves, max_moves)
    offsets = [rank_step * stride + file_step for file_step, rank_step in _toward(start, end)]
    square = source
    squares = [source]
    for remaining in range(moves - 1, -1, -1):
        for offset in offsets:
            if distance[square + offset] == remaining:
                square += offset
                break
        squares.append(square)
    return [(square % stride - 1, square // stride - 1) for square in squares]


def _greedy_path(start: Coord, end: Coord, size: Size, max_moves: int) -> list[Coord] | None:
    """Walk downhill on the closed-form distance; every step lowers it by exactly one."""
    width, height = size
    x, y = start[0] - 1, start[1] - 1
    end_x, end_y = end[0] - 1, end[1] - 1
    moves = _formula(width, height, x, y, end_x, end_y)
    if moves is None:
        return None
    if moves > max_moves:
        raise PathTooLongError(moves, max_moves)
    steps = _toward(start, end)
    path = [start]
    for remaining in range(moves - 1, -1, -1):
        for file_step, rank_step in steps:
            next_x, next_y = x + file_step, y + rank_step
            if (
                0 <= next_x < width
                and 0 <= next_y < height
                and _formula(width, height, next_x, next_y, end_x, end_y) == remaining
            ):
                x, y = next_x, next_y
                break
        else:  # pragma: no cover - the closed form is exact, so a step downhill always exists
            raise AssertionError(f"no knight step lowers the distance at {(x + 1, y + 1)}")
        path.append((x + 1, y + 1))
    return path
