"""README's first steps tell a new user what they need before they meet it: where the commands are,
and what the test command installs and how long it runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _first_steps() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("\n---\n", 1)[0]  # the install and test commands, above the first rule


def test_the_first_steps_say_where_the_commands_are() -> None:
    text = " ".join(_first_steps().split())
    assert "`.venv/bin`" in text
    assert ". .venv/bin/activate" in text and "`.venv/bin/chess-actors`" in text


def test_the_first_command_shows_pip_s_progress_and_says_how_long_the_compile_takes() -> None:
    text = " ".join(_first_steps().split())
    assert ".venv/bin/pip install -e . && .venv/bin/chess-actors replay" in text, "no -q: pip shows its steps"
    assert "Building editable for chess-actors (pyproject.toml)" in text
    assert re.search(r"about \w+ minutes on two cores", text)


def test_the_first_steps_say_what_the_test_command_installs_and_how_long_it_takes() -> None:
    text = " ".join(_first_steps().split())
    assert "Ray and Playwright" in text
    assert re.search(r"about \d+ minutes as a whole command on two cores", text)
    assert "pip install -q -e '.[test,cluster,docs]' && .venv/bin/python -m pytest" in text
