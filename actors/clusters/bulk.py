"""Bulk replay: many games judged in parallel processes (or Ray actors), verdicts in input order.

The main process only cuts the PGN text into runs of whole games (board.notation.pgn.game_chunks, no
lexing); workers read and judge them. At most a fixed number of runs are in flight at once, so
memory stays bounded whatever the size of the file. Where no cut can be found for too long (one
game larger than that, a comment never closed), the rest of that input is judged in the main
process as it is read, so the verdicts are always those of one process.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import itertools
import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.sharedctypes import Synchronized
from typing import Any, Protocol

from actors.clusters.cluster import RAY_TIMEOUT_SECONDS, MissingExtra, init_ray, prepare_ray, reach
from actors.kernel.affinity import one_core, wanted
from board.errors import ChessActorsError
from board.games.replay import GameVerdict
from board.notation.pgn import game_chunks, read_games

CHUNK_GAMES = 64
"""Games sent to a worker at a time: large enough to amortise pickling, small enough to stream."""
CHUNK_CHARS = 4_000_000
"""Characters sent to a worker at a time, at most, where the text allows a cut (see chunks)."""
REFUSED_RUN_CHARS = 64_000_000
"""A run of text with no safe cut that grows past this is not sent to a worker: the rest of that
input is read and judged in this process, as one process would judge it (see :func:`ordered`)."""
IN_FLIGHT_PER_WORKER = 3


Chunk = tuple[int, list[bytes], str]
"""A run of whole games as PGN bytes: the number of its first line in the file, its lines, and
the name of the file."""

Source = tuple[str, Iterable[bytes]]
"""A PGN input: its name and its bytes, in blocks."""

Rest = tuple[int, Iterator[bytes], str]
"""The rest of an input that has no place to cut for too long: the number of its first line, its
bytes as a stream, and the name of the file (judged in this process, in order)."""


def judge_chunk(engine: str, chunk: Chunk) -> list[GameVerdict]:
    """Read and judge a run of games with ``engine`` (runs inside a worker)."""
    from actors.game.replay import judge_for

    judge = judge_for(engine)
    first_line, lines, name = chunk
    return [judge(game) for game in read_games(lines, first_line, name)]


class ChunkRunner(Protocol):
    """Something that judges chunks of games somewhere else and hands back futures."""

    engine: str

    def submit(self, chunk: Chunk) -> Future[list[GameVerdict]]: ...


def chunks(
    sources: Iterable[Source], size: int = CHUNK_GAMES, max_bytes: int = CHUNK_CHARS,
    refuse_bytes: int = REFUSED_RUN_CHARS,
) -> Iterator[Chunk | Rest]:
    """Runs of about ``size`` whole games, and about ``max_bytes`` bytes at most where games without
    tags allow a cut (board.notation.pgn.game_chunks), from each PGN input in turn; past ``refuse_bytes``
    with no place to cut, the rest of that input as one stream (a :data:`Rest`)."""
    for name, blocks in sources:
        cut = game_chunks(blocks, size, max_bytes=max_bytes, refuse_bytes=refuse_bytes)
        for first_line, lines in cut:
            if isinstance(lines, list):  # the two kinds apart, as the type checker reads them
                yield first_line, lines, name
            else:
                yield first_line, lines, name


def ordered(runner: ChunkRunner, sources: Iterable[Source], workers: int,
            chunk_size: int = CHUNK_GAMES, refuse_bytes: int = REFUSED_RUN_CHARS) -> Iterator[GameVerdict]:
    """Judge the games of ``sources`` through ``runner`` with a bounded window of chunks, in order.

    The rest of an input with no place to cut for ``refuse_bytes`` is judged here, after every
    chunk before it, reading it as it comes (one game may be far larger than a chunk, and is never
    sent whole): its verdicts are those one process gives.
    """
    window: deque[Future[list[GameVerdict]]] = deque()
    limit = max(1, workers * IN_FLIGHT_PER_WORKER)
    for first_line, lines, name in chunks(sources, chunk_size, refuse_bytes=refuse_bytes):
        if not isinstance(lines, list):
            while window:
                yield from window.popleft().result()
            yield from _judged_here(runner.engine, (first_line, lines, name))
            continue
        window.append(runner.submit((first_line, lines, name)))
        if len(window) >= limit:
            yield from window.popleft().result()
    while window:
        yield from window.popleft().result()


def _judged_here(engine: str, rest: Rest) -> Iterator[GameVerdict]:
    from actors.game.replay import judge_for

    judge = judge_for(engine)
    first_line, lines, name = rest
    for game in read_games(lines, first_line, name):
        yield judge(game)


class ProcessRunner:
    """Judges chunks in a pool of worker processes, which never outlive it.

    Workers ignore SIGINT (the command decides, and ends them), and on Linux ask the kernel to end
    them if the command itself dies without a chance to (SIGKILL).
    """

    def __init__(self, engine: str, workers: int) -> None:
        self.engine = engine
        wanted()  # a bad CHESS_ACTORS_ONE_CORE is an error here, before any worker starts
        started = multiprocessing.Value("i", 0)
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker, initargs=(started,))

    def submit(self, chunk: Chunk) -> Future[list[GameVerdict]]:
        """Send one chunk to the pool (which starts a worker process if it has fewer than asked).

        Raises:
            WorkerFailed: the system refused a new process.
        """
        try:
            return self.pool.submit(judge_chunk, self.engine, chunk)
        except OSError as error:
            raise WorkerFailed(f"cannot start a worker process: {error.strerror or error}") from None

    def close(self, finished: bool = True) -> None:
        """Stop the worker processes: after the last chunk, let them end; otherwise (an error, a
        signal) end them at once, and reap every one."""
        if finished:
            self.pool.shutdown(wait=True, cancel_futures=True)
            return
        # The executor has no public way to end busy workers before Python 3.14; every child
        # process is ended and reaped: those in its table (read defensively), and any other, such
        # as one a signal caught between its fork and its entry in that table.
        running = list((getattr(self.pool, "_processes", None) or {}).values())
        running += [child for child in multiprocessing.active_children() if child not in running]
        manager = getattr(self.pool, "_executor_manager_thread", None)
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in running:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.terminate()
        for process in running:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                process.join(WORKER_EXIT_SECONDS)
                if process.is_alive():
                    process.kill()
                    process.join(WORKER_EXIT_SECONDS)
        # The executor's own thread notices its workers gone and closes its wake-up pipe. Wait for it
        # here: left running, it may close that pipe while the interpreter's exit writes to it
        # (concurrent.futures' exit hook), and the write's EBADF is printed as a traceback.
        if isinstance(manager, threading.Thread):
            manager.join(WORKER_EXIT_SECONDS)


WORKER_EXIT_SECONDS = 5.0
"""How long an ended worker is given to exit before it is killed."""


def _start_worker(started: Synchronized[int]) -> None:
    """A new worker's first acts: leave interrupts to the command, die with it, and take a core."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command's handler, inherited by fork
    _die_with_parent()
    _take_a_core(started)


