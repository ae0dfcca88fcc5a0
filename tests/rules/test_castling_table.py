"""The castling table against python-chess: squares, right bits, rights lost, and the helpers."""

from __future__ import annotations

import chess
import pytest

from board.notation.fen import parse_fen, write_fen
from board.rules.castling import (
    ALL_RIGHTS,
    BY_COLOUR,
    BY_KING_TARGET,
    BY_LETTER,
    BY_RIGHT,
    CASTLINGS,
    KEEP_RIGHTS,
    KING_HOMES,
    Castling,
    castling_for,
    home_rights,
    rights_text,
)
from board.rules.movegen import legal_moves
from board.rules.moves import Move
from board.rules.pieces import BLACK, KING, ROOK, WHITE, piece_code
from board.rules.squares import SQUARE_NAMES

BOTH_SIDES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def _oracle_castle(castling: Castling) -> chess.Board:
    """python-chess after castling ``castling`` from a position with every right."""
    oracle = chess.Board(BOTH_SIDES if castling.colour == WHITE else BOTH_SIDES.replace(" w ", " b "))
    move = chess.Move(castling.king_from, castling.king_to)
    assert oracle.is_castling(move), f"python-chess does not read {move} as castling"
    oracle.push(move)
    return oracle


@pytest.mark.parametrize("castling", CASTLINGS, ids=lambda castling: castling.letter)
def test_king_and_rook_land_where_python_chess_puts_them(castling: Castling) -> None:
    oracle = _oracle_castle(castling)
    assert oracle.piece_type_at(castling.king_to) == chess.KING
    assert oracle.piece_type_at(castling.rook_to) == chess.ROOK
    assert oracle.piece_at(castling.rook_from) is None
    assert oracle.piece_at(castling.king_from) is None


@pytest.mark.parametrize("castling", CASTLINGS, ids=lambda castling: castling.letter)
def test_between_and_crossed_squares_follow_the_rank(castling: Castling) -> None:
    between = list(chess.SquareSet(chess.between(castling.king_from, castling.rook_from)))
    assert sorted(castling.between) == between
    assert castling.between_mask == int(chess.SquareSet(between))
    king_path = [*chess.SquareSet(chess.between(castling.king_from, castling.king_to)), castling.king_to]
    assert sorted(castling.king_crossed) == sorted(king_path)
    assert castling.king_crossed[-1] == castling.king_to  # nearest the king first, landing square last
    assert castling.rook_crossed[-1] == castling.rook_to
    assert abs(castling.rook_crossed[0] - castling.rook_from) == 1


@pytest.mark.parametrize("castling", CASTLINGS, ids=lambda castling: castling.letter)
def test_our_engine_castles_to_the_same_position(castling: Castling) -> None:
    position = parse_fen(BOTH_SIDES if castling.colour == WHITE else BOTH_SIDES.replace(" w ", " b "))
    uci = SQUARE_NAMES[castling.king_from] + SQUARE_NAMES[castling.king_to]
    position.push(next(m for m in legal_moves(position) if Move.of(m).uci() == uci))
    assert write_fen(position) == _oracle_castle(castling).fen()


HOMES = sorted({c.king_from for c in CASTLINGS} | {c.rook_from for c in CASTLINGS})


@pytest.mark.parametrize("square", HOMES, ids=SQUARE_NAMES.__getitem__)
def test_rights_lost_when_a_home_piece_moves_match_python_chess(square: int) -> None:
    oracle = chess.Board(BOTH_SIDES if square < 32 else BOTH_SIDES.replace(" w ", " b "))
    step = next(m for m in oracle.legal_moves if m.from_square == square and not oracle.is_castling(m))
    oracle.push(step)
    position = parse_fen(BOTH_SIDES if square < 32 else BOTH_SIDES.replace(" w ", " b "))
    position.push(next(m for m in legal_moves(position) if Move.of(m).uci() == step.uci()))
    assert position.castling == ALL_RIGHTS & KEEP_RIGHTS[square] & KEEP_RIGHTS[step.to_square]
    assert rights_text(position.castling) == oracle.castling_xfen()


def test_capturing_a_rook_at_home_ends_its_right() -> None:
    position = parse_fen("r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1")
    oracle = chess.Board(write_fen(position))
    oracle.push_uci("g2a8")
    position.push(next(m for m in legal_moves(position) if Move.of(m).uci() == "g2a8"))
    assert rights_text(position.castling) == oracle.castling_xfen() == "KQk"


def test_other_squares_keep_every_right() -> None:
    assert all(KEEP_RIGHTS[square] == ALL_RIGHTS for square in range(64) if square not in HOMES)


def test_lookups_agree_with_the_rows() -> None:
    assert [c.letter for c in CASTLINGS] == ["K", "Q", "k", "q"]
    assert ALL_RIGHTS == 15
    assert KING_HOMES == (chess.E1, chess.E8)
    for castling in CASTLINGS:
        assert BY_LETTER[castling.letter] is castling
        assert BY_RIGHT[castling.right] is castling
        assert BY_KING_TARGET[castling.king_to] is castling
        assert castling_for(castling.colour, castling.side) is castling
        assert castling in BY_COLOUR[castling.colour]
    assert [c.side for c in BY_COLOUR[BLACK]] == ["K", "Q"]
    assert castling_for(WHITE, "Q").san == "O-O-O" and castling_for(BLACK, "K").san == "O-O"


def test_home_rights_name_what_an_unmoved_king_or_rook_keeps() -> None:
    assert home_rights(chess.E1, piece_code(WHITE, KING)) == 3
    assert home_rights(chess.H8, piece_code(BLACK, ROOK)) == BY_LETTER["k"].right
    assert home_rights(chess.A1, piece_code(WHITE, ROOK)) == BY_LETTER["Q"].right
    assert home_rights(chess.A1, piece_code(BLACK, ROOK)) == 0  # an enemy rook keeps no right there
    assert home_rights(chess.E4, piece_code(WHITE, KING)) == 0


@pytest.mark.parametrize("rights", range(16))
def test_rights_text_is_fen_s_field(rights: int) -> None:
    oracle = chess.Board(BOTH_SIDES)
    oracle.castling_rights = sum(
        int(chess.BB_SQUARES[c.rook_from]) for c in CASTLINGS if rights & c.right
    )
    assert rights_text(rights) == oracle.castling_xfen()
