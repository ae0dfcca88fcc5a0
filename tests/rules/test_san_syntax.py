"""SAN and UCI move syntax: every accepted spelling parses to the right parts, and every
rejected one raises MoveSyntaxError with a message naming the text and the reason.
"""

from __future__ import annotations

import contextlib
import random

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from board.errors import InputError, MoveSyntaxError
from board.notation.san_syntax import (
    Castle,
    CheckMark,
    Piece,
    Promotion,
    SanMove,
    UciMove,
    parse_san,
    parse_uci,
    uci_text,
)
from board.rules.squares import SQUARE_INDEX


def _move(
    text: str,
    *,
    piece: Piece = "P",
    to: str | None = None,
    from_file: int | None = None,
    from_rank: int | None = None,
    capture: bool = False,
    promotion: Promotion | None = None,
    castle: Castle | None = None,
    check: CheckMark = "",
) -> SanMove:
    target = None if to is None else SQUARE_INDEX[to]
    return SanMove(piece, from_file, from_rank, capture, target, promotion, castle, check, text)


ACCEPTED = [
    _move("e4", to="e4"),
    _move("Nf3", piece="N", to="f3"),
    _move("exd5", to="d5", from_file=4, capture=True),
    _move("Nbd7", piece="N", to="d7", from_file=1),
    _move("R1e2", piece="R", to="e2", from_rank=0),
    _move("Qh4e1", piece="Q", to="e1", from_file=7, from_rank=3),
    _move("Qh4xe1", piece="Q", to="e1", from_file=7, from_rank=3, capture=True),
    _move("Bxf7+", piece="B", to="f7", capture=True, check="+"),
    _move("Qxf7#", piece="Q", to="f7", capture=True, check="#"),
    _move("Kxe2", piece="K", to="e2", capture=True),
    _move("e8=Q", to="e8", promotion="Q"),
    _move("e8Q", to="e8", promotion="Q"),
    _move("e8=q", to="e8", promotion="Q"),
    _move("e8n", to="e8", promotion="N"),
    _move("exd8=N+", to="d8", from_file=4, capture=True, promotion="N", check="+"),
    _move("exf1=Q+", to="f1", from_file=4, capture=True, promotion="Q", check="+"),
    _move("a1=R", to="a1", promotion="R"),
    _move("hxg1=B#", to="g1", from_file=7, capture=True, promotion="B", check="#"),
    _move("O-O", piece="K", castle="K"),
    _move("O-O-O", piece="K", castle="Q"),
    _move("0-0", piece="K", castle="K"),
    _move("0-0-0", piece="K", castle="Q"),
    _move("O-O+", piece="K", castle="K", check="+"),
    _move("O-O-O#", piece="K", castle="Q", check="#"),
    _move("Nf3!", piece="N", to="f3"),
    _move("Nf3?", piece="N", to="f3"),
    _move("Nf3!!", piece="N", to="f3"),
    _move("Nf3??", piece="N", to="f3"),
    _move("Nf3!?", piece="N", to="f3"),
    _move("Nf3?!", piece="N", to="f3"),
    _move("Qxf7#!!", piece="Q", to="f7", capture=True, check="#"),
    _move("O-O!?", piece="K", castle="K"),
]


@pytest.mark.parametrize("expected", ACCEPTED, ids=[move.text for move in ACCEPTED])
def test_accepted_san_parses_into_its_parts(expected: SanMove) -> None:
    assert parse_san(expected.text) == expected


REJECTED = [
    ("Z0", "Z0: null moves are not standard chess"),
    ("--", "--: null moves are not standard chess"),
    ("0000", "0000: null moves are not standard chess"),
    ("N@f3", "N@f3: piece drops are not standard chess"),
    ("@f3", "@f3: piece drops are not standard chess"),
    ("e9", "e9: e9 is not a square"),
    ("Nf9", "Nf9: f9 is not a square"),
    ("i4", "i4: i4 is not a square"),
    ("Kxe", "Kxe: the move has no target square"),
    ("Bb", "Bb: the move has no target square"),
    ("", ": empty text is not a move"),
    ("hello", "hello: not a move in SAN (expected e.g. e4, Nf3, exd5, O-O, e8=Q)"),
    ("xe5", "xe5: a pawn capture names the file the pawn comes from (e.g. dxe5)"),
    ("ed5", "ed5: a pawn names the file it comes from only when it captures (e.g. dxe5)"),
    ("exe5", "exe5: a pawn captures diagonally, from a neighbouring file"),
    ("axc5", "axc5: a pawn captures diagonally, from a neighbouring file"),
    ("e2e4", "e2e4: a pawn move names only the file it comes from, never its rank"),
    ("e7=Q", "e7=Q: a pawn promotes only on the first or eighth rank"),
    ("e5Q", "e5Q: a pawn promotes only on the first or eighth rank"),
    ("e8=K", "e8=K: a pawn cannot promote to a king"),
    ("e8=P", "e8=P: a pawn cannot promote to a pawn"),
    ("e8=X", "e8=X: X is not a piece a pawn promotes to (Q, R, B, N)"),
    ("e8=", "e8=: '=' must be followed by the piece the pawn promotes to (e.g. e8=Q)"),
    ("Nd8=Q", "Nd8=Q: only a pawn promotes"),
    ("Nd8=K", "Nd8=K: only a pawn promotes"),
    ("Pe4", "Pe4: a pawn move is written without the letter P (e.g. e4, dxe5), or in full with the square"
     " it comes from (e.g. Pe2d4)"),
    ("Pe2", "Pe2: a pawn move is written without the letter P (e.g. e4, dxe5), or in full with the square"
     " it comes from (e.g. Pe2d4)"),
    ("nf3", "nf3: piece letters are written in upper case (N, B, R, Q, K)"),
    ("Xe4", "Xe4: X is not a piece letter (K, Q, R, B, N)"),
    ("o-o", "o-o: castling is written with capital letters O (O-O, O-O-O)"),
    ("O-O-O-O", "O-O-O-O: not a castling move (write O-O or O-O-O)"),
    ("Qf7++", "Qf7++: a move ends with one check mark: + for check, # for mate"),
    ("e4!!!", "e4!!!: an annotation is at most two of ! and ? (e.g. !?)"),
    ("Rxa1x", "Rxa1x: cannot read 'x' after the target square a1"),
    ("Nzzd4", "Nzzd4: cannot read 'zz' before the target square d4"),
]