def _take_a_core(started: Synchronized[int]) -> None:
    """A new worker's first act: keep its threads on a core of its own, the n-th worker on the
    n-th core (actors.kernel.affinity)."""
    with started.get_lock():
        index = started.value
        started.value += 1
    one_core(index)


def _die_with_parent() -> None:
    """On Linux, have the kernel send this process SIGTERM when its parent dies (prctl)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() == 1:  # the parent died before the request was made
        os._exit(1)


_PR_SET_PDEATHSIG = 1


def worker_limit() -> int:
    """The most worker processes ``--workers`` may ask for: four a CPU, and at least 8."""
    return max(8, 4 * (os.cpu_count() or 1))


def replay_parallel(
    sources: Iterable[Source], engine: str, workers: int
) -> Generator[GameVerdict, None, None]:
    """Judge games on ``workers`` processes; verdicts come back in input order.

    Whatever ends the run (the last verdict, an error, a signal, the caller closing this
    generator), every worker process has ended and been reaped when it returns.

    Raises:
        WorkerFailed: a worker process died, or could not be started (the games judged so far
            have been yielded).
    """
    runner = ProcessRunner(engine, workers)
    finished = False
    try:
        yield from ordered(runner, sources, workers)
        finished = True
    except BrokenProcessPool as error:
        raise WorkerFailed(f"a worker process died ({error})") from None
    finally:
        runner.close(finished)


class WorkerFailed(ChessActorsError):
    """A worker judging games in another process or on a cluster failed."""



class _RayReplayer:
    """The body of one Ray actor: judges the chunks of games it is sent."""

    def __init__(self, engine: str) -> None:
        self.engine = engine

    def judge(self, chunk: Chunk) -> list[GameVerdict]:
        return judge_chunk(self.engine, chunk)


class RayRunner:
    """Judges chunks on Ray actors, round robin; ``address`` is 'local', 'auto' or a cluster address."""

    def __init__(self, engine: str, workers: int, address: str, timeout: float = RAY_TIMEOUT_SECONDS) -> None:
        self.engine = engine
        prepare_ray(address)
        try:
            ray: Any = importlib.import_module("ray")  # optional extra: typed as Any
        except ImportError:
            raise MissingExtra(
                "--ray needs Ray, which is not installed: pip install 'chess-actors[cluster]' "
                "(or, in a checkout, pip install -e '.[cluster]')"
            ) from None
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            reach(address, timeout)  # a bounded wait, in a child process, before Ray's own retries
            init_ray(ray, address)
        if workers < 2:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = workers
        remote = ray.remote(num_cpus=1)(_RayReplayer)
        self._actors = [remote.remote(engine) for _ in range(workers)]
        self._turn = itertools.cycle(self._actors)

    def submit(self, chunk: Chunk) -> Future[list[GameVerdict]]:
        """Send one chunk to the next Ray actor."""
        future: Future[list[GameVerdict]] = next(self._turn).judge.remote(chunk).future()
        return future

    def close(self) -> None:
        """Stop the Ray actors, and the local Ray if this runner started it."""
        for actor in self._actors:
            self._ray.kill(actor)
        if self._started:
            self._ray.shutdown()


def replay_on_ray(
    sources: Iterable[Source], engine: str, workers: int, address: str,
    timeout: float = RAY_TIMEOUT_SECONDS,
) -> Generator[GameVerdict, None, None]:
    """Judge games on Ray actors ('local' starts a Ray on this machine); verdicts in input order.

    Raises:
        RayUnreachable: no cluster answered at ``address`` within ``timeout`` seconds.
    """
    runner = RayRunner(engine, workers, address, timeout)
    try:
        yield from ordered(runner, sources, runner.workers)
    except Exception as error:
        if isinstance(error, ChessActorsError):
            raise
        raise WorkerFailed(f"a Ray worker failed: {type(error).__name__}: {error}") from None
    finally:
        runner.close()
