"""The ``chess-actors`` command line: the only part of the project that prints.

Each subcommand lives in its own module with ``register(subparsers)``; heavy imports happen inside
the handlers so that small commands start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from actors.cli.streams import EXIT_FAILED, EXIT_OK, EXIT_USAGE, run_guarded
from actors.cli.terminal_text import terminal_safe_line

# The order of ``chess-actors --help``: the main job first, then studying the actors, then the puzzles.
COMMAND_MODULES = (
    "actors.cli.replay",
    "actors.cli.run",
    "actors.cli.trace",
    "actors.cli.explore",
    "actors.cli.shell",
    "actors.cli.studio",
    "actors.cli.lab",
    "actors.cli.check_move",
    "actors.cli.perft",
    "actors.cli.puzzles",
)

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "OneLineParser", "build_parser", "main"]


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit 2.

    A word that no option of the command takes is reported by the command's own parser, so the
    message names the command's help (``chess-actors replay --help``), not the top level's.
    """

    def error(self, message: str) -> NoReturn:
        # The message quotes what was typed, which may hold escapes: shown, never obeyed.
        self.exit(EXIT_USAGE, terminal_safe_line(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self._subparsers is None:  # the innermost command: no subcommand takes them
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


class VersionAction(argparse.Action):
    """``--version``: print the version and the rules core's build, and exit (looked up only when
    asked, and from the package itself: loading the installed metadata costs a quarter of the start-up)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit", **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from board import BUILD_NOTE, __version__

        sys.stdout.write(f"{parser.prog} {__version__} (rules core: {BUILD_NOTE})\n")
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
    """Run the command line; return the process exit status.

    Every subcommand runs through :func:`actors.cli.streams.run_guarded`: whatever goes wrong ends
    in one line on standard error and a documented status, never a traceback.
    """
    command = ["chess-actors"]

    def body() -> int:
        args = build_parser().parse_args(argv)
        command.append(args.command)
        status: int = args.handler(args)
        return status

    try:
        return run_guarded(command, body)
    except SystemExit as done:  # argparse: --help, --version or a usage error, already written
        return done.code if isinstance(done.code, int) else EXIT_OK if done.code is None else EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
