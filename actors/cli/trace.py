"""``chess-actors trace``: convert a message trace (JSON lines) to Mermaid, Perfetto or JSON lines.

Reads the file that ``replay --trace PATH`` wrote (or stdin for ``-``) and prints to stdout.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from contextlib import ExitStack
from itertools import islice
from typing import TYPE_CHECKING, Any, BinaryIO

from actors.cli.output import add_json_flag

if TYPE_CHECKING:
    from actors.tracing import TraceEvent

FORMATS = ("mermaid", "perfetto", "jsonl")


def register(subparsers: Any) -> None:
    """Add the ``trace`` subcommand."""
    trace = subparsers.add_parser(
        "trace",
        help="convert a message trace to a Mermaid diagram, a Perfetto trace or JSON lines",
        description=(
            "Convert a trace written by 'replay --trace' to stdout: a Mermaid sequenceDiagram, "
            "a Chrome/Perfetto JSON trace (open it in ui.perfetto.dev) or JSON lines."
        ),
    )
    trace.add_argument("path", metavar="PATH", help="a trace file of JSON lines; '-' reads stdin")
    trace.add_argument("--to", required=True, choices=FORMATS, help="the output format")
    trace.add_argument(
        "--plies", metavar="A-B", help="keep only the messages of plies A to B (1-based, inclusive)"
    )
    add_json_flag(trace)
    trace.set_defaults(handler=run_trace)


SPOOL_BYTES = 8_000_000
DRAWN_EVENTS = 500_000
"""The most messages a Mermaid diagram or a Perfetto trace is drawn from (a whole long replay is
read as a stream; a drawing needs its messages in memory, so a larger one asks for --plies)."""


def run_trace(args: argparse.Namespace) -> int:
    """Print the trace at ``args.path`` in the format ``args.to``; return the exit status.

    The trace is read as a stream, one line at a time (none longer than the reader's limit):
    ``--to jsonl`` spools each event as it is read, and only the messages a drawing needs are kept
    (at most :data:`DRAWN_EVENTS`).
    """
    from actors.trace_export import (
        TraceFormatError,
        bounded_lines,
        iter_jsonl,
        parse_ply_range,
        to_jsonl,
        to_mermaid,
        to_perfetto,
    )

    # Parse the range first: a typo there should not wait for a large file to be read.
    plies = parse_ply_range(args.plies) if args.plies is not None else None
    with ExitStack() as stack:
        if args.path == "-":
            file: BinaryIO = sys.stdin.buffer
            source = "<stdin>"
        else:
            file = stack.enter_context(open(args.path, "rb"))
            source = args.path
        events = iter_jsonl(bounded_lines(file, source), source=source)
        held = _PlySpan()
        chosen = (event for event in events if held.keep(event, plies))
        out = sys.stdout
        if args.to == "jsonl":
            # Spooled (to disk past a few megabytes) and copied out at the end, so that a bad line
            # late in the trace leaves nothing half-written on stdout.
            spool = stack.enter_context(
                tempfile.SpooledTemporaryFile(SPOOL_BYTES, "w+", encoding="utf-8"))
            kept = 0
            for kept, line in enumerate(to_jsonl(chosen), 1):  # noqa: B007 (the count is used below)
                spool.write(line)
        else:
            kept_events = list(islice(chosen, DRAWN_EVENTS))
            if next(chosen, None) is not None:
                raise TraceFormatError(
                    f"{source}: more than {DRAWN_EVENTS:,} messages to draw as {args.to}; "
                    f"choose some plies with --plies A-B")
            kept = len(kept_events)
        _check_found(held, kept, args.path, args.plies)
        if args.to == "jsonl":
            spool.seek(0)
            shutil.copyfileobj(spool, out)
    if args.to == "perfetto":
        out.write(json.dumps(to_perfetto(kept_events), separators=(",", ":")) + "\n")
    elif args.to == "mermaid":
        diagram = to_mermaid(kept_events)
        if args.json:
            record: dict[str, Any] = {"format": "mermaid", "plies": plies, "diagram": diagram}
            out.write(json.dumps(record) + "\n")
        else:
            out.write(diagram)
    return 0


def _check_found(held: _PlySpan, kept: int, path: str, plies: str | None) -> None:
    from actors.trace_export import TraceFormatError

    if not held.events:
        raise TraceFormatError(f"{path}: the trace holds no events")
    if not kept:
        span = f"plies {held.first}-{held.last}" if held.first is not None else "no plies"
        raise TraceFormatError(f"--plies {plies}: no messages there (the trace has {span})")


class _PlySpan:
    """Counts the events read and the plies they span, and keeps those of the chosen plies."""

    def __init__(self) -> None:
        self.events = 0
        self.first: int | None = None
        self.last: int | None = None

    def keep(self, event: TraceEvent, plies: tuple[int, int] | None) -> bool:
        """Note ``event``; whether it falls in ``plies`` (all do when none are chosen)."""
        self.events += 1
        ply = event["ply"]
        if ply is not None:
            self.first = ply if self.first is None else min(self.first, ply)
            self.last = ply if self.last is None else max(self.last, ply)
        return plies is None or (ply is not None and plies[0] <= ply <= plies[1])
