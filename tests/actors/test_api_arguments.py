"""The Python API checks what a program hands it at the client, before anything reaches an actor:
a wrong type is a TypeError, a timeout that is no number of seconds a ValueError, and a closed
session stays closed."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from actors.game.game import ActorGame
from actors.game.pool import SystemPool
from actors.game.session import CheckMoveSession
from actors.kernel.errors import GameClosed
from board.puzzles.chessmoveq import parse_json_case

BAD_TIMEOUTS = [
    (float("nan"), ValueError), (-1.0, ValueError), (0, ValueError), (float("inf"), ValueError),
    (1e300, ValueError), ("5", TypeError), (True, TypeError), (None, TypeError),
]


@pytest.mark.parametrize(("timeout", "error"), BAD_TIMEOUTS[:-1], ids=repr)
def test_a_game_refuses_a_timeout_that_is_no_number_of_seconds(timeout: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match="timeout must be"):
        ActorGame(timeout=timeout)


@pytest.mark.parametrize(("timeout", "error"), BAD_TIMEOUTS, ids=repr)
def test_a_session_and_a_pool_refuse_a_timeout_that_is_no_number_of_seconds(
    timeout: Any, error: type[Exception]
) -> None:
    with pytest.raises(error, match="timeout must be"):
        CheckMoveSession(timeout=timeout)
    with pytest.raises(error, match="timeout must be"):
        SystemPool(timeout=timeout)


@pytest.mark.parametrize("move", [None, 42, b"e4", ["e4"]], ids=repr)
def test_a_move_that_is_not_text_is_refused_at_the_client_and_the_game_goes_on(move: Any) -> None:
    with ActorGame() as game:
        with pytest.raises(TypeError, match="the move must be a string"):
            game.propose(move)
        with pytest.raises(TypeError, match="the origin square must be a string"):
            game.propose_squares(move, "e4")
        assert game.propose("e4").san == "e4"  # type: ignore[union-attr]
        assert game.plies == 1


def test_a_closed_session_refuses_to_start_again_and_starts_no_thread() -> None:
    pieces, move = parse_json_case('{"position": [["W","K",5,1],["B","K",5,8]], "move": ["W","K",5,2]}')
    session = CheckMoveSession()
    with session:
        assert session.answer(pieces, move).valid
    threads = threading.active_count()
    with pytest.raises(GameClosed, match="the session is closed"):
        session.answer(pieces, move)
    with pytest.raises(GameClosed):
        list(session.answer_many([(pieces, move)]))
    assert threading.active_count() == threads
