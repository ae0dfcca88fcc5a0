"""A message's repr is the call that makes it: built from its repr, a message equals the one printed,
and an actor sent it answers as it answered the original."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import actors
import actors.protocol
from actors import ActorGame, TraceRecorder
from actors.tracing.recorder import Delivery

# Castling both ways, en passant, a promotion with capture, checks: most of the protocol is spoken.
MOVES = ["e4", "d5", "exd5", "c5", "dxc6", "Nf6", "cxb7", "Bd7", "bxa8=Q", "Qc8", "Nf3", "e6", "Be2",
         "Bc5", "O-O", "O-O", "Qxb8", "Qxb8", "d4", "Bxd4", "Nxd4", "Qxh2+", "Kxh2", "Ng4+"]  # fmt: skip
# Messages that change what their receiver holds: sent again, they would play the game on.
CHANGES = {"Apply", "Moved", "Captured", "Promote", "Seat", "Place", "Setup", "Learn", "Declare", "Record",
           "RecordStart", "RecordTeaching", "Reset", "Begin", "ProposeText", "ProposeSquares", "Resync",
           "Describe"}  # fmt: skip
NAMESPACE: dict[str, Any] = {name: getattr(actors.protocol, name) for name in actors.protocol.__all__}


def _rebuilt(value: object) -> object:
    return eval(repr(value), dict(NAMESPACE))  # the repr of a message is a call over NAMESPACE's classes


def _as_printed(message: Any) -> Any:
    """``message`` with the fields its repr leaves out (``Yes.onward``: the reach the piece will declare
    from its target) at their defaults: what a message built from the repr holds."""
    hidden = {field.name: field.default for field in dataclasses.fields(message) if not field.repr}
    return dataclasses.replace(message, **hidden) if hidden else message


def _recorded_game() -> list[Delivery]:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        replies = game.propose_many(MOVES)
        assert [reply.san for reply in replies] == MOVES  # type: ignore[union-attr]
        game.legal_targets("e7")
        game.fen()
    return recorder.deliveries()


def test_the_issue_example_is_made_and_answered_by_name() -> None:
    query = actors.MoveQuery(start="b1", end="c3", colour="white")
    assert query == actors.MoveQuery(1, 18, 0)
    assert repr(query) == "MoveQuery(start='b1', end='c3', colour='white')"
    with ActorGame() as game:
        answer = game.ask(game.piece("b1").name, query)
        assert _as_printed(answer) == actors.Yes(origin="b1", target="c3", traversed=(), code="white knight")
        assert repr(game.ask("referee", actors.LegalTargetsQuery(square="g1"))) == (
            "LegalTargets(square='g1', targets=('f3', 'h3'))"
        )
        accepted = game.ask("referee", actors.ProposeSquares(origin="g1", target="f3", promotion=None, ply=1))
        assert isinstance(accepted, actors.Accepted) and accepted.san == "Nf3"
        survey = actors.Survey(colour="black", kind="knight", target="c6", en_passant=None, check=False)
        report = game.ask("board", survey)
        assert [piece.origin for piece in report.pieces if piece.path is not None] == [57]  # b8


def test_a_survey_that_names_a_file_reports_the_pieces_of_that_file_alone() -> None:
    with ActorGame("4k3/8/8/8/8/8/PPP1P3/4K3 w - - 0 1") as game:
        every = game.ask("board", actors.Survey(colour="white", kind="pawn", target="c4"))
        assert [piece.origin for piece in every.pieces] == [8, 9, 10, 12]  # a2, b2, c2, e2
        named = actors.Survey(colour="white", kind="pawn", target="c4", file="c")
        assert repr(named).endswith("file='c')")
        assert [piece.origin for piece in game.ask("board", named).pieces] == [10]
        d_file = actors.Survey(colour="white", kind="pawn", target="d3", file="d")
        assert game.ask("board", d_file).pieces == ()
        assert game.propose("c4").san == "c4"  # the referee's own survey of the c-file


def test_every_message_and_reply_of_a_game_is_built_back_from_its_repr() -> None:
    kinds = set()
    for delivery in _recorded_game():
        kinds.add(delivery.kind)
        assert _rebuilt(delivery.message) == _as_printed(delivery.message), repr(delivery.message)
        if delivery.t_replied is not None and not isinstance(delivery.answer, BaseException):
            assert _rebuilt(delivery.answer) == _as_printed(delivery.answer), repr(delivery.answer)
    # The game above speaks to every role: proposals, surveys, the move query, the board's tells.
    spoken = {"ProposeText", "Survey", "MoveQuery", "Apply", "Moved", "CastleQuery", "LegalTargetsQuery"}
    assert spoken <= kinds


@pytest.mark.parametrize("ply", [1, 5, 9, 16, 22])
def test_a_query_built_from_its_repr_gets_the_reply_the_game_got(ply: int) -> None:
    """Each question asked during a ply before its move is applied, built from its printed form and asked
    again of the same actor in the position before that ply, gets the answer recorded."""
    deliveries = [delivery for delivery in _recorded_game() if delivery.ply == ply]
    applied = min(delivery.msg_id for delivery in deliveries if delivery.kind == "Apply")
    queries = [
        delivery for delivery in deliveries
        if delivery.msg_id < applied and delivery.kind not in CHANGES and delivery.t_replied is not None
        and delivery.sender != "client"
    ]  # fmt: skip
    assert queries, f"no question asked during ply {ply}"
    with ActorGame() as game:
        game.propose_many(MOVES[: ply - 1])
        for delivery in queries:
            answer = game.ask(delivery.receiver, _rebuilt(delivery.message))
            assert repr(answer) == repr(delivery.answer), repr(delivery.message)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("MoveQuery(start='z9', end='c3', colour='white')", "z9"),
        ("MoveQuery(start='b1', end='c3', colour='green')", "green"),
        ("Promote(kind='dragon', square='a8')", "not a piece kind: 'dragon'"),
        ("Seat(square='a1', has_moved=False, code='white')", "not a piece: 'white'"),
    ],
)
def test_a_name_that_means_nothing_is_refused_when_the_message_is_made(text: str, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        _rebuilt_text(text)


def _rebuilt_text(text: str) -> object:
    return eval(text, dict(NAMESPACE))  # test input written above
