"""Saved sessions run again: the traces a session and ``chess-actors run`` write, compared event by event."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def untimed(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each event with its times left out (``t_sent``, ``t_handled``, ``t_replied``): what two runs of
    the same conversation must share, in the same order."""
    return [{key: value for key, value in event.items() if not key.startswith("t_")} for event in events]


def read_trace(path: Path) -> list[dict[str, Any]]:
    """A trace file's events, in the order they were written."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def run_saved(script: Path, trace: Path) -> subprocess.CompletedProcess[str]:
    """``chess-actors run SCRIPT --trace TRACE``, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "actors.cli", "run", str(script), "--trace", str(trace)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)


def first_difference(session: list[dict[str, Any]], replayed: list[dict[str, Any]]) -> str:
    """Where two untimed traces part, for a failing assertion's message ('' when they are equal)."""
    for index, (one, other) in enumerate(zip(session, replayed, strict=False)):
        if one != other:
            return f"event {index} differs:\n  session: {one}\n  run:     {other}"
    if len(session) != len(replayed):
        return f"the session has {len(session)} events, run {len(replayed)}"
    return ""
