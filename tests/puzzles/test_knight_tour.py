"""Knight's tours, each checked square by square by the test's own checker: every square board from
5 to 60, big and narrow boards, the existence theorems, and start squares against brute force."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board.errors import ChessActorsError, InputError, SquareError
from board.puzzles.knights.existence import tour_obstacle
from board.puzzles.knights.tour import (
    NoTourError,
    TourTooLargeError,
    knight_tour,
    knight_tour_indices,
)
from board.rules.squares import Coord, Size

KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def assert_tour(tour: list[int], size: Size, *, closed: bool, start: Coord = (1, 1)) -> None:
    """Every square exactly once, each step a knight move, from ``start``, closed when asked."""
    width, height = size
    assert len(tour) == width * height, f"{len(tour)} squares on a {width}x{height} board"
    seen = bytearray(width * height)
    for square in tour:
        assert 0 <= square < width * height, f"square {square} is off the board"
        assert not seen[square], f"square {square} is visited twice"
        seen[square] = 1
    assert tour[0] == (start[1] - 1) * width + start[0] - 1, f"the tour starts on {tour[0]}"
    steps = zip(tour, [*tour[1:], tour[0]] if closed else tour[1:], strict=False)
    for here, there in steps:
        file_gap = abs(here % width - there % width)
        rank_gap = abs(here // width - there // width)
        assert file_gap * rank_gap == 2, f"{here} -> {there} is not a knight move"


def brute_force_tour_exists(size: Size, start: Coord, *, closed: bool) -> bool:
    """Exhaustive depth-first search over bitmasks; it only cuts branches that leave unvisited
    squares unreachable from the knight, so its answer is the definition's."""
    width, height = size
    moves = []
    for square in range(width * height):
        file, rank = square % width, square // width
        mask = 0
        for step_file, step_rank in KNIGHT_JUMPS:
            if 0 <= file + step_file < width and 0 <= rank + step_rank < height:
                mask |= 1 << ((rank + step_rank) * width + file + step_file)
        moves.append(mask)
    everything = (1 << (width * height)) - 1
    first = (start[1] - 1) * width + start[0] - 1

    def all_reachable(square: int, unvisited: int) -> bool:
        reached = frontier = 1 << square
        while frontier:
            lowest = frontier & -frontier
            frontier ^= lowest
            new = moves[lowest.bit_length() - 1] & unvisited & ~reached
            reached |= new
            frontier |= new
        return unvisited & ~reached == 0

    def extend(square: int, visited: int) -> bool:
        if visited == everything:
            return not closed or bool(moves[square] >> first & 1)
        unvisited = everything & ~visited
        if not all_reachable(square, unvisited):
            return False
        options = moves[square] & unvisited
        while options:
            lowest = options & -options
            options ^= lowest
            if extend(lowest.bit_length() - 1, visited | lowest):
                return True
        return False

    return extend(first, 1 << first)


@pytest.mark.parametrize("side", range(5, 61))
def test_every_square_board_from_5_to_60_has_an_open_tour_and_a_closed_one_when_even(
    side: int,
) -> None:
    size = (side, side)
    assert_tour(knight_tour_indices(size), size, closed=False)
    if side % 2 == 0:
        assert_tour(knight_tour_indices(size, closed=True), size, closed=True)
    else:
        with pytest.raises(NoTourError, match="odd number of squares"):
            knight_tour_indices(size, closed=True)


@pytest.mark.parametrize(
    ("size", "closed"),
    [
        ((100, 100), False),
        ((100, 100), True),
        ((333, 333), False),
        ((1000, 1000), False),
        ((1000, 1000), True),
        ((3, 10), True),
        ((10, 3), True),
        ((4, 7), False),
        ((5, 9), False),
        ((6, 100), True),
        ((100, 6), True),
        ((7, 10), True),
        ((11, 13), False),
        ((3, 1002), True),
        ((1001, 3), False),
        ((4, 1001), False),
        ((999, 4), False),
        ((5, 1000), True),
    ],
)
def test_big_and_narrow_boards_get_tours_that_pass_the_checker(size: Size, closed: bool) -> None:
    assert_tour(knight_tour_indices(size, closed=closed), size, closed=closed)


@pytest.mark.parametrize(
    ("size", "start", "closed"),
    [
        ((8, 8), (5, 4), True),
        ((8, 8), (2, 7), False),
        ((333, 333), (200, 100), False),  # file + rank even: the majority colour
        ((1000, 1000), (517, 2), True),
        ((1000, 1000), (999, 999), False),
        ((3, 999), (2, 500), False),
        ((4, 1000), (4, 500), False),
        ((1000, 4), (777, 1), False),
        ((3, 1000), (3, 600), True),
        ((7, 1003), (4, 600), False),
    ],
)
def test_tours_start_on_the_requested_square(size: Size, start: Coord, closed: bool) -> None:
    assert_tour(knight_tour_indices(size, start, closed=closed), size, closed=closed, start=start)


@pytest.mark.parametrize("size", [(7, 7), (9, 5), (3, 13), (3, 15), (4, 13), (13, 4), (6, 6)])
def test_every_square_that_can_start_a_tour_gets_one(size: Size) -> None:
    width, height = size
    started = 0
    for file in range(1, width + 1):
        for rank in range(1, height + 1):
            if tour_obstacle(size, start=(file, rank)) is None:
                assert_tour(
                    knight_tour_indices(size, (file, rank)), size, closed=False, start=(file, rank)
                )
                started += 1
    assert started >= width * height // 2


