"""The move function of each piece kind: targets, traversed squares nearest-first, and "no".

Coordinates are 1-based (file, rank) with no board edges, as in the Erlang seed.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from board.rules.geometry import (
    Path,
    bishop_move,
    king_move,
    knight_move,
    move_function,
    pawn_capture,
    pawn_move,
    pawn_push,
    queen_move,
    rook_move,
)
from board.rules.pieces import BISHOP, BLACK, KINDS, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
from board.rules.squares import Coord

# -- the seed's examples -------------------------------------------------------------------------


def test_bishop_c1_to_e3_traverses_d2() -> None:
    assert move_function(BISHOP, WHITE, (3, 1), (5, 3)) == Path((5, 3), ((4, 2),))


def test_bishop_one_step_diagonally_traverses_nothing() -> None:
    assert move_function(BISHOP, WHITE, (2, 3), (3, 4)) == Path((3, 4), ())


def test_bishop_off_its_diagonal_is_no() -> None:
    assert move_function(BISHOP, WHITE, (2, 3), (4, 4)) is None


def test_bishop_traverses_from_the_start_outward_even_off_the_board() -> None:
    path = move_function(BISHOP, BLACK, (9, 4), (5, 0))
    assert path is not None
    assert path.traversed == ((8, 3), (7, 2), (6, 1)), "the square nearest the bishop must come first"


def test_queen_along_a_rank_traverses_every_square_between() -> None:
    path = move_function(QUEEN, WHITE, (2, 3), (9, 3))
    assert path == Path((9, 3), ((3, 3), (4, 3), (5, 3), (6, 3), (7, 3), (8, 3)))


def test_queen_along_a_file_and_a_diagonal() -> None:
    assert move_function(QUEEN, WHITE, (2, 3), (2, 6)) == Path((2, 6), ((2, 4), (2, 5)))
    diagonal = move_function(QUEEN, WHITE, (2, 3), (9, 10))
    assert diagonal is not None
    assert diagonal.traversed == ((3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9))


def test_queen_off_every_line_is_no() -> None:
    assert move_function(QUEEN, WHITE, (2, 3), (9, 9)) is None


# -- each kind -----------------------------------------------------------------------------------


def test_rook_moves_straight_and_never_diagonally() -> None:
    assert rook_move((1, 1), (1, 8)) == Path((1, 8), tuple((1, rank) for rank in range(2, 8)))
    assert rook_move((8, 1), (5, 1)) == Path((5, 1), ((7, 1), (6, 1)))
    assert rook_move((1, 1), (2, 2)) is None


def test_bishop_never_moves_straight() -> None:
    assert bishop_move((3, 1), (3, 5)) is None
    assert bishop_move((3, 1), (6, 1)) is None


def test_staying_put_is_no_move_for_any_piece() -> None:
    for kind in KINDS:
        assert move_function(kind, WHITE, (4, 4), (4, 4)) is None, f"kind {kind} moved to its own square"


@pytest.mark.parametrize("end", [(6, 5), (6, 3), (2, 5), (2, 3), (5, 6), (3, 6), (5, 2), (3, 2)])
def test_knight_jumps_and_traverses_nothing(end: Coord) -> None:
    assert knight_move((4, 4), end) == Path(end, ())
    assert move_function(KNIGHT, BLACK, (4, 4), end) == Path(end, ())


@pytest.mark.parametrize("end", [(4, 6), (6, 6), (5, 5), (4, 5), (7, 5), (4, 1)])
def test_knight_refuses_everything_but_the_l_shape(end: Coord) -> None:
    assert knight_move((4, 4), end) is None


def test_king_steps_one_square_in_any_direction_only() -> None:
    for file_step in (-1, 0, 1):
        for rank_step in (-1, 0, 1):
            end = (5 + file_step, 1 + rank_step)
            expected = None if end == (5, 1) else Path(end, ())
            assert king_move((5, 1), end) == expected
    assert move_function(KING, WHITE, (5, 1), (7, 1)) is None, "castling is not the king's geometry"


# -- pawns ---------------------------------------------------------------------------------------


def test_pawn_push_needs_an_empty_target_and_moves_forward_for_its_colour() -> None:
    assert pawn_push(WHITE, (5, 2), (5, 3)) == Path((5, 3), (), "empty")
    assert pawn_push(BLACK, (5, 7), (5, 6)) == Path((5, 6), (), "empty")
    assert pawn_push(WHITE, (5, 3), (5, 2)) is None, "a white pawn never moves backwards"
    assert pawn_push(BLACK, (5, 6), (5, 7)) is None, "a black pawn never moves backwards"


def test_pawn_double_push_only_from_the_home_rank_and_traverses_the_skipped_square() -> None:
    assert pawn_push(WHITE, (5, 2), (5, 4)) == Path((5, 4), ((5, 3),), "empty")
    assert pawn_push(BLACK, (4, 7), (4, 5)) == Path((4, 5), ((4, 6),), "empty")
    assert pawn_push(WHITE, (5, 3), (5, 5)) is None
    assert pawn_push(BLACK, (4, 6), (4, 4)) is None
    assert pawn_push(WHITE, (5, 7), (5, 9)) is None, "rank 7 is black's home, not white's"
    assert pawn_push(WHITE, (5, 2), (5, 5)) is None


def test_pawn_capture_is_one_square_diagonally_forward_onto_an_enemy() -> None:
    assert pawn_capture(WHITE, (5, 4), (4, 5)) == Path((4, 5), (), "enemy")
    assert pawn_capture(WHITE, (5, 4), (6, 5)) == Path((6, 5), (), "enemy")
    assert pawn_capture(BLACK, (5, 4), (4, 3)) == Path((4, 3), (), "enemy")
    assert pawn_capture(WHITE, (5, 4), (4, 3)) is None, "a white pawn never captures backwards"
    assert pawn_capture(WHITE, (5, 2), (7, 4)) is None


def test_pawn_push_and_capture_are_separate_functions() -> None:
    assert pawn_capture(WHITE, (5, 2), (5, 3)) is None, "a push is not a capture"
    assert pawn_push(WHITE, (5, 2), (6, 3)) is None, "a capture is not a push"
    assert pawn_move(WHITE, (5, 2), (5, 3)) == Path((5, 3), (), "empty")
    assert pawn_move(WHITE, (5, 2), (6, 3)) == Path((6, 3), (), "enemy")
    assert move_function(PAWN, WHITE, (5, 2), (6, 3)) == Path((6, 3), (), "enemy")


def test_an_unknown_kind_is_no() -> None:
    assert move_function(0, WHITE, (1, 1), (1, 2)) is None
    assert move_function(7, WHITE, (1, 1), (1, 2)) is None


# -- properties ----------------------------------------------------------------------------------

# Wide enough to leave the board far behind, small enough that a traversal stays a short tuple.
coordinates = st.tuples(st.integers(-300, 300), st.integers(-300, 300))
any_int = st.integers()


@given(st.integers(), st.integers(), coordinates, coordinates)
def test_move_function_never_raises_and_answers_a_path_or_no(
    kind: int, colour: int, start: Coord, end: Coord
) -> None:
    path = move_function(kind, colour, start, end)
    assert path is None or (isinstance(path, Path) and path.target == end)


@given(st.sampled_from(KINDS), st.sampled_from((WHITE, BLACK)), any_int, any_int, any_int, any_int)
def test_move_function_never_raises_on_arbitrary_off_line_integers(
    kind: int, colour: int, file: int, rank: int, other_file: int, other_rank: int
) -> None:
    # Arbitrarily large integers, kept off every line so that no traversal has to be listed.
    file_step, rank_step = other_file - file, other_rank - rank
    assume(0 not in (file_step, rank_step) and abs(file_step) != abs(rank_step))
    path = move_function(kind, colour, (file, rank), (other_file, other_rank))
    if kind in (BISHOP, ROOK, QUEEN, KING, PAWN):
        assert path is None
    else:
        assert (path is not None) == ({abs(file_step), abs(rank_step)} == {1, 2})


DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))


@given(coordinates, st.sampled_from(DIRECTIONS), st.integers(1, 300))
def test_traversed_squares_run_nearest_first_along_the_line(
    start: Coord, direction: Coord, distance: int
) -> None:
    end = (start[0] + direction[0] * distance, start[1] + direction[1] * distance)
    path = queen_move(start, end)
    assert path is not None, f"a queen slides from {start} to {end}"
    expected = tuple(
        (start[0] + direction[0] * step, start[1] + direction[1] * step) for step in range(1, distance)
    )
    assert path.traversed == expected, "traversed must hold every square between, nearest the mover first"
    kind = ROOK if 0 in direction else BISHOP
    assert move_function(kind, WHITE, start, end) == path


@given(st.sampled_from((BISHOP, ROOK, QUEEN)), coordinates, st.sampled_from(DIRECTIONS), st.integers(1, 300))
def test_a_slide_and_its_reverse_cross_the_same_squares_in_opposite_order(
    kind: int, start: Coord, direction: Coord, distance: int
) -> None:
    end = (start[0] + direction[0] * distance, start[1] + direction[1] * distance)
    there, back = move_function(kind, WHITE, start, end), move_function(kind, WHITE, end, start)
    assert (there is None) == (back is None)
    if there is not None and back is not None:
        assert there.traversed == tuple(reversed(back.traversed))


@given(coordinates, coordinates)
def test_queen_moves_exactly_where_a_rook_or_a_bishop_moves(start: Coord, end: Coord) -> None:
    assert queen_move(start, end) == (rook_move(start, end) or bishop_move(start, end))
