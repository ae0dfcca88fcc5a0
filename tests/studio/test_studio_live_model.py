"""The live studio's model, grown a few messages at a time, is the studio's model of the whole trace:
whatever the batches and the order the messages arrive in (a reply is recorded after the messages
it led to, so a parent often comes after its children), and whatever messages it holds open (taken
up, their reply to come) meanwhile."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actors import ActorGame, TraceRecorder
from actors.studio.live_model import GrowingModel
from actors.studio.model import build_model
from actors.study.shell import Shell
from actors.tracing.event import TraceEvent

SESSION = ("e4", "e5", "Ke3", "crash board", "Nf3", "learn b8 camel", "lie hide e5", "legal b8", "lie off",
           "mode step", "Nc6", "deliver 1", "drop 3", "duplicate 1", "run", "mode auto", "Bc4", "board")


def _shell_session() -> list[TraceEvent]:
    """The messages of a session with a refusal, a crash and its heal, a lesson, a lie, and deliveries
    chosen by hand, dropped and duplicated, in the order they were recorded."""
    with Shell() as shell:
        for line in SESSION:
            shell.execute(line)
        events = shell.recorder.events()
    assert {"Restart", "Dropped", "Duplicated"} <= {event["kind"] for event in events}
    return events


def _pipelined_session() -> list[TraceEvent]:
    """Proposals pipelined behind a refused one (cancelled, they serve the refused ply), then the move
    played for that ply (a phase of its own)."""
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        game.propose_many(["e4", "e5", "Nf3", "Ke6", "Nc6", "Bb5", "a6"], window=8)
        game.propose("Nc6")
        assert game.plies == 4
    events = recorder.events()
    reasons = [str((event["reply_payload"] or {}).get("reason", "")) for event in events]
    assert sum(reason.startswith("cancelled") for reason in reasons) == 3
    return events


def _written_before_cancelling(events: list[TraceEvent]) -> list[TraceEvent]:
    """The same trace as written before cancelled proposals were marked: each names the ply it was
    meant for, which the studio folds into the refused ply's phase."""
    older = []
    for event in events:
        reply = dict(event["reply_payload"] or {})
        if str(reply.get("reason", "")).startswith("cancelled"):
            meant = event["payload"]["ply"]
            reply["reason"] = f"meant for ply {meant}, but ply 4 is next"
            event = {**event, "ply": meant, "phase": f"ply {meant}", "reply_payload": reply}  # type: ignore[assignment]
        older.append(event)
    return older


@pytest.fixture(scope="module", params=["shell", "pipelined", "pipelined, older trace"])
def session(request: pytest.FixtureRequest) -> list[TraceEvent]:
    if request.param == "shell":
        return _shell_session()
    events = _pipelined_session()
    return events if request.param == "pipelined" else _written_before_cancelling(events)


def _opened(event: TraceEvent) -> TraceEvent:
    """``event`` as the recorder gives it while its receiver handles it: no reply yet."""
    return {**event, "t_replied": None, "reply": None, "reply_payload": None, "reply_summary": None}


def _whole(model: GrowingModel) -> dict[str, Any]:
    text = model.text(0)
    data: dict[str, Any] = json.loads(text)
    assert data["from"] == 0 and data["total"] == len(data["games"][0]["phases"])
    return data


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_model_grown_in_any_batches_and_order_is_the_whole_traces(session: list[TraceEvent],
                                                                    data: st.DataObject) -> None:
    arrival = data.draw(st.permutations(session), label="arrival order") if data.draw(st.booleans()) \
        else list(session)
    model = GrowingModel("t")
    taken: list[TraceEvent] = []
    previous: list[dict[str, Any]] = []
    while len(taken) < len(arrival):
        size = data.draw(st.integers(1, 40), label="batch")
        batch = arrival[len(taken):len(taken) + size]
        # Some of the messages still to come are being handled: taken up, their reply to come.
        later = arrival[len(taken) + size:]
        opened = [_opened(event) for event in data.draw(
            st.lists(st.sampled_from(later), max_size=4, unique_by=lambda event: event["msg_id"]),
            label="open") if later] if later else []
        first = model.add(batch, opened)
        taken += batch
        expected = json.loads(json.dumps(build_model(
            taken + opened, "t", {event["msg_id"] for event in opened}), default=str))
        grown = _whole(model)
        assert grown["games"] == expected["games"]
        assert model.events == len(taken), "the open messages are not counted"
        # What the batch changed starts at ``first``: a page may keep every phase before it.
        assert first is not None and grown["games"][0]["phases"][:first] == previous[:first]
        previous = grown["games"][0]["phases"]

def test_a_model_of_the_recorded_order_rebuilds_only_the_phases_a_batch_reaches(
    session: list[TraceEvent],
) -> None:
    model = GrowingModel("t")
    model.add(session[:-3])
    before = len(model)
    first = model.add(session[-3:])
    assert first is not None and first >= before - 1, "the last command's messages reach its own phase"
    assert model.add([]) is None
