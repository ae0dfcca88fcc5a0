"""Shared helpers for the benchmarks: timing, medians, and a reproducible PGN file of real play."""

from __future__ import annotations

import io
import os
import random
import statistics
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def best_of(runs: int, work: Callable[[], object]) -> float:
    """The median wall time of ``runs`` calls of ``work``, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def alternate(runs: int, ours: Callable[[], object], theirs: Callable[[], object]) -> tuple[float, float]:
    """Median wall times of two workloads run in turns, fair on noisy machines: each goes first in
    every other turn (whichever runs second finds the interpreter's files warmer)."""
    mine: list[float] = []
    other: list[float] = []
    for turn in range(runs):
        pair = [(mine, ours), (other, theirs)]
        for times, workload in pair if turn % 2 == 0 else reversed(pair):
            start = time.perf_counter()
            workload()
            times.append(time.perf_counter() - start)
    return statistics.median(mine), statistics.median(other)


def random_games_pgn(games: int, seed: int = 7, max_plies: int = 200) -> Path:
    """Write ``games`` seeded random legal games (python-chess as the oracle) to a temporary PGN."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    path = Path(tempfile.gettempdir()) / f"chess-actors-bench-{games}-{seed}-{max_plies}.pgn"
    if path.exists():
        return path
    # Written beside and renamed when whole: a run stopped half way leaves no short file to reuse.
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    with partial.open("w", encoding="utf-8") as out:
        for number in range(games):
            board = chess.Board()
            while not board.is_game_over() and board.ply() < max_plies:
                board.push(rng.choice(list(board.legal_moves)))
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = f"bench {number + 1}"
            game.headers["Result"] = board.result()
            out.write(str(game) + "\n\n")
    partial.replace(path)
    return path


def tree_at(commit: str) -> tuple[Path | None, str]:
    """This repository's files at ``commit``, exported once to a temporary folder (for running an
    earlier version side by side): (folder, "") or (None, why not: no git, no such commit)."""
    root = Path(__file__).resolve().parent.parent.parent
    folder = Path(tempfile.gettempdir()) / f"chess-actors-at-{commit}"
    if (folder / "actors").is_dir():
        return folder, ""
    try:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", "--format=tar", commit],
            capture_output=True, check=False,
        )
    except OSError as error:
        return None, f"git is not available ({error.strerror})"
    if archive.returncode != 0:
        return None, archive.stderr.decode(errors="replace").strip().splitlines()[-1]
    staging = Path(tempfile.mkdtemp(prefix=f"chess-actors-at-{commit}-"))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(staging, filter="data")
    if not folder.exists():
        staging.rename(folder)
    return folder, ""


def compiled(folder: Path) -> Path:
    """Byte-compile the project's packages in ``folder``, as an install does, so that a timed command
    reads them instead of compiling them on each run (where ``PYTHONDONTWRITEBYTECODE`` is set)."""
    import compileall

    for package in ("actors", "board"):
        compileall.compile_dir(folder / package, quiet=1)
    return folder


def big_pgn_files(source: Path, megabytes: int) -> tuple[Path, Path]:
    """The games of ``source`` repeated to about ``megabytes``: as written, and as one line."""
    text = source.read_text(encoding="utf-8")
    games = [game for game in text.split("\n\n[") if game.strip()]
    movetexts = [game.split("\n\n", 1)[1].replace("\n", " ").strip() for game in games]
    folder = Path(tempfile.gettempdir())
    normal = folder / f"chess-actors-bench-normal-{megabytes}mb.pgn"
    one_line = folder / f"chess-actors-bench-line-{megabytes}mb.pgn"
    size = megabytes * 1_000_000
    if not normal.exists():
        copies = max(1, size // len(text.encode()))
        normal.write_text((text.rstrip("\n") + "\n\n") * copies, encoding="utf-8")
    if not one_line.exists():
        line = " ".join(movetexts) + " "
        copies = max(1, size // len(line.encode()))
        one_line.write_text(line * copies, encoding="utf-8")
    return normal, one_line


@contextmanager
def one_core_like_the_command_line() -> Iterator[None]:
    """Threads started inside keep to one core, as the command line keeps its actor threads."""
    from actors.kernel.affinity import one_core

    before = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    policy = os.sched_getscheduler(0) if hasattr(os, "sched_getscheduler") else None
    one_core()
    try:
        yield
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)
        if policy is not None:
            os.sched_setscheduler(0, policy, os.sched_param(0))
