"""``chess-actors check-move``: the ChessMoveQ question for one case, or a batch of JSON lines.

Prints true or false; valid or not is an answer, so the exit status is 0 either way. The actors
answer (one actor system for the whole batch) unless ``--engine direct`` asks for plain function calls.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.output import add_json_flag, emit
from board.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from actors.game.session import Case, CheckMoveSession
    from board.puzzles.chessmoveq import Answer, Placement

_EPILOG = """\
Coordinates are x = file, y = rank, 1..8 (0..7 with --zero-based). The move names the destination;
it is valid if any piece of that colour and kind can legally go there (no castling, no en passant;
a move may not leave or put the mover's own king in check; a side without a king has none to keep safe).
--batch reads one JSON object {"position": [...], "move": [...]} a line and prints one answer a line,
in order. Every line is a case: an empty line is an error, as is any malformed line (exit 2, after the
answers to the lines before it). --json prints {"valid": ..., "reasons": [...]} instead of true/false.
--engine actors (the default) asks the piece, board and referee actors (one actor system for a whole
batch); --engine direct gives the same answers by plain function calls, many times faster.
"""


def register(subparsers: Any) -> None:
    """Add the ``check-move`` subcommand."""
    parser = add_command(
        subparsers, "check-move",
        summary="ChessMoveQ: can a piece of this colour and kind legally move to this square?",
        description="Answer the ChessMoveQ question: true if the move is valid, false if not.",
        notes=_EPILOG,
        examples=[
            """chess-actors check-move '[["W","K",5,1],["W","R",8,1],["B","K",5,8]]' '["W","R",8,8]'""",
            """chess-actors check-move '[["B","K",3,8],["B","R",4,8],["B","N",4,7]]' '["B","R",4,1]' """
            "--explain",
            "chess-actors check-move --batch cases.jsonl --engine direct",
        ],
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
    parser.add_argument(
        "--engine", choices=("actors", "direct"), default="actors",
        help="who answers: the actor system (default) or plain function calls (same answers, faster)",
    )
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
    from board.puzzles.chessmoveq import parse_json_move, parse_json_position

    pieces = parse_json_position(args.position, args.zero_based)
    move = parse_json_move(args.move, args.zero_based)
    with ExitStack() as stack:
        result = _answerer(args.engine, stack)(pieces, move)
    text = "true" if result.valid else "false"
    if args.explain:
        text = "\n".join([text, *result.reasons])
    emit(args, {"valid": result.valid, "reasons": list(result.reasons)}, text)
    return 0


def _answerer(engine: str, stack: ExitStack) -> Callable[[Sequence[Placement], Placement], Answer]:
    """How cases get answered: by the direct engine, or by one actor session that ``stack`` closes."""
    if engine == "direct":
        from board.puzzles.chessmoveq import answer

        return answer
    return _session(stack).answer


def _answer_all(
    engine: str, stack: ExitStack, interactive: bool
) -> Callable[[Iterable[Case]], Iterator[Answer]]:
    """How a batch gets answered: one by one (direct, or someone typing), or pipelined actors."""
    if engine == "direct" or interactive:
        answer = _answerer(engine, stack)
        return lambda cases: (answer(pieces, move) for pieces, move in cases)
    return _session(stack).answer_many


def _session(stack: ExitStack) -> CheckMoveSession:
    """One actor session for the command, its threads on one core (actors.kernel.affinity)."""
    from actors.game.session import CheckMoveSession
    from actors.kernel.affinity import one_core

    one_core()
    return stack.enter_context(CheckMoveSession())


CASE_LINE_BYTES = 100_000
"""The longest line of a batch: a case (at most 64 pieces) is under 2 KB, and a longer line is
refused before it can fill the memory."""


def _run_batch(args: argparse.Namespace) -> int:
    from actors.cli.inputs import UserInput
    from board.puzzles.chessmoveq import ChessMoveQError, parse_json_case

    with ExitStack() as stack:
        batch = UserInput(args.batch, "check-move batch")
        where = "stdin" if args.batch == "-" else args.batch

        def too_long(number: int) -> ChessMoveQError:
            return ChessMoveQError(
                f"{where} line {number}: longer than the limit of {CASE_LINE_BYTES:,} bytes for a case"
            )

        out = sys.stdout
        # Someone typing cases wants each answer at once; a pipe or file gets buffered output.
        interactive = batch.is_terminal()
        answer_all = _answer_all(args.engine, stack, interactive)
        malformed: list[InputError] = []

        def cases() -> Iterator[Case]:
            # Stops at the first malformed line; the cases before it are still answered.
            try:
                for number, raw in enumerate(batch.lines(CASE_LINE_BYTES, too_long), 1):
                    try:
                        # A byte-order mark may open a file written on Windows; it is not part of the case.
                        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                        yield parse_json_case(text, args.zero_based)
                    except UnicodeDecodeError as error:
                        problem = f"not UTF-8 text (byte {error.start + 1} of the line)"
                        malformed.append(ChessMoveQError(f"{where} line {number}: {problem}"))
                        return
                    except ChessMoveQError as error:
                        malformed.append(ChessMoveQError(f"{where} line {number}: {error}"))
                        return
            except InputError as error:  # the reading itself: a line too long, binary data, a bomb
                malformed.append(error)

        for result in answer_all(cases()):
            if args.json:
                out.write(json.dumps({"valid": result.valid, "reasons": list(result.reasons)}) + "\n")
            else:
                out.write("true\n" if result.valid else "false\n")
            if interactive:
                out.flush()
        if malformed:
            raise malformed[0]
    return 0
