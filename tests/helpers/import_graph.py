"""The import graph of the project's packages, read from the source: every import statement counts.

The rules' and the actors' import tests share it: a function-level import hides a circle, it does
not remove it; imports under ``if TYPE_CHECKING:`` are left out unless asked for.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "board"


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` (a package by its ``__init__.py``)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


BOARD_MODULES = {module_name(path): path for path in sorted(BOARD.rglob("*.py"))}
"""Every module of board/, by dotted name."""


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def import_statements(tree: ast.AST, type_only: bool = False) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, wherever it stands; those under ``if TYPE_CHECKING:`` only
    with ``type_only``."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if not type_only and _is_type_checking_block(node):
            assert isinstance(node, ast.If)
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def modules_loaded(
    node: ast.Import | ast.ImportFrom, importer: str, modules: dict[str, Path] = BOARD_MODULES
) -> set[str]:
    """The modules of ``modules`` (board's by default) one import statement loads (``from board.x
    import y`` may load board.x.y)."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    base = node.module or ""
    if node.level:
        package = importer.split(".")
        if modules[importer].name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, base] if base else package)
    targets = {base} if base in modules else set()
    targets |= {f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules}
    return targets


def import_graph(modules: dict[str, Path] = BOARD_MODULES, type_only: bool = False) -> dict[str, set[str]]:
    """For each module of ``modules`` (board's by default), the modules of it it imports at run time
    (and with ``type_only``, for type checking too)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found = (modules_loaded(node, name, modules) for node in import_statements(tree, type_only))
        graph[name] = set().union(*found) - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a list of modules (first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == 1:
                return [*path[path.index(imported) :], imported]
            if imported not in state:
                found = visit(imported)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None
