"""The fast part of the hostile corpus (scripts/hostile.py --quick): each case a whole command under a
300 MB address-space limit, ending in time with its documented status and one clear line, no
"unexpected error", no raw escape and nothing left running. The full corpus is the script itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import hostile

QUICK = [case for case in hostile.cases() if case.quick]


def test_the_quick_subset_covers_every_command() -> None:
    commands = {case.args[0] for case in QUICK}
    assert commands >= {"replay", "explore", "run", "trace", "check-move", "shell", "perft"}


@pytest.mark.parametrize("case", QUICK, ids=[case.name for case in QUICK])
def test_a_hostile_case_ends_cleanly_within_its_bounds(case: hostile.Case, tmp_path: Path) -> None:
    result = hostile.run_case(case, tmp_path)
    assert result.ok, f"{case.name}: {'; '.join(result.problems)} (stderr: {result.first_line!r})"


THREADS = hostile.thread_start_cases(hostile.THREAD_SEED + 1, 16)


def test_the_seed_chooses_every_kind_of_thread_starting_command() -> None:
    assert len({case.name.split(": ", 1)[1] for case in THREADS}) >= 5


@pytest.mark.parametrize("case", THREADS, ids=[case.name for case in THREADS])
def test_thread_start_under_the_address_space_limit_never_hangs(case: hostile.Case, tmp_path: Path) -> None:
    result = hostile.run_case(case, tmp_path)
    assert result.ok, f"{case.name}: {'; '.join(result.problems)} (stderr: {result.first_line!r})"
