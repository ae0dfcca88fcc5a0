"""Writing results: plain text for people, one JSON object a line with ``--json``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from actors.cli.terminal_text import terminal_safe


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Give a subcommand the ``--json`` flag every subcommand takes."""
    parser.add_argument("--json", action="store_true", help="print one JSON object per result line")


def add_trace_flags(parser: argparse.ArgumentParser, what: str, note: str = "") -> None:
    """Give a subcommand that runs actors ``--trace PATH`` and ``--html PATH`` (``what``: 'replay', 'run')."""
    parser.add_argument(
        "--trace", metavar="PATH", help=f"write every delivered message as a JSON line to PATH{note}"
    )
    parser.add_argument(
        "--html",
        metavar="PATH",
        help=f"write the studio page (one self-contained HTML file) of the {what} to PATH",
    )


def emit(args: argparse.Namespace, record: dict[str, Any], text: str) -> None:
    """Print ``record`` as a JSON line when ``--json`` was given, else ``text``.

    JSON carries every character exactly (escaped by JSON itself); plain text is made safe for a
    terminal, since it may quote input files.
    """
    if args.json:
        sys.stdout.write(json.dumps(record) + "\n")
    else:
        sys.stdout.write(terminal_safe(text) + "\n")


def fail(message: str) -> None:
    """Print a one-line reason on stderr (made safe for a terminal)."""
    sys.stderr.write(terminal_safe(message).replace("\n", "\\n") + "\n")


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """``counted(1, "ply", "plies")`` is ``"1 ply"``; any other number takes the plural (default: + s)."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"
