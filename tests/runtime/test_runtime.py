"""The runtime knows no chess: actors that are not chess at all run on it, and it imports nothing above it.

The runtime is ``actors.kernel``: actors with stable names, asks with timeouts, tells, crashes, fencing,
the delivery turnstile, the network's links, and an instrument that sees every message. It may import
the standard library, pykka, itself, and the project's errors (``board.errors``), nothing else, not
even for type checking.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, assert_never

import pytest

from actors.kernel.actor import TracedActor, fence
from actors.kernel.control import Armed, Crash, CrashOnNext, Ping, Pong
from actors.kernel.errors import ActorTimeout, ActorUnavailable
from actors.kernel.instrument import Instrument, Visit
from actors.kernel.messaging import Caller, Directory, Envelope, ask, post, tell, wait_one
from actors.kernel.policies import Fifo
from actors.kernel.schedule import Turnstile

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "actors" / "kernel"
ALLOWED_PROJECT_MODULES = ("actors.kernel", "board.errors")


def _imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every module ``path`` imports, at module level, in functions and for type checking alike."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the package
                base = "actors.kernel" if node.level == 1 else "actors"
                yield node.lineno, f"{base}.{node.module}" if node.module else base
            elif node.module is not None:
                yield node.lineno, node.module


def test_the_runtime_imports_only_the_standard_library_pykka_itself_and_the_projects_errors() -> None:
    found = sorted(KERNEL.glob("*.py"))
    assert len(found) > 10, "the runtime's modules are where this test looks"
    upward = []
    for path in found:
        for line, module in _imports(path):
            top = module.split(".")[0]
            if top in ("actors", "board"):
                if not any(module == allowed or module.startswith(allowed + ".")
                           for allowed in ALLOWED_PROJECT_MODULES):
                    upward.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
            elif top not in sys.stdlib_module_names and top not in ("pykka", "__future__"):
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not upward, "\n".join(upward)


def test_importing_the_runtime_loads_no_chess_protocol_or_tracing() -> None:
    program = (
        "import sys, pkgutil, importlib, actors.kernel as k\n"
        "for info in pkgutil.iter_modules(k.__path__):\n"
        "    importlib.import_module('actors.kernel.' + info.name)\n"
        "print('\\n'.join(sorted(m for m in sys.modules if m.split('.')[0] in ('actors', 'board'))))\n"
    )
    loaded = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT,
                            check=True).stdout.split()
    assert "actors.kernel.actor" in loaded and "actors.kernel.schedule" in loaded
    others = [name for name in loaded if name not in ("actors", "board", "board.errors", "board.lazy")
              and not name.startswith("actors.kernel")]
    assert not others, f"the runtime loaded {others}"


# -- actors that are not chess ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Add:
    amount: int


@dataclass(frozen=True, slots=True)
class Total:
    pass


@dataclass(frozen=True, slots=True)
class Forward:
    """Ask the counter called ``to`` to add ``amount``, and answer its total."""

    to: str
    amount: int


@dataclass(frozen=True, slots=True)
class Block:
    """Take no more mail until ``gate`` opens."""

    gate: threading.Event


Request = Add | Total | Forward | Block


class Counter(TracedActor[Request]):
    """Keeps a running total; forwards additions to another counter when asked to."""

    def __init__(self, name: str, directory: Directory, instrument: Instrument | None = None,
                 timeout: float = 2.0) -> None:
        super().__init__(name, directory, instrument, timeout)
        self.total = 0

    def handle(self, message: Request) -> object:
        match message:
            case Add(amount=amount):
                self.total += amount
                return None  # a tell
            case Total():
                return self.total
            case Forward(to=to, amount=amount):
                self.tell(to, Add(amount))
                return self.ask_one(to, Total())
            case Block(gate=gate):
                gate.wait()
                return None
            case _:
                assert_never(message)


@dataclass
class SeenVisit:
    """The smallest visit an instrument can hand out: what happened to one message."""

    instrument: Notebook
    msg_id: int
    parent_id: int | None
    sender: str
    receiver: str
    kind: str
    ply: int | None = None
    t_sent: int = 0
    game: int | None = None
    phase: str | None = None
    hint: str | None = None
    sender_node: str | None = None
    answer: object = "(told)"

    def begin(self) -> SeenVisit:
        return self

    def replied(self, answer: object) -> None:
        self.answer = answer
        self.instrument.finish(self)

    def done(self) -> None:
        self.instrument.finish(self)


@dataclass
class Notebook:
    """An instrument that is not the project's tracer: it notes each message, who caused it, and its end."""

    finished: list[SeenVisit] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    last: int = 0

    def post(self, sender: str, receiver: str, message: object, *, parent: Visit | None = None,
             ply: int | None = None, hint: str | None = None) -> SeenVisit:
        with self.lock:
            self.last += 1
            number = self.last
        return SeenVisit(self, number, None if parent is None else parent.msg_id, sender, receiver,
                         type(message).__name__, ply)

    def carried(self, message: object, msg_id: int, parent_id: int | None, sender: str, receiver: str,
                ply: int | None, t_sent: int, game: int | None, phase: str | None, hint: str | None,
                sender_node: str | None) -> SeenVisit:
        return SeenVisit(self, msg_id, parent_id, sender, receiver, type(message).__name__, ply)

    def finish(self, visit: SeenVisit) -> None:
        with self.lock:
            self.finished.append(visit)


