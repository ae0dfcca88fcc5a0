"""Chess960 through the scenario grammar, the shell and the explorer: a game set up with
``start chess960``, ``shell --chess960`` or a ``[Variant "Chess960"]`` PGN castles as the direct
engine does, move for move and position for position."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from actors.study.runner import run_scenario
from actors.study.script import parse_line, parse_scenario, read_scenario
from actors.study.shell import Shell
from actors.study.shell_output import Shown
from actors.study.steps import Start
from board.errors import IllegalMoveError
from board.games.game import Game
from board.games.replay import start_game
from board.notation.pgn import read_games
from board.rules.chess960 import start_fen
from tests.helpers.chess960_games import random_chess960_game

ROOT = Path(__file__).resolve().parents[2]
POSITION_3 = start_fen(3)  # BQNNRKRB: the king on f1 between its rooks on e1 and g1
# From position 3: black castles short in UCI (the king takes its own rook), white long in SAN.
CASTLING_GAME = ["Ne3", "f8g8", "Nd3", "Nd6", "O-O-O"]
INNER_ROOKS = "1r3kr1/8/8/8/8/8/8/1R3KR1 w KQkq - 0 1"  # kings on f1 and f8, rooks on b and g


def chess_actors(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "actors.cli", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, check=False, timeout=300)


def direct_game(fen: str, moves: list[str]) -> tuple[Game, list[tuple[str, str]]]:
    """The direct engine's Chess960 game after ``moves``, and each move's (SAN, UCI)."""
    game = Game(fen, chess960=True)
    written = []
    for move in moves:
        played = game.play(move)
        written.append((played.san, game.uci(played.move)))
    return game, written


# --- the set-up step ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "fen", "chess960"),
    [
        ("start chess960 3", POSITION_3, True),
        ("start chess960 518", start_fen(518), True),  # standard chess's start, castling as Chess960
        (f"start chess960 {INNER_ROOKS}", INNER_ROOKS, True),
        (f"start {INNER_ROOKS}", INNER_ROOKS, True),  # standard chess refuses its KQkq: X-FEN
        ("start 1r3kr1/8/8/8/8/8/8/1R3KR1 w GBgb - 0 1", "1r3kr1/8/8/8/8/8/8/1R3KR1 w GBgb - 0 1", True),
        ("start 4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", False),
        ("start startpos", start_fen(518), False),
    ],
)
def test_the_start_step_sets_up_a_chess960_game_by_number_or_by_fen(
    line: str, fen: str, chess960: bool
) -> None:
    step = parse_line(line)
    assert step == Start(1, line, fen, chess960)
    scenario = parse_scenario(f"{line}\nplay Nc3\n")
    assert (scenario.start_fen, scenario.chess960) == (fen, chess960)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("start chess960", "start chess960 needs a start position's number (0-959) or a FEN"),
        ("start chess960 960", "start chess960: Chess960 position number 960 is not in 0..959"),
        ("start chess960 " + "9" * 40, "start chess960: a Chess960 position number has 40 digits"),
        ("start chess960 4k3/8/8/8/8/8/8/4K2R w A - 0 1", "start: FEN castling right 'A'"),
    ],
)
def test_a_malformed_chess960_start_is_named_with_its_problem(line: str, problem: str) -> None:
    with pytest.raises(ValueError, match=r"^t\.scenario, line 2: ") as caught:
        parse_scenario(f"# set-up\n{line}\n", source="t.scenario")
    assert problem in str(caught.value)


# --- scenarios -------------------------------------------------------------------------------


def test_random_chess960_games_played_as_scenarios_castle_as_the_direct_engine_does() -> None:
    # python-chess writes the games (castling whenever it can); the direct engine reads them, and a
    # scenario plays each move (SAN and UCI in turn) and checks the direct engine's position after it.
    rng = random.Random(960)
    castlings = 0
    for _ in range(6):
        pgn, _fens, _plies, illegal = random_chess960_game(rng)
        game = next(iter(read_games(pgn.splitlines())))
        direct = start_game(game)
        assert direct.chess960
        lines = [f"start chess960 {direct.start_fen}"]
        refused = None
        for ply, token in enumerate(game.moves):
            try:
                played = direct.play(token.text)
            except IllegalMoveError:
                refused = token.text
                lines.append(f"reject {token.text}")
                break
            castlings += played.san.startswith("O-O")
            lines.append(f"play {direct.uci(played.move) if ply % 2 else played.san}")
            lines.append(f"fen {direct.fen()}")
        assert refused == illegal, f"the engine refused {refused!r}; the game ends in the illegal {illegal!r}"
        results = run_scenario(parse_scenario("\n".join(lines), source="random.scenario"))
        failed = [result for result in results if not result.ok]
        assert not failed, failed[0]
        assert len(results) == len(lines)
    assert castlings >= 4, "the games were meant to castle"


def test_the_chess960_example_runs_green_and_ends_where_the_direct_engine_does() -> None:
    done = chess_actors("run", "--example", "chess960-castling", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(record["ok"] for record in records)
    direct, written = direct_game(POSITION_3, CASTLING_GAME)
    assert records[-1]["got"] == direct.fen()
    assert written[1] == ("O-O", "f8g8") and written[4] == ("O-O-O", "f1e1")


# --- the shell -------------------------------------------------------------------------------


def test_the_shell_castles_a_chess960_game_as_the_direct_engine_and_saves_it_for_run(tmp_path: Path) -> None:
    direct, written = direct_game(POSITION_3, CASTLING_GAME)
    path = tmp_path / "castled.scenario"
    with Shell(POSITION_3, chess960=True) as shell:
        assert [str(item) for item in shell.execute("legal f1")] == ["legal from f1: g1"]
        reports = [shell.execute(move)[0] for move in CASTLING_GAME]
        shown = shell.execute("board")[0]
        shell.execute(f"save {path}")
    assert [(report.san, report.uci) for report in reports] == written  # type: ignore[union-attr]
    assert isinstance(shown, Shown) and shown.fen == direct.fen()
    assert shown.last_move == "f1e1", "the board shows the castling as the king taking its rook"
    saved = read_scenario(str(path))
    assert saved.chess960 and saved.start_fen == POSITION_3
    assert path.read_text(encoding="utf-8").startswith(f"start chess960 {POSITION_3}\n")
    assert all(result.ok for result in run_scenario(saved))


def test_shell_chess960_starts_from_a_position_number_and_plays_through_stdin() -> None:
    commands = "\n".join([*CASTLING_GAME, "board"]) + "\n"
    done = chess_actors("shell", "--chess960", "3", "--json", stdin=commands)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    direct, written = direct_game(POSITION_3, CASTLING_GAME)
    assert [(record["san"], record["uci"]) for record in records[:-1]] == written
    assert all(record["accepted"] for record in records[:-1])
    assert records[-1]["fen"] == direct.fen()


def test_shell_reads_an_x_fen_that_standard_chess_refuses_as_chess960() -> None:
    fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1"
    done = chess_actors("shell", "--fen", fen, "--json", stdin="O-O\nO-O-O\n")
    assert done.returncode == 0, done.stderr
    _, written = direct_game(fen, ["O-O", "O-O-O"])
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(record["san"], record["uci"]) for record in records] == written == [("O-O", "f1g1"),
                                                                                 ("O-O-O", "f8b8")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--chess960", "960"), "chess-actors shell: Chess960 position number 960 is not in 0..959\n"),
        (("--chess960", "3", "--fen", "startpos"), "argument --fen: not allowed with argument --chess960"),
        (("--chess960", "8/8/8/8/8/8/8/8 w - - 0 1"), "chess-actors shell: "),
    ],
)
def test_a_bad_chess960_start_for_the_shell_is_one_line_and_exit_2(
    args: tuple[str, ...], message: str
) -> None:
    done = chess_actors("shell", *args, stdin="")
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


# --- explore ---------------------------------------------------------------------------------


def test_explore_plays_a_chess960_pgn_as_the_direct_engine_under_every_order(tmp_path: Path) -> None:
    fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1"
    pgn = tmp_path / "castles.pgn"
    pgn.write_text(f'[Variant "Chess960"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n1. O-O O-O-O 2. Kh1 Kb8 *\n',
                   encoding="utf-8")
    done = chess_actors("explore", str(pgn), "--orders", "all", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    game = Game(fen, chess960=True)
    for record, move in zip(records, ["O-O", "O-O-O", "Kh1", "Kb8"], strict=True):
        played = game.play(move)
        assert (record["move"], record["verdict"], record["san"]) == (move, "accepted", played.san)
        assert record["fen"] == game.fen(), move
        assert all(record["same"].values()) and record["orders"] >= 1


def test_explore_takes_a_scenario_s_chess960_start_and_its_links_faults() -> None:
    direct, written = direct_game(POSITION_3, CASTLING_GAME)
    done = chess_actors("explore", "--example", "chess960-castling", "--orders", "3", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record["move"] for record in records] == CASTLING_GAME
    assert [record["san"] for record in records] == [san for san, _ in written]
    assert records[-1]["fen"] == direct.fen()
    faults = chess_actors("explore", "--example", "chess960-castling", "--plies", "5",
                          "--network", "single-loss", "--json")
    assert faults.returncode == 0, faults.stdout + faults.stderr
    [record] = [json.loads(line) for line in faults.stdout.splitlines()]
    assert record["verdict"] == "accepted O-O-O" and record["fault_points"] > 0 and not record["changed"]


def test_a_chess960_scenario_opens_the_live_studio_in_its_own_layout(tmp_path: Path) -> None:
    from actors.cli.studio import _opening
    from actors.studio.live import LiveGame

    script = tmp_path / "c.scenario"
    script.write_text("start chess960 3\nO-O\n", encoding="utf-8")
    opening = _opening(_studio_arguments(script))
    assert opening.chess960 and opening.note is None and opening.lines == ["O-O"]
    with LiveGame(opening.fen, chess960=opening.chess960) as live:
        assert live.run_lines(opening.lines) == []
        shown = live.shell.execute("board")[0]
    direct, _ = direct_game(start_fen(3), ["O-O"])
    assert isinstance(shown, Shown) and shown.fen == direct.fen()


def _studio_arguments(script: Path) -> Any:
    from actors.cli import build_parser

    return build_parser().parse_args(["studio", "--scenario", str(script)])
