"""Chess960 in the rules core and the direct engine, checked against python-chess as the oracle.

Start positions by number, X-FEN and Shredder-FEN castling fields, castling written as the king
taking its own rook (UCI) and as O-O / O-O-O (SAN), perft over the 960 starts, and random games.
"""

from __future__ import annotations

import io
import random

import chess
import pytest

from board.errors import FenError, IllegalMoveError
from board.games.game import Game
from board.games.replay import replay_direct
from board.notation.fen import parse_fen, write_fen
from board.notation.pgn import read_games
from board.rules.chess960 import back_rank, number_of, position_number, start_fen
from board.rules.perft import divide, perft
from scripts.chess960_perft import DATA, read_suite
from tests.helpers.chess960_games import CASTLING_CORNERS, random_chess960_game

SUITE = read_suite(DATA)


def oracle_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += oracle_perft(board, depth - 1)
        board.pop()
    return nodes


# -- start positions -----------------------------------------------------------------------------


def test_every_start_position_is_python_chess_s_by_number_and_back() -> None:
    for number in range(960):
        oracle = chess.Board.from_chess960_pos(number)
        assert start_fen(number) == oracle.fen(), f"position {number}"
        assert position_number(start_fen(number)) == number
        assert number_of(back_rank(number).lower()) == number


