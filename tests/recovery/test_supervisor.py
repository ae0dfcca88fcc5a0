"""Supervision: crashed actors are restarted one_for_one with their state rebuilt, and games go on.

Random crashes at random moments must not change a single verdict or the final position; past the
restart intensity limit the game ends with a clear error, quickly.
"""

from __future__ import annotations

import os
import random
import time

import pytest

from actors.game.game import ActorGame
from actors.game.parity import actor_verdict, direct_verdict
from actors.kernel.errors import ActorFailure, RestartIntensityExceeded
from actors.protocol import Accepted
from board.games.game import Game
from board.notation.algebraic import san
from board.rules.movegen import legal_moves

SEEDS = int(os.environ.get("CRASH_SEEDS", "12"))
FAULT_KINDS = ("MoveQuery", "Survey", "Apply", "Moved", "ProposeText", "TargetsQuery", "Begin",
               "CastleQuery", "RosterQuery", "Captured")


def inject(game: ActorGame, rng: random.Random) -> None:
    """Crash a random actor now, or arm it to crash on its next message of a random kind."""
    name = rng.choice([name for name in game.supervisor.names() if name != "journal"])
    try:
        if rng.random() < 0.4:
            game.crash(name)
        else:
            game.crash_on_next(name, rng.choice(FAULT_KINDS))
    except ActorFailure:
        pass  # it was already dead: the next proposal heals it


def test_random_crashes_change_no_verdict_and_no_position() -> None:
    restarts = 0
    for seed in range(SEEDS):
        rng = random.Random(seed)
        direct = Game()
        with ActorGame(timeout=5.0, max_restarts=1000, period=1.0) as game:
            for _ in range(120):
                moves = legal_moves(direct.position)
                if not moves or direct.ended():
                    break
                struck = rng.random() < 0.25
                if struck:
                    inject(game, rng)
                text = san(direct.position, rng.choice(moves)) if rng.random() < 0.9 else "Ke5"
                assert actor_verdict(game, text) == direct_verdict(direct, text), f"seed {seed}: {text}"
                if struck:  # healed, every piece answers as the board and the journal hold
                    game.supervisor.heal()
                    assert game.supervisor.disagreements() == [], f"seed {seed}: {text}"
            game.supervisor.heal()
            assert game.supervisor.disagreements() == []
            assert game.fen() == direct.fen()
            restarts += game.supervisor.restarts
    assert restarts > 20, "the test crashed too few actors to mean anything"


def test_a_crashed_referee_is_restarted_and_replays_its_journal() -> None:
    with ActorGame() as game:
        for move in ("e4", "e5", "Nf3", "Nc6"):
            game.propose(move)
        game.crash("referee")
        reply = game.propose("Bb5")
        assert isinstance(reply, Accepted) and reply.san == "Bb5"
        assert game.supervisor.restarts == 1
        assert len(game.journal) == 5


def test_a_move_applied_before_the_referee_died_is_not_played_twice() -> None:
    with ActorGame() as game:
        game.propose("e4")
        game.crash_on_next("white-pawn-e2", "MoveQuery")  # not asked: black is to move
        game.crash_on_next("black-pawn-e7", "Moved")  # dies after the board applied e5
        assert isinstance(game.propose("e5"), Accepted)
        reply = game.propose("d4")
        assert isinstance(reply, Accepted) and reply.san == "d4"
        assert game.fen() == "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"


def test_past_the_intensity_limit_the_game_ends_with_a_clear_error() -> None:
    with ActorGame(timeout=2.0, max_restarts=2, period=60.0) as game:
        started = time.monotonic()
        with pytest.raises(RestartIntensityExceeded, match="restarts within"):
            for move in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6"):
                game.crash("referee")
                game.propose(move)
        with pytest.raises(RestartIntensityExceeded):
            game.propose("Ba4")
        assert time.monotonic() - started < 2.0