@pytest.mark.parametrize("size", [(6, 6), (3, 14), (10, 3), (5, 6)])
def test_a_closed_tour_starts_on_every_square(size: Size) -> None:
    width, height = size
    for file in range(1, width + 1):
        for rank in range(1, height + 1):
            tour = knight_tour_indices(size, (file, rank), closed=True)
            assert_tour(tour, size, closed=True, start=(file, rank))


@pytest.mark.parametrize(
    "size",
    [(1, 2), (1, 5), (2, 2), (2, 8), (8, 2), (3, 3), (3, 5), (5, 3), (3, 6), (6, 3), (4, 4)],
)
def test_boards_without_any_tour_say_so_citing_conrad_et_al(size: Size) -> None:
    with pytest.raises(NoTourError, match="Conrad") as caught:
        knight_tour(size)
    assert "\n" not in str(caught.value)
    assert not isinstance(caught.value, InputError), "no tour is an answer, not bad input"
    assert isinstance(caught.value, ChessActorsError)


@pytest.mark.parametrize(
    ("size", "why"),
    [
        ((5, 5), "odd number"),
        ((7, 9), "odd number"),
        ((1, 1), "odd number"),
        ((4, 8), "1, 2 or 4"),
        ((10, 4), "1, 2 or 4"),
        ((2, 6), "1, 2 or 4"),
        ((3, 4), "3x4, 3x6 and 3x8"),
        ((8, 3), "3x4, 3x6 and 3x8"),
        ((3, 6), "3x4, 3x6 and 3x8"),
    ],
)
def test_boards_without_a_closed_tour_say_why_citing_schwenk(size: Size, why: str) -> None:
    with pytest.raises(NoTourError, match="Schwenk") as caught:
        knight_tour(size, closed=True)
    assert why in str(caught.value)


def test_closed_tours_exist_on_the_smallest_boards_schwenk_allows() -> None:
    for size in [(3, 10), (5, 6), (6, 5), (6, 6), (3, 12), (5, 8), (7, 8)]:
        assert_tour(knight_tour_indices(size, closed=True), size, closed=True)


def test_a_one_square_board_has_the_trivial_open_tour() -> None:
    assert knight_tour((1, 1)) == [(1, 1)]


@pytest.mark.parametrize(
    ("size", "start", "why"),
    [
        ((5, 5), (2, 1), "file + rank even"),
        ((7, 9), (4, 5), "file + rank even"),
        ((4, 9), (2, 3), "files a and d"),
        ((9, 4), (5, 3), "ranks 1 and 4"),
        ((3, 4), (2, 2), "ranks 1 and 4"),
        ((3, 7), (2, 4), "centre"),
        ((3, 8), (2, 6), "exhaustive search"),
    ],
)
def test_squares_that_cannot_start_an_open_tour_say_why(size: Size, start: Coord, why: str) -> None:
    with pytest.raises(NoTourError, match=re.escape(why)):
        knight_tour(size, start)


BRUTE_FORCE_BOARDS = [
    (1, 1), (1, 3), (2, 3), (2, 4), (3, 3), (3, 4), (4, 3), (3, 5), (4, 4),
    (3, 6), (3, 7), (7, 3), (3, 8), (4, 5), (5, 4), (4, 6), (5, 5),
]  # fmt: skip


@pytest.mark.parametrize("size", BRUTE_FORCE_BOARDS)
def test_which_squares_start_an_open_tour_agrees_with_brute_force(size: Size) -> None:
    width, height = size
    for file in range(1, width + 1):
        for rank in range(1, height + 1):
            exists = brute_force_tour_exists(size, (file, rank), closed=False)
            try:
                tour = knight_tour_indices(size, (file, rank))
            except NoTourError:
                assert not exists, f"{size} from {(file, rank)}: brute force finds a tour"
                continue
            assert exists, f"{size} from {(file, rank)}: brute force finds none"
            assert_tour(tour, size, closed=False, start=(file, rank))


@pytest.mark.parametrize("size", [(3, 4), (4, 4), (3, 5), (4, 5), (2, 6), (3, 6), (5, 5)])
def test_schwenk_exclusions_agree_with_brute_force(size: Size) -> None:
    assert not brute_force_tour_exists(size, (1, 1), closed=True)
    assert tour_obstacle(size, closed=True) is not None


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 45), st.integers(1, 45), st.integers(1, 45), st.integers(1, 45), st.booleans()
)
def test_any_board_and_start_gets_a_valid_tour_or_a_reason(
    width: int, height: int, file: int, rank: int, closed: bool
) -> None:
    size = (width, height)
    start = (min(file, width), min(rank, height))
    reason = tour_obstacle(size, closed=closed, start=start)
    try:
        tour = knight_tour_indices(size, start, closed=closed)
    except NoTourError as error:
        assert reason is not None
        assert str(error) == reason
        return
    assert reason is None
    assert_tour(tour, size, closed=closed, start=start)


def test_the_same_request_gives_the_same_tour() -> None:
    assert knight_tour_indices((41, 23), (5, 7)) == knight_tour_indices((41, 23), (5, 7))


def test_knight_tour_lists_one_based_squares_in_order() -> None:
    tour = knight_tour((5, 6), (2, 3))
    assert tour[0] == (2, 3)
    assert sorted(tour) == [(file, rank) for file in range(1, 6) for rank in range(1, 7)]


def test_start_off_the_board_and_oversized_boards_are_input_errors() -> None:
    with pytest.raises(SquareError):
        knight_tour((8, 8), (9, 1))
    with pytest.raises(TourTooLargeError):
        knight_tour_indices((3000, 3000))
    assert issubclass(TourTooLargeError, InputError)
