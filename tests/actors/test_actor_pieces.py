"""Piece actors answer from their move functions alone, as in the Erlang seed.

A bishop asked c1 -> e3 says yes via d2; a queen asked a non-geometric move says no; a knight
traverses nothing; a pawn pushes straight onto empty squares and captures diagonally.
"""

from __future__ import annotations

from actors.game.game import ActorGame
from actors.protocol import No, Yes
from board.rules.squares import SQUARE_INDEX


def test_bishop_on_c1_goes_to_e3_through_d2() -> None:
    with ActorGame() as game:
        reply = game.piece("c1").move_query("c1", "e3")
        assert isinstance(reply, Yes), reply
        assert (reply.origin, reply.target) == (SQUARE_INDEX["c1"], SQUARE_INDEX["e3"])
        assert reply.traversed_names == ("d2",)
        assert reply.target_rule == "any"


def test_bishop_answers_the_seed_examples_far_from_home() -> None:
    with ActorGame() as game:
        bishop = game.piece("c1")
        long_diagonal = bishop.move_query("c1", "h6")
        assert isinstance(long_diagonal, Yes)
        assert long_diagonal.traversed_names == ("d2", "e3", "f4", "g5")
        assert isinstance(bishop.move_query("c1", "c3"), No)


def test_queen_refuses_a_move_that_is_not_a_line() -> None:
    with ActorGame() as game:
        reply = game.piece("d1").move_query("d1", "e3")
        assert isinstance(reply, No)
        assert "cannot move from d1 to e3" in reply.reason


def test_queen_lists_the_squares_it_crosses_nearest_first() -> None:
    with ActorGame() as game:
        reply = game.piece("d1").move_query("d1", "d7")
        assert isinstance(reply, Yes)
        assert reply.traversed_names == ("d2", "d3", "d4", "d5", "d6")


def test_knight_jumps_and_traverses_nothing() -> None:
    with ActorGame() as game:
        reply = game.piece("g1").move_query("g1", "f3")
        assert isinstance(reply, Yes)
        assert (reply.origin, reply.target) == (SQUARE_INDEX["g1"], SQUARE_INDEX["f3"])
        assert reply.traversed == ()
        assert isinstance(game.piece("g1").move_query("g1", "g3"), No)


def test_pawn_push_needs_an_empty_target_and_capture_an_enemy() -> None:
    with ActorGame() as game:
        pawn = game.piece("e2")
        push = pawn.move_query("e2", "e4")
        assert isinstance(push, Yes)
        assert push.traversed_names == ("e3",)
        assert push.target_rule == "empty"
        capture = pawn.move_query("e2", "d3")
        assert isinstance(capture, Yes)
        assert capture.target_rule == "enemy"
        assert isinstance(pawn.move_query("e2", "e5"), No)


def test_black_pawn_moves_down_the_board() -> None:
    with ActorGame() as game:
        pawn = game.piece("d7")
        assert isinstance(pawn.move_query("d7", "d5"), Yes)
        assert isinstance(pawn.move_query("d7", "d8"), No)


def test_a_piece_lists_its_geometric_targets() -> None:
    with ActorGame() as game:
        targets = game.piece("g1").targets()
        assert sorted(entry[0] for entry in targets.reach) == sorted(
            SQUARE_INDEX[name] for name in ("e2", "f3", "h3")
        )


def test_a_piece_asked_about_another_square_or_colour_says_no() -> None:
    with ActorGame() as game:
        knight = game.piece("g1")
        elsewhere = knight.move_query("b1", "c3")
        assert isinstance(elsewhere, No) and "does not stand on b1" in elsewhere.reason
        other_colour = knight.move_query("g1", "f3", colour=1)
        assert isinstance(other_colour, No) and "is not black" in other_colour.reason


def test_legal_targets_come_from_the_conversation() -> None:
    with ActorGame() as game:
        assert game.legal_targets("g1") == ("f3", "h3")
        assert game.legal_targets("e2") == ("e3", "e4")
        assert game.legal_targets("c1") == ()
        assert game.legal_targets("e7") == ()  # not black's turn
