"""The streaming PGN reader: every feature of the import format, real files read as python-chess
reads them, and constant memory. Malformed input and fuzzing are in test_pgn_malformed.py.
"""

from __future__ import annotations

import io
import random
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn
import pytest

from board.notation.pgn import MoveToken, parse_game_text, read_games
from tests.helpers.pgn_games import DATA, FAMOUS, games, sans

# Tags


def test_tags_keep_their_order_and_unescape_quotes_and_backslashes() -> None:
    (game,) = games(
        '[Event "The \\"Opera\\" game"]\n[Site "C:\\\\Paris"]\n[White "Morphy"]\n\n1. e4 *\n'
    )
    assert list(game.tags.items()) == [
        ("Event", 'The "Opera" game'),
        ("Site", "C:\\Paris"),
        ("White", "Morphy"),
    ]
    assert game.error is None


def test_blank_lines_inside_the_tag_section_do_not_end_it() -> None:
    (game,) = games('[Event "e"]\n\n\n[White "w"]\n\n[Black "b"]\n\n1. e4 e5 *\n')
    assert game.tags == {"Event": "e", "White": "w", "Black": "b"}
    assert sans(game) == ["e4", "e5"]


def test_several_tags_on_one_line_and_tabs_around_them() -> None:
    (game,) = games('[Event "e"] [Round\t"3"]\t; a comment after the tags\n1. d4 *\n')
    assert game.tags == {"Event": "e", "Round": "3"}
    assert game.error is None


def test_setup_and_fen_tags_are_kept_for_the_caller_and_black_may_move_first() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12"
    (game,) = games(f'[SetUp "1"]\n[FEN "{fen}"]\n\n12... Kd7 13. e4 *\n')
    assert game.tags == {"SetUp": "1", "FEN": fen}
    assert sans(game) == ["Kd7", "e4"]


def test_a_result_that_differs_from_the_result_tag_is_not_an_error() -> None:
    (game,) = games('[Result "1-0"]\n\n1. e4 e5 0-1\n')
    assert game.tags["Result"] == "1-0"
    assert game.result == "0-1"
    assert game.error is None


# Movetext


def test_move_numbers_in_every_spelling() -> None:
    (game,) = games("1.e4 e5 2. Nf3 2...Nc6 3 . Bb5 3... a6 4.Ba4 12...Nf6 5.O-O *\n")
    assert sans(game) == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]


def test_moves_carry_their_line_and_column() -> None:
    (game,) = games('[Event "e"]\n\n1. e4 e5\n2.Nf3  Nc6 *\n')
    assert game.moves == (
        MoveToken("e4", 3, 4),
        MoveToken("e5", 3, 7),
        MoveToken("Nf3", 4, 3),
        MoveToken("Nc6", 4, 8),
    )
    assert game.first_line == 1


def test_annotations_are_stripped_but_check_marks_kept() -> None:
    (game,) = games("1. e4! e5? 2. Qh5!? Nc6?! 3. Bc4!! Nf6?? 4. Qxf7# !! 1-0\n")
    assert sans(game) == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert game.error is None


def test_comments_spanning_lines_and_rest_of_line_comments_are_skipped() -> None:
    text = "1. e4 {a comment\nthat runs over\nthree lines} e5 ; to the end {\n2. Nf3 *\n"
    (game,) = games(text)
    assert sans(game) == ["e4", "e5", "Nf3"]
    assert game.moves[1] == MoveToken("e5", 3, 14)
    assert game.error is None


def test_a_comment_may_hold_brackets_parentheses_and_a_line_starting_with_a_bracket() -> None:
    (game,) = games('1. e4 {[%clk 0:01:00] (not a variation)\n[Event "not a tag"]} e5 *\n')
    assert sans(game) == ["e4", "e5"]
    assert game.tags == {}


def test_nags_are_skipped() -> None:
    (game,) = games("1. e4 $1 e5 $19 2. Nf3 $0 $146 *\n")
    assert sans(game) == ["e4", "e5", "Nf3"]


def test_nested_variations_are_parsed_and_skipped() -> None:
    text = (
        "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5 (2... Nf6)) 2... d6) 2. Nf3 (2. f4 exf4\n"
        "(2... d5)) 2... Nc6 *\n"
    )
    (game,) = games(text)
    assert sans(game) == ["e4", "e5", "Nf3", "Nc6"]
    assert game.error is None


def test_null_moves_inside_variations_are_not_errors() -> None:
    (game,) = games("1. e4 e5 (1... -- 2. d4 Z0) 2. Nf3 *\n")
    assert sans(game) == ["e4", "e5", "Nf3"]
    assert game.error is None


def test_percent_escape_lines_are_ignored() -> None:
    text = '% an escape line\n[Event "e"]\n%another [Event "x"]\n1. e4\n% e5 2. d4\ne5 *\n'
    (game,) = games(text)
    assert game.tags == {"Event": "e"}
    assert sans(game) == ["e4", "e5"]


