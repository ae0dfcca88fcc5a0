"""A pool of actor systems that games borrow and give back, so a game costs messages, not threads.

A returned system's actors stay up; the next game re-seats them (see :meth:`Supervisor.reset`).
"""

from __future__ import annotations

import os
import threading
import weakref
from types import TracebackType
from typing import TYPE_CHECKING

from actors.game.arguments import checked_timeout
from actors.kernel.errors import ActorFailure, GameClosed
from actors.kernel.limits import GAMES
from actors.kernel.messaging import DEFAULT_TIMEOUT
from actors.roles.supervisor import Supervisor

if TYPE_CHECKING:
    from actors.tracing.recorder import TraceRecorder


class SystemPool:
    """Actor systems (a supervisor with its journal, board, referee and pieces) kept for many games.

    :meth:`borrow` hands out an idle system set up for a new game, or starts one; :meth:`give_back`
    keeps a healthy system for the next game (up to ``keep`` idle ones) and stops any other. Every
    system the pool holds counts as a live game against the process's limit (actors.kernel.limits).
    Use it as a context manager, or call :meth:`close`; a dropped pool stops its idle systems.

    Args:
        keep: how many idle systems to keep (one per game played at the same time is enough).
        recorder: traces every message of every game played on the pool's systems when given.
        timeout: every ask's timeout in seconds, for every game on the pool's systems.

    Raises:
        ValueError: ``keep`` is less than 1.
    """

    def __init__(
        self, keep: int = 1, recorder: TraceRecorder | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        if keep < 1:
            raise ValueError(f"keep={keep}: a pool keeps at least one idle system")
        self.keep = keep
        self.recorder = recorder
        self.timeout = checked_timeout(timeout)
        self.started = 0
        """Systems started (threads paid for)."""
        self.reused = 0
        """Games served by a system an earlier game used."""
        self.discarded = 0
        """Systems stopped instead of reused (their game failed, or they would not re-seat)."""
        self._idle: list[Supervisor] = []
        self._lock = threading.Lock()
        self._closed = False
        self._finalizer = weakref.finalize(self, _stop_systems, self._idle)

    def __repr__(self) -> str:
        return f"<SystemPool {len(self._idle)} idle, {self.started} started, {self.reused} reused>"

    def __enter__(self) -> SystemPool:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @property
    def idle(self) -> int:
        """How many systems wait for a game."""
        return len(self._idle)

    def borrow(
        self, fen: str, max_restarts: int = 10, period: float = 5.0, chess960: bool | None = False
    ) -> Supervisor:
        """A running system set up for a new game from ``fen`` (a FEN; ``chess960``: a Chess960 game;
        see :class:`Supervisor`).

        An idle system is re-seated; one that will not re-seat is stopped and a new one started.

        Raises:
            GameClosed: the pool is closed.
            FenError: the FEN is malformed or impossible.
            TooManyGames: a new system would pass the process's limit of games.
            ActorFailure: a new system's actors failed to start.
        """
        while True:
            with self._lock:
                if self._closed:
                    raise GameClosed("the pool is closed: its actor systems have stopped")
                supervisor = self._idle.pop() if self._idle else None
            if supervisor is None:
                return self._start(fen, max_restarts, period, chess960)
            supervisor.max_restarts, supervisor.period = max_restarts, period
            try:
                supervisor.reset(fen, chess960)
            except ActorFailure:
                self.discard(supervisor)
                continue
            except BaseException:
                self.discard(supervisor)
                raise
            self.reused += 1
            return supervisor

    def _start(self, fen: str, max_restarts: int, period: float, chess960: bool | None) -> Supervisor:
        supervisor = Supervisor(fen, self.recorder, self.timeout, max_restarts, period, chess960=chess960)
        GAMES.acquire()
        try:
            supervisor.start()
        except BaseException:
            self.discard(supervisor)
            raise
        self.started += 1
        return supervisor

    def give_back(self, supervisor: Supervisor, healthy: bool = True) -> None:
        """Take back a borrowed system: kept for the next game when ``healthy`` and there is room
        (and its supervisor never gave up), stopped otherwise."""
        with self._lock:
            keep = healthy and supervisor.failed is None and not self._closed and len(self._idle) < self.keep
            if keep:
                self._idle.append(supervisor)
        if not keep:
            self.discard(supervisor)

    def discard(self, supervisor: Supervisor) -> None:
        """Stop a borrowed system for good (a game that failed, or one dropped without closing)."""
        self.discarded += 1
        try:
            supervisor.stop_all()
        finally:
            GAMES.release()

    def close(self) -> None:
        """Stop every idle system; systems still borrowed are stopped when they are given back."""
        with self._lock:
            self._closed = True
        self._finalizer()


def _stop_systems(idle: list[Supervisor]) -> None:
    """Stop idle systems (when the pool closes, is dropped, or the program exits)."""
    while idle:
        supervisor = idle.pop()
        try:
            supervisor.stop_all()
        finally:
            GAMES.release()


_PROCESS_POOL: tuple[int, SystemPool] | None = None
_PROCESS_LOCK = threading.Lock()


def process_pool() -> SystemPool:
    """This process's own pool (untraced, the default timeout), started on first use.

    Replays use it, one game at a time; a forked worker process gets a pool of its own.
    """
    global _PROCESS_POOL
    with _PROCESS_LOCK:
        if _PROCESS_POOL is None or _PROCESS_POOL[0] != os.getpid():
            _PROCESS_POOL = (os.getpid(), SystemPool())
        return _PROCESS_POOL[1]


def close_process_pool() -> None:
    """Stop this process's pool's idle systems (the next :func:`process_pool` starts a new pool)."""
    global _PROCESS_POOL
    with _PROCESS_LOCK:
        found, _PROCESS_POOL = _PROCESS_POOL, None
    if found is not None and found[0] == os.getpid():
        found[1].close()
