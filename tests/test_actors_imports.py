"""The actor shell has no import circle: tracing knows nothing of the studio page, and the kernel's
delivery path, the client and the studio's notebook views import one way.

Every import statement counts, wherever it stands (a function-level import hides a circle, it does
not remove it); only imports under ``if TYPE_CHECKING:`` are left out, as they never run.
"""

from __future__ import annotations

from test_board_imports import ROOT, _module_name, find_cycle, import_graph

ACTORS = {_module_name(path): path for path in sorted((ROOT / "actors").rglob("*.py"))}
GRAPH = import_graph(ACTORS)


def test_the_actors_import_graph_has_no_circle() -> None:
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import circle in actors/: " + " -> ".join(cycle or [])


def test_tracing_imports_nothing_of_the_studio() -> None:
    wrong = [
        f"{module} -> {imported}"
        for module, imported_modules in GRAPH.items()
        if module.startswith("actors.tracing")
        for imported in sorted(imported_modules)
        if imported.startswith("actors.studio")
    ]
    assert not wrong, "tracing reads no page: " + ", ".join(wrong)


def test_the_graph_sees_the_imports_it_must_see() -> None:
    assert "actors.tracing.recorder" in GRAPH["actors.studio.notebook"]
    assert "actors.studio.notebook" in GRAPH["actors.client.game"]  # a function-level import
    assert "actors.kernel.messaging" in GRAPH["actors.kernel.actor"]
