"""Knight distance and shortest paths on any board: the seed examples, breadth-first search against
the closed form on every small board, unreachable squares, and exact paths on huge boards."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board.errors import BoardSizeError, SquareError
from board.puzzles.knights.path import (
    BFS_SQUARE_LIMIT,
    PathTooLongError,
    bfs_distances,
    closed_form_distance,
    has_closed_form,
    infinite_board_distance,
    knight_distance,
    shortest_path,
)
from board.rules.squares import Coord, Size, parse_square

BILLION = 10**9


def assert_knight_walk(path: list[Coord], start: Coord, end: Coord, size: Size) -> None:
    """Check a walk on its own terms: its ends, every square on the board, every step a knight."""
    assert path[0] == start, f"the path starts on {path[0]}, not {start}"
    assert path[-1] == end, f"the path ends on {path[-1]}, not {end}"
    width, height = size
    for file, rank in path:
        assert 1 <= file <= width and 1 <= rank <= height, f"{(file, rank)} is off {size}"
    for here, there in pairwise(path):
        steps = sorted((abs(here[0] - there[0]), abs(here[1] - there[1])))
        assert steps == [1, 2], f"{here} -> {there} is not a knight move"


def table_distance(distances: list[int], square: Coord, width: int) -> int | None:
    found = distances[(square[1] - 1) * width + square[0] - 1]
    return None if found < 0 else found


@pytest.mark.parametrize(("start", "end", "moves"), [("g2", "a8", 4), ("g2", "h2", 3)])
def test_seed_examples_take_the_published_number_of_moves(start: str, end: str, moves: int) -> None:
    origin, target = parse_square(start), parse_square(end)
    assert knight_distance(origin, target) == moves
    path = shortest_path(origin, target)
    assert path is not None
    assert len(path) == moves + 1
    assert_knight_walk(path, origin, target, (8, 8))


def test_infinite_board_distance_matches_a_search_from_the_centre_of_a_wide_board() -> None:
    # 61 x 61 from the centre: within 20 squares every route stays on the board, as on a plane.
    distances = bfs_distances((31, 31), (61, 61))
    for file_gap in range(-20, 21):
        for rank_gap in range(-20, 21):
            found = distances[(30 + rank_gap) * 61 + 30 + file_gap]
            assert infinite_board_distance(file_gap, rank_gap) == found, (file_gap, rank_gap)


def test_closed_form_equals_breadth_first_search_for_every_pair_on_boards_up_to_14x14() -> None:
    for width in range(1, 15):
        for height in range(1, 15):
            if not has_closed_form((width, height)):
                continue
            for source_index in range(width * height):
                source = (source_index % width + 1, source_index // width + 1)
                distances = bfs_distances(source, (width, height))
                for index, found in enumerate(distances):
                    target = (index % width + 1, index // width + 1)
                    expected = None if found < 0 else found
                    assert closed_form_distance(source, target, (width, height)) == expected, (
                        f"{width}x{height}: {source} -> {target}"
                    )


def _sources(width: int, height: int) -> set[Coord]:
    """The corners, the squares diagonally next to them, and two squares near the middle: the
    plane formula's exceptions all involve a corner, a 3-wide middle file or a 4-wide edge."""
    corners = {(1, 1), (width, 1), (1, height), (width, height)}
    diagonal = {
        (
            min(max(file + (1 if file == 1 else -1), 1), width),
            min(max(rank + (1 if rank == 1 else -1), 1), height),
        )
        for file, rank in corners
    }
    middles = {((width + 1) // 2, (height + 2) // 3), ((width + 2) // 3, (height + 1) // 2)}
    return corners | diagonal | middles


def test_closed_form_equals_breadth_first_search_from_corners_and_middles_up_to_40x40() -> None:
    for width in range(1, 41):
        for height in range(width, 41):
            size = (width, height)
            if not has_closed_form(size):
                continue
            for source in _sources(width, height):
                distances = bfs_distances(source, size)
                for index, found in enumerate(distances):
                    target = (index % width + 1, index // width + 1)
                    expected = None if found < 0 else found
                    assert closed_form_distance(source, target, size) == expected, (
                        f"{width}x{height}: {source} -> {target}"
                    )
                    assert closed_form_distance(target, source, size) == expected


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 40),
    st.tuples(st.integers(1, 40), st.integers(1, 40)),
    st.tuples(st.integers(1, 40), st.integers(1, 40)),
)
def test_closed_form_equals_search_on_random_pairs_of_any_board_up_to_40x40(
    width: int, height: int, start: Coord, end: Coord
) -> None:
    size = (width, height)
    start = (min(start[0], width), min(start[1], height))
    end = (min(end[0], width), min(end[1], height))
    expected = table_distance(bfs_distances(start, size), end, width)
    assert knight_distance(start, end, size) == expected
    if has_closed_form(size):
        assert closed_form_distance(start, end, size) == expected


@pytest.mark.parametrize("size", [(3, 3), (3, 4), (4, 3), (4, 4)])
def test_closed_form_refuses_the_three_tiny_boards_it_does_not_cover(size: Size) -> None:
    with pytest.raises(BoardSizeError):
        closed_form_distance((1, 1), (2, 2), size)


@pytest.mark.parametrize(
    ("start", "end", "size"),
    [
        ((2, 2), (1, 1), (3, 3)),  # the centre of 3x3 has no knight moves at all
        ((1, 1), (2, 2), (3, 3)),
        ((1, 1), (5, 1), (5, 1)),  # one rank: nothing moves
        ((1, 1), (1, 2), (1, 9)),
        ((1, 1), (2, 1), (2, 9)),  # 2 wide: every move flips the file and climbs two ranks
        ((1, 1), (1, 3), (2, 9)),
        ((1, 1), (4, 2), (9, 2)),
        ((1, 1), (2, 2), (2, 2)),
    ],
)
def test_unreachable_squares_have_no_distance_and_no_path(
    start: Coord, end: Coord, size: Size
) -> None:
    assert knight_distance(start, end, size) is None
    assert shortest_path(start, end, size) is None


def test_a_square_is_zero_moves_from_itself_even_where_the_knight_cannot_move() -> None:
    assert knight_distance((2, 2), (2, 2), (3, 3)) == 0
    assert shortest_path((1, 1), (1, 1), (1, 1)) == [(1, 1)]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 25),
    st.integers(1, 25),
    st.tuples(st.integers(1, 25), st.integers(1, 25)),
    st.tuples(st.integers(1, 25), st.integers(1, 25)),
)
def test_shortest_path_is_a_knight_walk_exactly_as_long_as_the_distance(
    width: int, height: int, start: Coord, end: Coord
) -> None:
    size = (width, height)
    start = (min(start[0], width), min(start[1], height))
    end = (min(end[0], width), min(end[1], height))
    distance = knight_distance(start, end, size)
    path = shortest_path(start, end, size)
    if distance is None:
        assert path is None
        return
    assert path is not None
    assert len(path) == distance + 1
    assert_knight_walk(path, start, end, size)


