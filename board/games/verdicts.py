"""The verdict on a replayed PGN game and the error that stopped it, as every engine reports them.

Kept apart from :mod:`board.games.replay`: dataclasses stay Python in the compiled build (verdicts
cross processes in bulk replay and must unpickle), while the replay that makes them is compiled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["FAILURE", "ILLEGAL", "UNREADABLE", "GameVerdict", "MoveError"]

# What kind of error stopped a game (a MoveError's kind), one name each.
ILLEGAL = "illegal"
"""A well-formed move the rules refuse."""
UNREADABLE = "unreadable"
"""Text that is not a move, or PGN past a reader limit."""
FAILURE = "failure"
"""An engine that failed while judging."""


@dataclass(frozen=True, slots=True)
class MoveError:
    """The first move of a game that could not be played: 1-based ply, the move as written, why,
    where it stands (file, line, column, when known) and what kind of error it is."""

    ply: int
    move: str
    reason: str
    line: int | None = None
    column: int | None = None
    kind: str = ILLEGAL
    source: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The contract's error object (with the place in the file when known)."""
        record: dict[str, Any] = {"ply": self.ply, "move": self.move, "reason": self.reason,
                                  "kind": self.kind}
        if self.source is not None:
            record["file"] = self.source
        if self.line is not None:
            record["line"], record["column"] = self.line, self.column
        return record

    @property
    def where(self) -> str:
        """``FILE:LINE:COL`` (as much of it as is known), or '' when nothing is."""
        if self.line is None:
            return self.source or ""
        return f"{self.source or 'line'}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class GameVerdict:
    """What replaying one game found."""

    game: int
    white: str
    black: str
    plies: int
    fen: str
    outcome: str | None
    result: str
    error: MoveError | None
    source: str | None = None
    """The file the game came from, when known (not part of the JSON line)."""
    claimable: tuple[str, ...] = ()
    """The draws a player could claim where the game stopped (board.rules.outcome.claims)."""

    def as_json(self) -> dict[str, Any]:
        """One line of ``replay --json``."""
        return {
            "game": self.game, "white": self.white, "black": self.black, "plies": self.plies,
            "fen": self.fen, "outcome": self.outcome, "claimable": list(self.claimable) or None,
            "result": self.result, "error": self.error.as_json() if self.error else None,
        }
