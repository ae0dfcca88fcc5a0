"""The ``chess-actors`` command line: the only part of the project that prints.

Each subcommand lives in its own module with ``register(subparsers)``; heavy imports happen inside
the handlers so that small commands start fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from board.errors import ChessActorsError, InputError

# The order of ``chess-actors --help``: the main job first, then studying the actors, then the puzzles.
COMMAND_MODULES = (
    "actors.cli.replay",
    "actors.cli.run",
    "actors.cli.trace",
    "actors.cli.explore",
    "actors.cli.shell",
    "actors.cli.check_move",
    "actors.cli.perft",
    "actors.cli.puzzles",
)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


class VersionAction(argparse.Action):
    """``--version``: print the installed version and exit (looked up only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit", **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            installed = version("chess-actors")
        except PackageNotFoundError:  # run from a source tree that was never installed
            installed = "unknown (not installed)"
        sys.stdout.write(f"{parser.prog} {installed}\n")
        parser.exit(EXIT_OK)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for every subcommand."""
    parser = OneLineParser(
        prog="chess-actors",
        description="Chess as a message-passing system: replay, study and question chess moves.",
        epilog="Each command has its own --help, with examples: chess-actors replay --help",
    )
    parser.add_argument("--version", action=VersionAction)
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser
    )
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except InputError as error:
        print(f"chess-actors {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, and keep Python from complaining
        # about the unflushed stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        print(f"chess-actors {args.command}: cannot read{where}: {error.strerror}", file=sys.stderr)
        return EXIT_USAGE
    except ChessActorsError as error:
        print(f"chess-actors {args.command}: {error}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print(f"chess-actors {args.command}: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
