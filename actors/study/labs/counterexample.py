"""A check's first failure made a counterexample: a scenario file that ``chess-actors run`` replays
to the same failure, the deliveries it takes, and the delivery where the student's role first
answered otherwise than the project's (where its studio page opens).

Deliveries run one at a time in arrival order (``schedule fifo``), so the student's run and the
project's can be compared delivery by delivery.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from actors.scenario.runner import run_scenario
from actors.scenario.script import parse_scenario
from actors.study.labs.checks import Counterexample, Failure
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder

__all__ = ["counterexample", "first_difference", "scenario_text"]


def scenario_text(failure: Failure, role: str, role_file: str, heading: str) -> str:
    """The failure as a scenario: the student's class in ``role``, one delivery at a time, from the
    failure's position, its steps."""
    lines = [f"# {heading}", f"# {failure.what}",
             "# chess-actors run replays it: the same deliveries, one at a time, in arrival order.",
             f"role {role} {role_file}", "schedule fifo", f"start {failure.fen}", *failure.steps]
    return "\n".join(lines) + "\n"


def _replay(text: str, source: Path) -> tuple[bool, list[TraceEvent]]:
    """Run the scenario ``text`` (as if read from ``source``): whether a step failed, and its trace."""
    recorder = TraceRecorder()
    results = run_scenario(parse_scenario(text, str(source)), recorder=recorder)
    return any(not result.ok for result in results), recorder.events()


def first_difference(yours: Sequence[TraceEvent], projects: Sequence[TraceEvent]) -> str | None:
    """Where the studio page of ``yours`` opens: the first delivery after start-up that differs from
    the project's run of the same scenario (``phase=K&msg=M``, as the page's address names it), or
    the last delivery when none differs (the difference is in what was checked after)."""
    from actors.studio.model import build_model

    phases = build_model(list(yours), "yours")["games"][0]["phases"]
    theirs = build_model(list(projects), "the project's")["games"][0]["phases"] if projects else []
    last: str | None = None
    for index, phase in enumerate(phases):
        if phase["kind"] == "startup":
            continue
        other = theirs[index]["events"] if index < len(theirs) else []
        for position, event in enumerate(phase["events"]):
            where = f"phase={index + 1}&msg={position + 1}"
            mine = (event["from"], event["to"], event["kind"], event["payload"], event["reply_payload"])
            if position >= len(other):
                return where
            found = other[position]
            if mine != (found["from"], found["to"], found["kind"], found["payload"], found["reply_payload"]):
                return where
            last = where
    return last


def counterexample(failure: Failure, role: str, role_file: Path, heading: str,
                   folder: Path) -> tuple[Counterexample, list[TraceEvent]]:
    """``failure`` as a counterexample whose scenario names ``role_file`` relative to ``folder``
    (where the scenario is written), checked by running it: with the student's class the run must
    fail as the check did; with it, the trace of that run (for its studio page)."""
    try:
        named = str(role_file.resolve().relative_to(folder.resolve()))
    except ValueError:
        named = str(role_file.resolve())
    text = scenario_text(failure, role, named, heading)
    source = folder / "counterexample.scenario"
    failed, yours = _replay(text, source)
    if not failed:
        text += "# (run as it is, this scenario passes: the failure needs the game's history before it)\n"
    project_text = "\n".join(line for line in text.splitlines() if not line.startswith("role ")) + "\n"
    _, projects = _replay(project_text, source)
    deliveries = sum(1 for event in yours if event.get("phase") != "startup")
    return Counterexample(failure.what, text, deliveries, first_difference(yours, projects)), yours