@pytest.mark.parametrize(
    ("text", "message"), REJECTED, ids=[text or "empty" for text, _ in REJECTED]
)
def test_rejected_san_names_the_text_and_the_reason(text: str, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_san(text)
    assert str(caught.value) == message


def test_a_syntax_error_is_an_input_error_and_a_value_error() -> None:
    with pytest.raises(InputError):
        parse_san("Z0")
    with pytest.raises(ValueError):
        parse_san("Z0")


def test_a_long_bad_move_is_shortened_in_the_message() -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_san("x" * 500)
    assert len(str(caught.value)) < 120


def test_parsing_the_same_text_twice_gives_the_same_shared_value() -> None:
    assert parse_san("Nbd7") is parse_san("Nbd7")


def test_every_san_python_chess_writes_for_random_games_parses() -> None:
    rng = random.Random(7)
    for _ in range(30):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 300:
            move = rng.choice(list(board.legal_moves))
            san = board.san(move)
            parsed = parse_san(san)
            if board.is_castling(move):
                assert parsed.castle == ("K" if board.is_kingside_castling(move) else "Q")
            else:
                assert parsed.to == move.to_square
                assert parsed.piece == chess.piece_symbol(
                    board.piece_type_at(move.from_square) or chess.PAWN
                ).upper()
                assert parsed.capture == board.is_capture(move)
                promotion = None if move.promotion is None else chess.piece_symbol(move.promotion)
                assert parsed.promotion == (None if promotion is None else promotion.upper())
            board.push(move)


@given(st.text(max_size=12))
def test_parse_san_raises_only_move_syntax_errors(text: str) -> None:
    with contextlib.suppress(MoveSyntaxError):
        parse_san(text)


# UCI


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("e2e4", UciMove(12, 28, None)),
        ("g1f3", UciMove(6, 21, None)),
        ("e7e8q", UciMove(52, 60, "Q")),
        ("a2a1n", UciMove(8, 0, "N")),
        ("e7e8Q", UciMove(52, 60, "Q")),
        ("e1g1", UciMove(4, 6, None)),
    ],
)
def test_uci_parses_into_squares_and_promotion(text: str, expected: UciMove) -> None:
    assert parse_uci(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0000", "0000: null moves are not standard chess"),
        ("e2e2", "e2e2: a move must leave its square"),
        ("e6e7q", "e6e7q: a pawn promotes only on the first or eighth rank"),
        ("e2e9", "e2e9: not a move in UCI form (expected e.g. e2e4 or e7e8q)"),
        ("e7e8k", "e7e8k: not a move in UCI form (expected e.g. e2e4 or e7e8q)"),
        ("Nf3", "Nf3: not a move in UCI form (expected e.g. e2e4 or e7e8q)"),
        ("", ": not a move in UCI form (expected e.g. e2e4 or e7e8q)"),
    ],
)
def test_bad_uci_is_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_uci(text)
    assert str(caught.value) == message


def test_uci_text_writes_squares_and_a_lower_case_promotion() -> None:
    assert uci_text(12, 28) == "e2e4"
    assert uci_text(52, 60, "Q") == "e7e8q"
    assert uci_text(8, 0, "n") == "a2a1n"


@pytest.mark.parametrize(
    ("from_square", "to_square", "promotion"), [(64, 0, None), (-1, 3, None), (52, 60, "K")]
)
def test_uci_text_rejects_squares_off_the_board_and_bad_promotions(
    from_square: int, to_square: int, promotion: str | None
) -> None:
    with pytest.raises(MoveSyntaxError):
        uci_text(from_square, to_square, promotion)


def test_uci_round_trips_with_python_chess_for_every_square_pair() -> None:
    for move in (chess.Move(a, b) for a in range(64) for b in range(64) if a != b):
        text = move.uci()
        parsed = parse_uci(text)
        assert (parsed.from_square, parsed.to_square) == (move.from_square, move.to_square)
        assert uci_text(parsed.from_square, parsed.to_square, parsed.promotion) == text


def test_a_pawn_move_to_an_end_rank_without_promotion_is_for_the_rules_to_judge() -> None:
    # Which end rank a pawn must promote on depends on its colour, which the text does not say.
    move = parse_san("e8")
    assert (move.piece, move.to, move.promotion) == ("P", 60, None)
    assert parse_san("dxc1").promotion is None
