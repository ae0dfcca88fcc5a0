"""The code base stays lint-clean and type-checks under ``mypy --strict``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
