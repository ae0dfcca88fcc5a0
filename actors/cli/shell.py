"""``chess-actors shell``: an interactive shell over a live game, in the spirit of the Erlang shell.

On a terminal it prompts, with history and completion (readline); otherwise it reads one command a line
from stdin and prints what a person would see, the command echoed after the prompt. With ``--json`` it
prints one JSON object a thing shown instead, each naming the command it answers.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.network import add_max_restarts_flag, add_network_flag, network_line, network_model
from actors.cli.nodes import add_nodes_flags, open_nodes, own_nodes_option
from actors.cli.output import add_json_flag
from actors.cli.streams import forget_interrupt
from actors.cli.terminal_text import terminal_safe, terminal_safe_line

if TYPE_CHECKING:
    from actors.study.shell import Shell
    from actors.study.shell_output import Output

PROMPT = "chess> "


def register(subparsers: Any) -> None:
    """Add the ``shell`` subcommand."""
    parser = add_command(
        subparsers, "shell",
        summary="an interactive shell over a live game: play, message actors, deliver messages by hand",
        description="A shell over a live game of actors. Type a move (Nc6, e2e4) to play it, legal e2 for\n"
                    "where a piece may go, board to see the game. The scenario steps are commands too (send\n"
                    "white-knight-g1 move g1 f3, crash board, stall white-knight-g1, ...), and a few of its\n"
                    "own: pending, step, deliver N, run, mode step|auto, order, trace, save, actors, help.\n"
                    "Reads stdin one command a line when it is not a terminal.",
        examples=[
            "chess-actors shell",
            "printf 'e4\\ne5\\nKe2\\nlegal g8\\nboard\\n' | chess-actors shell",
            "printf 'e4\\nKe2\\n' | chess-actors shell --json",
            "chess-actors shell --fen '4k3/8/8/8/8/8/8/4K2R w K - 0 1'",
            "printf 'O-O\\nboard\\n' | chess-actors shell --chess960 3",
            "chess-actors shell --network loss=0.05,dup=0.05,seed=1",
            "chess-actors shell --nodes 3 --placement colour   # the actors on 3 processes (Ray)",
        ],
    )
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--fen", default="startpos",
                       help="the starting position (default startpos); a castling field in X-FEN or "
                            "Shredder-FEN that standard chess refuses makes the game Chess960")
    start.add_argument("--chess960", metavar="N|FEN",
                       help="a Chess960 game from start position N (0-959), or from a FEN whose K and Q "
                            "are X-FEN's (the outermost rook on that side)")
    add_network_flag(parser)
    add_max_restarts_flag(parser)
    add_nodes_flags(parser, ray_flags=True)
    add_json_flag(parser)
    parser.set_defaults(handler=run_shell)


def run_shell(args: argparse.Namespace) -> int:
    """Run the shell until quit or the end of input; 1 if a command failed when reading stdin."""
    from actors.study.shell import Shell

    interactive = sys.stdin.isatty()
    failures: list[str] = []
    fen, chess960 = args.fen, None  # None: a castling field standard chess refuses is X-FEN's
    if args.chess960 is not None:
        fen, chess960 = chess960_start(args.chess960), True
    model = network_model(args)
    on_nodes = own_nodes_option(args)
    with ExitStack() as stack:
        nodes = None if on_nodes is None else open_nodes(stack, on_nodes, fen, to_stderr=args.json)
        shell = stack.enter_context(Shell(fen, chess960=chess960, network=model, nodes=nodes,
                                          max_restarts=args.max_restarts))
        if interactive:
            _readline(shell)
            if not args.json:
                print("chess-actors shell: type a move (e4, Nf3), help for the commands, quit to leave")
        reader = _Reader(interactive)
        while True:
            line = reader.read()
            if line is None:
                break
            if not interactive and not args.json:
                print(PROMPT + terminal_safe_line(line))  # the transcript may reach a terminal later
            if line.strip() in ("quit", "exit"):
                break
            problem = _show(shell, line, interactive, args.json)
            if problem is not None:
                failures.append(problem)
    # After the game has ended: on nodes, each node's counts are added to the driver's then.
    links = shell.game.links or shell.game.network
    if model is not None and links is not None and not args.json:
        print(network_line(model, links.counts))
    if failures and not interactive:
        # The transcript shows each error where it happened; stderr gets the one-line verdict.
        first = _printable(failures[0])
        sys.stderr.write(f"chess-actors shell: {len(failures)} of the commands failed; the first: {first}\n")
        return 1
    return 0


def chess960_start(text: str) -> str:
    """The FEN ``--chess960`` names: a start position's number (0-959), or a FEN as it is.

    Raises:
        FenError: the number is not in 0..959.
    """
    if not (text.isascii() and text.isdigit()):
        return text
    from board.numbers import whole_number
    from board.rules.chess960 import start_fen

    return start_fen(whole_number(text, "--chess960"))


def _printable(text: str) -> str:
    """``text`` with control characters escaped, so that it stays one line."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


