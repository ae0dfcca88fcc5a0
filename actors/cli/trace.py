"""``chess-actors trace``: convert a message trace (JSON lines) to Mermaid, Perfetto or JSON lines.

Reads the file that ``replay --trace PATH`` wrote (or stdin for ``-``) and prints to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from actors.cli.help import add_command
from actors.cli.output import add_json_flag

FORMATS = ("mermaid", "perfetto", "jsonl")


def register(subparsers: Any) -> None:
    """Add the ``trace`` subcommand."""
    trace = add_command(
        subparsers, "trace",
        summary="convert a message trace to a Mermaid diagram, a Perfetto trace or JSON lines",
        description="Convert a trace written by 'replay --trace' or 'run --trace' to stdout: a Mermaid\n"
                    "sequenceDiagram, a Chrome/Perfetto JSON trace (open it in ui.perfetto.dev) or\n"
                    "JSON lines.",
        examples=[
            "chess-actors replay --trace t.jsonl && chess-actors trace t.jsonl --to mermaid --plies 3-3",
            "chess-actors trace t.jsonl --to perfetto > opera.json",
        ],
    )
    trace.add_argument("path", metavar="PATH", help="a trace file of JSON lines; '-' reads stdin")
    trace.add_argument("--to", required=True, choices=FORMATS, help="the output format")
    trace.add_argument(
        "--plies", metavar="A-B", help="keep only the messages of plies A to B (1-based, inclusive)"
    )
    add_json_flag(trace)
    trace.set_defaults(handler=run_trace)


def run_trace(args: argparse.Namespace) -> int:
    """Print the trace at ``args.path`` in the format ``args.to``; return the exit status."""
    from actors.tracing.export import (
        TraceFormatError,
        parse_ply_range,
        read_jsonl,
        select_plies,
        to_jsonl,
        to_mermaid,
        to_perfetto,
    )

    # Parse the range first: a typo there should not wait for a large file to be read.
    plies = parse_ply_range(args.plies) if args.plies is not None else None
    if args.path == "-":
        events = read_jsonl(sys.stdin.buffer, source="<stdin>")
    else:
        with open(args.path, "rb") as file:
            events = read_jsonl(file, source=args.path)
    if not events:
        raise TraceFormatError(f"{args.path}: the trace holds no events")
    if plies is not None:
        chosen = select_plies(events, *plies)
        if not chosen:
            held = sorted({event["ply"] for event in events if event["ply"] is not None})
            span = f"plies {held[0]}-{held[-1]}" if held else "no plies"
            raise TraceFormatError(
                f"--plies {args.plies}: no messages there (the trace has {span})"
            )
        events = chosen

    out = sys.stdout
    if args.to == "jsonl":
        out.writelines(to_jsonl(events))
    elif args.to == "perfetto":
        out.write(json.dumps(to_perfetto(events), separators=(",", ":")) + "\n")
    else:
        diagram = to_mermaid(events)
        if args.json:
            record: dict[str, Any] = {"format": "mermaid", "plies": plies, "diagram": diagram}
            out.write(json.dumps(record) + "\n")
        else:
            out.write(diagram)
    return 0
