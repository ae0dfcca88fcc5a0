"""Games played and judged whole: the direct engine's game in progress, and the verdict on a PGN
game that every engine and the command line share.

Depends on board.rules and board.notation (a game reads FEN and moves as text); neither imports it.
Each public name below loads its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board.lazy import lazy_names

if TYPE_CHECKING:
    from board.games.game import Game as Game
    from board.games.played import Played as Played
    from board.games.replay import bad_start as bad_start
    from board.games.replay import is_chess960 as is_chess960
    from board.games.replay import move_error as move_error
    from board.games.replay import replay_direct as replay_direct
    from board.games.replay import start_fen as start_fen
    from board.games.replay import start_game as start_game
    from board.games.replay import verdict as verdict
    from board.games.verdicts import FAILURE as FAILURE
    from board.games.verdicts import ILLEGAL as ILLEGAL
    from board.games.verdicts import UNREADABLE as UNREADABLE
    from board.games.verdicts import GameVerdict as GameVerdict
    from board.games.verdicts import MoveError as MoveError

__getattr__, __dir__ = lazy_names(__name__)