@pytest.fixture
def counters() -> Iterator[tuple[Directory, Notebook]]:
    """Two counters, ``a`` and ``b``, watched by a notebook; stopped after the test."""
    directory, notebook = Directory(), Notebook()
    for name in ("a", "b"):
        directory.register(name, Counter.start(name, directory, notebook))
    yield directory, notebook
    for ref in directory.clear():
        ref.stop()


def _ask(directory: Directory, name: str, message: object, instrument: Instrument | None = None) -> Any:
    envelope: Envelope = post(instrument, "client", name, message)
    return wait_one(*ask(directory.ref(name), name, envelope), timeout=2.0)


def test_actors_that_are_not_chess_answer_asks_and_take_tells(counters: tuple[Directory, Notebook]) -> None:
    directory, notebook = counters
    tell(directory.ref("a"), post(notebook, "client", "a", Add(3)))
    assert _ask(directory, "a", Forward("b", 4), notebook) == 4
    assert _ask(directory, "a", Total(), notebook) == 3
    assert _ask(directory, "b", Ping()) == Pong()


def test_the_instrument_sees_every_message_with_its_cause(counters: tuple[Directory, Notebook]) -> None:
    directory, notebook = counters
    _ask(directory, "a", Forward("b", 5), notebook)
    seen = {visit.kind: visit for visit in notebook.finished}
    assert set(seen) == {"Forward", "Add", "Total"}
    forward = seen["Forward"]
    assert (forward.sender, forward.receiver, forward.parent_id, forward.answer) == ("client", "a", None, 5)
    assert seen["Add"].parent_id == seen["Total"].parent_id == forward.msg_id
    assert (seen["Add"].answer, seen["Total"].answer) == ("(told)", 5)


def test_a_caller_asks_by_name_traced_as_its_sender_and_refuses_a_reply_of_another_type(
    counters: tuple[Directory, Notebook],
) -> None:
    directory, notebook = counters
    caller = Caller("client", notebook, 2.0, directory.ref)
    caller.tell("a", Add(3))
    assert caller.wait(caller.send("a", Total())) == 3
    assert caller.call("b", Ping(), Pong) == Pong()
    seen = {(visit.sender, visit.receiver, visit.kind) for visit in notebook.finished}
    assert {("client", "a", "Add"), ("client", "a", "Total"), ("client", "b", "Ping")} <= seen
    with pytest.raises(ActorUnavailable, match="b answered Pong, not Armed"):
        caller.call("b", Ping(), Armed)
    with pytest.raises(ActorUnavailable, match="nobody is not running"):
        caller.send("nobody", Ping())


def test_a_crashed_actor_fails_its_asker_and_takes_no_more_mail(counters: tuple[Directory, Notebook]) -> None:
    directory, _ = counters
    assert _ask(directory, "b", CrashOnNext("Total")) == Armed("Total")
    with pytest.raises(ActorUnavailable, match="b crashed"):
        _ask(directory, "b", Total())
    with pytest.raises(ActorUnavailable, match="b is not running"):
        _ask(directory, "b", Total())
    with pytest.raises(ActorUnavailable, match="b is not running"):
        _ask(directory, "a", Forward("b", 1))  # the peer's trouble, reported to the asker
    with pytest.raises(ActorUnavailable):
        _ask(directory, "a", Crash())


def test_an_ask_that_is_never_answered_times_out() -> None:
    directory, gate = Directory(), threading.Event()
    directory.register("asker", Counter.start("asker", directory, None, 0.2))
    directory.register("busy", Counter.start("busy", directory))
    try:
        tell(directory.ref("busy"), post(None, "client", "busy", Block(gate)))  # busy until the gate opens
        with pytest.raises(ActorTimeout, match=r"busy did not answer within 0\.2 s"):
            _ask(directory, "asker", Forward("busy", 1))
    finally:
        gate.set()
        for ref in directory.clear():
            ref.stop()


def test_a_fenced_incarnation_sends_nothing(counters: tuple[Directory, Notebook]) -> None:
    directory, notebook = counters
    fence(directory.ref("a"))
    with pytest.raises(ActorUnavailable, match="a was replaced"):
        _ask(directory, "a", Forward("b", 2), notebook)
    assert _ask(directory, "b", Total()) == 0
    fenced = [visit.kind for visit in notebook.finished if visit.sender == "a"]
    assert fenced == ["Fenced", "Fenced"]  # the Add it told, and the Total it asked


def test_the_turnstile_runs_actors_that_are_not_chess_one_delivery_at_a_time() -> None:
    directory, turnstile = Directory(), Turnstile(Fifo())
    directory.turnstile = turnstile
    for name in ("a", "b"):
        directory.register(name, Counter.start(name, directory))
    try:
        for amount in (1, 2, 3):
            assert _ask(directory, "a", Forward("b", amount)) == sum(range(1, amount + 1))
        # One ply of work each time, in arrival order: a takes the request, b the tell then the ask,
        # and a resumes with b's reply.
        assert [step.what for step in turnstile.steps[:4]] == [
            "a <- client: Forward(to='b', amount=1) (sender waits for reply)",
            "b <- a: Add(amount=1) (sender waits for nothing)",
            "b <- a: Total() (sender waits for reply)",
            "a resumes (reply in from b)",
        ]
        assert [step.actor for step in turnstile.steps] == ["a", "b", "b", "a"] * 3
    finally:
        for ref in directory.clear():
            ref.stop()
        turnstile.close()
