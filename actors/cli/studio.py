"""``chess-actors studio``: the live studio, a page in the browser over a game whose actors are running.

Prints one address (127.0.0.1, with a random token) and serves until Ctrl-C or SIGTERM, which stop
the server, the game and every actor.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable
from contextlib import ExitStack, closing
from typing import TYPE_CHECKING, Any, NamedTuple

from actors.cli.help import add_command
from actors.cli.network import add_max_restarts_flag
from actors.cli.nodes import add_nodes_flags, open_nodes, own_nodes_option
from actors.cli.output import add_json_flag, emit
from actors.cli.streams import say

if TYPE_CHECKING:
    from actors.kernel.links import LinkModel
    from actors.studio.server import StudioServer

INSTALL_HINT = "the live studio needs the websockets library: pip install 'chess-actors[studio]'"


def register(subparsers: Any) -> None:
    """Add the ``studio`` subcommand."""
    parser = add_command(
        subparsers, "studio",
        summary="the live studio: play, deliver and crash in a browser while the actors run",
        description="Serve the studio page over a live game on 127.0.0.1 and print its address (with a\n"
                    "random token: without it every request is refused). In the page, play by clicking\n"
                    "or typing a move, step through deliveries, crash, stall and teach actors, make the\n"
                    "board lie; the page's WebSocket (/ws?token=...) takes the shell's commands and\n"
                    "streams every delivered message as a trace event. GAME.pgn or --scenario FILE: the\n"
                    "game starts from there.\n"
                    "Ctrl-C or SIGTERM stops it (exit 0).",
        examples=[
            "chess-actors studio",
            "chess-actors studio game.pgn --port 8765",
            "chess-actors studio --scenario actors/examples/pin.scenario",
            "chess-actors studio --json                 # the address as JSON: url, host, port, token",
            "chess-actors studio --nodes 3              # the actors on 3 node processes (Ray)",
        ],
    )
    parser.add_argument("pgn", nargs="?", metavar="GAME.pgn",
                        help="play this game's moves first (its first game; '-' reads stdin)")
    parser.add_argument("--scenario", metavar="FILE", help="run this scenario's steps first")
    parser.add_argument("--port", type=_port, default=0,
                        help="the port to listen on (default: one the system picks)")
    add_nodes_flags(parser, ray_flags=True)
    add_max_restarts_flag(parser)
    add_json_flag(parser)
    parser.set_defaults(handler=run_studio)


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535)")
    return int(text)


def run_studio(args: argparse.Namespace) -> int:
    """Serve the live studio until a signal stops it; 0 when it stopped cleanly."""
    from board.errors import InputError

    try:
        import websockets  # noqa: F401
    except ImportError:
        raise InputError(INSTALL_HINT) from None
    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.server import HOST, StudioServer, listen
    from actors.study.shell import Shell

    if args.pgn is not None and args.scenario is not None:
        raise InputError("give GAME.pgn or --scenario FILE, not both")
    opening = _opening(args)
    on_nodes = own_nodes_option(args)
    # The port first: a busy one is the one line said, before any node, actor or game is started.
    try:
        listening = listen(args.port)
    except OSError as error:
        raise InputError(f"--port {args.port}: cannot listen on it: {error.strerror or error}") from None
    with closing(listening), ExitStack() as stack:  # closed however the command ends (serving closes it too)
        nodes = None if on_nodes is None else open_nodes(stack, on_nodes, opening.fen, to_stderr=True)
        shell = Shell(opening.fen, chess960=opening.chess960, network=opening.network, nodes=nodes,
                      max_restarts=args.max_restarts)
        live = stack.enter_context(LiveGame(shell=shell))
        source = opening.source
        title = "chess-actors live studio" + (f": {source}" if source else "")
        server = StudioServer(live, live_page_html(title), listening, log=_log)
        problems = live.run_lines(opening.lines)
        if problems:  # one line on stderr at most: the first thing that stopped the opening short
            first = problems[0]
            what = first.get("move") or first.get("step")
            why = first.get("reason") or first.get("got") or first.get("error")
            say(f"chess-actors studio: {source}: the game stops before {what}: {why}")
        elif opening.note is not None:
            say(f"chess-actors studio: {opening.note}")
        address = {"url": server.url, "host": HOST, "port": server.port, "token": server.token}

        def ready() -> None:
            emit(args, address, server.url)
            sys.stdout.flush()

        import asyncio  # here: every other command starts without it

        asyncio.run(_serve_until_stopped(server, ready))
    return 0


def _log(line: str) -> None:
    """The server's log: one line on stderr, which ``say`` makes safe for a terminal (a line may quote
    what a client sent: an Origin or Host header, escapes included)."""
    say(f"chess-actors studio: {line}")


async def _serve_until_stopped(server: StudioServer, ready: Callable[[], None]) -> None:
    """Serve until SIGINT or SIGTERM; ``ready`` prints the address once a signal would stop it
    cleanly (a client that acts on the address and then signals finds the handlers in place; the
    socket already listens, so a page that connects at once waits in its backlog)."""
    import asyncio

    loop = asyncio.get_running_loop()
    stop: asyncio.Future[None] = loop.create_future()

    def stopping() -> None:
        if not stop.done():
            stop.set_result(None)

    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stopping)
    try:
        ready()
        await server.serve(stop)
    finally:
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)


class _Opening(NamedTuple):
    """How the live game opens."""

    fen: str
    chess960: bool | None
    """Whether the game is Chess960 (None: as the FEN's castling field says)."""
    lines: list[str]
    """The command lines to run first."""
    source: str | None = None
    """What they came from."""
    note: str | None = None
    """What to say about them: a PGN error after the moves that are played."""
    network: LinkModel | None = None
    """The links' model of a scenario's ``network`` line."""


def _opening(args: argparse.Namespace) -> _Opening:
    """How the game opens: from the PGN's first game, the scenario, or the start."""
    from board.errors import InputError

    if args.scenario is not None:
        from actors.cli.run import read_scenario_input
        from actors.study.steps import Start

        scenario = read_scenario_input(args.scenario)
        steps = []
        for index, step in enumerate(scenario.steps):
            order = scenario.order_before(index)
            if order is not None:  # a session saved after step mode: its step runs in the order chosen
                steps.append(order.written)  # the shell's own order command, for the step after it
            if not isinstance(step, Start):
                steps.append(step.written)
        return _Opening(scenario.start_fen, scenario.chess960, steps, scenario.source,
                        network=scenario.network)
    if args.pgn is None:
        return _Opening("startpos", False, [])
    from actors.cli.inputs import PgnInput
    from board.games.replay import start_game
    from board.notation.pgn import read_games

    source = PgnInput(args.pgn)
    game = next(iter(read_games(source.blocks(), name=source.name)), None)
    if game is None:
        raise InputError(f"{source.name}: no game in it")
    board = start_game(game)
    moves = [f"play {token.text}" for token in game.moves]
    note = None if game.error is None else f"{source.name}: {game.error}"
    return _Opening(board.start_fen, board.chess960, moves, source.name, note)
