"""The rules of chess as pure functions and values: squares, move geometry, positions, FEN,
legal moves, game end, notation, PGN, perft, and the knight puzzles. No threads, no I/O.

An installation may hold this package twice: as Python source and, beside it, compiled with mypyc
(one extension module per source module). Python imports the compiled one first; this module, which
is never compiled, decides when the source must be used instead: when ``CHESS_ACTORS_PURE=1`` asks
for it, or when a source file is newer than its compiled module (an edited editable install).
:data:`BUILD` says which is running.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES

_HERE = os.path.dirname(os.path.abspath(__file__))

SHARED_LIBRARY = "board__mypyc"
"""The top-level module holding the compiled code (setup.py names mypyc's group after the package)."""


def compiled_state(root: str = _HERE) -> str:
    """How the package in ``root`` should run: 'compiled'; 'pure' (it has no compiled modules);
    'asked' (pure, as ``CHESS_ACTORS_PURE=1`` asks); 'stale' (pure: a source file is newer than its
    compiled module); 'orphaned' (pure: the compiled modules' shared library cannot be found)."""
    suffix = EXTENSION_SUFFIXES[0]
    compiled = []
    for folder in (root, os.path.join(root, "knights")):  # the package's two source folders
        try:
            compiled += [os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(suffix)]
        except OSError:
            continue
    if not compiled:
        return "pure"
    if os.environ.get("CHESS_ACTORS_PURE") == "1":
        return "asked"
    for module in compiled:
        try:
            if os.stat(module[: -len(suffix)] + ".py").st_mtime > os.stat(module).st_mtime:
                return "stale"
        except OSError:
            continue
    if root == _HERE:
        from importlib.util import find_spec

        if find_spec(SHARED_LIBRARY) is None:  # the compiled modules cannot load without it
            return "orphaned"
    return "compiled"


class _SourceFirst:
    """A meta path finder that gives this package's modules from their source files."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> object:
        if not name.startswith(__name__ + "."):
            return None
        from importlib.util import spec_from_file_location

        base = os.path.join(_HERE, *name.split(".")[1:])
        if os.path.isfile(base + ".py"):
            return spec_from_file_location(name, base + ".py")
        package = os.path.join(base, "__init__.py")
        if os.path.isfile(package):
            return spec_from_file_location(name, package, submodule_search_locations=[base])
        return None


_STATE = compiled_state()
if _STATE in ("asked", "stale", "orphaned"):
    sys.meta_path.insert(0, _SourceFirst())  # type: ignore[arg-type]

BUILD: str = "compiled" if _STATE == "compiled" else "pure"
"""Which build of the rules core is running: 'compiled' (mypyc) or 'pure' (Python source)."""

BUILD_NOTE: str = {
    "compiled": "compiled with mypyc",
    "pure": "pure Python",
    "asked": "pure Python, as CHESS_ACTORS_PURE=1 asks",
    "stale": "pure Python: the source is newer than the compiled modules (reinstall to compile)",
    "orphaned": f"pure Python: the compiled modules' {SHARED_LIBRARY} cannot be found (reinstall to compile)",
}[_STATE]
"""One line for ``chess-actors --version``: the build, and why pure Python when it could be compiled."""
