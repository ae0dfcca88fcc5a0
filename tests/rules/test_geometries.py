"""Geometries pieces can learn: standard kinds, named fairy pieces, a user's own function, reach."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from board.errors import InputError
from board.rules.geometry import (
    NAMED,
    Geometry,
    Path,
    geometry_named,
    move_function,
    reach,
    standard,
    user_geometry,
)
from board.rules.pieces import KINDS, WHITE
from board.rules.squares import (
    SQUARE_INDEX,
    SQUARE_NAMES,
    Coord,
    coord_of,
    index_of,
    parse_square,
    square_name,
)

squares = st.integers(0, 63)
colours = st.sampled_from((0, 1))


def ask(geometry: Geometry, start: str, end: str, colour: int = WHITE) -> Path | None:
    return geometry.moves(colour, parse_square(start), parse_square(end))


def names(path: Path | None) -> tuple[str, tuple[str, ...]] | None:
    if path is None:
        return None
    return square_name(path.target), tuple(square_name(coord) for coord in path.traversed)


def test_an_archbishop_on_f6_leaps_like_a_knight_and_slides_like_a_bishop() -> None:
    archbishop = geometry_named("archbishop")
    assert names(ask(archbishop, "f6", "h7")) == ("h7", ())
    assert names(ask(archbishop, "f6", "d4")) == ("d4", ("e5",))
    assert ask(archbishop, "f6", "f4") is None


def test_a_chancellor_adds_the_knight_to_the_rook() -> None:
    chancellor = geometry_named("chancellor")
    assert names(ask(chancellor, "a1", "a4")) == ("a4", ("a2", "a3"))
    assert names(ask(chancellor, "a1", "b3")) == ("b3", ())
    assert ask(chancellor, "a1", "c3") is None


def test_an_amazon_moves_as_queen_or_knight() -> None:
    amazon = geometry_named(" amazon ")
    assert names(ask(amazon, "d1", "h5")) == ("h5", ("e2", "f3", "g4"))
    assert names(ask(amazon, "d1", "e3")) == ("e3", ())
    assert ask(amazon, "d1", "e4") is None


def test_a_jumping_rook_reaches_the_rook_s_squares_crossing_nothing() -> None:
    jumping_rook = geometry_named("jumping-rook")
    assert names(ask(jumping_rook, "a1", "a8")) == ("a8", ())
    assert ask(jumping_rook, "a1", "b2") is None


def test_a_camel_leaps_three_and_one() -> None:
    camel = geometry_named("camel")
    assert names(ask(camel, "b1", "c4")) == ("c4", ())
    assert names(ask(camel, "b1", "e2")) == ("e2", ())
    assert ask(camel, "b1", "c3") is None
    assert len(reach(camel, WHITE, SQUARE_INDEX["d4"])) == 8


def test_a_nightrider_crosses_each_knight_stop_on_its_line() -> None:
    nightrider = geometry_named("nightrider")
    assert names(ask(nightrider, "a1", "g4")) == ("g4", ("c2", "e3"))
    assert names(ask(nightrider, "a1", "b3")) == ("b3", ())
    assert ask(nightrider, "a1", "d3") is None


def test_a_standard_pawn_keeps_its_target_rules() -> None:
    pawn = standard(1)
    assert ask(pawn, "e2", "e4") == Path((5, 4), ((5, 3),), "empty")
    assert ask(pawn, "e2", "d3") == Path((4, 3), (), "enemy")
    assert ask(pawn, "e7", "e5", colour=1) == Path((5, 5), ((5, 6),), "empty")


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(InputError, match=r"unknown piece geometry 'dragon'; known: amazon, archbishop"):
        geometry_named("dragon")
    with pytest.raises(InputError, match="piece kind 9"):
        standard(9)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("colour", (0, 1))
def test_standard_geometries_equal_the_move_function_on_every_pair(kind: int, colour: int) -> None:
    geometry = standard(kind)
    for start in range(64):
        for end in range(64):
            expected = move_function(kind, colour, coord_of(start), coord_of(end))
            assert geometry.moves(colour, coord_of(start), coord_of(end)) == expected, (kind, start, end)


@given(st.sampled_from(sorted(NAMED)), colours, squares, squares)
def test_every_answer_agrees_with_reach(name: str, colour: int, start: int, end: int) -> None:
    geometry = geometry_named(name)
    path = geometry.moves(colour, coord_of(start), coord_of(end))
    entries = {entry[0]: entry for entry in reach(geometry, colour, start)}
    if path is None or start == end:
        assert end not in entries
    else:
        assert entries[end] == (end, tuple(index_of(c) for c in path.traversed), path.target_rule)


@given(st.sampled_from(sorted(NAMED)), colours, squares)
def test_traversed_squares_lie_strictly_between_and_never_repeat(name: str, colour: int, start: int) -> None:
    for target, traversed, _ in reach(geometry_named(name), colour, start):
        assert len(set(traversed)) == len(traversed)
        assert start not in traversed and target not in traversed


def test_reach_is_cached_for_named_geometries_and_not_for_user_functions() -> None:
    archbishop = geometry_named("archbishop")
    assert reach(archbishop, WHITE, 10) is reach(archbishop, WHITE, 10)
    calls: list[tuple[Coord, Coord]] = []

    def counted(start: Coord, end: Coord) -> object:
        calls.append((start, end))
        return None

    mine = user_geometry(counted, "mine")
    reach(mine, WHITE, 10)
    reach(mine, WHITE, 10)
    assert len(calls) == 2 * 63


def _diagonal_hop(start: Coord, end: Coord) -> object:
    """A two-square diagonal hop that says which square it crosses, by name."""
    if abs(end[0] - start[0]) == 2 and abs(end[1] - start[1]) == 2:
        middle = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
        return (end, [middle])
    return False


def test_a_user_function_s_answers_become_paths() -> None:
    hop = user_geometry(_diagonal_hop, "alfil")
    assert names(ask(hop, "c1", "e3")) == ("e3", ("d2",))
    assert ask(hop, "c1", "d2") is None
    assert [SQUARE_NAMES[t] for t, _, _ in reach(hop, WHITE, SQUARE_INDEX["c1"])] == ["a3", "e3"]
    by_name = user_geometry(lambda start, end: ("e4", ["e3"]) if end == (5, 4) else None, "named")
    assert names(ask(by_name, "e2", "e4")) == ("e4", ("e3",))
    as_path = user_geometry(lambda start, end: Path(end, ()) if end == (1, 1) else None, "path")
    assert names(ask(as_path, "h8", "a1")) == ("a1", ())


def _answering(answer: object) -> Callable[[Coord, Coord], object]:
    def function(start: Coord, end: Coord) -> object:
        return answer

    return function


@pytest.mark.parametrize(
    ("answer", "complaint"),
    [
        (("e5", []), r"the target e5 is not the square asked about \(e4\)"),
        (("e4", [(5, 9)]), r"traversed square \(5, 9\) is off the 8x8 board"),
        (("e4", ["e3", "e3"]), "traversed square e3 appears more than once"),
        (("e4", ["e2"]), "traversed square e2 is the start or the target"),
        (("e4", ["z9"]), "traversed square 'z9'"),
        (("e4", [3.5]), "traversed square 3.5 is neither a square name nor a"),
        (True, "answered True; expected None or False"),
        ("e4", "answered 'e4'; expected None or False"),
        (("e4", ["e3"], "any"), "expected None or False"),
    ],
)
def test_a_malformed_answer_names_the_function_the_squares_and_the_fault(
    answer: object, complaint: str
) -> None:
    geometry = user_geometry(_answering(answer), "odd")
    with pytest.raises(InputError, match=r"move function 'odd' \(.*function\) asked e2 -> e4") as raised:
        ask(geometry, "e2", "e4")
    assert raised.match(complaint)


def test_an_exception_in_a_user_function_becomes_an_input_error() -> None:
    def broken(start: Coord, end: Coord) -> object:
        raise ZeroDivisionError("division by zero")

    with pytest.raises(InputError, match=r"'boom' \(.*broken\) asked a1 -> b2 raised ZeroDivisionError"):
        ask(user_geometry(broken, "boom"), "a1", "b2")
