"""Moves as written, before any position gives them meaning: a SAN move and a UCI move as values.

Kept apart from the parser (:mod:`board.notation.san_syntax`): a dataclass stays Python in the compiled
build (values that cross processes must unpickle), while the parsing that makes them is compiled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from board.rules.castling import Side

__all__ = ["Castle", "CheckMark", "Piece", "Promotion", "SanMove", "UciMove"]

Piece = Literal["P", "N", "B", "R", "Q", "K"]
Promotion = Literal["Q", "R", "B", "N"]
Castle = Side  # the castling table's name for kingside / queenside
CheckMark = Literal["", "+", "#"]


@dataclass(frozen=True, slots=True)
class SanMove:
    """A SAN move as written, before any position gives it meaning.

    ``from_file``/``from_rank`` are the 0-based disambiguation (``Nbd7`` has from_file 1),
    ``to`` is the 0..63 target square (None when castling), ``castle`` is 'K' for O-O and 'Q'
    for O-O-O, ``check`` is the written suffix, and ``text`` is the input exactly as given.
    """

    piece: Piece
    from_file: int | None
    from_rank: int | None
    capture: bool
    to: int | None
    promotion: Promotion | None
    castle: Castle | None
    check: CheckMark
    text: str


@dataclass(frozen=True, slots=True)
class UciMove:
    """A move in UCI form: from and to squares (0..63) and an optional promotion letter.

    ``promotion`` is upper case ('Q', 'R', 'B', 'N') like :attr:`SanMove.promotion`;
    :func:`uci_text` writes it back in the lower case UCI uses.
    """

    from_square: int
    to_square: int
    promotion: Promotion | None
