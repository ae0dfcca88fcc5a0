"""A student's file made into a role: imported from its path, its one class of the lab's kind
found, and every way that can go wrong said in one line.
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import sys
import traceback
from pathlib import Path

from board.errors import InputError

__all__ = ["PluginError", "load_role"]

_LOADED = itertools.count(1)
"""Each file loaded gets a module name of its own: two students' ``solution.py`` never meet."""


class PluginError(InputError):
    """A student's file cannot be used: it is missing, does not import, or lacks its class."""


def _where_it_raised(error: BaseException, path: Path) -> str:
    """' (line N)' for the last frame of the traceback inside the student's file."""
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__)
             if Path(frame.filename) == path and frame.lineno is not None]
    return f" (line {lines[-1]})" if lines else ""


def load_role(path: str | Path, base: type, name: str | None = None) -> type:
    """The class in the file at ``path`` that derives from ``base`` (the one called ``name`` when
    several do, or when given).

    Raises:
        PluginError: the file is missing or not Python, raises while it is imported (its error and
            line are named), has no such class, or has several and no ``name`` to choose one.
    """
    file = Path(path).resolve()
    if not file.is_file():
        raise PluginError(f"{path}: no such file")
    if file.suffix != ".py":
        raise PluginError(f"{path}: not a Python file (a lab's role is a .py file)")
    module_name = f"chess_actors_lab_{next(_LOADED)}_{file.stem}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise PluginError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look their module up by name
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        sys.modules.pop(module_name, None)
        raise PluginError(f"{path}, line {error.lineno}: a syntax error: {error.msg}") from None
    except Exception as error:
        sys.modules.pop(module_name, None)
        raise PluginError(
            f"{path}: importing it raised {type(error).__name__}{_where_it_raised(error, file)}: {error}"
        ) from None
    found = [
        value for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, base) and value is not base
        and value.__module__ == module_name
    ]
    if name is not None:
        chosen = [value for value in found if value.__name__ == name]
        if not chosen:
            raise PluginError(f"{path}: no class {name} derived from {base.__name__}")
        return chosen[0]
    if not found:
        base_name = base.__name__
        raise PluginError(f"{path}: no class derived from {base_name} (write 'class ...({base_name}):')")
    if len(found) > 1:
        names = ", ".join(sorted(value.__name__ for value in found))
        raise PluginError(f"{path}: several classes derive from {base.__name__} ({names}): name one")
    return found[0]
