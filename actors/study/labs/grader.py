"""Checking a student's file for a lab: its class plugged into the project's actors, each of the
lab's checks run in turn, the first failure made a counterexample, and the report as a table's
rows, as JSON, or as Gradescope's ``results.json``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from actors.roles.supervisor import STANDARD_ROLES, Roles
from actors.study.labs.bases import first_problem
from actors.study.labs.catalog import Lab, lab_numbered
from actors.study.labs.checks import (
    CheckResult,
    Counterexample,
    LabRun,
    check_budget,
    check_castling,
    check_crashes,
    check_games,
    check_illegal_moves,
    check_invariants,
    check_losses,
    check_move_queries,
    check_orders,
    failed_check,
)
from actors.study.labs.plugin import load_role
from actors.tracing.event import TraceEvent

__all__ = ["LabReport", "check_file", "gradescope_results"]

QUICK_SECONDS = 13.0
"""How long all of a lab's checks may take with ``--quick``: each check gets an equal share of what
is left when it starts, and stops between two games (or positions, or plies) once it is spent."""

FULL_SECONDS = 55.0
"""How long all of a lab's checks may take otherwise."""


@dataclass
class LabReport:
    """A lab's checks on one file: each result, the first failure's counterexample (with the trace
    of its run, for the studio page), how long it all took."""

    lab: Lab
    file: str
    results: list[CheckResult] = field(default_factory=list)
    counterexample: Counterexample | None = None
    trace: list[TraceEvent] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether every check passed."""
        return bool(self.results) and all(result.passed for result in self.results)

    def as_json(self) -> dict[str, object]:
        """``{"lab": N, "passed": ..., "checks": [...], "counterexample": ...}``."""
        return {
            "lab": self.lab.number,
            "file": self.file,
            "passed": self.passed,
            "seconds": round(self.seconds, 3),
            "checks": [result.as_json() for result in self.results],
            "counterexample": None if self.counterexample is None else self.counterexample.as_json(),
        }


Check = Callable[[Lab, type, LabRun], CheckResult]


def _worked_example(lab: Lab, role_class: type, run: LabRun) -> CheckResult:
    problems = lab.example(role_class)
    if problems:
        return CheckResult("worked example", False, f"{len(problems)} wrong", problems[0])
    return CheckResult("worked example", True, "as the README shows")


WEIGHTS = {"worked example": 0.1, "messages a ply": 0.1, "move queries": 0.5, "castling": 2.0,
           "delivery orders": 2.0, "crashes": 3.0, "lost messages": 2.0}
"""How much of the time left each check gets, against 1 for the others (the worked example and the
budget of messages take next to none; searching faults and orders takes most)."""

CHECKS: dict[str, Check] = {
    "worked example": _worked_example,
    "move queries": lambda lab, role_class, run: check_move_queries(run, role_class),
    "real games": lambda lab, role_class, run: check_games(run, run.roles),
    "illegal moves": lambda lab, role_class, run: check_illegal_moves(run, run.roles),
    "castling": lambda lab, role_class, run: check_castling(run, run.roles),
    "crashes": lambda lab, role_class, run: check_crashes(run, run.roles),
    "delivery orders": lambda lab, role_class, run: check_orders(run, run.roles),
    "lost messages": lambda lab, role_class, run: check_losses(run, run.roles),
    "invariants": lambda lab, role_class, run: check_invariants(run, run.roles),
    "messages a ply": lambda lab, role_class, run: check_budget(run, None),
}
"""Every check a lab may name, by name."""


def check_file(
    number: int,
    path: str | Path,
    quick: bool = False,
    folder: Path | None = None,
    on_check: Callable[[CheckResult], None] | None = None,
    budget: float | None = -1.0,
    fail_fast: bool = False,
) -> LabReport:
    """Run lab ``number``'s checks on the class in ``path``, in order; when the worked example
    fails, the rest are skipped (nothing would run), and with ``fail_fast`` so is everything after
    the first check that fails. The first failure is made a counterexample whose scenario names
    ``path`` relative to ``folder`` (where it will be written; default the current directory).

    ``quick`` checks fewer games, positions and plies (the same ones every time). ``budget`` is how
    many seconds all the checks may take (default :data:`QUICK_SECONDS` or :data:`FULL_SECONDS`);
    None runs every check to its end, so what is checked never depends on the machine's speed.

    Raises:
        LookupError: there is no lab ``number``.
        PluginError: the file is missing, does not import, or has no class of the lab's role.
    """
    began = time.perf_counter()
    lab = lab_numbered(number)
    role_class = load_role(path, lab.base)
    roles: Roles = replace(STANDARD_ROLES, **{lab.role: role_class})
    run = LabRun(roles, quick)
    report = LabReport(lab, str(path))
    if budget is not None and budget < 0:
        budget = QUICK_SECONDS if quick else FULL_SECONDS
    deadline = None if budget is None else time.monotonic() + budget
    for index, name in enumerate(lab.checks):
        weights = sum(WEIGHTS.get(later, 1.0) for later in lab.checks[index:]) or 1.0
        share = WEIGHTS.get(name, 1.0) / weights
        run.seconds = float("inf") if deadline is None else max(0.5, (deadline - time.monotonic()) * share)
        if report.results and not report.results[0].passed:
            result = CheckResult(name, False, "not run", skipped="the worked example fails first")
        elif fail_fast and any(not done.passed for done in report.results):
            result = CheckResult(name, False, "not run", skipped="a check before it failed (--fail-fast)")
        else:
            started = time.perf_counter()
            try:
                result = CHECKS[name](lab, role_class, run)
            except Exception as error:  # the student's code raised: the check fails, saying what
                result = failed_check(name, error)
            result.seconds = time.perf_counter() - started
            problem = first_problem(role_class)
            if not result.passed and problem is not None and problem not in result.detail:
                # What the actors said (a game that kept failing) comes of what the student's method
                # did: that is said first (once, when the check's own words are the same error's).
                said = result.detail
                same = said.split(": ", 1)[-1] in problem
                result.detail = f"{problem} (then: {said})" if said and not same else problem
        report.results.append(result)
        if on_check is not None:
            on_check(result)
    first = next((result for result in report.results if result.failure is not None), None)
    if first is not None and first.failure is not None:
        from actors.study.labs.counterexample import counterexample

        heading = f"lab {lab.number} ({lab.title}), check '{first.name}': {Path(path).name}"
        report.counterexample, report.trace = counterexample(
            first.failure, lab.role, Path(path), heading, folder or Path.cwd()
        )
    report.seconds = time.perf_counter() - began
    return report


def gradescope_results(report: LabReport) -> dict[str, object]:
    """The report as Gradescope's autograder ``results.json``: a test a check, one point each."""
    tests = []
    for index, result in enumerate(report.results, start=1):
        lines = [result.figure]
        if result.detail:
            lines.append(result.detail)
        if result.skipped:
            lines.append(f"skipped: {result.skipped}")
        tests.append({
            "name": result.name,
            "number": f"{report.lab.number}.{index}",
            "score": 1.0 if result.passed else 0.0,
            "max_score": 1.0,
            "status": "passed" if result.passed else "failed",
            "output": "\n".join(lines),
            "visibility": "visible",
        })
    output = f"lab {report.lab.number}: {sum(result.passed for result in report.results)} of " \
             f"{len(report.results)} checks passed"
    if report.counterexample is not None:
        output += f"\n\nfirst counterexample ({report.counterexample.deliveries} deliveries):\n" \
                  f"{report.counterexample.scenario}"
    return {
        "score": float(sum(result.passed for result in report.results)),
        "execution_time": max(1, round(report.seconds)),
        "output": output,
        "visibility": "visible",
        "stdout_visibility": "visible",
        "tests": tests,
    }
