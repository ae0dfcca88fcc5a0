"""How many actor games one process may hold at once, and the clear error past that limit.

Every live :class:`~actors.game.game.ActorGame` runs one thread per actor (about 35 a game);
past the limit a new game raises :class:`TooManyGames` instead of failing somewhere inside thread creation.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any, Final

from board.errors import ChessActorsError

ENV_VAR: Final = "CHESS_ACTORS_MAX_GAMES"
"""The environment variable that sets the limit (a whole number; 0 means no limit)."""

DEFAULT_MAX_GAMES: Final = 500
"""The default limit. Measured with ``scripts/load.py`` (2 cores, 24 GB, Linux defaults): thread
creation failed at the 651st live game (22,101 threads), when the process reached ``vm.max_map_count``
(65530 memory mappings; each actor thread maps its stack and a guard page: about 102 mappings a game).
Memory was not the limit (RSS about 0.85 MB a game) nor was latency (a proposal took 3 to 5 ms at 500
to 650 games). 500 games leave a fifth of the mappings to the rest of the process."""

THREADS_PER_GAME: Final = 35
"""Actor threads of a game in the starting position: 32 pieces, the board, the referee and the journal."""


ACTOR_STACK_BYTES: Final = 2 << 20
"""The stack of an actor thread. A thread otherwise takes the process's stack limit (8 MB by
default), so that a game's 35 threads reserve 280 MB of address space before reading any input;
actors recurse little (Python frames live on the heap), and 2 MB is far more than they use."""


MALLOC_ARENAS: Final = 1
"""The malloc arenas glibc may make (``M_ARENA_MAX``) once actors run, unless ``MALLOC_ARENA_MAX``
says otherwise: by default each thread that allocates may get an arena of its own, up to 8 a core,
each reserving 64 MB of address space, so that a game's threads would use up a modest address-space
limit (``prlimit --as``) and the next thread could not start. The actors' allocations are small,
and under the GIL one thread allocates at a time anyway: a game then reserves about 200 MB of
address space instead of 270 MB."""

_M_ARENA_MAX: Final = -8
"""mallopt's parameter number for the arena count (glibc's malloc.h)."""


def size_thread_stacks() -> None:
    """Give threads started from now on :data:`ACTOR_STACK_BYTES` of stack, unless the program
    chose a size itself (``threading.stack_size(n)`` with n > 0 is left alone), and hold glibc to
    :data:`MALLOC_ARENAS` malloc arenas (once; elsewhere than glibc, nothing)."""
    if threading.stack_size() == 0:
        # A platform that cannot size them keeps its default.
        with contextlib.suppress(ValueError, RuntimeError):
            threading.stack_size(ACTOR_STACK_BYTES)
    global _arenas_limited
    if not _arenas_limited:
        _arenas_limited = True
        _limit_malloc_arenas()


_arenas_limited = False


def _limit_malloc_arenas() -> None:
    if os.environ.get("MALLOC_ARENA_MAX"):
        return
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, ImportError):  # not glibc (or no ctypes): its own malloc rules
        return
    mallopt(_M_ARENA_MAX, MALLOC_ARENAS)


class _BoundedThread(threading.Thread):
    """A thread whose start cannot wait for ever on a thread that never began.

    ``Thread.start`` waits until the new thread says it has begun, and that is the first thing the
    new thread does; but under an address-space limit its first allocations can fail (a
    ``MemoryError`` before it can say so), and the thread ends without a word, leaving ``start``
    waiting for ever. Here such a failure still releases the wait, and is kept for the starter to
    raise. (``_bootstrap`` and ``_started`` are CPython's own, in every version this runs on.)
    """

    refused: BaseException | None = None
    actor_urn: str | None = None
    """The urn of the actor whose loop the thread runs (its incarnation: see actors.kernel.network)."""

    def _bootstrap(self) -> None:
        try:
            super()._bootstrap()  # type: ignore[misc]
        except BaseException as error:
            started: threading.Event = getattr(self, "_started")  # noqa: B009 (private names)
            if started.is_set():
                raise
            while error.__context__ is not None:  # the first failure (cleaning up after it fails too)
                error = error.__context__
            self.refused = error
            # Leave no trace of a thread that never began: not listed by threading, not alive.
            with getattr(threading, "_active_limbo_lock"):  # noqa: B009
                getattr(threading, "_limbo").pop(self, None)  # noqa: B009
            setattr(self, "_is_stopped", True)  # noqa: B010
            started.set()


_thread_numbers = itertools.count(1)


_PROCESS_SIGNALS: Final = frozenset(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""Signals meant for the whole process: the kernel hands one to any thread that does not block it,
and Python runs its handler only in the main thread, which then may not wake (the shell waiting in
readline for a line would miss a Ctrl-C taken by an actor's thread). Actor threads block them."""


@contextlib.contextmanager
def _process_signals_blocked() -> Iterator[None]:
    """Block the process's signals in this thread for the block (threads started inside inherit it)."""
    if not hasattr(signal, "pthread_sigmask"):  # no POSIX threads' masks: nothing to do
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _PROCESS_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def start_thread(
    target: Callable[[], Any], kind: str, daemon: bool, actor_urn: str | None = None
) -> threading.Thread:
    """Start a thread running ``target`` (named ``kind-N``, as pykka names its threads), with
    stacks sized for actors (:func:`size_thread_stacks`); ``actor_urn`` names the actor it runs.

    Raises:
        RuntimeError: the system refused the thread, or the thread failed before it began; never
            a wait without end.
    """
    size_thread_stacks()
    thread = _BoundedThread(target=target, name=f"{kind}-{next(_thread_numbers)}", daemon=daemon)
    thread.actor_urn = actor_urn
    with _process_signals_blocked():  # the new thread inherits the mask: it never takes Ctrl-C
        thread.start()
    if thread.refused is not None:
        raise RuntimeError(f"can't start new thread: it failed as it began ({thread.refused!r})")
    return thread


class TooManyGames(ChessActorsError):
    """Starting one more actor game would pass the process's limit, or the system refused a thread."""


def max_games() -> int:
    """The limit in force: ``CHESS_ACTORS_MAX_GAMES`` when set, else :data:`DEFAULT_MAX_GAMES` (0: none).

    Raises:
        TooManyGames: the variable is set but is not a whole number of 0 or more.
    """
    text = os.environ.get(ENV_VAR)
    if text is None or not text.strip():
        return DEFAULT_MAX_GAMES
    stripped = text.strip()
    if not (stripped.isascii() and stripped.isdecimal()):
        raise TooManyGames(f"{ENV_VAR}={text!r} is not a whole number of games (0 or more; 0: no limit)")
    return int(stripped)


class GameCounter:
    """A process-wide count of live actor games, checked against :func:`max_games` on each start."""

    def __init__(self) -> None:
        self._live = 0
        self._lock = threading.Lock()

    @property
    def live(self) -> int:
        """How many games hold a place now."""
        return self._live

    def acquire(self, limit: int | None = None) -> None:
        """Take a place for one more game.

        Args:
            limit: the limit to apply (default: :func:`max_games`; 0 means none).

        Raises:
            TooManyGames: every place is taken; the message says the limit and how to change it.
        """
        cap = max_games() if limit is None else limit
        with self._lock:
            if cap and self._live >= cap:
                raise TooManyGames(
                    f"{self._live} actor games are running, the limit for one process"
                    f" (about {THREADS_PER_GAME} threads each); finish one first, or set {ENV_VAR}"
                    " to change the limit (0: no limit)"
                )
            self._live += 1

    def release(self) -> None:
        """Give back a place taken by :meth:`acquire`."""
        with self._lock:
            self._live = max(0, self._live - 1)


GAMES: Final = GameCounter()
"""The one counter of this process."""


def start_actor_thread(actor: Any, name: str) -> None:
    """Start ``actor``'s loop on a thread of its own (pykka's ``_start_actor_loop``, done so that a
    refused thread is one clear error, never a hang): pykka registers the actor before its thread
    starts, so a refused one is taken out again and marked stopped, and nothing half-started stays.

    Raises:
        TooManyGames: the system would not start the thread.
    """
    import pykka

    try:
        start_thread(actor._actor_loop, type(actor).__name__, actor.use_daemon_thread, actor.actor_urn)
    except BaseException as error:  # nothing half-started stays registered, whatever stopped the start
        pykka.ActorRegistry.unregister(actor.actor_ref)
        actor.actor_stopped.set()
        if isinstance(error, RuntimeError):
            raise thread_refused(error, name) from error
        raise


def thread_refused(error: RuntimeError, name: str) -> TooManyGames:
    """The clear error for a thread the system would not start (``can't start new thread``)."""
    try:
        limit: object = max_games() or "no limit"
    except TooManyGames:
        limit = os.environ.get(ENV_VAR)
    return TooManyGames(
        f"the system refused a thread for actor {name} ({error}) with {GAMES.live} actor games live in"
        f" this process; lower {ENV_VAR} (now {limit}) or raise the system's limits on threads and memory"
        " maps (sysctl vm.max_map_count, kernel.pid_max, kernel.threads-max; ulimit -u)"
    )
