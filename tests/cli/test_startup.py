"""Small commands start fast: ``color`` and ``knight path`` never import pykka, rich, structlog,
asyncio (the live studio's server alone needs it), websockets or Ray; ``--version`` not even the
installed metadata or the rules.

Not a timing test (timings flake on a busy machine): it checks what the interpreter has loaded.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("pykka", "rich", "structlog", "asyncio", "websockets", "ray")

# Runs the command line in-process, then prints which of the watched modules it loaded (after its output).
PROBE = """
import sys
from actors.cli import main
status = main(sys.argv[1:])
print("loaded:", ",".join(name for name in {watched!r} if name in sys.modules))
sys.exit(status)
"""


def loaded_by(
    *args: str, watched: tuple[str, ...] = HEAVY
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Run the command line with ``args`` in a fresh interpreter; return it and the ``watched`` modules
    it loaded."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(watched=watched), *args],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
    )
    last = result.stdout.splitlines()[-1]
    assert last.startswith("loaded:"), result.stdout + result.stderr
    return result, [name for name in last.removeprefix("loaded:").strip().split(",") if name]


def test_color_imports_no_actor_logging_or_terminal_library() -> None:
    result, heavy = loaded_by("color", "d3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "light"
    assert heavy == [], f"'color' imported {heavy}"


def test_building_the_parser_imports_nothing_heavy() -> None:
    result = subprocess.run(
        [sys.executable, "-c",
         "import sys; from actors.cli import build_parser; build_parser(); "
         f"print([name for name in {HEAVY!r} if name in sys.modules])"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_knight_path_imports_no_actor_logging_or_terminal_library() -> None:
    result, heavy = loaded_by("knight", "path", "g2", "a8")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "4"
    assert heavy == [], f"'knight path' imported {heavy}"


def test_version_loads_neither_the_installed_metadata_nor_a_subcommand_s_work() -> None:
    result, loaded = loaded_by("--version", watched=("importlib.metadata", "pykka", "board.rules"))
    assert result.returncode == 0, result.stderr
    assert loaded == []
