"""Readable payloads and summaries of the real protocol messages, and the phases a game's trace marks."""

from __future__ import annotations

import json

import chess
from hypothesis import given
from hypothesis import strategies as st

from actors.game.game import ActorGame
from actors.protocol import (
    Accepted,
    MoveQuery,
    Probe,
    ProbeSurvey,
    ProposeSquares,
    ProposeText,
    Rejected,
    Roster,
    RosterEntry,
    Survey,
    Yes,
)
from actors.protocol.readable import readable, readable_reply, summarize
from actors.study.runner import run_scenario
from actors.study.script import parse_scenario
from actors.tracing.event import FORMAT_VERSION
from actors.tracing.recorder import SCHEMA_FIELDS, TraceRecorder
from board.rules.pieces import BISHOP, BLACK, KNIGHT, PAWN, WHITE, piece_code

squares = st.integers(min_value=0, max_value=63)


@given(start=squares, end=squares, colour=st.sampled_from([WHITE, BLACK]))
def test_a_move_query_names_its_squares_and_colour_like_python_chess(
    start: int, end: int, colour: int
) -> None:
    payload = readable(MoveQuery(start, end, colour))
    assert payload == {
        "start": chess.square_name(start),
        "end": chess.square_name(end),
        "colour": "white" if colour == WHITE else "black",
    }
    assert summarize("MoveQuery", payload) == f"MoveQuery {chess.square_name(start)}→{chess.square_name(end)}"


@given(traversed=st.lists(squares, max_size=6))
def test_a_yes_lists_its_traversed_squares_by_name(traversed: list[int]) -> None:
    payload = readable(Yes(chess.C1, chess.H6, tuple(traversed)))
    assert (payload["origin"], payload["target"]) == ("c1", "h6")
    assert payload["traversed"] == [chess.square_name(square) for square in traversed]
    names = ",".join(chess.square_name(square) for square in traversed) or "—"
    assert summarize("Yes", payload) == f"Yes via {names}"


def test_proposals_read_as_their_text_or_squares() -> None:
    payload = readable(ProposeText("Nf3", 4))
    assert payload == {"text": "Nf3", "ply": 4, "colour": None}
    assert summarize("ProposeText", payload) == "Propose Nf3"
    squares = readable(ProposeSquares(chess.G1, chess.F3, 0, 4))
    assert summarize("ProposeSquares", squares) == "Propose g1→f3"


def test_nested_probes_and_sightings_are_readable_all_the_way_down() -> None:
    survey = ProbeSurvey(WHITE, (Probe(chess.C1, chess.G5, (chess.D2, chess.E3, chess.F4)),))
    payload = readable(survey)
    assert payload["probes"][0]["traversed"] == ["d2", "e3", "f4"]
    assert payload["probes"][0]["origin"] == "c1"
    assert summarize("ProbeSurvey", payload) == "ProbeSurvey 1 probe"
    assert summarize("Survey", readable(Survey(WHITE, KNIGHT, chess.F3))) == "Survey white knights → f3"
    pawns = readable(Survey(WHITE, PAWN, chess.E4, file=4))
    assert summarize("Survey", pawns) == "Survey white pawns of the e-file → e4"
    roster = Roster(
        (RosterEntry(chess.G1, piece_code(WHITE, KNIGHT), "white-knight-g1", False),),
        0,
        bytes(64),
    )
    reply = readable_reply(roster)
    assert reply["entries"][0]["code"] == "white knight"
    assert reply["placement"] == "8/8/8/8/8/8/8/8"
    assert json.loads(json.dumps(reply)) == reply


def test_replies_and_failures_summarize_in_one_line() -> None:
    assert summarize("Rejected", readable(Rejected("Bc4", "the bishop on c1 is blocked by d2"))) == (
        "Rejected: the bishop on c1 is blocked by d2"
    )
    assert summarize("Accepted", readable(Accepted("g1f3", "Nf3", False, None))) == "Accepted Nf3"
    failure = readable_reply(TimeoutError("board did not answer within 2 s"))
    assert summarize("TimeoutError", failure) == "TimeoutError: board did not answer within 2 s"
    generic = summarize("Unheard", {"count": 3, "note": "x" * 500})
    assert generic.startswith("Unheard count=3 note=") and len(generic) <= 120


def test_a_games_trace_marks_startup_then_each_ply() -> None:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        game.propose("e4")
        rejected = game.propose("Bc4")  # black to move, and both black bishops are shut in
        game.propose("e5")
    events = recorder.events()
    assert all(list(event) == list(SCHEMA_FIELDS) and event["format"] == FORMAT_VERSION for event in events)
    phases = [event["phase"] for event in sorted(events, key=lambda event: event["msg_id"])]
    first_ply = phases.index("ply 1")
    assert set(phases[:first_ply]) == {"startup"}, "start-up messages come first and are labelled so"
    assert {"TargetsQuery", "Begin", "Gather"} <= {
        event["kind"] for event in events if event["phase"] == "startup"
    }
    verdicts = [event for event in events if event["kind"] == "ProposeText"]
    assert [event["phase"] for event in verdicts] == ["ply 1", "ply 2", "ply 2"]
    assert isinstance(rejected, Rejected)
    assert verdicts[1]["reply_summary"] == f"Rejected: {rejected.reason}"
    assert verdicts[2]["reply_summary"] == "Accepted e5"


def test_scenario_steps_and_healing_are_phases_of_their_own() -> None:
    scenario = parse_scenario("start startpos\nplay e4\ncrash board\nplay e5\nrestarts 1\n")
    recorder = TraceRecorder()
    results = run_scenario(scenario, recorder=recorder)
    assert all(result.ok for result in results)
    phases = {event["phase"] for event in recorder.events()}
    # Step 1 is the 'start' line, which sends nothing; a move's messages serve its ply, as in a replay.
    assert {"startup", "ply 1", "step 3", "ply 2", "heal"} <= phases
    assert not {"step 1", "step 2", "step 4"} & phases
    crash = next(event for event in recorder.events() if event["kind"] == "Crash")
    assert crash["phase"] == "step 3" and crash["reply_payload"] is not None
    assert crash["reply_payload"]["error"] == "InjectedCrash"
    restarts = [event for event in recorder.events() if event["kind"] == "Restart"]
    assert [(event["receiver"], event["phase"], event["summary"]) for event in restarts] == [
        ("board", "heal", "Restart board")
    ], "the trace says which actor the supervisor restarted"


def test_piece_codes_name_colour_and_kind() -> None:
    entry = readable(RosterEntry(chess.C8, piece_code(BLACK, BISHOP), "black-bishop-c8", False))
    assert entry == {"square": "c8", "code": "black bishop", "name": "black-bishop-c8", "has_moved": False}
