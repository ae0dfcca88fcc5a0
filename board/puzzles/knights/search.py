"""Backtracking search for knight's tours of small boards (up to about 150 squares).

Depth-first, Warnsdorff's choice first, pruning dead ends and cut-off regions; without a node
budget it is exhaustive, so ``None`` proves that no such tour starts on that square.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from board.errors import ChessActorsError
from board.puzzles.knights.grid import neighbour_table

TIE_BREAKS: Final = 4
"""How many different tie-break orders :func:`search_tour` knows (``tie_break`` 0..3)."""


class SearchBudgetExhausted(ChessActorsError):
    """The search visited its budget of nodes without settling the question."""


def search_tour(
    width: int,
    height: int,
    start: int,
    *,
    closed: bool,
    node_budget: int | None = None,
    tie_break: int = 0,
    accept: Callable[[list[int]], bool] | None = None,
) -> list[int] | None:
    """Return a knight's tour of a ``width`` x ``height`` board from flat square ``start``, or None.

    The tour lists every flat square (rank * width + file) once; with ``closed`` its last square is
    a knight move from ``start``. ``tie_break`` picks among equally constrained moves (0: farthest
    from the centre first, 1: nearest first, 2 and 3: by square number up or down). With ``accept``,
    only a tour it approves counts.

    Raises:
        SearchBudgetExhausted: more than ``node_budget`` positions were tried.
    """
    size = width * height
    if size == 1:
        return None if closed else [start]
    table = neighbour_table(width, height)
    # degree[u]: moves from u to unvisited squares; for a closed tour the start counts as one,
    # since the last square leaves through it.
    degree = [len(targets) for targets in table]
    if not closed:
        for target in table[start]:
            degree[target] -= 1
    visited = bytearray(size)
    visited[start] = 1
    preference = _preference(width, height, tie_break)
    # On a board with a side of 4 the two outer lines only touch the two inner ones, which makes
    # the outer squares half the board and independent: a tour uses at most one inner-inner move.
    if width == 4:
        inner = [index % width in (1, 2) for index in range(size)]
    elif height == 4:
        inner = [index // width in (1, 2) for index in range(size)]
    else:
        inner = [False] * size
    start_targets = table[start]
    path = [start]
    stamp = [0] * size
    generation = [0]
    nodes = [0]

    def reachable_all(square: int, left: int) -> bool:
        """Whether every unvisited square can still be reached from ``square``."""
        generation[0] += 1
        mark = generation[0]
        stack = [square]
        found = 0
        while stack:
            here = stack.pop()
            for target in table[here]:
                if not visited[target] and stamp[target] != mark:
                    stamp[target] = mark
                    found += 1
                    stack.append(target)
        return found == left

    def extend(square: int, left: int, loose_ends: int, inner_moves: int) -> bool:
        if left == 0:
            return (not closed or start in table[square]) and (accept is None or accept(path))
        nodes[0] += 1
        if node_budget is not None and nodes[0] > node_budget:
            raise SearchBudgetExhausted(f"no tour settled within {node_budget} positions")
        if left > 3 and not reachable_all(square, left):
            return False
        choices = [target for target in table[square] if not visited[target]]
        choices.sort(key=lambda target: degree[target] * size + preference[target])
        for target in choices:
            if left > 1 and degree[target] == 0:
                continue  # a square with no way on can only be the last one
            inner_used = inner_moves + (inner[square] and inner[target])
            if inner_used > 1:
                continue
            visited[target] = 1
            for neighbour in table[target]:
                degree[neighbour] -= 1
            ends = loose_ends
            viable = True
            if left > 1:
                # Leaving ``square`` costs each of its other unvisited neighbours a way in or out.
                for neighbour in table[square]:
                    if visited[neighbour]:
                        continue
                    ways = degree[neighbour]
                    if closed:
                        if ways < 2:
                            viable = False
                            break
                    elif ways == 0:
                        viable = False
                        break
                    elif ways == 1:
                        ends += 1  # it can be entered but not left: it must be the last square
                        if ends > 1:
                            viable = False
                            break
                if viable and closed:
                    viable = not all(visited[neighbour] for neighbour in start_targets)
            if viable:
                path.append(target)
                if extend(target, left - 1, ends, inner_used):
                    return True
                path.pop()
            visited[target] = 0
            for neighbour in table[target]:
                degree[neighbour] += 1
        return False

    return path if extend(start, size - 1, 0, 0) else None


def _preference(width: int, height: int, tie_break: int) -> list[int]:
    """A rank for every square; lower is tried first among squares with as few onward moves."""
    size = width * height
    centre_x, centre_y = width - 1, height - 1  # doubled, to stay in integers
    spread = [
        (2 * (index % width) - centre_x) ** 2 + (2 * (index // width) - centre_y) ** 2
        for index in range(size)
    ]
    if tie_break == 0:
        order = sorted(range(size), key=lambda index: (-spread[index], index))
    elif tie_break == 1:
        order = sorted(range(size), key=lambda index: (spread[index], index))
    elif tie_break == 2:
        order = list(range(size))
    else:
        order = list(reversed(range(size)))
    preference = [0] * size
    for position, index in enumerate(order):
        preference[index] = position
    return preference


def _attempts(budgets: tuple[int, ...] = (5_000, 50_000)) -> Iterator[tuple[int, int | None]]:
    """The (tie_break, node_budget) pairs to try in turn: a search that goes wrong early can take
    long, while another order often succeeds at once. The last attempt has no budget."""
    for budget in budgets:
        for tie_break in range(TIE_BREAKS):
            yield tie_break, budget
    yield 0, None


def find_tour(
    width: int,
    height: int,
    start: int,
    *,
    closed: bool,
    accept: Callable[[list[int]], bool] | None = None,
) -> list[int] | None:
    """Return a tour from ``start`` as :func:`search_tour` does, retrying other tie-breaks on small
    budgets before one exhaustive search; None proves that no tour (that ``accept`` approves)
    exists."""
    for tie_break, budget in _attempts():
        try:
            return search_tour(
                width,
                height,
                start,
                closed=closed,
                node_budget=budget,
                tie_break=tie_break,
                accept=accept,
            )
        except SearchBudgetExhausted:
            continue
    raise AssertionError("unreachable: the last attempt has no budget")  # pragma: no cover
