"""FEN reading and writing: real positions round-trip, and each malformed field gets its own error.

python-chess serves as the reference for what a written FEN must look like (``board.fen()``).
"""

from __future__ import annotations

import chess
import pytest

from board.errors import FenError, InputError
from board.notation.fen import STARTING_FEN, parse_fen, write_fen
from board.rules.pieces import BLACK, KING, PAWN, WHITE
from board.rules.position import BLACK_KINGSIDE, BLACK_QUEENSIDE, WHITE_KINGSIDE, WHITE_QUEENSIDE
from board.rules.squares import SQUARE_INDEX

REAL_FENS = [
    STARTING_FEN,
    # after 1.e4: the en passant square is written only when a capture there is legal
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    # French Advance, 3...f5: exf6 en passant is on
    "rnbqkbnr/ppp3pp/4p3/3pPp2/3P4/8/PPP2PPP/RNBQKBNR w KQkq f6 0 4",
    # the perft suite
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    # Morphy's Opera Game before 17.Rd8#, and the mate itself
    "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16",
    "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17",
    # Immortal Game, final position
    "r1bk3r/p2pBpNp/n4n2/1p1NP2P/6P1/3P4/P1P1K3/q5b1 b - - 1 23",
    # endings, a black en passant capture, a castling-rights-only position, high clocks
    "8/8/1k6/8/2pP4/8/8/3K4 b - d3 0 1",
    "8/8/8/8/8/8/6k1/4K2R w K - 0 1",
    "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
    "8/5k2/8/8/8/8/1K6/8 w - - 99 150",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 12 40",
    # black to move in check
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1",
]


@pytest.mark.parametrize("fen", REAL_FENS)
def test_real_fens_round_trip_exactly(fen: str) -> None:
    assert write_fen(parse_fen(fen)) == fen


@pytest.mark.parametrize("fen", REAL_FENS)
def test_written_fen_is_the_one_python_chess_writes(fen: str) -> None:
    assert write_fen(parse_fen(fen)) == chess.Board(fen).fen()


def test_startpos_names_the_initial_position() -> None:
    assert write_fen(parse_fen("startpos")) == STARTING_FEN


def test_fields_are_read_into_the_position() -> None:
    position = parse_fen("r3k2r/8/8/8/4Pp2/8/8/R3K2R b Kq e3 7 31")
    assert position.turn == BLACK
    assert position.castling == WHITE_KINGSIDE | BLACK_QUEENSIDE
    assert position.en_passant == SQUARE_INDEX["e3"]
    assert (position.halfmove, position.fullmove) == (7, 31)
    assert position.kings == [SQUARE_INDEX["e1"], SQUARE_INDEX["e8"]]
    assert position.squares[SQUARE_INDEX["f4"]] == BLACK * 8 + PAWN
    assert position.squares[SQUARE_INDEX["e1"]] == WHITE * 8 + KING


def test_each_castling_letter_sets_its_own_right() -> None:
    rights = WHITE_KINGSIDE | WHITE_QUEENSIDE | BLACK_KINGSIDE | BLACK_QUEENSIDE
    assert parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").castling == rights
    assert parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1").castling == WHITE_QUEENSIDE | BLACK_KINGSIDE


def test_the_clocks_may_be_left_out() -> None:
    position = parse_fen("8/8/8/8/8/8/6k1/4K2R w K -")
    assert (position.halfmove, position.fullmove) == (0, 1)


def test_an_en_passant_square_no_pawn_can_use_is_read_but_not_written() -> None:
    position = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert position.en_passant == SQUARE_INDEX["e3"], "the FEN's square is kept"
    assert write_fen(position).split()[3] == "-", "no black pawn can take on e3, so FEN shows '-'"


def test_an_en_passant_capture_that_would_expose_the_king_is_not_written() -> None:
    # exd6 would leave the a5 king open to the h5 rook along the fifth rank
    position = parse_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2")
    assert write_fen(position).split()[3] == "-"


