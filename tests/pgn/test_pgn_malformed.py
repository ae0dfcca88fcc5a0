"""The streaming PGN reader on bad input: every malformed case with its line and column, the next
game read after an error, and fuzzing (arbitrary text never raises, a damaged game loses no later one).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from board.notation.pgn import PgnGame, read_games
from board.notation.san_syntax import parse_san
from tests.helpers.pgn_games import DATA, FAMOUS, games, sans


def error_text(game: PgnGame) -> str | None:
    return None if game.error is None else str(game.error)


# Malformed PGN: the error names line and column, and the next game still reads


MALFORMED = [
    pytest.param(
        '[Event "broken]\n\n1. e4 *\n',
        "line 1, column 1: tag Event: the value has no closing '\"' (a tag pair ends on its line)",
        [],
        id="tag-without-closing-quote",
    ),
    pytest.param(
        '[Event "x"\n\n1. e4 *\n',
        "line 1, column 1: tag Event: the tag pair has no closing ']'",
        [],
        id="tag-without-closing-bracket",
    ),
    pytest.param(
        "[Event x]\n\n1. e4 *\n",
        'line 1, column 1: tag Event: the value must be in double quotes, e.g. [Event "..."]',
        [],
        id="tag-value-without-quotes",
    ),
    pytest.param(
        '[Event "x"]\n[ "nameless"]\n\n1. e4 *\n',
        'line 2, column 1: a tag pair starts with its name, e.g. [Event "..."]',
        [],
        id="tag-without-name",
    ),
    pytest.param(
        '[Event "x"] junk here\n[White "w"]\n\n1. e4 *\n',
        "line 1, column 13: unexpected text after a tag pair: 'junk here'",
        [],
        id="garbage-after-a-tag",
    ),
    pytest.param(
        "1. e4 e5 2. Nf3 {never closed\n2... Nc6 *\n",
        "line 1, column 17: this comment '{' is never closed (no matching '}')",
        ["e4", "e5", "Nf3"],
        id="unterminated-comment-at-the-end",
    ),
    pytest.param(
        "1. e4 e5 ) 2. Nf3 *\n",
        "line 1, column 10: ')' closes no variation",
        ["e4", "e5"],
        id="close-without-open",
    ),
    pytest.param(
        "1. e4 e5 (1... c5 (1... e6) 2. Nf3 *\n",
        "line 1, column 10: this variation '(' is never closed",
        ["e4", "e5"],
        id="open-never-closed",
    ),
    pytest.param(
        "1. e4 e5 2. Nf9 Nc6 *\n",
        "line 1, column 13: Nf9: f9 is not a square",
        ["e4", "e5"],
        id="not-a-square",
    ),
    pytest.param(
        "1. e4 hello 2. Nf3 *\n",
        "line 1, column 7: hello: not a move in SAN (expected e.g. e4, Nf3, exd5, O-O, e8=Q)",
        ["e4"],
        id="not-a-move",
    ),
    pytest.param(
        "1. e4 e5\n2. Z0 Nc6 *\n",
        "line 2, column 4: Z0: null moves are not standard chess",
        ["e4", "e5"],
        id="null-move-z0",
    ),
    pytest.param(
        "1. e4 -- 2. Nf3 *\n",
        "line 1, column 7: --: null moves are not standard chess",
        ["e4"],
        id="null-move-dashes",
    ),
    pytest.param(
        "1. e4 e5 2. N@f3 *\n",
        "line 1, column 13: N@f3: piece drops are not standard chess",
        ["e4", "e5"],
        id="piece-drop",
    ),
    pytest.param(
        "1. e4 [Event e5 *\n",
        "line 1, column 7: a tag pair '[' inside the moves (tags come before the moves)",
        ["e4"],
        id="bracket-in-moves",
    ),
    pytest.param(
        "1. e4 e5 $ 2. Nf3 *\n",
        "line 1, column 10: '$' must be followed by a number",
        ["e4", "e5"],
        id="nag-without-number",
    ),
    pytest.param(
        "1. e4 e5 } 2. Nf3 *\n",
        "line 1, column 10: '}' cannot appear in the moves",
        ["e4", "e5"],
        id="stray-closing-brace",
    ),
]


@pytest.mark.parametrize(("text", "message", "moves_before"), MALFORMED)
def test_malformed_pgn_is_reported_in_the_game_and_the_next_game_still_reads(
    text: str, message: str, moves_before: list[str]
) -> None:
    following = '\n[Event "next"]\n\n1. d4 d5 1/2-1/2\n'
    found = games(text + following)
    assert [error_text(game) for game in found] == [message, None]
    assert sans(found[0]) == moves_before
    assert (found[1].number, found[1].tags, sans(found[1]), found[1].result) == (
        2, {"Event": "next"}, ["d4", "d5"], "1/2-1/2"
    )


def test_moves_after_an_error_are_not_kept_but_the_result_is() -> None:
    (game,) = games("1. e4 Nf9 2. Nf3 Nc6 0-1\n")
    assert sans(game) == ["e4"]
    assert game.result == "0-1"


def test_only_the_first_error_of_a_game_is_reported() -> None:
    (game,) = games("1. e4 Z0 ) Nf9 (\n")
    assert error_text(game) == "line 1, column 7: Z0: null moves are not standard chess"


def test_tags_after_an_error_in_the_tag_section_are_still_collected() -> None:
    (game,) = games('[Event "x"] oops\n[White "w"]\n[Black "b"]\n\n1. e4 *\n')
    assert game.tags == {"Event": "x", "White": "w", "Black": "b"}
    assert error_text(game) == "line 1, column 13: unexpected text after a tag pair: 'oops'"


def test_a_line_that_is_not_a_tag_ends_the_tag_section_so_the_next_tag_starts_a_game() -> None:
    # The documented resynchronisation rule: garbage outside a tag line counts as movetext.
    first, second = games('[Event "a"]\nEvent "b"]\n[White "w"]\n\n1. e4 *\n')
    assert first.tags == {"Event": "a"}
    assert str(first.error).startswith("line 2, column 1: Event: ")
    assert (second.tags, sans(second)) == ({"White": "w"}, ["e4"])


def test_an_unclosed_comment_stops_at_a_line_that_is_a_tag_pair() -> None:
    text = '[Event "a"]\n\n1. e4 {oops e5 *\n\n[Event "b"]\n\n1. d4 d5 *\n'
    first, second = games(text)
    assert error_text(first) == (
        "line 3, column 7: this comment '{' is never closed (no matching '}')"
    )
    assert sans(first) == ["e4"]
    assert (second.tags, sans(second), second.result) == ({"Event": "b"}, ["d4", "d5"], "*")


def test_a_stray_open_brace_after_a_result_loses_no_game() -> None:
    first, note, second = games('1. e4 *\n{\n[Event "b"]\n1. d4 *\n')
    assert (sans(first), first.error) == (["e4"], None)
    assert (note.first_line, note.moves, error_text(note)) == (
        2, (), "line 2, column 1: this comment '{' is never closed (no matching '}')"
    )
    assert (second.first_line, second.tags, sans(second)) == (3, {"Event": "b"}, ["d4"])


def test_an_unclosed_comment_between_games_is_still_reported() -> None:
    first, second = games("1. e4 * {trailing note\nthat never ends\n")
    assert (sans(first), first.error) == (["e4"], None)
    assert error_text(second) == (
        "line 1, column 9: this comment '{' is never closed (no matching '}')"
    )
    assert second.first_line == 1


def test_a_game_stops_at_the_first_error_then_many_later_games_read() -> None:
    good = '[Event "good"]\n\n1. e4 e5 2. Nf3 *\n\n'
    bad = '[Event "bad"]\n\n1. e4 ) e5 {x\n\n'
    found = games(good + bad + good * 3)
    assert [game.tags["Event"] for game in found] == ["bad" if i == 1 else "good" for i in range(5)]
    assert [game.error is None for game in found] == [True, False, True, True, True]


# Fuzzing: arbitrary text never raises and never hangs


PGN_ALPHABET = st.sampled_from(
    [*'[]{}()";%$.*-/=+#!?@ \t\r\n0123456789abcdefghxNBRQKOPZ', "\ufeff", "é", "\x00"]
)


def _check_games(found: list[PgnGame]) -> None:
    assert [game.number for game in found] == list(range(1, len(found) + 1))
    for game in found:
        for move in game.moves:
            parse_san(move.text)  # every kept move is well-formed SAN
            assert move.line >= 1 and move.column >= 1
        if game.error is not None:
            assert game.error.line >= 1 and game.error.column >= 1


@settings(max_examples=300)
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text: str) -> None:
    _check_games(games(text))


@settings(max_examples=500)
@given(st.lists(PGN_ALPHABET, max_size=400).map("".join))
def test_pgn_like_noise_never_raises_and_reads_the_same_from_any_line_source(text: str) -> None:
    found = games(text)
    _check_games(found)
    again = list(read_games(text.split("\n")))
    assert [(game.tags, game.moves, game.result, error_text(game)) for game in again] == [
        (game.tags, game.moves, game.result, error_text(game)) for game in found
    ]


@settings(max_examples=200)
@given(st.lists(st.sampled_from(FAMOUS), min_size=1, max_size=4), st.data())
def test_damaging_one_game_never_loses_the_games_after_it(
    names: list[str], data: st.DataObject
) -> None:
    texts = [(DATA / f"{name}.pgn").read_text(encoding="utf-8") for name in names]
    damaged = texts[0]
    cut = data.draw(st.integers(0, len(damaged) - 1))  # inside the first game's own lines
    junk = data.draw(st.sampled_from(["{", "(", ")", "Z0", "[Event", '"', "$", "}", "\n"]))
    # A line of its own that starts like a tag pair joins the next game's tag section, by the
    # resynchronisation rule; that damages the next game itself, so it is not drawn here.
    assume(not (junk.startswith("[") and damaged[cut - 1 : cut] in ("", "\n")))
    text = damaged[:cut] + junk + damaged[cut:] + "".join(texts[1:])
    found = games(text)
    _check_games(found)
    # Every undamaged game after the first is read in full.
    for text_after, game in zip(reversed(texts[1:]), reversed(found), strict=False):
        (clean,) = games(text_after)
        assert (game.tags, sans(game), game.error) == (clean.tags, sans(clean), None)
