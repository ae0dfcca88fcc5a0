"""The puzzles: ChessMoveQ (can a piece of a colour and kind legally move to a square of a bare
position?) and the knight puzzles on any W x H board (shortest paths, the treasure hunt, tours).

Depends on board.rules (squares, and the judge ChessMoveQ shares with both engines) and the base
modules; nothing else in board imports it but the package root. Each public name below loads its
module on first use, so that ``knight path`` does not load the tour builders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board.lazy import lazy_names

if TYPE_CHECKING:
    from board.puzzles.chessmoveq import Answer as Answer
    from board.puzzles.chessmoveq import ChessMoveQError as ChessMoveQError
    from board.puzzles.chessmoveq import Placement as Placement
    from board.puzzles.chessmoveq import answer as answer
    from board.puzzles.chessmoveq import answer_from_facts as answer_from_facts
    from board.puzzles.chessmoveq import explain as explain
    from board.puzzles.chessmoveq import intent_for as intent_for
    from board.puzzles.chessmoveq import is_valid_move as is_valid_move
    from board.puzzles.chessmoveq import parse_json_case as parse_json_case
    from board.puzzles.chessmoveq import parse_json_move as parse_json_move
    from board.puzzles.chessmoveq import parse_json_position as parse_json_position
    from board.puzzles.chessmoveq import parse_move as parse_move
    from board.puzzles.chessmoveq import parse_position as parse_position
    from board.puzzles.knights.path import PathTooLongError as PathTooLongError
    from board.puzzles.knights.path import knight_distance as knight_distance
    from board.puzzles.knights.path import shortest_path as shortest_path
    from board.puzzles.knights.tour import NoTourError as NoTourError
    from board.puzzles.knights.tour import TourTooLargeError as TourTooLargeError
    from board.puzzles.knights.tour import knight_tour as knight_tour
    from board.puzzles.knights.treasure import TreasureCountError as TreasureCountError
    from board.puzzles.knights.treasure import treasure_hunt as treasure_hunt

__getattr__, __dir__ = lazy_names(__name__)
