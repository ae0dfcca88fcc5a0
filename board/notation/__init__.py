"""Chess written down: FEN, moves in SAN and UCI (their syntax, and resolved against a position),
and PGN (the lexer, the streaming reader and the writer).

Depends on board.rules (reading a FEN or a move needs the rules to judge it) and the base modules;
nothing in board.rules imports it. Each public name below loads its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board.lazy import lazy_names

if TYPE_CHECKING:
    from board.notation.algebraic import format_san as format_san
    from board.notation.algebraic import intent_from_squares as intent_from_squares
    from board.notation.algebraic import parse_move_text as parse_move_text
    from board.notation.algebraic import resolve as resolve
    from board.notation.algebraic import san as san
    from board.notation.algebraic import san_intent as san_intent
    from board.notation.algebraic import uci as uci
    from board.notation.fen import STARTING_FEN as STARTING_FEN
    from board.notation.fen import parse_fen as parse_fen
    from board.notation.fen import write_fen as write_fen
    from board.notation.pgn import game_chunks as game_chunks
    from board.notation.pgn import parse_game_text as parse_game_text
    from board.notation.pgn import read_games as read_games
    from board.notation.pgn_game import MoveToken as MoveToken
    from board.notation.pgn_game import PgnGame as PgnGame
    from board.notation.pgn_game import PgnLimits as PgnLimits
    from board.notation.pgn_writer import SEVEN_TAG_ROSTER as SEVEN_TAG_ROSTER
    from board.notation.pgn_writer import format_game as format_game
    from board.notation.san_syntax import parse_san as parse_san
    from board.notation.san_syntax import parse_uci as parse_uci
    from board.notation.written_moves import SanMove as SanMove
    from board.notation.written_moves import UciMove as UciMove

__getattr__, __dir__ = lazy_names(__name__)
