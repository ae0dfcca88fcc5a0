"""The code base stays lint-clean, type-checks under ``mypy --strict`` and generates no code from text."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"{name} is not installed; install the test extra: pip install -e '.[test]'"
    return found


def test_ruff_reports_nothing() -> None:
    result = subprocess.run(
        [_tool("ruff"), "check", "board", "actors", "tests", "scripts"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_reports_nothing() -> None:
    result = subprocess.run(
        [_tool("mypy"), "--strict", "board", "actors"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_rules_core_stays_pure() -> None:
    forbidden = (
        "import actors",
        "from actors",
        "import pykka",
        "import threading",
        "import chess",
        "from chess",
        "print(",
    )
    offenders = [
        f"{path.relative_to(ROOT)}: {needle}"
        for path in sorted((ROOT / "board").rglob("*.py"))
        for needle in forbidden
        if needle in path.read_text(encoding="utf-8")
    ]
    assert not offenders, f"board/ must stay pure: {offenders}"


def test_no_code_is_generated_from_text_in_board_or_actors() -> None:
    """What runs is what the source says: no ``exec``, ``eval`` or ``compile`` of text (a debugger
    never lands in ``<string>`` of ours, and a class is what its source declares)."""
    generating = {"exec", "eval", "compile"}
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.id}("
        for package in ("board", "actors")
        for path in sorted((ROOT / package).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in generating
    ]
    assert not offenders, f"code generated from text: {offenders}"


CONVERSATIONS = '''
from actors.game.game import ActorGame
from actors.kernel.actor import TracedActor
from actors.kernel.control import Ping, Pong
from actors.kernel.messaging import Caller
from actors.protocol import Answer, MoveQuery, Roster, RosterQuery, Survey, SurveyReport


def roster(game: ActorGame) -> Roster:
    return game.ask("board", RosterQuery())


def wrong_roster(game: ActorGame) -> Roster:
    return game.ask("board", Survey(0, 1, 2))  # WRONG: a Survey is answered by a SurveyReport


class Asker(TracedActor[Ping]):
    def handle(self, message: Ping) -> object:
        report: SurveyReport = self.ask_one("board", Survey(0, 1, 2))
        answers: list[Answer] = self.wait([self.send("white-knight-g1", MoveQuery(6, 21, 0))])
        replies, pong = self.wait_with([self.send("white-knight-g1", MoveQuery(6, 21, 0))],
                                       self.send("board", Ping()))
        late: Pong = self.ask_one("board", MoveQuery(6, 21, 0))  # WRONG: a MoveQuery is answered Yes or No
        return (report, answers, replies, pong, late)


def caller_roster(caller: Caller) -> Roster:
    return caller.call("board", RosterQuery(), Roster)


def caller_pong(caller: Caller) -> Pong:
    return caller.wait(caller.send("board", Survey(0, 1, 2)))  # WRONG: a Survey is answered by a SurveyReport
'''


def test_asking_for_the_wrong_reply_type_is_a_type_error(tmp_path: Path) -> None:
    # A request names its reply's type, and every way of asking returns that type: mypy finds the
    # lines marked WRONG, and nothing else.
    source = tmp_path / "conversations.py"
    source.write_text(CONVERSATIONS)
    result = subprocess.run([_tool("mypy"), "--strict", str(source)], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    wrong = [number for number, line in enumerate(CONVERSATIONS.splitlines(), start=1) if "# WRONG" in line]
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert [int(line.split(":")[1]) for line in errors] == wrong, result.stdout + result.stderr
    assert "SurveyReport" in errors[0] and "Roster" in errors[0], errors[0]
    assert "Yes | No" in errors[1] and "Pong" in errors[1], errors[1]
    assert "SurveyReport" in errors[2] and "Pong" in errors[2], errors[2]


def test_the_tests_ci_runs_again_on_the_pure_build_are_there() -> None:
    listed = (ROOT / ".ci" / "rules-tests").read_text(encoding="utf-8").split()
    missing = [path for path in listed if not (ROOT / path).is_file()]
    assert listed and not missing, f".ci/rules-tests names tests that are not there: {missing}"
