"""The names the actors of a game are registered under (Erlang's registered names), in one place.

A piece's name is its birth name (``white-knight-g1``: colour, kind and the square it started on),
made by :func:`actors.roles.board.birth_name`; the other actors of a game have one name each, here.
A restarted actor takes its predecessor's name, so a message is addressed to a name, never to a thread.
"""

from __future__ import annotations

__all__ = ["BOARD", "CLIENT", "JOURNAL", "REFEREE", "SUPERVISOR"]

CLIENT = "client"
"""The game's caller: the facade that proposes moves, asks questions and teaches (not an actor)."""

SUPERVISOR = "supervisor"
"""The actor system's supervisor (not an actor either: the client's own object, which heals)."""

REFEREE = "referee"
"""Decides legality, by asking the board and the pieces."""

BOARD = "board"
"""Owns the occupancy: who stands where, and every piece's declared reach."""

JOURNAL = "journal"
"""Keeps the record of the game that outlives any of its actors."""
