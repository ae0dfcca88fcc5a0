"""Chess written down: FEN, moves in SAN and UCI (their syntax, and resolved against a position),
and PGN (the lexer, the streaming reader and the writer).

Depends on board.rules (reading a FEN or a move needs the rules to judge it) and the base modules;
nothing in board.rules imports it. Each public name below loads its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board.lazy import lazy_names

if TYPE_CHECKING:
    from board.notation.algebraic import (
        format_san,
        intent_from_squares,
        parse_move_text,
        resolve,
        san,
        san_intent,
        uci,
    )
    from board.notation.fen import STARTING_FEN, parse_fen, write_fen
    from board.notation.pgn import game_chunks, parse_game_text, read_games
    from board.notation.pgn_game import MoveToken, PgnGame, PgnLimits
    from board.notation.pgn_writer import SEVEN_TAG_ROSTER, format_game
    from board.notation.san_syntax import parse_san, parse_uci
    from board.notation.written_moves import SanMove, UciMove

# Each public name and the module (in this package) that defines it.
_SOURCES: dict[str, str] = {
    **dict.fromkeys(["STARTING_FEN", "parse_fen", "write_fen"], "fen"),
    **dict.fromkeys(["parse_san", "parse_uci"], "san_syntax"),
    **dict.fromkeys(["SanMove", "UciMove"], "written_moves"),
    **dict.fromkeys(
        [
            "format_san",
            "intent_from_squares",
            "parse_move_text",
            "resolve",
            "san",
            "san_intent",
            "uci",
        ],
        "algebraic",
    ),
    **dict.fromkeys(["MoveToken", "PgnGame", "PgnLimits"], "pgn_game"),
    **dict.fromkeys(["game_chunks", "parse_game_text", "read_games"], "pgn"),
    **dict.fromkeys(["SEVEN_TAG_ROSTER", "format_game"], "pgn_writer"),
}

__all__ = [
    "SEVEN_TAG_ROSTER",
    "STARTING_FEN",
    "MoveToken",
    "PgnGame",
    "PgnLimits",
    "SanMove",
    "UciMove",
    "format_game",
    "format_san",
    "game_chunks",
    "intent_from_squares",
    "parse_fen",
    "parse_game_text",
    "parse_move_text",
    "parse_san",
    "parse_uci",
    "read_games",
    "resolve",
    "san",
    "san_intent",
    "uci",
    "write_fen",
]


__getattr__, __dir__ = lazy_names(__name__, _SOURCES, __all__)
