"""The actor engine against the direct engine on the same games, messages per ply, and pykka's ask."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from typing import Any

from benchmarks.common import one_core_like_the_command_line, random_games_pgn

ROUNDS = 5


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
    from actors.game.game import ActorGame
    from actors.tracing.recorder import TraceRecorder
    from board.games.game import Game
    from board.notation.pgn import read_games

    path = random_games_pgn(10 if quick else 40, seed=11, max_plies=200)
    games = [[token.text for token in game.moves] for game in read_games(path.open(encoding="utf-8"))]
    with open("tests/data/opera-game.pgn", encoding="utf-8") as opera:
        famous = [token.text for token in next(read_games(opera)).moves]
    games.insert(0, famous)
    plies = sum(len(moves) for moves in games)

    def direct_pass() -> float:
        start = time.perf_counter()
        for moves in games:
            direct = Game()
            for move in moves:
                direct.play(move)
        return time.perf_counter() - start

    # Timed as replay runs the engine: no trace recorder, up to 16 proposals in flight; and one at
    # a time, as a caller of ``propose`` sees it. Actor start-up is left out. The three passes take
    # turns, ROUNDS times, and the medians are reported. Messages are counted in an untimed pass.
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

    rounds = 1 if quick else ROUNDS
    passes: dict[str, list[float]] = {name: [] for name in ("direct", "in flight", "one at a time", "spread")}
    for _ in range(rounds):
        passes["direct"].append(direct_pass())
        with one_core_like_the_command_line():
            passes["in flight"].append(actor_pass(True))
            passes["one at a time"].append(actor_pass(False))
        passes["spread"].append(actor_pass(True))
    rates = {name: sorted(plies / seconds for seconds in times) for name, times in passes.items()}

    def shown(name: str) -> str:
        rate = statistics.median(rates[name])
        spread = f" (runs: {', '.join(f'{r:,.0f}' for r in rates[name])})" if rounds > 1 else ""
        return f"{rate:>9,.0f} plies/s{spread}"

    recorder = TraceRecorder()
    for moves in games:
        with ActorGame(recorder=recorder) as game:
            for _ in game.propose_many(moves):
                pass
    events = recorder.events()
    counts = Counter(recorder.counts_by_kind())
    delivered = sum(counts.values())
    print(f"games: {len(games)} (the Opera game and {len(games) - 1} random games), {plies} plies; "
          "both engines play every move with SAN, check and outcome")
    print(f"medians of {rounds} alternating run{'s' if rounds > 1 else ''} each; actor start-up excluded,"
          " no trace recorder")
    print(f"{'direct engine:':<36}{shown('direct')}")
    print(f"{'actor engine, as replay runs it:':<36}{shown('in flight')}  target >= 5,000")
    print("  (actor threads on one core, 16 proposals in flight)")
    print(f"{'  one proposal at a time:':<36}{shown('one at a time')}")
    print(f"{'  threads free to use every core:':<36}{shown('spread')}")
    ratio = statistics.median(rates["direct"]) / statistics.median(rates["in flight"])
    print(f"ratio direct / actors: {ratio:.1f}x")
    print(f"delivered messages: {delivered} in all, {delivered / plies:.2f} per ply (target <= 6), "
          "including each game's start-up")
    for kind, count in counts.most_common():
        print(f"  {kind:<16} {count / plies:6.2f} per ply")
    _conversation_figures(events, games)
    asks = 2000 if quick else 20000
    with one_core_like_the_command_line():
        near = _pykka_round_trip(asks)
    far = _pykka_round_trip(asks)
    print(f"raw pykka ask round trip: {near * 1e6:.1f} us on one core, {far * 1e6:.1f} us free to use"
          " every core")


def _conversation_figures(events: list[Any], games: list[list[str]]) -> None:
    """How the verdicts rest on the replies: pieces that said no, hints the board corrected, and
    illegal moves refused without asking an actor that owns the fact (the aim: none)."""
    import random

    from actors.game.game import ActorGame
    from actors.tracing.recorder import TraceRecorder
    from board.games.game import Game
    from board.notation.algebraic import uci
    from board.rules.movegen import legal_moves

    queries = [event for event in events if event["kind"] == "MoveQuery"]
    noes = sum(event["reply"] == "No" for event in queries)
    corrected = {event["ply"] for event in events if event.get("hint") == "whereabouts-corrected"}
    print(f"MoveQuery answers: {len(queries)}, of which No: {noes} ({noes / max(1, len(queries)):.1%});"
          f" plies whose hint the board corrected: {len(corrected)}")
    # Illegal tries: at a random ply of each game, a move by a piece of the side to move to a square
    # it cannot legally reach, proposed through the actors; each refusal's conversation is read.
    rng = random.Random(5)
    recorder = TraceRecorder()
    tries = 0
    for moves in games:
        ply = rng.randrange(len(moves))
        direct = Game()
        for move in moves[:ply]:
            direct.play(move)
        legal = {uci(move) for move in legal_moves(direct.position)}
        origins = sorted({move[:2] for move in legal})
        squares = [f"{file}{rank}" for file in "abcdefgh" for rank in range(1, 9)]
        illegal = [f"{origin}{square}" for origin in origins for square in squares
                   if f"{origin}{square}" not in legal and origin != square]
        with ActorGame(direct.fen(), recorder=recorder) as game:
            for move in rng.sample(illegal, min(3, len(illegal))):
                game.propose(move)
                tries += 1
    rejected = [event for event in recorder.events()
                if event["kind"].startswith("Propose") and str(event["reply"]).startswith("Rejected")]
    children = {event["parent_id"] for event in recorder.events()}
    unasked = sum(event["msg_id"] not in children for event in rejected)
    print(f"illegal tries: {tries}, refused: {len(rejected)}, refused without asking the actors that own the"
          f" facts: {unasked}")
