"""Public names loaded on first use: the module hooks (PEP 562) every package of the project shares.

A package lists each public name with the module that defines it and asks :func:`lazy_names` for its
``__getattr__`` and ``__dir__``: ``import board`` then costs only the package itself, and a name costs
its module the first time it is read. Never compiled (it runs while a package is being imported,
before ``board`` has chosen its build).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, sources: Mapping[str, str], public: Sequence[str], *, relative: bool = True
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, to be assigned at its module level.

    Args:
        package: the package's ``__name__`` (it must be in the middle of being imported).
        sources: each public name and its module's path inside the package (``"knights.path"`` in
            ``board.puzzles``), or its full dotted path when ``relative`` is False.
        public: the package's ``__all__``.
        relative: whether ``sources`` name modules inside the package.

    Returns:
        ``__getattr__``, which imports a public name's module, keeps the name in the package and
        returns it (raising ``AttributeError`` for any other name), and ``__dir__``.
    """
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        home = sources.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}" if relative else home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *public})

    return __getattr__, __dir__
