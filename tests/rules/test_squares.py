"""Square names, coordinates, colours and board sizes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from board.errors import BoardSizeError, SquareError
from board.rules.squares import (
    SQUARE_NAMES,
    coord_of,
    file_name,
    file_number,
    index_of,
    parse_size,
    parse_square,
    square_colour,
    square_name,
)


@pytest.mark.parametrize(
    ("square", "colour"),
    [("a1", "dark"), ("h1", "light"), ("d3", "light"), ("g5", "dark"), ("e6", "light")],
)
def test_square_colour_matches_the_seed_examples(square: str, colour: str) -> None:
    assert square_colour(parse_square(square)) == colour


def test_files_past_z_continue_in_bijective_base_26() -> None:
    assert [file_name(n) for n in (1, 26, 27, 52, 53, 702, 703)] == [
        "a",
        "z",
        "aa",
        "az",
        "ba",
        "zz",
        "aaa",
    ]
    assert parse_square("aa27", size=(30, 30)) == (27, 27)


@given(st.integers(min_value=1, max_value=10**12))
def test_file_names_round_trip(file: int) -> None:
    assert file_number(file_name(file)) == file


def test_square_indices_round_trip_on_the_standard_board() -> None:
    for index, name in enumerate(SQUARE_NAMES):
        assert index_of(coord_of(index)) == index
        assert square_name(coord_of(index)) == name


@pytest.mark.parametrize("text", ["i1", "a9", "a0", "e", "4", "", "e4e", "-a1"])
def test_off_board_or_malformed_squares_are_rejected(text: str) -> None:
    with pytest.raises(SquareError):
        parse_square(text)


def test_size_parsing() -> None:
    assert parse_size("8") == (8, 8)
    assert parse_size("10x12") == (10, 12)
    for bad in ("0", "x", "8x", "-3", "3x0", "eight"):
        with pytest.raises(BoardSizeError):
            parse_size(bad)
