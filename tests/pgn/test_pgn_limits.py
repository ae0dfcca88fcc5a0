"""PGN past every limit, in bounded memory and time: the reader's limits one by one, then the real
command line on hostile inputs in a child process with a 300 MB address-space limit and a timeout.

Each case ends with the documented exit status, one error naming the file, the line and the limit,
no traceback, and where the input goes on, the next game judged as usual.
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from board.notation import pgn_lexer
from board.notation.pgn import LIMITS, PgnLimits, line_pieces, read_games

ROOT = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 300 * 1024 * 1024
NEXT_GAME = b'\n\n[Event "next"]\n\n1. d4 d5 *\n'


def _limited_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def replay_limited(
    path: str, *extra: str, timeout: float = 120
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Replay ``path`` as a user would, under the memory limit; return the result and the seconds it took."""
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", "--engine", "direct", "--json", path, *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        preexec_fn=_limited_memory,
    )
    return result, time.monotonic() - start


def _write(path: Path, parts: Iterator[bytes]) -> str:
    with path.open("wb") as handle:
        for part in parts:
            handle.write(part)
    return str(path)


# The reader's limits, one at a time (small limits, so each case is quick to make)


SMALL = PgnLimits(game_bytes=4_000, plies=40, tag_value=50, token=20, comment=300, piece_bytes=1_000)


def _read(text: bytes) -> list[tuple[dict[str, str], int, str | None]]:
    return [
        (game.tags, len(game.moves), str(game.error) if game.error else None)
        for game in read_games([text + NEXT_GAME], name="x.pgn", limits=SMALL)
    ]


def test_a_game_longer_than_the_ply_limit_keeps_its_first_plies_and_names_the_limit() -> None:
    moves = b" ".join(b"%d. Nf3 Nf6 %d. Ng1 Ng8" % (n, n + 1) for n in range(1, 40, 2))
    (_, first_moves, first_error), second = _read(moves + b" *")
    assert first_moves == 40
    assert first_error == f"x.pgn:1:{moves.index(b'21. Nf3') + 5}: more than 40 plies in one game (the limit)"
    assert second == ({"Event": "next"}, 2, None)


def test_a_game_longer_than_the_size_limit_names_the_line_and_the_limit() -> None:
    text = b'[Event "big"]\n\n1. e4 ' + b"{a comment that takes room}\n" * 200 + b"e5 *"
    (tags, moves, error), second = _read(text)
    assert (tags, moves) == ({"Event": "big"}, 1)
    assert error is not None and error.startswith("x.pgn:") and "longer than 4,000 bytes (the limit)" in error
    assert second == ({"Event": "next"}, 2, None)


def test_a_tag_value_past_the_limit_is_named_and_the_other_tags_kept() -> None:
    (tags, moves, error), second = _read(b'[Event "e"]\n[Site "' + b"s" * 60 + b'"]\n\n1. e4 *')
    assert (tags, moves) == ({"Event": "e"}, 0)  # nothing after a game's first error is kept
    assert error == "x.pgn:2:1: tag Site: the value is longer than 50 characters (the limit)"
    assert second[2] is None


def test_a_tag_value_longer_than_a_piece_is_the_same_error() -> None:
    (tags, _, error), second = _read(b'[Event "' + b"e" * 5_000 + b'"]\n\n1. e4 *')
    assert tags == {}
    assert error == "x.pgn:1:1: tag Event: the value is longer than 50 characters (the limit)"
    assert second == ({"Event": "next"}, 2, None)


def test_a_token_past_the_limit_is_named_shortened() -> None:
    ((_, moves, error), _) = _read(b"1. e4 " + b"N" * 3_000 + b" e5 *")
    assert moves == 1
    assert error == (
        "x.pgn:1:7: NNNNNNNNNNNNNNNNNNNNNNNNNNN...: a token longer than 20 characters (the limit)"
    )


def test_a_comment_past_the_limit_is_named_where_it_starts() -> None:
    ((_, moves, error), second) = _read(b"1. e4 {" + b"words and words " * 30 + b"} e5 *")
    assert moves == 1
    assert error == "x.pgn:1:7: a comment longer than 300 characters (the limit)"
    assert second[2] is None


def test_long_lines_come_in_pieces_that_keep_every_byte_and_split_no_token() -> None:
    line = b" ".join(b"Nf3 Ng1" for _ in range(3_000))
    pieces = list(line_pieces([line[i : i + 777] for i in range(0, len(line), 777)] + [b"\nend"], 1_000))
    assert b"".join(piece for piece, _ in pieces) == line + b"end"
    assert [ends for _, ends in pieces][-2:] == [True, True]
    assert all(len(piece) <= 1_000 for piece, _ in pieces)
    assert all(piece.endswith(b" ") for piece, ends in pieces if not ends)


def test_the_documented_limits_are_generous_for_real_games() -> None:
    assert LIMITS.plies >= 8_000 and LIMITS.game_bytes >= 1 << 20 and LIMITS.tag_value >= 1 << 16
    assert LIMITS.piece_bytes > LIMITS.tag_value + 100  # a tag line within the limit fits one piece


# The command line on hostile input, under a memory limit


