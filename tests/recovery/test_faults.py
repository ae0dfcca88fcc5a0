"""Fault injection: crashed, stopped and stuck actors at random moments never change a verdict or hang.

Past the supervisor's limits a game ends with a clear error soon after the fault; the harness is
scripts/faults.py (run it for longer with --games and --seed).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any

import pykka
import pytest

import actors.game.game
from actors.game.game import ActorGame
from actors.game.replay import replay_with_actors
from actors.kernel.errors import ActorFailure, ActorTimeout, RestartIntensityExceeded
from actors.protocol import Accepted, CrashOnNext, HangOnNext
from board.games.game import Game
from board.notation.pgn import read_games
from scripts import faults as harness

TIMEOUT = 0.3
MARGIN = 1.5  # scheduling noise on a busy 2-core machine: a bound that tells a slow answer from a hang


def settle(seconds: float = 10 * TIMEOUT) -> None:
    """Wait for stuck actors left behind by a closed game to wake up and end (threads cannot be killed)."""
    deadline = time.monotonic() + seconds
    while pykka.ActorRegistry.get_all() and time.monotonic() < deadline:
        time.sleep(0.02)


def started_game(max_restarts: int = 20) -> ActorGame:
    """A game with the short timeout, started. Starting 35 actors is not what these tests judge, and
    on a loaded machine it can outlast a 0.3 s ask: a start that fails so is tried again (three
    times at most), while every fault a test injects still meets the short timeout.

    Raises:
        ActorFailure: the third start failed too.
    """
    for attempt in range(3):
        game = ActorGame(timeout=TIMEOUT, max_restarts=max_restarts, period=5.0)
        try:
            game.start()
        except ActorFailure:
            game.close()
            settle()
            if attempt == 2:
                raise
            continue
        return game
    raise AssertionError("unreachable: the loop returns or raises")


@pytest.fixture
def quick_game() -> Iterator[ActorGame]:
    with started_game() as game:
        yield game
    settle()


# --- many games, random faults at random moments ---------------------------------------------


# Faults are paced by proposals, not the clock: a seeded coin before each move decides whether one
# strikes, so how many strike is what the seed decides, however fast the machine runs.


def test_replays_under_random_faults_reach_the_direct_verdicts() -> None:
    tally = harness.run_replays(games=60, seed=11, timeout=TIMEOUT, mean_interval=0.006, rate=0.1)
    print(tally.summary())
    assert not tally.breaches, tally.summary()
    assert tally.total >= 150, f"too few faults to mean anything:\n{tally.summary()}"
    assert tally.survived_faults >= 50, tally.summary()
    assert {fault.split(":")[1] for fault in tally.injected} == set(harness.FAULTS)
    assert max(tally.error_delays, default=0.0) < 3 * TIMEOUT + MARGIN, tally.summary()


def test_every_move_under_random_faults_gets_the_direct_verdict() -> None:
    tally = harness.run_moves(games=8, seed=5, timeout=TIMEOUT, mean_interval=0.01, max_plies=120, rate=0.25)
    print(tally.summary())
    assert not tally.breaches, tally.summary()
    assert tally.total >= 60, tally.summary()
    assert tally.matched + sum(tally.clear_errors.values()) == tally.games


# --- one fault at a time, each kind ------------------------------------------------------------


def test_actors_stopped_from_outside_mid_game_are_restarted(quick_game: ActorGame) -> None:
    game = quick_game
    for move in ("e4", "e5", "Nf3"):
        assert isinstance(game.propose(move), Accepted)
    for name in ("board", "referee", "black-knight-b8", "white-bishop-f1"):
        ref = game.supervisor.ref(name)
        assert ref is not None
        ref.stop(block=False)
    reply = game.propose("Nc6")
    assert isinstance(reply, Accepted) and reply.san == "Nc6"
    assert isinstance(game.propose("Bb5"), Accepted)
    assert game.supervisor.restarts == 4
    assert game.fen() == "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


def test_a_piece_stuck_in_a_handler_is_replaced_and_the_game_goes_on(quick_game: ActorGame) -> None:
    game = quick_game
    game.ask("white-knight-g1", HangOnNext("MoveQuery", 6 * TIMEOUT))
    started = time.monotonic()
    reply = game.propose("Nf3")
    took = time.monotonic() - started
    assert isinstance(reply, Accepted) and reply.san == "Nf3"
    assert took < 3 * TIMEOUT + MARGIN, f"healing a stuck piece took {took:.2f} s"
    assert game.supervisor.restarts >= 1
    assert isinstance(game.propose("Nf6"), Accepted)
    assert isinstance(game.propose("Ng5"), Accepted)  # the new knight actor answers
    assert game.fen() == "rnbqkb1r/pppppppp/5n2/6N1/8/8/PPPPPPPP/RNBQKB1R b KQkq - 3 2"


def test_a_referee_that_answers_late_never_judges_beside_its_successor(quick_game: ActorGame) -> None:
    # The referee sleeps through the client's timeout on Nf3. The supervisor waits for it to finish
    # before anything else: if a second referee were started beside it, the first would wake up
    # later and play its stale Nf3 again on the board after Ng5 (a knight from an empty g1).
    game = quick_game
    game.ask("referee", HangOnNext("ProposeText", 1.5 * TIMEOUT))
    for move in ("Nf3", "e5", "Ng5"):
        assert isinstance(game.propose(move), Accepted), move
    time.sleep(2 * TIMEOUT)
    assert [entry.san for entry in game.journal] == ["Nf3", "e5", "Ng5"]
    assert game.fen() == "rnbqkbnr/pppp1ppp/8/4p1N1/8/8/PPPPPPPP/RNBQKB1R b KQkq - 1 2"


@pytest.mark.parametrize(
    ("name", "kind"), [("referee", "ProposeText"), ("board", "Apply"), ("board", "Survey")]
)
def test_a_window_of_proposals_behind_a_slow_actor_is_made_once_and_in_order(name: str, kind: str) -> None:
    # The slow actor answers after its asker gave up: the moves it then made (a referee working
    # through the window; a board finishing an Apply) must be neither lost nor made twice, and a
    # repeat of a proposal the first ask made is answered with that move, not called stale.
    moves = ["e5", "Nf3", "Nc6", "Bg5", "a6", "e3", "a5", "Be2", "a4"]
    direct = Game("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1")
    for move in moves:
        direct.play(move)
    with started_game(max_restarts=50) as game:
        assert isinstance(game.propose("d4"), Accepted)
        game.ask(name, HangOnNext(kind, 1.5 * TIMEOUT))
        try:
            got = [reply.san if isinstance(reply, Accepted) else reply.reason
                   for reply in game.propose_many(moves)]
        except ActorTimeout as error:  # a stall past every wait is the one clear way out
            assert "did not stop within" in str(error)
            assert [entry.san for entry in game.journal] == ["d4", *moves][: game.plies]
        else:
            assert got == moves
            assert game.fen() == direct.fen()
    settle()


@pytest.mark.parametrize("name", ["referee", "board"])
def test_a_board_or_referee_stuck_for_good_ends_the_game_with_a_clear_error(name: str) -> None:
    with started_game() as game:
        assert isinstance(game.propose("e4"), Accepted)
        kind = "ProposeText" if name == "referee" else "Apply"
        game.ask(name, HangOnNext(kind, 5 * TIMEOUT))
        started = time.monotonic()
        with pytest.raises(ActorTimeout, match=f"{name} did not stop within"):
            game.propose("e5")
        took = time.monotonic() - started
        assert took < 3 * TIMEOUT + MARGIN, f"the error came {took:.2f} s after the fault"
        again = time.monotonic()
        with pytest.raises(ActorTimeout):
            game.propose("e5")
        assert time.monotonic() - again < 0.05, "a failed game answers at once"
        assert [entry.san for entry in game.journal] == ["e4"]
    settle()


def test_past_the_restart_limit_the_error_comes_within_the_timeout() -> None:
    with ActorGame(timeout=1.0, max_restarts=3, period=60.0) as game:
        delays: list[float] = []
        moves = iter(("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"))
        victims = iter(("referee", "board", "black-pawn-e7", "referee", "board"))
        with pytest.raises(RestartIntensityExceeded, match="restarts within 60 s"):
            for move, victim in zip(moves, victims, strict=False):
                ref = game.supervisor.ref(victim)
                assert ref is not None
                ref.stop(block=True)
                fault = time.monotonic()
                try:
                    game.propose(move)
                finally:
                    delays.append(time.monotonic() - fault)
        assert delays[-1] < game.timeout + 0.25, f"the error came {delays[-1]:.2f} s after the fault"
        assert len(game.journal) == 3


def test_a_crash_while_healing_is_healed_too(quick_game: ActorGame) -> None:
    game = quick_game
    for name in ("white-queen-d1", "black-king-e8"):
        game.ask(name, CrashOnNext("Ping"))  # the supervisor's probe kills them
    game.crash_on_next("board", "RosterQuery")
    game.crash("referee")
    reply = game.propose("d4")
    assert isinstance(reply, Accepted) and reply.san == "d4"
    assert game.supervisor.restarts >= 4
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"


def test_queries_are_healed_like_proposals(quick_game: ActorGame) -> None:
    game = quick_game
    game.propose("e4")
    game.crash("referee")
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    game.crash_on_next("board", "Survey")
    assert game.legal_targets("g8") == ("f6", "h6")


def test_a_failed_game_is_reported_and_the_next_game_still_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    text = '[White "a"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[White "b"]\n\n1. d4 d5 *\n'
    first, second = read_games(text)

    class DoomedGame(ActorGame):
        """No restart allowed, and the referee crashes before the third move."""

        def __init__(self, fen: str = "startpos", *args: Any, **kwargs: Any) -> None:
            super().__init__(fen, TIMEOUT, None, 0, 60.0)

        def stream_proposals(self, texts: Iterable[str], window: int = 16) -> Iterator[Any]:
            moves = list(texts)
            yield from super().stream_proposals(moves[:2], window)
            self.crash("referee")
            yield from super().stream_proposals(moves[2:], window)

    monkeypatch.setattr(actors.game.game, "ActorGame", DoomedGame)
    failed = replay_with_actors(first)
    monkeypatch.undo()
    assert failed.plies == 2 and failed.error is not None
    assert failed.error.ply == 3 and "restarts within" in failed.error.reason
    assert failed.fen == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    fine = replay_with_actors(second)
    assert fine.error is None and fine.plies == 2


def test_an_actor_failure_never_escapes_as_anything_but_an_actor_failure(quick_game: ActorGame) -> None:
    game = quick_game
    game.ask("referee", HangOnNext("FenQuery", 5 * TIMEOUT))
    with pytest.raises(ActorFailure):
        game.fen()
