"""The steps of a scenario script, as values: what each line asks for, and what running it found.

:mod:`actors.study.script` reads a script's text into these; :mod:`actors.study.runner` runs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from actors.kernel.links import LinkModel
from board.errors import InputError

__all__ = [
    "DIRECTIVE_NAMES",
    "LINK_FAULTS",
    "ORDER_FAULTS",
    "OUTCOMES",
    "SCHEDULES",
    "STEP_NAMES",
    "Crash",
    "Expect",
    "FenCheck",
    "Invariants",
    "Learn",
    "Legal",
    "Lie",
    "LinkFault",
    "MessageFault",
    "Order",
    "OrderEntry",
    "OutcomeCheck",
    "Partition",
    "Play",
    "Reject",
    "Restarts",
    "RoleFile",
    "Scenario",
    "ScenarioError",
    "Send",
    "SquareCheck",
    "Stall",
    "Start",
    "Step",
    "StepResult",
]

OUTCOMES = ("checkmate", "stalemate", "insufficient_material", "fivefold_repetition", "seventyfive_moves",
            "none")
STEP_NAMES = ("start", "play", "reject", "send", "expect", "crash", "stall", "restarts", "square", "legal",
              "fen", "outcome", "learn", "lie", "drop", "duplicate", "delay", "reorder", "partition",
              "invariants")

LINK_FAULTS = ("drop", "duplicate", "delay", "reorder")
"""The steps that befall the next message of a kind on its link (see actors.kernel.network)."""

DIRECTIVE_NAMES = ("schedule", "network", "order", "role")
"""The lines that say how the steps' deliveries run, not steps of their own: ``schedule fifo`` and
``network SPEC`` (at the top) and ``order ...`` (before the step whose deliveries it orders); and
``role ROLE FILE [CLASS]`` (at the top), a class of one's own in place of one of the project's."""

ROLES = ("piece", "board", "referee", "supervisor")
"""The roles a ``role`` line may fill with a class of one's own."""

SCHEDULES = ("fifo",)
"""What ``schedule`` takes: ``fifo``, every delivery one at a time in arrival order under a turnstile."""

ORDER_FAULTS = ("drop", "duplicate")
"""What befalls a delivery named in an ``order`` line (``drop board``): as the shell's ``drop N``."""


class ScenarioError(InputError):
    """A scenario script that cannot be read: the message names the script, the line and the problem."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}, line {line}: {problem}")
        self.source = source
        self.line = line
        self.problem = problem

    def __reduce__(self) -> tuple[type[ScenarioError], tuple[str, int, str]]:
        return type(self), (self.source, self.line, self.problem)


# --- steps ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Start:
    """``start startpos|<FEN>`` or ``start chess960 <N>|<FEN>``: the game starts here (only as the
    first step). ``chess960``: a Chess960 game (its castling is the king taking its own rook in UCI),
    as the ``chess960`` word asks, or as the FEN's castling field says (Shredder-FEN, or X-FEN that
    standard chess refuses)."""

    line: int
    written: str
    fen: str
    chess960: bool = False


@dataclass(frozen=True, slots=True)
class Play:
    """``play <move> [as <SAN>]``, or the move alone (``Nc6``, ``e2e4``): the referee accepts the
    move; a written ``+`` or ``#`` must be in its SAN, and with ``as``, its SAN is exactly that."""

    line: int
    written: str
    move: str
    san: str | None = None


@dataclass(frozen=True, slots=True)
class Reject:
    """``reject <move> ["text"]``: the referee refuses the move, its reason containing the text."""

    line: int
    written: str
    move: str
    reason: str | None


@dataclass(frozen=True, slots=True)
class Send:
    """``send <actor> move <from> <to> [white|black]``: ask a piece actor its move function."""

    line: int
    written: str
    actor: str
    start: str
    end: str
    colour: int | None


@dataclass(frozen=True, slots=True)
class Expect:
    """``expect yes [traversed <square>...] [rule any|empty|enemy]`` or ``expect no ["text"]``: the
    last send's reply (``rule``: its target rule, a pawn's push 'empty', its capture 'enemy')."""

    line: int
    written: str
    yes: bool
    traversed: tuple[str, ...] | None
    reason: str | None
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class Crash:
    """``crash <actor> [on <MessageKind>]``: the actor dies now, or on its next such message."""

    line: int
    written: str
    actor: str
    kind: str | None


@dataclass(frozen=True, slots=True)
class Stall:
    """``stall <actor> [<seconds>]``: the actor answers nothing for that long (default: three ask
    timeouts, long enough for the supervisor to find it silent)."""

    line: int
    written: str
    actor: str
    seconds: float | None


@dataclass(frozen=True, slots=True)
class Restarts:
    """``restarts <n>``: the supervisor has restarted ``n`` actors so far."""

    line: int
    written: str
    count: int


@dataclass(frozen=True, slots=True)
class SquareCheck:
    """``square <sq> empty`` or ``square <sq> <colour> <kind> [<actor>]``: what the board holds there."""

    line: int
    written: str
    square: str
    piece: str | None
    actor: str | None


@dataclass(frozen=True, slots=True)
class Legal:
    """``legal <sq> [<target>...]``: exactly where the piece on ``sq`` may legally go now."""

    line: int
    written: str
    square: str
    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FenCheck:
    """``fen <FEN>``: the position, exactly."""

    line: int
    written: str
    fen: str


