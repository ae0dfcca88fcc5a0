"""Messages hold integers and read by name: a repr and a trace payload name the same things from the one
table of field meanings, and the edges (the game's methods, the scenario reader) take names and refuse
one that means nothing."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from actors import ActorGame, TraceRecorder, protocol
from actors.protocol import ProbeSurvey
from actors.protocol.readable import readable
from actors.study.script import parse_scenario
from actors.tracing.recorder import Delivery
from board.errors import InputError, SquareError
from board.rules.declared_facts import Probe
from board.rules.pieces import BLACK, KNIGHT, PAWN, WHITE
from board.rules.squares import parse_standard_square as square

# Castling both ways, en passant, a promotion with capture, checks: most of the protocol is spoken.
MOVES = ["e4", "d5", "exd5", "c5", "dxc6", "Nf6", "cxb7", "Bd7", "bxa8=Q", "Qc8", "Nf3", "e6", "Be2",
         "Bc5", "O-O", "O-O", "Qxb8", "Qxb8", "d4", "Bxd4", "Nxd4", "Qxh2+", "Kxh2", "Ng4+"]  # fmt: skip
# Messages that change what their receiver holds: sent again, they would play the game on.
CHANGES = {"Apply", "Moved", "Captured", "Promote", "Seat", "Place", "Setup", "Learn", "Declare", "Record",
           "RecordStart", "RecordTeaching", "Reset", "Begin", "ProposeText", "ProposeSquares", "Resync",
           "Describe"}  # fmt: skip


def _recorded_game() -> list[Delivery]:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        replies = game.propose_many(MOVES)
        assert [reply.san for reply in replies] == MOVES  # type: ignore[union-attr]
        game.legal_targets("e7")
        game.fen()
    return recorder.deliveries()


def test_the_issue_example_is_made_from_numbers_and_printed_by_name() -> None:
    query = protocol.MoveQuery(start=square("b1"), end=square("c3"), colour=WHITE)
    assert query == protocol.MoveQuery(1, 18, 0)
    assert repr(query) == "MoveQuery(start='b1', end='c3', colour='white')"
    with ActorGame() as game:
        answer = game.ask(game.piece("b1").name, query)
        assert answer == protocol.Yes(1, 18, (), "any", 2)
        assert repr(answer) == (
            "Yes(origin='b1', target='c3', traversed=(), target_rule='any', code='white knight')"
        )
        assert repr(game.ask("referee", protocol.LegalTargetsQuery(square=square("g1")))) == (
            "LegalTargets(square='g1', targets=('f3', 'h3'))"
        )
        accepted = game.ask("referee", protocol.ProposeSquares(square("g1"), square("f3"), 0, 1))
        assert isinstance(accepted, protocol.Accepted) and accepted.san == "Nf3"
        report = game.ask("board", protocol.Survey(colour=BLACK, kind=KNIGHT, target=square("c6")))
        assert [piece.origin for piece in report.pieces if piece.path is not None] == [square("b8")]


def test_a_survey_that_names_a_file_reports_the_pieces_of_that_file_alone() -> None:
    with ActorGame("4k3/8/8/8/8/8/PPP1P3/4K3 w - - 0 1") as game:
        every = game.ask("board", protocol.Survey(WHITE, PAWN, square("c4")))
        assert [piece.origin for piece in every.pieces] == [8, 9, 10, 12]  # a2, b2, c2, e2
        named = protocol.Survey(WHITE, PAWN, square("c4"), file=2)
        assert repr(named).endswith("file='c')")
        assert [piece.origin for piece in game.ask("board", named).pieces] == [10]
        d_file = protocol.Survey(WHITE, PAWN, square("d3"), file=3)
        assert game.ask("board", d_file).pieces == ()
        assert game.propose("c4").san == "c4"  # the referee's own survey of the c-file


def _as_shown(value: Any) -> Any:
    """A payload value in a repr's shape: lists are tuples, and a dict naming a value's parts is the
    tuple of them (a sighting's ``{"square": "e4", "piece": ...}`` is ``("e4", ...)``)."""
    if isinstance(value, list):
        return tuple(_as_shown(item) for item in value)
    if isinstance(value, dict):
        return tuple(_as_shown(item) for item in value.values())
    return value


def test_a_messages_repr_and_its_trace_payload_name_the_same_things() -> None:
    """Every message and reply of a game: each field its repr shows reads as its payload does (one
    table of field meanings serves both)."""
    kinds = set()
    for delivery in _recorded_game():
        kinds.add(delivery.kind)
        answers = [delivery.answer] if delivery.t_replied is not None else []
        for message in [delivery.message, *answers]:
            if not dataclasses.is_dataclass(message) or isinstance(message, BaseException):
                continue
            payload = readable(message)
            printed = repr(message)
            for field in dataclasses.fields(message):
                value = getattr(message, field.name)
                if field.repr and not any(map(dataclasses.is_dataclass, (value, *_items(value)))):
                    shown = f"{field.name}={_as_shown(payload[field.name])!r}"
                    assert shown in printed, f"{shown} is not in {printed}"
    # The game above speaks to every role: proposals, surveys, the move query, the board's tells.
    spoken = {"ProposeText", "Survey", "MoveQuery", "Apply", "Moved", "CastleQuery", "LegalTargetsQuery"}
    assert spoken <= kinds


def _items(value: object) -> tuple[object, ...]:
    return value if isinstance(value, tuple) else ()


@pytest.mark.parametrize("ply", [1, 5, 9, 16, 22])
def test_a_query_asked_again_in_the_same_position_gets_the_reply_the_game_got(ply: int) -> None:
    """Each question asked during a ply before its move is applied, asked again of the same actor in
    the position before that ply, gets the answer recorded."""
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
            message: Any = delivery.message
            answer = game.ask(delivery.receiver, message)
            assert repr(answer) == repr(delivery.answer), repr(delivery.message)


def test_values_of_the_rules_inside_a_message_read_by_name_too() -> None:
    survey = ProbeSurvey(WHITE, (Probe(square("c1"), square("g5"), (square("d2"), square("e3"))),))
    assert repr(survey) == (
        "ProbeSurvey(colour='white', probes=(Probe(origin='c1', target='g5', traversed=('d2', 'e3'),"
        " en_passant=False, target_rule='any'),))"
    )


def test_a_number_that_is_no_square_is_printed_as_it_is() -> None:
    assert repr(protocol.MoveQuery(64, -1, 2)) == "MoveQuery(start=64, end=None, colour=2)"


def test_a_name_that_means_nothing_is_refused_at_the_edges() -> None:
    with ActorGame() as game:
        with pytest.raises(SquareError, match="z9"):
            game.piece("b1").move_query("z9", "c3")
        with pytest.raises(SquareError, match="z9"):
            game.legal_targets("z9")
    with pytest.raises(InputError, match="z9"):
        parse_scenario("learn z9 camel\n")
