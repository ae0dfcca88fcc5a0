"""A message delivered is drawn at once: in step mode the live studio's model has the messages taken up
by their receiver whose reply is still to come, marked ``open``, and they close when answered."""

from __future__ import annotations

from typing import Any

from actors import ActorGame, TraceRecorder
from actors.studio.live import LiveGame


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