@dataclass(frozen=True, slots=True)
class OutcomeCheck:
    """``outcome <name>|none``: how the game stands."""

    line: int
    written: str
    outcome: str | None


@dataclass(frozen=True, slots=True)
class Learn:
    """``learn <square> <geometry>``: the piece on the square learns another move function by name."""

    line: int
    written: str
    square: str
    geometry: str


@dataclass(frozen=True, slots=True)
class LinkFault:
    """``drop|duplicate|delay|reorder next [reply to] <MessageKind>``: the next such message (or its
    reply) is lost, arrives twice, comes late (after it has been sent again) or is overtaken."""

    line: int
    written: str
    fault: str
    kind: str
    reply: bool


@dataclass(frozen=True, slots=True)
class MessageFault:
    """``drop|duplicate|crash <sender> -> <receiver> [reply to] <MessageKind>[<n>]``: the message so
    named (the ``n``-th, from 0, of those the sender sends the receiver from this step on) is lost,
    arrives twice, or its receiver crashes on it; under ``schedule fifo`` only, where a conversation
    names the same message the same way every time (what ``chess-actors explore --network`` writes)."""

    line: int
    written: str
    fault: str
    sender: str
    receiver: str
    reply: bool
    kind: str
    index: int

    def text(self) -> str:
        """The message as the step names it."""
        what = f"reply to {self.kind}" if self.reply else self.kind
        return f"{self.sender} -> {self.receiver} {what}[{self.index}]"


@dataclass(frozen=True, slots=True)
class Invariants:
    """``invariants``: no king has been captured, the board's placement is the one the journal's moves
    give, and every piece answers from the square and with the move function the board holds for it
    (a dead actor is healed first, as the game's next request would)."""

    line: int
    written: str


@dataclass(frozen=True, slots=True)
class Partition:
    """``partition <actor>[+<actor>...] [<actor>[+<actor>...]] <seconds>``: those actors are cut off
    from the rest for a time, or, with a second side (``apart``), from those actors only. On nodes
    a node's name (``node-2``) stands for every actor it runs."""

    line: int
    written: str
    actors: tuple[str, ...]
    seconds: float
    apart: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Lie:
    """``lie [ghost <square> <colour> <kind>]... [hide <square>]...`` or ``lie off``: the board reports
    pieces that are not there (ghosts, as FEN letters by square) and hides the pieces on ``hidden``,
    until the next ``lie``; ``lie off`` makes it truthful again."""

    line: int
    written: str
    ghosts: tuple[tuple[str, str], ...]
    hidden: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OrderEntry:
    """One word of an ``order`` line: the delivery to ``actor`` (the head of its mailbox, or its
    resumption) runs next; with a ``fault`` (``drop`` or ``duplicate``) that delivery is befallen on
    its link instead, and the entries after it choose among what is ready then."""

    actor: str
    fault: str | None = None

    def __str__(self) -> str:
        return self.actor if self.fault is None else f"{self.fault} {self.actor}"


@dataclass(frozen=True, slots=True)
class Order:
    """``order <actor>|drop <actor>|duplicate <actor> ...``: the next step's deliveries, by the actor
    each goes to, in this order (after the list: arrival order)."""

    line: int
    written: str
    entries: tuple[OrderEntry, ...]


Step = (
    Start | Play | Reject | Send | Expect | Crash | Stall | Restarts | SquareCheck | Legal | FenCheck
    | OutcomeCheck | Learn | Lie | LinkFault | Partition | MessageFault | Invariants
)


@dataclass(frozen=True, slots=True)
class RoleFile:
    """``role ROLE FILE [CLASS]``: the game's ``role`` actors are made of the class in ``path`` (a
    path relative to the script's folder; ``CLASS`` when the file has several)."""

    line: int
    role: str
    path: str
    class_name: str | None = None


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed script: where it came from, the position it starts from, its steps in order, and
    whether the game is Chess960 (as its ``start`` step says).

    ``schedule`` is how its deliveries run: None, free actors; ``fifo``, one at a time in arrival
    order under a turnstile (a ``schedule fifo`` line, or any ``order`` line, asks for it).
    ``orders`` holds the ``order`` line before each step, by the step's index in ``steps``.
    ``network`` is the links' model a ``network SPEC`` line gives (None: reliable links, on which a
    step may still choose a fault), as ``--network SPEC`` would."""

    source: str
    start_fen: str
    steps: tuple[Step, ...]
    chess960: bool = False
    schedule: str | None = None
    orders: tuple[tuple[int, Order], ...] = ()
    network: LinkModel | None = None
    roles: tuple[RoleFile, ...] = ()
    """The ``role`` lines: classes of one's own that the game's actors are made of instead."""

    def order_before(self, index: int) -> Order | None:
        """The ``order`` line written before ``steps[index]`` (None: its deliveries run as scheduled)."""
        return next((order for at, order in self.orders if at == index), None)


@dataclass(frozen=True, slots=True)
class StepResult:
    """What running one step found: ``ok``, and what was ``expected`` and what the actors said (``got``)."""

    line: int
    step: str
    ok: bool
    expected: str
    got: str

    def as_json(self) -> dict[str, object]:
        """One line of ``run --json``."""
        return {"line": self.line, "step": self.step, "ok": self.ok, "expected": self.expected,
                "got": self.got}
