"""ChessMoveQ's cases: the seed's seven positions and moves with the reasons they must give, and
pieces read from a FEN placement, shared by the tests of the puzzle and of its actors."""

from __future__ import annotations

from typing import Any

import pytest

Piece = list[Any]
"""A ChessMoveQ piece or move: colour, kind, file, rank (``["W", "R", 8, 2]``)."""

OPENING: list[Piece] = [
    ["B", "K", 3, 8], ["B", "Q", 1, 5], ["B", "N", 4, 7], ["B", "N", 7, 8], ["B", "B", 2, 4],
    ["B", "R", 4, 8], ["B", "R", 8, 8], ["B", "P", 1, 7], ["B", "P", 2, 7], ["B", "P", 3, 6],
    ["B", "P", 5, 6], ["B", "P", 6, 7], ["B", "P", 7, 7], ["B", "P", 8, 7], ["W", "K", 5, 1],
    ["W", "Q", 6, 3], ["W", "N", 3, 3], ["W", "B", 5, 2], ["W", "B", 6, 4], ["W", "R", 1, 1],
    ["W", "R", 8, 1], ["W", "P", 1, 3], ["W", "P", 2, 2], ["W", "P", 3, 2], ["W", "P", 4, 4],
    ["W", "P", 6, 2], ["W", "P", 7, 2], ["W", "P", 8, 3],
]
KNIGHTS_FAR: list[Piece] = [
    ["B", "K", 6, 8], ["B", "Q", 1, 7], ["B", "N", 1, 3], ["B", "N", 7, 1], ["B", "B", 8, 8],
    ["B", "B", 2, 5], ["B", "R", 4, 3], ["B", "R", 1, 5], ["B", "P", 5, 5], ["B", "P", 7, 2],
    ["B", "P", 5, 7], ["B", "P", 5, 6], ["B", "P", 4, 4], ["W", "K", 7, 3], ["W", "Q", 3, 2],
    ["W", "N", 4, 8], ["W", "N", 7, 5], ["W", "B", 1, 1], ["W", "B", 8, 1], ["W", "R", 1, 8],
    ["W", "R", 3, 7], ["W", "P", 8, 2], ["W", "P", 6, 3], ["W", "P", 4, 2], ["W", "P", 1, 4],
    ["W", "P", 8, 7],
]
KING_STEP: list[Piece] = [
    ["B", "K", 7, 3], ["B", "Q", 2, 4], ["B", "N", 5, 2], ["B", "N", 1, 6], ["B", "B", 7, 7],
    ["B", "B", 1, 8], ["W", "K", 7, 1], ["W", "Q", 6, 1], ["W", "N", 5, 6], ["W", "N", 3, 3],
    ["W", "B", 2, 2], ["W", "B", 6, 5],
]
IN_CHECK: list[Piece] = [
    ["B", "K", 7, 6], ["B", "Q", 8, 3], ["B", "N", 7, 7], ["B", "N", 8, 7], ["B", "B", 2, 2],
    ["B", "B", 3, 8], ["B", "R", 1, 1], ["B", "R", 1, 6], ["B", "P", 8, 5], ["B", "P", 4, 3],
    ["B", "P", 8, 6], ["W", "K", 7, 8], ["W", "Q", 7, 2], ["W", "N", 5, 1], ["W", "N", 4, 6],
    ["W", "B", 1, 2], ["W", "B", 2, 6], ["W", "R", 4, 4], ["W", "R", 3, 6], ["W", "P", 5, 2],
    ["W", "P", 6, 2],
]
CAPTURE: list[Piece] = [
    ["B", "K", 8, 3], ["B", "Q", 6, 5], ["B", "N", 7, 8], ["B", "N", 3, 7], ["B", "B", 4, 1],
    ["B", "B", 1, 1], ["W", "K", 7, 7], ["W", "Q", 7, 1], ["W", "N", 2, 2], ["W", "N", 1, 3],
    ["W", "B", 3, 5],
]
SMALLEST_MATE: list[Piece] = [["B", "K", 6, 1], ["B", "Q", 6, 2], ["W", "K", 8, 1]]

SEED_CASES = [
    # (position, move, expected, the line about the deciding piece must contain all of these)
    pytest.param(OPENING, ["W", "R", 8, 2], True, ["rook on h1: can go to h2"], id="1-rook-h1-up-one"),
    pytest.param(
        KNIGHTS_FAR, ["W", "N", 1, 5], False, ["knight on d8: cannot reach a5"], id="2-no-knight-reaches-a5"
    ),
    pytest.param(
        KING_STEP, ["B", "K", 8, 3], False, ["king on g3:", "h3 is attacked", "white bishop on f5"],
        id="3-bishop-guards-h3",
    ),
    pytest.param(
        IN_CHECK, ["B", "N", 5, 8], False,
        ["knight on g7:", "in check from the white queen on g2", "does not answer it"],
        id="4-queen-gives-check",
    ),
    pytest.param(
        IN_CHECK, ["B", "N", 7, 5], True,
        ["knight on h7: can go to g5", "answering the check from the white queen on g2"],
        id="5-knight-blocks-the-check",
    ),
    pytest.param(
        CAPTURE, ["B", "B", 2, 2], True, ["bishop on a1: can take the white knight on b2"],
        id="6-bishop-takes-knight",
    ),
    pytest.param(SMALLEST_MATE, ["B", "Q", 7, 1], True, ["queen on f2: can go to g1"], id="7-smallest-mate"),
]


FEN_KINDS = {"p": "P", "n": "N", "b": "B", "r": "R", "q": "Q", "k": "K"}


def pieces(placement: str) -> list[Piece]:
    """ChessMoveQ pieces from the placement field of a FEN (rank 8 first)."""
    found: list[Piece] = []
    for row, text in enumerate(placement.split("/")):
        file = 1
        for char in text:
            if char.isdigit():
                file += int(char)
                continue
            found.append(["W" if char.isupper() else "B", FEN_KINDS[char.lower()], file, 8 - row])
            file += 1
    return found


def square(name: str) -> tuple[int, int]:
    """The (file, rank) of a square's name, 1-based: ``e4`` is (5, 4)."""
    return ord(name[0]) - ord("a") + 1, int(name[1])
