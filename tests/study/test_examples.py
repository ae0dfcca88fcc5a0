"""The example scenarios ship inside the package: found by name, listed, run with ``run --example``,
and present (with ``py.typed``) in the wheel that ``pip`` builds."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from actors.examples import UnknownExampleError, example, examples
from actors.study.script import parse_scenario
from board.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "actors" / "examples"
NAMES = sorted(path.stem for path in FOLDER.glob("*.scenario"))


def chess_actors(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would, in a fresh interpreter, away from the source tree."""
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args],
        cwd="/", capture_output=True, text=True, check=False, timeout=120,
    )


def test_every_scenario_file_is_an_example_with_a_summary_from_its_opening_comment() -> None:
    shipped = examples()
    assert [item.name for item in shipped] == NAMES
    assert len(NAMES) >= 7
    for item in shipped:
        assert item.text == (FOLDER / f"{item.name}.scenario").read_text(encoding="utf-8")
        first_comment = item.text.splitlines()[0].lstrip("# ")
        assert first_comment.startswith(item.summary[:40]), (item.name, item.summary)
        assert item.summary.endswith("."), item.summary
        assert parse_scenario(item.text, item.source).steps


def test_an_example_is_found_with_or_without_its_suffix() -> None:
    assert example("pin") == example("pin.scenario")
    assert example("pin").summary.startswith("An absolute pin")


@pytest.mark.parametrize("name", ["nope", "", "../examples/pin", "/etc/passwd", "__init__"])
def test_an_unknown_example_is_an_input_error_listing_the_names(name: str) -> None:
    with pytest.raises(UnknownExampleError) as caught:
        example(name)
    assert isinstance(caught.value, InputError)
    assert "pin, promotion" in str(caught.value)


def test_run_example_runs_the_shipped_script_from_any_directory() -> None:
    result = chess_actors("run", "--example", "pin")
    assert result.returncode == 0, result.stdout + result.stderr
    steps = parse_scenario(example("pin").text).steps
    assert result.stdout.splitlines()[-1] == f"{len(steps)} steps passed"
    assert "✓ line  18  reject Ne4" in result.stdout


def test_run_example_with_json_prints_one_passing_object_per_step() -> None:
    result = chess_actors("run", "--example", "checkmate", "--json")
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["line"] for record in records] == [
        step.line for step in parse_scenario(example("checkmate").text).steps
    ]
    assert all(record["ok"] for record in records)


@pytest.mark.parametrize("args", [("--list-examples",), ("--example",)])
def test_listing_the_examples_gives_each_name_and_what_it_teaches(args: tuple[str, ...]) -> None:
    result = chess_actors("run", *args)
    assert result.returncode == 0, result.stderr
    rows = [line.split(maxsplit=1) for line in result.stdout.splitlines()]
    assert [row[0] for row in rows] == NAMES
    assert dict(rows)["pin"] == example("pin").summary


def test_listing_the_examples_as_json() -> None:
    result = chess_actors("run", "--list-examples", "--json")
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records == [{"name": item.name, "summary": item.summary} for item in examples()]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--example", "nope"), "no example called 'nope'"),
        ((), "give one of SCENARIO, --example NAME or --list-examples"),
        (("x.scenario", "--example", "pin"), "give one of SCENARIO, --example NAME or --list-examples"),
        (("--example", "pin", "--list-examples"), "give one of SCENARIO, --example NAME or --list-examples"),
        (("--list-examples", "--trace", "t.jsonl"), "--trace: listing the examples runs nothing to trace"),
    ],
)
def test_example_options_used_wrongly_are_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    result = chess_actors("run", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == f"chess-actors run: {message}" + (
        " (the examples: " + ", ".join(NAMES) + ")\n" if "no example" in message else "\n"
    )


def test_the_wheel_ships_the_examples_their_guide_and_py_typed(tmp_path: Path) -> None:
    # Built from a copy, so that the build leaves nothing in the source tree (and reuses nothing there).
    source = tmp_path / "source"
    kept = ("pyproject.toml", "README.md", "board", "actors")
    for name in kept:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(tmp_path),
         str(source)],
        capture_output=True, text=True, check=False, timeout=300,
    )
    assert built.returncode == 0, built.stderr
    [wheel] = tmp_path.glob("chess_actors-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"actors/examples/{name}.scenario" for name in NAMES} <= names
    assert {"actors/examples/__init__.py", "actors/examples/README.md"} <= names
    assert {"actors/py.typed", "board/py.typed", "actors/data/opera-game.pgn"} <= names
