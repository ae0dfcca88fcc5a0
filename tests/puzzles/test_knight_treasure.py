"""The knight treasure hunt: the seed example, optimality against a brute-force search over
(square, treasures found) states, repeated and unreachable treasures, and the size limits."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board.errors import InputError, SquareError
from board.puzzles.knights.path import bfs_distances
from board.puzzles.knights.treasure import (
    MAX_TREASURES,
    TreasureCountError,
    hunt_moves,
    treasure_hunt,
)
from board.rules.squares import Coord, Size, parse_square

SEED_START = "a8"
SEED_TREASURES = ["e6", "c4", "b3", "a2", "b2", "b1"]


def brute_force_moves(start: Coord, treasures: list[Coord], size: Size) -> int | None:
    """Breadth-first search over (square, set of treasures found): the plain definition."""
    width, height = size
    wanted = {square: bit for bit, square in enumerate(dict.fromkeys(treasures))}
    everything = (1 << len(wanted)) - 1
    found = wanted.get(start)
    first = (start, 0 if found is None else 1 << found)
    seen = {first}
    frontier = [first]
    moves = 0
    while frontier:
        if any(mask == everything for _, mask in frontier):
            return moves
        moves += 1
        following = []
        for (file, rank), mask in frontier:
            for step_file, step_rank in itertools.permutations((1, 2, -1, -2), 2):
                if abs(step_file) == abs(step_rank):
                    continue
                square = (file + step_file, rank + step_rank)
                if not (1 <= square[0] <= width and 1 <= square[1] <= height):
                    continue
                bit = wanted.get(square)
                state = (square, mask if bit is None else mask | 1 << bit)
                if state not in seen:
                    seen.add(state)
                    following.append(state)
        frontier = following
    return None


def assert_hunt(walk: list[Coord], start: Coord, treasures: list[Coord], size: Size) -> None:
    """The walk starts on ``start``, moves like a knight on the board and passes every treasure."""
    assert walk[0] == start
    width, height = size
    for file, rank in walk:
        assert 1 <= file <= width and 1 <= rank <= height
    for here, there in itertools.pairwise(walk):
        assert sorted((abs(here[0] - there[0]), abs(here[1] - there[1]))) == [1, 2], (here, there)
    missed = set(treasures) - set(walk)
    assert not missed, f"the walk never reaches {missed}"


def test_seed_hunt_from_a8_takes_eleven_moves() -> None:
    start = parse_square(SEED_START)
    treasures = [parse_square(name) for name in SEED_TREASURES]
    walk = treasure_hunt(start, treasures)
    assert walk is not None
    assert len(walk) - 1 == 11
    assert_hunt(walk, start, treasures, (8, 8))
    assert hunt_moves(start, treasures) == 11
    assert brute_force_moves(start, treasures, (8, 8)) == 11


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 7),
    st.integers(3, 7),
    st.lists(st.tuples(st.integers(1, 7), st.integers(1, 7)), min_size=2, max_size=7),
)
def test_hunt_is_as_short_as_brute_force_on_small_boards(
    width: int, height: int, squares: list[Coord]
) -> None:
    size = (width, height)
    start, *treasures = [(min(file, width), min(rank, height)) for file, rank in squares]
    expected = brute_force_moves(start, treasures, size)
    walk = treasure_hunt(start, treasures, size)
    if expected is None:
        assert walk is None
        return
    assert walk is not None
    assert len(walk) - 1 == expected
    assert_hunt(walk, start, treasures, size)


def test_repeated_treasures_and_one_on_the_start_square_count_once() -> None:
    start = parse_square("a8")
    treasures = [parse_square(name) for name in SEED_TREASURES]
    doubled = [start, *treasures, *reversed(treasures), start]
    walk = treasure_hunt(start, doubled)
    assert walk is not None
    assert len(walk) - 1 == 11
    assert_hunt(walk, start, treasures, (8, 8))


def test_a_treasure_only_on_the_start_square_takes_no_moves() -> None:
    assert treasure_hunt((3, 3), [(3, 3), (3, 3)]) == [(3, 3)]
    assert hunt_moves((3, 3), [(3, 3)]) == 0


@pytest.mark.parametrize(
    ("start", "treasures", "size"),
    [
        ((1, 1), [(2, 3), (2, 2)], (3, 3)),  # the centre of 3x3
        ((1, 1), [(2, 1)], (2, 8)),
        ((1, 1), [(3, 1)], (5, 1)),
    ],
)
def test_an_unreachable_treasure_makes_the_hunt_impossible(
    start: Coord, treasures: list[Coord], size: Size
) -> None:
    assert treasure_hunt(start, treasures, size) is None
    assert hunt_moves(start, treasures, size) is None


def test_on_a_board_too_big_to_search_the_hunt_agrees_with_trying_every_order() -> None:
    # 300 x 300 is past the treasure module's search limit, so its distances come from the closed
    # form; here every order of 5 treasures is summed from breadth-first searches instead.
    size = (300, 300)
    rng = random.Random(7)
    for _ in range(3):
        points = [(rng.randint(1, 300), rng.randint(1, 300)) for _ in range(6)]
        start, treasures = points[0], points[1:]
        tables = {point: bfs_distances(point, size) for point in points}
        best = min(
            sum(
                tables[here][(there[1] - 1) * 300 + there[0] - 1]
                for here, there in zip((start, *order), order, strict=False)
            )
            for order in itertools.permutations(treasures)
        )
        walk = treasure_hunt(start, treasures, size)
        assert walk is not None
        assert len(walk) - 1 == best
        assert_hunt(walk, start, treasures, size)


def test_sixteen_treasures_are_solved_exactly_within_seconds() -> None:
    rng = random.Random(16)
    squares = rng.sample([(file, rank) for file in range(1, 9) for rank in range(1, 9)], 17)
    start, treasures = squares[0], squares[1:]
    began = time.perf_counter()
    walk = treasure_hunt(start, treasures)
    elapsed = time.perf_counter() - began
    assert walk is not None
    assert_hunt(walk, start, treasures, (8, 8))
    # Visiting 16 distinct squares takes at least 16 moves; optimality itself is pinned above.
    assert len(walk) - 1 >= 16
    assert elapsed < 10, f"16 treasures took {elapsed:.1f} s"


def test_no_treasures_or_too_many_are_input_errors() -> None:
    with pytest.raises(TreasureCountError):
        treasure_hunt((1, 1), [])
    many = [(file, rank) for file in range(1, 9) for rank in range(2, 9)][: MAX_TREASURES + 1]
    with pytest.raises(TreasureCountError, match=str(MAX_TREASURES)):
        treasure_hunt((1, 1), many)
    assert issubclass(TreasureCountError, InputError)


def test_treasures_off_the_board_are_rejected() -> None:
    with pytest.raises(SquareError):
        treasure_hunt((1, 1), [(9, 9)])
    with pytest.raises(SquareError):
        treasure_hunt((0, 1), [(2, 3)])
