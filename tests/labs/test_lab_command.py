"""``chess-actors lab``: the list, the starters, the plug-in path's errors, the JSON and Gradescope
outputs, and the scenario's ``role`` line that replays a student's class."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from actors.game.game import ActorGame
from actors.roles.supervisor import STANDARD_ROLES
from actors.study.labs import LabPiece, PluginError, load_role
from actors.study.labs.catalog import LABS as CATALOG
from actors.study.labs.grader import check_file, gradescope_results
from actors.study.runner import run_scenario, scenario_roles
from actors.study.script import parse_scenario
from actors.study.steps import ScenarioError
from tests.helpers.extras import import_or_skip
from tests.helpers.seeded_labs import LABS

ROOT = LABS.parents[1]
SOLUTION = LABS / "lab1" / "solution.py"
WRONG = LABS / "lab1" / "wrong_rook_jumps.py"


def lab(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``chess-actors lab ARGS`` as a user runs it (in ``cwd``, with this checkout's code)."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "actors.cli", "lab", *args], capture_output=True, text=True,
                          cwd=cwd, env=environment, check=False, timeout=300)


def test_the_list_has_five_labs_each_line_starting_with_its_number() -> None:
    result = lab("list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) >= 5
    assert [line.split()[0] for line in lines] == [str(number) for number in range(1, len(lines) + 1)]
    listed = [json.loads(line) for line in lab("list", "--json").stdout.splitlines()]
    assert [entry["role"] for entry in listed] == ["piece", "board", "referee", "referee", "supervisor"]


@pytest.mark.parametrize("number", [entry.number for entry in CATALOG])
def test_each_starter_fails_the_worked_example_first_and_says_why(number: int, tmp_path: Path) -> None:
    started = lab("start", str(number), str(tmp_path / "mine"))
    assert started.returncode == 0, started.stderr
    readme = (tmp_path / "mine" / "README.md").read_text(encoding="utf-8")
    assert "## What to build" in readme and "## Worked example" in readme and "## What is checked" in readme
    starter = next((tmp_path / "mine").glob(f"lab{number}_*.py"))
    result = lab("check", str(number), str(starter), "--quick", "--json", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    first = report["checks"][0]
    assert (first["check"], first["passed"]) == ("worked example", False)
    assert "not written yet" in first["detail"]
    assert all(check["skipped"] == "the worked example fails first" for check in report["checks"][1:])


def test_start_refuses_to_overwrite_a_students_work(tmp_path: Path) -> None:
    assert lab("start", "1", str(tmp_path)).returncode == 0
    again = lab("start", "1", str(tmp_path))
    assert again.returncode == 2
    assert again.stderr.count("\n") == 1 and "already there (--force overwrites it)" in again.stderr
    assert lab("start", "1", str(tmp_path), "--force").returncode == 0


def test_an_unknown_lab_is_a_usage_error() -> None:
    result = lab("check", "9", str(SOLUTION))
    assert result.returncode == 2
    assert "there is no lab 9" in result.stderr and "Traceback" not in result.stderr


def _student_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "student.py"
    path.write_text(body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("from actors.study.labs import LabPiece\n\nraise ValueError('my mistake')\n",
         "importing it raised ValueError (line 3): my mistake"),
        ("def broken(:\n", "line 1: a syntax error"),
        ("x = 1\n", "no class derived from LabPiece"),
        ("from actors.study.labs import LabPiece\nclass A(LabPiece): pass\nclass B(LabPiece): pass\n",
         "several classes derive from LabPiece (A, B): name one"),
    ],
    ids=["raises-on-import", "syntax-error", "no-class", "two-classes"],
)
def test_a_file_the_lab_cannot_use_is_one_line_and_exit_2(tmp_path: Path, body: str, said: str) -> None:
    result = lab("check", "1", str(_student_file(tmp_path, body)), "--quick", cwd=tmp_path)
    assert result.returncode == 2
    assert said in result.stderr and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match=r"nowhere\.py: no such file"):
        load_role(tmp_path / "nowhere.py", LabPiece)


def test_a_class_that_answers_none_fails_its_first_check_naming_the_call(tmp_path: Path) -> None:
    path = _student_file(tmp_path, "from actors.study.labs import LabPiece\n\n"
                                   "class Piece(LabPiece):\n"
                                   "    def answer(self, query):\n        return None\n")
    report = check_file(1, path, quick=True, folder=tmp_path, budget=None)
    first = report.results[0]
    assert not first.passed and first.name == "worked example"
    assert "Piece.answer(MoveQuery(start='a1', end='a4', colour='white')) answered None" in first.detail
    assert "Yes or No was expected" in first.detail


def test_the_json_report_has_the_documented_shape(tmp_path: Path) -> None:
    result = lab("check", "1", str(WRONG), "--quick", "--json", "--fail-fast",
                 "--counterexample", str(tmp_path))
    assert result.returncode == 1, result.stderr
    record = json.loads(result.stdout.splitlines()[-1])
    assert {"lab", "passed", "checks", "counterexample"} <= set(record)
    assert record["lab"] == 1 and record["passed"] is False
    assert {"check", "passed", "figure", "detail", "skipped", "seconds"} <= set(record["checks"][0])
    found = record["counterexample"]
    assert found["deliveries"] >= 1 and found["scenario"].startswith("# lab 1")
    written = [Path(path) for path in record["written"]]
    assert [path.suffix for path in written] == [".scenario", ".html"]
    replay = subprocess.run([sys.executable, "-m", "actors.cli", "run", str(written[0])], capture_output=True,
                            text=True, check=False, timeout=120)
    assert replay.returncode == 1, replay.stdout + replay.stderr  # the same failure, replayed


GRADESCOPE_SCHEMA = {
    # Gradescope's autograder results.json, as its documentation specifies the fields.
    "type": "object",
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number"},
        "output": {"type": "string"},
        "output_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
        "visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
        "stdout_visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
        "extra_data": {"type": "object"},
        "tests": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "score": {"type": "number"},
                    "max_score": {"type": "number"},
                    "status": {"enum": ["passed", "failed"]},
                    "name": {"type": "string"},
                    "number": {"type": "string"},
                    "output": {"type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]},
                },
                "additionalProperties": False,
            },
        },
    },
    "additionalProperties": False,
}


def test_the_gradescope_results_follow_gradescopes_schema(tmp_path: Path) -> None:
    jsonschema = import_or_skip("jsonschema")
    output = tmp_path / "results.json"
    result = lab("check", "1", str(WRONG), "--quick", "--fail-fast", "--format", "gradescope", "--output",
                 str(output), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    results = json.loads(output.read_text(encoding="utf-8"))
    jsonschema.validate(results, GRADESCOPE_SCHEMA)
    assert results["score"] == sum(test["score"] for test in results["tests"])
    assert [test["status"] for test in results["tests"][:2]] == ["passed", "failed"]
    assert "send a1 move a1" in results["output"]  # the counterexample, for the student to run


def test_gradescope_needs_an_output_path() -> None:
    result = lab("check", "1", str(SOLUTION), "--format", "gradescope")
    assert result.returncode == 2 and "needs --output PATH" in result.stderr


def test_gradescope_results_of_a_passing_file_give_full_marks(tmp_path: Path) -> None:
    report = check_file(1, SOLUTION, quick=True, folder=tmp_path, budget=None)
    results = gradescope_results(report)
    assert results["score"] == len(report.results) and all(
        test["status"] == "passed" for test in results["tests"]  # type: ignore[union-attr]
    )


# -- the scenario's role line ------------------------------------------------------------------------


def test_a_role_line_runs_the_students_class_in_place_of_the_projects(tmp_path: Path) -> None:
    script = tmp_path / "mine.scenario"
    wrong = tmp_path / "wrong.py"
    wrong.write_text(WRONG.read_text(encoding="utf-8"), encoding="utf-8")
    script.write_text("role piece wrong.py\nstart 7k/8/8/8/8/8/8/R3K3 w - - 0 1\n"
                      "send a1 move a1 c1 white\nexpect yes traversed b1\n", encoding="utf-8")
    scenario = parse_scenario(script.read_text(encoding="utf-8"), str(script))
    assert scenario_roles(scenario).piece.__name__ == "Piece"
    assert [result.ok for result in run_scenario(scenario)] == [True, True, False]
    without = parse_scenario("\n".join(script.read_text(encoding="utf-8").splitlines()[1:]), str(script))
    assert all(result.ok for result in run_scenario(without))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("role queen x.py\n", "role needs piece|board|referee|supervisor"),
        ("play e4\nrole piece x.py\n", "role comes at the top"),
        ("role piece a.py\nrole piece b.py\n", "the piece role is given twice"),
    ],
)
def test_a_malformed_role_line_names_its_line(text: str, problem: str) -> None:
    with pytest.raises(ScenarioError, match=problem):
        parse_scenario(text, "mine.scenario")


def test_a_role_file_that_is_missing_is_named_with_its_line(tmp_path: Path) -> None:
    scenario = parse_scenario("start startpos\nrole board nowhere.py\n", str(tmp_path / "mine.scenario"))
    with pytest.raises(ScenarioError, match=r"line 2: .*nowhere.py: no such file"):
        scenario_roles(scenario)


def test_roles_of_ones_own_run_in_this_process_only() -> None:
    roles = replace(STANDARD_ROLES, piece=load_role(SOLUTION, LabPiece))
    with pytest.raises(ValueError, match="roles of your own run in this process"):
        ActorGame(roles=roles, nodes=2)
