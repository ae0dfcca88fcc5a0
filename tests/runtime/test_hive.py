"""Many answering actors on one thread: a ChessMoveQ session's pieces share a hive, each keeping its own
name, state and crash."""

from __future__ import annotations

import threading

import pytest

from actors import ActorUnavailable, CheckMoveSession
from actors.kernel.hive import Hive, Member
from actors.kernel.messaging import Directory, Envelope, ask, tell, wait_one
from actors.protocol import Crash, MoveQuery, Yes
from actors.roles.piece import PieceActor
from board.puzzles.chessmoveq import answer, parse_move, parse_position
from board.rules.pieces import WHITE
from board.rules.squares import parse_standard_square

# White: king e1, knights b1 and g1, a rook a1; black: king e8, a queen d8.
POSITION = [["W", "K", 5, 1], ["W", "N", 2, 1], ["W", "N", 7, 1], ["W", "R", 1, 1], ["B", "K", 5, 8],
            ["B", "Q", 4, 8]]  # fmt: skip


def test_a_sessions_pieces_share_one_thread() -> None:
    before = {thread.ident for thread in threading.enumerate()}
    with CheckMoveSession() as session:
        placed = parse_position(POSITION)
        move = parse_move(["W", "N", 3, 3])
        assert session.answer(placed, move) == answer(placed, move)
        assert session.supervisor is not None
        pieces = [session.supervisor.ref(name) for name in session.supervisor.names()
                  if name not in ("board", "referee")]  # fmt: skip
        assert len(pieces) == 6 and all(isinstance(piece, Member) for piece in pieces)
        started = [thread.name for thread in threading.enumerate() if thread.ident not in before]
        assert sorted(name.split("-")[0] for name in started) == [
            "BoardActor",
            "HiveActor",
            "PositionRefereeActor",
        ]


B1, C1, C3, E3 = (parse_standard_square(name) for name in ("b1", "c1", "c3", "e3"))


def test_a_member_that_crashes_stops_alone_and_its_siblings_answer_on() -> None:
    directory = Directory()
    hive = Hive()
    try:
        knight = hive.adopt(PieceActor("white-knight-1", 2, 1, False, directory))  # Nb1
        bishop = hive.adopt(PieceActor("white-bishop-1", 3, 2, False, directory))  # Bc1
        asked = wait_one(
            *ask(knight, "white-knight-1", Envelope(MoveQuery(B1, C3, WHITE), "t", None, None)), 5.0
        )
        assert isinstance(asked, Yes) and asked.target == 18
        tell(knight, Envelope(Crash(), "t", None, None))
        knight.actor_stopped.wait(5.0)
        assert not knight.is_alive() and hive.is_alive()
        with pytest.raises(ActorUnavailable, match="white-knight-1 is not running"):
            ask(knight, "white-knight-1", Envelope(MoveQuery(B1, C3, WHITE), "t", None, None))
        answered = wait_one(
            *ask(bishop, "white-bishop-1", Envelope(MoveQuery(C1, E3, WHITE), "t", None, None)), 5.0
        )
        assert isinstance(answered, Yes) and answered.traversed == (11,)  # via d2
    finally:
        hive.ref.stop()
    assert not bishop.is_alive(), "a member lives no longer than its hive"