def _single_error(result: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    first = json.loads(result.stdout.splitlines()[0])
    error = first["error"]
    assert isinstance(error, dict)
    return error


def test_dev_zero_is_binary_data_named_at_once() -> None:
    result, seconds = replay_limited("/dev/zero", timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "chess-actors replay: /dev/zero:1: binary data (a NUL byte), not PGN text\n"
    assert seconds < 30


@pytest.mark.parametrize(
    ("name", "make", "where", "limit"),
    [
        pytest.param(
            "one-line.pgn",
            lambda: (b"%d. Nf3 Nf6 %d. Ng1 Ng8 " % (n, n + 1) for n in range(1, 4_000_000, 2)),
            (1, None),
            None,
            id="a 50 MB line of legal moves",
        ),
        pytest.param(
            "tag.pgn",
            lambda: iter([b'[Event "', b"x" * 20_000_000, b'"]\n\n1. e4 *', NEXT_GAME]),
            (1, 1),
            "tag Event: the value is longer than 65,536 characters (the limit)",
            id="a 20 MB tag value",
        ),
        pytest.param(
            "token.pgn",
            lambda: iter([b"1. e4 ", b"N" * 30_000_000, b" *", NEXT_GAME]),
            (1, 7),
            "a token longer than 255 characters (the limit)",
            id="a 30 MB token",
        ),
        pytest.param(
            "comment.pgn",
            lambda: iter([b"1. e4 {", b"no end " * 4_000_000, NEXT_GAME]),
            (1, 7),
            "a comment longer than 262,144 characters (the limit)",
            id="a 28 MB open comment",
        ),
        pytest.param(
            "game.pgn",
            lambda: iter([b"1. e4 ", b"{a note}\n" * 200_000, b"e5 *", NEXT_GAME]),
            None,
            "the game is longer than 1,048,576 bytes (the limit)",
            id="a 1.8 MB game",
        ),
    ],
)
def test_hostile_input_ends_with_one_error_in_bounded_memory_and_the_next_game_runs(
    tmp_path: Path,
    name: str,
    make: Callable[[], Iterator[bytes]],
    where: tuple[int, int | None] | None,
    limit: str | None,
) -> None:
    path = _write(tmp_path / name, make())
    result, seconds = replay_limited(path)
    assert result.returncode == 1, result.stderr[-2000:]
    error = _single_error(result)
    assert error["file"] == path and error["kind"] in ("unreadable", "illegal")
    if where is not None:
        assert error["line"] == where[0] and (where[1] is None or error["column"] == where[1])
    if limit is not None:
        assert error["reason"] == limit
        following = [json.loads(line) for line in result.stdout.splitlines()[1:]]
        assert [(game["white"], game["plies"], game["error"]) for game in following] == [("?", 2, None)]
    assert seconds < 60


def test_many_tagless_games_stream_through_with_a_verdict_each(tmp_path: Path) -> None:
    path = _write(tmp_path / "tagless.pgn", iter([b"1. e4 e5 *\n" * 30_000]))
    result, _ = replay_limited(path, "--workers", "2")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count('"error": null') == 30_000


# Linear time, shown by counting the lexer's work rather than by timing it


class _RecordingPattern:
    """Stands in for the lexer's token pattern and records the span each search is given."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.spans: list[tuple[int, int, int]] = []

    def finditer(self, text: str, position: int = 0, end: int = sys.maxsize) -> Iterator[re.Match[str]]:
        self.spans.append((position, min(end, len(text)), len(text)))
        return self.pattern.finditer(text, position, end)


def test_trailing_blanks_are_never_searched_for_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    # Where a line ends every token fails, and a search that reached the blanks there started
    # again from each of them: quadratic in the blanks. No search may be given them.
    recording = _RecordingPattern(pgn_lexer._TOKEN_RE)
    monkeypatch.setattr(pgn_lexer, "_TOKEN_RE", recording)
    blanks = 50_000
    games = list(read_games([b"1. e4 e5" + b" \t" * blanks + b"\n2. Nf3 Nc6" + b" " * blanks + b"\n*\n"]))
    assert [move.text for move in games[0].moves] == ["e4", "e5", "Nf3", "Nc6"]
    assert games[0].error is None
    searched = sum(end - start for start, end, _ in recording.spans)
    assert searched <= len("1. e4 e5") + len("2. Nf3 Nc6") + len("*"), recording.spans


def test_a_run_of_blank_lines_is_passed_to_the_lexer_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    lines: list[str] = []
    original = pgn_lexer.Reader.feed

    def counting_feed(self: pgn_lexer.Reader, text: str, *args: object, **kwargs: object) -> object:
        lines.append(text)
        return original(self, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pgn_lexer.Reader, "feed", counting_feed)
    blank = 200_000
    data = b"1. e4 e5\n" + b"\n \r\n\t\n" * (blank // 3) + b"2. Nf3 Nc6 *\n"
    [game] = read_games([data[i : i + 65536] for i in range(0, len(data), 65536)], name="x.pgn")
    assert lines == ["1. e4 e5", "2. Nf3 Nc6 *"]
    assert [(move.text, move.line) for move in game.moves] == [
        ("e4", 1), ("e5", 1), ("Nf3", 2 + blank // 3 * 3), ("Nc6", 2 + blank // 3 * 3)
    ]


def test_columns_of_a_utf8_line_are_counted_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each column was counted from the start of its line: quadratic in a line of many tokens.
    decoded = 0
    original = pgn_lexer.Reader._column

    def counting_column(self: pgn_lexer.Reader, position: int) -> int:
        nonlocal decoded
        before = self.counted[0]
        column = original(self, position)
        decoded += position - before if position >= before else position
        return column

    monkeypatch.setattr(pgn_lexer.Reader, "_column", counting_column)
    pairs = 20_000
    line = "1. e4 {é}" + " ()" * pairs + " )"
    [game] = read_games([(line + "\n*\n").encode()])
    assert game.error is not None and game.error.column == len(line)  # found where it is, in characters
    assert decoded <= len(line.encode())
