"""Lab 3's seeded solutions: the reference passes every check; each wrong one passes the worked
example, is flagged, and gets a counterexample of at most twelve deliveries that replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.seeded_labs import assert_reference_passes, assert_wrong_is_caught, wrong_solutions

LAB = 3


def test_the_reference_solution_passes_every_check(tmp_path: Path) -> None:
    assert_reference_passes(LAB, tmp_path)


def test_at_least_ten_wrong_solutions_are_seeded() -> None:
    assert len(wrong_solutions(LAB)) >= 10


@pytest.mark.parametrize("path", wrong_solutions(LAB), ids=lambda path: path.stem)
def test_each_wrong_solution_is_caught_with_a_short_counterexample(path: Path, tmp_path: Path) -> None:
    assert_wrong_is_caught(LAB, path, tmp_path)