def test_a_byte_order_mark_at_the_start_is_ignored() -> None:
    (game,) = games('\ufeff[Event "e"]\n\n1. e4 *\n')
    assert game.tags == {"Event": "e"}
    assert game.error is None


def test_crlf_line_endings_and_tabs() -> None:
    text = '[Event "e"]\r\n\r\n1.\te4\te5\r\n2. Nf3 {a\r\ncomment} Nc6 1-0\r\n'
    (game,) = games(text)
    assert sans(game) == ["e4", "e5", "Nf3", "Nc6"]
    assert game.moves[1] == MoveToken("e5", 3, 7)
    assert game.result == "1-0"
    assert game.error is None


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*"])
def test_every_result_token_ends_the_game(result: str) -> None:
    (game,) = games(f"1. e4 e5 {result}\n")
    assert game.result == result


def test_a_game_without_a_result_ends_at_the_next_tag_line_or_at_the_end() -> None:
    first, second = games('[Event "a"]\n\n1. e4 e5\n[Event "b"]\n\n1. d4\n')
    assert (first.result, sans(first), first.error) == (None, ["e4", "e5"], None)
    assert (second.result, sans(second), second.error) == (None, ["d4"], None)
    assert (second.number, second.first_line) == (2, 4)


def test_games_with_no_moves() -> None:
    first, second, third = games('[Event "a"]\n\n*\n\n[Event "b"]\n[Result "1-0"]\n\n1-0\n\n*\n')
    assert (first.tags, first.moves, first.result) == ({"Event": "a"}, (), "*")
    assert (second.tags, second.result) == ({"Event": "b", "Result": "1-0"}, "1-0")
    assert second.moves == ()
    assert (third.tags, third.moves, third.result) == ({}, (), "*")


def test_tags_alone_at_the_end_of_the_input_are_a_game() -> None:
    (game,) = games('[Event "a"]\n[White "w"]\n')
    assert (game.tags, game.moves, game.result, game.error) == (
        {"Event": "a", "White": "w"}, (), None, None
    )


def test_several_games_on_one_line_after_results() -> None:
    first, second = games("1. e4 e5 1-0 1. d4 d5 0-1\n")
    assert (sans(first), first.result) == (["e4", "e5"], "1-0")
    assert (sans(second), second.result, second.first_line) == (["d4", "d5"], "0-1", 1)


def test_comments_between_games_do_not_make_games() -> None:
    assert len(games('{before}\n\n[Event "a"]\n\n1. e4 * {after}\n; more\n\n{and more}\n')) == 1


def test_empty_input_has_no_games() -> None:
    assert games("") == []
    assert games("\n\n   \n% only an escape\n") == []


def test_games_are_numbered_from_one_in_the_stream() -> None:
    text = "".join(f'[Event "{index}"]\n\n1. e4 *\n\n' for index in range(5))
    assert [(game.number, game.tags["Event"]) for game in games(text)] == [
        (index + 1, str(index)) for index in range(5)
    ]


# Sources


def test_any_iterable_of_lines_works_with_or_without_line_endings() -> None:
    text = '[Event "a"]\n\n1. e4 e5 {x\ny} 2. Nf3 *\n\n[Event "b"]\n1. d4 *\n'
    expected = [(game.tags, game.moves, game.result) for game in games(text)]
    for source in (text.splitlines(), text.splitlines(keepends=True), [text], text):
        assert [(game.tags, game.moves, game.result) for game in read_games(source)] == expected


def test_items_holding_several_lines_keep_the_line_numbers_right() -> None:
    chunks = ['[Event "a"]\n\n1. e4\n', "e5 2. Nf3\r\nNc6 *\n", "\n1. d4 *"]
    first, second = read_games(chunks)
    assert first.moves == (
        MoveToken("e4", 3, 4),
        MoveToken("e5", 4, 1),
        MoveToken("Nf3", 4, 7),
        MoveToken("Nc6", 5, 1),
    )
    assert (second.first_line, second.moves) == (7, (MoveToken("d4", 7, 4),))


def test_reading_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_bytes(b'\xef\xbb\xbf[Event "a"]\r\n\r\n1. e4 e5 1-0\r\n')
    with path.open(encoding="utf-8") as handle:
        (game,) = read_games(handle)
    assert (game.tags, sans(game), game.result) == ({"Event": "a"}, ["e4", "e5"], "1-0")


def test_parse_game_text_reads_one_game() -> None:
    game = parse_game_text('[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n1. d4 *\n')
    assert (game.tags, sans(game)) == ({"Event": "a"}, ["e4", "e5"])
    empty = parse_game_text("")
    assert (empty.number, empty.tags, empty.moves, empty.result, empty.error) == (
        1, {}, (), None, None
    )


