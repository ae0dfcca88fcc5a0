"""Keeping an actor system's threads on one CPU core, where the system allows it (Linux).

pykka runs every actor in a thread of its own, and the interpreter runs Python in one thread at a
time: a second core adds no parallel work to an actor system, only slower hand-offs. Waking a thread
that sleeps on another core costs about three times as much as on the same core (a bare pykka ask
round trip: 61 µs across the two cores of the benchmark machine, 21 µs on one). Threads inherit the
cores of the thread that starts them, so pinning a thread before it starts actors keeps them all
on one core. The same threads also run under Linux's batch scheduling policy (``SCHED_BATCH``): a
thread woken by a message then waits for the sender to block instead of preempting it, only to find
the interpreter lock held and sleep again (a pool's 32 seatings: 0.95 ms under the default policy,
0.65 ms under batch; context switches per replayed ply: 18 against 8). The command line does this for
every command that runs actors in its own process, and each worker process of a bulk replay takes a
core of its own; ``CHESS_ACTORS_ONE_CORE=0`` turns both off. The library never does it by itself:
call :func:`one_core` in your own program if you want it.
"""

from __future__ import annotations

import contextlib
import os
from typing import Final

from board.errors import InputError

ENV_VAR: Final = "CHESS_ACTORS_ONE_CORE"
"""The environment variable that turns pinning off ('0') or on ('1', the default)."""


def wanted() -> bool:
    """Whether pinning is on: ``CHESS_ACTORS_ONE_CORE`` unset, empty or '1' (on), or '0' (off).

    Raises:
        InputError: the variable holds anything else.
    """
    text = os.environ.get(ENV_VAR, "").strip()
    if text not in ("", "0", "1"):
        raise InputError(f"{ENV_VAR}={text!r} is neither 1 (keep actor threads on one core) nor 0")
    return text != "0"


def one_core(index: int | None = None) -> int | None:
    """Pin the calling thread, and every thread it starts from now on, to one core (under the batch
    scheduling policy where the system has it).

    The core is the ``index``-th (modulo their number) of those the thread may use now, or, without
    ``index``, one picked by the process id, so that separate processes tend to take different cores.

    Returns:
        The core, or None when nothing changed: pinning is off (:func:`wanted`), the system cannot
        pin threads, or refused.

    Raises:
        InputError: ``CHESS_ACTORS_ONE_CORE`` holds neither 0 nor 1.
    """
    if not wanted() or not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    core = allowed[(os.getpid() if index is None else index) % len(allowed)]
    try:
        os.sched_setaffinity(0, {core})
    except OSError:
        return None
    if hasattr(os, "SCHED_BATCH"):
        with contextlib.suppress(OSError):  # a policy the system refuses leaves the default
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    return core
