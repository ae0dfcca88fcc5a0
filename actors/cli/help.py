"""How a subcommand introduces itself in ``--help``: a one-line summary, a description, examples.

Every subcommand is added through :func:`add_command`, so none can lack a description or an example.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

EXAMPLES_HEADING = "examples:"
"""The heading of the examples section at the end of every subcommand's ``--help``."""


def add_command(
    subparsers: Any,
    name: str,
    *,
    summary: str,
    description: str,
    examples: Sequence[str],
    notes: str = "",
) -> argparse.ArgumentParser:
    """Add subcommand ``name`` and return its parser.

    Args:
        subparsers: the action returned by ``add_subparsers`` (of the program or of a command).
        name: the subcommand as typed.
        summary: one line for the list of commands in the parent's ``--help``.
        description: what the command does, shown at the top of its ``--help`` (kept as written).
        examples: whole command lines, each optionally followed by ``  # what it shows``.
        notes: more text printed before the examples (kept as written).

    Raises:
        ValueError: ``examples`` is empty (every command shows at least one).
    """
    if not examples:
        raise ValueError(f"the {name} command needs at least one example")
    epilog = "\n".join(f"  {example}" for example in examples)
    epilog = f"{notes.rstrip()}\n\n{EXAMPLES_HEADING}\n{epilog}" if notes else f"{EXAMPLES_HEADING}\n{epilog}"
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser
