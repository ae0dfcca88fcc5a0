"""The terminal face: boards, move lines, step lines and the summary, in plain text and in colour.

Renders through a rich Console writing to a string, so no actor and no subprocess is needed.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console, RenderableType

from actors.cli.display import FILES_LINE, STEP_WIDTH, BoardView, headline, move_line, step_line, summary_view
from actors.game.replay import MoveReport
from actors.study.steps import StepResult
from board.notation.fen import STARTING_FEN

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def plain(renderable: RenderableType) -> str:
    out = io.StringIO()
    Console(file=out, width=100, color_system=None, force_terminal=False).print(renderable)
    return out.getvalue()


def test_the_starting_position_is_drawn_white_at_the_bottom() -> None:
    lines = plain(BoardView(STARTING_FEN)).splitlines()
    assert [line.rstrip() for line in lines] == [
        " 8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜",
        " 7  ♟  ♟  ♟  ♟  ♟  ♟  ♟  ♟",
        " 6  ·  ·  ·  ·  ·  ·  ·  ·",
        " 5  ·  ·  ·  ·  ·  ·  ·  ·",
        " 4  ·  ·  ·  ·  ·  ·  ·  ·",
        " 3  ·  ·  ·  ·  ·  ·  ·  ·",
        " 2  ♙  ♙  ♙  ♙  ♙  ♙  ♙  ♙",
        " 1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖",
        FILES_LINE,
    ]


def _backgrounds(view: BoardView) -> dict[str, str]:
    """The background colour of each piece glyph's cell, in a truecolour terminal."""
    console = Console(file=io.StringIO(), width=100, color_system="truecolor", force_terminal=True)
    found: dict[str, str] = {}
    for segment in console.render(view):
        glyph = segment.text.strip()
        if glyph and segment.style is not None and segment.style.bgcolor is not None:
            found.setdefault(glyph, segment.style.bgcolor.name)
    return found


def test_in_colour_the_squares_are_shaded_and_a_checked_king_is_red() -> None:
    coloured = io.StringIO()
    Console(file=coloured, width=100, color_system="truecolor", force_terminal=True).print(
        BoardView(FOOLS_MATE, "d8h4", check=True)
    )
    assert "\x1b[" in coloured.getvalue()
    assert "·" not in coloured.getvalue(), "shaded squares need no dots"
    backgrounds = _backgrounds(BoardView(FOOLS_MATE, "d8h4", check=True))
    assert backgrounds["♔"] == "#e8605a"
    assert backgrounds["♛"] in ("#cdd26a", "#aaa23a"), "the queen that just moved is highlighted"


def test_a_board_without_check_leaves_the_king_square_shaded_as_usual() -> None:
    backgrounds = _backgrounds(BoardView(AFTER_E4, "e2e4"))
    assert backgrounds["♔"] == "#b58863"  # e1 is a dark square (file + rank even)


def test_move_lines_show_ply_number_san_and_the_verdict() -> None:
    assert plain(move_line(MoveReport(1, 1, 0, "e4", "e4", "e2e4"))).rstrip() == "✓ ply   1  1.     e4"
    check = MoveReport(31, 16, 0, "Qb8+", "Qb8+", "d1b8", check=True)
    assert plain(move_line(check)).rstrip() == "✓ ply  31  16.    Qb8+     check"
    mate = MoveReport(4, 2, 1, "Qh4#", "Qh4#", "d8h4", check=True, outcome="checkmate")
    assert plain(move_line(mate)).rstrip() == "✓ ply   4  2...   Qh4#     checkmate"
    refused = MoveReport(7, 4, 0, "Nf7", reason="no knight can reach f7", kind="illegal")
    assert plain(move_line(refused)).rstrip() == "✗ ply   7  4.     Nf7      illegal: no knight can reach f7"


def test_step_lines_show_what_was_got_and_on_failure_what_was_expected() -> None:
    passed = StepResult(4, "play e4", True, "e4 accepted", "accepted e4")
    assert plain(step_line(passed)).rstrip() == "✓ line   4  play e4" + " " * 26 + "accepted e4"
    failed = StepResult(9, "square e4 black pawn", False, "black pawn on e4", "white pawn on e4")
    assert plain(step_line(failed)).rstrip().endswith("expected black pawn on e4; got white pawn on e4")


def test_a_long_step_puts_its_answer_on_the_next_line_in_the_answers_column() -> None:
    short = plain(step_line(StepResult(4, "play e4", True, "", "accepted e4"))).splitlines()
    answers_column = short[0].index("accepted")
    for step in ("x" * (STEP_WIDTH - 1), "x" * STEP_WIDTH, 'reject Bc4 "blocked by the pawn on e2"'):
        lines = plain(step_line(StepResult(15, step, True, "", "rejected (illegal): blocked"))).splitlines()
        if len(step) < STEP_WIDTH:
            [line] = lines
            assert line.index("rejected") == answers_column
        else:
            assert [line.rstrip() for line in lines] == [
                f"✓ line  15  {step}", " " * answers_column + "rejected (illegal): blocked"
            ]
    failed = plain(step_line(StepResult(9, "square e4 black pawn white-pawn-e2 x", False, "a", "b")))
    assert failed.splitlines()[1] == " " * answers_column + "expected a; got b"


def _no_color_board(view: BoardView) -> str:
    """The board on a colour terminal whose user set NO_COLOR (rich reads it at start-up)."""
    out = io.StringIO()
    Console(file=out, width=100, color_system="truecolor", force_terminal=True, no_color=True).print(view)
    return out.getvalue()


def test_with_no_color_empty_squares_are_dots_and_the_last_move_stands_out() -> None:
    text = _no_color_board(BoardView(FOOLS_MATE, "d8h4", check=True))
    assert "\x1b[38" not in text and "\x1b[48" not in text, "no colour at all"
    rows = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in text.splitlines()]
    assert rows[4].rstrip() == " 4  ·  ·  ·  ·  ·  ·  ♙  ♛"
    assert rows[0].rstrip() == " 8  ♜  ♞  ♝  ·  ♚  ♝  ♞  ♜"
    # Reverse video marks d8, h4 (the queen's move) and e1 (the king in check).
    reversed_cells = re.findall(r"\x1b\[[0-9;]*7m ([^ ]) ", text)
    assert sorted(reversed_cells) == sorted(["·", "♛", "♔"])


def test_no_color_from_the_environment_still_draws_dots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    out = io.StringIO()
    Console(file=out, width=100, color_system="truecolor", force_terminal=True).print(BoardView(AFTER_E4))
    assert out.getvalue().count("·") == 32


def test_headline_counts_games_plies_and_illegal_games() -> None:
    assert headline(1, 33, 0) == "1 game, 33 plies, no illegal move"
    assert headline(7, 1, 2) == "7 games, 1 ply, 2 games stopped by an illegal move"


def test_summary_lists_kinds_and_latencies_in_microseconds() -> None:
    text = plain(summary_view((1, 2, 0), {"Propose": 2, "MoveQuery": 3}, {"referee": [1_000, 3_000, 50_000]}))
    lines = [line.split() for line in text.splitlines()]
    assert text.splitlines()[0] == "summary: 1 game, 2 plies, no illegal move; 5 messages delivered"
    assert ["MoveQuery", "3", "60.0%"] in lines
    assert ["Propose", "2", "40.0%"] in lines
    assert ["referee", "3", "3.0", "50.0"] in lines
