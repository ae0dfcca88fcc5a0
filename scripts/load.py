#!/usr/bin/env python3
"""Load: how many concurrent ActorGames one process holds, and what stops it (threads, memory, latency).

    python scripts/load.py [--step N] [--max-games N] [--headroom N] [--latency-limit S] [--to-failure]

Starts games ``--step`` at a time and keeps them all alive; after each step it measures the live
threads, the process's RSS and address space, the time to start a game, and ask latency (a legal
move proposed in a few sampled games, and a FEN query). It stops when thread creation fails (the
clear TooManyGames error of actors.kernel.limits), memory runs short, median latency passes
``--latency-limit``, or (unless ``--to-failure``) the machine's thread ceiling minus ``--headroom``
threads is near, so that other processes on the machine can still start theirs. The limit in
actors.kernel.limits is off (CHESS_ACTORS_MAX_GAMES=0) for the run, unless ``--respect-limit``.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pykka  # noqa: E402

from actors.game.game import ActorGame  # noqa: E402
from actors.kernel.limits import ENV_VAR, THREADS_PER_GAME, TooManyGames  # noqa: E402
from board.games.game import Game  # noqa: E402
from board.notation.algebraic import san  # noqa: E402
from board.rules.movegen import legal_moves  # noqa: E402


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return "?"


def proc_status(field: str) -> int:
    """A ``/proc/self/status`` field in kB (VmRSS, VmSize, Threads: a count)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def memory_maps() -> int:
    """How many memory mappings this process has (the kernel caps them at vm.max_map_count)."""
    with open("/proc/self/maps", "rb") as maps:
        return sum(1 for _ in maps)


def mem_available_kb() -> int:
    """MemAvailable from /proc/meminfo, in kB."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1])
    return 0


def system_tasks() -> int:
    """Threads running on the whole machine now (each takes a pid)."""
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                count += len(os.listdir(f"/proc/{entry.name}/task"))
            except OSError:
                continue
    return count


@dataclass(frozen=True)
class Ceilings:
    """The machine's limits on threads, mappings and memory."""

    pid_max: int
    threads_max: int
    nproc: int
    max_map_count: int
    memory_kb: int

    def games(self, threads_per_game: float, maps_per_game: float, kb_per_game: float) -> dict[str, int]:
        """How many games each limit allows, from the measured cost of one game."""
        allowed = {
            "kernel.pid_max (thread ids, machine-wide)": int(self.pid_max / threads_per_game),
            "kernel.threads-max": int(self.threads_max / threads_per_game),
            "vm.max_map_count (mappings, per process)": int(self.max_map_count / maps_per_game),
            "memory (MemAvailable)": int(self.memory_kb / max(kb_per_game, 1.0)),
        }
        if os.geteuid() != 0 and self.nproc > 0:
            allowed["ulimit -u"] = int(self.nproc / threads_per_game)
        return allowed


def ceilings() -> Ceilings:
    """Read the thread, mapping and memory limits of this machine."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NPROC)
    return Ceilings(
        pid_max=int(_read("/proc/sys/kernel/pid_max")),
        threads_max=int(_read("/proc/sys/kernel/threads-max")),
        nproc=soft if soft != resource.RLIM_INFINITY else 0,
        max_map_count=int(_read("/proc/sys/vm/max_map_count")),
        memory_kb=mem_available_kb(),
    )


@dataclass
class Sample:
    """One step's measurements."""

    games: int
    threads: int
    maps: int
    rss_mb: float
    vm_gb: float
    start_ms: float
    propose_ms: list[float]
    fen_ms: list[float]

    def line(self) -> str:
        """One line for people."""
        p50 = statistics.median(self.propose_ms) if self.propose_ms else float("nan")
        worst = max(self.propose_ms, default=float("nan"))
        fen = statistics.median(self.fen_ms) if self.fen_ms else float("nan")
        return (
            f"{self.games:5d} games {self.threads:6d} threads {self.maps:6d} maps  RSS {self.rss_mb:7.1f} MB"
            f"  VM {self.vm_gb:7.1f} GB  start {self.start_ms:6.1f} ms/game"
            f"  propose p50 {p50:7.2f} ms max {worst:7.2f} ms  fen p50 {fen:6.2f} ms"
        )


