"""Every rule of legal move generation, each pinned on a real position given as FEN.

Moves are compared as UCI strings so that a failure reads like chess.
"""

from __future__ import annotations

from board.notation.fen import parse_fen, write_fen
from board.rules.movegen import attackers, checkers, is_attacked, is_check, legal_moves, pinned_pieces
from board.rules.moves import Move
from board.rules.pieces import BLACK, WHITE
from board.rules.position import BLACK_KINGSIDE, WHITE_KINGSIDE, WHITE_QUEENSIDE, Position
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES


def moves_of(position: Position) -> set[str]:
    """The legal moves of the side to move, as UCI strings."""
    return {Move.of(move).uci() for move in legal_moves(position)}


def legal(fen: str) -> set[str]:
    return moves_of(parse_fen(fen))


def moves_from(fen: str, square: str) -> set[str]:
    return {move for move in legal(fen) if move.startswith(square)}


def play(position: Position, line: str) -> Position:
    """Make the UCI moves of ``line`` on ``position``, each of which must be legal."""
    for uci in line.split():
        encoded = {Move.of(move).uci(): move for move in legal_moves(position)}
        assert uci in encoded, f"{uci} should be legal in {write_fen(position)}"
        position.push(encoded[uci])
    return position


def squares(bitboard: int) -> set[str]:
    return {SQUARE_NAMES[square] for square in range(64) if bitboard >> square & 1}


# -- blockers and captures -----------------------------------------------------------------------


def test_a_slider_stops_before_its_own_piece() -> None:
    assert moves_from("4k3/8/8/8/8/P7/8/R3K3 w - - 0 1", "a1") == {"a1a2", "a1b1", "a1c1", "a1d1"}


def test_a_slider_captures_the_first_enemy_and_goes_no_further() -> None:
    rook = moves_from("4k3/8/8/8/n7/8/8/R3K3 w - - 0 1", "a1")
    assert {"a1a2", "a1a3", "a1a4"} <= rook
    assert "a1a5" not in rook, "the rook cannot jump over the knight it could capture"


def test_a_knight_jumps_over_blockers_captures_enemies_and_spares_its_own() -> None:
    knight = moves_from("4k3/8/8/8/8/3p4/PPPP4/RNB1K3 w - - 0 1", "b1")
    assert knight == {"b1a3", "b1c3"}, "d2 holds a white pawn; the knight jumps the second rank"
    assert moves_from("4k3/8/8/8/8/p7/8/1N2K3 w - - 0 1", "b1") == {"b1a3", "b1c3", "b1d2"}


def test_a_pawn_push_is_blocked_by_any_piece_and_a_double_push_by_either_square() -> None:
    assert moves_from("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2") == set()
    assert moves_from("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1", "e2") == {"e2e3"}
    assert moves_from("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2") == {"e2e3", "e2e4"}
    assert moves_from("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e3") == {"e3e4"}, "no double push off rank 2"


def test_a_pawn_captures_diagonally_only_onto_an_enemy() -> None:
    pawn = moves_from("4k3/8/8/8/8/3b1B2/4P3/4K3 w - - 0 1", "e2")
    assert pawn == {"e2d3", "e2e3", "e2e4"}


def test_the_starting_position_has_twenty_moves() -> None:
    assert len(legal("startpos")) == 20


# -- check ---------------------------------------------------------------------------------------


def test_check_is_answered_by_capture_block_or_king_move_and_nothing_else() -> None:
    # the e8 rook checks the e1 king: Rxe8 captures, Be3 blocks, the king steps aside
    assert legal("R3r1k1/8/8/8/8/8/3B3P/4K3 w - - 0 1") == {"a8e8", "d2e3", "e1d1", "e1f1", "e1f2"}


def test_in_double_check_only_the_king_moves() -> None:
    # the e8 rook and the d3 knight both check; Bxd3 or Re4 would each answer only one of them
    fen = "4r1k1/8/8/8/7R/3n4/2B5/4K3 w - - 0 1"
    assert squares(checkers(parse_fen(fen))) == {"e8", "d3"}
    assert legal(fen) == {"e1d1", "e1d2", "e1f1"}


def test_the_king_cannot_step_back_along_the_checking_line() -> None:
    # f1 and d1 stay on the a1 rook's rank once the king has left e1
    assert legal("4k3/8/8/8/8/8/8/r3K3 w - - 0 1") == {"e1d2", "e1e2", "e1f2"}


def test_the_king_cannot_capture_a_defended_piece_or_step_next_to_the_other_king() -> None:
    # d2 is defended by the d3 king, c2 and e2 touch it, c1 and e1 are covered by the pawn: stalemate
    position = parse_fen("8/8/8/8/8/3k4/3p4/3K4 w - - 0 1")
    assert moves_of(position) == set()
    assert not is_check(position)


def test_a_checking_pawn_can_be_captured_by_the_king_when_undefended() -> None:
    assert "e1d2" in moves_from("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1")


# -- pins ----------------------------------------------------------------------------------------


