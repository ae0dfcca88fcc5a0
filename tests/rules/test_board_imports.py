"""The rules package has no import circle: each module imports alone, and the graph is acyclic.

Every import statement counts, wherever it stands (a function-level import hides a circle, it
does not remove it); only imports under ``if TYPE_CHECKING:`` are left out, as they never run.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from tests.helpers.import_graph import (
    BOARD_MODULES,
    ROOT,
    find_cycle,
    import_graph,
    import_statements,
    modules_loaded,
)

MODULES = BOARD_MODULES


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
    assert modules_loaded(import_statements(tree)[0], "board.rules.position") == {"board.rules.movegen"}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_board_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, f"import {module} alone fails:\n{result.stderr}"
