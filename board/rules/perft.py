"""Perft: the number of leaf nodes of the legal move tree, the standard test of move generation."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from board.rules.movegen import count_legal_moves, legal_moves
from board.rules.moves import Move
from board.rules.position import Position


def perft(position: Position, depth: int, checkpoint: Callable[[], object] | None = None) -> int:
    """Count the move sequences of exactly ``depth`` plies from ``position`` (leaves counted in bulk).

    ``checkpoint``, when given, is called before each position two plies from the leaves (every
    thousand or so leaves, a millisecond or two); whatever it raises ends the count, the position
    restored. Compiled, this loop never hands control back to the interpreter otherwise, so a
    caller that must answer signals (the command line) passes one.
    """
    if depth <= 0:
        return 1
    if depth == 1:
        return count_legal_moves(position)
    if depth == 2 and checkpoint is not None:
        checkpoint()
    moves = legal_moves(position)
    nodes = 0
    push, pop = position.push, position.pop
    for move in moves:
        push(move)
        try:
            nodes += perft(position, depth - 1, checkpoint)
        finally:
            pop()
    return nodes


def divide(position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move: each legal move with the leaf count below it."""
    return sorted(divided(position, depth))


def root_moves(position: Position) -> int:
    """How many first moves :func:`divided` goes through (its progress is counted in these)."""
    return len(legal_moves(position))


def divided(position: Position, depth: int,
            checkpoint: Callable[[], object] | None = None) -> Iterator[tuple[Move, int]]:
    """Each legal first move with the leaf count below it, one at a time (in move-generation
    order), so that a caller can show how far a long count has got. A Chess960 castling is shown as
    the king taking its own rook. ``checkpoint`` as for :func:`perft`."""
    table = position.castling_table
    for move in legal_moves(position):
        position.push(move)
        try:
            count = perft(position, depth - 1, checkpoint)
        finally:
            position.pop()
        yield Move(move & 63, table.uci_target(move), move >> 12 & 7), count
