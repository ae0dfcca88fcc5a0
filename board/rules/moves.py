"""Moves as small integers inside the engine, and ``Move``, the value type people see.

An encoded move packs ``from | to << 6 | promotion << 12 | flag << 15``; the flag marks the moves
whose side effects make/unmake must know about: double pawn pushes, en passant and castling.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from board.errors import MoveSyntaxError
from board.rules.pieces import KIND_BY_LETTER, KIND_LETTERS, PROMOTION_KINDS
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES

NORMAL: Final = 0
DOUBLE_PUSH: Final = 1
EN_PASSANT: Final = 2
CASTLE: Final = 3


def encode(from_square: int, to_square: int, promotion: int = 0, flag: int = NORMAL) -> int:
    """Pack a move into one int."""
    return from_square | to_square << 6 | promotion << 12 | flag << 15


def from_square(move: int) -> int:
    """The square an encoded move starts on."""
    return move & 63


def to_square(move: int) -> int:
    """The square an encoded move ends on."""
    return move >> 6 & 63


def promotion(move: int) -> int:
    """The promotion kind of an encoded move, 0 if none."""
    return move >> 12 & 7


def flag(move: int) -> int:
    """The special-move flag of an encoded move."""
    return move >> 15


@dataclass(frozen=True, slots=True, order=True, repr=False)
class Move:
    """A move by squares (0..63) and an optional promotion kind, as in UCI."""

    from_square: int
    to_square: int
    promotion: int = 0

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    def uci(self) -> str:
        """This move in UCI notation, e.g. 'e2e4' or 'e7e8q'."""
        suffix = KIND_LETTERS[self.promotion].lower() if self.promotion else ""
        return f"{SQUARE_NAMES[self.from_square]}{SQUARE_NAMES[self.to_square]}{suffix}"

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse UCI notation ('e2e4', 'e7e8q').

        Raises:
            MoveSyntaxError: not a UCI move.
        """
        start, end = SQUARE_INDEX.get(text[:2]), SQUARE_INDEX.get(text[2:4])
        suffix = text[4:]
        kind = KIND_BY_LETTER.get(suffix.upper(), -1) if suffix else 0
        if start is None or end is None or len(suffix) > 1 or (kind != 0 and kind not in PROMOTION_KINDS):
            raise MoveSyntaxError(f"{text!r} is not a UCI move (e.g. e2e4 or e7e8q)")
        if start == end:
            raise MoveSyntaxError(f"{text!r}: a move must change squares (null moves are not chess)")
        return cls(start, end, kind)

    @classmethod
    def of(cls, encoded: int) -> Move:
        """The value type of an encoded move."""
        return cls(encoded & 63, encoded >> 6 & 63, encoded >> 12 & 7)

    def __str__(self) -> str:
        return self.uci()
