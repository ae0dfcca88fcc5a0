"""What replay prints around the games: one summary line for several games with either engine, kept on
a terminal after the progress display, counts in proper English, and a readable board under NO_COLOR."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

from actors.cli.display import FILES_LINE

ROOT = Path(__file__).resolve().parents[2]
# One ply, two plies, and a game stopped at its fifth ply by a knight that cannot get there.
THREE_GAMES = "1. e4 *\n\n1. d4 d5 *\n\n1. Nf3 Nf6 2. Ng5 Ng4 3. Nf7 Nxf2 4. Nf3 *\n"
THREE_GAMES_LINES = [
    "game 1: ? - ?, 1 ply, *",
    "game 2: ? - ?, 2 plies, *",
    "game 3: ? - ?, 6 plies; <stdin>:5:38: illegal at ply 7: Nf3: no knight can reach f3",
]
SUMMARY = "summary: 3 games, 9 plies, 1 game stopped by an illegal move"


def chess_actors(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would, in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, check=False, timeout=120,
        env={**os.environ, **env},
    )


@pytest.mark.parametrize(
    "options",
    [("--engine", "direct"), ("--engine", "direct", "--workers", "2"),
     ("--engine", "actors", "--workers", "2")],
    ids=["direct", "direct-bulk", "actors-bulk"],
)
def test_several_games_end_with_one_summary_line(options: tuple[str, ...]) -> None:
    result = chess_actors("replay", "-", *options, stdin=THREE_GAMES)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [*THREE_GAMES_LINES, SUMMARY]
    assert result.stderr == ""


def test_the_actor_engine_summary_starts_with_the_same_totals() -> None:
    result = chess_actors("replay", "-", stdin=THREE_GAMES)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == THREE_GAMES_LINES
    [summary] = [line for line in lines if line.startswith("summary: ")]
    assert re.fullmatch(re.escape(SUMMARY) + r"; \d+ messages delivered", summary)


@pytest.mark.parametrize("engine", ["direct", "actors"])
def test_one_game_has_no_summary_line_of_its_own_and_says_1_ply(engine: str) -> None:
    result = chess_actors("replay", "-", "--engine", engine, "--no-moves", "--board", "none",
                          stdin="1. e4 *\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "game 1: ? - ?, 1 ply, *"
    if engine == "direct":
        assert lines == ["game 1: ? - ?, 1 ply, *"]
    else:
        assert any(line.startswith("summary: 1 game, 1 ply, no illegal move; ") for line in lines)


def test_json_output_stays_one_object_a_game_when_nobody_watches() -> None:
    result = chess_actors("replay", "-", "--engine", "direct", "--json", stdin=THREE_GAMES)
    assert [json.loads(line)["plies"] for line in result.stdout.splitlines()] == [1, 2, 6]
    assert result.stderr == ""


def _on_a_terminal(*args: str, stdin: str) -> tuple[str, str]:
    """Run with stderr on a pseudo-terminal (stdout piped); return (stdout, what the terminal got)."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "actors.cli", *args], cwd=ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=terminal, text=True, env={**os.environ, "COLUMNS": "100"},
    )
    os.close(terminal)
    stdout, _ = process.communicate(stdin, timeout=120)
    shown = b""
    while select.select([controller], [], [], 0.5)[0]:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal side is closed once the process has gone
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    return stdout, shown.decode()


def test_json_on_a_terminal_leaves_the_summary_where_the_progress_display_was() -> None:
    stdout, shown = _on_a_terminal("replay", "-", "--engine", "direct", "--json", stdin=THREE_GAMES)
    assert [json.loads(line)["game"] for line in stdout.splitlines()] == [1, 2, 3]
    # Whatever the progress display drew, the last thing on the terminal is the summary line.
    assert shown.endswith(SUMMARY + "\r\n"), repr(shown[-300:])


def test_quiet_turns_off_the_progress_display_and_its_summary_on_stderr() -> None:
    stdout, shown = _on_a_terminal("replay", "-", "--engine", "direct", "--json", "--quiet",
                                   stdin=THREE_GAMES)
    assert len(stdout.splitlines()) == 3
    assert shown == ""


def test_no_color_on_a_colour_terminal_still_draws_a_readable_board() -> None:
    result = chess_actors("replay", "--board", "end", "--no-moves", NO_COLOR="1", FORCE_COLOR="1")
    assert result.returncode == 0, result.stderr
    plain = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", result.stdout)
    assert "\x1b[48" not in result.stdout, "no background colours"
    board = plain[: plain.index(FILES_LINE)].splitlines()[-8:]
    assert board[5].rstrip() == " 3  ·  ·  ·  ·  ·  ·  ·  ·"
    final = plain[plain.index("FEN ") + 4 :].split()[0]
    assert sum(row.count("·") for row in board) == sum(int(c) for c in final if c.isdigit())
