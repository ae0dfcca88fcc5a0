"""Proposals sent behind a refused one are cancelled, not plies: a game stopped by an illegal move at ply
10 has a trace and a studio page that know plies 1-10 only, the proposals pipelined after the refusal
folded into ply 10's phase and marked as cancelled."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from actors import ActorGame, TraceRecorder
from actors.protocol import ProposeText
from actors.roles.registered import REFEREE
from actors.studio.live import LiveGame
from actors.studio.model import build_model

ROOT = Path(__file__).resolve().parents[2]
# Black's king cannot go e8 -> e6 at ply 10; four more moves follow it in the file.
GAME = '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Ke6 6. Re1 b5 7. Bb3 d6 *\n'
PLAYED = 9


def _replayed(tmp_path: Path) -> list[dict[str, Any]]:
    source, trace = tmp_path / "stopped.pgn", tmp_path / "stopped.jsonl"
    source.write_text(GAME, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", str(source), "--json", "--trace", str(trace)],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)["plies"] == PLAYED
    return [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]


def test_the_replay_trace_names_no_ply_after_the_refused_one(tmp_path: Path) -> None:
    events = _replayed(tmp_path)
    assert max(event["ply"] for event in events if event["ply"] is not None) == PLAYED + 1
    assert {event["phase"] for event in events} <= {"startup", None, *(f"ply {n}" for n in range(1, 11))}
    proposals = [event for event in events if event["kind"] == "ProposeText" and event["ply"] == PLAYED + 1]
    assert [event["payload"]["text"] for event in proposals] == ["Ke6", "Re1", "b5", "Bb3", "d6"]
    assert proposals[0]["reply_summary"] == "Rejected: no king can reach e6"
    for cancelled in proposals[1:]:
        assert cancelled["phase"] == "ply 10"
        assert cancelled["reply_summary"] == "Rejected: cancelled: sent behind ply 10, which was refused"
        assert "meant for ply" not in cancelled["reply_summary"]


def test_the_studio_folds_the_cancelled_proposals_into_the_refused_ply(tmp_path: Path) -> None:
    [game] = build_model(_replayed(tmp_path))["games"]  # type: ignore[arg-type]
    plies = [phase for phase in game["phases"] if phase["kind"] == "ply"]
    assert [phase["label"] for phase in plies] == [f"ply {n}" for n in range(1, 11)]
    refused = plies[-1]
    assert refused["refused"] and refused["cancelled"] == 4 and refused["move"] is None
    proposals = [event for event in refused["events"] if event["kind"] == "ProposeText"]
    assert [event.get("cancelled", False) for event in proposals] == [
        False, True, True, True, True,
    ]
    assert not any(phase["refused"] for phase in plies[:-1])


def test_a_trace_written_before_cancelled_proposals_were_marked_is_folded_too(tmp_path: Path) -> None:
    # Such a trace tags each proposal sent behind the refusal with the ply it was meant for.
    events = _replayed(tmp_path)
    for event in events:
        reply = event["reply_payload"] or {}
        if str(reply.get("reason", "")).startswith("cancelled"):
            meant = event["payload"]["ply"]
            event["ply"], event["phase"] = meant, f"ply {meant}"
            reply["reason"] = f"meant for ply {meant}, but ply 10 is next"
    assert {event["phase"] for event in events} >= {"ply 11", "ply 14"}
    [game] = build_model(events)["games"]  # type: ignore[arg-type]
    plies = [phase for phase in game["phases"] if phase["kind"] == "ply"]
    assert [phase["label"] for phase in plies] == [f"ply {n}" for n in range(1, 11)]
    assert (plies[-1]["refused"], plies[-1]["cancelled"]) == (True, 4)


def test_pipelined_proposals_behind_a_refusal_serve_the_refused_ply() -> None:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        game.propose_many(["e4", "e5", "Nf3", "Ke6", "Nc6", "Bb5", "a6"], window=8)
        assert game.plies == 3
    proposals = [event for event in recorder.events() if event["kind"] == "ProposeText"]
    assert [(event["payload"]["text"], event["ply"]) for event in proposals] == [
        ("e4", 1), ("e5", 2), ("Nf3", 3), ("Ke6", 4), ("Nc6", 4), ("Bb5", 4), ("a6", 4),
    ]


def test_a_proposal_for_another_ply_with_no_refusal_before_it_is_still_stale() -> None:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        game.propose("e4")
        early = game.ask(REFEREE, ProposeText("Nf3", 5))
        assert early.reason == "meant for ply 5, but ply 2 is next"  # type: ignore[attr-defined]
    [event] = [event for event in recorder.events() if event["payload"].get("ply") == 5]
    assert event["ply"] == 5


def test_a_move_played_after_a_refused_one_is_a_phase_of_its_own() -> None:
    with LiveGame("startpos") as live:
        assert live.run_lines(["play e4", "play e5"]) == []
        refused = live.run_lines(["play Ke3"])
        assert refused and refused[0]["accepted"] is False
        assert live.run_lines(["play Nf3"]) == []
        model = live.state(whole=True)["model"]
    phases = [phase for phase in model["games"][0]["phases"] if phase["kind"] == "ply"]
    assert [(phase["label"], phase["refused"], (phase["move"] or {}).get("san")) for phase in phases] == [
        ("ply 1", False, "e4"), ("ply 2", False, "e5"), ("ply 3", True, None), ("ply 3", False, "Nf3"),
    ]
    refusal, move = phases[2:]
    assert {event["kind"] for event in refusal["events"]} >= {"ProposeText"}
    assert all(event["id"] < move["events"][0]["id"] for event in refusal["events"])
