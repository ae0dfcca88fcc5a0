"""Games played and judged whole: the direct engine's game in progress, and the verdict on a PGN
game that every engine and the command line share.

Depends on board.rules and board.notation (a game reads FEN and moves as text); neither imports it.
Each public name below loads its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board.lazy import lazy_names

if TYPE_CHECKING:
    from board.games.game import Game
    from board.games.played import Played
    from board.games.replay import (
        bad_start,
        is_chess960,
        move_error,
        replay_direct,
        start_fen,
        start_game,
        verdict,
    )
    from board.games.verdicts import FAILURE, ILLEGAL, UNREADABLE, GameVerdict, MoveError

# Each public name and the module (in this package) that defines it.
_SOURCES: dict[str, str] = {
    "Game": "game",
    "Played": "played",
    **dict.fromkeys(["FAILURE", "GameVerdict", "ILLEGAL", "MoveError", "UNREADABLE"], "verdicts"),
    **dict.fromkeys(
        [
            "bad_start",
            "is_chess960",
            "move_error",
            "replay_direct",
            "start_fen",
            "start_game",
            "verdict",
        ],
        "replay",
    ),
}

__all__ = [
    "FAILURE",
    "ILLEGAL",
    "UNREADABLE",
    "Game",
    "GameVerdict",
    "MoveError",
    "Played",
    "bad_start",
    "is_chess960",
    "move_error",
    "replay_direct",
    "start_fen",
    "start_game",
    "verdict",
]


__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
