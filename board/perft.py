"""Perft: the number of leaf nodes of the legal move tree, the standard test of move generation."""

from __future__ import annotations

from board.movegen import legal_moves
from board.moves import Move
from board.position import Position


def perft(position: Position, depth: int) -> int:
    """Count the move sequences of exactly ``depth`` plies from ``position`` (leaves counted in bulk)."""
    if depth <= 0:
        return 1
    moves = legal_moves(position)
    if depth == 1:
        return len(moves)
    nodes = 0
    push, pop = position.push, position.pop
    for move in moves:
        push(move)
        nodes += perft(position, depth - 1)
        pop()
    return nodes


def divide(position: Position, depth: int) -> list[tuple[Move, int]]:
    """Perft split by first move: each legal move with the leaf count below it."""
    result = []
    table = position.castling_table
    for move in legal_moves(position):
        position.push(move)
        shown = Move(move & 63, table.uci_target(move), move >> 12 & 7)  # Chess960 castling: king takes rook
        result.append((shown, perft(position, depth - 1)))
        position.pop()
    return sorted(result)
