"""Actor threads on one core: the command line pins them, bulk workers take a core each, and
CHESS_ACTORS_ONE_CORE turns it off. Each check runs in a thread of its own, so that the test
process keeps every core it had."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from actors.cli import main
from actors.clusters.bulk import _take_a_core
from actors.game.game import ActorGame
from actors.kernel.affinity import ENV_VAR, one_core, wanted
from board.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
PINNING = hasattr(os, "sched_setaffinity")
T = TypeVar("T")


def in_a_thread(work: Callable[[], T]) -> T:
    """Run ``work`` in a new thread (whose cores it may change) and return what it returned."""
    results: list[T] = []
    errors: list[BaseException] = []

    def body() -> None:
        try:
            results.append(work())
        except BaseException as error:  # handed to the test below
            errors.append(error)

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return results[0]


def cores() -> set[int]:
    return os.sched_getaffinity(0) if PINNING else set()


def test_one_core_pins_the_thread_and_the_threads_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    allowed = sorted(cores())

    def pin() -> tuple[int | None, set[int], set[int]]:
        core = one_core(1)
        return core, cores(), in_a_thread(cores)

    core, mine, child = in_a_thread(pin)
    if not PINNING:
        assert core is None
        return
    assert core == allowed[1 % len(allowed)]
    assert mine == child == {core}
    assert cores() == set(allowed), "the test's own thread keeps its cores"


def test_the_actor_threads_of_a_game_keep_to_the_pinned_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)

    def play() -> tuple[int | None, set[frozenset[int]]]:
        core = one_core(0)
        with ActorGame() as game:
            game.propose("e4")
            actors = [t for t in threading.enumerate() if "Actor" in t.name and t.native_id is not None]
            seen = {frozenset(os.sched_getaffinity(t.native_id or 0)) for t in actors} if PINNING else set()
            assert len(actors) >= 34
        return core, seen

    core, seen = in_a_thread(play)
    if PINNING:
        assert core is not None and seen == {frozenset({core})}


BATCH = getattr(os, "SCHED_BATCH", None)


def test_the_pinned_threads_run_under_the_batch_policy_and_pass_it_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)

    def pin() -> tuple[int | None, int, int]:
        core = one_core(0)
        return core, os.sched_getscheduler(0), in_a_thread(lambda: os.sched_getscheduler(0))

    before = os.sched_getscheduler(0) if BATCH is not None else None
    core, mine, child = in_a_thread(pin) if BATCH is not None else (None, -1, -1)
    if BATCH is None or core is None:
        return  # no such policy here, or no pinning: one_core changes nothing (asserted elsewhere)
    assert mine == child == BATCH
    assert os.sched_getscheduler(0) == before, "the test's own thread keeps its policy"
    monkeypatch.setenv(ENV_VAR, "0")
    assert in_a_thread(lambda: (one_core(), os.sched_getscheduler(0))) == (None, before)


def test_zero_turns_it_off_and_anything_else_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "0")
    before = cores()
    assert not wanted()
    assert in_a_thread(lambda: (one_core(), cores())) == (None, before)
    monkeypatch.setenv(ENV_VAR, " 1 ")
    assert wanted()
    monkeypatch.setenv(ENV_VAR, "yes")
    with pytest.raises(InputError, match=r"CHESS_ACTORS_ONE_CORE='yes' is neither 1 .* nor 0"):
        one_core()


def test_replay_pins_itself_when_the_actors_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    opera = str(ROOT / "tests" / "data" / "opera-game.pgn")

    def replay(engine: str) -> set[int]:
        assert main(["replay", opera, "--engine", engine, "--json"]) == 0
        return cores()

    if PINNING:
        assert len(in_a_thread(lambda: replay("actors"))) == 1
        assert in_a_thread(lambda: replay("direct")) == cores(), "plain function calls are left alone"


def test_bulk_workers_take_one_core_each_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    allowed = sorted(cores())
    started = multiprocessing.Value("i", 0)

    def worker() -> set[int]:
        _take_a_core(started)
        return cores()

    first, second = in_a_thread(worker), in_a_thread(worker)
    assert started.value == 2
    if PINNING:
        assert first == {allowed[0]} and second == {allowed[1 % len(allowed)]}


def test_a_bad_setting_is_one_clear_line_from_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={**os.environ, ENV_VAR: "fast"},
    )
    assert result.returncode == 2
    assert result.stderr == (
        "chess-actors replay: CHESS_ACTORS_ONE_CORE='fast' is neither 1 (keep actor threads on one core)"
        " nor 0\n"
    )
    assert result.stdout == ""
