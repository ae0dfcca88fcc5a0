"""The rules of chess as pure functions and values: squares, move geometry, positions, FEN,
legal moves, game end, notation, PGN, perft, and the puzzles. No threads, no I/O.

In packages by idea, each importing only from the ones before it (an arrow never points back):

- the base modules here: ``errors`` (every error raised on purpose), ``numbers`` (whole numbers
  from text), ``frozen`` (quick frozen dataclasses), ``svg`` (a placement drawn), ``lazy`` (the
  packages' public names loaded on first use); they import nothing from the packages;
- ``board.rules``: squares, pieces, move geometry, positions, castling, move generation, judging,
  outcomes, perft, Chess960 start positions (and writing a position's FEN) -> the base;
- ``board.notation``: FEN read and checked, SAN and UCI, the PGN lexer, reader and writer
  -> rules, base;
- ``board.games``: a game played move by move, and the verdict on a whole PGN game
  -> notation, rules, base;
- ``board.puzzles``: ChessMoveQ and the knight puzzles -> rules, base.

The public names are importable from here (``from board import Game, Position, parse_fen``) and
each package's from the package (``from board.rules import legal_moves``). Each is loaded from its
module the first time it is asked for, so that ``import board.rules.squares`` (as the command line's
small commands do) costs no more than that one module.

An installation may hold this package twice: as Python source and, beside it, compiled with mypyc
(one extension module per source module). Python imports the compiled one first; this module, which
is never compiled, decides when the source must be used instead: when ``CHESS_ACTORS_PURE=1`` asks
for it, or when a source file is newer than its compiled module (an edited editable install).
:data:`BUILD` says which is running.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING

from board.lazy import lazy_names

_HERE = os.path.dirname(os.path.abspath(__file__))

SHARED_LIBRARY = "board__mypyc"
"""The top-level module holding the compiled code (setup.py names mypyc's group after the package)."""


def compiled_state(root: str = _HERE) -> str:
    """How the package in ``root`` should run: 'compiled'; 'pure' (it has no compiled modules);
    'asked' (pure, as ``CHESS_ACTORS_PURE=1`` asks); 'stale' (pure: a source file is newer than its
    compiled module); 'orphaned' (pure: the compiled modules' shared library cannot be found)."""
    suffix = EXTENSION_SUFFIXES[0]
    compiled: list[str] = []
    for folder, folders, names in os.walk(root):  # the package and its subpackages
        folders[:] = [name for name in folders if name != "__pycache__"]
        compiled += [os.path.join(folder, name) for name in names if name.endswith(suffix)]
    if not compiled:
        return "pure"
    if os.environ.get("CHESS_ACTORS_PURE") == "1":
        return "asked"
    for module in compiled:
        try:
            if os.stat(module[: -len(suffix)] + ".py").st_mtime > os.stat(module).st_mtime:
                return "stale"
        except OSError:
            continue
    if root == _HERE:
        from importlib.util import find_spec

        if find_spec(SHARED_LIBRARY) is None:  # the compiled modules cannot load without it
            return "orphaned"
    return "compiled"


class _SourceFirst:
    """A meta path finder that gives this package's modules from their source files."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> object:
        if not name.startswith(__name__ + "."):
            return None
        from importlib.util import spec_from_file_location

        base = os.path.join(_HERE, *name.split(".")[1:])
        if os.path.isfile(base + ".py"):
            return spec_from_file_location(name, base + ".py")
        package = os.path.join(base, "__init__.py")
        if os.path.isfile(package):
            return spec_from_file_location(name, package, submodule_search_locations=[base])
        return None


_STATE = compiled_state()
if _STATE in ("asked", "stale", "orphaned"):
    sys.meta_path.insert(0, _SourceFirst())  # type: ignore[arg-type]

BUILD: str = "compiled" if _STATE == "compiled" else "pure"
"""Which build of the rules core is running: 'compiled' (mypyc) or 'pure' (Python source)."""

BUILD_NOTE: str = {
    "compiled": "compiled with mypyc",
    "pure": "pure Python",
    "asked": "pure Python, as CHESS_ACTORS_PURE=1 asks",
    "stale": "pure Python: the source is newer than the compiled modules (reinstall to compile)",
    "orphaned": f"pure Python: the compiled modules' {SHARED_LIBRARY} cannot be found (reinstall to compile)",
}[_STATE]
"""One line for ``chess-actors --version``: the build, and why pure Python when it could be compiled."""

if TYPE_CHECKING:
    from board.errors import (
        AmbiguousMoveError,
        BetzaError,
        BoardSizeError,
        ChessActorsError,
        FenError,
        IllegalMoveError,
        InputError,
        MoveSyntaxError,
        PgnError,
        SquareError,
    )
    from board.games.game import Game
    from board.games.played import Played
    from board.games.replay import replay_direct
    from board.games.verdicts import GameVerdict, MoveError
    from board.notation.fen import STARTING_FEN, parse_fen, write_fen
    from board.notation.pgn import PgnGame, read_games
    from board.puzzles.chessmoveq import ChessMoveQError, Placement, is_valid_move
    from board.puzzles.knights.path import knight_distance, shortest_path
    from board.puzzles.knights.tour import NoTourError, knight_tour
    from board.puzzles.knights.treasure import treasure_hunt
    from board.rules.geometry import Geometry, betza, combine, geometry_named, leaper, rider, standard
    from board.rules.moves import Move
    from board.rules.pieces import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
    from board.rules.position import Position
    from board.rules.squares import parse_square, square_colour, square_name
    from board.svg import board_svg

# Each public name and the module that defines it.
_SOURCES: dict[str, str] = {
    **dict.fromkeys(["ChessMoveQError", "Placement", "is_valid_move"], "board.puzzles.chessmoveq"),
    **dict.fromkeys(
        [
            "AmbiguousMoveError",
            "BetzaError",
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
    **dict.fromkeys(["STARTING_FEN", "parse_fen", "write_fen"], "board.notation.fen"),
    "Game": "board.games.game",
    "Played": "board.games.played",
    **dict.fromkeys(
        ["Geometry", "betza", "combine", "geometry_named", "leaper", "rider", "standard"],
        "board.rules.geometry",
    ),
    **dict.fromkeys(["knight_distance", "shortest_path"], "board.puzzles.knights.path"),
    **dict.fromkeys(["NoTourError", "knight_tour"], "board.puzzles.knights.tour"),
    "treasure_hunt": "board.puzzles.knights.treasure",
    "Move": "board.rules.moves",
    **dict.fromkeys(["PgnGame", "read_games"], "board.notation.pgn"),
    **dict.fromkeys(
        ["BISHOP", "BLACK", "KING", "KNIGHT", "PAWN", "QUEEN", "ROOK", "WHITE"], "board.rules.pieces"
    ),
    "Position": "board.rules.position",
    "replay_direct": "board.games.replay",
    **dict.fromkeys(["GameVerdict", "MoveError"], "board.games.verdicts"),
    **dict.fromkeys(["parse_square", "square_colour", "square_name"], "board.rules.squares"),
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
    "BetzaError",
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
    "betza",
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


__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__, relative=False)
