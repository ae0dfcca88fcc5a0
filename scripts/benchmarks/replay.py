"""Replay throughput, each figure side by side with its reference in one run.

* ``replay --engine direct`` as a whole command against python-chess's ``read_game`` + ``push`` (also a
  whole command), on the same 400-game file;
* the same command on the file compressed with zstd against the plain file.

Time against the input's size and layout (one line, the longest games) is ``bench.py lines``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.common import alternate, big_pgn_files, random_games_pgn

THEIRS = """
import sys
import chess.pgn
plies = 0
with open(sys.argv[1], encoding="utf-8") as source:
    while (game := chess.pgn.read_game(source)) is not None:
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
        board.outcome()
print(plies)
"""


def _replay(path: Path) -> int:
    """Run ``chess-actors replay PATH --engine direct --json`` and return the plies it judged."""
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", str(path), "--engine", "direct", "--json", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode not in (0, 1):
        raise SystemExit(f"replay failed: {result.stderr.strip()}")
    return sum(int(line.split('"plies": ', 1)[1].split(",", 1)[0]) for line in result.stdout.splitlines())


def _python_chess(path: Path) -> int:
    result = subprocess.run(
        [sys.executable, "-c", THEIRS, str(path)], capture_output=True, text=True, check=True
    )
    return int(result.stdout)


def _zstd_copy(path: Path) -> Path:
    import zstandard

    packed = path.with_name(path.name + ".zst")
    if not packed.exists():
        packed.write_bytes(zstandard.ZstdCompressor(level=10).compress(path.read_bytes()))
    return packed


def run(quick: bool) -> None:
    """Print the comparisons with their ratios."""
    from benchmarks import builds

    runs = 1 if quick else 3
    large = random_games_pgn(400 if quick else 4000)
    builds.replay(str(large), _replay(large), runs)
    path = random_games_pgn(100 if quick else 400)
    plies = _replay(path)
    assert plies == _python_chess(path), "the two readers disagree on the number of plies"
    mine, other = alternate(runs, lambda: _replay(path), lambda: _python_chess(path))
    print(f"file: {path.name} ({plies:,} plies), whole commands")
    print(f"  chess-actors replay --engine direct: {plies / mine:>10,.0f} plies/s ({mine:.2f} s)")
    print(f"  python-chess read_game + push:       {plies / other:>10,.0f} plies/s ({other:.2f} s)")
    print(f"  ratio (ours / python-chess): {other / mine:.2f}x  (target >= 2x)")

    # Throughput on a file large enough that start-up does not hide it (5 MB; 1 MB with --quick).
    small = 1 if quick else 5
    normal, _ = big_pgn_files(path, small)
    packed = _zstd_copy(normal)
    total = _replay(normal)
    assert _replay(packed) == total
    plain, compressed = alternate(runs, lambda: _replay(normal), lambda: _replay(packed))
    print(
        f"zstd: {packed.name} ({packed.stat().st_size:,} of {normal.stat().st_size:,} bytes, {total:,} plies)"
    )
    print(
        f"  plain: {total / plain:>10,.0f} plies/s   .zst: {total / compressed:>10,.0f} plies/s   "
        f"ratio {plain / compressed:.3f}  (target within 10%)"
    )
