"""The public surface: every public name importable from its package root, written there once, loaded only
when asked for (so that the command line starts no slower than its modules alone), and documented on a
page of the API reference, which documents nothing else."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import actors
import actors.protocol
import board
import board.games
import board.notation
import board.puzzles
import board.rules
from board.lazy import written_names

ROOTS = [actors, board, board.rules, board.notation, board.games, board.puzzles]
ROOT_IDS = [package.__name__ for package in ROOTS]
PACKAGES = [*ROOTS, actors.protocol]  # the protocol's messages are imported eagerly: it needs no table
PACKAGE_IDS = [package.__name__ for package in PACKAGES]

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference"
# A reference entry: "::: actors.ActorGame" on a line of its own.
ENTRY = re.compile(r"^::: *([\w.]+) *$", re.M)


@pytest.mark.parametrize("package", PACKAGES, ids=PACKAGE_IDS)
def test_every_public_name_is_importable_from_the_package_root(package: ModuleType) -> None:
    names = package.__all__
    assert names and len(names) == len(set(names)), "a public name listed twice"
    for name in names:
        assert getattr(package, name) is not None, name


@pytest.mark.parametrize("package", ROOTS, ids=ROOT_IDS)
def test_a_root_writes_each_public_name_once_as_an_import_of_its_type_checking_block(
    package: ModuleType,
) -> None:
    tree = ast.parse(Path(package.__file__ or "").read_text(encoding="utf-8"))
    block = [node for node in tree.body
             if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    assert len(block) == 1, "the public names are the imports of one TYPE_CHECKING block"
    imported = [alias for node in block[0].body if isinstance(node, ast.ImportFrom) for alias in node.names]
    # an import not written "name as name" would be seen by mypy and missing at run time
    assert all(alias.asname == alias.name for alias in imported), [alias.name for alias in imported]
    assert [alias.name for alias in imported] == package.__all__
    assigned = {target.id for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                if isinstance(target, ast.Name)}
    assert "__all__" not in assigned, "__all__ is read from the block, not written a second time"
    for name, home in written_names(Path(package.__file__ or "").read_text(encoding="utf-8")).items():
        assert getattr(package, name) is getattr(importlib.import_module(home), name), name


def test_the_messages_are_under_the_protocol_and_only_the_verdicts_at_the_root() -> None:
    assert set(actors.__all__) & set(actors.protocol.__all__) == {"Accepted", "Rejected", "Verdict"}
    assert {"MoveQuery", "Survey", "Record", "Ping"} <= set(actors.protocol.__all__)
    with pytest.raises(ImportError):
        from actors import MoveQuery  # type: ignore[attr-defined]  # noqa: F401


def test_importing_the_package_roots_reads_no_table_of_names() -> None:
    # the table is read from each root's source when a public name is first asked for, not on import
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, actors, board, board.rules; print('ast' in sys.modules)"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
    ).stdout.strip()
    assert loaded == "False"


def _entries() -> dict[str, list[str]]:
    """Each reference page's entries (``::: actors.ActorGame``), by page."""
    pages = sorted(REFERENCE.glob("*.md"))
    return {page.name: ENTRY.findall(page.read_text(encoding="utf-8")) for page in pages}


def test_the_reference_documents_only_names_of_the_public_packages() -> None:
    public = {package.__name__: set(package.__all__) for package in PACKAGES}
    stray = []
    for page, paths in _entries().items():
        for path in paths:
            module, _, name = path.rpartition(".")
            if name not in public.get(module, ()):
                stray.append(f"{page}: {path}")
    assert stray == [], f"entries that are not a public package's public name: {stray}"


def test_every_public_name_is_documented_once_on_a_reference_page() -> None:
    # A root's name may be documented where another public package exports the same object under the
    # same name (board.Position is documented once, not again as board.rules.Position).
    paths = [path for entries in _entries().values() for path in entries]
    assert len(paths) == len(set(paths)), "an entry written twice"
    documented: dict[str, list[object]] = {}
    for path in paths:
        module, _, name = path.rpartition(".")
        documented.setdefault(name, []).append(getattr(importlib.import_module(module), name))
    missing = [f"{package.__name__}.{name}" for package in PACKAGES for name in package.__all__
               if not any(value is getattr(package, name) for value in documented.get(name, ()))]
    assert missing == [], f"public names on no reference page: {missing}"
    twice = [name for name, values in documented.items()
             if len({id(value) for value in values}) < len(values)]
    assert twice == [], f"documented twice: {twice}"


def test_the_names_a_new_user_reaches_for_come_from_the_roots() -> None:
    from actors import Accepted, ActorGame, CheckMoveSession, Rejected, SystemPool, TraceRecorder
    from actors.game.game import ActorGame as DefinedGame
    from board import STARTING_FEN, Game, Position

    assert ActorGame is DefinedGame
    assert [cls.__name__ for cls in (Accepted, Rejected, SystemPool, CheckMoveSession, TraceRecorder)] == [
        "Accepted", "Rejected", "SystemPool", "CheckMoveSession", "TraceRecorder"
    ]
    game = Game()
    assert isinstance(game.position, Position) and game.fen() == STARTING_FEN


