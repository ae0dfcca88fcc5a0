"""The journal of a game's accepted moves, kept outside the referee so that a restart can replay it.

The referee writes an entry for every move it accepts; the supervisor keeps the journal (the heir)
and rebuilds the board and a new referee from it; the client reads it to tell whether a proposal it
asked again was already made.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from actors.roles.board import JournalMove

PositionKey = tuple[bytes, int, int, int]
"""What makes positions the same for repetition: placement, turn, castling, legal en passant."""


@dataclass(frozen=True, slots=True)
class GameState:
    """The game state beside the placement, as the referee keeps it."""

    turn: int
    castling: int
    en_passant: int
    halfmove: int
    fullmove: int
    legal_en_passant: int = -1


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One accepted move: what was said about it, what the board did, and the state it left."""

    uci: str
    san: str
    check: bool
    outcome: str | None
    move: JournalMove
    key: PositionKey
    state: GameState


class Heir:
    """The referee's state kept outside it: start state, initial position key, journal of moves.

    The referee appends from its thread while the client and the supervisor read from theirs.
    """

    def __init__(self, start_fen: str, start_state: GameState) -> None:
        self.start_fen = start_fen
        self.start_state = start_state
        self.initial_key: PositionKey | None = None
        self.start_outcome: str | None = None
        self._entries: list[JournalEntry] = []
        self._lock = threading.Lock()

    def entries(self) -> tuple[JournalEntry, ...]:
        """The journal of accepted moves, oldest first."""
        with self._lock:
            return tuple(self._entries)

    def entry(self, ply: int) -> JournalEntry | None:
        """The ``ply``-th accepted move (1-based), None if there is none yet."""
        with self._lock:
            return self._entries[ply - 1] if 0 < ply <= len(self._entries) else None

    def append(self, entry: JournalEntry) -> None:
        """Record an accepted move."""
        with self._lock:
            self._entries.append(entry)

    def __len__(self) -> int:
        return len(self._entries)
