"""Stitching knight cycles into one tour: a growing path or cycle kept as two links per square.

A cycle of unplaced squares joins the structure through one of its moves x-y and one structure move
a-b with a-x and b-y knight moves: drop x-y and a-b, add a-x and b-y. The ends never change.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

from board.puzzles.knights.grid import is_knight_move, neighbours


class Stitcher:
    """A Hamiltonian path or cycle over the placed squares of a ``width`` x ``height`` board."""

    def __init__(self, width: int, height: int) -> None:
        size = width * height
        self.width = width
        self.height = height
        # Each square's two neighbours along the structure; -1 at a path end or when unplaced.
        self.first = array("i", [-1]) * size
        self.second = array("i", [-1]) * size
        self.placed = bytearray(size)

    def lay_path(self, squares: Sequence[int]) -> None:
        """Place the first piece: an open path through ``squares`` in order."""
        self._link(squares, closed=False)

    def lay_cycle(self, squares: Sequence[int]) -> None:
        """Place the first piece: a cycle through ``squares`` in order."""
        self._link(squares, closed=True)

    def _link(self, squares: Sequence[int], *, closed: bool) -> None:
        first, second, placed = self.first, self.second, self.placed
        count = len(squares)
        for position, square in enumerate(squares):
            first[square] = squares[position - 1]
            second[square] = squares[(position + 1) % count]
            placed[square] = 1
        if not closed:
            first[squares[0]] = -1
            second[squares[-1]] = -1

    def splice(self, cycle: Sequence[int], positions: Iterable[int] | None = None) -> bool:
        """Join a cycle of unplaced squares into the structure; False if no pair of moves fits.

        ``positions`` (indices into ``cycle``) are the squares tried as the cycle's end of a new
        move, in order; by default all of them.
        """
        width, height = self.width, self.height
        first, second, placed = self.first, self.second, self.placed
        count = len(cycle)
        for position in range(count) if positions is None else positions:
            here = cycle[position]
            for there in (cycle[position - 1], cycle[(position + 1) % count]):
                there_rank, there_file = divmod(there, width)
                for anchor in neighbours(here, width, height):
                    if not placed[anchor]:
                        continue
                    for partner in (first[anchor], second[anchor]):
                        if partner < 0:
                            continue
                        partner_rank, partner_file = divmod(partner, width)
                        if abs(partner_rank - there_rank) * abs(partner_file - there_file) == 2:
                            step = 1 if there == cycle[position - 1] else -1
                            self._insert(
                                [cycle[(position + step * k) % count] for k in range(count)],
                                anchor,
                                partner,
                            )
                            return True
        return False

    def insert(self, runs: Iterable[Sequence[int]]) -> bool:
        """Join a path of unplaced squares (either way round) into a structure move a-b, with a-x
        and y-b knight moves for its ends x and y; return False if none of ``runs`` fits."""
        width, height = self.width, self.height
        first, second, placed = self.first, self.second, self.placed
        for run in runs:
            for entry, exit_ in ((run[0], run[-1]), (run[-1], run[0])):
                for anchor in neighbours(entry, width, height):
                    if not placed[anchor]:
                        continue
                    for partner in (first[anchor], second[anchor]):
                        if partner >= 0 and is_knight_move(partner, exit_, width):
                            self._insert(run if entry == run[0] else run[::-1], anchor, partner)
                            return True
        return False

    def _insert(self, run: Sequence[int], anchor: int, partner: int) -> None:
        """Replace the structure move ``anchor``-``partner`` by ``anchor``, run..., ``partner``."""
        first, second = self.first, self.second
        self._link(run, closed=False)
        first[run[0]] = anchor
        second[run[-1]] = partner
        _relink(first, second, anchor, partner, run[0])
        _relink(first, second, partner, anchor, run[-1])

    def walk(self, start: int) -> list[int]:
        """Return the squares in structure order from ``start`` (an end of a path, or any square of
        a cycle), every placed square once."""
        first, second = self.first, self.second
        order = [start]
        append = order.append
        previous, here = -1, start
        for _ in range(sum(self.placed) - 1):
            following = first[here]
            if following == previous:
                following = second[here]
            previous, here = here, following
            append(here)
        return order


def _relink(first: array[int], second: array[int], square: int, old: int, new: int) -> None:
    """Replace the link ``square``-``old`` by ``square``-``new``."""
    if first[square] == old:
        first[square] = new
    else:
        second[square] = new
