"""Perft: the number of leaf nodes of the legal move tree, the standard test of move generation."""

from __future__ import annotations

from collections.abc import Iterator

from board.rules.movegen import count_legal_moves, legal_moves
from board.rules.moves import Move
from board.rules.position import Position


def perft(position: Position, depth: int) -> int:
    """Count the move sequences of exactly ``depth`` plies from ``position`` (leaves counted in bulk)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return count_legal_moves(position)
    moves = legal_moves(position)
    nodes = 0
    push, pop = position.push, position.pop
    for move in moves:
        push(move)
        nodes += perft(position, depth - 1)
        pop()
    return nodes


def divide(position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move: each legal move with the leaf count below it."""
    return sorted(divided(position, depth))


def root_moves(position: Position) -> int:
    """How many first moves :func:`divided` goes through (its progress is counted in these)."""
    return len(legal_moves(position))


def divided(position: Position, depth: int) -> Iterator[tuple[Move, int]]:
    """Each legal first move with the leaf count below it, one at a time (in move-generation
    order), so that a caller can show how far a long count has got. A Chess960 castling is shown as
    the king taking its own rook."""
    table = position.castling_table
    for move in legal_moves(position):
        position.push(move)
        try:
            count = perft(position, depth - 1)
        finally:
            position.pop()
        yield Move(move & 63, table.uci_target(move), move >> 12 & 7), count
