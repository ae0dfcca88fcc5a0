"""``replay --pause-after PLY``: the replay stops itself after a chosen ply, with no move in flight,
showing its own pid and where each node process stands, so that something can be done to the game
from outside (a node killed, a trace read) before ``kill -CONT PID`` (or ``fg``) lets it go on."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import TYPE_CHECKING, TextIO

from board.errors import InputError

if TYPE_CHECKING:
    from actors.clusters.nodes import Nodes

PAUSE_HELP = (
    "after ply PLY of each game, once the actors have answered every move sent, stop this process "
    "(as Ctrl-Z does) and show its pid and each node's pid and actors; 'kill -CONT PID' or 'fg' goes on"
)


def add_pause_flag(parser: argparse.ArgumentParser) -> None:
    """Give replay ``--pause-after PLY``."""
    parser.add_argument("--pause-after", metavar="PLY", type=_ply, default=None, help=PAUSE_HELP)


def _ply(text: str) -> int:
    try:
        ply = int(text)
    except ValueError:
        ply = 0
    if ply < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a ply (a whole number from 1)")
    return ply


def check_pause(args: argparse.Namespace, in_process: bool) -> None:
    """Refuse ``--pause-after`` where it cannot stop a game between two plies.

    Raises:
        InputError: the games are judged elsewhere (``--workers``, ``--ray`` without ``--nodes``),
            or this system cannot stop a process.
    """
    if args.pause_after is None:
        return
    if not in_process:
        raise InputError("--pause-after needs the games judged in this process (drop --workers/--ray)")
    if not hasattr(signal, "SIGSTOP"):
        raise InputError("--pause-after: this system cannot stop a process (it has no SIGSTOP)")


def pause_here(ply: int, game: int, nodes: Nodes | None, shown: TextIO) -> None:
    """Say where the game stands after ``ply`` of game ``game`` and stop this process until it is
    continued (SIGCONT); then say that it goes on."""
    pid = os.getpid()
    lines = [f"paused after ply {ply} of game {game}, no move in flight: this replay (pid {pid}) "
             "has stopped itself"]
    if nodes is not None:
        from actors.cli.nodes import node_lines

        lines.extend(node_lines(nodes))
    lines.append(f"  go on with: kill -CONT {pid} (or fg in its terminal)")
    shown.write("\n".join(lines) + "\n")
    shown.flush()
    sys.stdout.flush()
    os.kill(pid, signal.SIGSTOP)
    shown.write(f"going on after ply {ply} of game {game}\n")
    shown.flush()
