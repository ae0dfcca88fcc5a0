"""Pooled actor systems: a game's start-up in a pool against starting its own actors, the whole
``replay`` command against the direct engine's (and against the engine the targets were set
against), and messages per ply with each game's start-up.

Whole commands run with the packages byte-compiled, as an installed tool's are: where
``PYTHONDONTWRITEBYTECODE`` is set, each run would otherwise compile them again.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from benchmarks.common import alternate, compiled, one_core_like_the_command_line, random_games_pgn, tree_at

GAMES = 200
PLIES = 115
"""200 random legal games of about 115 plies: some 23,000 plies, like a file of long engine games."""

REFERENCE = "7b09cdf"
"""The engine as it was when the pooled systems' targets were set (3,700 plies/s on that machine)."""
REFERENCE_PLIES_PER_SECOND = 3_700
TARGET_PLIES_PER_SECOND = 5_000
BEFORE_RECOVERY = "f0035cb"
"""The engine before incarnations, the heal's one record and the fault search: recovery must cost
the whole command at most 5% (a ratio of at least 0.95), both rules cores compiled."""
BEFORE_FACTS = "e049ec6"
"""The engine before the rule of facts (a moved piece's reach relayed by the referee): the rule must
cost standard games no speed against it (a ratio of at least 1.0)."""


def _startups(games: int) -> tuple[float, float]:
    """Median seconds to start a game: borrowing a pooled system that the last game played on, and
    starting a system of its own (taken in turns, so that both see the same machine)."""
    from actors.game.game import ActorGame
    from actors.game.pool import SystemPool

    pooled: list[float] = []
    own: list[float] = []
    # Each game plays an opening before it ends (captures, a check, castling: pieces off their
    # squares or off the board), so that the next game re-seats a used system, as a replay's does.
    opening = ["e4", "d5", "exd5", "Nf6", "Bb5+", "Bd7", "Bxd7+", "Qxd7", "Nf3", "Qxd5", "O-O", "e5"]
    with SystemPool() as pool:
        ActorGame(pool=pool).start()  # the pool's one system: paid once, not counted
        for number in range(games):
            game = ActorGame(pool=pool)
            game.start()
            pooled.append(game.startup_seconds)
            for _ in game.propose_many(opening):
                pass
            game.close()
            if number % 5 == 0:  # a system of its own is slow: one in five is enough for a median
                alone = ActorGame()
                alone.start()
                own.append(alone.startup_seconds)
                alone.close()
    return statistics.median(pooled), statistics.median(own)


def _replay(path: str, engine: str, folder: str | None = None) -> tuple[float, int]:
    """Wall seconds and plies of ``chess-actors replay FILE --engine ENGINE --json`` (run from
    ``folder``, an earlier version's files, when given)."""
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", path, "--engine", engine, "--json"],
        capture_output=True, text=True, check=False, cwd=folder,
    )
    seconds = time.perf_counter() - began
    if done.returncode not in (0, 1):
        raise SystemExit(f"replay --engine {engine} failed: {done.stderr.strip()}")
    return seconds, sum(json.loads(line)["plies"] for line in done.stdout.splitlines() if line.strip())


def _whole_command(path: str, runs: int) -> tuple[list[float], list[float], int]:
    """Wall times of ``chess-actors replay FILE --json`` with each engine, run in turns."""
    times: dict[str, list[float]] = {"actors": [], "direct": []}
    plies = 0
    for _ in range(runs):
        for engine in ("actors", "direct"):
            seconds, plies = _replay(path, engine)
            times[engine].append(seconds)
    return times["actors"], times["direct"], plies


def _side_by_side(path: str, runs: int, commit: str, native: bool = False) -> tuple[float, float, int] | None:
    """Median wall seconds of the whole command with this engine and with the one of ``commit``,
    run in turns, and the plies; None (said why) when that engine cannot be had. ``native``: that
    engine's rules core is compiled with mypyc as this one's is (else it runs pure Python)."""
    folder, why = tree_at(commit)
    if folder is None:
        print(f"  (no side-by-side run of {commit}: {why})")
        return None
    compiled(folder)
    if native and not _built_in_place(folder):
        print(f"  (no side-by-side run of {commit}: its rules core would not compile)")
        return None
    plies: list[int] = []
    mine, before = alternate(
        runs, lambda: plies.append(_replay(path, "actors")[1]), lambda: _replay(path, "actors", str(folder))
    )
    return mine, before, plies[-1]


def _built_in_place(folder: Path) -> bool:
    """Compile the rules core of the tree in ``folder`` with mypyc, in place (once: a tree that has
    its compiled modules already is left as it is)."""
    if any(folder.glob("board__mypyc*.so")):
        return True
    # Built as an install builds it (pip's isolated build, with the build tools pyproject names),
    # then the compiled modules taken out of the wheel and put beside their sources.
    wheels = folder / "wheel"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), "."],
                          cwd=folder, capture_output=True, text=True, check=False)
    for wheel in wheels.glob("*.whl") if done.returncode == 0 else ():
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.endswith(".so"):
                    archive.extract(member, folder)
    return any(folder.glob("board__mypyc*.so"))


