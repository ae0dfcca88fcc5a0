"""A message delivered is drawn at once: in step mode the live studio's model has the messages taken up
by their receiver whose reply is still to come, marked ``open``, and they close when answered."""

from __future__ import annotations

import json
from typing import Any

from actors import ActorGame, TraceRecorder
from actors.studio.live import LiveGame
from actors.studio.model import build_model


def _messages(live: LiveGame) -> list[dict[str, Any]]:
    model = live.state(whole=True)["model"]
    return [event for phase in model["games"][0]["phases"] for event in phase["events"]]


def test_step_mode_shows_a_delivered_proposal_before_its_verdict() -> None:
    with LiveGame() as live:
        assert live.run_lines(["mode step", "play e4"]) == []
        assert not any(event.get("open") for event in _messages(live)), "nothing delivered yet"
        assert live.run_lines(["deliver 1"]) == []  # the referee takes the proposal up and asks on
        [opened] = [event for event in _messages(live) if event.get("open")]
        assert (opened["kind"], opened["from"], opened["to"], opened["reply"]) == (
            "ProposeText", "client", "referee", None)
        assert live.state()["messages"] == len(live.shell.recorder.events()), "counted once answered"
        assert live.run_lines(["run"]) == []
        messages = _messages(live)
        assert not any(event.get("open") for event in messages)
        [proposal] = [event for event in messages if event["id"] == opened["id"]]
        assert proposal["reply_summary"] == "Accepted e4"
        assert live.shell.recorder.handling == {}


def test_a_recorder_keeps_no_open_deliveries_unless_asked() -> None:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        game.propose("e4")
    assert recorder.handling is None and recorder.being_handled() == []


def test_a_message_drawn_open_is_then_drawn_answered_once_in_the_states_a_page_gets() -> None:
    """A page keeps the phases before each state's ``from`` and replaces the rest: the proposal drawn
    open after ``deliver 1`` is, after ``run``, the answered proposal, once, and the page's phases are
    the studio's model of the whole trace."""
    states: list[dict[str, Any]] = []
    with LiveGame() as live:
        assert live.run_lines(["mode step", "play e4"]) == []
        phases: list[dict[str, Any]] = live.state(whole=True)["model"]["games"][0]["phases"]
        stop = live.join(lambda text: states.append(json.loads(text)) if '"type":"state"' in text else None)
        unsubscribe = stop.result(timeout=10)
        for line in ("deliver 1", "run"):
            live.submit(line).result(timeout=10)
        unsubscribe()
        whole = build_model(live.shell.recorder.events(), "chess-actors live studio")["games"][0]["phases"]
    drawn = []
    for state in states[1:]:  # the first is what a new page gets: the phases above
        model = state["model"]
        assert not model["reset"]
        phases[model["from"]:] = model["games"][0]["phases"]
        drawn.append([event for phase in phases for event in phase["events"]])
    after_deliver, after_run = drawn
    [opened] = [event for event in after_deliver if event.get("open")]
    assert opened["kind"] == "ProposeText" and opened["reply"] is None
    ids = [event["id"] for event in after_run]
    assert len(ids) == len(set(ids)) and ids.count(opened["id"]) == 1
    assert not any(event.get("open") for event in after_run)
    assert phases == json.loads(json.dumps(whole, default=str))
