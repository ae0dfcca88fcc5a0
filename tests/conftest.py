"""Shared fixtures: every test must leave no actor running and no actor thread alive; and where every
extra is installed (CHESS_ACTORS_EXTRAS=required, as CI sets), no test may skip for a missing one."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from tests.helpers.browser_pages import browser  # noqa: F401  (the chromium fixture of the browser tests)
from tests.helpers.extras import REQUIRED as EXTRAS_REQUIRED
from tests.helpers.extras import skipped_for_a_missing_extra

SKIPPED_FOR_AN_EXTRA: list[str] = []
"""Each test or module skipped because an extra is missing, with the reason (in the process that reports)."""


def _actor_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if "Actor" in thread.name]


@pytest.fixture(autouse=True)
def no_leaked_actors() -> Iterator[None]:
    """Fail any test that leaves a pykka actor or its thread behind (this process's pool of actor
    systems, which replays and scenarios borrow from, is closed first: its idle systems are no leak)."""
    yield
    import pykka

    from actors.game.pool import close_process_pool

    close_process_pool()

    # An actor stalled by an injected hang stops once its handler returns (its stop is queued).
    deadline = time.monotonic() + 5.0
    while pykka.ActorRegistry.get_all() and time.monotonic() < deadline:
        time.sleep(0.01)
    running = pykka.ActorRegistry.get_all()
    if running:
        for ref in running:  # each asked to stop, none waited for without end: the failure is the report
            ref.stop(block=False)
            pykka.ActorRegistry.unregister(ref)
        pytest.fail(f"test left {len(running)} actor(s) running: {running[:5]}")
    deadline = time.monotonic() + 5.0
    while _actor_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    leaked = _actor_threads()
    assert not leaked, f"actor threads still alive after the test: {[t.name for t in leaked]}"


def _note_a_skip_for_an_extra(report: pytest.CollectReport | pytest.TestReport) -> None:
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    # A skip's report holds (path, line, "Skipped: reason"); a list once it has crossed from a worker.
    longrepr = report.longrepr
    reason = str(longrepr[2]) if isinstance(longrepr, tuple | list) else str(longrepr)
    if skipped_for_a_missing_extra(reason):
        SKIPPED_FOR_AN_EXTRA.append(f"{report.nodeid}: {reason}")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note a test skipped for a missing extra (pytest-xdist hands the workers' reports on to here)."""
    _note_a_skip_for_an_extra(report)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """Note a module skipped for a missing extra as it was collected."""
    _note_a_skip_for_an_extra(report)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """List what was skipped for a missing extra: where every extra is required, that failed the run."""
    if not SKIPPED_FOR_AN_EXTRA:
        return
    terminalreporter.section("skipped for a missing extra", sep="-", red=EXTRAS_REQUIRED)
    for line in SKIPPED_FOR_AN_EXTRA:
        terminalreporter.line(line)
    if EXTRAS_REQUIRED:
        terminalreporter.line("CHESS_ACTORS_EXTRAS=required: every extra must be installed, so these skips "
                              "fail the run", red=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """After the whole run, too: no actor thread may outlive the tests; and where every extra is
    required, a test skipped for a missing one fails the run."""
    if EXTRAS_REQUIRED and SKIPPED_FOR_AN_EXTRA and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    from actors.game.pool import close_process_pool

    close_process_pool()
    deadline = time.monotonic() + 5.0
    while _actor_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    leaked = _actor_threads()
    if leaked and session.exitstatus == 0:
        session.exitstatus = 1
        print(f"\nactor threads still alive after the test session: {[t.name for t in leaked]}")