def _against_the_reference(path: str, runs: int) -> None:
    """The same whole command with this engine and with the engine the targets were set against,
    in turns: the speed-up carries the targets over to this machine's speed."""
    measured = _side_by_side(path, runs, REFERENCE)
    if measured is None:
        return
    mine, before, plies = measured
    wanted = TARGET_PLIES_PER_SECOND / REFERENCE_PLIES_PER_SECOND
    print(f"  the engine of {REFERENCE} (where the target was set at {REFERENCE_PLIES_PER_SECOND:,} plies/s),"
          f" same file, {runs} alternating runs: {before:5.2f} s  {plies / before:7,.0f} plies/s")
    print(f"  this engine in the same runs: {mine:5.2f} s  {plies / mine:7,.0f} plies/s:"
          f" {before / mine:.2f}x its speed (the target asks {wanted:.2f}x:"
          f" {REFERENCE_PLIES_PER_SECOND * before / mine:,.0f} plies/s where it measured"
          f" {REFERENCE_PLIES_PER_SECOND:,})")


def _messages(games: list[list[str]]) -> tuple[float, float, float, float]:
    """(messages per ply, start-up messages per game) for pooled games and for games on their own."""
    from actors.game.game import ActorGame
    from actors.game.pool import SystemPool
    from actors.tracing.recorder import STARTUP, TraceRecorder

    plies = sum(len(moves) for moves in games)
    figures: list[float] = []
    for pooled in (True, False):
        recorder = TraceRecorder()
        with SystemPool(recorder=recorder) as pool:
            for moves in games:
                game = ActorGame(pool=pool) if pooled else ActorGame(recorder=recorder)
                with game:
                    for _ in game.propose_many(moves):
                        pass
        delivered = sum(recorder.counts_by_kind().values())
        figures += [delivered / plies, recorder.counts_by_phase().get(STARTUP, 0) / len(games)]
    return figures[0], figures[1], figures[2], figures[3]


def run(quick: bool) -> None:
    """Print the start-up medians, the whole command's plies/s with both engines, messages per ply."""
    from board.notation.pgn import read_games

    games = 40 if quick else GAMES
    path = random_games_pgn(games, seed=17, max_plies=PLIES)
    with one_core_like_the_command_line():
        pooled, own = _startups(50 if quick else 400)
    print("start-up of a game, median (actor threads on one core, as the command line keeps them):")
    print(f"  borrowing a pooled system:   {pooled * 1e3:7.2f} ms  target < 1 ms")
    print(f"  starting its own actors:     {own * 1e3:7.2f} ms  ({own / pooled:.0f}x the pooled)")
    runs = 1 if quick else 5
    compiled(Path(__file__).resolve().parent.parent.parent)  # both engines run as installed
    actors, direct, plies = _whole_command(str(path), runs)
    mine, theirs = statistics.median(actors), statistics.median(direct)
    print(f"whole command, {games} games, {plies} plies, medians of {runs} alternating runs:")
    print(f"  chess-actors replay FILE --engine actors --json: {mine:6.2f} s  {plies / mine:7,.0f} plies/s"
          "  target >= 5,000")
    print(f"  chess-actors replay FILE --engine direct --json: {theirs:6.2f} s"
          f"  {plies / theirs:7,.0f} plies/s")
    print(f"  ratio actors / direct: {mine / theirs:.1f}x  (the target of <= 10x was set when both engines"
          " were pure Python; the compiled rules core speeds the direct engine more)"
          "\n   "
          f"  (runs: actors {', '.join(f'{t:.2f}' for t in actors)};"
          f" direct {', '.join(f'{t:.2f}' for t in direct)})")
    _against_the_reference(str(path), 1 if quick else 3)
    measured = _side_by_side(str(path), 1 if quick else 5, BEFORE_RECOVERY, native=True)
    if measured is not None:
        mine, before, plies = measured
        print(f"  the engine of {BEFORE_RECOVERY} (before recovery), compiled too, same file, alternating"
              f" runs: {before:5.2f} s; this engine {mine:5.2f} s: ratio {before / mine:.2f}"
              " (target >= 0.95)")
    measured = _side_by_side(str(path), 1 if quick else 5, BEFORE_FACTS)
    if measured is not None:
        mine, before, plies = measured
        print(f"  the engine of {BEFORE_FACTS} (before the rule of facts), same file, alternating runs:"
              f" {before:5.2f} s; this engine {mine:5.2f} s: ratio {before / mine:.2f} (target >= 1.0)")
    sample = [[token.text for token in game.moves] for game in read_games(path.open(encoding="utf-8"))]
    sample = sample[: 10 if quick else 40]
    per_ply, startup, per_ply_own, startup_own = _messages(sample)
    print(f"messages per ply including start-up, {len(sample)} of those games:")
    print(f"  pooled systems:   {per_ply:5.2f} per ply, {startup:.0f} start-up messages a game")
    print(f"  a system a game:  {per_ply_own:5.2f} per ply, {startup_own:.0f} start-up messages a game")