@pytest.mark.parametrize("package", ROOTS[2:], ids=ROOT_IDS[2:])
def test_no_public_name_of_a_board_package_is_also_one_of_its_modules(package: ModuleType) -> None:
    # Importing a submodule binds its name on the package, so a public name spelt the same would
    # change meaning once that module is loaded.
    folder = Path(package.__file__ or "").parent
    modules = {path.stem for path in folder.glob("*.py")} | {path.name for path in folder.glob("*/")}
    assert modules, f"no modules found beside {package.__file__}"
    assert set(package.__all__) & modules == set()


def test_a_board_package_name_is_the_object_its_module_defines() -> None:
    from board.notation.algebraic import san
    from board.puzzles.knights.path import shortest_path
    from board.rules.position import Position

    assert (board.rules.Position, board.notation.san, board.puzzles.shortest_path) == (
        Position, san, shortest_path
    )


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nonesuch'"):
        actors.Nonesuch  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(ImportError):
        from board import Nonesuch  # type: ignore[attr-defined]  # noqa: F401


def _written_docstring(value: object) -> str:
    """The docstring in the source, for a class compiled with mypyc (which keeps no class docstring)."""
    module = sys.modules[value.__module__]  # type: ignore[attr-defined]
    path = Path(module.__file__ or "")
    source = path.with_name(path.name.split(".")[0] + ".py")
    if not source.is_file():
        return ""
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name == value.__name__:  # type: ignore[attr-defined]
            return ast.get_docstring(node) or ""
    return ""


@pytest.mark.parametrize("package", PACKAGES, ids=PACKAGE_IDS)
def test_every_public_class_and_function_says_what_it_does(package: object) -> None:
    undocumented = []
    for name in package.__all__:  # type: ignore[attr-defined]
        value = getattr(package, name)
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue  # constants and type aliases are documented where they are defined
        text = inspect.getdoc(value) or _written_docstring(value)
        # A dataclass with no docstring of its own gets its signature as one.
        if not text.strip() or text.startswith(f"{name}("):
            undocumented.append(name)
        if inspect.isclass(value):
            for member, attribute in vars(value).items():
                public = not member.startswith("_")
                method = inspect.isfunction(attribute) or isinstance(attribute, property)
                if public and method and not (attribute.__doc__ or "").strip():
                    undocumented.append(f"{name}.{member}")
    assert undocumented == []


def _project_modules_after(code: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(sorted(sys.modules))"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
    )
    loaded = eval(result.stdout.splitlines()[-1])  # a list literal printed just above
    return {name for name in loaded if name.split(".")[0] in {"actors", "board", "pykka", "structlog"}}


def test_importing_the_command_line_loads_only_its_own_small_modules() -> None:
    assert _project_modules_after("import actors.cli") == {
        "actors", "actors.cli", "actors.cli.streams", "actors.cli.terminal_text", "board", "board.errors",
        "board.lazy",
    }


def test_a_plain_replay_loads_none_of_the_modules_only_the_package_root_names() -> None:
    loaded = _project_modules_after(
        "import contextlib, io\nfrom actors.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['replay'])"
    )
    assert "actors.game.game" in loaded  # it did replay with the actors
    for unused in ("actors.studio", "actors.study.runner", "actors.tracing.mermaid", "actors.kernel.hive",
                   "board.puzzles.knights.tour", "board.svg", "board.rules.perft"):
        assert unused not in loaded


def test_propose_many_has_judged_every_move_when_it_returns() -> None:
    with actors.ActorGame() as game:
        replies = game.propose_many(["e4", "e5", "Ke3", "Nf3"])
        assert game.plies == 2
        assert [type(reply).__name__ for reply in replies] == ["Accepted", "Accepted", "Rejected"]


def test_stream_proposals_sends_nothing_until_read() -> None:
    with actors.ActorGame() as game:
        replies = game.stream_proposals(["e4", "e5"])
        assert game.plies == 0
        assert [reply.san for reply in replies] == ["e4", "e5"]  # type: ignore[union-attr]
        assert game.plies == 2


def test_a_recorder_says_what_it_holds() -> None:
    recorder = actors.TraceRecorder()
    assert repr(recorder) == "<TraceRecorder empty>"
    with actors.ActorGame(recorder=recorder) as game:
        game.propose_many(["e4", "e5"])
    text = repr(recorder)
    kinds = recorder.counts_by_kind()
    assert text.startswith(f"<TraceRecorder {len(recorder):,} messages, plies 1-2; kinds: ")
    first = next(iter(kinds))
    assert f"{first} {kinds[first]:,}" in text


@pytest.mark.parametrize("package", [actors, board], ids=["actors", "board"])
def test_every_public_function_with_arguments_says_what_they_are_and_what_it_returns(package: object) -> None:
    vague = []
    for name in package.__all__:  # type: ignore[attr-defined]
        value = getattr(package, name)
        if inspect.isfunction(value) and inspect.signature(value).parameters:
            text = inspect.getdoc(value) or _written_docstring(value)
            if "Args:" not in text or ("Returns:" not in text and "Yields:" not in text):
                vague.append(name)
    assert vague == []
