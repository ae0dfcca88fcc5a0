"""The actor engine against the direct engine on the same games, messages per ply, and pykka's ask."""

from __future__ import annotations

import time
from collections import Counter

from benchmarks.common import random_games_pgn


def _pykka_round_trip(asks: int) -> float:
    import pykka

    class Echo(pykka.ThreadingActor):
        def on_receive(self, message: object) -> object:
            return message

    echo = Echo.start()
    try:
        for _ in range(500):
            echo.ask(None)
        start = time.perf_counter()
        for _ in range(asks):
            echo.ask(None, timeout=5)
        return (time.perf_counter() - start) / asks
    finally:
        echo.stop()


def run(quick: bool) -> None:
    """Print plies/s of both engines on the same games, delivered messages per ply, ask latency."""
    from actors.game import ActorGame
    from actors.tracing import TraceRecorder
    from board.game import Game
    from board.pgn import read_games

    path = random_games_pgn(10 if quick else 40, seed=11, max_plies=200)
    games = [[token.text for token in game.moves] for game in read_games(path.open(encoding="utf-8"))]
    with open("tests/data/opera-game.pgn", encoding="utf-8") as opera:
        famous = [token.text for token in next(read_games(opera)).moves]
    games.insert(0, famous)
    plies = sum(len(moves) for moves in games)

    start = time.perf_counter()
    for moves in games:
        direct = Game()
        for move in moves:
            direct.play(move)
    direct_seconds = time.perf_counter() - start

    # Timed as replay runs the engine: no trace recorder, up to 16 proposals in flight. Then one at
    # a time, as a caller of ``propose`` sees it. The messages are counted in a third, untimed pass.
    def actor_pass(pipelined: bool) -> float:
        seconds = 0.0
        for moves in games:
            with ActorGame() as game:
                started = time.perf_counter()
                if pipelined:
                    replies = list(game.propose_many(moves))
                else:
                    replies = [game.propose(move) for move in moves]
                seconds += time.perf_counter() - started
                assert len(replies) == game.plies == len(moves), "every move of these games is legal"
        return seconds

    actor_seconds = actor_pass(True)
    single_seconds = actor_pass(False)
    recorder = TraceRecorder()
    for moves in games:
        with ActorGame(recorder=recorder) as game:
            for _ in game.propose_many(moves):
                pass
    counts = Counter(recorder.counts_by_kind())
    delivered = sum(counts.values())
    print(f"games: {len(games)} (the Opera game and {len(games) - 1} random games), {plies} plies; "
          "both engines play every move with SAN, check and outcome")
    print(f"direct engine: {plies / direct_seconds:>9,.0f} plies/s")
    print(f"actor engine:  {plies / actor_seconds:>9,.0f} plies/s  (target >= 3,000; as replay runs it: "
          "16 proposals in flight, actor start-up excluded, no trace recorder)")
    print(f"  one proposal at a time: {plies / single_seconds:,.0f} plies/s")
    print(f"ratio direct / actors: {actor_seconds / direct_seconds:.1f}x")
    print(f"delivered messages: {delivered} in all, {delivered / plies:.2f} per ply (target <= 8), "
          "including each game's start-up")
    for kind, count in counts.most_common():
        print(f"  {kind:<16} {count / plies:6.2f} per ply")
    print(f"raw pykka ask round trip: {_pykka_round_trip(2000 if quick else 20000) * 1e6:.1f} us")
