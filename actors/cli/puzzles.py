"""``chess-actors color`` and ``chess-actors knight path|treasure|tour``: the puzzles of the seeds.

Handlers import the pure solvers lazily, so that these commands start without the actor machinery.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.output import add_json_flag, emit, fail

if TYPE_CHECKING:
    from board.puzzles.knights.path import PathTooLongError

GRID_LIMIT = 26
"""Boards with at most this many files and ranks also get a grid of move numbers after a tour."""


def register(subparsers: Any) -> None:
    """Add the puzzle subcommands: ``knight path|treasure|tour``, then ``color``."""
    knight = add_command(
        subparsers, "knight",
        summary="knight puzzles on any board: shortest path, treasure hunt, tours",
        description="The knight puzzles, on any board from 1x1 up (default 8x8; files past z: aa, ab, ...).",
        examples=[
            "chess-actors knight path g2 a8",
            "chess-actors knight treasure a8 e6 c4 b3 a2 b2 b1",
            "chess-actors knight tour --size 6 --closed",
        ],
    )
    puzzles = knight.add_subparsers(dest="puzzle", required=True, metavar="PUZZLE")

    path = add_command(
        puzzles, "path",
        summary="the least number of knight moves, and one such path",
        description="Print the least number of knight moves from FROM to TO, then one shortest path.\n"
                    "Unreachable squares print 'unreachable' and exit 1. A path too long to list (more\n"
                    "than a million moves, on a huge board) prints the distance alone and says so on stderr.",
        examples=[
            "chess-actors knight path g2 a8                      # 4, then g2 e3 c4 b6 a8",
            "chess-actors knight path b2 a1 --size 3             # unreachable: exit 1",
            "chess-actors knight path a1 a1000000000 --size 1000000000 --json   # too long to list",
        ],
    )
    path.add_argument("start", metavar="FROM", help="the square the knight starts on")
    path.add_argument("end", metavar="TO", help="the square to reach")
    _add_size(path)
    add_json_flag(path)
    path.set_defaults(handler=run_knight_path)

    treasure = add_command(
        puzzles, "treasure",
        summary="the shortest knight walk from START over every treasure square",
        description="Print the length of the shortest knight walk from START that visits every treasure\n"
                    "square (in any order; squares may be revisited), then the walk.",
        examples=[
            "chess-actors knight treasure a8 e6 c4 b3 a2 b2 b1   # 11 moves",
            "chess-actors knight treasure a1 j10 a10 j1 --size 10 --json",
        ],
    )
    treasure.add_argument("start", metavar="START", help="the square the knight starts on")
    treasure.add_argument("squares", metavar="SQUARE", nargs="*", help="the treasure squares")
    _add_size(treasure)
    add_json_flag(treasure)
    treasure.set_defaults(handler=run_knight_treasure)

    tour = add_command(
        puzzles, "tour",
        summary="a knight's tour: every square once",
        description="Print a knight's tour of the board (every square once), and on boards up to 26x26\n"
                    "a grid of move numbers. When no tour exists, one line on stderr says why (exit 1).",
        examples=[
            "chess-actors knight tour",
            "chess-actors knight tour --size 10x12 --start b1 --closed",
            "chess-actors knight tour --size 1000 --json > tour.json",
        ],
    )
    _add_size(tour)
    tour.add_argument(
        "--start", metavar="SQUARE", help="the square the tour starts on (default a1)"
    )
    tour.add_argument("--closed", action="store_true", help="end a knight move away from the start")
    add_json_flag(tour)
    tour.set_defaults(handler=run_knight_tour)

    colour = add_command(
        subparsers, "color",
        summary="print whether a square is light or dark",
        description="Print light or dark for a square of the board (a square is dark when file + rank is\n"
                    "even: a1 dark, h1 light). A square off the board is an error naming the board.",
        examples=[
            "chess-actors color d3                               # light",
            "chess-actors color aa27 --size 30                   # dark",
            "chess-actors color j3 --size 10x4 --json",
        ],
    )
    colour.add_argument("square", metavar="SQUARE", help="a square name, e.g. d3 or aa27")
    _add_size(colour)
    add_json_flag(colour)
    colour.set_defaults(handler=run_color)


def _add_size(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--size", default="8", metavar="N|WxH", help="the board: N x N or W x H (default 8)"
    )


def run_color(args: argparse.Namespace) -> int:
    """Print light or dark for one square."""
    from board.rules.squares import parse_size, parse_square, square_colour

    coord = parse_square(args.square, parse_size(args.size))
    colour = square_colour(coord)
    emit(args, {"square": args.square, "color": colour}, colour)
    return 0


def run_knight_path(args: argparse.Namespace) -> int:
    """Print the knight distance and one shortest path; exit 1 when the squares are unconnected."""
    from board.puzzles.knights.path import PathTooLongError, shortest_path
    from board.rules.squares import parse_size, parse_square, square_name

    size = parse_size(args.size)
    try:
        path = shortest_path(parse_square(args.start, size), parse_square(args.end, size), size)
    except PathTooLongError as error:
        return _print_unlisted(args, error)
    return _print_walk(args, None if path is None else [square_name(coord) for coord in path])


def run_knight_treasure(args: argparse.Namespace) -> int:
    """Print the length and squares of a shortest walk over all treasures; exit 1 if impossible."""
    from actors.cli.streams import answer_signals
    from board.puzzles.knights.path import PathTooLongError
    from board.puzzles.knights.treasure import TreasureCountError, treasure_hunt
    from board.rules.squares import parse_size, parse_square, square_name

    size = parse_size(args.size)
    start = parse_square(args.start, size)
    if not args.squares:
        raise TreasureCountError("give at least one treasure square after the start square")
    treasures = [parse_square(square, size) for square in args.squares]
    try:
        walk = treasure_hunt(start, treasures, size, answer_signals)
    except PathTooLongError as error:
        return _print_unlisted(args, error)
    return _print_walk(args, None if walk is None else [square_name(coord) for coord in walk])


def _print_walk(args: argparse.Namespace, names: list[str] | None) -> int:
    if names is None:
        emit(args, {"moves": None, "path": None}, "unreachable")
        return 1
    moves = len(names) - 1
    emit(args, {"moves": moves, "path": names}, f"{moves}\n{' '.join(names)}")
    return 0


def _print_unlisted(args: argparse.Namespace, error: PathTooLongError) -> int:
    """The walk exists but is too long to list: its length is the answer, and stderr says why no squares."""
    emit(args, {"moves": error.moves, "path": None}, str(error.moves))
    fail(f"chess-actors knight {args.puzzle}: the squares are not listed: {error.moves:,} moves, "
         f"more than the {error.limit:,} listed square by square")
    return 0


def run_knight_tour(args: argparse.Namespace) -> int:
    """Print a knight's tour; exit 1 with the reason on stderr when none exists."""
    from board.puzzles.knights.grid import index_names
    from board.puzzles.knights.tour import NoTourError, knight_tour_indices
    from board.rules.squares import parse_size, parse_square

    size = parse_size(args.size)
    width, height = size
    start = None if args.start is None else parse_square(args.start, size)
    try:
        tour = knight_tour_indices(size, start, closed=args.closed)
    except NoTourError as error:
        fail(f"chess-actors knight tour: {error}")
        return 1
    # Written in slices, so that a tour of millions of squares never has all its names in memory at once.
    slices = (index_names(tour[at : at + TOUR_SLICE], width, height)
              for at in range(0, len(tour), TOUR_SLICE))
    out = sys.stdout
    if args.json:
        head = json.dumps({"size": [width, height], "closed": args.closed, "path": []})
        out.write(head[: -len("]}")])
        for number, names in enumerate(slices):
            out.write((", " if number else "") + ", ".join(json.dumps(name) for name in names))
        out.write("]}\n")
        return 0
    for number, names in enumerate(slices):
        out.write((" " if number else "") + " ".join(names))
    if width <= GRID_LIMIT and height <= GRID_LIMIT:
        out.write("\n\n" + _move_grid(tour, width, height))
    out.write("\n")
    return 0


TOUR_SLICE = 1 << 16
"""Squares of a tour named and written at a time."""


def _move_grid(tour: list[int], width: int, height: int) -> str:
    """The board with each square's move number (1 for the start), rank 1 at the bottom."""
    from board.rules.squares import file_name

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
