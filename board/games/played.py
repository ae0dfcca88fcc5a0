"""A move a game accepted: its encoding, SAN, whether it gives check, and how the game stood after it.

Kept apart from :mod:`board.games.game`: a dataclass stays Python in the compiled build (values that
cross processes must unpickle), while the game that makes them is compiled.
"""

from __future__ import annotations

from dataclasses import dataclass

from board.notation.algebraic import uci as uci_text
from board.rules.outcome import Outcome

__all__ = ["Played"]


@dataclass(frozen=True, slots=True)
class Played:
    """A move the rules accepted: its encoding, SAN, and the state it left."""

    move: int
    san: str
    check: bool
    outcome: Outcome | None

    def __repr__(self) -> str:
        move = uci_text(self.move)  # castling as standard chess writes it: Played knows no layout
        return f"Played({move!r}, san={self.san!r}, check={self.check}, outcome={self.outcome!r})"
