"""What a replay is asked to do: ``--teach`` read, option combinations checked before anything runs,
and the plan of what a run shows (move lines, boards, the actors' summary).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from actors.cli.network import network_model
from actors.cli.nodes import nodes_option
from actors.cli.replay_pause import check_pause
from board.errors import InputError


def lessons(written: list[str]) -> dict[str, str]:
    """``--teach`` options as square -> lesson: a piece in Betza notation (``b1=NC``) or by name
    (``c1=archbishop``).

    Raises:
        InputError: not SQUARE=PIECE, a square off the board, an unknown piece or a Betza string that
            cannot be read (the letter and its position named), a square taught twice.
    """
    from board.rules.geometry import geometry_named
    from board.rules.squares import SQUARE_NAMES, parse_standard_square

    taught: dict[str, str] = {}
    for text in written:
        square, equals, name = text.partition("=")
        if not equals:
            raise InputError(f"--teach {text!r}: write SQUARE=PIECE, e.g. --teach c1=archbishop or b1=NC")
        try:
            square = SQUARE_NAMES[parse_standard_square(square.strip())]
            geometry_named(name)
        except InputError as error:
            raise InputError(f"--teach {text!r}: {error}") from None
        if square in taught:
            raise InputError(f"--teach {text!r}: {square} is taught twice")
        taught[square] = name.strip()
    return taught


def check_options(args: argparse.Namespace) -> None:
    """Refuse combinations that cannot do what they say (usage errors, exit 2)."""
    from actors.cli.streams import check_writable

    if args.workers < 1:
        raise InputError(f"--workers {args.workers}: needs at least 1 worker")
    args.node_option = nodes_option(args)
    if args.node_option is not None:  # --ray then says where the nodes run: the games are judged here
        if args.engine != "actors":
            raise InputError("--nodes needs the actor engine (the direct engine runs no actors)")
        if args.workers > 1:
            raise InputError("--nodes: one game at a time runs on the nodes (drop --workers)")
        args.ray = args.ray_timeout = None
    if args.workers > 1 and (not args.ray or args.ray == "local"):  # one worker is always allowed
        from actors.clusters.bulk import worker_limit

        if args.workers > worker_limit():
            raise InputError(f"--workers {args.workers}: at most {worker_limit()} worker processes on this "
                             f"machine (4 per CPU)")
    in_process = args.workers == 1 and not args.ray
    check_pause(args, in_process)
    if args.ray:
        from actors.clusters.cluster import ray_timeout
        from actors.game.arguments import check_address

        check_address(args.ray)
        args.ray_timeout = ray_timeout(args.ray_timeout)
    elif args.ray_timeout is not None:
        raise InputError("--ray-timeout: only with --ray ADDRESS")
    if args.trace is not None:
        if args.trace == "-":
            raise InputError("--trace -: give a file path (the trace is written beside the normal output)")
        if args.engine != "actors":
            raise InputError("--trace needs the actor engine (the direct engine sends no messages)")
        if not in_process:
            raise InputError("--trace needs the games judged in this process (drop --workers/--ray)")
    args.links = network_model(args)
    if args.links is not None and args.engine != "actors":
        raise InputError("--network needs the actor engine (the direct engine sends no messages)")
    if args.links is not None and not in_process:
        raise InputError("--network needs the games judged in this process (drop --workers/--ray)")
    args.lessons = lessons(args.teach)
    if args.lessons and args.engine != "actors":
        raise InputError("--teach needs the actor engine for a replay (the direct engine takes lessons in "
                         "perft --teach and board.Game(fen, teach=...))")
    if args.lessons and not in_process:
        raise InputError("--teach needs the games judged in this process (drop --workers/--ray)")
    if args.html is not None:
        if args.engine != "actors":
            raise InputError("--html needs the actor engine (the direct engine sends no messages)")
        if not in_process:
            raise InputError("--html needs the games judged in this process (drop --workers/--ray)")
    if args.html is not None:
        check_writable(args.html, "--html")
    if args.trace is not None:
        check_writable(args.trace, "--trace")
    if args.json and args.board in ("each", "end"):
        raise InputError(f"--board {args.board}: --json never prints boards")
    if args.json and args.moves:
        raise InputError("--moves: --json prints one object per game, not move lines")
    if not in_process and (args.board == "each" or args.moves):
        shown = "--board each" if args.board == "each" else "--moves"
        raise InputError(f"{shown} needs the games judged in this process (drop --workers/--ray)")


@dataclass(slots=True)
class Plan:
    """What this run shows and how it judges."""

    in_process: bool
    board: str
    moves: bool
    summary: bool

    @property
    def watched(self) -> bool:
        """Whether games are judged move by move here (rather than whole, possibly elsewhere)."""
        return self.in_process and (self.moves or self.board == "each" or self.summary)


def plan_for(args: argparse.Namespace, several: bool) -> Plan:
    """What a run of one game or ``several`` shows, from the options given and their defaults."""
    in_process = args.workers == 1 and not args.ray
    # The face is for one game through the actors; bulk runs and --engine direct keep their one line a game.
    showcase = not args.json and args.engine == "actors" and in_process and not several
    board = args.board or ("end" if showcase else "none")
    moves = args.moves if args.moves is not None else (showcase or board == "each")
    summary = not args.json and args.engine == "actors" and in_process
    return Plan(in_process, board, moves, summary)
