"""A referee's ruling on one proposal: the piece that may make it and the answer it rests on, or why not.

Its own module, so that every way of judging (a move, castling, the legal targets of a square)
returns the same value without importing the referee that acts on it.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class Ruling:
    """A judged move: the legal origin and the yes it rests on, or the reason it is refused.

    ``traversed`` is what the mover's own yes said it crosses (a pawn's two-step crosses the square
    it opens to en passant); ``rivals`` the other pieces that could legally go there too (for SAN).
    """

    origin: int = -1
    reason: str | None = None
    kind: str = "illegal"
    rivals: tuple[int, ...] = ()
    traversed: tuple[int, ...] = ()
    en_passant: bool = False
    code: int = 0
    """What the mover said it is in its yes (colour * 8 + kind): promotion, a pawn's two-step and
    the halfmove clock go by it."""
