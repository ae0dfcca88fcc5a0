"""Shared fixtures: every test must leave no actor running and no actor thread alive."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from tests.helpers.browser_pages import browser  # noqa: F401  (the chromium fixture of the browser tests)


def _actor_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if "Actor" in thread.name]


@pytest.fixture(autouse=True)
def no_leaked_actors() -> Iterator[None]:
    """Fail any test that leaves a pykka actor or its thread behind (this process's pool of actor
    systems, which replays and scenarios borrow from, is closed first: its idle systems are no leak)."""
    yield
    import pykka

    from actors.client.pool import close_process_pool

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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """After the whole run, too: no actor thread may outlive the tests."""
    from actors.client.pool import close_process_pool

    close_process_pool()
    deadline = time.monotonic() + 5.0
    while _actor_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    leaked = _actor_threads()
    if leaked and session.exitstatus == 0:
        session.exitstatus = 1
        print(f"\nactor threads still alive after the test session: {[t.name for t in leaked]}")
