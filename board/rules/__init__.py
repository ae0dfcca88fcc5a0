"""The rules of chess: squares, pieces and their move geometry, positions and the moves that change
them, castling, legal move generation, judging a move, how a game ends, perft, Chess960 start positions,
and a position as its pieces declared their reach (``declared``: what a board actor reads).

Imports nothing from the other packages of ``board`` (only its base modules: errors, numbers, frozen,
svg). Each public name below loads its module on first use, so that ``import board.rules.squares``
costs that one module. Two names are left to their modules, where each is unambiguous:
``board.rules.squares.STANDARD`` (the 8 x 8 size) and ``board.rules.castling.STANDARD`` (standard
chess's castling table); and ``board.rules.perft.perft``, whose module has the same name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from board.rules.bitboards import BIT
    from board.rules.castling import (
        BY_KING_TARGET,
        BY_LETTER,
        RIGHT_LETTERS,
        Castling,
        CastlingTable,
        Side,
        castling_for,
        castling_table,
    )
    from board.rules.chess960 import back_rank, number_of, position_number, start_fen
    from board.rules.facts import candidate_facts, castling_facts, current_checkers
    from board.rules.fen_text import format_fen, placement_field
    from board.rules.geometries import (
        NAMED,
        Geometry,
        combine,
        geometry_named,
        label_of,
        leaper,
        reach,
        rider,
        standard,
        user_geometry,
    )
    from board.rules.geometry import Path, move_function
    from board.rules.judge import (
        CandidateFacts,
        CastlingFacts,
        Decision,
        Intent,
        Sighting,
        decide,
        decide_castling,
    )
    from board.rules.movegen import (
        attackers,
        checkers,
        is_attacked,
        is_check,
        legal_en_passant,
        legal_moves,
        legal_moves_to,
        pinned_pieces,
        repetition_key,
    )
    from board.rules.moves import CASTLE, DOUBLE_PUSH, EN_PASSANT, Move, from_square, to_square
    from board.rules.outcome import (
        GAME_OVER,
        Claim,
        Outcome,
        claims,
        decide_outcome,
        ending,
        ends_by_rule,
        insufficient_material,
        pieces_of,
    )
    from board.rules.perft import divide, divided, root_moves
    from board.rules.pieces import (
        BISHOP,
        BLACK,
        COLOUR_NAMES,
        KIND_BY_LETTER,
        KIND_LETTERS,
        KIND_NAMES,
        KINDS,
        KING,
        KNIGHT,
        LAST_RANK,
        PAWN,
        QUEEN,
        ROOK,
        WHITE,
        describe,
        parse_colour,
        piece_code,
    )
    from board.rules.position import Position
    from board.rules.squares import (
        FILE_LETTERS,
        SQUARE_INDEX,
        SQUARE_NAMES,
        Coord,
        Size,
        check_on_board,
        coord_of,
        file_name,
        index_of,
        parse_size,
        parse_square,
        parse_standard_square,
        square_colour,
        square_name,
    )

# Each public name and the module (in this package) that defines it.
_SOURCES: dict[str, str] = {
    **dict.fromkeys(
        [
            "Coord",
            "FILE_LETTERS",
            "SQUARE_INDEX",
            "SQUARE_NAMES",
            "Size",
            "check_on_board",
            "coord_of",
            "file_name",
            "index_of",
            "parse_size",
            "parse_square",
            "parse_standard_square",
            "square_colour",
            "square_name",
        ],
        "squares",
    ),
    **dict.fromkeys(
        [
            "BISHOP",
            "BLACK",
            "COLOUR_NAMES",
            "KINDS",
            "KIND_BY_LETTER",
            "KIND_LETTERS",
            "KIND_NAMES",
            "KING",
            "KNIGHT",
            "LAST_RANK",
            "PAWN",
            "QUEEN",
            "ROOK",
            "WHITE",
            "describe",
            "parse_colour",
            "piece_code",
        ],
        "pieces",
    ),
    **dict.fromkeys(["Path", "move_function"], "geometry"),
    **dict.fromkeys(
        [
            "Geometry",
            "NAMED",
            "combine",
            "geometry_named",
            "label_of",
            "leaper",
            "reach",
            "rider",
            "standard",
            "user_geometry",
        ],
        "geometries",
    ),
    "BIT": "bitboards",
    **dict.fromkeys(["CASTLE", "DOUBLE_PUSH", "EN_PASSANT", "Move", "from_square", "to_square"], "moves"),
    **dict.fromkeys(
        [
            "BY_KING_TARGET",
            "BY_LETTER",
            "Castling",
            "CastlingTable",
            "RIGHT_LETTERS",
            "Side",
            "castling_for",
            "castling_table",
        ],
        "castling",
    ),
    "Position": "position",
    **dict.fromkeys(["format_fen", "placement_field"], "fen_text"),
    **dict.fromkeys(
        [
            "attackers",
            "checkers",
            "is_attacked",
            "is_check",
            "legal_en_passant",
            "legal_moves",
            "legal_moves_to",
            "pinned_pieces",
            "repetition_key",
        ],
        "movegen",
    ),
    **dict.fromkeys(
        [
            "CandidateFacts",
            "CastlingFacts",
            "Decision",
            "Intent",
            "Sighting",
            "decide",
            "decide_castling",
        ],
        "judge",
    ),
    **dict.fromkeys(["candidate_facts", "castling_facts", "current_checkers"], "facts"),
    **dict.fromkeys(
        [
            "Claim",
            "GAME_OVER",
            "Outcome",
            "claims",
            "decide_outcome",
            "ending",
            "ends_by_rule",
            "insufficient_material",
            "pieces_of",
        ],
        "outcome",
    ),
    **dict.fromkeys(["divide", "divided", "root_moves"], "perft"),
    **dict.fromkeys(["back_rank", "number_of", "position_number", "start_fen"], "chess960"),
}

__all__ = [
    "BISHOP",
    "BIT",
    "BLACK",
    "BY_KING_TARGET",
    "BY_LETTER",
    "CASTLE",
    "COLOUR_NAMES",
    "DOUBLE_PUSH",
    "EN_PASSANT",
    "FILE_LETTERS",
    "GAME_OVER",
    "KINDS",
    "KIND_BY_LETTER",
    "KIND_LETTERS",
    "KIND_NAMES",
    "KING",
    "KNIGHT",
    "LAST_RANK",
    "NAMED",
    "PAWN",
    "QUEEN",
    "RIGHT_LETTERS",
    "ROOK",
    "SQUARE_INDEX",
    "SQUARE_NAMES",
    "WHITE",
    "CandidateFacts",
    "Castling",
    "CastlingFacts",
    "CastlingTable",
    "Claim",
    "Coord",
    "Decision",
    "Geometry",
    "Intent",
    "Move",
    "Outcome",
    "Path",
    "Position",
    "Side",
    "Sighting",
    "Size",
    "attackers",
    "back_rank",
    "candidate_facts",
    "castling_facts",
    "castling_for",
    "castling_table",
    "check_on_board",
    "checkers",
    "claims",
    "combine",
    "coord_of",
    "current_checkers",
    "decide",
    "decide_castling",
    "decide_outcome",
    "describe",
    "divide",
    "divided",
    "ending",
    "ends_by_rule",
    "file_name",
    "format_fen",
    "from_square",
    "geometry_named",
    "index_of",
    "insufficient_material",
    "is_attacked",
    "is_check",
    "label_of",
    "leaper",
    "legal_en_passant",
    "legal_moves",
    "legal_moves_to",
    "move_function",
    "number_of",
    "parse_colour",
    "parse_size",
    "parse_square",
    "parse_standard_square",
    "piece_code",
    "pieces_of",
    "pinned_pieces",
    "placement_field",
    "position_number",
    "reach",
    "repetition_key",
    "rider",
    "root_moves",
    "square_colour",
    "square_name",
    "standard",
    "start_fen",
    "to_square",
    "user_geometry",
]


def __getattr__(name: str) -> Any:
    """Load the public ``name`` from its module on first use (PEP 562).

    Raises:
        AttributeError: ``name`` is not one of this package's public names or submodules.
    """
    home = _SOURCES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
