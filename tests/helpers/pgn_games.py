"""The test data's famous games and two shorthands for PGN text, shared by the PGN reader's tests.

DATA is tests/data; FAMOUS names its seven famous games, one game a file (``DATA / f"{name}.pgn"``).
"""

from __future__ import annotations

import io
from pathlib import Path

from board.notation.pgn import PgnGame, read_games

DATA = Path(__file__).resolve().parents[1] / "data"
FAMOUS = (
    "opera-game",
    "immortal-game",
    "evergreen-game",
    "game-of-the-century",
    "kasparov-topalov-1999",
    "gundersen-faul-1928",
    "spassky-bronstein-1960",
)


def games(text: str) -> list[PgnGame]:
    """Every game of a PGN text."""
    return list(read_games(io.StringIO(text)))


def sans(game: PgnGame) -> list[str]:
    """The moves of a game as written."""
    return [move.text for move in game.moves]
