"""The PGN reader's time is linear in blanks, however they are laid out: files of N characters of
padding from 10^4 to 10^7, each read in full through the command line's byte reader.

* trailing blanks: one game whose first line ends in N spaces (the lexer once rescanned them from
  each blank, quadratic in N);
* blank lines: N empty lines before one game;
* blank lines with spaces: N lines of two spaces;
* a UTF-8 line: one tag with a non-ASCII name, then a line of N/2 ``(`` ``)`` pairs after a
  non-ASCII word (each column was once counted from the start of the line).

Each figure is the best of a few runs of ``read_games`` over ``PgnInput(path).blocks()`` (the work
of ``replay`` before any move is judged), and the nanoseconds per character of input; linear time
means that figure stays flat as N grows. ``--quick``: up to 10^6.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from actors.cli.inputs import PgnInput
from board.notation.pgn import read_games

GAME = b"1. e4 e5 2. Nf3 Nc6 *\n"
LAYOUTS: dict[str, Callable[[int], bytes]] = {
    "trailing blanks": lambda n: b"1. e4 e5" + b" " * n + b"\n2. Nf3 Nc6 *\n",
    "blank lines": lambda n: b"\n" * n + GAME,
    "blank lines with spaces": lambda n: b"  \n" * (n // 3) + GAME,
    "a UTF-8 line": lambda n: '[White "Ré"]\n1. e4 é'.encode() + b" ()" * (n // 3) + b"\n*\n",
}


def _seconds(path: Path, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        games = list(read_games(PgnInput(str(path)).blocks(), name=str(path)))
        best = min(best, time.perf_counter() - start)
        assert games, f"{path}: no game read"
    return best


def run(quick: bool) -> None:
    """Print, for each layout and size, the time to read it and the nanoseconds per character."""
    sizes = [10**power for power in range(4, 7 if quick else 8)]
    runs = 1 if quick else 3
    with tempfile.TemporaryDirectory() as folder:
        for name, make in LAYOUTS.items():
            figures = []
            for size in sizes:
                path = Path(folder) / "padded.pgn"
                data = make(size)
                path.write_bytes(data)
                seconds = _seconds(path, runs)
                figures.append(seconds * 1e9 / len(data))
                print(f"  {name + ':':<25} N = {size:>10,}  {seconds:>8.4f} s  {figures[-1]:>7.1f} ns/char",
                      flush=True)
            print(f"  {name}: ns/char at 10^{len(sizes) + 3} / at 10^5: {figures[-1] / figures[1]:.2f}")
