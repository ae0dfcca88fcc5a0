"""Which build of the rules core runs: compiled with mypyc when installed so, pure Python on request
or when the source has changed since it was compiled."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import board
import board.rules.movegen
from board import compiled_state

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = EXTENSION_SUFFIXES[0]


def test_the_build_reported_is_the_build_imported() -> None:
    compiled = board.rules.movegen.__file__.endswith(SUFFIX)
    assert ("compiled" if compiled else "pure") == board.BUILD


def test_the_modules_where_a_move_s_time_goes_run_in_the_build_reported() -> None:
    # A module with values in it is compiled when each of its dataclasses stays a plain Python class
    # (setup.py): the move geometry, whose answers every piece gives, is one.
    import board.rules.declared
    import board.rules.geometry

    modules = (board.rules.movegen, board.rules.geometry, board.rules.declared)
    compiled = [module.__name__ for module in modules if str(module.__file__).endswith(SUFFIX)]
    assert compiled == ([module.__name__ for module in modules] if board.BUILD == "compiled" else [])


def test_chess_actors_pure_imports_every_rules_module_from_its_source() -> None:
    code = (
        "import board, board.rules.movegen, board.puzzles.knights.tour; "
        "print(board.BUILD, board.rules.movegen.__file__.endswith('.py'), "
        "board.puzzles.knights.tour.__file__.endswith('.py'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
        env={**os.environ, "CHESS_ACTORS_PURE": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["pure", "True", "True"]


def _package(tmp_path: Path, source_age: float, compiled_age: float) -> Path:
    (tmp_path / "puzzles" / "knights").mkdir(parents=True)
    (tmp_path / "rules").mkdir()
    for name in ("rules/movegen", "puzzles/knights/tour"):
        source, compiled = tmp_path / f"{name}.py", tmp_path / f"{name}{SUFFIX}"
        source.write_text("")
        compiled.write_bytes(b"")
        os.utime(source, (1_000_000 - source_age,) * 2)
        os.utime(compiled, (1_000_000 - compiled_age,) * 2)
    return tmp_path


def test_compiled_modules_newer_than_their_source_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CHESS_ACTORS_PURE", raising=False)
    assert compiled_state(str(_package(tmp_path, source_age=100, compiled_age=10))) == "compiled"


def test_a_source_edited_after_compiling_makes_the_package_run_pure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CHESS_ACTORS_PURE", raising=False)
    assert compiled_state(str(_package(tmp_path, source_age=10, compiled_age=100))) == "stale"


def test_chess_actors_pure_asks_for_the_source_even_when_compiled_modules_are_fresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHESS_ACTORS_PURE", "1")
    assert compiled_state(str(_package(tmp_path, source_age=100, compiled_age=10))) == "asked"


def test_a_package_without_compiled_modules_is_pure(tmp_path: Path) -> None:
    (tmp_path / "movegen.py").write_text("")
    assert compiled_state(str(tmp_path)) == "pure"


def test_values_that_cross_processes_survive_pickling_in_either_build() -> None:
    # Bulk replay's workers and Ray's nodes send verdicts, games, moves and errors between processes.
    import io
    import pickle

    from board.errors import IllegalMoveError
    from board.games.replay import replay_direct
    from board.notation.pgn import read_games
    from board.rules.geometry import Path, betza, geometry_named
    from board.rules.judge import Intent
    from board.rules.moves import Move

    (game,) = read_games(io.StringIO("1. e4 e5 2. Ke3 *\n"))
    verdict = replay_direct(game)
    assert verdict.error is not None and verdict.plies == 2
    error = IllegalMoveError("Ke3", "no king can reach e3")
    values: list[object] = [game, verdict, verdict.error, Move.from_uci("e7e8q"), Intent(0, 6, 20)]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
    assert pickle.loads(pickle.dumps(Path((3, 3), ((2, 2),), "enemy"))) == Path((3, 3), ((2, 2),), "enemy")
    for geometry in (geometry_named("camel"), betza("NC")):  # taught to pieces on other nodes
        copy = pickle.loads(pickle.dumps(geometry))
        assert (copy.label, copy.betza, copy.moves(0, (2, 2), (3, 5))) == (
            geometry.label, geometry.betza, geometry.moves(0, (2, 2), (3, 5)))
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
