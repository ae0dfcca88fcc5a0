"""The rules package has no import circle: each module imports alone, and the graph is acyclic.

Every import statement counts, wherever it stands (a function-level import hides a circle, it
does not remove it); only imports under ``if TYPE_CHECKING:`` are left out, as they never run.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOARD = ROOT / "board"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(BOARD.rglob("*.py"))}


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _runtime_imports(tree: ast.AST, type_only: bool = False) -> list[ast.Import | ast.ImportFrom]:
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


def _board_targets(
    node: ast.Import | ast.ImportFrom, importer: str, modules: dict[str, Path] = MODULES
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


def import_graph(modules: dict[str, Path] = MODULES, type_only: bool = False) -> dict[str, set[str]]:
    """For each module of ``modules`` (board's by default), the modules of it it imports at run time
    (and with ``type_only``, for type checking too)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found = (_board_targets(node, name, modules) for node in _runtime_imports(tree, type_only))
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


def test_the_board_import_graph_has_no_circle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle in board/: " + " -> ".join(cycle or [])


def test_the_graph_sees_the_imports_it_must_see() -> None:
    graph = import_graph()
    assert "board.rules.position" in graph["board.rules.movegen"]
    assert "board.rules.castling" in graph["board.rules.position"]
    assert "board.rules.movegen" not in graph["board.rules.position"]


# What each package may import: arrows point one way (the base modules at the top of board/ first).
MAY_IMPORT = {
    "base": {"base"},
    "rules": {"base", "rules"},
    "notation": {"base", "rules", "notation"},
    "games": {"base", "rules", "notation", "games"},
    "puzzles": {"base", "rules", "puzzles"},
}


PACKAGES = {name for name, path in MODULES.items() if path.name == "__init__.py" and name.count(".") == 1}
"""board's packages (board.rules, ...); the other modules at its top are the base they share."""


def _package_of(module: str) -> str:
    top = ".".join(module.split(".")[:2])
    return top.split(".")[1] if top in PACKAGES else "base"


def test_each_package_imports_only_the_packages_before_it() -> None:
    wrong = [
        f"{module} -> {imported}"
        for module, imported_modules in import_graph().items()
        if module != "board"
        for imported in sorted(imported_modules)
        if imported != "board" and _package_of(imported) not in MAY_IMPORT[_package_of(module)]
    ]
    assert not wrong, "imports against the packages' order: " + ", ".join(wrong)


def test_every_board_module_belongs_to_a_package_or_the_base() -> None:
    assert {_package_of(module) for module in MODULES if module != "board"} == set(MAY_IMPORT)
    assert _package_of("board.errors") == "base"
    assert _package_of("board.rules") == "rules"
    assert _package_of("board.puzzles.knights.tour") == "puzzles"


def test_the_cycle_finder_finds_a_hidden_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_a_function_level_import_is_counted() -> None:
    tree = ast.parse("def key():\n    from board.rules.movegen import legal_en_passant\n")
    assert _board_targets(_runtime_imports(tree)[0], "board.rules.position") == {"board.rules.movegen"}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_board_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, f"import {module} alone fails:\n{result.stderr}"
