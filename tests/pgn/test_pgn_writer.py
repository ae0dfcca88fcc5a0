"""The PGN writer: the seven tag roster first, escaped values, movetext wrapped at 80 columns,
black-first numbering, and games that python-chess and our own reader read back unchanged.
"""

from __future__ import annotations

import io
import itertools
import random

import chess
import chess.pgn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board.errors import InputError, MoveSyntaxError
from board.notation.pgn import read_games
from board.notation.pgn_writer import LINE_WIDTH, SEVEN_TAG_ROSTER, format_game

OPERA = [
    *("e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6"),
    *("Qb3", "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O"),
    *("Rd8", "Rxd7", "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#"),
]


def _movetext(text: str) -> list[str]:
    """The movetext lines of a written game: after the blank line that ends the tags."""
    return text.split("\n\n")[1].split("\n")


def _random_game(rng: random.Random, board: chess.Board, plies: int) -> list[chess.Move]:
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return moves


def test_the_seven_tag_roster_comes_first_in_order_with_defaults() -> None:
    text = format_game({"ECO": "C41", "White": "Morphy", "Event": "Paris"}, OPERA, "1-0")
    assert text.split("\n\n")[0].split("\n") == [
        '[Event "Paris"]',
        '[Site "?"]',
        '[Date "????.??.??"]',
        '[Round "?"]',
        '[White "Morphy"]',
        '[Black "?"]',
        '[Result "1-0"]',
        '[ECO "C41"]',
    ]


def test_other_tags_follow_the_roster_in_the_order_given() -> None:
    tags = {"FEN": "8/8/8/8/8/8/8/K1k5 w - - 0 1", "SetUp": "1", "Annotator": "me", "Date": "2024"}
    lines = format_game(tags, [], "*").split("\n\n")[0].split("\n")
    names = [line.split()[0][1:] for line in lines]
    assert names == [*SEVEN_TAG_ROSTER, "FEN", "SetUp", "Annotator"]


def test_the_result_tag_defaults_to_the_result_but_a_given_one_is_kept() -> None:
    assert '[Result "0-1"]' in format_game({}, [], "0-1")
    assert '[Result "*"]' in format_game({"Result": "*"}, [], "1-0")


def test_tag_values_are_escaped() -> None:
    text = format_game({"Event": 'The "Opera" game', "Site": "C:\\Paris"}, [], "*")
    assert '[Event "The \\"Opera\\" game"]' in text
    assert '[Site "C:\\\\Paris"]' in text
    (game,) = read_games(text)
    assert (game.tags["Event"], game.tags["Site"]) == ('The "Opera" game', "C:\\Paris")


def test_movetext_numbers_white_moves_and_ends_with_the_result_and_a_blank_line() -> None:
    text = format_game({}, OPERA, "1-0")
    assert text.endswith(" 17. Rd8# 1-0\n\n")
    assert _movetext(text)[0].startswith("1. e4 e5 2. Nf3 d6 3. d4 Bg4 ")


def test_lines_are_wrapped_at_80_columns_without_splitting_tokens() -> None:
    rng = random.Random(3)
    board = chess.Board()
    sans = []
    for move in _random_game(rng, chess.Board(), 400):
        sans.append(board.san(move))
        board.push(move)
    text = format_game({}, sans, "*")
    lines = _movetext(text)
    assert len(lines) > 10
    assert all(len(line) <= LINE_WIDTH for line in lines)
    # Greedy filling: the next unit would not have fitted on the line before.
    for line, following in itertools.pairwise(lines):
        assert len(line) + 1 + len(following.split(" ")[0]) > LINE_WIDTH - 8
    # Tokens are whole and a move number never ends a line.
    assert " ".join(lines).split() == text.split("\n\n")[1].split()
    assert not any(line.endswith(".") for line in lines)


def test_a_game_starting_with_black_is_numbered_with_three_dots() -> None:
    text = format_game({}, ["Kd7", "e4", "Ke6"], "*", fullmove=12, black_first=True)
    assert _movetext(text) == ["12... Kd7 13. e4 Ke6 *"]


def test_a_game_starting_later_with_white() -> None:
    text = format_game({}, ["e4", "Kd7"], "*", fullmove=30)
    assert _movetext(text) == ["30. e4 Kd7 *"]


def test_a_game_without_moves_is_just_its_result() -> None:
    assert format_game({}, [], "1/2-1/2").endswith('[Result "1/2-1/2"]\n\n1/2-1/2\n\n')


def test_written_games_concatenate_into_a_readable_collection() -> None:
    text = format_game({"Event": "a"}, OPERA, "1-0") + format_game({"Event": "b"}, ["d4"], "*")
    found = list(read_games(text))
    assert [(game.tags["Event"], len(game.moves), game.error) for game in found] == [
        ("a", len(OPERA), None),
        ("b", 1, None),
    ]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: format_game({}, [], "2-0"), InputError, "result '2-0' is not one of"),
        (lambda: format_game({"Bad Name": "x"}, [], "*"), InputError, "tag name 'Bad Name'"),
        (lambda: format_game({"Event": "a\nb"}, [], "*"), InputError, "cannot hold a line break"),
        (lambda: format_game({}, ["e4"], "*", fullmove=0), InputError, "move number 0"),
        (lambda: format_game({}, ["e4", "Z0"], "*"), MoveSyntaxError, "Z0: null moves"),
    ],
)
def test_bad_input_is_rejected(call: object, error: type[Exception], message: str) -> None:
    assert callable(call)
    with pytest.raises(error, match=message):
        call()


def test_python_chess_reads_our_output_back_to_the_same_tags_and_moves() -> None:
    rng = random.Random(11)
    for index in range(60):
        if index % 4 == 3:
            fen = "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 31"  # promotions and castling
            board = chess.Board(fen)
            tags = {"Event": f"Set-up {index}", "SetUp": "1", "FEN": fen}
        else:
            board = chess.Board()
            # No quotes or backslashes here: python-chess neither escapes nor unescapes them
            # (escaping is pinned by test_tag_values_are_escaped with our own reader).
            tags = {"Event": f"Random {index}", "White": "A, B", "Black": "C (D)", "ECO": "A00"}
        start = board.copy()
        moves = _random_game(rng, board, rng.randint(0, 250))
        sans = []
        replay = start.copy()
        for move in moves:
            sans.append(replay.san(move))
            replay.push(move)
        result = board.result() if board.is_game_over() else "*"
        text = format_game(
            tags, sans, result, fullmove=start.fullmove_number, black_first=not start.turn
        )
        theirs = chess.pgn.read_game(io.StringIO(text))
        assert theirs is not None and not theirs.errors, text
        assert list(theirs.mainline_moves()) == moves
        expected_tags = {name: "?" for name in SEVEN_TAG_ROSTER} | {"Date": "????.??.??"}
        assert dict(theirs.headers) == expected_tags | {"Result": result} | tags
        (ours,) = read_games(text)
        assert ours.error is None
        assert [move.text for move in ours.moves] == sans
        assert ours.result == result


@settings(max_examples=200)
@given(
    st.dictionaries(
        st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True),
        st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20),
        max_size=6,
    )
)
def test_any_tag_values_read_back_unchanged(tags: dict[str, str]) -> None:
    text = format_game(tags, ["e4", "e5"], "*")
    (game,) = read_games(text)
    assert game.error is None
    for name, value in tags.items():
        assert game.tags[name] == value
