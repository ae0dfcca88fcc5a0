"""What a new user sees first: ``--version``, the list of commands, and each command's ``--help``
with a description and examples that the parser itself accepts."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import actors
import board
from actors.cli import build_parser
from actors.cli.help import EXAMPLES_HEADING

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ["replay", "run", "trace", "explore", "shell", "studio", "lab", "check-move", "perft", "knight",
            "color"]
PUZZLES = [("knight", "path"), ("knight", "treasure"), ("knight", "tour")]
LABS = [("lab", "list"), ("lab", "start"), ("lab", "check")]
SUBCOMMANDS = [*[(name,) for name in COMMANDS], *PUZZLES, *LABS]


def chess_actors(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would, in a fresh interpreter (wide, so help is not re-wrapped)."""
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    )


def test_version_prints_the_version_and_the_rules_core_s_build_and_exits_0() -> None:
    result = chess_actors("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"chess-actors {actors.__version__} (rules core: {board.BUILD_NOTE})\n"


def test_the_installed_metadata_carries_the_package_s_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" in project["dynamic"]
    assert metadata.version("chess-actors") == actors.__version__


def test_version_says_pure_python_when_chess_actors_pure_asks_for_it() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "--version"], cwd=ROOT, capture_output=True, text=True,
        timeout=60, check=False, env={**os.environ, "CHESS_ACTORS_PURE": "1"},
    )
    assert result.returncode == 0, result.stderr
    assert "(rules core: pure Python" in result.stdout
    assert "compiled" not in result.stdout


def test_the_command_list_puts_the_main_job_first() -> None:
    result = chess_actors("--help")
    assert result.returncode == 0, result.stderr
    listed = re.findall(r"^    (\S+)", result.stdout, flags=re.MULTILINE)
    assert listed == COMMANDS


def _examples(help_text: str) -> list[str]:
    heading = help_text.index(f"\n{EXAMPLES_HEADING}\n")
    return [line.strip() for line in help_text[heading:].splitlines()[2:] if line.strip()]


@pytest.mark.parametrize("command", SUBCOMMANDS, ids=" ".join)
def test_every_command_help_has_a_description_and_examples_of_itself(command: tuple[str, ...]) -> None:
    result = chess_actors(*command, "--help")
    assert result.returncode == 0, result.stderr
    usage, description = result.stdout.split("\n\n")[:2]
    assert usage.startswith(f"usage: chess-actors {' '.join(command)} ")
    assert len(description.split()) >= 8, f"no real description: {description!r}"
    examples = _examples(result.stdout)
    assert examples, "no example"
    for example in examples:
        assert f"chess-actors {' '.join(command)}" in example, example


@pytest.mark.parametrize("command", SUBCOMMANDS, ids=" ".join)
def test_every_example_in_help_is_a_command_line_the_parser_accepts(command: tuple[str, ...]) -> None:
    help_text = chess_actors(*command, "--help").stdout
    for example in _examples(help_text):
        # An example may chain commands ("... && chess-actors trace ..."); each must parse.
        for part in re.split(r"\s(?:&&|>|\|)\s", example.split("  #")[0]):
            words = shlex.split(part)
            if words[0] != "chess-actors":
                continue
            try:
                build_parser().parse_args(words[1:])
            except SystemExit as exit_:  # argparse's way of refusing
                pytest.fail(f"{part!r} does not parse (exit {exit_.code})")


@pytest.mark.parametrize(
    ("words", "command"),
    [(("replay", "--bogus"), "chess-actors replay"), (("explore", "--gmae", "2"), "chess-actors explore"),
     (("knight", "path", "a1", "b3", "--closed"), "chess-actors knight path"),
     (("trace", "t.jsonl", "--to", "jsonl", "--game", "1", "--boards"), "chess-actors trace")],
)
def test_an_unknown_flag_names_the_help_of_the_command_it_was_given_to(
    words: tuple[str, ...], command: str
) -> None:
    done = chess_actors(*words)
    assert done.returncode == 2 and done.stdout == ""
    unknown = words[-1] if words[-1].startswith("--") else words[-2]
    assert done.stderr == f"{command}: unrecognized arguments: {unknown} (see {command} --help)\n"


@pytest.mark.parametrize("flag", ["--game", "--plies", "--trace", "--board", "--json"])
def test_the_same_flag_means_the_same_thing_on_every_command_that_takes_it(flag: str) -> None:
    """Each study flag is taken by the commands that read or make games and traces, with one meaning
    (its help text says it, the command's own words aside)."""
    takes = {"--game": {"replay", "trace", "explore"}, "--plies": {"replay", "trace", "explore"},
             "--trace": {"replay", "run", "explore"}, "--board": {"replay"},
             "--json": {"replay", "trace", "explore", "run", "shell", "studio"}}[flag]
    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command").choices
    for name in takes:
        helps = [action.help or "" for action in commands[name]._actions if flag in action.option_strings]
        assert helps, f"chess-actors {name} has no {flag}"
    if flag in ("--game", "--plies"):
        for name in takes:
            (action,) = [action for action in commands[name]._actions if flag in action.option_strings]
            assert action.metavar == ("N" if flag == "--game" else "A-B")
            assert "1-based" in (action.help or ""), f"{name} {flag}: {action.help}"
