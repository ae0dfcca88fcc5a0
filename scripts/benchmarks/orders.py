"""Delivery orders: a ply under the turnstile beside the same ply free, orders explored per second,
the Opera game explored exhaustively, and every ply of twenty games under many random orders."""

from __future__ import annotations

import glob
import time

from benchmarks.common import one_core_like_the_command_line

ORDERS_PER_PLY = 200


def _games() -> list[list[str]]:
    """The twenty real games of the test: the miniatures, and the three shortest famous games."""
    from board.notation.pgn import read_games

    def moves_of(path: str) -> list[list[str]]:
        with open(path, encoding="utf-8") as file:
            return [[token.text for token in game.moves] for game in read_games(file)]

    famous = [game for path in sorted(glob.glob("tests/data/*.pgn")) if not path.endswith("famous.pgn")
              for game in moves_of(path)]
    return moves_of("tests/data/miniatures/short-games.pgn") + sorted(famous, key=len)[:3]


def run(quick: bool) -> None:
    """Print the turnstile's cost per ply, a ply on fresh actors beside a ply on a reused system,
    orders/s, the Opera game exhaustively, and every ply of twenty games under random orders."""
    with one_core_like_the_command_line():
        _measure(quick)


def _measure(quick: bool) -> None:
    from actors.game.game import ActorGame
    from actors.kernel.policies import Fifo, Random
    from actors.kernel.schedule import Turnstile
    from actors.study.explore import explore
    from actors.study.orders import OrderedSystem, explore_game, game_plies
    from board.notation.fen import STARTING_FEN
    from board.notation.pgn import read_games

    with open("tests/data/opera-game.pgn", encoding="utf-8") as file:
        opera_moves = [token.text for token in next(read_games(file)).moves]
    plies = game_plies(STARTING_FEN, opera_moves)
    _, last_fen, last_move = plies[32]

    # One ply on fresh actors, free beside fifo: what the turnstile costs a run (start-up included).
    def one_ply(schedule: Turnstile | None) -> float:
        start = time.perf_counter()
        with ActorGame(last_fen, schedule=schedule) as game:
            game.propose(last_move)
        return time.perf_counter() - start

    rounds = 5 if quick else 20
    free = sorted(one_ply(None) for _ in range(rounds))[rounds // 2]
    fifo = sorted(one_ply(Turnstile(Fifo())) for _ in range(rounds))[rounds // 2]
    print(f"one ply on fresh actors (Rd8#, start-up included): free {free * 1e3:.1f} ms, "
          f"under the turnstile {fifo * 1e3:.1f} ms: ratio {fifo / free:.2f}x")

    with OrderedSystem() as system:
        run_once = system.ply(last_fen, last_move)
        run_once(Fifo())
        timings = []
        for seed in range(rounds):
            start = time.perf_counter()
            run_once(Random(seed))
            timings.append(time.perf_counter() - start)
        reused = sorted(timings)[rounds // 2]
        print(f"one explored run of that ply: on fresh actors {fifo * 1e3:.1f} ms, on one system re-seated "
              f"for the run {reused * 1e3:.1f} ms: {fifo / reused:.1f}x fewer seconds a run")

        chosen = plies if not quick else plies[-3:]
        orders, seconds = 0, 0.0
        for _, fen, move in chosen:
            report = explore(system.ply(fen, move), None)
            assert report.exhaustive and report.same
            orders += report.orders
            seconds += report.seconds
        label = "every ply" if not quick else "the last 3 plies"
        print(f"Opera game, {label} exhaustively: {orders} orders in {seconds:.1f} s "
              f"({orders / seconds:.1f} orders/s, the arrival-order reference run included in the time)")

        games = _games() if not quick else _games()[:2]
        per_game = ORDERS_PER_PLY if not quick else 5
        start = time.perf_counter()
        checked = 0
        for index, moves in enumerate(games):
            reports = explore_game(system, STARTING_FEN, moves, per_game, seed=index * per_game)
            assert all(report.same for report in reports), f"game {index + 1}: an order changed a ply"
            checked += len(reports)
        elapsed = time.perf_counter() - start
        runs = checked * (per_game + 1)
        print(f"{len(games)} real games, every ply ({checked}) under {per_game} random orders (one run "
              f"of the whole game an order): every order agreed; {runs} ply runs in {elapsed:.0f} s "
              f"({runs / elapsed:.0f} ply runs/s)")
