"""``chess-actors color`` and ``chess-actors knight path|treasure|tour``: the puzzles of the seeds.

Handlers import the pure solvers lazily, so that these commands start without the actor machinery.
"""

from __future__ import annotations

import argparse
from typing import Any

from actors.cli.output import add_json_flag, emit, fail

GRID_LIMIT = 26
"""Boards with at most this many files and ranks also get a grid of move numbers after a tour."""


def register(subparsers: Any) -> None:
    """Add the puzzle subcommands."""
    colour = subparsers.add_parser("color", help="print whether a square is light or dark")
    colour.add_argument("square", metavar="SQUARE", help="a square name, e.g. d3 or aa27")
    add_json_flag(colour)
    colour.set_defaults(handler=run_color)

    knight = subparsers.add_parser(
        "knight", help="knight puzzles on any board: shortest path, treasure hunt, tours"
    )
    puzzles = knight.add_subparsers(dest="puzzle", required=True, metavar="PUZZLE")

    path = puzzles.add_parser("path", help="the least number of knight moves, and one such path")
    path.add_argument("start", metavar="FROM", help="the square the knight starts on")
    path.add_argument("end", metavar="TO", help="the square to reach")
    _add_size(path)
    add_json_flag(path)
    path.set_defaults(handler=run_knight_path)

    treasure = puzzles.add_parser(
        "treasure", help="the shortest knight walk from START over every treasure square"
    )
    treasure.add_argument("start", metavar="START", help="the square the knight starts on")
    treasure.add_argument("squares", metavar="SQUARE", nargs="*", help="the treasure squares")
    _add_size(treasure)
    add_json_flag(treasure)
    treasure.set_defaults(handler=run_knight_treasure)

    tour = puzzles.add_parser("tour", help="a knight's tour: every square once")
    _add_size(tour)
    tour.add_argument(
        "--start", metavar="SQUARE", help="the square the tour starts on (default a1)"
    )
    tour.add_argument("--closed", action="store_true", help="end a knight move away from the start")
    add_json_flag(tour)
    tour.set_defaults(handler=run_knight_tour)


def _add_size(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--size", default="8", metavar="N|WxH", help="the board: N x N or W x H (default 8)"
    )


def run_color(args: argparse.Namespace) -> int:
    """Print light or dark for one square."""
    from board.squares import parse_square, square_colour

    coord = parse_square(args.square, size=None)
    colour = square_colour(coord)
    emit(args, {"square": args.square, "color": colour}, colour)
    return 0


def run_knight_path(args: argparse.Namespace) -> int:
    """Print the knight distance and one shortest path; exit 1 when the squares are unconnected."""
    from board.knights.path import shortest_path
    from board.squares import parse_size, parse_square, square_name

    size = parse_size(args.size)
    path = shortest_path(parse_square(args.start, size), parse_square(args.end, size), size)
    return _print_walk(args, None if path is None else [square_name(coord) for coord in path])


def run_knight_treasure(args: argparse.Namespace) -> int:
    """Print the length and squares of a shortest walk over all treasures; exit 1 if impossible."""
    from board.knights.treasure import TreasureCountError, treasure_hunt
    from board.squares import parse_size, parse_square, square_name

    size = parse_size(args.size)
    start = parse_square(args.start, size)
    if not args.squares:
        raise TreasureCountError("give at least one treasure square after the start square")
    treasures = [parse_square(square, size) for square in args.squares]
    walk = treasure_hunt(start, treasures, size)
    return _print_walk(args, None if walk is None else [square_name(coord) for coord in walk])


def _print_walk(args: argparse.Namespace, names: list[str] | None) -> int:
    if names is None:
        emit(args, {"moves": None, "path": None}, "unreachable")
        return 1
    moves = len(names) - 1
    emit(args, {"moves": moves, "path": names}, f"{moves}\n{' '.join(names)}")
    return 0


def run_knight_tour(args: argparse.Namespace) -> int:
    """Print a knight's tour; exit 1 with the reason on stderr when none exists."""
    from board.knights.grid import index_names
    from board.knights.tour import NoTourError, knight_tour_indices
    from board.squares import parse_size, parse_square

    size = parse_size(args.size)
    width, height = size
    start = None if args.start is None else parse_square(args.start, size)
    try:
        tour = knight_tour_indices(size, start, closed=args.closed)
    except NoTourError as error:
        fail(f"chess-actors knight tour: {error}")
        return 1
    names = index_names(tour, width, height)
    if args.json:
        emit(args, {"size": [width, height], "closed": args.closed, "path": names}, "")
        return 0
    text = " ".join(names)
    if width <= GRID_LIMIT and height <= GRID_LIMIT:
        text += "\n\n" + _move_grid(tour, width, height)
    emit(args, {}, text)
    return 0


def _move_grid(tour: list[int], width: int, height: int) -> str:
    """The board with each square's move number (1 for the start), rank 1 at the bottom."""
    from board.squares import file_name

    number = [0] * (width * height)
    for move, square in enumerate(tour, start=1):
        number[square] = move
    cell = len(str(width * height))
    label = len(str(height))
    lines = [
        f"{rank:>{label}} "
        + " ".join(f"{number[(rank - 1) * width + file]:>{cell}}" for file in range(width))
        for rank in range(height, 0, -1)
    ]
    lines.append(
        " " * (label + 1) + " ".join(f"{file_name(file):>{cell}}" for file in range(1, width + 1))
    )
    return "\n".join(lines)
