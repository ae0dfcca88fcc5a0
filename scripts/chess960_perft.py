#!/usr/bin/env python3
"""The Chess960 perft suite: all 960 start positions, counted by python-chess and by this engine.

    python scripts/chess960_perft.py make [--every N]   write tests/data/chess960.perft with python-chess
    python scripts/chess960_perft.py check [--depth D] [--suite FILE] [--limit NODES]
                                                        count every entry with board.rules.perft, compare

The data file lists, for each start position, its X-FEN and its perft counts at depths 1 to 3, and
at depth 4 (the deepest whose counts are under 1,000,000) for every N-th position (``--every``; 1:
all), counted by python-chess, the oracle. ``check --suite FILE`` reads any file of that format
instead: the published Chess960 perft suite (``chess960.perft`` as python-chess distributes it in
``examples/perft``, from the Chess960 perft results of chess programming references: 960 positions
a few moves into their games, counts to depth 6) is one; ``--limit`` keeps to the counts under it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT / "tests" / "data" / "chess960.perft"
LIMIT = 1_000_000
HEADER = """\
# Chess960 perft: the 960 start positions (Scharnagl numbering, 'id'), each with its X-FEN ('epd')
# and its perft counts ('perft DEPTH NODES') at depths 1-3, and at depth 4 for {which}
# (depth 4 is the deepest whose counts are all under 1,000,000; depth 5 runs to millions).
# Written by scripts/chess960_perft.py make --every {every}, counting with python-chess (the oracle).
"""


def _python_chess_perft(board: object, depth: int) -> int:
    import chess

    assert isinstance(board, chess.Board)
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += _python_chess_perft(board, depth - 1)
        board.pop()
    return nodes


def make(every: int, path: Path = DATA) -> None:
    """Write the data file with python-chess's counts (depth 4 for every ``every``-th position)."""
    import chess

    which = "every position" if every == 1 else f"every {every}th position"
    lines = [HEADER.format(every=every, which=which)]
    for number in range(960):
        board = chess.Board.from_chess960_pos(number)
        lines.append(f"id {number}\nepd {board.fen()}\n")
        for depth in range(1, 5 if number % every == 0 else 4):
            nodes = _python_chess_perft(board, depth)
            if nodes >= LIMIT:
                raise SystemExit(f"position {number}: {nodes:,} nodes at depth {depth}, past the limit")
            lines.append(f"perft {depth} {nodes}\n")
    path.write_text("".join(lines), encoding="utf-8")


def read_suite(path: Path = DATA) -> list[tuple[int, str, dict[int, int]]]:
    """The entries of a data file: (number, X-FEN, {depth: nodes})."""
    entries: list[tuple[int, str, dict[int, int]]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        word, _, rest = line.partition(" ")
        if word == "id":
            entries.append((int(rest), "", {}))
        elif word == "epd":
            number, _, counts = entries[-1]
            entries[-1] = (number, rest, counts)
        elif word == "perft":
            depth, nodes = rest.split()
            entries[-1][2][int(depth)] = int(nodes)
    return entries


def check(max_depth: int, suite: Path = DATA, limit: int | None = None) -> int:
    """Count every entry of ``suite`` up to ``max_depth`` (and, given ``limit``, under that many
    nodes) with board.rules.perft; print the totals and the mismatches."""
    from board.notation.fen import parse_fen
    from board.rules.perft import perft

    wrong = 0
    counted = 0
    started = time.perf_counter()
    for number, fen, counts in read_suite(suite):
        position = parse_fen(fen, chess960=True)
        for depth, nodes in counts.items():
            if depth > max_depth or (limit is not None and nodes >= limit):
                continue
            found = perft(position, depth)
            counted += 1
            if found != nodes:
                wrong += 1
                print(f"position {number} depth {depth}: {found}, expected {nodes}")
    seconds = time.perf_counter() - started
    print(f"{counted} counts checked, {wrong} wrong, in {seconds:.1f} s")
    return 1 if wrong else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("make", "check"))
    parser.add_argument("--every", type=int, default=1, help="count depth 4 for every N-th position")
    parser.add_argument("--to", type=Path, default=DATA, help="the file to write")
    parser.add_argument("--depth", type=int, default=99, help="check depths up to this one")
    parser.add_argument("--suite", type=Path, default=DATA,
                        help="the suite to check (default: the data file), e.g. the published chess960.perft")
    parser.add_argument("--limit", type=int, default=None, help="check only the counts under this many nodes")
    args = parser.parse_args()
    if args.action == "make":
        make(args.every, args.to)
        return 0
    return check(args.depth, args.suite, args.limit)


if __name__ == "__main__":
    sys.exit(main())