def measure_latency(
    games: list[tuple[ActorGame, Game]], rng: random.Random, count: int
) -> tuple[list[float], list[float]]:
    """Propose a random legal move in ``count`` sampled games, and ask each its FEN; times in ms."""
    proposals: list[float] = []
    queries: list[float] = []
    for actor_game, direct in rng.sample(games, min(count, len(games))):
        moves = legal_moves(direct.position)
        if not moves or direct.ended():
            continue
        text = san(direct.position, rng.choice(moves))
        began = time.perf_counter()
        actor_game.propose(text)
        proposals.append((time.perf_counter() - began) * 1000)
        direct.play(text, want_san=False)
        began = time.perf_counter()
        actor_game.fen()
        queries.append((time.perf_counter() - began) * 1000)
    return proposals, queries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=50,
                        help="games started between measurements (default 50)")
    parser.add_argument("--max-games", type=int, default=100_000, help="stop after this many games")
    parser.add_argument("--headroom", type=int, default=4000,
                        help="threads to leave to the rest of the machine (default 4000)")
    parser.add_argument("--latency-limit", type=float, default=1000.0,
                        help="stop when the median propose takes longer, ms (default 1000)")
    parser.add_argument("--samples", type=int, default=20, help="games sampled for latency per step")
    parser.add_argument("--timeout", type=float, default=30.0, help="every ask's timeout, s (default 30)")
    parser.add_argument("--to-failure", action="store_true",
                        help="ignore --headroom: go on until thread creation fails")
    parser.add_argument("--respect-limit", action="store_true",
                        help=f"keep the {ENV_VAR} limit of actors.kernel.limits (default: off for the run)")
    args = parser.parse_args()
    if not args.respect_limit:
        os.environ[ENV_VAR] = "0"
    limits = ceilings()
    stack_kb = resource.getrlimit(resource.RLIMIT_STACK)[0] // 1024
    print(f"machine: {os.cpu_count()} cores, MemAvailable {limits.memory_kb / 1e6:.1f} GB,"
          f" pid_max {limits.pid_max}, threads-max {limits.threads_max},"
          f" ulimit -u {limits.nproc or 'unlimited'}, vm.max_map_count {limits.max_map_count},"
          f" ulimit -s {stack_kb} kB, running as {'root' if os.geteuid() == 0 else 'user'};"
          f" threads on the machine now: {system_tasks()}", flush=True)

    rng = random.Random(1)
    games: list[tuple[ActorGame, Game]] = []
    samples: list[Sample] = []
    stopped_by = f"--max-games {args.max_games}"
    began_all = time.monotonic()
    try:
        while len(games) < args.max_games:
            if not args.to_failure:
                room = limits.pid_max - system_tasks() - args.headroom
                if room < args.step * (THREADS_PER_GAME + 1):
                    stopped_by = f"the headroom guard ({args.headroom} threads left to the machine)"
                    break
            if mem_available_kb() < 500_000:
                stopped_by = "memory (under 500 MB available)"
                break
            began = time.perf_counter()
            try:
                for _ in range(args.step):
                    game = ActorGame(timeout=args.timeout)
                    game.start()
                    games.append((game, Game()))
            except TooManyGames as error:
                stopped_by = f"thread creation failed: {error}"
                break
            except MemoryError:
                stopped_by = "MemoryError"
                break
            start_ms = (time.perf_counter() - began) * 1000 / args.step
            proposals, queries = measure_latency(games, rng, args.samples)
            sample = Sample(len(games), threading.active_count(), memory_maps(), proc_status("VmRSS") / 1024,
                            proc_status("VmSize") / 1024 / 1024, start_ms, proposals, queries)
            samples.append(sample)
            print(sample.line(), flush=True)
            if proposals and statistics.median(proposals) > args.latency_limit:
                stopped_by = f"latency (median propose over {args.latency_limit:g} ms)"
                break
    finally:
        held = len(games)
        threads, maps = threading.active_count(), memory_maps()
        rss = proc_status("VmRSS") / 1024
        closing = time.monotonic()
        for game, _ in games:
            game.close()
        print(f"closed {held} games in {time.monotonic() - closing:.1f} s; threads left"
              f" {threading.active_count()}, actors still registered {len(pykka.ActorRegistry.get_all())}")
    print(f"stopped by: {stopped_by}")
    print(f"held {held} games at once: {threads} threads ({threads / max(held, 1):.1f} a game),"
          f" {maps} memory maps, RSS {rss:.0f} MB, in {time.monotonic() - began_all:.0f} s")
    if len(samples) >= 2:
        first, last = samples[0], samples[-1]
        games_between = max(1, last.games - first.games)
        kb_per_game = (last.rss_mb - first.rss_mb) * 1024 / games_between
        maps_per_game = (last.maps - first.maps) / games_between
        threads_per_game = (last.threads - first.threads) / games_between
        print(f"a game costs {threads_per_game:.1f} threads, {maps_per_game:.1f} memory maps,"
              f" {kb_per_game:.0f} kB of RSS; each limit allows about:")
        allowed = limits.games(threads_per_game, maps_per_game, kb_per_game)
        for name, count in sorted(allowed.items(), key=lambda item: item[1]):
            print(f"  {count:7d} games: {name}")
        print(f"limiting factor: {min(allowed, key=lambda name: allowed[name])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
