"""Helpers shared by several test modules (imported as ``support``: pytest puts tests/ on the path)."""

from __future__ import annotations

from board.rules.position import Position


def position_state(position: Position) -> tuple[object, ...]:
    """Everything a position holds, to compare before and after make/unmake."""
    return (
        tuple(position.squares),
        tuple(position.bitboards),
        tuple(position.occupancy),
        tuple(position.kings),
        position.turn,
        position.castling,
        position.en_passant,
        position.halfmove,
        position.fullmove,
    )
