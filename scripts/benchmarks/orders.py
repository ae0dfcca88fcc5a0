"""Delivery orders: a ply under the turnstile beside the same ply free, orders explored per second,
the Opera game explored exhaustively, and every ply of twenty games under many random orders."""

from __future__ import annotations

import glob
import time

from benchmarks.common import one_core_like_the_command_line, random_games_pgn

ORDERS_PER_PLY = 200


def _games(count: int) -> list[list[str]]:
    from board.pgn import read_games

    paths = sorted(glob.glob("tests/data/*.pgn"))
    games: list[list[str]] = []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            games.extend([token.text for token in game.moves] for game in read_games(file))
    if len(games) < count:
        extra = random_games_pgn(count - len(games), seed=16, max_plies=60)
        with extra.open(encoding="utf-8") as file:
            games.extend([token.text for token in game.moves] for game in read_games(file))
    return games[:count]


def run(quick: bool) -> None:
    """Print the turnstile's cost per ply, orders/s, the Opera game exhaustively, and the soak figure."""
    with one_core_like_the_command_line():
        _measure(quick)


def _measure(quick: bool) -> None:
    from actors.client.explore import explore, game_plies, ply_runner
    from actors.client.game import ActorGame
    from actors.kernel.policies import Fifo
    from actors.kernel.schedule import Turnstile
    from board.fen import STARTING_FEN
    from board.pgn import read_games

    with open("tests/data/opera-game.pgn", encoding="utf-8") as file:
        opera_moves = [token.text for token in next(read_games(file)).moves]
    plies = game_plies(STARTING_FEN, opera_moves)

    # One ply on fresh actors, free beside fifo: what the turnstile costs a run (start-up included).
    def one_ply(schedule: Turnstile | None) -> float:
        _, fen, move = plies[32]
        start = time.perf_counter()
        with ActorGame(fen, schedule=schedule) as game:
            game.propose(move)
        return time.perf_counter() - start

    rounds = 5 if quick else 20
    free = sorted(one_ply(None) for _ in range(rounds))[rounds // 2]
    fifo = sorted(one_ply(Turnstile(Fifo())) for _ in range(rounds))[rounds // 2]
    print(f"one ply on fresh actors (Rd8#, start-up included): free {free * 1e3:.1f} ms, "
          f"under the turnstile {fifo * 1e3:.1f} ms: ratio {fifo / free:.2f}x")

    chosen = plies if not quick else plies[-3:]
    orders, seconds = 0, 0.0
    for _, fen, move in chosen:
        report = explore(ply_runner(fen, move), None)
        assert report.exhaustive and report.same
        orders += report.orders
        seconds += report.seconds
    label = "every ply" if not quick else "the last 3 plies"
    print(f"Opera game, {label} exhaustively: {orders} orders in {seconds:.1f} s "
          f"({orders / seconds:.1f} orders/s, the arrival-order reference run included in the time)")

    games = _games(20 if not quick else 2)
    per_ply = ORDERS_PER_PLY if not quick else 2
    start = time.perf_counter()
    runs = checked = 0
    for index, moves in enumerate(games):
        game_plies_list = game_plies(STARTING_FEN, moves)
        for number, fen, move in game_plies_list if not quick else game_plies_list[:4]:
            report = explore(ply_runner(fen, move), per_ply, seed=index * 1000 + number)
            assert report.same, f"game {index + 1} ply {number} {move}: {report.differences}"
            runs += per_ply + 1
            checked += 1
    elapsed = time.perf_counter() - start
    print(f"{len(games)} games, {checked} plies, {per_ply} random orders each: every order agreed; "
          f"{runs} runs in {elapsed:.0f} s ({runs / elapsed:.1f} runs/s)")
