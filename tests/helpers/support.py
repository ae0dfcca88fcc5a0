"""Helpers shared by several test modules (imported as ``support``: pytest puts tests/ on the path)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from board.rules.position import Position

if TYPE_CHECKING:
    from actors.game.game import ActorGame
    from actors.protocol.referee import Accepted, Rejected


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


def accepted(game: ActorGame, text: str) -> Accepted:
    """Propose ``text`` and return the acceptance; a refusal fails the test, naming the move."""
    from actors.protocol.referee import Accepted

    reply = game.propose(text)
    assert isinstance(reply, Accepted), f"{text}: {reply}"
    return reply


def rejected(game: ActorGame, text: str) -> Rejected:
    """Propose ``text`` and return the refusal; an acceptance fails the test, naming the move."""
    from actors.protocol.referee import Rejected

    reply = game.propose(text)
    assert isinstance(reply, Rejected), f"{text} was accepted: {reply}"
    return reply