MALFORMED = [
    ("5 fields", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "has 5 fields; expected 6"),
    ("7 fields", STARTING_FEN + " 12", "has 7 fields; expected 6"),
    ("empty text", "", "has 0 fields"),
    ("7 ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "has 7 ranks; expected 8"),
    ("short rank", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w Qkq - 0 1", "covers 7 squares, not 8"),
    ("long rank", "rnbqkbnr/pppppppp/8/8/3p5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "covers 9 squares, not 8"),
    ("digit 9", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has '9'"),
    ("unknown letter", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w Qkq - 0 1", "rank 1 has 'X'"),
    ("two white kings", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "has 2 white kings; expected exactly 1"),
    ("no black king", "8/8/8/8/8/8/8/4K3 w - - 0 1", "has 0 black kings; expected exactly 1"),
    ("pawn on rank 1", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "white pawn on a1, on the first or last rank"),
    ("pawn on rank 8", "3pk3/8/8/8/8/8/8/4K3 w - - 0 1", "black pawn on d8, on the first or last rank"),
    ("nine pawns", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "has 9 white pawns; at most 8"),
    ("seventeen pieces", "4k3/8/8/8/NNNNNNNN/8/PPPPPPPP/4K3 w - - 0 1", "has 17 white pieces; at most 16"),
    ("side to move", "4k3/8/8/8/8/8/8/4K3 white - - 0 1", "side to move 'white' is not w or b"),
    ("castling letter", "r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", "'X' is not one of K, Q, k, q"),
    (
        "castling twice",
        "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1",
        "'K' is repeated or out of order",
    ),
    ("castling with a dash", "r3k2r/8/8/8/8/8/8/R3K2R w -K - 0 1", "'-' is not one of K, Q, k, q"),
    ("king moved", "r3k2r/8/8/8/8/8/8/R4K1R w K - 0 1", "castling right 'K' but the king is not on e1"),
    ("rook gone", "r3k2r/8/8/8/8/8/8/R3K3 w KQ - 0 1", "castling right 'K' but no rook on h1"),
    ("black rook gone", "1r2k2r/8/8/8/8/8/8/R3K2R w q - 0 1", "castling right 'q' but no rook on a8"),
    (
        "en passant rank",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 2",
        "on rank 6 with white",
    ),
    ("en passant name", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", "'e9' must be '-'"),
    (
        "en passant without the pawn",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
        "no pawn just moved two squares past it",
    ),
    (
        "en passant with its origin occupied",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1",
        "no pawn just moved two squares past it",
    ),
    (
        "en passant square occupied",
        "rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1",
        "no pawn just moved two squares past it",
    ),
    (
        "negative halfmove clock",
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
        "halfmove clock '-1' is not a whole number",
    ),
    ("text halfmove clock", "4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock 'x' is not a whole number"),
    ("fullmove zero", "4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove number '0' is not a whole number >= 1"),
    ("text fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 one", "fullmove number 'one' is not a whole number"),
    ("negative fullmove", "4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "fullmove number '-3' is not a whole number"),
    ("side not to move in check", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "black, not to move, is in check"),
    (
        "white not to move in check",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR b KQkq - 1 3",
        "white, not to move, is in check",
    ),
]


@pytest.mark.parametrize(
    ("fen", "message"), [pytest.param(fen, message, id=name) for name, fen, message in MALFORMED]
)
def test_malformed_fen_is_rejected_naming_the_field(fen: str, message: str) -> None:
    with pytest.raises(FenError) as caught:
        parse_fen(fen)
    text = str(caught.value)
    assert message in text, f"error for {fen!r} should say {message!r}, says {text!r}"
    assert "\n" not in text, "a FEN error is one line (the CLI prints it as is)"


def test_fen_errors_are_input_errors_and_value_errors() -> None:
    with pytest.raises(InputError):
        parse_fen("not a fen")
    with pytest.raises(ValueError):
        parse_fen("not a fen")


def test_two_adjacent_digits_in_a_rank_are_rejected() -> None:
    with pytest.raises(FenError, match="two counts in a row"):
        parse_fen("4k3/8/8/8/44/8/8/4K3 w - - 0 1")


def test_castling_letters_out_of_order_are_rejected() -> None:
    with pytest.raises(FenError, match="'k' is repeated or out of order"):
        parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1")


@pytest.mark.parametrize(
    "fen",
    [
        pytest.param("8/8/8/8/8/8/8/8 w - - 0 1", id="empty"),
        pytest.param("4k3/8/8/8/8/8/8/R7 w - - 0 1", id="no-white-king"),
        pytest.param("P3k3/8/8/8/8/8/8/p3K3 w - - 0 1", id="pawns-on-the-back-ranks"),
        pytest.param("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", id="side-not-to-move-in-check"),
        pytest.param("QQQQkQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/8/4K3 w - - 0 1", id="23-white-queens"),
    ],
)
def test_a_lenient_parse_takes_any_placement_the_strict_one_refuses(fen: str) -> None:
    with pytest.raises(FenError):
        parse_fen(fen)
    position = parse_fen(fen, strict=False)
    assert write_fen(position) == fen


def test_a_lenient_parse_records_a_missing_king_as_square_minus_one() -> None:
    assert parse_fen("4k3/8/8/8/8/8/8/R7 w - - 0 1", strict=False).kings == [-1, SQUARE_INDEX["e8"]]


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        pytest.param("8/8/8/8/8/8/8 w - - 0 1", "has 7 ranks", id="seven-ranks"),
        pytest.param("8/8/8/8/8/8/8/8 x - - 0 1", "side to move", id="side"),
        pytest.param("8/8/8/8/8/8/8/8 w K - 0 1", "the king is not on e1", id="castling-without-king"),
        pytest.param("8/8/8/8/8/8/8/8 w - e6 0 1", "no pawn just moved two", id="en-passant"),
    ],
)
def test_a_lenient_parse_still_checks_the_syntax_and_the_fields(fen: str, message: str) -> None:
    with pytest.raises(FenError, match=message):
        parse_fen(fen, strict=False)
