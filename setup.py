"""Build hook: compile the rules core (``board/``) with mypyc when it can, else leave it pure Python.

The project's metadata lives in pyproject.toml; this file only adds the compiled modules. They are
built when mypyc is importable, a C compiler works and ``CHESS_ACTORS_PURE=1`` is not set; any
failure on the way leaves the pure-Python package, which is always installed beside them (board's
``__init__``, never compiled, picks the build at import: see ``board.BUILD``). The actor shell
(``actors/``) is never compiled.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _note(message: str) -> None:
    sys.stderr.write(f"chess-actors build: {message}\n")


def _compiled_modules() -> list[Any]:
    """The extension modules of board/ built by mypyc, or none (pure Python)."""
    if os.environ.get("CHESS_ACTORS_PURE") == "1":
        _note("CHESS_ACTORS_PURE=1: the rules core stays pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _note("mypyc is not available: the rules core stays pure Python")
        return []
    sources = sorted(
        str(path.relative_to(ROOT)) for path in (ROOT / "board").rglob("*.py") if _compilable(path)
    )
    _note(f"compiling {len(sources)} modules of the rules core with mypyc"
          " (about three minutes on two cores)")
    try:
        # One shared library named after the package (board__mypyc), which board's __init__ looks for.
        return list(mypycify(sources, opt_level="3", debug_level="0", group_name="board"))
    except Exception as error:  # mypyc refusing a module must not stop the install
        _note(f"mypyc could not translate the rules core ({error}); it stays pure Python")
        return []


def _compilable(path: Path) -> bool:
    """Whether a module of board/ is compiled: not a package's ``__init__`` nor ``board.lazy`` (they
    run while the build is being picked), not the errors, and none that defines a dataclass mypyc
    would make native. Bulk replay's workers and Ray's nodes pickle verdicts, games, moves, geometries
    and errors, and mypyc's native frozen dataclasses cannot be unpickled (their state is set back
    through the frozen ``__setattr__``). A module whose every dataclass is marked
    ``@mypyc_attr(native_class=False)`` is compiled all the same: its functions run as C, its values
    stay plain Python classes. The move generator, positions, move geometry, FEN, SAN and the PGN
    lexer, where the time goes, are compiled."""
    if path.name in ("__init__.py", "lazy.py", "errors.py"):
        return False
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return all(number > 0 and lines[number - 1].startswith(PLAIN_CLASS)
               for number, line in enumerate(lines) if line.startswith("@dataclass"))


PLAIN_CLASS = "@mypyc_attr(native_class=False)"
"""The decorator, written on the line above ``@dataclass``, that keeps a compiled module's value a
plain Python class."""


class OptionalBuildExt(build_ext):
    """Build the compiled modules if a C compiler can; otherwise install none of them."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, missing headers, a failed link: fall back whole
            _note(f"compiling the rules core failed ({error}); it stays pure Python")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []


setup(ext_modules=_compiled_modules(), cmdclass={"build_ext": OptionalBuildExt})
