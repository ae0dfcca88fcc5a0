"""``chess-actors replay``: judge every move of PGN games through the actors (or directly).

Plain output shows the game: a line per judged move, a board, a verdict line per game and a summary of
the messages the actors exchanged; ``--json`` prints one verdict object per game and nothing else.
"""

from __future__ import annotations

import argparse
from collections.abc import Generator, Iterator
from contextlib import ExitStack, closing
from itertools import chain, islice
from typing import TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.network import add_max_restarts_flag, add_network_flag
from actors.cli.nodes import add_nodes_flags, open_nodes
from actors.cli.output import add_json_flag, add_trace_flags
from actors.cli.replay_options import check_options, plan_for
from actors.cli.replay_pause import add_pause_flag
from actors.cli.replay_report import print_totals, report, start_progress, status
from actors.cli.replay_watch import Watcher, start_watcher
from actors.cli.streams import SideOutput, refuse_inputs_as_outputs, replaced_file, side_output
from board.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

    from actors.tracing.event import TraceEvent
    from board.games.replay import GameVerdict
    from board.notation.pgn import PgnGame

BOARD_MODES = ("each", "end", "none")


def register(subparsers: Any) -> None:
    """Add the replay subcommand."""
    parser = add_command(
        subparsers, "replay",
        summary="replay PGN games, judging every move (no PGN: an embedded famous game)",
        description="Replay PGN games through the piece, board and referee actors (or directly), judging\n"
                    "every move; each game stops at its first illegal move and the next game still runs.\n"
                    "Exit 0 when every game is legal, 1 when some game has an illegal move.",
        examples=[
            "chess-actors replay                                 # the Opera game, move by move",
            "chess-actors replay games.pgn --engine direct --json",
            "chess-actors replay big.pgn --engine direct --workers 2 --quiet",
            "chess-actors replay --trace t.jsonl --board each",
            "chess-actors replay games.pgn --game 2 --plies 10-12 --trace t.jsonl   # three plies of game 2",
            "chess-actors replay --nodes 3 --pause-after 12   # stops after ply 12: kill a node, then fg",
        ],
    )
    parser.add_argument("pgn", nargs="*", metavar="PGN", help="PGN files; '-' reads stdin")
    parser.add_argument("--engine", choices=("actors", "direct"), default="actors",
                        help="judge through piece/board/referee actors (default) or directly")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="judge games in N worker processes (output stays in input order)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="judge games on a Ray cluster: 'auto', a cluster address, or 'local' "
                             "to start Ray on this machine (needs the 'cluster' extra)")
    parser.add_argument("--ray-timeout", type=float, default=None, metavar="SECONDS",
                        help="how long --ray ADDRESS may take to reach its cluster (default 15, or "
                             "the CHESS_ACTORS_RAY_TIMEOUT variable); CHESS_ACTORS_RAY_LOGS=1 shows "
                             "Ray's own log lines")
    parser.add_argument("--board", choices=BOARD_MODES, default=None,
                        help="draw the board after each move, at the end of each game, or never "
                             "(default: 'end' for one game through the actors, else 'none')")
    parser.add_argument("--moves", action=argparse.BooleanOptionalAction, default=None,
                        help="print a line per judged move (default: on for one game through the "
                             "actors, and with --board each)")
    parser.add_argument("--teach", action="append", default=[], metavar="SQUARE=PIECE",
                        help="start each game with the piece on SQUARE moving as PIECE: Betza notation "
                             "(b1=NC, g8=nN, c1=mBcF) or a name (a kind or a fairy piece: archbishop, "
                             "chancellor, amazon, jumping-rook, ...); repeatable")
    parser.add_argument("--game", type=int, metavar="N",
                        help="replay only game N of the input (1-based, counted over every PGN given)")
    parser.add_argument("--plies", metavar="A-B",
                        help="play each game up to ply B, showing and tracing plies A to B (1-based, "
                             "inclusive); the plies before A are judged too, to reach the position")
    add_trace_flags(parser, "replay", " (actor engine)")
    add_network_flag(parser)
    add_max_restarts_flag(parser)
    add_nodes_flags(parser, ray_flags=False)
    add_pause_flag(parser)
    parser.add_argument("--quiet", action="store_true",
                        help="no progress display on stderr for several games")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def _sources(paths: list[str]) -> Iterator[tuple[str, Iterator[bytes]]]:
    """(name, byte blocks) of each input in turn: files, stdin, or the embedded game."""
    from actors.cli.inputs import PgnInput, embedded_game_blocks
    from actors.game.replay import EMBEDDED_GAME

    if not paths:
        yield EMBEDDED_GAME, embedded_game_blocks()
        return
    for path in paths:
        source = PgnInput(path)
        yield source.name, source.blocks()


def _games(sources: Iterator[tuple[str, Iterator[bytes]]]) -> Iterator[PgnGame]:
    from board.notation.pgn import read_games

    for name, blocks in sources:
        yield from read_games(blocks, name=name)


def _chosen(games: Iterator[PgnGame], game: int | None, plies: tuple[int, int] | None) -> Iterator[PgnGame]:
    """The games ``--game`` chooses (all without it), each cut after ply B of ``--plies A-B``."""
    from dataclasses import replace

    from actors.cli.output import counted

    read = 0
    for read, pgn in enumerate(games, 1):
        if game is not None and read != game:
            continue
        if plies is not None and len(pgn.moves) >= plies[1]:  # what comes after ply B is not played
            pgn = replace(pgn, moves=pgn.moves[: plies[1]], error=None)
        yield pgn
        if game is not None:
            return
    if game is not None:
        raise InputError(f"--game {game}: the input has {counted(read, 'game')}")


