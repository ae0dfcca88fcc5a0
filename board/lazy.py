"""Public names loaded on first use: the module hooks (PEP 562) every package root of the project shares.

A package root writes its public names once, as the imports of its ``if TYPE_CHECKING:`` block, each
in the re-exporting form ``from board.rules.position import Position as Position`` (what mypy and
readers see), and takes its ``__getattr__`` and ``__dir__`` from :func:`lazy_names`, which reads that
block from the package's source the first time a public name (or ``__all__``) is asked for. So
``import board`` costs only the package itself, and a name costs its module the first time it is read.
Never compiled (it runs while a package is being imported, before ``board`` has chosen its build).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_names", "written_names"]


def written_names(source: str) -> dict[str, str]:
    """Each name a package root re-exports, with the module that defines it, in the order written.

    Args:
        source: the text of the package's ``__init__.py``.

    Returns:
        Every ``name`` of a ``from module import name as name`` in the module's top-level
        ``if TYPE_CHECKING:`` block, mapped to ``module``.
    """
    import ast  # only when a public name is first read: the package's import does not pay for it

    names: dict[str, str] = {}
    for statement in ast.parse(source).body:
        if not (
            isinstance(statement, ast.If)
            and isinstance(statement.test, ast.Name)
            and statement.test.id == "TYPE_CHECKING"
        ):
            continue
        for line in statement.body:
            if isinstance(line, ast.ImportFrom) and line.module and line.level == 0:
                names.update({alias.name: line.module for alias in line.names if alias.asname == alias.name})
    return names


def lazy_names(package: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, to be assigned at its module level.

    Args:
        package: the package's ``__name__`` (it must be in the middle of being imported); its public
            names are those its ``if TYPE_CHECKING:`` block imports as themselves.

    Returns:
        ``__getattr__``, which gives ``__all__`` (the public names in the order written) or imports a
        public name's module, keeps the name in the package and returns it (raising
        ``AttributeError`` for any other name); and ``__dir__``.
    """
    module = sys.modules[package]
    namespace = module.__dict__
    sources: dict[str, str] = {}

    def public() -> dict[str, str]:
        if not sources:
            spec = module.__spec__
            loader = spec.loader if spec is not None else None
            text = loader.get_source(package) if loader is not None else None  # type: ignore[attr-defined]
            if text is None:
                raise ImportError(f"the public names of {package!r} are read from its source, missing here")
            sources.update(written_names(text))
        return sources

    def __getattr__(name: str) -> Any:
        if name == "__all__":
            value: Any = list(public())
        elif name.startswith("__") or (home := public().get(name)) is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        else:
            value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *public()})

    return __getattr__, __dir__
