"""``chess-actors trace``: convert a message trace (JSON lines) to Mermaid, Markdown, Perfetto, JSON
lines or the studio page.

Reads the file that ``replay --trace PATH`` wrote (or stdin for ``-``) and prints to stdout or ``-o``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from actors.cli.help import add_command
from actors.cli.output import add_json_flag

FORMATS = ("mermaid", "markdown", "perfetto", "jsonl", "html")


def register(subparsers: Any) -> None:
    """Add the ``trace`` subcommand."""
    trace = add_command(
        subparsers, "trace",
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


def run_trace(args: argparse.Namespace) -> int:
    """Write the trace at ``args.path`` in the format ``args.to``; return the exit status."""
    from actors.tracing.export import (
        TraceFormatError,
        games_of,
        parse_ply_range,
        read_jsonl,
        select_game,
        select_plies,
        to_jsonl,
        to_markdown,
        to_mermaid,
        to_perfetto,
    )
    from board.errors import InputError

    # Check the options first: a typo there should not wait for a large file to be read.
    plies = parse_ply_range(args.plies) if args.plies is not None else None
    if args.game is not None and args.game < 1:
        raise InputError(f"--game {args.game}: games count from 1")
    if args.json and args.to not in ("mermaid", "markdown"):
        raise InputError(f"--json: --to {args.to} is already one document, not result lines")
    if args.path == "-":
        events = read_jsonl(sys.stdin.buffer, source="<stdin>")
    else:
        with open(args.path, "rb") as file:
            events = read_jsonl(file, source=args.path)
    if not events:
        raise TraceFormatError(f"{args.path}: the trace holds no events")
    if args.game is not None:
        chosen = select_game(events, args.game)
        if not chosen:
            held = games_of(events) or [1]
            raise TraceFormatError(
                f"--game {args.game}: no such game (the trace has games {held[0]}-{held[-1]})"
            )
        events = chosen
    if plies is not None:
        chosen = select_plies(events, *plies)
        if not chosen:
            held = sorted({event["ply"] for event in events if event["ply"] is not None})
            span = f"plies {held[0]}-{held[-1]}" if held else "no plies"
            raise TraceFormatError(f"--plies {args.plies}: no messages there (the trace has {span})")
        events = chosen

    if args.to == "html":
        from actors.studio import page_html

        title = f"chess-actors studio: {args.path if args.path != '-' else 'trace from stdin'}"
        _write(args, page_html(events, title))
    elif args.to == "jsonl":
        _write(args, "".join(to_jsonl(events)))
    elif args.to == "perfetto":
        _write(args, json.dumps(to_perfetto(events), separators=(",", ":")) + "\n")
    else:
        diagram = to_markdown(events) if args.to == "markdown" else to_mermaid(events)
        if args.json:
            record: dict[str, Any] = {
                "format": args.to, "plies": plies, "game": args.game, "diagram": diagram,
            }
            _write(args, json.dumps(record) + "\n")
        else:
            _write(args, diagram)
    return 0


def _write(args: argparse.Namespace, text: str) -> None:
    from board.errors import InputError

    if args.output is None or args.output == "-":
        sys.stdout.write(text)
        return
    try:
        with open(args.output, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise InputError(f"-o {args.output}: cannot write: {error.strerror}") from None