def chosen_plies(args: argparse.Namespace) -> tuple[int, int] | None:
    """``--plies A-B`` as a pair, or None; checks ``--game`` too.

    Raises:
        InputError: a malformed range, a game number below 1, or either with bulk replay.
    """
    from actors.tracing.export import parse_ply_range

    if args.game is not None and args.game < 1:
        raise InputError(f"--game {args.game}: games count from 1")
    plies = parse_ply_range(args.plies) if args.plies is not None else None
    if (args.game is not None or plies is not None) and (args.workers > 1 or args.ray):
        raise InputError("--game and --plies replay in this process: leave out --workers and --ray")
    return plies


def run(args: argparse.Namespace) -> int:
    """Replay each game; exit 1 if any game has an illegal move."""
    check_options(args)
    args.ply_range = chosen_plies(args)
    refuse_inputs_as_outputs([("--trace", args.trace), ("--html", args.html)], args.pgn)
    if args.engine == "actors" and args.workers == 1 and not args.ray and args.node_option is None:
        from actors.kernel.affinity import one_core

        one_core()  # the actor threads hand off faster on one core (actors.kernel.affinity)
    from actors.cli.inputs import check_readable

    for path in args.pgn:
        check_readable(path)  # fail before any output if a file is unreadable
    watcher: Watcher | None = None
    with ExitStack() as stack:
        if args.workers > 1 or args.ray:
            # Bulk: the raw text goes to the workers, which read and judge it.
            plan = plan_for(args, several=True)
            # closed by the stack whatever ends the run, so that the workers end with it
            verdicts: Iterator[GameVerdict] = stack.enter_context(
                closing(_judged_elsewhere(args, _sources(args.pgn)))
            )
            progress = start_progress(args, several=True, stack=stack)
            totals = report(args, plan, verdicts, None, None, progress)
        else:
            games = _chosen(_games(_sources(args.pgn)), args.game, args.ply_range)
            head = list(islice(games, 2))  # one game or several decides what is shown by default
            games = chain(head, games)
            plan = plan_for(args, several=len(head) > 1)
            trace_file = _open_trace(args.trace, stack) if args.trace is not None else None
            out: Console | None = None
            if not args.json and (plan.watched or plan.board != "none"):
                from actors.cli.display import console

                out = console()
            nodes = None
            if args.node_option is not None:
                nodes = open_nodes(stack, args.node_option, to_stderr=args.json)
            if plan.watched or trace_file is not None or args.html is not None or args.links is not None \
                    or nodes is not None or args.pause_after is not None:
                watcher = start_watcher(args, plan, out, trace_file, nodes)
                stack.callback(watcher.close)
                verdicts = watcher.verdicts(games)
            else:
                verdicts = _judged_whole(args, games)
            progress = start_progress(args, several=len(head) > 1, stack=stack)
            totals = report(args, plan, verdicts, out, watcher, progress)
            if trace_file is not None:
                trace_file.check()  # a trace that could not be written is an error, after the verdicts
    if watcher is not None and watcher.page_full_at is not None:
        from actors.studio import PAGE_MESSAGES

        print_totals(args, plan, totals, progress is not None)
        raise InputError(
            f"--html {args.html}: more than {PAGE_MESSAGES:,} messages by game {watcher.page_full_at}, "
            "more than one page shows; replay fewer games, or write --trace PATH and draw chosen games "
            "or plies with 'chess-actors trace PATH --to html --game N --plies A-B'"
        )
    if watcher is not None and watcher.studio is not None:
        shown = ", ".join(args.pgn) or "the Opera game"
        _write_studio(args.html, watcher.studio, f"chess-actors studio: {shown}")
    # After the progress display has gone, so that the totals stay on the terminal.
    print_totals(args, plan, totals, progress is not None)
    return status(args, totals)


def _write_studio(path: str, events: list[TraceEvent], title: str) -> None:
    from actors.studio import write_page

    if not events:
        raise InputError(f"--html {path}: no game was judged, so there is no message to show")
    with replaced_file(path, "--html") as written:
        write_page(events, written, title)


def _open_trace(path: str, stack: ExitStack) -> SideOutput:
    return stack.enter_context(side_output(path, "--trace"))


def _judged_elsewhere(args: argparse.Namespace, sources: Iterator[tuple[str, Iterator[bytes]]]
                      ) -> Generator[GameVerdict, None, None]:
    if args.ray:
        from actors.clusters.bulk import replay_on_ray

        return replay_on_ray(sources, args.engine, args.workers, args.ray, args.ray_timeout)
    from actors.clusters.bulk import replay_parallel

    return replay_parallel(sources, args.engine, args.workers)


def _judged_whole(args: argparse.Namespace, games: Iterator[PgnGame]) -> Iterator[GameVerdict]:
    from actors.game.replay import judge_for, watch_game

    if args.lessons or (args.engine == "actors" and args.max_restarts != 10):
        return (watch_game(game, args.engine, teach=args.lessons, max_restarts=args.max_restarts)
                for game in games)
    return map(judge_for(args.engine), games)
