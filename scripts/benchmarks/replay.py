"""Replay throughput: ``replay --engine direct`` against python-chess's PGN reader, same file."""

from __future__ import annotations

import io

from benchmarks.common import alternate, random_games_pgn


def run(quick: bool) -> None:
    """Print plies/s of both readers on one generated file, and their ratio."""
    import chess.pgn

    from actors.client.replay import replay_stream

    path = random_games_pgn(100 if quick else 400)
    text = path.read_text(encoding="utf-8")

    def ours() -> int:
        return sum(verdict.plies for verdict in replay_stream(io.StringIO(text), "direct"))

    def theirs() -> int:
        plies = 0
        source = io.StringIO(text)
        while (game := chess.pgn.read_game(source)) is not None:
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                plies += 1
            board.outcome()
        return plies

    plies = ours()
    assert plies == theirs(), "the two readers disagree on the number of plies"
    mine, other = alternate(1 if quick else 3, ours, theirs)
    print(f"file: {path.name} ({plies} plies)")
    print(f"chess-actors replay --engine direct: {plies / mine:>10,.0f} plies/s")
    print(f"python-chess read_game + push:       {plies / other:>10,.0f} plies/s")
    print(f"ratio (ours / python-chess): {other / mine:.2f}x  (target >= 1.5x)")
