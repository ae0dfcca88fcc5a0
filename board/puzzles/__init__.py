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
    from board.puzzles.chessmoveq import (
        Answer,
        ChessMoveQError,
        Placement,
        answer,
        answer_from_facts,
        explain,
        intent_for,
        is_valid_move,
        parse_json_case,
        parse_json_move,
        parse_json_position,
        parse_move,
        parse_position,
    )
    from board.puzzles.knights.path import PathTooLongError, knight_distance, shortest_path
    from board.puzzles.knights.tour import NoTourError, TourTooLargeError, knight_tour
    from board.puzzles.knights.treasure import TreasureCountError, treasure_hunt

# Each public name and the module (in this package) that defines it.
_SOURCES: dict[str, str] = {
    **dict.fromkeys(
        [
            "Answer",
            "ChessMoveQError",
            "Placement",
            "answer",
            "answer_from_facts",
            "explain",
            "intent_for",
            "is_valid_move",
            "parse_json_case",
            "parse_json_move",
            "parse_json_position",
            "parse_move",
            "parse_position",
        ],
        "chessmoveq",
    ),
    **dict.fromkeys(["PathTooLongError", "knight_distance", "shortest_path"], "knights.path"),
    **dict.fromkeys(["NoTourError", "TourTooLargeError", "knight_tour"], "knights.tour"),
    **dict.fromkeys(["TreasureCountError", "treasure_hunt"], "knights.treasure"),
}

__all__ = [
    "Answer",
    "ChessMoveQError",
    "NoTourError",
    "PathTooLongError",
    "Placement",
    "TourTooLargeError",
    "TreasureCountError",
    "answer",
    "answer_from_facts",
    "explain",
    "intent_for",
    "is_valid_move",
    "knight_distance",
    "knight_tour",
    "parse_json_case",
    "parse_json_move",
    "parse_json_position",
    "parse_move",
    "parse_position",
    "shortest_path",
    "treasure_hunt",
]


__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
