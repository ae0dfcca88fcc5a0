"""The rules of chess as pure functions and values: squares, move geometry, positions, FEN,
legal moves, game end, notation, PGN, perft, and the knight puzzles. No threads, no I/O.

The public names are importable from here (``from board import Game, Position, parse_fen``). Each is
loaded from its module the first time it is asked for, so that ``import board.squares`` (as the
command line's small commands do) costs no more than that one module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from board.chessmoveq import ChessMoveQError, Placement, is_valid_move
    from board.errors import (
        AmbiguousMoveError,
        BoardSizeError,
        ChessActorsError,
        FenError,
        IllegalMoveError,
        InputError,
        MoveSyntaxError,
        PgnError,
        SquareError,
    )
    from board.fen import STARTING_FEN, parse_fen, write_fen
    from board.game import Game, Played
    from board.geometries import Geometry, combine, geometry_named, leaper, rider, standard
    from board.knights.path import knight_distance, shortest_path
    from board.knights.tour import NoTourError, knight_tour
    from board.knights.treasure import treasure_hunt
    from board.moves import Move
    from board.pgn import PgnGame, read_games
    from board.pieces import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
    from board.position import Position
    from board.replay import GameVerdict, MoveError, replay_direct
    from board.squares import parse_square, square_colour, square_name
    from board.svg import board_svg

# Each public name and the module that defines it.
_SOURCES: dict[str, str] = {
    **dict.fromkeys(["ChessMoveQError", "Placement", "is_valid_move"], "board.chessmoveq"),
    **dict.fromkeys(
        [
            "AmbiguousMoveError",
            "BoardSizeError",
            "ChessActorsError",
            "FenError",
            "IllegalMoveError",
            "InputError",
            "MoveSyntaxError",
            "PgnError",
            "SquareError",
        ],
        "board.errors",
    ),
    **dict.fromkeys(["STARTING_FEN", "parse_fen", "write_fen"], "board.fen"),
    **dict.fromkeys(["Game", "Played"], "board.game"),
    **dict.fromkeys(
        ["Geometry", "combine", "geometry_named", "leaper", "rider", "standard"], "board.geometries"
    ),
    **dict.fromkeys(["knight_distance", "shortest_path"], "board.knights.path"),
    **dict.fromkeys(["NoTourError", "knight_tour"], "board.knights.tour"),
    "treasure_hunt": "board.knights.treasure",
    "Move": "board.moves",
    **dict.fromkeys(["PgnGame", "read_games"], "board.pgn"),
    **dict.fromkeys(["BISHOP", "BLACK", "KING", "KNIGHT", "PAWN", "QUEEN", "ROOK", "WHITE"], "board.pieces"),
    "Position": "board.position",
    **dict.fromkeys(["GameVerdict", "MoveError", "replay_direct"], "board.replay"),
    **dict.fromkeys(["parse_square", "square_colour", "square_name"], "board.squares"),
    "board_svg": "board.svg",
}

__all__ = [
    "BISHOP",
    "BLACK",
    "KING",
    "KNIGHT",
    "PAWN",
    "QUEEN",
    "ROOK",
    "STARTING_FEN",
    "WHITE",
    "AmbiguousMoveError",
    "BoardSizeError",
    "ChessActorsError",
    "ChessMoveQError",
    "FenError",
    "Game",
    "GameVerdict",
    "Geometry",
    "IllegalMoveError",
    "InputError",
    "Move",
    "MoveError",
    "MoveSyntaxError",
    "NoTourError",
    "PgnError",
    "PgnGame",
    "Placement",
    "Played",
    "Position",
    "SquareError",
    "board_svg",
    "combine",
    "geometry_named",
    "is_valid_move",
    "knight_distance",
    "knight_tour",
    "leaper",
    "parse_fen",
    "parse_square",
    "read_games",
    "replay_direct",
    "rider",
    "shortest_path",
    "square_colour",
    "square_name",
    "standard",
    "treasure_hunt",
    "write_fen",
]


def __getattr__(name: str) -> Any:
    """Load the public ``name`` from its module on first use (PEP 562).

    Raises:
        AttributeError: ``name`` is not one of this package's public names or submodules.
    """
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module 'board' has no attribute {name!r}")
    value = getattr(importlib.import_module(source), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
