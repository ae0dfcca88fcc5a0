"""The puzzle commands end to end, as a user runs them: ``color`` and ``knight path|treasure|tour``,
their plain and JSON output, exit codes 0, 1 and 2, and one clear stderr line for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``chess-actors ARGS...`` in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def json_of(result: subprocess.CompletedProcess[str]) -> Any:
    lines = result.stdout.splitlines()
    assert len(lines) == 1, f"expected one JSON line, got {result.stdout!r}"
    return json.loads(lines[0])


def assert_walk(names: list[str], width: int = 8) -> None:
    """Every step of a list of square names is a knight move."""
    files = "abcdefghijklmnopqrstuvwxyz"[:width]
    coords = [(files.index(name[0]), int(name[1:])) for name in names]
    for here, there in pairwise(coords):
        assert sorted((abs(here[0] - there[0]), abs(here[1] - there[1]))) == [1, 2], (here, there)


def test_color_prints_light_or_dark() -> None:
    assert run("color", "d3").stdout == "light\n"
    assert run("color", "g5").stdout == "dark\n"


@pytest.mark.parametrize(
    ("square", "size", "colour"),
    [("i9", "9", "dark"), ("aa27", "27", "dark"), ("j3", "10x4", "light"), ("a1", "1", "dark"),
     ("h1", "8", "light")],
)
def test_color_works_on_the_board_it_is_given(square: str, size: str, colour: str) -> None:
    result = run("color", square, "--size", size)
    assert (result.returncode, result.stdout, result.stderr) == (0, colour + "\n", "")


@pytest.mark.parametrize(
    ("args", "board"),
    [(("i9",), "8x8"), (("a5", "--size", "10x4"), "10x4"), (("aa27", "--size", "26"), "26x26")],
)
def test_color_of_a_square_off_the_board_is_an_error_naming_the_board(
    args: tuple[str, ...], board: str
) -> None:
    result = run("color", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == f"chess-actors color: square {args[0]} is off the {board} board\n"


def test_knight_path_prints_the_move_count_then_the_squares() -> None:
    result = run("knight", "path", "g2", "a8")
    assert result.returncode == 0, result.stderr
    count, squares = result.stdout.splitlines()
    assert count == "4"
    names = squares.split()
    assert names[0] == "g2" and names[-1] == "a8" and len(names) == 5
    assert_walk(names)


def test_knight_path_json_has_moves_and_path() -> None:
    result = run("knight", "path", "g2", "h2", "--json")
    assert result.returncode == 0, result.stderr
    record = json_of(result)
    assert set(record) == {"moves", "path"}
    assert record["moves"] == 3
    assert record["path"][0] == "g2" and record["path"][-1] == "h2"
    assert len(record["path"]) == 4
    assert_walk(record["path"])


def test_knight_path_on_other_boards_uses_their_square_names() -> None:
    result = run("knight", "path", "a1", "aa27", "--size", "27", "--json")
    assert result.returncode == 0, result.stderr
    record = json_of(result)
    assert record["path"][-1] == "aa27"
    assert record["moves"] == len(record["path"]) - 1


def test_knight_path_on_a_billion_square_board_answers_by_formula() -> None:
    result = run("knight", "path", "a1", "ntp1000", "--size", "1000000000")
    assert result.returncode == 0, result.stderr
    count, squares = result.stdout.splitlines()
    assert int(count) == len(squares.split()) - 1


# a1 to a1000000000 is 999,999,999 ranks up: a move gains at most 2 ranks, so at least 500,000,000
# moves, and every move changes the square's colour, so an odd number: 500,000,001, which is reached
# by moves (1, 2) and (-1, 2) in turn up to a999999997, and three moves for the last three ranks.
HUGE_BOARD = ("knight", "path", "a1", "a1000000000", "--size", "1000000000")
HUGE_DISTANCE = 500_000_001


def test_knight_path_too_long_to_list_prints_the_distance_and_says_why_not_the_squares() -> None:
    result = run(*HUGE_BOARD)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{HUGE_DISTANCE}\n"
    [reason] = result.stderr.splitlines()
    assert "not listed" in reason and f"{HUGE_DISTANCE:,} moves" in reason
    assert "unreachable" not in result.stdout + result.stderr


def test_knight_path_too_long_to_list_gives_the_distance_in_json_and_no_path() -> None:
    result = run(*HUGE_BOARD, "--json")
    assert result.returncode == 0, result.stderr
    assert json_of(result) == {"moves": HUGE_DISTANCE, "path": None}


def test_knight_treasure_too_long_to_list_prints_the_walk_length() -> None:
    # Best: c2 first (1 move), then 999,999,998 ranks up and 2 files left: at least 499,999,999
    # moves by ranks, an even number by colour, so 500,000,000 (499,999,998 moves of (+-1, 2) and
    # two of (-2, 1) or (2, 1) get there); going up first and back down is far longer.
    result = run("knight", "treasure", "a1", "a1000000000", "c2", "--size", "1000000000", "--json")
    assert result.returncode == 0, result.stderr
    assert json_of(result) == {"moves": 500_000_001, "path": None}


def test_knight_path_unreachable_prints_unreachable_and_exits_1() -> None:
    result = run("knight", "path", "a1", "b2", "--size", "3")
    assert result.returncode == 1
    assert result.stdout == "unreachable\n"


def test_knight_path_unreachable_json_is_null_and_exits_1() -> None:
    result = run("knight", "path", "b2", "a1", "--size", "3", "--json")
    assert result.returncode == 1
    assert json_of(result) == {"moves": None, "path": None}


def test_knight_treasure_solves_the_seed_hunt_in_eleven_moves() -> None:
    result = run("knight", "treasure", "a8", "e6", "c4", "b3", "a2", "b2", "b1", "--json")
    assert result.returncode == 0, result.stderr
    record = json_of(result)
    assert record["moves"] == 11
    assert record["path"][0] == "a8"
    assert {"e6", "c4", "b3", "a2", "b2", "b1"} <= set(record["path"])
    assert_walk(record["path"])


def test_knight_treasure_plain_output_is_count_then_walk() -> None:
    result = run("knight", "treasure", "a1", "b3", "c5")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["2", "a1 b3 c5"]


def test_knight_treasure_unreachable_exits_1() -> None:
    result = run("knight", "treasure", "a1", "c3", "b2", "--size", "3", "--json")
    assert result.returncode == 1
    assert json_of(result) == {"moves": None, "path": None}


def test_knight_tour_json_lists_every_square_once() -> None:
    result = run("knight", "tour", "--json")
    assert result.returncode == 0, result.stderr
    record = json_of(result)
    assert set(record) == {"size", "closed", "path"}
    assert record["size"] == [8, 8] and record["closed"] is False
    assert sorted(record["path"]) == sorted(f"{f}{r}" for f in "abcdefgh" for r in range(1, 9))
    assert record["path"][0] == "a1"
    assert_walk(record["path"])


def test_knight_tour_closed_from_a_start_square() -> None:
    result = run("knight", "tour", "--size", "6x8", "--start", "c5", "--closed", "--json")
    assert result.returncode == 0, result.stderr
    record = json_of(result)
    assert record["size"] == [6, 8] and record["closed"] is True
    path = record["path"]
    assert path[0] == "c5" and len(set(path)) == 48
    assert_walk([*path, path[0]], width=6)


def test_knight_tour_plain_prints_the_path_then_a_grid_of_move_numbers() -> None:
    result = run("knight", "tour", "--size", "5")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    path = lines[0].split()
    assert len(path) == 25 and path[0] == "a1"
    grid = lines[2:]
    assert grid[-1].split() == ["a", "b", "c", "d", "e"]
    assert grid[-2].split()[:2] == ["1", "1"]  # rank 1, then the move number of a1
    numbers = sorted(int(cell) for row in grid[:-1] for cell in row.split()[1:])
    assert numbers == list(range(1, 26))


def test_knight_tour_on_a_wide_board_prints_just_the_path() -> None:
    result = run("knight", "tour", "--size", "30x3")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 1
    assert len(result.stdout.split()) == 90


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (("--size", "5", "--closed"), "Schwenk"),
        (("--size", "4"), "Conrad"),
        (("--size", "5", "--start", "b1"), "file + rank even"),
    ],
)
def test_knight_tour_that_does_not_exist_gives_a_reason_and_exits_1(
    args: tuple[str, ...], reason: str
) -> None:
    result = run("knight", "tour", *args)
    assert result.returncode == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert reason in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("knight", "path", "a1", "i9"),
        ("knight", "path", "a1", "b3", "--size", "0"),
        ("knight", "path", "a1", "b3", "--size", "eight"),
        ("knight", "path", "a1", "b3", "--size", "3x-3"),
        ("knight", "path", "e44x", "b3"),
        ("knight", "treasure", "a1"),
        ("knight", "treasure", "a1", "b3", "z9"),
        ("knight", "tour", "--start", "k1"),
        ("knight", "tour", "--size", "100000"),
        ("knight", "tour", "--size", "8x"),
        ("knight", "path", "a1"),
        ("knight",),
        ("color", "e0"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