def test_a_billion_square_board_answers_at_once_by_formula() -> None:
    size = (BILLION, BILLION)
    assert knight_distance((1, 1), (BILLION, BILLION), size) == 666_666_666
    assert knight_distance((1, 1), (2, 2), size) == 4  # a corner's diagonal neighbour
    assert knight_distance((5, 5), (6, 6), size) == 2


@pytest.mark.parametrize(
    ("start", "end", "size"),
    [
        ((1, 1), (777, 1_000), (BILLION, BILLION)),
        ((BILLION, BILLION), (BILLION - 1, BILLION - 1), (BILLION, BILLION)),
        ((2, 5), (2, 2_007), (3, BILLION)),  # the middle file of a 3-wide board
        ((1, 1), (4, 1), (4, BILLION)),  # the two corners of a 4-wide edge
        ((1, 1), (2, 1_003), (2, BILLION)),
    ],
)
def test_paths_on_huge_boards_are_walked_greedily_and_stay_shortest(
    start: Coord, end: Coord, size: Size
) -> None:
    assert size[0] * size[1] > BFS_SQUARE_LIMIT
    distance = knight_distance(start, end, size)
    path = shortest_path(start, end, size)
    assert distance is not None
    assert path is not None
    assert len(path) == distance + 1
    assert_knight_walk(path, start, end, size)


def test_greedy_walk_matches_search_just_past_the_search_limit() -> None:
    # 3 x 400,000 is above the search limit; the same squares on 3 x 300 are searched.
    for end_rank in range(1, 40):
        for end_file in (1, 2, 3):
            small = knight_distance((2, 3), (end_file, end_rank), (3, 300))
            large = shortest_path((2, 3), (end_file, end_rank), (3, 400_000))
            assert large is not None
            assert len(large) - 1 == small, (end_file, end_rank)


def test_a_path_too_long_to_list_is_an_error_that_still_names_the_distance() -> None:
    with pytest.raises(PathTooLongError) as caught:
        shortest_path((1, 1), (BILLION, BILLION), (BILLION, BILLION))
    assert caught.value.moves == 666_666_666
    assert "666666666" in str(caught.value)


@pytest.mark.parametrize(("start", "end"), [((9, 1), (1, 1)), ((1, 1), (1, 0)), ((0, 3), (1, 1))])
def test_squares_off_the_board_are_rejected(start: Coord, end: Coord) -> None:
    with pytest.raises(SquareError):
        knight_distance(start, end)
    with pytest.raises(SquareError):
        shortest_path(start, end)