def test_number_518_is_standard_chess() -> None:
    assert back_rank(518) == "RNBQKBNR"
    assert position_number("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == 518


@pytest.mark.parametrize("rank", ["RNBQRBKN", "BBNNQRRK", "RRKNNQBB", "RNBKQNBR", "RNBQKBN"])
def test_a_rank_that_is_no_chess960_start_has_no_number(rank: str) -> None:
    assert number_of(rank) is None


@pytest.mark.parametrize("number", [-1, 960])
def test_a_number_outside_0_to_959_is_refused(number: int) -> None:
    with pytest.raises(FenError, match=f"Chess960 position number {number} is not in 0..959"):
        back_rank(number)


# -- perft ---------------------------------------------------------------------------------------


def test_the_suite_holds_all_960_starts_with_every_count_under_a_million() -> None:
    assert [number for number, _, _ in SUITE] == list(range(960))
    for number, fen, counts in SUITE:
        assert fen == start_fen(number)
        assert list(counts) == list(range(1, len(counts) + 1)) and len(counts) >= 3
        assert all(nodes < 1_000_000 for nodes in counts.values())


def test_the_suite_file_agrees_with_python_chess_on_a_seeded_sample() -> None:
    for number, fen, counts in random.Random(960).sample(SUITE, 6):
        board = chess.Board(fen, chess960=True)
        assert {depth: oracle_perft(board, depth) for depth in counts if depth <= 3} == {
            depth: nodes for depth, nodes in counts.items() if depth <= 3
        }, f"position {number}"


def test_perft_of_every_start_position_to_depth_2_equals_the_suite() -> None:
    for number, fen, counts in SUITE:
        position = parse_fen(fen, chess960=True)
        assert [perft(position, depth) for depth in (1, 2)] == [counts[1], counts[2]], f"position {number}"


def test_perft_at_depth_3_and_4_equals_the_suite_on_a_seeded_sample() -> None:
    sample = random.Random(3).sample(SUITE, 100)
    for number, fen, counts in sample:
        assert perft(parse_fen(fen, chess960=True), 3) == counts[3], f"position {number}"
    deep = [entry for entry in SUITE if 4 in entry[2]]
    for number, fen, counts in random.Random(4).sample(deep, 6):
        assert perft(parse_fen(fen, chess960=True), 4) == counts[4], f"position {number}"


# Published counts (the Chess960 perft results of chess programming references, positions a few
# moves into their games), for every 96th position of that suite and its last, at the depths
# under a million nodes; scripts/chess960_perft.py check --suite checks the whole published file.
PUBLISHED = [
    (0, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -", [21, 528, 12189, 326672]),
    (96, "bq1brnkr/1p1ppp1p/1np5/p5p1/8/1N5P/PPPPPPP1/BQ1BRNKR w HEhe -", [22, 588, 13524, 380068]),
    (192, "b1nbrknr/1qppp1pp/p4p2/1p6/6P1/P2NP3/1PPP1P1P/BQ1BRKNR w HEhe -", [25, 663, 17138, 482994]),
    (288, "bqn1rkrn/p1p2ppp/1p1p4/4p3/3PP2b/8/PPP2PPP/BQNBRKRN w GEge -", [25, 773, 20042, 616817]),
    (384, "bqrb2k1/pppppppr/5nnp/8/3P1P2/4P1N1/PPP3PP/BQRBN1KR w HCc -", [25, 597, 15872, 397970]),
    (480, "bq1bnknr/pprppp1p/8/2p3p1/4PPP1/8/PPPP3P/BQRBNKNR w HCh -", [24, 548, 14021, 347611]),
    (576, "bq1b1krn/pp1ppppp/3n4/2r5/3p3N/6N1/PPP1PPPP/BQRB1KR1 w GCg -", [21, 798, 18571, 688429]),
    (672, "bqrbknnr/ppp1p2p/8/3p1p2/5p2/P3N2P/1PPPP1P1/BQRBK1NR w HChc -", [20, 398, 9009, 194859]),
    (768, "b1rbknrn/qpp1ppp1/p6p/3p4/2P5/1P1P1P2/P3P1PP/BQRBKNRN w GCgc -", [30, 818, 24421, 688711]),
    (864, "bqkr1rnn/1ppp1ppp/p4b2/4p3/P7/3PP2N/1PP2PPP/BQRBKR1N w FC -", [24, 500, 12802, 293824]),
    (959, "bbq1nr1r/pppppk1p/2n2p2/6p1/P4P2/4P1P1/1PPP3P/BBQNNRKR w HF -", [23, 589, 14744, 387556]),
]


@pytest.mark.parametrize(("number", "fen", "counts"), PUBLISHED, ids=[f"id{entry[0]}" for entry in PUBLISHED])
def test_perft_equals_the_published_chess960_suite(number: int, fen: str, counts: list[int]) -> None:
    position = parse_fen(fen, chess960=True)
    depths = 4 if number == 672 else 3  # one depth-4 count, the smallest, keeps the pure build quick
    assert [perft(position, depth) for depth in range(1, depths + 1)] == counts[:depths], f"position {number}"


TRICKY = CASTLING_CORNERS


@pytest.mark.parametrize("fen", TRICKY)
def test_perft_of_castling_corner_cases_equals_python_chess(fen: str) -> None:
    board = chess.Board(fen, chess960=True)
    position = parse_fen(fen, chess960=True)
    assert write_fen(position) == board.fen()
    assert [perft(position, depth) for depth in (1, 2, 3)] == [oracle_perft(board, d) for d in (1, 2, 3)]


def test_divide_writes_chess960_castling_as_the_king_taking_its_rook() -> None:
    fen = "r5kr/8/8/8/8/8/8/R5KR w KQkq - 0 1"
    counts = {move.uci(): nodes for move, nodes in divide(parse_fen(fen, chess960=True), 1)}
    oracle = chess.Board(fen, chess960=True)
    assert set(counts) == {move.uci() for move in oracle.legal_moves}
    assert {"g1a1", "g1h1"} <= set(counts), "O-O-O and O-O: the king on g1 takes the rook on a1 or h1"


# -- FEN -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    ],
)
def test_a_shredder_fen_is_read_as_chess960_and_written_back_as_it_came(fen: str) -> None:
    position = parse_fen(fen)
    assert position.castling_table.chess960
    assert write_fen(position) == fen
    assert perft(position, 2) == oracle_perft(chess.Board(fen, chess960=True), 2)


def test_x_fen_names_an_inner_rook_by_its_file_and_the_outer_one_by_k_or_q() -> None:
    fen = "rr2k1rr/8/8/8/8/8/8/RR2K1RR w KQkq - 0 1"
    assert write_fen(parse_fen(fen, chess960=True)) == fen
    inner = "rr2k1rr/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1"
    assert write_fen(parse_fen(inner, chess960=True)) == chess.Board(inner, chess960=True).fen()


def test_chess960_reads_k_and_q_as_the_outermost_rooks_where_standard_chess_refuses() -> None:
    fen = start_fen(0)  # bbqnnrkr: the king on g1
    with pytest.raises(FenError, match="castling right 'K' but the king is not on e1"):
        parse_fen(fen)
    assert write_fen(parse_fen(fen, chess960=True)) == fen
    assert write_fen(parse_fen(fen, chess960=None)) == fen, "None: a field standard chess refuses is X-FEN"


def test_a_standard_fen_read_as_standard_chess_is_unchanged() -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    position = parse_fen(fen, chess960=None)
    assert not position.castling_table.chess960 and write_fen(position) == fen


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("4k3/8/8/8/8/8/4K3/R6R w K - 0 1", "castling right 'K' but the white king is not on its back rank"),
        ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "'K' but no white rook on the kingside of the king on e1"),
        ("4k3/8/8/8/8/8/8/R3K3 w H - 0 1", "castling right 'H' but no white rook on h1"),
        ("4k3/8/8/8/8/8/8/RR2K3 w AB - 0 1", "'B' repeats the white Q-side right"),
        ("4k3/8/8/8/8/8/8/R3K3 w Z - 0 1", "nor a Chess960 rook's file letter"),
    ],
)
def test_a_chess960_castling_field_the_placement_does_not_back_is_refused(fen: str, message: str) -> None:
    with pytest.raises(FenError, match=message):
        parse_fen(fen, chess960=True)


