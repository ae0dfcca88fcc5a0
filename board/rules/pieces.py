"""Colours and piece kinds as small integers, with their letters and names.

A piece code packs both: ``colour * 8 + kind`` (white pawn 1 .. white king 6, black pawn 9 .. 14).
"""

from __future__ import annotations

from typing import Final

WHITE: Final = 0
BLACK: Final = 1

PAWN: Final = 1
KNIGHT: Final = 2
BISHOP: Final = 3
ROOK: Final = 4
QUEEN: Final = 5
KING: Final = 6

KINDS: Final = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
KIND_LETTERS: Final = " PNBRQK"
KIND_NAMES: Final = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
COLOUR_NAMES: Final = ("white", "black")
KIND_BY_LETTER: Final[dict[str, int]] = {letter: kind for kind, letter in enumerate(KIND_LETTERS) if kind}
PROMOTION_KINDS: Final = (QUEEN, ROOK, BISHOP, KNIGHT)
LAST_RANK: Final = (7, 0)
"""The 0-based rank on which each colour's pawns promote (white's eighth, black's first)."""


def piece_code(colour: int, kind: int) -> int:
    """Pack a colour and a kind into one piece code."""
    return colour * 8 + kind


def colour_of(code: int) -> int:
    """The colour of a piece code."""
    return code >> 3


def kind_of(code: int) -> int:
    """The kind of a piece code."""
    return code & 7


def fen_letter(code: int) -> str:
    """The FEN letter of a piece code: upper case for white, lower case for black."""
    letter = KIND_LETTERS[code & 7]
    return letter if code < 8 else letter.lower()


def describe(code: int) -> str:
    """A piece code in words, e.g. 'white knight'."""
    return f"{COLOUR_NAMES[code >> 3]} {KIND_NAMES[code & 7]}"


def parse_colour(text: str) -> int:
    """'white'/'w'/'W' -> WHITE, 'black'/'b'/'B' -> BLACK; ValueError otherwise."""
    lowered = text.strip().lower()
    if lowered in ("w", "white"):
        return WHITE
    if lowered in ("b", "black"):
        return BLACK
    raise ValueError(f"unknown colour {text!r} (expected white or black)")
