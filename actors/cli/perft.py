"""``chess-actors perft``: count the leaf nodes of the legal move tree from a position.

The last line printed is the node count; ``--divide`` first prints each root move with its count.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.output import add_json_flag, emit

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from board.rules.moves import Move


def register(subparsers: Any) -> None:
    """Add the ``perft`` subcommand."""
    perft = add_command(
        subparsers, "perft",
        summary="count the positions reached in exactly DEPTH plies",
        description="Count the leaf nodes of the legal move tree from a position (perft, the standard\n"
                    "check of a move generator). The last line printed is the count.",
        examples=[
            "chess-actors perft startpos 4                       # 197281",
            "chess-actors perft 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -' 2 "
            "--divide",
            "chess-actors perft startpos 3 --teach b1=NC --teach g8=nN   # taught pieces, in Betza",
        ],
    )
    perft.add_argument("fen", metavar="FEN", help="a FEN string in quotes, or 'startpos'")
    perft.add_argument("depth", metavar="DEPTH", help="how many plies to look ahead (0 or more)")
    perft.add_argument(
        "--divide", action="store_true", help="first print each root move with the count below it"
    )
    perft.add_argument(
        "--teach", action="append", default=[], metavar="SQUARE=PIECE",
        help="the piece on SQUARE moves as PIECE: Betza notation (b1=NC, g8=nN, c1=mBcF) or a name "
             "(c1=archbishop); the lesson moves with the piece (repeatable)",
    )
    add_json_flag(perft)
    perft.set_defaults(handler=run_perft)


def parse_depth(text: str) -> int:
    """Read DEPTH as a whole number of plies, 0 or more.

    Raises:
        InputError: the text is not a non-negative whole number.
    """
    from board.errors import InputError

    stripped = text.strip()
    if not stripped.isdecimal() or not stripped.isascii():
        raise InputError(f"DEPTH {text!r} is not a whole number of plies (0 or more)")
    from board.numbers import whole_number

    depth = whole_number(stripped, "DEPTH")
    if depth > MAX_DEPTH:
        raise InputError(f"DEPTH {depth}: at most {MAX_DEPTH} plies (the count grows some 30 times a ply; "
                         "from the start, depth 7 is already 3.2 billion positions)")
    return depth


MAX_DEPTH = 15
"""The deepest perft asked for: no published count from the starting position goes further."""
PROGRESS_AFTER = 1.0
"""Seconds of counting before a progress bar appears (on a terminal only)."""


def run_perft(args: argparse.Namespace) -> int:
    """Print the perft node count (and with ``--divide`` the count under each root move)."""
    from functools import partial

    from actors.cli.replay_options import lessons
    from actors.cli.streams import answer_signals
    from board.notation.fen import parse_fen, write_fen
    from board.rules import taught as taught_rules
    from board.rules.perft import divided, perft, root_moves

    depth = parse_depth(args.depth)
    position = parse_fen(args.fen, chess960=None)  # X-FEN and Shredder-FEN too
    # The position counted, written out in full: 'startpos' and optional fields become explicit.
    record: dict[str, Any] = {"fen": write_fen(position), "depth": depth}
    taught = lessons(args.teach)
    count_all: Callable[[], int] = partial(perft, position, depth, answer_signals)
    split: Callable[[], Iterable[tuple[Move, int]]] = partial(divided, position, depth, answer_signals)
    first_moves: Callable[[], int] = partial(root_moves, position)
    if taught:  # taught pieces: counted by board.rules.taught, each lesson moving with its piece
        board = taught_rules.TaughtBoard(position, taught_rules.read_lessons(position, taught))
        record["teach"] = taught
        count_all = partial(taught_rules.perft, board, depth, answer_signals)
        split = partial(taught_rules.divided, board, depth, answer_signals)
        first_moves = partial(len, board.legal_moves())
    counts: list[tuple[str, int]] = []
    if depth > 1 or (args.divide and depth > 0):  # counted first move by first move, to show progress
        counted = _counted_with_progress(split, first_moves(), depth)
        counts = sorted((move.uci(), count) for move, count in counted)
        nodes = sum(count for _, count in counts)
    else:
        nodes = count_all()
    record["nodes"] = nodes
    if args.divide:
        record["divide"] = dict(counts)
    lines = [f"{uci}: {count}" for uci, count in counts] if args.divide else []
    lines.append(str(nodes))
    emit(args, record, "\n".join(lines))
    return 0


def _counted_with_progress(
    split: Callable[[], Iterable[tuple[Move, int]]], total: int, depth: int
) -> Iterator[tuple[Move, int]]:
    """The count under each first move (``split``: of ``total``); on a terminal, once counting has
    taken more than :data:`PROGRESS_AFTER` seconds, a progress bar on stderr of the first moves done."""
    import sys
    import time

    if not sys.stderr.isatty():
        yield from split()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from actors.cli.display import console

    started = time.monotonic()
    progress: Progress | None = None
    try:
        for done, counted in enumerate(split(), 1):
            yield counted
            if progress is None and time.monotonic() - started > PROGRESS_AFTER:
                progress = Progress(TextColumn(f"perft {depth}: first moves"), BarColumn(),
                                    MofNCompleteColumn(), TimeElapsedColumn(),
                                    console=console(stderr=True), transient=True)
                progress.start()
                task = progress.add_task("", total=total)
            if progress is not None:
                progress.update(task, completed=done)
    finally:
        if progress is not None:
            progress.stop()
