"""A geometric yes: the move a piece's geometry allows, with the squares it crosses.

Kept apart from the move functions (:mod:`board.rules.geometry`): a dataclass stays Python in the compiled
build (values that cross processes must unpickle), while the functions that make them are compiled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from board.rules.squares import Coord

__all__ = ["Path", "TargetRule"]

TargetRule = Literal["any", "empty", "enemy"]
"""What the target square must hold: ``any`` (empty or an enemy), ``empty`` (pawn pushes),
``enemy`` (pawn captures; en passant is the referee's business)."""


@dataclass(frozen=True, slots=True)
class Path:
    """A geometric yes: the target and the squares strictly between, nearest the mover first."""

    target: Coord
    traversed: tuple[Coord, ...]
    target_rule: TargetRule = "any"