def test_reading_is_lazy_one_game_at_a_time() -> None:
    pulled: list[str] = []

    def lines() -> Iterator[str]:
        for index in range(3):
            for line in (f'[Event "{index}"]', "", "1. e4 *", ""):
                pulled.append(line)
                yield line

    reader = read_games(lines())
    first = next(reader)
    assert first.tags == {"Event": "0"}
    assert len(pulled) == 3  # the first game is out as soon as its result is read


# Real PGN: famous games and python-chess output


@pytest.mark.parametrize("name", FAMOUS)
def test_famous_games_read_exactly_as_python_chess_reads_them(name: str) -> None:
    text = (DATA / f"{name}.pgn").read_text(encoding="utf-8")
    (ours,) = games(text)
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs is not None
    assert ours.error is None
    assert ours.tags == dict(theirs.headers)
    board = theirs.board()
    expected = []
    for move in theirs.mainline_moves():
        expected.append(board.san(move))
        board.push(move)
    assert sans(ours) == expected
    assert ours.result == theirs.headers["Result"]


def test_the_famous_collection_holds_every_famous_game_in_order() -> None:
    with (DATA / "famous.pgn").open(encoding="utf-8") as handle:
        found = list(read_games(handle))
    assert [game.error for game in found] == [None] * len(FAMOUS)
    for game, name in zip(found, FAMOUS, strict=True):
        (single,) = games((DATA / f"{name}.pgn").read_text(encoding="utf-8"))
        assert (game.tags, sans(game), game.result) == (single.tags, sans(single), single.result)


def _random_python_chess_game(rng: random.Random, index: int) -> tuple[str, list[str]]:
    """A random legal game written by python-chess, with comments, NAGs and variations."""
    board = chess.Board()
    if index % 5 == 4:
        # A set-up position with Black to move, as the FEN tag of a real file would give.
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12")
    game = chess.pgn.Game()
    game.setup(board)
    game.headers["Event"] = f'Random "{index}"'
    node: chess.pgn.GameNode = game
    san_moves = []
    for ply in range(rng.randint(0, 120)):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        san_moves.append(board.san(move))
        if ply % 7 == 3 and len(legal) > 1:
            alternative = node.add_variation(rng.choice([m for m in legal if m != move]))
            alternative.comment = "a side line"
        node = node.add_main_variation(move)
        if ply % 5 == 1:
            node.comment = "a comment {not nested}"
        if ply % 9 == 2:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14, 146]))
        board.push(move)
    game.headers["Result"] = board.result() if board.is_game_over() else "*"
    return str(game), san_moves


def test_random_games_written_by_python_chess_read_back_to_the_same_moves() -> None:
    rng = random.Random(2024)
    written = [_random_python_chess_game(rng, index) for index in range(40)]
    text = "\n\n".join(pgn for pgn, _ in written) + "\n"
    found = games(text)
    assert len(found) == len(written)
    for game, (pgn, expected) in zip(found, written, strict=True):
        assert game.error is None, (game.error, pgn)
        assert sans(game) == expected
        theirs = chess.pgn.read_game(io.StringIO(pgn))
        assert theirs is not None
        assert game.tags == dict(theirs.headers)
        assert game.result == theirs.headers["Result"]


# Memory and speed


def _generated_lines(count: int) -> Iterator[str]:
    """Yield ``count`` games line by line, so the input itself is never held in memory."""
    movetext = (DATA / "kasparov-topalov-1999.pgn").read_text(encoding="utf-8").split("\n\n")[1]
    for index in range(count):
        yield f'[Event "Generated {index}"]\n'
        yield '[Site "Memory test {with a brace}"]\n'
        yield "\n"
        yield "{A comment that spans\n"
        yield "two lines} (1. d4 (1. c4) d5)\n"
        yield from (line + "\n" for line in movetext.splitlines())
        yield "\n"


def _peak_memory_reading(count: int) -> tuple[int, int]:
    tracemalloc.start()
    try:
        read = 0
        for game in read_games(_generated_lines(count)):
            assert game.error is None and len(game.moves) == 87
            read += 1
        return read, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_however_many_games_stream_through() -> None:
    _peak_memory_reading(5)  # let caches and compiled patterns settle first
    small_count, small_peak = _peak_memory_reading(200)
    large_count, large_peak = _peak_memory_reading(2_000)
    assert (small_count, large_count) == (200, 2_000)
    # Ten times the games must not cost more memory: only one game is ever held.
    assert large_peak < small_peak * 1.25 + 16_384, (small_peak, large_peak)


def test_lexing_is_fast_enough_for_bulk_replays() -> None:
    # A loose floor (the measured rate is far higher) that still catches a quadratic slip.
    lines = list(_generated_lines(300))
    start = time.perf_counter()
    plies = sum(len(game.moves) for game in read_games(lines))
    elapsed = time.perf_counter() - start
    assert plies == 300 * 87
    assert plies / elapsed > 50_000, f"{plies / elapsed:,.0f} plies/s"
