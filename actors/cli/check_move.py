"""``chess-actors check-move``: the ChessMoveQ question for one case, or a batch of JSON lines.

Prints true or false; valid or not is an answer, so the exit status is 0 either way.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from typing import IO, Any

from actors.cli.output import add_json_flag, emit
from board.errors import InputError

_EPILOG = """\
Coordinates are x = file, y = rank, 1..8 (0..7 with --zero-based). The move names the destination;
it is valid if any piece of that colour and kind can legally go there (no castling, no en passant;
a move may not leave or put the mover's own king in check; a side without a king has none to keep safe).
--batch reads one JSON object {"position": [...], "move": [...]} a line and prints one answer a line,
in order. Every line is a case: an empty line is an error, as is any malformed line (exit 2, after the
answers to the lines before it). --json prints {"valid": ..., "reasons": [...]} instead of true/false.
"""


def register(subparsers: Any) -> None:
    """Add the ``check-move`` subcommand."""
    parser = subparsers.add_parser(
        "check-move",
        help="ChessMoveQ: can a piece of this colour and kind legally move to this square?",
        description="Answer the ChessMoveQ question: true if the move is valid, false if not.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "position", nargs="?", metavar="POSITION",
        help='JSON list of pieces [colour, kind, x, y], e.g. \'[["W","K",5,1],["W","R",8,1]]\'',
    )
    parser.add_argument(
        "move", nargs="?", metavar="MOVE",
        help='JSON [colour, kind, x, y] of the destination, e.g. \'["W","R",8,2]\'',
    )
    parser.add_argument("--batch", metavar="FILE", help="answer every JSON line of FILE ('-' reads stdin)")
    parser.add_argument(
        "--explain", action="store_true", help="after the answer, one line per candidate piece"
    )
    parser.add_argument("--zero-based", action="store_true", help="coordinates run 0..7 instead of 1..8")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Answer one case (POSITION MOVE) or every line of ``--batch``."""
    if args.batch is not None:
        if args.position is not None:
            raise InputError("--batch reads its cases from FILE; give no POSITION or MOVE as well")
        if args.explain and not args.json:
            raise InputError("--explain with --batch needs --json (so that each answer stays one line)")
        return _run_batch(args)
    if args.position is None or args.move is None:
        raise InputError("needs POSITION and MOVE (JSON lists), or --batch FILE")
    from board.chessmoveq import answer, parse_json_move, parse_json_position

    result = answer(
        parse_json_position(args.position, args.zero_based), parse_json_move(args.move, args.zero_based)
    )
    text = "true" if result.valid else "false"
    if args.explain:
        text = "\n".join([text, *result.reasons])
    emit(args, {"valid": result.valid, "reasons": list(result.reasons)}, text)
    return 0


def _run_batch(args: argparse.Namespace) -> int:
    from board.chessmoveq import ChessMoveQError, answer, parse_json_case

    with ExitStack() as stack:
        if args.batch == "-":
            source: IO[bytes] = sys.stdin.buffer
            where = "stdin"
        else:
            source = stack.enter_context(open(args.batch, "rb"))
            where = args.batch
        out = sys.stdout
        # Someone typing cases wants each answer at once; a pipe or file gets buffered output.
        interactive = source.isatty()
        for number, raw in enumerate(source, 1):
            try:
                # A byte-order mark may open a file written on Windows; it is not part of the case.
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                pieces, move = parse_json_case(text, args.zero_based)
            except UnicodeDecodeError as error:
                problem = f"not UTF-8 text (byte {error.start + 1} of the line)"
                raise ChessMoveQError(f"{where} line {number}: {problem}") from None
            except ChessMoveQError as error:
                raise ChessMoveQError(f"{where} line {number}: {error}") from None
            result = answer(pieces, move)
            if args.json:
                out.write(json.dumps({"valid": result.valid, "reasons": list(result.reasons)}) + "\n")
            else:
                out.write("true\n" if result.valid else "false\n")
            if interactive:
                out.flush()
    return 0