LEAVE_QUESTION = "leave the shell? the game ends with it [y/N] "


class _Reader:
    """Command lines from the terminal or stdin.

    At a terminal, Ctrl-C cancels the line being typed and prompts again; a second Ctrl-C at the
    empty prompt that follows asks before leaving (a game is easily lost to a stray key).
    """

    def __init__(self, interactive: bool) -> None:
        self.interactive = interactive
        self.interrupted = False  # the last prompt ended with Ctrl-C, and nothing was typed since

    def read(self) -> str | None:
        """The next command line; None at the end of input or when the user chose to leave."""
        if not self.interactive:
            line = sys.stdin.readline(SHELL_LINE + 1)  # bounded: a pipe of endless text is not one command
            if len(line) > SHELL_LINE:
                from board.errors import InputError

                raise InputError(
                    f"<stdin>: a line longer than {SHELL_LINE:,} characters (the limit for a command)"
                )
            return None if not line else line.rstrip("\n")
        while True:
            try:
                line = input(PROMPT)
            except EOFError:
                print()
                return None
            except KeyboardInterrupt:
                forget_interrupt()  # handled here: the session goes on
                print("^C")
                if self.interrupted and self._confirm_leaving():
                    return None
                self.interrupted = not self.interrupted
                continue
            self.interrupted = False
            return line

    def _confirm_leaving(self) -> bool:
        try:
            answer = input(LEAVE_QUESTION)
        except (EOFError, KeyboardInterrupt):
            print()
            return True
        return answer.strip().lower() in ("y", "yes")


SHELL_LINE = 10_000
"""The longest command read from a pipe (as the longest scenario line)."""


def _show(shell: Shell, line: str, interactive: bool, as_json: bool = False) -> str | None:
    """Run a line and print what it shows; what went wrong, or None.

    An error is one line: on stderr at a terminal, in the transcript (stdout) otherwise. A move the
    referee refuses is a verdict, not an error; a check that fails (``reject``, ``expect``, ...) is.
    """
    from actors.cli.display import BoardView, console, move_line, step_line
    from actors.game.replay import MoveReport
    from actors.study.shell_output import Shown, output_record
    from actors.study.steps import StepResult
    from board.errors import InputError

    command = line.strip()
    try:
        shown: list[Output] = shell.execute(line)
    except InputError as error:
        if as_json:
            _print_json({"command": command, "error": str(error)})
        else:
            sys.stdout.flush()
            console(stderr=interactive).print(f"error: {terminal_safe(str(error))}")
        said = str(error)
        named = said.split(":", 1)[0]  # an error that names the command (or its verb) already
        return said if ":" in said and named and command.startswith(named) else f"{command}: {said}"
    out = console()
    problem = None
    for item in shown:
        if isinstance(item, StepResult) and not item.ok and problem is None:
            problem = f"{item.step}: expected {item.expected}; got {item.got}"
        if isinstance(item, MoveReport) and item.kind == "failure" and problem is None:
            problem = f"{command}: {item.reason}"
        if as_json:
            _print_json({"command": command, **output_record(item)})
        elif isinstance(item, StepResult):
            out.print(step_line(item))
        elif isinstance(item, MoveReport):
            out.print(move_line(item))
        elif isinstance(item, Shown):
            out.print(BoardView(item.fen, item.last_move, item.check))
            out.print(f"FEN {item.fen}")
        else:
            out.print(terminal_safe(str(item)))
    return problem


def _print_json(record: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def _readline(shell: Shell) -> None:
    """History and tab completion of commands, actor names and squares (when readline is there)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without readline still runs the shell
        return
    from actors.study.shell_words import completions

    def complete(word: str, state: int) -> str | None:
        options = completions(shell.names(), readline.get_line_buffer()[: readline.get_endidx()], word)
        return options[state] if state < len(options) else None

    readline.set_completer_delims(" \t")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
