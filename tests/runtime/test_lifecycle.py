"""A game's lifetime cannot hang a program: left open it still exits, used unstarted or after close it
says so at once, and nothing it started outlives it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable

import pytest

from actors.game.game import ActorGame
from actors.game.pool import SystemPool
from actors.kernel.errors import GameClosed


def _actor_threads() -> int:
    return sum("Actor" in thread.name for thread in threading.enumerate())


def _exits_quickly(body: str) -> subprocess.CompletedProcess[str]:
    script = textwrap.dedent(body)
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    took = time.monotonic() - began
    assert done.returncode == 0, done.stderr
    # Starting the interpreter and importing the actors is most of it; a hang would be 30 s.
    assert took < 2.0 + _startup_allowance(), f"the script took {took:.1f} s to exit"
    return done


_ALLOWANCE: list[float] = []


def _startup_allowance() -> float:
    """How long this machine takes to start Python and import the actors, with no game at all."""
    if not _ALLOWANCE:
        began = time.monotonic()
        subprocess.run([sys.executable, "-c", "import actors.game.game"], check=True, timeout=60)
        _ALLOWANCE.append(time.monotonic() - began)
    return _ALLOWANCE[0]


def test_a_script_that_never_closes_its_game_still_exits() -> None:
    done = _exits_quickly("""
        from actors.game.game import ActorGame
        game = ActorGame()
        game.start()
        print(game.propose("e4").san)
    """)
    assert done.stdout.strip() == "e4"


def test_a_script_that_never_closes_a_pooled_game_or_its_pool_still_exits() -> None:
    done = _exits_quickly("""
        from actors.game.game import ActorGame
        from actors.game.pool import SystemPool
        pool = SystemPool()
        with ActorGame(pool=pool) as first:
            first.propose("d4")
        game = ActorGame(pool=pool)
        game.start()
        print(game.propose("e4").san, pool.reused)
    """)
    assert done.stdout.split() == ["e4", "1"]


USES: dict[str, Callable[[ActorGame], object]] = {
    "propose": lambda game: game.propose("e4"),
    "propose_squares": lambda game: game.propose_squares("e2", "e4"),
    "propose_many": lambda game: list(game.propose_many(["e4", "e5"])),
    "fen": lambda game: game.fen(),
    "legal_targets": lambda game: game.legal_targets("e2"),
    "piece": lambda game: game.piece("g1"),
    "journal": lambda game: game.journal,
    "crash": lambda game: game.crash("board"),
    "board_lies": lambda game: game.board_lies({"e4": "q"}),
}


@pytest.mark.parametrize("use", sorted(USES))
def test_an_unstarted_game_says_so_at_once_and_starts_no_thread(use: str) -> None:
    before = _actor_threads()
    game = ActorGame()
    began = time.monotonic()
    with pytest.raises(GameClosed, match=r"not started: use 'with ActorGame\(\) as game:'"):
        USES[use](game)
    assert time.monotonic() - began < 0.5
    assert _actor_threads() == before


@pytest.mark.parametrize("pooled", [False, True], ids=["own system", "pooled"])
@pytest.mark.parametrize("use", sorted(USES))
def test_a_closed_game_says_so_at_once_and_starts_no_thread(use: str, pooled: bool) -> None:
    with SystemPool() as pool:
        with ActorGame(pool=pool if pooled else None) as game:
            game.propose("e4")
        after_close = _actor_threads()
        began = time.monotonic()
        with pytest.raises(GameClosed, match="closed"):
            USES[use](game)
        assert time.monotonic() - began < 0.5
        assert _actor_threads() == after_close
        with pytest.raises(GameClosed, match="closed"):
            game.start()


@pytest.mark.parametrize("pooled", [False, True], ids=["own system", "pooled"])
def test_replies_read_after_the_block_are_a_clear_error(pooled: bool) -> None:
    with SystemPool() as pool:
        with ActorGame(pool=pool if pooled else None) as game:
            replies = game.stream_proposals(["e2e4", "e7e5"])
        with pytest.raises(GameClosed, match="closed"):
            list(replies)


@pytest.mark.parametrize("pooled", [False, True], ids=["own system", "pooled"])
def test_a_stream_read_on_after_close_sends_nothing_to_the_next_game(pooled: bool) -> None:
    moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]
    with SystemPool() as pool:
        with ActorGame(pool=pool if pooled else None) as game:
            replies = game.stream_proposals(moves, window=2)
            first = next(replies)
        assert first.san == "e4"  # type: ignore[union-attr]
        with ActorGame(pool=pool if pooled else None) as later:
            with pytest.raises(GameClosed, match="closed"):
                list(replies)
            assert later.plies == 0
            assert later.journal == ()
            assert later.propose("d4").san == "d4"  # type: ignore[union-attr]
            assert later.fen() == "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"


def test_a_dropped_game_stops_its_actors() -> None:
    before = _actor_threads()
    game = ActorGame()
    game.start()
    assert _actor_threads() > before
    del game
    deadline = time.monotonic() + 5
    while _actor_threads() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _actor_threads() == before


def test_a_dropped_pooled_game_stops_the_system_it_borrowed() -> None:
    with SystemPool() as pool:
        game = ActorGame(pool=pool)
        game.start()
        game.propose("e4")
        del game
        assert pool.discarded == 1
        assert pool.idle == 0
