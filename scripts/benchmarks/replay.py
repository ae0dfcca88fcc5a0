"""Replay throughput, each figure side by side with its reference in one run.

* ``replay --engine direct`` as a whole command against python-chess's ``read_game`` + ``push`` (also a
  whole command), on the same 400-game file;
* the same command on the file compressed with zstd against the plain file;
* a file that is one 50 MB line of games against a 50 MB file of the same games laid out normally,
  and each against a tenth of itself (linear time: the plies/s stay the same).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import alternate, random_games_pgn

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


def _big_files(source: Path, megabytes: int) -> tuple[Path, Path]:
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


def run(quick: bool) -> None:
    """Print the three comparisons with their ratios."""
    runs = 1 if quick else 3
    path = random_games_pgn(100 if quick else 400)
    plies = _replay(path)
    assert plies == _python_chess(path), "the two readers disagree on the number of plies"
    mine, other = alternate(runs, lambda: _replay(path), lambda: _python_chess(path))
    print(f"file: {path.name} ({plies:,} plies), whole commands")
    print(f"  chess-actors replay --engine direct: {plies / mine:>10,.0f} plies/s ({mine:.2f} s)")
    print(f"  python-chess read_game + push:       {plies / other:>10,.0f} plies/s ({other:.2f} s)")
    print(f"  ratio (ours / python-chess): {other / mine:.2f}x  (target >= 2x)")

    # Throughput on a file large enough that start-up does not hide it (5 MB; 1 MB with --quick).
    megabytes = 5 if quick else 50
    small = megabytes // 10
    normal, _ = _big_files(path, small)
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

    rates: dict[str, float] = {}
    for size in (small, megabytes):
        normal, one_line = _big_files(path, size)
        counted = {"normal": _replay(normal), "line": _replay(one_line)}
        took_normal, took_line = alternate(1, lambda n=normal: _replay(n), lambda o=one_line: _replay(o))
        rates[f"normal {size}"] = counted["normal"] / took_normal
        rates[f"line {size}"] = counted["line"] / took_line
        normal_rate, line_rate = rates[f"normal {size}"], rates[f"line {size}"]
        print(
            f"{size} MB: games as written {counted['normal']:,} plies, {normal_rate:,.0f} plies/s; "
            f"one line {counted['line']:,} plies, {line_rate:,.0f} plies/s"
        )
    line_to_normal = rates[f"line {megabytes}"] / rates[f"normal {megabytes}"]
    print(f"  one line / as written at {megabytes} MB: {line_to_normal:.2f} (target within 2x)")
    print(
        f"  linear: plies/s at {megabytes} MB / at {small} MB: as written "
        f"{rates[f'normal {megabytes}'] / rates[f'normal {small}']:.2f}, "
        f"one line {rates[f'line {megabytes}'] / rates[f'line {small}']:.2f}"
    )
