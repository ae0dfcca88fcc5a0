"""The values of the ChessMoveQ puzzle: a piece placed on a square, the verdict, and the error for
an ill-formed case.

Kept apart from the puzzle's reading and judging (:mod:`board.puzzles.chessmoveq`), which is compiled
with the rules core: dataclasses and errors stay Python there, since they cross processes.
"""

from __future__ import annotations

from dataclasses import dataclass

from board.errors import InputError

__all__ = ["Answer", "ChessMoveQError", "Placement"]


class ChessMoveQError(InputError):
    """A ChessMoveQ position, move or case that is not well formed; the message says what and where."""


@dataclass(frozen=True, slots=True)
class Placement:
    """A piece of ``colour`` and ``kind`` on ``square`` (0..63); in a move, the square it goes to.

    ``colour`` is board.rules.pieces WHITE/BLACK, ``kind`` PAWN..KING, ``square`` (rank - 1) * 8 + (file - 1).
    """

    colour: int
    kind: int
    square: int

    @property
    def code(self) -> int:
        """The piece code (``colour * 8 + kind``)."""
        return self.colour * 8 + self.kind


@dataclass(frozen=True, slots=True)
class Answer:
    """The verdict: valid when at least one piece can move.

    ``origins`` are the squares of the pieces that can; ``reasons`` has one line per candidate piece
    (or one line saying there is none), e.g. "rook on d8: blocked by the black knight on d7".
    """

    valid: bool
    origins: tuple[int, ...]
    reasons: tuple[str, ...]
