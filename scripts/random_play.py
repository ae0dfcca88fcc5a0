"""Seeded random games played by the direct engine, for the harnesses in scripts/ (faults, soak)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from board.errors import IllegalMoveError
from board.games.game import Game
from board.notation.algebraic import san
from board.rules.movegen import legal_moves


def random_play(rng: random.Random, max_plies: int) -> tuple[list[str], Game]:
    """Between 1 and ``max_plies`` random legal plies (fewer if the game ends): their SAN, and the game."""
    game = Game()
    moves: list[str] = []
    for _ in range(rng.randint(1, max_plies)):
        legal = legal_moves(game.position)
        if not legal or game.ended():
            break
        text = san(game.position, rng.choice(legal))
        game.play(text, want_san=False)
        moves.append(text)
    return moves, game


def illegal_move(rng: random.Random, game: Game, tries: Sequence[str]) -> str | None:
    """One of ``tries``, taken in a random order, that is illegal where ``game`` stands (None if none is)."""
    for attempt in rng.sample(list(tries), len(tries)):
        try:
            Game(game.fen()).play(attempt, want_san=False)
        except IllegalMoveError:
            return attempt
    return None