def test_pinned_bishop_cannot_leave_the_pin_line() -> None:
    # a4-b3-c2-d1: the c2 bishop may slide to b3 or take the pinner, nothing else
    assert moves_from("4k3/8/8/8/b7/8/2B5/3K4 w - - 0 1", "c2") == {"c2b3", "c2a4"}


def test_bishop_pinned_along_a_file_cannot_move_at_all() -> None:
    assert moves_from("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "e2") == set()


def test_pinned_rook_may_move_along_the_pin_line() -> None:
    rook = moves_from("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "e2")
    assert rook == {"e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8"}


def test_pinned_knight_never_moves() -> None:
    assert moves_from("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1", "e2") == set()
    assert moves_from("4k3/8/8/8/b7/8/2N5/3K4 w - - 0 1", "c2") == set()


def test_pinned_pawn_pushes_along_a_file_pin_but_never_captures_off_it() -> None:
    pawn = moves_from("4r1k1/8/8/8/8/3b1b2/4P3/4K3 w - - 0 1", "e2")
    assert pawn == {"e2e3", "e2e4"}


def test_diagonally_pinned_pawn_may_only_capture_its_pinner() -> None:
    assert moves_from("4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1", "d2") == {"d2c3"}


def test_pinned_pieces_reports_each_pin_with_its_line() -> None:
    position = parse_fen("4r1k1/8/8/8/b7/8/2B1N3/3K4 w - - 0 1")
    # e2 is not pinned: the king is on d1, not on the e-file
    pins = pinned_pieces(position, WHITE)
    assert set(map(SQUARE_NAMES.__getitem__, pins)) == {"c2"}
    assert squares(pins[SQUARE_INDEX["c2"]]) == {"a4", "b3", "c2", "d1"}


# -- castling ------------------------------------------------------------------------------------

CASTLE_BOTH = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def castles(fen: str) -> set[str]:
    return {move for move in legal(fen) if move in ("e1g1", "e1c1", "e8g8", "e8c8")}


def test_castling_both_ways_when_every_condition_holds() -> None:
    assert castles(CASTLE_BOTH) == {"e1g1", "e1c1"}
    assert castles(CASTLE_BOTH.replace(" w ", " b ")) == {"e8g8", "e8c8"}


def test_castling_needs_the_right() -> None:
    assert castles("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1") == {"e1c1"}
    assert castles("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1") == set()


def test_castling_needs_every_square_between_king_and_rook_empty() -> None:
    assert castles("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1") == {"e1g1"}, "b1 must be empty too"
    assert castles("r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1") == {"e1c1"}
    assert castles("r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1") == {"e1c1"}


def test_no_castling_out_of_check() -> None:
    assert castles("r3k2r/8/8/8/4q3/8/8/R3K2R w KQkq - 0 1") == set()


def test_no_castling_through_an_attacked_square() -> None:
    assert castles("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1") == {"e1c1"}, "f1 is attacked"
    assert castles("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1") == {"e1g1"}, "d1 is attacked"


def test_no_castling_into_check() -> None:
    assert castles("r3k1r1/8/8/8/8/8/8/R3K2R w KQq - 0 1") == {"e1c1"}, "g1 is attacked"
    assert castles("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1") == {"e1g1"}, "c1 is attacked"


def test_queenside_castling_is_allowed_while_the_b_file_square_is_attacked() -> None:
    assert castles("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1") == {"e1g1", "e1c1"}


def test_castling_moves_the_rook_too() -> None:
    position = play(parse_fen(CASTLE_BOTH), "e1c1")
    assert write_fen(position) == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"
    play(position, "e8g8")
    assert write_fen(position) == "r4rk1/8/8/8/8/8/8/2KR3R w - - 2 2"


def test_a_captured_rook_takes_its_castling_right_with_it() -> None:
    position = play(parse_fen("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1"), "g2h1")
    assert not position.castling & WHITE_KINGSIDE
    assert position.castling & WHITE_QUEENSIDE
    assert write_fen(position).split()[2] == "Qkq"


def test_capturing_a_rook_at_home_with_a_rook_removes_both_sides_rights() -> None:
    position = play(parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), "a1a8")
    assert position.castling == WHITE_KINGSIDE | BLACK_KINGSIDE


def test_a_king_that_moved_and_came_back_cannot_castle() -> None:
    position = play(parse_fen(CASTLE_BOTH), "e1f1 e8f8 f1e1 f8e8")
    assert write_fen(position).split()[2] == "-"
    assert castles(write_fen(position)) == set()
    assert not {"e1g1", "e1c1"} & moves_of(position)


def test_a_rook_that_moved_and_came_back_loses_only_its_own_side() -> None:
    position = play(parse_fen(CASTLE_BOTH), "h1h2 a8a7 h2h1 a7a8")
    assert position.castling == WHITE_QUEENSIDE | BLACK_KINGSIDE
    assert {move for move in moves_of(position) if move in ("e1g1", "e1c1")} == {"e1c1"}


# -- en passant ----------------------------------------------------------------------------------


def test_en_passant_captures_the_pawn_that_just_moved_two() -> None:
    position = play(parse_fen("startpos"), "e2e4 a7a6 e4e5 f7f5")
    assert "e5f6" in moves_of(position)
    play(position, "e5f6")
    assert write_fen(position) == "rnbqkbnr/1pppp1pp/p4P2/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"


def test_en_passant_is_only_possible_right_after_the_double_push() -> None:
    position = play(parse_fen("startpos"), "e2e4 a7a6 e4e5 d7d5")
    assert "e5d6" in moves_of(position)
    play(position, "g1f3 b8c6")
    assert "e5d6" not in moves_of(position), "the chance to take en passant passed with the next move"


def test_a_pawn_that_moved_one_square_twice_cannot_be_taken_en_passant() -> None:
    position = play(parse_fen("startpos"), "e2e4 d7d6 e4e5 d6d5")
    assert "e5d6" not in moves_of(position)


def test_en_passant_that_would_expose_the_king_along_the_rank_is_illegal() -> None:
    # both pawns leave the fifth rank, opening it from the h5 rook to the a5 king
    assert "e5d6" not in legal("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2")
    assert "e5d6" in legal("8/8/8/K2pP1Nr/8/8/8/7k w - d6 0 2"), "with the rank still blocked it is fine"


def test_en_passant_answers_a_check_given_by_the_pawn_that_just_moved() -> None:
    fen = "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2"
    assert is_check(parse_fen(fen))
    assert "e5d6" in legal(fen)


def test_en_passant_does_not_answer_a_check_from_another_piece() -> None:
    # d7-d5 opened the c8 bishop's diagonal to the f5 king; taking on d6 does not close it
    fen = "2b1k3/8/8/3pPK2/8/8/8/8 w - d6 0 2"
    assert squares(checkers(parse_fen(fen))) == {"c8"}
    assert "e5d6" not in legal(fen)
    assert "e5e6" in legal(fen), "the push blocks the diagonal"


def test_en_passant_off_a_diagonal_pin_is_illegal_and_along_it_is_legal() -> None:
    # the e5 pawn is pinned on a1-h8 by the g7 bishop against the b2 king
    assert moves_from("4k3/6b1/8/3pP3/8/8/1K6/8 w - d6 0 2", "e5") == set()
    assert moves_from("4k3/6b1/8/4Pp2/8/8/1K6/8 w - f6 0 2", "e5") == {"e5f6"}


def test_black_captures_en_passant_too() -> None:
    assert "c4d3" in legal("8/8/1k6/8/2pP4/8/8/3K4 b - d3 0 1")


# -- promotion -----------------------------------------------------------------------------------


def test_a_pawn_reaching_the_last_rank_promotes_to_queen_rook_bishop_or_knight() -> None:
    assert moves_from("7k/P7/8/8/8/8/8/K7 w - - 0 1", "a7") == {"a7a8q", "a7a8r", "a7a8b", "a7a8n"}
    assert moves_from("8/8/8/8/8/8/p7/2K4k b - - 0 1", "a2") == {"a2a1q", "a2a1r", "a2a1b", "a2a1n"}


def test_a_capture_onto_the_last_rank_promotes_too() -> None:
    pawn = moves_from("1r6/P6k/8/8/8/8/8/K7 w - - 0 1", "a7")
    assert pawn == {f"a7{target}{kind}" for target in ("a8", "b8") for kind in "qrbn"}


def test_a_promoted_piece_is_on_the_board_after_the_move() -> None:
    position = play(parse_fen("1r6/P6k/8/8/8/8/8/K7 w - - 0 1"), "a7b8n")
    assert write_fen(position) == "1N6/7k/8/8/8/8/8/K7 b - - 0 1"


# -- the end of the game -------------------------------------------------------------------------


def test_stalemate_has_no_legal_moves_and_no_check() -> None:
    position = parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert legal_moves(position) == []
    assert not is_check(position)


def test_checkmate_has_no_legal_moves_and_is_check() -> None:
    fools_mate = parse_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert legal_moves(fools_mate) == []
    assert is_check(fools_mate)
    back_rank = parse_fen("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
    assert legal_moves(back_rank) == []
    assert is_check(back_rank)


# -- attack queries ------------------------------------------------------------------------------


def test_attackers_sees_every_kind_and_stops_at_blockers() -> None:
    position = parse_fen("4k3/8/8/8/2np4/8/4K3/B6R w - - 0 1")
    occupied = position.occupancy[WHITE] | position.occupancy[BLACK]
    assert squares(attackers(position, BLACK, SQUARE_INDEX["e3"], occupied)) == {"c4", "d4"}
    assert is_attacked(position, WHITE, SQUARE_INDEX["h8"]) is True, "the h1 rook sees h8"
    assert is_attacked(position, WHITE, SQUARE_INDEX["g7"]) is False, "d4 blocks the a1 bishop"
    assert squares(attackers(position, WHITE, SQUARE_INDEX["g7"], 0)) == {"a1"}, "on an empty board it does"
