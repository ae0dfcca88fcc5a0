"""The rules of chess as pure functions and values: squares, move geometry, positions, FEN,
legal moves, game end, notation, PGN, perft, and the puzzles. No threads, no I/O.

In packages by idea, each importing only from the ones before it (an arrow never points back):

- the base modules here: ``errors`` (every error raised on purpose), ``numbers`` (whole numbers
  from text), ``svg`` (a placement drawn), ``lazy`` (the packages' public names loaded on first
  use); they import nothing from the packages;
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

__version__ = "0.1.0"
"""The project's version (``actors`` gives it too), written here once, in the lowest package: the
package's metadata reads it (``pyproject.toml``) and ``chess-actors --version`` prints it without
loading the installed metadata."""

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
    from board.errors import AmbiguousMoveError as AmbiguousMoveError
    from board.errors import BetzaError as BetzaError
    from board.errors import BoardSizeError as BoardSizeError
    from board.errors import ChessActorsError as ChessActorsError
    from board.errors import FenError as FenError
    from board.errors import IllegalMoveError as IllegalMoveError
    from board.errors import InputError as InputError
    from board.errors import MoveSyntaxError as MoveSyntaxError
    from board.errors import PgnError as PgnError
    from board.errors import SquareError as SquareError
    from board.games.game import Game as Game
    from board.games.played import Played as Played
    from board.games.replay import replay_direct as replay_direct
    from board.games.verdicts import GameVerdict as GameVerdict
    from board.games.verdicts import MoveError as MoveError
    from board.notation.fen import STARTING_FEN as STARTING_FEN
    from board.notation.fen import parse_fen as parse_fen
    from board.notation.fen import write_fen as write_fen
    from board.notation.pgn import PgnGame as PgnGame
    from board.notation.pgn import read_games as read_games
    from board.puzzles.chessmoveq import ChessMoveQError as ChessMoveQError
    from board.puzzles.chessmoveq import Placement as Placement
    from board.puzzles.chessmoveq import is_valid_move as is_valid_move
    from board.puzzles.knights.path import knight_distance as knight_distance
    from board.puzzles.knights.path import shortest_path as shortest_path
    from board.puzzles.knights.tour import NoTourError as NoTourError
    from board.puzzles.knights.tour import knight_tour as knight_tour
    from board.puzzles.knights.treasure import treasure_hunt as treasure_hunt
    from board.rules.geometry import Geometry as Geometry
    from board.rules.geometry import betza as betza
    from board.rules.geometry import combine as combine
    from board.rules.geometry import geometry_named as geometry_named
    from board.rules.geometry import leaper as leaper
    from board.rules.geometry import rider as rider
    from board.rules.geometry import standard as standard
    from board.rules.moves import Move as Move
    from board.rules.pieces import BISHOP as BISHOP
    from board.rules.pieces import BLACK as BLACK
    from board.rules.pieces import KING as KING
    from board.rules.pieces import KNIGHT as KNIGHT
    from board.rules.pieces import PAWN as PAWN
    from board.rules.pieces import QUEEN as QUEEN
    from board.rules.pieces import ROOK as ROOK
    from board.rules.pieces import WHITE as WHITE
    from board.rules.position import Position as Position
    from board.rules.squares import parse_square as parse_square
    from board.rules.squares import square_colour as square_colour
    from board.rules.squares import square_name as square_name
    from board.svg import board_svg as board_svg

__getattr__, __dir__ = lazy_names(__name__)
