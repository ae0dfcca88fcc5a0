"""Real PGN read right: any legal game, laid out any way the standard allows, reads back to its moves.

python-chess plays the random legal games (some longer than 100 moves, so three-digit move numbers
appear) and gives the expected SAN; hypothesis chooses the layout: whitespace and line breaks,
comments of both kinds, NAGs, annotations, escape lines and nested variations between any two
tokens, with and without spaces around self-delimiting tokens. The same text is then read as
text, as UTF-8 bytes cut into blocks anywhere, and in pieces of a few dozen bytes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from board.notation.pgn import PgnGame, PgnLimits, read_games

SPACES = [" ", "  ", "\t", "\n", "\r\n", " \n", "\n\n", "\n   ", " \t \n\t"]
TAG_CHARACTERS = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters='\\"')


@dataclass(frozen=True)
class Written:
    """A game as python-chess played it and as the layout wrote it."""

    text: str
    sans: list[str]
    tags: dict[str, str]
    result: str


def _play(seed: int, plies: int) -> tuple[list[str], str]:
    rng = random.Random(seed)
    board = chess.Board()
    sans: list[str] = []
    while len(sans) < plies and not board.is_game_over():
        move = rng.choice(list(board.legal_moves))
        sans.append(board.san(move))
        board.push(move)
    return sans, board.result() if board.is_game_over() else "*"


@st.composite
def variations(draw: st.DrawFn, depth: int = 0) -> str:
    """A variation: moves (unchecked by the reader), numbers, NAGs, comments, variations inside."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        parts.append(
            draw(
                st.sampled_from(
                    [
                        "12.",
                        "12...",
                        "Nf3",
                        "e4",
                        "0-0",
                        "Z0",
                        "--",
                        "$3",
                        "{side}",
                        "1-0",
                        "exd6",
                        "e8=Q+",
                        "100...",
                        "Qxf7#",
                    ]
                )
            )
        )
        if depth < 3 and draw(st.integers(0, 4)) == 0:
            parts.append(draw(variations(depth + 1)))
    inner = draw(st.sampled_from([" ", "\n"])).join(parts)
    return "(" + inner + ")"


@st.composite
def separators(draw: st.DrawFn) -> str:
    """What may stand between two movetext tokens: whitespace, and now and then something skipped."""
    text = draw(st.sampled_from(SPACES))
    for _ in range(draw(st.integers(0, 2))):
        filler = draw(st.sampled_from(["comment", "line-comment", "nag", "escape", "variation", "tight"]))
        if filler == "comment":
            body = draw(
                st.text(st.characters(blacklist_characters="}", blacklist_categories=("Cs",)), max_size=20)
            )
            text += "{" + body + "}" + draw(st.sampled_from(SPACES))
        elif filler == "line-comment":
            text += (
                "; "
                + draw(
                    st.text(
                        st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)), max_size=15
                    )
                )
                + "\n"
            )
        elif filler == "nag":
            text += f"${draw(st.integers(0, 255))}" + draw(st.sampled_from(SPACES))
        elif filler == "escape":
            text += "\n% an escape line, skipped 1. e4\n"
        elif filler == "variation":
            text += draw(variations()) + draw(st.sampled_from(SPACES))
        else:  # comments and variations need no space around them
            text += "{tight}" + draw(variations())
    return text


@st.composite
def written_games(draw: st.DrawFn) -> Written:
    """A random legal game written with a random layout."""
    plies = draw(st.one_of(st.integers(0, 30), st.integers(200, 320)))
    sans, result = _play(draw(st.integers(0, 2**32)), plies)
    tags = {
        "Event": draw(st.text(TAG_CHARACTERS, max_size=12)),
        "White": draw(st.text(TAG_CHARACTERS, max_size=12)),
    }
    lines = [f'[{name} "{value}"]' for name, value in tags.items()]
    text = "\n".join(lines) + draw(st.sampled_from(["\n\n", "\n", "\r\n\r\n"]))
    black_number = draw(st.booleans())  # whether Black's moves carry "N..." after an interruption
    for ply, san in enumerate(sans):
        number = ply // 2 + 1
        if ply % 2 == 0:
            text += f"{number}." + draw(st.sampled_from(["", " ", "\n", "  ", "{after the number}", " $1 "]))
        elif black_number and draw(st.booleans()):
            text += f"{number}..." + draw(st.sampled_from(["", " ", "\n"]))
        text += san + draw(st.sampled_from(["", "", "!", "?", "!?", "??"]))
        text += draw(separators())
    text += result + draw(st.sampled_from(["\n", "\n\n", " ", ""]))
    return Written(text, sans, tags, result)


def _moves(game: PgnGame) -> list[str]:
    return [token.text for token in game.moves]


def _check(found: list[PgnGame], written: list[Written], text: str) -> None:
    assert len(found) == len(written), [game.error for game in found]
    lines = text.split("\n")
    for game, expected in zip(found, written, strict=True):
        assert game.error is None, (str(game.error), expected.text[:500])
        assert _moves(game) == expected.sans
        assert game.tags == expected.tags
        assert game.result == expected.result
        for token in game.moves:  # every move points at itself in the text
            line = lines[token.line - 1]
            assert line[token.column - 1 :].startswith(token.text), (token, line)


@settings(max_examples=120, deadline=None)
@given(st.lists(written_games(), min_size=1, max_size=3), st.data())
def test_any_layout_of_legal_games_reads_back_to_the_same_moves(
    written: list[Written], data: st.DataObject
) -> None:
    text = "".join(game.text + "\n" for game in written)
    _check(list(read_games(text)), written, text)
    raw = text.encode("utf-8")
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=8)))
    blocks = [raw[start:end] for start, end in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    _check(list(read_games(blocks)), written, text)


@settings(max_examples=60, deadline=None)
@given(st.lists(written_games(), min_size=1, max_size=2), st.integers(120, 300))
def test_lines_read_in_small_pieces_give_the_same_games_and_places(
    written: list[Written], piece: int
) -> None:
    # Pieces this small cut lines inside comments and variations; each still has a blank in its
    # second half, where pieces are cut (a hard cut inside a token is the token limit's case).
    long_tags = any(len(f'[{n} "{v}"]'.encode()) > piece for game in written for n, v in game.tags.items())
    text = "".join(game.text + "\n" for game in written)
    if long_tags:
        return  # a tag line longer than a piece is the tag-value limit's case, tested apart
    _check(list(read_games([text.encode("utf-8")], limits=PgnLimits(piece_bytes=piece))), written, text)


def test_the_two_reported_layouts_read_right() -> None:
    wrapped = (
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O "
        "9. h3 Nb8 10.\nd4 Nbd7 *\n"
    )
    (game,) = read_games(wrapped)
    assert (len(game.moves), game.error) == (20, None)
    first, second = read_games("1. e4 e5 2. *\n\n1. d4 *\n")
    assert (_moves(first), first.result, first.error) == (["e4", "e5"], "*", None)
    assert (_moves(second), second.result) == (["d4"], "*")


def test_three_digit_move_numbers_before_comments_nags_and_line_breaks() -> None:
    sans, _ = _play(5, 400)
    assert len(sans) > 200
    text = ""
    for ply, san in enumerate(sans):
        if ply % 2 == 0:
            text += f"{ply // 2 + 1}." + ["\n", "{c}", " $5 ", " ; note\n", "(1. d4)"][ply % 5]
        text += san + " "
    (game,) = read_games(text + "*\n")
    assert game.error is None and _moves(game) == sans
