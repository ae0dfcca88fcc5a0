"""The knight puzzles on any W x H board: shortest paths, the treasure hunt, and knight's tours.

Pure and exact: breadth-first search or a closed form for distances, Held–Karp for the hunt, and
linear-time constructions (with the existence theorems) for tours.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from board.puzzles.knights.existence import tour_obstacle
    from board.puzzles.knights.grid import index_names
    from board.puzzles.knights.path import (
        MAX_PATH_MOVES,
        PathTooLongError,
        bfs_distances,
        closed_form_distance,
        has_closed_form,
        infinite_board_distance,
        knight_distance,
        shortest_path,
    )
    from board.puzzles.knights.tour import (
        MAX_TOUR_SQUARES,
        NoTourError,
        TourTooLargeError,
        knight_tour,
        knight_tour_indices,
    )
    from board.puzzles.knights.treasure import (
        MAX_TREASURES,
        TreasureCountError,
        hunt_moves,
        treasure_hunt,
    )

# Each name loads its module on first use, so that ``knight path`` does not load the tour builders.
_HOMES = {
    "tour_obstacle": "existence",
    "index_names": "grid",
    "MAX_PATH_MOVES": "path",
    "PathTooLongError": "path",
    "bfs_distances": "path",
    "closed_form_distance": "path",
    "has_closed_form": "path",
    "infinite_board_distance": "path",
    "knight_distance": "path",
    "shortest_path": "path",
    "MAX_TOUR_SQUARES": "tour",
    "NoTourError": "tour",
    "TourTooLargeError": "tour",
    "knight_tour": "tour",
    "knight_tour_indices": "tour",
    "MAX_TREASURES": "treasure",
    "TreasureCountError": "treasure",
    "hunt_moves": "treasure",
    "treasure_hunt": "treasure",
}

__all__ = [
    "MAX_PATH_MOVES",
    "MAX_TOUR_SQUARES",
    "MAX_TREASURES",
    "NoTourError",
    "PathTooLongError",
    "TourTooLargeError",
    "TreasureCountError",
    "bfs_distances",
    "closed_form_distance",
    "has_closed_form",
    "hunt_moves",
    "index_names",
    "infinite_board_distance",
    "knight_distance",
    "knight_tour",
    "knight_tour_indices",
    "shortest_path",
    "tour_obstacle",
    "treasure_hunt",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"board.puzzles.knights.{home}"), name)
