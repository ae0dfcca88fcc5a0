"""The actor shell has no import circle, and its layers are kept: every import points down a layer
(or stays in its own), never up, type-only imports included; tracing knows nothing of the studio page.

Every import statement counts, wherever it stands (a function-level import hides a circle, it does
not remove it); only imports under ``if TYPE_CHECKING:`` are left out, as they never run.
"""

from __future__ import annotations

from tests.helpers.import_graph import ROOT, find_cycle, import_graph, module_name

ACTORS = {module_name(path): path for path in sorted((ROOT / "actors").rglob("*.py"))}
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
    assert "actors.game.moves" in GRAPH["actors.game.replay"]  # a function-level import
    assert "actors.kernel.messaging" in GRAPH["actors.kernel.actor"]


# -- layers: every import points down (or across a layer), never up, type-only imports included

LAYERS = {
    "board": 0,  # the rules of chess, under everything
    "actors.examples": 0,  # the scenarios shipped with the package (data, and where to find it)
    "actors.kernel": 1,  # the runtime, which knows no chess
    "actors.protocol": 1,  # the messages
    "actors.tracing": 2,  # what watches the runtime
    "actors.roles": 2,  # the piece, board, referee, journal actors and the supervisor
    "actors.game": 3,  # one game: the game, a session, moves, replays of one game, the pool games borrow
    "actors.study": 4,  # delivery orders explored, faults searched, scenarios and the shell
    "actors.studio": 4,  # the page, offline and live
    "actors.clusters": 4,  # many games and processes: bulk replay, nodes over Ray, clusters
    "actors.cli": 5,  # the command line
    "actors": 6,  # the package's public names, loaded when first asked for
}
"""The layers, lowest first: a module may import from its own layer and the ones below it."""

EVERY = {**ACTORS, **{module_name(path): path for path in sorted((ROOT / "board").rglob("*.py"))}}
EVERY_IMPORT = import_graph(EVERY, type_only=True)


def _layer(module: str) -> tuple[str, int]:
    owner = max((name for name in LAYERS if module == name or module.startswith(name + ".")), key=len)
    return owner, LAYERS[owner]


def test_every_module_has_a_layer() -> None:
    assert all(_layer(module) for module in EVERY)


def test_no_import_points_up_a_layer_type_only_imports_included() -> None:
    upward = []
    for module, imported_modules in sorted(EVERY_IMPORT.items()):
        owner, rank = _layer(module)
        for imported in sorted(imported_modules):
            other, other_rank = _layer(imported)
            if other_rank > rank:
                upward.append(f"{module} ({owner}) -> {imported} ({other})")
    assert not upward, "imports up a layer:\n" + "\n".join(upward)


def test_no_import_circle_type_only_imports_included() -> None:
    cycle = find_cycle(EVERY_IMPORT)
    assert cycle is None, "import circle (type-only imports counted): " + " -> ".join(cycle or [])


def test_the_layer_check_sees_type_only_and_function_level_imports() -> None:
    assert "actors.kernel.actor" in EVERY_IMPORT["actors.kernel.schedule"]  # under TYPE_CHECKING
    assert "actors.game.moves" in EVERY_IMPORT["actors.game.replay"]  # inside a function
    assert "board.errors" in EVERY_IMPORT["actors.kernel.errors"]
