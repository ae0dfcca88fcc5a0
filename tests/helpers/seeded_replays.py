"""Replays of ten real games over failing links in processes of their own, and their comparison:
one seed must give one run, output and trace, whatever the process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import actors

ROOT = Path(actors.__file__).resolve().parent.parent
"""Where the code under test lives (its processes run the same code)."""
DATA = Path(__file__).resolve().parents[1] / "data"
"""The test data (tests/data)."""
TEN_GAMES = ("famous.pgn", "evergreen-game.pgn", "game-of-the-century.pgn", "kasparov-topalov-1999.pgn")
"""Ten real games: the seven famous ones, then three more."""


def replay_in_process(hash_seed: int, tmp: Path, *extra: str) -> subprocess.Popen[bytes]:
    """Start ``replay`` of the ten games at ``loss=0.5,seed=1`` in a process of its own, hashing
    strings with ``hash_seed``, its trace written to ``tmp/trace-HASH_SEED.jsonl``."""
    trace = tmp / f"trace-{hash_seed}.jsonl"
    games = [str(DATA / name) for name in TEN_GAMES]
    environment = {**os.environ, "PYTHONHASHSEED": str(hash_seed), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "actors.cli", "replay", *games, "--network", "loss=0.5,seed=1", "--json",
         "--trace", str(trace), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment, cwd=ROOT,
    )


MOMENTS = ("t_sent", "t_handled", "t_replied")
"""A trace event's wall-clock moments: the only fields a seed does not decide."""


def finished(process: subprocess.Popen[bytes], trace: Path) -> tuple[bytes, list[str]]:
    """What the process printed, and its trace's events in order, ids kept, without their wall-clock
    moments."""
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err.decode()[-2000:]
    traced = [json.loads(line) for line in trace.read_text().splitlines()]
    return out, [json.dumps({field: value for field, value in event.items() if field not in MOMENTS},
                            sort_keys=True) for event in traced]


def assert_alike(runs: list[tuple[bytes, list[str]]], dropped_at_least: int) -> None:
    """Every run printed what the first did, line for line, and traced the same events."""
    outputs = [out for out, _ in runs]
    assert len(outputs[0].splitlines()) == 10
    for number, output in enumerate(outputs[1:], start=2):
        differing = [(first, other) for first, other in zip(outputs[0].splitlines(), output.splitlines(),
                                                            strict=True) if first != other]
        assert not differing, f"run {number} differs from run 1: {differing}"
    for number, (_, events) in enumerate(runs[1:], start=2):
        first = next((index for index, (one, other) in enumerate(zip(runs[0][1], events, strict=False))
                      if one != other), min(len(events), len(runs[0][1])))
        assert events == runs[0][1], (f"run {number}'s trace differs from run 1's at event {first}: "
                                      f"{events[first:first + 1]} against {runs[0][1][first:first + 1]}")
    rows = [json.loads(line) for line in outputs[0].splitlines()]
    assert sum(row["network"]["dropped"] for row in rows) > dropped_at_least, "a run that faults a great deal"
