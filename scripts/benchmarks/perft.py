"""Perft speed of the rules core beside python-chess, measured in one run, and deep counts checked.

Both engines run the same algorithm: leaves are counted in bulk (the number of legal moves one ply
above them) and every other move is made and taken back in place. Runs alternate ours, theirs, ours,
theirs, ... and each side's median of three is reported, so a noisy machine penalises neither.
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from collections.abc import Callable
from typing import Any

from board.notation.fen import STARTING_FEN, parse_fen
from board.rules.perft import perft

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

# Chess Programming Wiki, "Perft Results".
PUBLISHED: dict[tuple[str, int], int] = {
    (STARTING_FEN, 4): 197_281,
    (STARTING_FEN, 5): 4_865_609,
    (STARTING_FEN, 6): 119_060_324,
    (KIWIPETE, 3): 97_862,
    (KIWIPETE, 4): 4_085_603,
    (KIWIPETE, 5): 193_690_690,
    (POSITION_3, 5): 674_624,
    (POSITION_3, 6): 11_030_083,
    (POSITION_4, 4): 422_333,
    (POSITION_4, 5): 15_833_292,
    (POSITION_4_MIRRORED, 4): 422_333,
    (POSITION_4_MIRRORED, 5): 15_833_292,
    (POSITION_5, 3): 62_379,
    (POSITION_5, 4): 2_103_487,
    (POSITION_6, 3): 89_890,
    (POSITION_6, 4): 3_894_594,
}
NAMES = {
    STARTING_FEN: "initial",
    KIWIPETE: "kiwipete",
    POSITION_3: "position 3",
    POSITION_4: "position 4",
    POSITION_4_MIRRORED: "position 4 mirrored",
    POSITION_5: "position 5",
    POSITION_6: "position 6",
}
ROUNDS = 3


def python_chess_perft(board: Any, depth: int) -> int:
    """The same bulk-counting perft over a ``chess.Board``."""
    if depth <= 0:
        return 1
    if depth == 1:
        count: int = board.legal_moves.count()
        return count
    nodes = 0
    push, pop = board.push, board.pop
    for move in list(board.legal_moves):
        push(move)
        nodes += python_chess_perft(board, depth - 1)
        pop()
    return nodes


def _timed(count: Callable[..., int], *arguments: Any) -> tuple[int, float]:
    start = time.perf_counter()
    nodes = count(*arguments)
    return nodes, time.perf_counter() - start


def _ours(fen: str, depth: int) -> int:
    return perft(parse_fen(fen), depth)


def _theirs(fen: str, depth: int) -> int:
    import chess

    return python_chess_perft(chess.Board(fen), depth)


def _rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds / 1e6:6.3f} M/s" if seconds > 0 else "     inf"


def _verdict(fen: str, depth: int, nodes: int) -> str:
    expected = PUBLISHED.get((fen, depth))
    if expected is None:
        return "(no published count)"
    return "OK" if nodes == expected else f"MISMATCH (published {expected:,})"


def _side_by_side(fen: str, depth: int) -> None:
    # Without the reference installed the benchmark still measures this engine.
    have_reference = importlib.util.find_spec("chess") is not None
    ours: list[float] = []
    theirs: list[float] = []
    our_nodes = their_nodes = 0
    for _ in range(ROUNDS):
        our_nodes, seconds = _timed(_ours, fen, depth)
        ours.append(seconds)
        if have_reference:
            their_nodes, seconds = _timed(_theirs, fen, depth)
            theirs.append(seconds)
    our_median = statistics.median(ours)
    line = f"{NAMES[fen]:<12} depth {depth}  {our_nodes:>11,} nodes  ours {_rate(our_nodes, our_median)}"
    if not have_reference:
        print(f"{line}  python-chess not installed  {_verdict(fen, depth, our_nodes)}", flush=True)
        return
    their_median = statistics.median(theirs)
    ratio = their_median / our_median if our_median > 0 else float("inf")
    agree = "" if their_nodes == our_nodes else f"  engines disagree: python-chess {their_nodes:,}"
    print(
        f"{line}  python-chess {_rate(their_nodes, their_median)}  ours/theirs speed {ratio:5.2f}x"
        f"  {_verdict(fen, depth, our_nodes)}{agree}",
        flush=True,
    )


KNIGHTS = ("b1", "g1", "b8", "g8")


def _cpu_timed(count: Callable[..., int], *arguments: Any) -> tuple[int, float]:
    start = time.process_time()
    nodes = count(*arguments)
    return nodes, time.process_time() - start


def _taught(fen: str, depth: int, lesson: str) -> int:
    from board.rules.taught import TaughtBoard, read_lessons
    from board.rules.taught import perft as taught_perft

    position = parse_fen(fen)
    return taught_perft(TaughtBoard(position, read_lessons(position, dict.fromkeys(KNIGHTS, lesson))), depth)


def _taught_beside_standard(fen: str, depth: int) -> None:
    """The cost of a Betza piece against a standard one: the four knights of ``fen`` taught Betza's
    ``N`` (the same moves, so the same count) and ``NC`` (knight + camel), counted by the taught
    engine, beside the standard count of the same position; medians of alternating runs, in CPU
    time (one thread: a loaded machine stretches the wall clock, not the work)."""
    runs: dict[str, list[float]] = {"standard": [], "N": [], "NC": []}
    nodes: dict[str, int] = {}
    for _ in range(ROUNDS):
        nodes["standard"], seconds = _cpu_timed(_ours, fen, depth)
        runs["standard"].append(seconds)
        for lesson in ("N", "NC"):
            nodes[lesson], seconds = _cpu_timed(_taught, fen, depth, lesson)
            runs[lesson].append(seconds)
    standard = statistics.median(runs["standard"])
    standard_rate = nodes["standard"] / standard if standard > 0 else float("inf")
    print(f"{NAMES[fen]:<12} depth {depth}  standard          {nodes['standard']:>9,} nodes "
          f"{_rate(nodes['standard'], standard)}", flush=True)
    for lesson in ("N", "NC"):
        median = statistics.median(runs[lesson])
        rate = nodes[lesson] / median if median > 0 else float("inf")
        same = "  (the standard count)" if nodes[lesson] == nodes["standard"] else ""
        print(
            f"{'':<12} knights taught {lesson:<2} {nodes[lesson]:>9,} nodes {_rate(nodes[lesson], median)}"
            f"  standard/taught speed {standard_rate / rate if rate > 0 else float('inf'):5.1f}x{same}",
            flush=True,
        )


def run(quick: bool) -> None:
    """Print perft nodes per second of both engines and check deeper counts of ours."""
    from pathlib import Path

    from benchmarks import builds

    print(f"this install's rules core: {builds.build_of_this_install()}", flush=True)
    depth = 3 if quick else 4
    builds.perft(KIWIPETE, depth, PUBLISHED[(KIWIPETE, depth)], 1 if quick else ROUNDS,
                 str(Path(__file__).resolve().parent.parent))
    print(f"in this process ({builds.build_of_this_install()} build):", flush=True)
    print(f"median of {ROUNDS} alternating runs per engine; leaves counted in bulk by both", flush=True)
    _side_by_side(STARTING_FEN, 4 if quick else 5)
    _side_by_side(KIWIPETE, 3 if quick else 4)
    print("taught pieces (board.rules.taught) beside standard perft, same position, CPU time:", flush=True)
    _taught_beside_standard(STARTING_FEN, 3 if quick else 4)
    print("deeper counts (this engine only):", flush=True)
    deeper = (
        [(POSITION_3, 5), (POSITION_4, 4), (POSITION_4_MIRRORED, 4), (POSITION_5, 3), (POSITION_6, 3)]
        if quick
        else [(POSITION_3, 6), (POSITION_4, 5), (POSITION_4_MIRRORED, 5), (POSITION_5, 4), (POSITION_6, 4)]
    )
    for fen, depth in deeper:
        nodes, seconds = _timed(_ours, fen, depth)
        print(
            f"{NAMES[fen]:<20} depth {depth}  {nodes:>11,} nodes  {seconds:6.2f} s  {_rate(nodes, seconds)}"
            f"  {_verdict(fen, depth, nodes)}",
            flush=True,
        )
