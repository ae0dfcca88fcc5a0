"""Writing games as PGN in the standard export format: the seven tag roster, then other tags,
then movetext wrapped at 80 columns and ended by the result.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from board.errors import InputError
from board.notation.pgn import RESULTS
from board.notation.san_syntax import parse_san

SEVEN_TAG_ROSTER: Final[tuple[str, ...]] = (
    "Event", "Site", "Date", "Round", "White", "Black", "Result",
)
"""The tags every exported game carries, first and in this order."""

LINE_WIDTH: Final = 80
"""No movetext line is longer than this."""

_DEFAULTS: Final[dict[str, str]] = {"Date": "????.??.??"}
_TAG_NAME_RE: Final = re.compile(r"[A-Za-z0-9_]+")


def format_game(
    tags: Mapping[str, str],
    san_moves: Sequence[str],
    result: str,
    *,
    fullmove: int = 1,
    black_first: bool = False,
) -> str:
    """Write one game as PGN export text, ending with a blank line so games concatenate.

    Args:
        tags: tag names to values. The seven tag roster comes first in its fixed order
            (missing ones become "?", Date "????.??.??", Result ``result``), then the other
            tags (SetUp, FEN, ...) in the order given. Values are escaped (``\\`` and ``"``).
        san_moves: the mainline in SAN, in order, as the rules core wrote them.
        result: the termination marker written after the moves: 1-0, 0-1, 1/2-1/2 or *.
        fullmove: the move number of the first move (from the FEN of a set-up position).
        black_first: the first move is Black's, so it is numbered ``N...``.

    Raises:
        InputError: an unknown result, a malformed tag name, a tag value with a line break,
            or a move number below 1.
        MoveSyntaxError: a move that is not SAN.
    """
    if result not in RESULTS:
        raise InputError(f"result {result!r} is not one of 1-0, 0-1, 1/2-1/2, *")
    if fullmove < 1:
        raise InputError(f"move number {fullmove} is below 1")
    lines = [
        _tag_line(name, tags.get(name, result if name == "Result" else _DEFAULTS.get(name, "?")))
        for name in SEVEN_TAG_ROSTER
    ]
    lines.extend(
        _tag_line(name, value) for name, value in tags.items() if name not in SEVEN_TAG_ROSTER
    )
    lines.append("")
    lines.extend(_wrap(_movetext_units(san_moves, result, fullmove, black_first)))
    return "\n".join(lines) + "\n\n"


def _tag_line(name: str, value: str) -> str:
    if not _TAG_NAME_RE.fullmatch(name):
        raise InputError(f"tag name {name!r} is not letters, digits and underscores")
    if "\n" in value or "\r" in value:
        raise InputError(f"tag {name}: a PGN tag value cannot hold a line break")
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _movetext_units(
    san_moves: Sequence[str], result: str, fullmove: int, black_first: bool
) -> list[str]:
    """Split the movetext into the units a line break may fall between: a move number stays
    with its move, so a line never ends in a bare ``12.``.
    """
    units: list[str] = []
    white_to_move = not black_first
    number = fullmove
    for index, san in enumerate(san_moves):
        parse_san(san)
        if white_to_move:
            units.append(f"{number}. {san}")
        elif index == 0:
            units.append(f"{number}... {san}")
        else:
            units.append(san)
        if not white_to_move:
            number += 1
        white_to_move = not white_to_move
    units.append(result)
    return units


def _wrap(units: list[str]) -> list[str]:
    """Fill lines greedily with units separated by single spaces, none past LINE_WIDTH."""
    lines: list[str] = []
    current = ""
    for unit in units:
        if current and len(current) + 1 + len(unit) > LINE_WIDTH:
            lines.append(current)
            current = unit
        else:
            current = f"{current} {unit}" if current else unit
    lines.append(current)
    return lines
