"""A proposal has a deadline that nothing an actor does can extend: a taught move function that
turns slow stalls every new incarnation of its piece, and healing went on restarting it for ever."""

from __future__ import annotations

import threading

import pytest

from actors.game.game import ActorGame
from actors.kernel.errors import ActorTimeout
from actors.protocol import Accepted

Coord = tuple[int, int]


class RookOnItsFile:
    """A move function up and down a file, which turns slow (each answer waits) when told to."""

    def __init__(self) -> None:
        self.slow = False
        self.released = threading.Event()
        self.__name__ = "rook_on_its_file"

    def __call__(self, start: Coord, end: Coord) -> tuple[Coord, list[Coord]] | None:
        if self.slow:
            self.released.wait(2.0)
        (file, rank), (to_file, to_rank) = start, end
        if file != to_file or rank == to_rank:
            return None
        step = 1 if to_rank > rank else -1
        return end, [(file, between) for between in range(rank + step, to_rank, step)]


def test_a_proposal_ends_by_its_deadline_when_a_taught_function_turns_slow() -> None:
    rook = RookOnItsFile()
    outcome: list[object] = []
    try:
        with ActorGame(timeout=0.5, max_restarts=2) as game:
            assert game.request_deadline == 30.0  # the floor: 4 timeouts of 0.5 s are less
            game.request_deadline = 2.0
            game.piece("a1").learn(rook)
            assert isinstance(game.propose("e4"), Accepted)
            rook.slow = True
            proposing = threading.Thread(target=lambda: _propose(game, "e5", outcome), daemon=True)
            proposing.start()
            proposing.join(60)  # generous: the deadline is 2 s, healing included
            assert not proposing.is_alive(), "propose never returned"
            rook.released.set()  # the stalled incarnations may end, and the game close
    finally:
        rook.released.set()
    (error,) = outcome
    assert isinstance(error, ActorTimeout), error
    assert str(error).startswith("no verdict within 2 s (the request's deadline, healing included): ")


def _propose(game: ActorGame, move: str, outcome: list[object]) -> None:
    try:
        outcome.append(game.propose(move))
    except Exception as error:  # the outcome is checked by the test
        outcome.append(error)


def test_the_default_deadline_is_as_long_as_the_attempts_a_request_may_make() -> None:
    with ActorGame(timeout=5.0, max_restarts=10) as game:
        assert game.request_deadline == 60.0


@pytest.mark.parametrize("move", ["e4", "Nf3"])
def test_a_fast_taught_function_leaves_proposals_as_they_were(move: str) -> None:
    with ActorGame(timeout=0.5, max_restarts=2) as game:
        game.piece("a1").learn(RookOnItsFile())
        assert isinstance(game.propose(move), Accepted)
