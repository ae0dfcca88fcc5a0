"""A board drawn as an SVG string, for notebooks (``_repr_svg_``) and anything else that shows one.

Pure: it builds text from a placement and never reads or writes anything. It imports nothing
from board, so a position can draw itself without a circle through the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["board_svg"]

# Unicode chess glyphs by piece code (colour * 8 + kind): white 1..6, black 9..14.
_GLYPHS = dict(zip((1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14), "♙♘♗♖♕♔♟♞♝♜♛♚", strict=True))
_FILES = "abcdefgh"
_LIGHT, _DARK, _MARK = "#f0d9b5", "#b58863", "rgba(31, 111, 235, 0.45)"


def board_svg(squares: Sequence[int], marked: Iterable[int] = (), size: int = 320) -> str:
    """Return an SVG image of a placement: 64 piece codes, a1 first, rank 8 drawn at the top.

    ``marked`` squares (e.g. the last move's) are tinted; files and ranks are labelled.

    Args:
        squares: 64 piece codes, a1 first (0: empty).
        marked: squares (0..63) to tint.
        size: the image's width and height in pixels.

    Returns:
        The SVG text.
    """
    if len(squares) != 64:
        raise ValueError(f"a placement has 64 squares, not {len(squares)}")
    cell = size / 8.5
    edge = cell / 2
    chosen = set(marked)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" font-family="sans-serif">'
    ]
    for index in range(64):
        file, rank = index % 8, index // 8
        x, y = edge + file * cell, (7 - rank) * cell
        fill = _LIGHT if (file + rank) % 2 else _DARK
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="{fill}">'
            f"<title>{_FILES[file]}{rank + 1}</title></rect>"
        )
        if index in chosen:
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="{_MARK}"/>'
            )
        glyph = _GLYPHS.get(squares[index])
        if glyph is not None:
            parts.append(
                f'<text x="{x + cell / 2:.1f}" y="{y + cell * 0.78:.1f}" font-size="{cell * 0.8:.1f}" '
                f'text-anchor="middle">{glyph}</text>'
            )
    for number in range(8):
        parts.append(
            f'<text x="{edge + number * cell + cell / 2:.1f}" y="{8 * cell + edge * 0.75:.1f}" '
            f'font-size="{edge * 0.6:.1f}" text-anchor="middle" fill="#666">{_FILES[number]}</text>'
        )
        parts.append(
            f'<text x="{edge / 2:.1f}" y="{(7 - number) * cell + cell * 0.6:.1f}" '
            f'font-size="{edge * 0.6:.1f}" text-anchor="middle" fill="#666">{number + 1}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
