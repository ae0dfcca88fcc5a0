"""Bulk replay: many games judged in parallel processes (or Ray actors), verdicts in input order.

The main process streams games out of the PGN reader in chunks; at most a fixed number of chunks
are in flight at once, so memory stays bounded whatever the size of the file.
"""

from __future__ import annotations

import importlib
import itertools
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from board.errors import ChessActorsError, InputError
from board.pgn import PgnGame
from board.replay import GameVerdict

CHUNK_GAMES = 64
"""Games sent to a worker at a time: large enough to amortise pickling, small enough to stream."""
IN_FLIGHT_PER_WORKER = 3


def judge_chunk(engine: str, games: list[PgnGame]) -> list[GameVerdict]:
    """Judge a chunk of games with ``engine`` (runs inside a worker)."""
    from actors.replay import judge_for

    judge = judge_for(engine)
    return [judge(game) for game in games]


class ChunkRunner(Protocol):
    """Something that judges chunks of games somewhere else and hands back futures."""

    def submit(self, games: list[PgnGame]) -> Future[list[GameVerdict]]: ...


def chunks(games: Iterable[PgnGame], size: int = CHUNK_GAMES) -> Iterator[list[PgnGame]]:
    """Split a game stream into lists of at most ``size`` games."""
    iterator = iter(games)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def ordered(runner: ChunkRunner, games: Iterable[PgnGame], workers: int,
            chunk_size: int = CHUNK_GAMES) -> Iterator[GameVerdict]:
    """Judge games through ``runner`` with a bounded window of chunks, yielding in input order."""
    window: deque[Future[list[GameVerdict]]] = deque()
    limit = max(1, workers * IN_FLIGHT_PER_WORKER)
    for chunk in chunks(games, chunk_size):
        window.append(runner.submit(chunk))
        if len(window) >= limit:
            yield from window.popleft().result()
    while window:
        yield from window.popleft().result()


class ProcessRunner:
    """Judges chunks in a pool of worker processes."""

    def __init__(self, engine: str, workers: int) -> None:
        self.engine = engine
        self.pool = ProcessPoolExecutor(max_workers=workers)

    def submit(self, games: list[PgnGame]) -> Future[list[GameVerdict]]:
        """Send one chunk to the pool."""
        return self.pool.submit(judge_chunk, self.engine, games)

    def close(self) -> None:
        """Stop the worker processes."""
        self.pool.shutdown(wait=True, cancel_futures=True)


def replay_parallel(games: Iterable[PgnGame], engine: str, workers: int) -> Iterator[GameVerdict]:
    """Judge games on ``workers`` processes; verdicts come back in input order.

    Raises:
        WorkerFailed: a worker process died (the games judged so far have been yielded).
    """
    runner = ProcessRunner(engine, workers)
    try:
        yield from ordered(runner, games, workers)
    except BrokenProcessPool as error:
        raise WorkerFailed(f"a worker process died ({error})") from None
    finally:
        runner.close()


class WorkerFailed(ChessActorsError):
    """A worker judging games in another process or on a cluster failed."""



class _RayReplayer:
    """The body of one Ray actor: judges the chunks of games it is sent."""

    def __init__(self, engine: str) -> None:
        self.engine = engine

    def judge(self, games: list[PgnGame]) -> list[GameVerdict]:
        return judge_chunk(self.engine, games)


class RayRunner:
    """Judges chunks on Ray actors, round robin; ``address`` is 'local', 'auto' or a cluster address."""

    def __init__(self, engine: str, workers: int, address: str) -> None:
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
            ray.init(address=None if address == "local" else address, include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
        if workers < 2:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = workers
        remote = ray.remote(num_cpus=1)(_RayReplayer)
        self._actors = [remote.remote(engine) for _ in range(workers)]
        self._turn = itertools.cycle(self._actors)

    def submit(self, games: list[PgnGame]) -> Future[list[GameVerdict]]:
        """Send one chunk to the next Ray actor."""
        future: Future[list[GameVerdict]] = next(self._turn).judge.remote(games).future()
        return future

    def close(self) -> None:
        """Stop the Ray actors, and the local Ray if this runner started it."""
        for actor in self._actors:
            self._ray.kill(actor)
        if self._started:
            self._ray.shutdown()


class MissingExtra(InputError):
    """An optional dependency the command needs is not installed."""


def replay_on_ray(games: Iterable[PgnGame], engine: str, workers: int, address: str) -> Iterator[GameVerdict]:
    """Judge games on Ray actors ('local' starts a Ray on this machine); verdicts in input order."""
    runner = RayRunner(engine, workers, address)
    try:
        yield from ordered(runner, games, runner.workers)
    except Exception as error:
        if isinstance(error, ChessActorsError):
            raise
        raise WorkerFailed(f"a Ray worker failed: {type(error).__name__}: {error}") from None
    finally:
        runner.close()