# -- moves ---------------------------------------------------------------------------------------


def test_castling_is_played_from_san_or_from_the_king_taking_its_rook() -> None:
    fen = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"  # kings on g1/g8, rooks a and h
    by_san, by_uci = Game(fen, chess960=True), Game(fen, chess960=True)
    played = by_san.play("O-O-O")
    by_uci.play("g1a1")
    assert played.san == "O-O-O"
    assert by_san.uci(played.move) == "g1a1"
    assert by_san.fen() == by_uci.fen() == "r5kr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1"
    kingside = Game(fen, chess960=True).play("O-O")
    assert kingside.san == "O-O"


def test_in_chess960_a_king_move_to_g1_is_not_castling() -> None:
    game = Game("4k3/8/8/8/8/8/8/4K2R w K - 0 1", chess960=True)
    played = game.play("e1f1")
    assert played.san == "Kf1" and game.fen() == "4k3/8/8/8/8/8/8/5K1R b - - 1 1"


def test_a_king_given_its_rook_s_home_square_steps_there_once_the_rook_has_gone() -> None:
    fen = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR b KQkq - 0 1"
    game, oracle = Game(fen, chess960=True), chess.Board(fen, chess960=True)
    for text in ("O-O", "a2a3", "g8h8"):  # the king stays on g8, the rook goes to f8; then Kh8
        played = game.play(text)
        oracle.push(oracle.parse_uci(game.uci(played.move)))
    assert played.san == "Kh8" and game.fen() == oracle.fen()
    assert game.play("g1h1").san == "O-O", "onto its own rook, with the right: castling"


def test_standard_chess_takes_the_king_taking_its_rook_as_castling_too() -> None:
    game = Game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    played = game.play("e1h1")
    assert played.san == "O-O" and game.uci(played.move) == "e1g1"


def test_castling_refused_because_the_rook_shielded_the_king_s_target() -> None:
    game = Game("1r2k3/8/8/8/8/8/8/rRK4R w KQ - 0 1", chess960=True)
    with pytest.raises(IllegalMoveError, match="lands on c1, attacked by the rook on a1"):
        game.play("O-O-O")


# -- random games written by python-chess --------------------------------------------------------


def test_300_random_chess960_games_replay_as_python_chess_played_them() -> None:
    rng = random.Random(2026)
    with_illegal = 0
    for index in range(300):
        text, fens, plies, illegal = random_chess960_game(rng)
        (game,) = read_games(io.StringIO(text))
        assert game.tags["Variant"] == "Chess960"
        verdict = replay_direct(game)
        assert verdict.plies == plies, f"game {index}: {verdict.error}\n{text}"
        assert verdict.fen == (fens[-1] if fens else game.tags["FEN"]), f"game {index}"
        if illegal is None:
            assert verdict.error is None, f"game {index}: {verdict.error}"
        else:
            with_illegal += 1
            assert verdict.error is not None and verdict.error.ply == plies + 1, f"game {index}"
            assert verdict.error.move == illegal and verdict.error.kind == "illegal"
        replayed = Game(game.tags["FEN"], chess960=True)
        for ply, token in enumerate(game.moves[:plies]):
            replayed.play(token.text, want_san=False)
            assert replayed.fen() == fens[ply], f"game {index}, ply {ply + 1}"
    assert with_illegal >= 50, "enough games end in an illegal castling to test it"
