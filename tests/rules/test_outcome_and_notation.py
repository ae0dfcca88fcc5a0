"""How games end, and SAN written and read, checked on real positions and against the oracle."""

from __future__ import annotations

import random

import chess
import pytest

from board.errors import IllegalMoveError, MoveSyntaxError
from board.games.game import Game
from board.notation.algebraic import parse_move_text, resolve, san, uci
from board.notation.fen import parse_fen, write_fen
from board.rules.movegen import legal_moves
from board.rules.outcome import insufficient_material, pieces_of


def test_fools_mate_is_checkmate_with_a_hash_in_its_san() -> None:
    game = Game()
    played = [game.play(move) for move in ("f3", "e5", "g4", "Qh4#")]
    assert [p.san for p in played] == ["f3", "e5", "g4", "Qh4#"]
    assert played[-1].check and played[-1].outcome == "checkmate"


def test_a_king_with_no_move_and_no_check_is_stalemate() -> None:
    assert Game("7k/8/6Q1/8/8/8/8/K7 w - - 0 1").play("Qd6").outcome is None
    assert Game("7k/8/6Q1/8/8/8/8/K7 w - - 0 1").play("Qf7").outcome == "stalemate"
    assert Game("7k/8/8/6Q1/8/8/8/K7 w - - 0 1").play("Qg6").outcome == "stalemate"


def test_the_third_occurrence_of_a_position_allows_a_claim_but_does_not_end_the_game() -> None:
    game = Game()
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2
    outcomes = [game.play(move).outcome for move in shuffle]
    assert outcomes == [None] * 8
    assert game.claimable() == ("threefold_repetition",)
    assert game.play("e4").outcome is None


def test_the_hundredth_quiet_half_move_allows_the_fifty_move_claim() -> None:
    game = Game("8/8/4k3/8/8/3K4/8/7R w - - 99 80")
    assert game.play("Rh2").outcome is None
    assert game.claimable() == ("fifty_moves",)
    early = Game("8/8/4k3/8/8/3K4/8/7R w - - 98 80")
    early.play("Rh2")
    assert early.claimable() == ()


@pytest.mark.parametrize(
    ("fen", "dead"),
    [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", True),             # king against king
        ("8/8/4k3/8/8/3K4/8/5B2 w - - 0 1", True),           # a lone bishop cannot mate
        ("8/8/4k3/8/8/3K4/8/5N2 w - - 0 1", True),           # nor a lone knight
        ("8/8/4k3/8/2b5/3K4/8/5B2 w - - 0 1", True),         # bishops all on light squares
        ("8/8/4k3/8/1b6/3K4/8/5B2 w - - 0 1", False),        # bishops on both colours
        ("8/8/4k3/8/8/3K4/8/4NN2 w - - 0 1", False),         # two knights can (with help)
        ("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", False),          # a pawn can promote
        ("8/8/4k3/4r3/8/3K4/8/5N2 w - - 0 1", False),        # knight against rook: mate is possible
    ],
)
def test_insufficient_material_matches_the_oracle(fen: str, dead: bool) -> None:
    assert insufficient_material(pieces_of(parse_fen(fen))) is dead
    assert chess.Board(fen).is_insufficient_material() is dead


def test_san_written_and_read_matches_the_oracle_on_random_positions() -> None:
    rng = random.Random(99)
    checked = 0
    for _ in range(40):
        oracle = chess.Board()
        while not oracle.is_game_over() and oracle.ply() < 160:
            position = parse_fen(oracle.fen())
            ours = {san(position, move): uci(move) for move in legal_moves(position)}
            theirs = {oracle.san(move): move.uci() for move in oracle.legal_moves}
            assert ours == theirs, oracle.fen()
            for written, text in ours.items():
                assert uci(resolve(position, parse_move_text(position, written))) == text
            checked += len(ours)
            oracle.push(rng.choice(list(oracle.legal_moves)))
    assert checked > 50_000


def test_over_specified_and_annotated_san_is_read() -> None:
    position = parse_fen("startpos")
    for text in ("Ngf3", "N1f3", "Ng1f3", "Nf3!?", "g1f3"):
        assert uci(resolve(position, parse_move_text(position, text))) == "g1f3"


def test_uci_naming_an_empty_square_says_so() -> None:
    position = parse_fen("startpos")
    with pytest.raises(IllegalMoveError, match="there is no white piece on e3"):
        parse_move_text(position, "e3e4")


def test_text_that_is_neither_san_nor_uci_is_a_syntax_error() -> None:
    with pytest.raises(MoveSyntaxError):
        parse_move_text(parse_fen("startpos"), "hello")


def test_fen_survives_a_promotion_and_underpromotion() -> None:
    game = Game("8/1P2k3/8/8/8/8/6p1/4K3 w - - 0 1")
    game.play("b8=N")
    game.play("g1=R+")
    assert write_fen(game.position) == "1N6/4k3/8/8/8/8/8/4K1r1 w - - 0 2"
