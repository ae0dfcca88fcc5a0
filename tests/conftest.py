"""Shared fixtures: every test must leave no actor running and no actor thread alive."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest


def _actor_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if "Actor" in thread.name]


@pytest.fixture(autouse=True)
def no_leaked_actors() -> Iterator[None]:
    """Fail any test that leaves a pykka actor or its thread behind."""
    yield
    import pykka

    running = pykka.ActorRegistry.get_all()
    if running:
        pykka.ActorRegistry.stop_all()
        pytest.fail(f"test left {len(running)} actor(s) running: {running[:5]}")
    deadline = time.monotonic() + 5.0
    while _actor_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    leaked = _actor_threads()
    assert not leaked, f"actor threads still alive after the test: {[t.name for t in leaked]}"
