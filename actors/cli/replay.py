"""``chess-actors replay``: judge every move of PGN games through the actors (or directly)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from typing import IO, Any

from actors.cli.output import add_json_flag, emit
from board.errors import InputError
from board.pgn import PgnGame, read_games
from board.replay import GameVerdict


def register(subparsers: Any) -> None:
    """Add the replay subcommand."""
    parser = subparsers.add_parser(
        "replay", help="replay PGN games, judging every move (no PGN: an embedded famous game)"
    )
    parser.add_argument("pgn", nargs="*", metavar="PGN", help="PGN files; '-' reads stdin")
    parser.add_argument("--engine", choices=("actors", "direct"), default="actors",
                        help="judge through piece/board/referee actors (default) or directly")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="judge games in N worker processes (output stays in input order)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="judge games on a Ray cluster: 'auto', a cluster address, or 'local' "
                             "to start Ray on this machine (needs the 'cluster' extra)")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def _sources(paths: list[str], stack: ExitStack) -> Iterator[IO[str]]:
    from actors.replay import embedded_game

    if not paths:
        yield stack.enter_context(embedded_game())
        return
    for path in paths:
        if path == "-":
            yield sys.stdin
        else:
            yield stack.enter_context(open(path, encoding="utf-8", errors="replace"))  # noqa: SIM115


def _games(sources: Iterator[IO[str]]) -> Iterator[PgnGame]:
    for source in sources:
        yield from read_games(source)


def run(args: argparse.Namespace) -> int:
    """Replay each game; exit 1 if any game has an illegal move."""
    from actors.replay import judge_for

    if args.workers < 1:
        raise InputError(f"--workers {args.workers}: needs at least 1 worker")
    for path in args.pgn:
        if path != "-":
            with open(path, encoding="utf-8"):  # fail before any output if a file is unreadable
                pass
    illegal = 0
    with ExitStack() as stack:
        games = _games(_sources(args.pgn, stack))
        if args.ray:
            from actors.bulk import replay_on_ray

            verdicts: Iterator[GameVerdict] = replay_on_ray(games, args.engine, args.workers, args.ray)
        elif args.workers > 1:
            from actors.bulk import replay_parallel

            verdicts = replay_parallel(games, args.engine, args.workers)
        else:
            verdicts = map(judge_for(args.engine), games)
        for number, verdict in enumerate(verdicts, 1):
            record = verdict.as_json()
            record["game"] = number
            illegal += verdict.error is not None
            emit(args, record, _describe(record))
    return 1 if illegal else 0


def _describe(record: dict[str, Any]) -> str:
    head = f"game {record['game']}: {record['white']} - {record['black']}, {record['plies']} plies"
    error = record["error"]
    if error:
        return f"{head}; illegal at ply {error['ply']}: {error['move']}: {error['reason']}"
    ending = f", {record['outcome'].replace('_', ' ')}" if record["outcome"] else ""
    return f"{head}{ending}, {record['result']}"
