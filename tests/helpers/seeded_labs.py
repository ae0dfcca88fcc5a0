"""The seeded solutions of the labs, checked as a course needs: the reference passes, every wrong one
passes its lab's worked example yet is flagged, with a short counterexample that replays.

The checks run with ``--quick``'s games and positions and no time budget, so what is checked is the
same on every machine, whatever its speed.
"""

from __future__ import annotations

from pathlib import Path

from actors.study.labs.catalog import lab_numbered
from actors.study.labs.grader import LabReport, check_file
from actors.study.labs.plugin import load_role
from actors.study.runner import run_scenario
from actors.study.script import parse_scenario

LABS = Path(__file__).resolve().parents[1] / "labs"
"""Where the labs' seeded solutions are: tests/labs/labN/."""

MOST_DELIVERIES = 12
"""The longest counterexample a wrong solution may get (deliveries to the first that differs)."""


def solutions(number: int) -> list[Path]:
    """The reference solution of lab ``number``."""
    return [LABS / f"lab{number}" / "solution.py"]


def wrong_solutions(number: int) -> list[Path]:
    """The seeded wrong solutions of lab ``number``, by name."""
    return sorted((LABS / f"lab{number}").glob("wrong_*.py"))


def checked(number: int, path: Path, folder: Path, fail_fast: bool = False) -> LabReport:
    """Lab ``number``'s checks on ``path`` (quick games and positions, no time budget)."""
    return check_file(number, path, quick=True, folder=folder, budget=None, fail_fast=fail_fast)


def assert_reference_passes(number: int, folder: Path) -> None:
    report = checked(number, solutions(number)[0], folder)
    failed = [f"{result.name}: {result.figure} {result.detail}"
              for result in report.results if not result.passed]
    assert report.passed, f"lab {number}'s reference solution fails: {failed}"


def assert_wrong_is_caught(number: int, path: Path, folder: Path) -> None:
    """The wrong solution at ``path`` passes the worked example, fails a check, and its counterexample
    is short and replays to the same failure with ``chess-actors run``'s runner."""
    lab = lab_numbered(number)
    problems = lab.example(load_role(path, lab.base))
    assert problems == [], f"{path.name} should pass the README's worked example: {problems}"
    report = checked(number, path, folder, fail_fast=True)
    assert not report.passed, f"{path.name} passed every check of lab {number}"
    failing = next(result for result in report.results if not result.passed)
    found = report.counterexample
    assert found is not None, f"{path.name}: {failing.name} failed without a counterexample"
    assert found.deliveries <= MOST_DELIVERIES, (
        f"{path.name}: the counterexample takes {found.deliveries} deliveries:\n{found.scenario}"
    )
    script = folder / f"lab{number}-counterexample.scenario"
    script.write_text(found.scenario, encoding="utf-8")
    results = run_scenario(parse_scenario(found.scenario, str(script)))
    replayed = any(not result.ok for result in results)
    assert replayed, f"{path.name}: the counterexample passes:\n{found.scenario}"
