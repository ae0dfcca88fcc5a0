"""Betza notation: the reader, lessons written in it, and the direct engine with taught pieces.

The moves are checked square by square on real positions; Fairy-Stockfish's verdicts on whole games
are in test_betza_oracle.py.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from actors.game.game import ActorGame
from actors.protocol import Accepted
from board.errors import BetzaError, IllegalMoveError, InputError
from board.games.game import Game
from board.notation.fen import parse_fen
from board.rules.geometry import betza, geometry_named, label_of, reach, standard
from board.rules.perft import perft as standard_perft
from board.rules.pieces import BISHOP, BLACK, KING, KNIGHT, QUEEN, ROOK, WHITE
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES
from board.rules.taught import TaughtBoard
from board.rules.taught import perft as taught_perft


def moves(text: str, square: str, colour: int = WHITE) -> dict[str, tuple[tuple[str, ...], str]]:
    """target -> (traversed squares, target rule) of the Betza piece ``text`` on ``square``."""
    return {
        SQUARE_NAMES[target]: (tuple(SQUARE_NAMES[step] for step in traversed), rule)
        for target, traversed, rule in reach(betza(text), colour, SQUARE_INDEX[square])
    }


def targets(text: str, square: str, colour: int = WHITE) -> set[str]:
    return set(moves(text, square, colour))


@pytest.mark.parametrize(
    ("atom", "expected"),
    [
        ("W", {"d5", "d3", "c4", "e4"}),
        ("F", {"c5", "e5", "c3", "e3"}),
        ("D", {"d6", "d2", "b4", "f4"}),
        ("N", {"c6", "e6", "b5", "f5", "b3", "f3", "c2", "e2"}),
        ("A", {"b6", "f6", "b2", "f2"}),
        ("H", {"d7", "d1", "a4", "g4"}),
        ("C", {"c7", "e7", "a5", "g5", "a3", "g3", "c1", "e1"}),
        ("Z", {"b7", "f7", "a6", "g6", "a2", "g2", "b1", "f1"}),
        ("G", {"a7", "g7", "a1", "g1"}),
    ],
)
def test_each_atom_leaps_from_d4_to_its_squares_and_crosses_nothing(atom: str, expected: set[str]) -> None:
    found = moves(atom, "d4")
    assert set(found) == expected
    assert all(path == () and rule == "any" for path, rule in found.values())


@pytest.mark.parametrize(
    ("letter", "kind"), [("K", KING), ("Q", QUEEN), ("R", ROOK), ("B", BISHOP), ("N", KNIGHT)]
)
def test_the_standard_letters_move_as_the_standard_pieces_from_every_square(letter: str, kind: int) -> None:
    for square in range(64):
        found, expected = reach(betza(letter), WHITE, square), reach(standard(kind), WHITE, square)
        assert found == expected, SQUARE_NAMES[square]


def test_a_doubled_atom_rides_crossing_each_stop_and_a_digit_limits_the_ride() -> None:
    assert moves("NN", "a1")["g4"] == (("c2", "e3"), "any")
    assert targets("WW", "a1") == targets("R", "a1")
    assert targets("W4", "a1") == {"b1", "c1", "d1", "e1", "a2", "a3", "a4", "a5"}
    assert moves("W4", "a1")["e1"] == (("b1", "c1", "d1"), "any")
    assert targets("B2", "d4") == {"c5", "b6", "e5", "f6", "c3", "b2", "e3", "f2"}


def test_directions_are_the_mover_s_own_forward_is_down_for_black() -> None:
    assert targets("fNbW", "d4", WHITE) == {"c6", "e6", "d3"}
    assert targets("fNbW", "d5", BLACK) == {"c3", "e3", "d6"}
    assert targets("fsW", "d4") == {"d5", "c4", "e4"}
    assert targets("fsN", "d4") == {"b5", "f5"}  # the wide forward leaps
    assert targets("rF", "d4", WHITE) == {"e5", "e3"}
    assert targets("rF", "d4", BLACK) == {"c5", "c3"}  # black's right is the a-file
    assert targets("vW", "d4") == {"d5", "d3"}
    assert targets("lfN", "d4") == {"c6"}


def test_move_only_and_capture_only_parts_answer_with_the_protocol_s_target_rule() -> None:
    found = moves("mBcF", "d4")
    assert found["f6"] == (("e5",), "empty")  # the bishop's slide only moves
    assert found["e5"] == ((), "any")  # the ferz step both moves (as the bishop) and captures
    assert moves("cN", "d4")["e6"] == ((), "enemy")


def test_a_lame_leaper_crosses_the_square_it_passes() -> None:
    assert moves("nN", "d4")["e6"] == (("d5",), "any")  # the xiangqi horse: straight, then diagonal
    assert moves("nN", "d4")["f5"] == (("e4",), "any")
    assert moves("nA", "d4")["f6"] == (("e5",), "any")
    assert moves("nD", "d4")["d6"] == (("d5",), "any")


@pytest.mark.parametrize(
    ("text", "letter", "position"),
    [
        ("pR", "p", 1),  # a hopper
        ("NpR", "p", 2),
        ("RgQ", "g", 2),
        ("iN", "i", 1),
        ("NhW", "h", 2),
        ("NX", "X", 2),
        ("N0", "0", 2),
        ("Nf", "f", 2),
        ("nR", "n", 1),  # a lame rider
        ("3N", "3", 1),
    ],
)
def test_a_betza_string_outside_the_notation_read_names_the_letter_and_its_position(
    text: str, letter: str, position: int
) -> None:
    with pytest.raises(BetzaError, match=f"'{letter}' at position {position}") as caught:
        betza(text)
    assert "\n" not in str(caught.value)


def test_a_lesson_in_betza_is_labelled_by_its_string_and_a_name_is_betza_underneath() -> None:
    assert label_of(geometry_named("NC")) == "NC"
    assert geometry_named("NC") is geometry_named(" NC ")
    camel = geometry_named("camel")
    assert label_of(camel) == "camel" and camel.betza == "C"
    assert all(reach(camel, WHITE, square) == reach(betza("C"), WHITE, square) for square in range(64))
    with pytest.raises(BetzaError, match="write 'knight'"):
        geometry_named("Knight")


def test_a_bad_betza_lesson_teaches_nothing_and_the_piece_moves_as_before() -> None:
    with ActorGame() as game:
        knight = game.piece("b1")
        with pytest.raises(BetzaError, match="'p' at position 2"):
            knight.learn("NpR")
        assert set(game.legal_targets("b1")) == {"a3", "c3"}
        knight.learn("NC")
        assert set(game.legal_targets("b1")) == {"a3", "c3", "a4", "c4"}
    with pytest.raises(InputError, match="'p' at position 1"), ActorGame(teach={"b1": "pR"}):
        pass


@pytest.mark.parametrize(
    "command",
    [
        ["perft", "startpos", "2", "--teach", "b1=NpR"],
        ["replay", "--teach", "b1=NpR"],
        ["run", "first-messages", "--teach", "b1=NpR"],
    ],
)
def test_a_bad_betza_string_on_the_command_line_is_one_line_and_exit_2(command: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "actors.cli", *command], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "'p' at position 2" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_perft_with_taught_pieces_on_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "actors.cli", "perft", "startpos", "3", *[
            arg for square in ("b1", "g1", "b8", "g8") for arg in ("--teach", f"{square}=NC")]],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "15432"  # Fairy-Stockfish's count for the unicorn's variant


def test_the_direct_engine_carries_a_lesson_with_its_piece_and_drops_it_on_capture() -> None:
    game = Game(teach={"b1": "NC"})
    assert {"b1a4", "b1c4"} <= set(game.legal_moves())
    game.play("b1c4")
    assert game.taught == {"c4": "NC"}
    game.play("e7e5")
    assert {"c4f5", "c4b7", "c4d6"} <= set(game.legal_moves())  # camel and knight leaps from c4
    assert game.play("c4d6").san == "Nd6+"
    played = game.play("f8d6")
    assert played.san == "Bxd6" and game.taught == {}


def test_a_taught_pawn_forgets_its_lesson_when_it_promotes() -> None:
    game = Game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", teach={"b7": "fW"})
    game.play("b7b8n")
    assert game.taught == {}
    game.play("e8e7")
    assert {move for move in game.legal_moves() if move.startswith("b8")} == {"b8a6", "b8c6", "b8d7"}


def test_the_direct_engine_refuses_a_lesson_on_an_empty_square_and_a_move_the_lesson_forbids() -> None:
    with pytest.raises(InputError, match="e4 holds no piece"):
        Game(teach={"e4": "NC"})
    game = Game(teach={"b1": "fN"})
    with pytest.raises(IllegalMoveError):
        game.play("b1d2")  # blocked: d2 holds a pawn
    assert "b1a3" in game.legal_moves() and "b1c3" in game.legal_moves()


def test_a_camel_that_gives_mate_ends_the_direct_game_as_the_actors_do() -> None:
    fen = "7k/5Q2/8/8/5N2/8/8/K7 w - - 0 1"
    teach = {"f4": "C"}
    assert Game(fen).play("f7g7").outcome is None  # as a knight, f4 does not guard g7: Kxg7
    game = Game(fen, teach=teach)
    played = game.play("f7g7")
    assert played.outcome == "checkmate" and played.san == "Qg7#"  # the camel on f4 guards g7
    with ActorGame(fen, teach=teach) as actors:
        reply = actors.propose("f7g7")
        assert isinstance(reply, Accepted)
        assert reply.outcome == played.outcome


LESSONS = ("NC", "nN", "mBcF", "fNbW", "W4B2", "NN", "K")


@pytest.mark.parametrize("seed", range(6))
def test_the_direct_and_the_actor_engine_agree_on_every_ply_with_taught_pieces(seed: int) -> None:
    rng = random.Random(seed)
    start = "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 1"
    teach = {square: rng.choice(LESSONS) for square in ("c3", "f3", "c6", "f6", "c1", "f8")}
    _play_both(start, teach, seed, 40)


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ],
)
def test_the_taught_engine_with_no_lesson_or_standard_lessons_counts_as_the_standard_engine(fen: str) -> None:
    position = parse_fen(fen, chess960=None)
    expected = standard_perft(position, 3)
    assert taught_perft(TaughtBoard(position, {}), 3) == expected
    # Every piece but pawns and kings taught its own kind in Betza: the same moves, the same count.
    letters = {KNIGHT: "N", BISHOP: "B", ROOK: "R", QUEEN: "Q"}
    squares = enumerate(position.squares)
    lessons = {square: betza(letters[code & 7]) for square, code in squares if code & 7 in letters}
    assert taught_perft(TaughtBoard(position, lessons), 3) == expected


def _play_both(start: str, teach: dict[str, str], seed: int, plies: int) -> None:
    """A seeded random game played on both engines, compared on every ply: the legal (from, to)
    moves, each move's SAN and outcome, and the FEN after it (en passant taken whenever it is legal)."""
    rng = random.Random(seed)
    direct = Game(start, teach=teach)
    with ActorGame(start, teach=teach) as actors:
        for ply in range(plies):
            fen = direct.fen()
            legal = direct.legal_moves()
            expected = {(move[:2], move[2:4]) for move in legal}
            found = {
                (square, target)
                for square in {move[:2] for move in legal} | set(direct.taught)
                for target in actors.legal_targets(square)
            }
            assert found == expected, f"ply {ply}, {fen} taught {direct.taught}"
            if not expected:
                assert actors.outcome == direct.outcome()
                return
            passant = fen.split()[3]  # a legal en passant capture is played when there is one
            move = rng.choice([move for move in legal if move[2:4] == passant] or legal)
            played = direct.play(move)
            reply = actors.propose(move)
            assert isinstance(reply, Accepted), f"ply {ply}: {move} {reply}"
            assert (reply.san, reply.outcome) == (played.san, played.outcome), f"ply {ply}: {move}"
            assert actors.fen() == direct.fen(), f"ply {ply}: {move}"


@pytest.mark.parametrize("seed", range(4))
def test_taught_pawns_double_step_and_take_en_passant_alike_in_both_engines(seed: int) -> None:
    # Pawns that step as wazirs up to two squares forward and capture as ferzes forward: a two-square
    # step straight ahead opens en passant (it crosses one square), and a capture-only ferz takes it.
    start = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
    teach = {f"{file}{rank}": "fmW2fcF" for file in "abcdefgh" for rank in (2, 7)}
    _play_both(start, teach, seed, 40)


def test_a_betza_lesson_crosses_processes_by_pickle_and_keeps_its_moves_and_label() -> None:
    import pickle

    lesson = geometry_named("nN")
    copy = pickle.loads(pickle.dumps(lesson))
    assert label_of(copy) == "nN"
    assert all(reach(copy, colour, square) == reach(lesson, colour, square) for colour in (WHITE, BLACK)
               for square in range(64))
