"""The brute-force fairy judge: python-chess's moves when nothing is taught, the rules when something is."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import chess
import pytest

from board.notation.fen import parse_fen
from board.rules.geometry import geometry_named
from tests.helpers.fairy_judge import legal_moves
from tests.helpers.fairy_positions import FAIRIES, THEMES, TaughtPosition, taught_positions

# Seeds for random games: the start, and positions rich in castling, en passant, promotion and pins.
STARTS = (
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
)


def _random_positions(seed: int, games: int, plies: int) -> list[chess.Board]:
    rng = random.Random(seed)
    boards = []
    for _ in range(games):
        board = chess.Board(rng.choice(STARTS))
        for _ in range(plies):
            if board.is_game_over():
                break
            boards.append(board.copy(stack=False))
            board.push(rng.choice(list(board.legal_moves)))
    return boards


def test_with_nothing_taught_it_agrees_with_python_chess_on_random_games() -> None:
    seen: Counter[str] = Counter()
    for board in _random_positions(seed=14, games=30, plies=50):
        expected = {move.uci() for move in board.legal_moves}
        assert legal_moves(board.fen()) == expected, board.fen()
        seen["check"] += board.is_check()
        seen["castling"] += any(board.is_castling(move) for move in board.legal_moves)
        seen["en passant"] += any(board.is_en_passant(move) for move in board.legal_moves)
        seen["promotion"] += any(move.promotion for move in board.legal_moves)
        seen["pin"] += any(board.is_pinned(board.turn, square) for square in chess.SQUARES)
    # The comparison means something only if the games reached every rule.
    assert all(seen[rule] >= 5 for rule in ("check", "castling", "en passant", "promotion", "pin")), seen


def test_an_archbishop_on_f6_checks_h7_like_a_knight_and_guards_its_diagonal() -> None:
    fen = "8/7k/5B2/8/8/8/8/K7 b - - 0 1"
    assert legal_moves(fen) == {"h7g8", "h7g6", "h7h6"} == {m.uci() for m in chess.Board(fen).legal_moves}
    assert legal_moves(fen, {"f6": geometry_named("archbishop")}) == {"h7g6", "h7h6"}


def test_a_jumping_rook_checks_through_a_blocker_that_cannot_block_it() -> None:
    fen = "4r2k/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert legal_moves(fen, {"e8": geometry_named("jumping-rook")}) == {"e1d1", "e1f1", "e1d2", "e1f2"}


def test_a_taught_chancellor_pins_a_rook_to_its_file() -> None:
    fen = "3b3k/8/8/8/3R4/8/8/3K4 w - - 0 1"
    rook = {"d4d2", "d4d3", "d4d5", "d4d6", "d4d7", "d4d8"}
    king = {"d1c1", "d1e1", "d1c2", "d1d2", "d1e2"}
    assert legal_moves(fen, {"d8": geometry_named("chancellor")}) == rook | king
    assert {m for m in legal_moves(fen) if m.startswith("d4")} == {f"d4{f}4" for f in "abcefgh"} | {
        f"d4d{r}" for r in (2, 3, 5, 6, 7, 8)
    }


def test_a_pinned_knight_that_learnt_the_chancellor_may_move_along_the_pin() -> None:
    fen = "4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1"
    king = {"e1d1", "e1f1", "e1d2", "e1f2"}
    assert legal_moves(fen) == king
    along = {f"e2e{rank}" for rank in range(3, 9)}
    assert legal_moves(fen, {"e2": geometry_named("chancellor")}) == king | along


def test_castling_follows_what_the_attacker_has_learnt() -> None:
    fen = "r3k2r/8/8/8/6b1/8/8/R3K2R w KQkq - 0 1"
    standard = legal_moves(fen)
    assert "e1g1" in standard and "e1c1" not in standard  # the bishop on g4 watches d1
    taught = legal_moves(fen, {"g4": geometry_named("camel")})
    assert "e1c1" in taught and "e1g1" not in taught  # the camel on g4 watches f1 and h1
    assert standard == {m.uci() for m in chess.Board(fen).legal_moves}


def test_a_taught_pawn_moves_as_taught_and_still_promotes() -> None:
    fen = "8/6P1/8/8/8/8/8/K6k w - - 0 1"
    pawn = {m for m in legal_moves(fen, {"g7": geometry_named("knight")}) if m.startswith("g7")}
    assert pawn == {"g7e8q", "g7e8r", "g7e8b", "g7e8n", "g7e6", "g7f5", "g7h5"}


def test_a_square_with_no_piece_cannot_be_taught() -> None:
    with pytest.raises(ValueError, match=r"taught squares \['e4'\] hold no piece"):
        legal_moves(chess.STARTING_FEN, {"e4": geometry_named("camel")})


@pytest.fixture(scope="module")
def positions() -> list[TaughtPosition]:
    return list(taught_positions(seed=14, count=200))


def test_the_generator_is_seeded_valid_and_varied(positions: list[TaughtPosition]) -> None:
    found = positions
    assert len(found) == 200
    assert [p.fen for p in taught_positions(seed=14, count=5)] == [p.fen for p in found[:5]]
    assert len({p.fen for p in found}) == 200
    themes = Counter(theme for p in found for theme in p.themes)
    assert all(themes[theme] >= 30 for theme in THEMES), themes
    assert Counter(name for p in found for name in p.taught_names.values()).keys() == set(FAIRIES)
    assert sum(p.fen.split()[3] != "-" for p in found) >= 10  # some positions allow en passant
    for position in found:
        board = parse_fen(position.fen)  # strict: a position that could be on a board
        colours = {board.piece_at(chess.parse_square(square)) >> 3 for square in position.taught_names}
        assert colours == {0, 1}, position


def test_teaching_changes_the_moves_in_most_generated_positions(positions: list[TaughtPosition]) -> None:
    changed = 0
    for position in positions:
        plain = legal_moves(position.fen)
        assert plain == {m.uci() for m in chess.Board(position.fen).legal_moves}, position.fen
        changed += legal_moves(position.fen, position.taught) != plain
    assert changed >= 160, f"teaching changed the moves in only {changed} of 200 positions"


def test_the_judge_stands_apart_from_the_engine_s_move_generator_and_judge() -> None:
    code = (
        "import sys, tests.helpers.fairy_judge\n"
        "engine = {'board.rules.movegen', 'board.rules.judge', 'board.rules.facts', 'board.rules.position'}\n"
        "used = sorted(engine & set(sys.modules))\n"
        "assert not used, used\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
