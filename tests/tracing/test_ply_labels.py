"""Ply numbers in a trace count the plies played: a question asked after the last move serves no ply,
so a 33-ply game's trace, its studio page and ``trace --plies`` all say 33."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from actors import ActorGame, TraceRecorder
from actors.studio.model import build_model

ROOT = Path(__file__).resolve().parents[2]
OPERA_PLIES = 33  # the embedded game: Morphy's Opera game, 17. Rd8#


def _replay_trace(tmp_path: Path) -> list[dict[str, object]]:
    trace = tmp_path / "opera.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", "--json", "--trace", str(trace)],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["plies"] == OPERA_PLIES
    return [json.loads(line) for line in trace.read_text().splitlines()]


def test_the_questions_after_the_last_move_serve_no_ply(tmp_path: Path) -> None:
    events = _replay_trace(tmp_path)
    plies = {event["ply"] for event in events if event["ply"] is not None}
    assert max(plies) == OPERA_PLIES  # type: ignore[type-var]
    last = events[-1]
    assert last["kind"] == "FenQuery" and last["ply"] is None and last["phase"] is None


def test_the_studio_picker_counts_the_plies_played(tmp_path: Path) -> None:
    model = build_model(_replay_trace(tmp_path))  # type: ignore[arg-type]
    [game] = model["games"]
    assert sum(phase["kind"] == "ply" for phase in game["phases"]) == OPERA_PLIES


def test_trace_plies_names_the_plies_the_game_has(tmp_path: Path) -> None:
    _replay_trace(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "trace", str(tmp_path / "opera.jsonl"), "--to", "markdown",
         "--plies", "40-50"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
    )
    assert result.returncode == 2
    assert "(the trace has plies 1-33)" in result.stderr


def test_a_question_between_moves_is_not_counted_in_the_next_ply() -> None:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        game.propose("e4")
        game.legal_targets("g8")
        game.propose("e5")
    events = recorder.events()
    asked = [event for event in events if event["kind"] == "LegalTargetsQuery"]
    assert [event["ply"] for event in asked] == [None]
    assert {event["ply"] for event in events if event["kind"] == "ProposeText"} == {1, 2}
