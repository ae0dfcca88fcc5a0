"""``chess-actors trace``: convert a message trace (JSON lines) to Mermaid, Markdown, Perfetto, JSON
lines or the studio page.

Reads the file that ``replay --trace PATH`` wrote (or stdin for ``-``) and prints to stdout or ``-o``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from contextlib import ExitStack
from itertools import islice
from typing import IO, TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.output import add_json_flag

if TYPE_CHECKING:
    from actors.tracing.event import TraceEvent

FORMATS = ("mermaid", "markdown", "perfetto", "jsonl", "html")


def register(subparsers: Any) -> None:
    """Add the ``trace`` subcommand."""
    trace = add_command(
        subparsers,
        "trace",
        summary="convert a message trace to a Mermaid diagram, a Perfetto trace, JSON lines or a studio page",
        description="Convert a trace written by 'replay --trace' or 'run --trace': a Mermaid\n"
        "sequenceDiagram (markdown: fenced for GitHub), a Chrome/Perfetto JSON trace (open it\n"
        "in ui.perfetto.dev), JSON lines, or the studio (one self-contained HTML page).",
        examples=[
            "chess-actors replay --trace t.jsonl && chess-actors trace t.jsonl --to mermaid --plies 3-3",
            "chess-actors trace t.jsonl --to perfetto > opera.json",
            "chess-actors trace t.jsonl --to html -o study.html",
        ],
    )
    trace.add_argument("path", metavar="PATH", help="a trace file of JSON lines; '-' reads stdin")
    trace.add_argument("--to", required=True, choices=FORMATS, help="the output format")
    trace.add_argument(
        "--plies", metavar="A-B", help="keep only the messages of plies A to B (1-based, inclusive)"
    )
    trace.add_argument("--game", metavar="N", type=int, help="keep only the messages of game N (1-based)")
    trace.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of stdout")
    add_json_flag(trace)
    trace.set_defaults(handler=run_trace)


SPOOL_BYTES = 8_000_000
DRAWN_EVENTS = 15_000
"""The most messages a diagram, a Perfetto trace or a studio page is drawn from (the studio's
``PAGE_MESSAGES``): a trace of any length is read as a stream, but a drawing needs its messages in
memory (some 10 KB each while it is drawn), so a larger one asks for --plies or --game."""


def run_trace(args: argparse.Namespace) -> int:
    """Write the trace at ``args.path`` in the format ``args.to``; return the exit status.

    The trace is read as a stream, one line at a time (none longer than the reader's limit):
    ``--to jsonl`` spools each event as it is read, and only the messages a drawing or a page
    needs are kept (at most :data:`DRAWN_EVENTS`).
    """
    from actors.cli.inputs import UserInput
    from actors.cli.streams import check_writable, refuse_inputs_as_outputs
    from actors.tracing.export import (
        TRACE_LINE_BYTES,
        TraceFormatError,
        iter_jsonl,
        parse_ply_range,
        to_jsonl,
    )
    from actors.tracing.mermaid import to_markdown, to_mermaid
    from actors.tracing.perfetto import to_perfetto
    from board.errors import InputError

    if args.output is not None and args.output != "-":
        check_writable(args.output, "-o")
    refuse_inputs_as_outputs([("-o", args.output)], [args.path])
    plies = parse_ply_range(args.plies) if args.plies is not None else None
    if args.game is not None and args.game < 1:
        raise InputError(f"--game {args.game}: games count from 1")
    if args.json and args.to not in ("mermaid", "markdown"):
        raise InputError(f"--json: --to {args.to} is already one document, not result lines")
    with ExitStack() as stack:
        trace = UserInput(args.path, "trace")
        source = trace.name

        def too_long(number: int) -> TraceFormatError:
            limit = f"the limit of {TRACE_LINE_BYTES:,} bytes for a trace line"
            return TraceFormatError(f"{source}, line {number}: longer than {limit}")

        events = iter_jsonl(trace.lines(TRACE_LINE_BYTES, too_long), source=source)
        held = _Span(plies, args.game)
        chosen = (event for event in events if held.keep(event))
        if args.to == "jsonl":
            # Spooled (to disk past a few megabytes) and copied out at the end, so that a bad line
            # late in the trace leaves nothing half-written.
            spool = stack.enter_context(tempfile.SpooledTemporaryFile(SPOOL_BYTES, "w+", encoding="utf-8"))
            kept = 0
            for kept, line in enumerate(to_jsonl(chosen), 1):  # noqa: B007 (the count is used below)
                spool.write(line)
        else:
            kept_events = list(islice(chosen, DRAWN_EVENTS))
            if next(chosen, None) is not None:
                raise TraceFormatError(
                    f"{source}: more than {DRAWN_EVENTS:,} messages to draw as {args.to}; "
                    "choose some plies with --plies A-B or a game with --game N"
                )
            kept = len(kept_events)
        held.check(kept, args.path, args.plies)
        if args.to == "jsonl":
            spool.seek(0)
            _copy(args, spool)
            return 0
    if args.to == "html":
        from actors.studio import page_html

        title = f"chess-actors studio: {args.path if args.path != '-' else 'trace from stdin'}"
        _write(args, page_html(kept_events, title))
    elif args.to == "perfetto":
        _write(args, json.dumps(to_perfetto(kept_events), separators=(",", ":")) + "\n")
    else:
        diagram = to_markdown(kept_events) if args.to == "markdown" else to_mermaid(kept_events)
        if args.json:
            record: dict[str, Any] = {
                "format": args.to,
                "plies": plies,
                "game": args.game,
                "diagram": diagram,
            }
            _write(args, json.dumps(record) + "\n")
        else:  # text for people, which quotes the trace: its escapes are shown, never obeyed
            from actors.cli.terminal_text import terminal_safe

            _write(args, terminal_safe(diagram))
    return 0


def _copy(args: argparse.Namespace, spool: IO[str]) -> None:
    """Copy the spooled lines out a block at a time (a spool of any size, in constant memory)."""
    from actors.cli.streams import replaced_file

    if args.output is None or args.output == "-":
        shutil.copyfileobj(spool, sys.stdout, COPY_CHARACTERS)
        return
    with replaced_file(args.output, "-o") as written, open(written, "w", encoding="utf-8") as file:
        shutil.copyfileobj(spool, file, COPY_CHARACTERS)


COPY_CHARACTERS = 1 << 16


def _write(args: argparse.Namespace, text: str) -> None:
    from actors.cli.streams import replaced_file

    if args.output is None or args.output == "-":
        sys.stdout.write(text)
        return
    with replaced_file(args.output, "-o") as written, open(written, "w", encoding="utf-8") as file:
        file.write(text)


class _Span:
    """Counts the events read, the plies and games they span, and keeps those chosen."""

    def __init__(self, plies: tuple[int, int] | None, game: int | None) -> None:
        self.plies, self.game = plies, game
        self.events = 0
        self.first: int | None = None
        self.last: int | None = None
        self.games: set[int] = set()

    def keep(self, event: TraceEvent) -> bool:
        """Note ``event``; whether it falls in the chosen plies and game (all do when none are)."""
        self.events += 1
        ply, game = event["ply"], event.get("game")
        if game is not None:
            self.games.add(game)
        if self.game is not None and game != self.game and not (game is None and self.game == 1):
            return False
        if ply is not None:
            self.first = ply if self.first is None else min(self.first, ply)
            self.last = ply if self.last is None else max(self.last, ply)
        plies = self.plies
        return plies is None or (ply is not None and plies[0] <= ply <= plies[1])

    def check(self, kept: int, path: str, plies: str | None) -> None:
        """Refuse a trace with no events, or a choice that kept none."""
        from actors.tracing.export import TraceFormatError

        if not self.events:
            raise TraceFormatError(f"{path}: the trace holds no events")
        if kept:
            return
        if self.game is not None and (
            (self.games and self.game not in self.games) or (not self.games and self.game != 1)
        ):
            held = sorted(self.games) or [1]
            raise TraceFormatError(
                f"--game {self.game}: no such game (the trace has games {held[0]}-{held[-1]})"
            )
        span = f"plies {self.first}-{self.last}" if self.first is not None else "no plies"
        raise TraceFormatError(f"--plies {plies}: no messages there (the trace has {span})")
