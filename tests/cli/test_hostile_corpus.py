"""The fast part of the hostile corpus (scripts/hostile.py --quick): each case a whole command under a
300 MB address-space limit, ending in time with its documented status and one clear line, no
"unexpected error", no raw escape and nothing left running. The full corpus is the script itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import hostile
from tests.helpers.extras import needs


def _with_its_extra(case: hostile.Case) -> object:
    """The case as a parameter, skipped without the extra its command needs (the studio's websockets,
    a local Ray or nodes)."""
    needed = []
    if case.args[0] == "studio":
        needed.append(needs("websockets"))
    if "--nodes" in case.args or ("--ray" in case.args and "local" in case.args):
        needed.append(needs("ray"))
    return pytest.param(case, id=case.name, marks=needed)


QUICK = [case for case in hostile.cases() if case.quick]


def test_the_quick_subset_covers_every_command() -> None:
    commands = {case.args[0] for case in QUICK}
    assert commands >= {"replay", "explore", "run", "trace", "check-move", "shell", "perft"}


@pytest.mark.parametrize("case", [_with_its_extra(case) for case in QUICK])
def test_a_hostile_case_ends_cleanly_within_its_bounds(case: hostile.Case, tmp_path: Path) -> None:
    result = hostile.run_case(case, tmp_path)
    assert result.ok, f"{case.name}: {'; '.join(result.problems)} (stderr: {result.first_line!r})"


THREADS = hostile.thread_start_cases(hostile.THREAD_SEED + 1, 16)


def test_the_seed_chooses_every_kind_of_thread_starting_command() -> None:
    assert len({case.name.split(": ", 1)[1] for case in THREADS}) >= 5


@pytest.mark.parametrize("case", [_with_its_extra(case) for case in THREADS])
def test_thread_start_under_the_address_space_limit_never_hangs(case: hostile.Case, tmp_path: Path) -> None:
    result = hostile.run_case(case, tmp_path)
    assert result.ok, f"{case.name}: {'; '.join(result.problems)} (stderr: {result.first_line!r})"
