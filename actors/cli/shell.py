"""``chess-actors shell``: an interactive shell over a live game, in the spirit of the Erlang shell.

On a terminal it prompts, with history and completion (readline); otherwise it reads one command a line
from stdin and prints what a person would see, the command echoed after the prompt.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.terminal_text import terminal_safe, terminal_safe_line

if TYPE_CHECKING:
    from actors.scenario.shell import Output, Shell

PROMPT = "chess> "


def register(subparsers: Any) -> None:
    """Add the ``shell`` subcommand."""
    parser = add_command(
        subparsers, "shell",
        summary="an interactive shell over a live game: play, message actors, deliver messages by hand",
        description="A shell over a live game of actors. Its commands are the scenario steps (play e4,\n"
                    "send white-knight-g1 move g1 f3, crash board, stall white-knight-g1, ...) and a\n"
                    "few of its own: board, pending, step, deliver N, run, mode step|auto, order, trace,\n"
                    "save, actors, help.\n"
                    "Reads stdin one command a line when it is not a terminal.",
        examples=[
            "chess-actors shell",
            "printf 'play e4\\nplay e5\\nboard\\nquit\\n' | chess-actors shell",
            "chess-actors shell --fen '4k3/8/8/8/8/8/8/4K2R w K - 0 1'",
        ],
    )
    parser.add_argument("--fen", default="startpos", help="the starting position (default startpos)")
    parser.set_defaults(handler=run_shell)


def run_shell(args: argparse.Namespace) -> int:
    """Run the shell until quit or the end of input; 1 if a command failed when reading stdin."""
    from actors.scenario.shell import Shell

    interactive = sys.stdin.isatty()
    failures: list[str] = []
    with Shell(args.fen) as shell:
        if interactive:
            _readline(shell)
            print("chess-actors shell: type help for the commands, quit to leave")
        while True:
            line = _read(interactive)
            if line is None:
                break
            if not interactive:
                print(PROMPT + terminal_safe_line(line))  # the transcript may reach a terminal later
            if line.strip() in ("quit", "exit"):
                break
            problem = _show(shell, line, interactive)
            if problem is not None:
                failures.append(problem)
    if failures and not interactive:
        # The transcript shows each error where it happened; stderr gets the one-line verdict.
        first = _printable(failures[0])
        sys.stderr.write(f"chess-actors shell: {len(failures)} of the commands failed; the first: {first}\n")
        return 1
    return 0


def _printable(text: str) -> str:
    """``text`` with control characters escaped, so that it stays one line."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def _read(interactive: bool) -> str | None:
    if interactive:
        try:
            return input(PROMPT)
        except EOFError:
            print()
            return None
    line = sys.stdin.readline(SHELL_LINE + 1)  # bounded: a pipe of endless text is not one command
    if len(line) > SHELL_LINE:
        from board.errors import InputError

        raise InputError(f"<stdin>: a line longer than {SHELL_LINE:,} characters (the limit for a command)")
    return None if not line else line.rstrip("\n")


SHELL_LINE = 10_000
"""The longest command read from a pipe (as the longest scenario line)."""


def _show(shell: Shell, line: str, interactive: bool) -> str | None:
    """Run a line and print what it shows; what went wrong, or None.

    An error is one line: on stderr at a terminal, in the transcript (stdout) otherwise.
    """
    from actors.cli.display import BoardView, console, step_line
    from actors.scenario.script import StepResult
    from actors.scenario.shell import Shown
    from board.errors import InputError

    try:
        shown: list[Output] = shell.execute(line)
    except InputError as error:
        sys.stdout.flush()
        console(stderr=interactive).print(f"error: {terminal_safe(str(error))}")
        return f"{line.strip()}: {error}"
    out = console()
    problem = None
    for item in shown:
        if isinstance(item, StepResult):
            out.print(step_line(item))
            if not item.ok and problem is None:
                problem = f"{item.step}: expected {item.expected}; got {item.got}"
        elif isinstance(item, Shown):
            out.print(BoardView(item.fen, item.last_move, item.check))
            out.print(f"FEN {item.fen}")
        else:
            out.print(terminal_safe(item) if isinstance(item, str) else item)
    return problem


def _readline(shell: Shell) -> None:
    """History and tab completion of commands, actor names and squares (when readline is there)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without readline still runs the shell
        return
    from actors.scenario.shell import completions

    def complete(word: str, state: int) -> str | None:
        options = completions(shell, readline.get_line_buffer()[: readline.get_endidx()], word)
        return options[state] if state < len(options) else None

    readline.set_completer_delims(" \t")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
