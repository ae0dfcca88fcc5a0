"""``chess-actors color``: the colour of a square on any board."""

from __future__ import annotations

import argparse
from typing import Any

from actors.cli.output import add_json_flag, emit


def register(subparsers: Any) -> None:
    """Add the puzzle subcommands."""
    colour = subparsers.add_parser("color", help="print whether a square is light or dark")
    colour.add_argument("square", metavar="SQUARE", help="a square name, e.g. d3 or aa27")
    add_json_flag(colour)
    colour.set_defaults(handler=run_color)


def run_color(args: argparse.Namespace) -> int:
    """Print light or dark for one square."""
    from board.squares import parse_square, square_colour

    coord = parse_square(args.square, size=None)
    colour = square_colour(coord)
    emit(args, {"square": args.square, "color": colour}, colour)
    return 0
