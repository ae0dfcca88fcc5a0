"""The rules of chess: squares, pieces and their move geometry, positions and the moves that change
them, castling, legal move generation, judging a move, how a game ends, perft, Chess960 start positions,
and a position as its pieces declared their reach (``declared``: what a board actor reads).

Imports nothing from the other packages of ``board`` (only its base modules: errors, numbers, frozen,
svg, lazy). Each public name below loads its module on first use, so that ``import board.rules.squares``
costs that one module. Two names are left to their modules, where each is unambiguous:
``board.rules.squares.STANDARD`` (the 8 x 8 size) and ``board.rules.castling.STANDARD`` (standard
chess's castling table); and ``board.rules.perft.perft``, whose module has the same name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board.lazy import lazy_names

if TYPE_CHECKING:
    from board.rules.bitboards import BIT as BIT
    from board.rules.castling import BY_KING_TARGET as BY_KING_TARGET
    from board.rules.castling import BY_LETTER as BY_LETTER
    from board.rules.castling import RIGHT_LETTERS as RIGHT_LETTERS
    from board.rules.castling import Castling as Castling
    from board.rules.castling import CastlingTable as CastlingTable
    from board.rules.castling import Side as Side
    from board.rules.castling import castling_for as castling_for
    from board.rules.castling import castling_table as castling_table
    from board.rules.chess960 import back_rank as back_rank
    from board.rules.chess960 import number_of as number_of
    from board.rules.chess960 import position_number as position_number
    from board.rules.chess960 import start_fen as start_fen
    from board.rules.facts import candidate_facts as candidate_facts
    from board.rules.facts import castling_facts as castling_facts
    from board.rules.facts import current_checkers as current_checkers
    from board.rules.fen_text import format_fen as format_fen
    from board.rules.fen_text import placement_field as placement_field
    from board.rules.geometry import NAMED as NAMED
    from board.rules.geometry import Geometry as Geometry
    from board.rules.geometry import Path as Path
    from board.rules.geometry import combine as combine
    from board.rules.geometry import geometry_named as geometry_named
    from board.rules.geometry import label_of as label_of
    from board.rules.geometry import leaper as leaper
    from board.rules.geometry import move_function as move_function
    from board.rules.geometry import reach as reach
    from board.rules.geometry import rider as rider
    from board.rules.geometry import standard as standard
    from board.rules.geometry import user_geometry as user_geometry
    from board.rules.judge import CandidateFacts as CandidateFacts
    from board.rules.judge import CastlingFacts as CastlingFacts
    from board.rules.judge import Decision as Decision
    from board.rules.judge import Intent as Intent
    from board.rules.judge import Sighting as Sighting
    from board.rules.judge import decide as decide
    from board.rules.judge import decide_castling as decide_castling
    from board.rules.movegen import attackers as attackers
    from board.rules.movegen import checkers as checkers
    from board.rules.movegen import is_attacked as is_attacked
    from board.rules.movegen import is_check as is_check
    from board.rules.movegen import legal_en_passant as legal_en_passant
    from board.rules.movegen import legal_moves as legal_moves
    from board.rules.movegen import legal_moves_to as legal_moves_to
    from board.rules.movegen import pinned_pieces as pinned_pieces
    from board.rules.movegen import repetition_key as repetition_key
    from board.rules.moves import CASTLE as CASTLE
    from board.rules.moves import DOUBLE_PUSH as DOUBLE_PUSH
    from board.rules.moves import EN_PASSANT as EN_PASSANT
    from board.rules.moves import Move as Move
    from board.rules.moves import from_square as from_square
    from board.rules.moves import to_square as to_square
    from board.rules.outcome import GAME_OVER as GAME_OVER
    from board.rules.outcome import Claim as Claim
    from board.rules.outcome import Outcome as Outcome
    from board.rules.outcome import claims as claims
    from board.rules.outcome import decide_outcome as decide_outcome
    from board.rules.outcome import ending as ending
    from board.rules.outcome import ends_by_rule as ends_by_rule
    from board.rules.outcome import insufficient_material as insufficient_material
    from board.rules.outcome import pieces_of as pieces_of
    from board.rules.perft import divide as divide
    from board.rules.perft import divided as divided
    from board.rules.perft import root_moves as root_moves
    from board.rules.pieces import BISHOP as BISHOP
    from board.rules.pieces import BLACK as BLACK
    from board.rules.pieces import COLOUR_NAMES as COLOUR_NAMES
    from board.rules.pieces import KIND_BY_LETTER as KIND_BY_LETTER
    from board.rules.pieces import KIND_LETTERS as KIND_LETTERS
    from board.rules.pieces import KIND_NAMES as KIND_NAMES
    from board.rules.pieces import KINDS as KINDS
    from board.rules.pieces import KING as KING
    from board.rules.pieces import KNIGHT as KNIGHT
    from board.rules.pieces import LAST_RANK as LAST_RANK
    from board.rules.pieces import PAWN as PAWN
    from board.rules.pieces import QUEEN as QUEEN
    from board.rules.pieces import ROOK as ROOK
    from board.rules.pieces import WHITE as WHITE
    from board.rules.pieces import describe as describe
    from board.rules.pieces import parse_colour as parse_colour
    from board.rules.pieces import piece_code as piece_code
    from board.rules.position import Position as Position
    from board.rules.squares import FILE_LETTERS as FILE_LETTERS
    from board.rules.squares import SQUARE_INDEX as SQUARE_INDEX
    from board.rules.squares import SQUARE_NAMES as SQUARE_NAMES
    from board.rules.squares import Coord as Coord
    from board.rules.squares import Size as Size
    from board.rules.squares import check_on_board as check_on_board
    from board.rules.squares import coord_of as coord_of
    from board.rules.squares import file_name as file_name
    from board.rules.squares import index_of as index_of
    from board.rules.squares import parse_size as parse_size
    from board.rules.squares import parse_square as parse_square
    from board.rules.squares import parse_standard_square as parse_standard_square
    from board.rules.squares import square_colour as square_colour
    from board.rules.squares import square_name as square_name

__getattr__, __dir__ = lazy_names(__name__)
