"""Seeded random games that our own rules play, some ending in an illegal try, and what a replay of
one decided: the links', the nodes' and the schedule's tests replay them and compare the verdicts."""

from __future__ import annotations

import random

from board.games.game import Game
from board.notation.algebraic import san
from board.notation.pgn import PgnGame, read_games
from board.rules.movegen import legal_moves

ILLEGAL_TRIES = ("Ke5", "O-O", "exd6", "Qxh8", "a8=Q", "Nf3")
"""What every fourth game tries after its random moves (then e4): moves seldom legal there."""


def self_play_games(count: int, seed: int, max_plies: int = 60) -> list[PgnGame]:
    """``count`` seeded random games (our own rules pick the moves); every fourth ends in an illegal try."""
    rng = random.Random(seed)
    texts = []
    for number in range(count):
        board = Game()
        moves: list[str] = []
        for _ in range(rng.randrange(10, max_plies)):
            legal = legal_moves(board.position)
            if not legal or board.ended():
                break
            moves.append(san(board.position, rng.choice(legal)))
            board.play(moves[-1], want_san=False)
        if number % 4 == 3:
            moves.append(rng.choice(ILLEGAL_TRIES))
            moves.append("e4")
        numbered = " ".join(f"{i // 2 + 1}. {move}" if i % 2 == 0 else move for i, move in enumerate(moves))
        texts.append(f'[Event "self-play {number + 1}"]\n\n{numbered} *\n')
    return list(read_games("\n".join(texts).splitlines(keepends=True)))


def outcome_of(verdict: object) -> tuple[object, ...]:
    """What a replay decided: plies, final position, outcome, and where and why it stopped."""
    record = verdict.as_json()  # type: ignore[attr-defined]
    error = record["error"]
    return record["plies"], record["fen"], record["outcome"], error and (error["ply"], error["reason"])
