"""Lies and lessons at the edges: one identity per square, no king ever taken, lessons at the start,
promotions however given, lessons known by value, and one path for every lesson.

Each test is a sequence of public calls that once ended in a verdict the pieces and the board never
said, or in a captured king.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from actors.game.game import ActorGame
from actors.protocol import Accepted, Learn, Rejected
from actors.protocol.piece import Promote
from actors.protocol.referee import ProposeSquares
from actors.roles.registered import REFEREE
from board.errors import InputError
from board.rules.geometry import Geometry, geometry_named, label_of, standard, user_geometry
from board.rules.geometry import Path as MovePath
from board.rules.pieces import KING, KNIGHT, PAWN, QUEEN, ROOK
from board.rules.squares import SQUARE_INDEX
from tests.helpers.support import accepted, rejected

ROOT = Path(__file__).resolve().parents[2]




# -- one identity per square: a ghost has no actor, and hides what it is told over


# The rules that belong to kinds are judged on what a piece says it is. A raw Promote sent to a piece
# makes it another kind without the board hearing: from then on the piece's word and the board's
# record differ, and the piece is moved as neither.


def test_a_pawn_that_says_it_is_a_queen_is_not_moved_as_a_pawn() -> None:
    with ActorGame() as game:
        game.ask(game.piece("e2").name, Promote(QUEEN, SQUARE_INDEX["e2"]))
        before = game.fen()
        rejected(game, "e4")  # no two-step, no en passant square opened on e3
        assert isinstance(game.propose_squares("e2", "e4"), Rejected)
        assert game.legal_targets("e2") == ()
        assert game.fen() == before
        accepted(game, "d4")  # the game goes on with the pieces that agree with the board


def test_a_pawn_that_says_it_is_a_rook_never_promotes() -> None:
    with ActorGame("k7/P7/8/8/8/8/8/4K3 w - - 0 1") as game:
        game.ask(game.piece("a7").name, Promote(ROOK, SQUARE_INDEX["a7"]))
        rejected(game, "a8=Q")
        assert isinstance(game.propose_squares("a7", "a8", QUEEN), Rejected)
        assert game.fen().startswith("k7/P7/")


def test_a_ghost_pawn_told_over_a_rook_neither_moves_nor_opens_en_passant() -> None:
    with ActorGame("k7/8/8/8/3p4/8/4R3/4K3 w - - 0 1") as game:
        game.board_lies(ghosts={"e2": "P"})
        assert game.legal_targets("e2") == ()
        assert isinstance(game.propose_squares("e2", "e4"), Rejected)
        rejected(game, "e4")
        rejected(game, "Re5")  # the rook under the ghost is hidden: no one to move
        game.board_lies()
        accepted(game, "Re5")
        assert game.fen().split()[3] == "-"


@pytest.mark.parametrize("ghost", ["K", "k"])
def test_en_passant_never_takes_a_ghost_king_told_over_the_pawn(ghost: str) -> None:
    # What en passant would take on d5 is, as far as anyone can tell, a king: no move takes one.
    with ActorGame("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2") as game:
        game.board_lies(ghosts={"d5": ghost})
        assert game.legal_targets("e5") == ("e6",)
        rejected(game, "exd6")
        assert isinstance(game.propose_squares("e5", "d6"), Rejected)
        game.board_lies()
        assert game.legal_targets("e5") == ("d6", "e6")
        accepted(game, "exd6")


def test_a_ghost_told_over_a_piece_of_its_own_kind_is_still_no_actor() -> None:
    # The rook under a ghost rook neither moves nor is asked for its targets.
    with ActorGame("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") as game:
        game.board_lies(ghosts={"a1": "R"})
        assert game.legal_targets("a1") == ()
        rejected(game, "Ra5")
        assert "a5" not in game.legal_targets("a1")


def test_a_piece_under_a_ghost_attacks_nothing() -> None:
    # The black rook on e8 is hidden by a ghost rook: the e-file is free for the white king.
    with ActorGame("4r1k1/8/8/8/8/8/8/3K4 w - - 0 1") as game:
        game.board_lies(ghosts={"e8": "r"})
        assert "e1" in game.legal_targets("d1")
        accepted(game, "Ke1")


def test_a_ghost_king_is_no_king_and_the_real_one_stays_protected() -> None:
    # The rook on e2 is pinned to the white king on e1; a ghost white king on h5 changes nothing.
    with ActorGame("k3r3/8/8/8/8/8/4R3/4K3 w - - 0 1") as game:
        game.board_lies(ghosts={"h5": "K"})
        assert set(game.legal_targets("e2")) == {"e3", "e4", "e5", "e6", "e7", "e8"}
        rejected(game, "Ra2")
        assert game.legal_targets("h5") == ()


# -- no king is ever taken, castling included


def test_castling_never_lands_on_a_king_the_board_hides() -> None:
    # The white rook is hidden while the black king steps onto g1; then the king is hidden instead.
    with ActorGame("8/8/8/8/8/8/6k1/4K2R b K - 0 1") as game:
        game.board_lies(hidden=["h1"])
        accepted(game, "Kg1")
        game.board_lies(hidden=["g1"])
        assert "g1" not in game.legal_targets("e1")
        reason = rejected(game, "O-O").reason
        assert "g1" in reason, reason
        assert isinstance(game.propose_squares("e1", "g1"), Rejected)
        placement = game.fen().split()[0]
        assert placement.count("k") == 1 and placement.count("K") == 1, placement


def test_castling_is_stopped_by_a_hidden_piece_on_the_squares_it_crosses() -> None:
    with ActorGame("4k3/8/8/8/8/8/8/R1b1K3 w Q - 0 1") as game:
        game.board_lies(hidden=["c1"])
        assert "c1" not in game.legal_targets("e1")
        reason = rejected(game, "O-O-O").reason
        assert "c1" in reason, reason
        game.board_lies()
        assert game.fen().split()[0] == "4k3/8/8/8/8/8/8/R1b1K3"


def test_castling_through_the_shell_never_takes_a_hidden_king(tmp_path: Path) -> None:
    script = tmp_path / "castle.scenario"
    script.write_text(
        "start 8/8/8/8/8/8/6k1/4K2R b K - 0 1\n"
        "lie hide h1\n"
        "play Kg1\n"
        "lie hide g1\n"
        'reject O-O "g1"\n'
        "reject e1g1\n"
        "lie off\n"
        "legal e1 d1 d2 e2\n"
    )
    ran = subprocess.run(
        [sys.executable, "-m", "actors.cli", "run", str(script)],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr


# -- start-up lessons are part of the start


def test_lessons_given_at_the_start_are_part_of_the_first_position() -> None:
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    with ActorGame(teach={"d1": "amazon"}) as game:
        for move in shuffle:
            accepted(game, move)
        assert game.claimable == ()
        for move in shuffle[:-1]:
            accepted(game, move)
        assert accepted(game, shuffle[-1]).claimable == ("threefold_repetition",)


def test_a_lesson_after_a_third_repetition_makes_the_position_another() -> None:
    # The queen's shuttle repeats the position three times; taught to move as a bishop, the queen
    # makes the position one the game never had: no draw is claimable any more.
    with ActorGame("7k/5Q2/6K1/8/8/8/8/n7 b - - 0 1") as game:
        for move in ("Nc2", "Qa7", "Na1", "Qf2", "Kg8", "Qa7", "Kh8", "Qa2", "Nc2", "Qa7", "Na1"):
            accepted(game, move)
        assert game.claimable == ("threefold_repetition",)
        game.piece("a7").learn("bishop")
        assert (game.outcome, game.claimable) == (None, ())


def test_a_start_up_lesson_on_an_empty_square_is_an_input_error_naming_it() -> None:
    game = ActorGame(teach={"e5": "camel"})
    with pytest.raises(InputError, match="e5"):
        game.start()
    game.close()


def test_the_command_line_refuses_a_lesson_for_an_empty_square_as_a_usage_error() -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", "--teach", "e5=camel"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=120,
    )
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert "e5" in ran.stderr and "Traceback" not in ran.stderr, ran.stderr


# -- promotions: a knight, bishop, rook or queen, however given


@pytest.mark.parametrize("wrong", [KING, PAWN, 0.5, "k", "king", "x", 9, -1])
def test_a_pawn_never_promotes_to_anything_but_a_piece_it_may_become(wrong: object) -> None:
    with ActorGame("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1") as game:
        with pytest.raises((InputError, TypeError)):
            game.propose_squares("b7", "b8", wrong)  # type: ignore[arg-type]
        assert game.fen().startswith("4k3/1P6/8/8/8/8/8/4K3 w")
        assert accepted(game, "b8=N").san == "b8=N"  # the game goes on


@pytest.mark.parametrize("given", [KNIGHT, "n", "N", "knight", " Knight "])
def test_a_promotion_is_read_from_its_kind_letter_or_name(given: int | str) -> None:
    with ActorGame("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1") as game:
        moved = game.propose_squares("b7", "b8", given)
        assert isinstance(moved, Accepted) and moved.san == "b8=N", moved


def test_the_referee_refuses_a_promotion_to_a_king_asked_of_it_directly() -> None:
    with ActorGame("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1") as game:
        reply = game.ask(REFEREE, ProposeSquares(SQUARE_INDEX["b7"], SQUARE_INDEX["b8"], KING, 1))
        assert isinstance(reply, Rejected) and "knight, bishop, rook or queen" in reply.reason, reply
        assert game.fen().split()[0] == "4k3/1P6/8/8/8/8/8/4K3"
        assert isinstance(game.propose_squares("b7", "b8", QUEEN), Accepted)


# -- lessons known by what they are


def test_a_lesson_sent_to_another_process_keeps_its_label() -> None:
    knight = pickle.loads(pickle.dumps(standard(KNIGHT)))
    assert knight is not standard(KNIGHT)
    assert label_of(knight) == "knight"


def test_a_functions_label_names_it_and_the_values_it_was_made_with() -> None:
    def stride(length: int) -> Geometry:
        def moves(colour: int, start: tuple[int, int], end: tuple[int, int]) -> MovePath | None:
            return MovePath(end, ()) if end == (start[0], start[1] + length) else None

        return Geometry(f"stride-{length}", moves)

    assert label_of(stride(2)) == label_of(stride(2))
    assert label_of(stride(2)) != label_of(stride(3))
    assert "stride" in label_of(stride(2)) and "2" in label_of(stride(2))
    first = user_geometry(lambda start, end: None, "f")
    second = user_geometry(lambda start, end: (end, ()), "f")
    assert label_of(first) != label_of(second)
    assert label_of(geometry_named("camel")) == "camel"


def test_a_king_taught_another_move_function_is_material() -> None:
    with ActorGame("7k/8/8/8/8/8/8/KN6 w - - 0 1") as game:
        assert game.outcome == "insufficient_material"
        game.piece("a1").learn("amazon")
        assert game.outcome is None
    with ActorGame("7k/8/8/8/8/8/8/KN6 w - - 0 1", teach={"a1": "amazon"}) as game:
        assert game.outcome is None


# -- one path for every lesson


def test_no_lesson_can_leave_the_board_unheard() -> None:
    with pytest.raises(TypeError):
        Learn(standard(KNIGHT), tell_board=False)  # type: ignore[call-arg]
    assert [field for field in Learn.__dataclass_fields__] == ["geometry"]


# -- the game goes on, or stays over, whatever is taught


def test_a_function_that_raises_only_from_a_later_square_leaves_the_piece_no_move_there() -> None:
    def forward_until_the_fourth_rank(start: tuple[int, int], end: tuple[int, int]) -> object:
        if start[1] >= 4:
            raise ValueError("lost from here")
        if end == (start[0], start[1] + 2):
            return (end, [(start[0], start[1] + 1)])
        return None

    with ActorGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1") as game:
        game.piece("e2").learn(forward_until_the_fourth_rank)
        accepted(game, "e4")
        accepted(game, "Kd7")
        assert game.legal_targets("e4") == ()
        rejected(game, "e5")
        accepted(game, "Kd1")
        assert game.supervisor.restarts == 0 and game.supervisor.failed is None


def test_after_mate_a_lesson_through_the_handle_and_a_raw_lesson_leave_the_game_over() -> None:
    for raw in (False, True):
        with ActorGame("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1") as game:
            assert accepted(game, "Ra8").outcome == "checkmate"
            if raw:
                game.ask("black-king-g8", Learn(geometry_named("amazon")))
            else:
                game.piece("g8").learn("amazon")
            assert game.outcome == "checkmate", raw
            assert "over" in rejected(game, "Kxa8").reason
            assert game.legal_targets("g8") == ()
