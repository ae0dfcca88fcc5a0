"""Replaying PGN games with either engine, game by game, in input order.

The direct engine calls the rules core; the actor engine sends every move through the piece,
board and referee actors. Both produce the same :class:`board.replay.GameVerdict`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from typing import IO

from board.pgn import PgnGame, read_games
from board.replay import GameVerdict, replay_direct

Judge = Callable[[PgnGame], GameVerdict]
ENGINES = ("actors", "direct")
EMBEDDED_GAME = "opera-game.pgn"


def judge_for(engine: str) -> Judge:
    """The function that replays one game with ``engine`` ('actors' or 'direct')."""
    if engine == "direct":
        return replay_direct
    import importlib

    judge: Judge = importlib.import_module("actors.game").replay_with_actors
    return judge


def embedded_game() -> IO[str]:
    """The famous game replayed when no PGN is given (Morphy's Opera game, Paris 1858)."""
    return resources.files("actors").joinpath("data", EMBEDDED_GAME).open("r", encoding="utf-8")


def replay_stream(lines: Iterable[str], engine: str = "actors") -> Iterator[GameVerdict]:
    """Replay every game of a PGN line stream, in order, one verdict each."""
    judge = judge_for(engine)
    for game in read_games(lines):
        yield judge(game)
