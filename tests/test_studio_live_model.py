"""The live studio's model, grown a few messages at a time, is the studio's model of the whole trace:
whatever the batches and the order the messages arrive in (a reply is recorded after the messages
it led to, so a parent often comes after its children)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actors.scenario.shell import Shell
from actors.studio.live_model import GrowingModel
from actors.studio.model import build_model
from actors.tracing.event import TraceEvent

SESSION = ("e4", "e5", "Ke3", "crash board", "Nf3", "learn b8 camel", "lie hide e5", "legal b8", "lie off",
           "mode step", "Nc6", "deliver 1", "drop 3", "duplicate 1", "run", "mode auto", "Bc4", "board")


@pytest.fixture(scope="module")
def session() -> list[TraceEvent]:
    """The messages of a session with a refusal, a crash and its heal, a lesson, a lie, and deliveries
    chosen by hand, dropped and duplicated, in the order they were recorded."""
    with Shell() as shell:
        for line in SESSION:
            shell.execute(line)
        events = shell.recorder.events()
    assert {"Restart", "Dropped", "Duplicated"} <= {event["kind"] for event in events}
    return events


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
        first = model.add(batch)
        taken += batch
        expected = json.loads(json.dumps(build_model(taken, "t"), default=str))
        grown = _whole(model)
        assert grown["games"] == expected["games"]
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
