"""Searching faults, not sampling them: each ply run once for every message of it faulted (or every pair).

A ply runs on fresh actors under the delivery turnstile in arrival order, so its conversation is the
same every time it runs: a fault point is a message's identity in the ply, :class:`Point` (sender,
receiver, what it carries, its kind, and its index among the messages of that pair of actors), and it
names the same message in every run. :func:`search_ply` runs the ply without a fault, then once for each
point of that run with one fault, as a mode says:

- ``single-loss``: the message is lost once (sent again after the link's timeout, it arrives later);
- ``single-dup``: it arrives twice (the receiving end drops the copy);
- ``lost-for-good``: it is never delivered (the link gives it up: its asker's reply fails with
  ``LinkFailure``, and so does everything after it on that pair);
- ``crash``: its receiver crashes on it instead of handling it (the supervisor heals, the client asks
  again), for every delivery of an ask or a tell.

With two faults, every run of one fault is followed by one run for each pair: the first fault, then a
second at each point the run with the first still sends after it (the points of heals and of messages
sent again included). A pair is named once, by the order in which its messages are sent, and a pair
whose faults cannot interact is pruned, as a sleep set prunes the orders that only swap independent
steps. Actors are deterministic in the messages they are handed, and the turnstile in what is filed
and when, so a run that has made the fault-free run's deliveries, in its order, with nothing else on
its way, is in the fault-free run's state; a second fault from there gives the second fault's own
run, already made and checked. So a pair is pruned when:

- the run with the first fault alone delivered exactly the fault-free run's messages, with the same
  replies, in the same order, and the schedule's clock never moved (a duplicate, always): the first
  fault left nothing behind;
- the first fault is a loss or a duplicate (it changes when a message arrives, never what it says nor
  what answers it), and as the second message is sent the run with the first has made the fault-free
  run's deliveries, in its order, up to that point, with nothing still on its way. Its clock may stand
  later, which decides nothing: a wait times out only an ask's timeout (5 s) after it began, and two
  losses move the clock by at most twice the links' longest wait (0.25 s).

Every run is checked as well as compared: the verdict, SAN and position are the fault-free run's, or
the ply failed with ``LinkFailure``; after every delivery, the invariants of :class:`EveryDelivery`
hold (no king captured, ever; a piece that took a message setting its square stands where the board
holds it; a replaced incarnation changes nothing); after the ply, the board's placement is the one
the journal's moves give, and every piece the ply spoke to (every piece, after a heal) answers from
the square and with the move function the board holds for it. Each run's state is a digest of every
actor's state, to count the distinct states the search reached.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import cast

from actors.game.game import ActorGame
from actors.kernel.errors import ActorFailure, LinkFailure
from actors.kernel.links import FAULT_KINDS, LinkModel
from actors.kernel.policies import Fifo, Step
from actors.kernel.schedule import Turnstile
from actors.kernel.scheduled_links import MessageName, ScheduledLinks
from actors.protocol.piece import Targets, TargetsQuery
from actors.protocol.referee import Accepted
from actors.roles.board import BoardActor
from actors.roles.piece import PieceActor
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import Delivery, TraceRecorder
from board.errors import ChessActorsError, InputError
from board.games.game import Game
from board.rules.geometry import label_of, standard
from board.rules.pieces import KING

__all__ = [
    "MODES", "EveryDelivery", "Fault", "FaultRun", "PlySearch", "Point", "describe", "fault_links",
    "fault_mode",
    "game_invariants", "run_ply", "scenario_text", "search_ply",
]

MODES = {"single-loss": "drop", "single-dup": "duplicate", "lost-for-good": "lose", "crash": "crash"}
"""The searches ``explore --network`` takes, and the fault each gives a message."""


def fault_mode(text: str) -> str:
    """The fault a search's name stands for.

    Raises:
        InputError: any other name.
    """
    fault = MODES.get(text.strip().lower())
    if fault is None:
        raise InputError(f"--network {text}: explore takes single-loss, single-dup, lost-for-good or crash"
                         " (every message of each ply faulted in turn) or a link model (loss=0.05,seed=1)")
    return fault


Point = MessageName
"""A message's identity in a ply (see :class:`~actors.kernel.scheduled_links.MessageName`)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """A fault (``drop``, ``duplicate``, ``lose`` or ``crash``) at a point."""

    fault: str
    point: Point


def applies(fault: str, point: Point) -> bool:
    """Whether ``fault`` can befall ``point``: a crash only a delivery (an ask or a tell to an actor)."""
    return fault != "crash" or point.carrying != "reply"


def fault_links(faults: Mapping[Point, str]) -> ScheduledLinks:
    """Reliable links under the turnstile that name every message sent and befall the ones ``faults``
    names; a message lost for good (``lose``) is given up at once (the links send nothing again)."""
    losing = "lose" in faults.values()
    links = ScheduledLinks(LinkModel(retries=0) if losing else LinkModel())
    links.name_messages()
    for point, fault in faults.items():
        links.plan_message(point.sender, point.receiver, point.carrying == "reply", point.kind, point.index,
                           "drop" if fault == "lose" else fault)
    return links


@dataclass(frozen=True, slots=True)
class FaultRun:
    """One run of a ply: its faults, what it decided, what it sent, what its checks found."""

    faults: tuple[Fault, ...]
    verdict: str
    san: str | None
    fen: str
    failure: str | None
    """The failure's class when the ply failed (``LinkFailure``, ...), else None."""
    points: tuple[Point, ...]
    befallen: tuple[Point, ...]
    broken: tuple[str, ...]
    """The invariants this run broke, each in a line."""
    state: str
    """A digest of every actor's state after the run."""
    signature: tuple[object, ...]
    """What it delivered, with the replies, in order, and the schedule's clock after it."""
    moments: tuple[tuple[int, bool], ...]
    """Beside each point, as it was sent: how many deliveries had run, and whether a message was
    still on its way."""
    steps: tuple[object, ...]
    """The deliveries the ply ran, in order: each actor with what it handled."""
    trace: list[TraceEvent]
    seconds: float

    @property
    def verdict_text(self) -> str:
        """The verdict as a line says it: ``accepted Nf3``, ``rejected: ...`` or ``failure: ...``."""
        if self.san is not None:
            return f"accepted {self.san}" + self.verdict.removeprefix("accepted")
        return self.verdict

    @property
    def faulted(self) -> list[str]:
        """The faulted messages, as a person reads them."""
        return [fault.point.text() for fault in self.faults]

    def result(self, reference: FaultRun) -> str:
        """``same``, ``failed`` (a LinkFailure), ``failed otherwise``, ``changed`` (the verdict, SAN
        or position differ) or ``broken`` (an invariant failed)."""
        if self.broken:
            return "broken"
        if self.failure is not None:
            return "failed" if self.failure == LinkFailure.__name__ else "failed otherwise"
        if (self.verdict, self.san, self.fen) != (reference.verdict, reference.san, reference.fen):
            return "changed"
        return "same"

    def after(self, point: Point) -> list[Point]:
        """The points this run sent after ``point``."""
        try:
            return list(self.points[self.points.index(point) + 1:])
        except ValueError:
            return []


def run_ply(fen: str, move: str, faults: Mapping[Point, str], chess960: bool = False) -> FaultRun:
    """Play ``move`` from ``fen`` on fresh actors under the turnstile in arrival order, with ``faults``
    befalling the messages they name (``chess960``: a Chess960 game), and check the run."""
    began = time.perf_counter()
    recorder = TraceRecorder()
    turnstile = Turnstile(Fifo())
    links = fault_links(faults)
    links.moment = lambda: (len(turnstile.steps), turnstile.in_flight())
    failure: str | None = None
    san: str | None = None
    with ActorGame(fen, recorder=recorder, schedule=turnstile, chess960=chess960) as game:
        recorder.clear()  # the set-up is not the ply's
        turnstile.attach(links)
        watch = EveryDelivery(game)
        turnstile.watchers.append(watch)
        try:
            reply = game.propose(move)
            if isinstance(reply, Accepted):
                verdict, san = f"accepted{', ' + reply.outcome if reply.outcome else ''}", reply.san
            else:
                verdict = f"rejected: {reply.reason}"
        except ActorFailure as error:
            verdict, failure = f"failure: {error}", type(error).__name__
        # What the ply sent and delivered; what is looked at after it crosses the same links (a
        # link the ply broke stays broken), but is not the ply's.
        points = tuple(links.sent or ())
        moments = tuple(cast("tuple[int, bool]", moment) for moment in links.moments)
        steps = tuple((step.actor, None if step.chosen is None else step.chosen[1:5])
                      for step in turnstile.steps)
        deliveries = recorder.deliveries()
        signature = (*(_delivered(delivery) for delivery in deliveries), turnstile.clock)
        trace = recorder.events()
        if failure is None:
            healing = _heal(game)
            if healing is not None:
                verdict, failure = f"{verdict}, then failure: {healing}", type(healing).__name__
        heals = game.supervisor.restarts > 0 or any(event["kind"] == "Resync" for event in trace)
        broken: list[str] = []
        position = f"unknown: the ply failed ({failure})"
        if failure is None:
            try:
                position = game.fen()
                broken = _checks(game, None if heals else {event["receiver"] for event in trace})
            except (ActorFailure, ChessActorsError) as error:
                broken = [f"the game could not be looked at: {error}"]
        broken = [*watch.broken, *broken]
        state = _state_digest(game)
    return FaultRun(tuple(Fault(fault, point) for point, fault in faults.items()), verdict, san, position,
                    failure, points, tuple(links.befallen), tuple(broken), state, signature, moments,
                    steps, trace, time.perf_counter() - began)


def _delivered(delivery: Delivery) -> object:
    answer = delivery.answer
    if isinstance(answer, BaseException):
        answer = f"{type(answer).__name__}: {answer}"
    if type(delivery.message).__name__ in FAULT_KINDS:
        return ("mark",)
    return delivery.sender, delivery.receiver, delivery.message, answer


SETTING = frozenset({"Moved", "Promote", "Seat", "Resync"})
"""What sets a piece's square and kind: once it has taken one, it stands where the board holds it."""


class EveryDelivery:
    """The invariants checked after every delivery of a run, as the turnstile's step ends (every actor
    parked between two deliveries): a watcher of :attr:`~actors.kernel.schedule.Turnstile.watchers`.

    - no king is ever captured: the board holds one king of each colour after every delivery, not
      only at the end of a ply;
    - a piece that has just taken a message that sets its square or kind (``Moved``, ``Promote``,
      ``Seat``, ``Resync``) stands where the board holds it, as what the board holds it, moved or not
      as the board holds it: a copy that came late, or twice, never puts it back where it was (one
      that crashed on it is the heal's);
    - an incarnation that was replaced changes nothing: whatever it still handles, its state stays
      what it was when its successor took its name.

    Each broken invariant is noted in :attr:`broken` (the first few), with the delivery it followed.
    """

    def __init__(self, game: ActorGame) -> None:
        self.directory = game.supervisor.directory
        self.broken: list[str] = []
        self.deliveries = 0
        self._live: dict[str, object] = {}
        self._replaced: list[tuple[str, object, str]] = []  # name, the old incarnation, its state then

    def __call__(self, step: Step) -> None:
        self.deliveries += 1
        if len(self.broken) >= 5:
            return
        try:
            self._check(step)
        except Exception as error:  # a watcher never raises into the turnstile: what it found is noted
            self.broken.append(f"after delivery {self.deliveries}: the check failed: {error!r}")

    def _actor(self, name: str) -> object | None:
        ref = self.directory.ref(name)
        return None if ref is None else ref._actor_weakref()

    def _check(self, step: Step) -> None:
        where = f"after delivery {self.deliveries} ({step.what})"
        for name in self.directory.names():  # who took whose name since the last step
            actor = self._actor(name)
            known = self._live.get(name)
            if known is not None and known is not actor:
                self._replaced.append((name, known, _actor_digest(known)))
            if actor is not None:
                self._live[name] = actor
        board = cast("BoardActor | None", self._actor("board"))
        if board is not None:
            squares = board.view.true_squares
            kings = Counter(code >> 3 for code in squares if code & 7 == KING)
            if kings != Counter({0: 1, 1: 1}):
                self.broken.append(f"{where}: the board holds kings {dict(kings)}")
        chosen = step.chosen
        if chosen is not None and not chosen.resume and chosen.kind in SETTING and board is not None:
            piece = cast("PieceActor | None", self._actor(chosen.actor))
            crashed = piece is not None and piece.actor_stopped.is_set()  # the heal's to mend
            if piece is not None and not piece.fenced and not crashed:
                names = board.names
                held = names.index(chosen.actor) if chosen.actor in names else -1
                code = board.view.true_squares[held] if held >= 0 else None
                square, kind = piece.square, piece.code
                if held >= 0 and (square, kind) != (held, code):
                    self.broken.append(f"{where}: {chosen.actor} stands on {square} as {kind}; the board "
                                       f"holds it on {held} as {code}")
                elif held >= 0 and piece.has_moved != board.moved[held]:
                    # Whether it has moved decides castling: the piece's word and the board's agree.
                    says, holds = ("" if moved else " not" for moved in (piece.has_moved, board.moved[held]))
                    self.broken.append(f"{where}: {chosen.actor} says it has{says} moved; the board holds"
                                       f" that it has{holds}")
        for name, old, state in self._replaced:
            if name == step.actor and _actor_digest(old) != state:
                self.broken.append(f"{where}: the replaced incarnation of {name} changed its state")


def game_invariants(game: ActorGame) -> list[str]:
    """What a fault must never break, checked on a running game (a dead actor healed first, as the
    game's next request would): each invariant broken, in a line (none: all hold)."""
    failure = _heal(game)
    if failure is not None:
        return [f"the game failed: {failure}"]
    try:
        return _checks(game, None)
    except (ActorFailure, ChessActorsError) as error:
        return [f"the game could not be looked at: {error}"]


def _heal(game: ActorGame) -> ActorFailure | None:
    """Heal the game if an actor of it is dead; the failure if the supervisor could not."""
    supervisor = game.supervisor
    if all(supervisor.alive(name) for name in supervisor.names()):
        return None
    try:
        supervisor.heal()
    except ActorFailure as error:
        return error
    return None


def _checks(game: ActorGame, spoken: set[str] | None) -> list[str]:
    """The invariants after a ply: no king captured, the board's placement the journal's, and every
    piece in ``spoken`` (None: every piece) answering from the square and with the move function the
    board holds for it."""
    broken: list[str] = []
    roster = game.supervisor.roster()
    kings = Counter(entry.code >> 3 for entry in roster.entries if entry.code & 7 == KING)
    if kings != Counter({0: 1, 1: 1}):
        broken.append(f"a king was captured: the board holds kings {dict(kings)}")
    replay = Game(game.supervisor.start_fen, chess960=game.supervisor.chess960)
    for recorded in game.supervisor.journal().entries:
        replay.play(recorded.uci, want_san=False)
    held, journalled = game.fen().split()[0], replay.fen().split()[0]
    if held != journalled:
        broken.append(f"the board holds {held}, the journal's moves give {journalled}")
    for entry in roster.entries:
        if spoken is not None and entry.name not in spoken:
            continue
        answer: Targets = game.ask(entry.name, TargetsQuery())
        label = label_of(standard(entry.code & 7))
        if answer.square != entry.square or answer.label != label:
            broken.append(f"{entry.name} answers from square {answer.square} as {answer.label!r}; the board"
                          f" holds it on {entry.square} as {label!r}")
    return broken


# -- distinct states -----------------------------------------------------------------------------

_INFRASTRUCTURE = frozenset({
    "directory", "recorder", "timeout", "current", "sender", "actor_urn", "actor_inbox", "actor_stopped",
    "actor_ref", "_crash_on", "_hang_on",
})


def _state_digest(game: ActorGame) -> str:
    """A digest of every actor's state (its attributes, the kernel's own left out), by name."""
    digest = hashlib.blake2b(digest_size=12)
    directory = game.supervisor.directory
    for name in sorted(directory.names()):
        ref = directory.ref(name)
        actor = None if ref is None else ref._actor_weakref()
        digest.update(name.encode())
        if actor is None:
            digest.update(b"(stopped)")
            continue
        for part in _actor_parts(actor):
            digest.update(part.encode())
    return digest.hexdigest()


def _actor_parts(actor: object) -> Iterator[str]:
    """An actor's state, part by part: its attributes (the kernel's own left out)."""
    for key in sorted(vars(actor)):
        if key not in _INFRASTRUCTURE and not key.startswith(("actor_", "_actor")):
            yield key
            yield from _canonical(vars(actor)[key], 5)


def _actor_digest(actor: object) -> str:
    """A digest of one actor's state (see :func:`_actor_parts`)."""
    digest = hashlib.blake2b(digest_size=12)
    for part in _actor_parts(actor):
        digest.update(part.encode())
    return digest.hexdigest()


def _canonical(value: object, depth: int) -> Iterator[str]:
    """A value's parts, the same for equal values whatever the order of its sets and dicts."""
    if value is None or isinstance(value, str | int | float | bool | bytes):
        yield repr(value)
    elif depth <= 0 or callable(value):
        yield type(value).__name__
    elif isinstance(value, dict):
        yield "{" + ",".join(sorted("".join(_canonical(key, depth - 1)) + ":" + "".join(
            _canonical(item, depth - 1)) for key, item in value.items())) + "}"
    elif isinstance(value, set | frozenset):
        yield "{" + ",".join(sorted("".join(_canonical(item, depth - 1)) for item in value)) + "}"
    elif isinstance(value, list | tuple):
        yield "["
        for item in value:
            yield from _canonical(item, depth - 1)
            yield ","
        yield "]"
    elif is_dataclass(value):
        yield type(value).__name__
        for item in fields(value):
            yield from _canonical(getattr(value, item.name), depth - 1)
    elif hasattr(value, "__dict__"):
        yield type(value).__name__
        for key in sorted(vars(value)):
            yield key
            yield from _canonical(vars(value)[key], depth - 1)
    else:
        yield type(value).__name__


# -- the search ----------------------------------------------------------------------------------


@dataclass
class PlySearch:
    """A ply searched: its fault-free run, every run with faults, how many pairs were pruned."""

    fault: str
    faults: int
    reference: FaultRun
    runs: list[FaultRun] = field(default_factory=list)
    pruned: int = 0
    seconds: float = 0.0
    states: set[str] = field(default_factory=set)
    cut_short: bool = False
    """Whether the deadline ended the search before every run was made."""
    pruned_pairs: list[tuple[Point, Point]] = field(default_factory=list)
    """The pairs pruned, each as (first, second)."""

    @property
    def points(self) -> list[Point]:
        """The fault points of the fault-free run (those ``fault`` can befall)."""
        return [point for point in self.reference.points if applies(self.fault, point)]

    def results(self) -> Counter[str]:
        """How many runs gave each result (see :meth:`FaultRun.result`)."""
        return Counter(run.result(self.reference) for run in self.runs)

    @property
    def failing(self) -> list[FaultRun]:
        """The runs that changed the verdict, SAN or position, or broke an invariant, or (but for a
        crash, which may end a game whose journal it killed) failed otherwise than with LinkFailure."""
        wrong = ("changed", "broken") if self.fault == "crash" else ("changed", "broken", "failed otherwise")
        return [run for run in self.runs if run.result(self.reference) in wrong]


Progress = Callable[[int, int], None]
"""Called after each run with the runs so far and the estimated total of the ply's runs."""


def search_ply(fen: str, move: str, fault: str, faults: int = 1, chess960: bool = False,
               on_run: Progress | None = None, deadline: float | None = None) -> PlySearch:
    """Run ``move`` from ``fen`` without a fault, then once for each of its fault points with
    ``fault`` (``drop``, ``duplicate``, ``lose`` or ``crash``), and with ``faults`` 2 once more for
    each pair (see the module's docstring for the pairs pruned).

    ``deadline`` (a ``time.monotonic()`` value) ends the search between two runs.
    """
    began = time.perf_counter()
    reference = run_ply(fen, move, {}, chess960)
    search = PlySearch(fault, faults, reference, states={reference.state})
    singles = search.points
    estimate = len(singles)
    for done, point in enumerate(singles, start=1):
        if deadline is not None and time.monotonic() >= deadline:
            search.cut_short = True
            break
        single = run_ply(fen, move, {point: fault}, chess960)
        _add(search, single, on_run, estimate)
        if faults < 2:
            continue
        seconds = [second for second in single.after(point) if applies(fault, second)]
        pairs_so_far = len(search.runs) - done + len(seconds)
        estimate = len(search.runs) + len(seconds) + (len(singles) - done) * (1 + pairs_so_far // done)
        if single.signature == reference.signature:
            search.pruned += len(seconds)  # the first fault sleeps: it cannot interact with the second
            search.pruned_pairs.extend((point, second) for second in seconds)
            continue
        for second in seconds:
            if deadline is not None and time.monotonic() >= deadline:
                search.cut_short = True
                break
            if fault in TIMING_FAULTS and _caught_up(single, reference, second):
                search.pruned += 1  # everything is as without the first fault: the second's own run
                search.pruned_pairs.append((point, second))
                continue
            _add(search, run_ply(fen, move, {point: fault, second: fault}, chess960), on_run, estimate)
    search.seconds = time.perf_counter() - began
    return search


TIMING_FAULTS = ("drop", "duplicate")
"""The faults that change when a message arrives, never what it says nor what answers it."""


def _caught_up(single: FaultRun, reference: FaultRun, second: Point) -> bool:
    """Whether, as ``second`` was sent in ``single`` (a run with one fault of TIMING_FAULTS), the run
    had made the fault-free run's deliveries, in its order, up to the same point, with nothing on its
    way: every actor, mailbox and pending wait is then as in the fault-free run as it sent ``second``."""
    if second not in reference.points:
        return False
    ran, flying = single.moments[single.points.index(second)]
    ran_then, flying_then = reference.moments[reference.points.index(second)]
    return not flying and not flying_then and ran == ran_then and single.steps[:ran] == reference.steps[:ran]


def _add(search: PlySearch, run: FaultRun, on_run: Progress | None, estimate: int) -> None:
    search.runs.append(run)
    search.states.add(run.state)
    if on_run is not None:
        on_run(len(search.runs), max(estimate, len(search.runs)))


def describe(run: FaultRun, reference: FaultRun) -> str:
    """What a failing run did, in a line."""
    faults = " and ".join(run.faulted)
    if run.broken:
        return f"with {faults} faulted, {'; '.join(run.broken)}"
    return f"with {faults} faulted, the ply gave {run.verdict} instead of {reference.verdict}"


def scenario_text(run: FaultRun, reference: FaultRun, fen: str, move: str, chess960: bool,
                  command: str) -> str:
    """The failing run as a scenario that ``chess-actors run`` replays to the same failure: the ply
    under one turnstile in arrival order, its faults named as the search named them, the fault-free
    run's verdict and position expected, and the invariants checked."""
    lines = [f"# The first failing run of: {command}", f"# {describe(run, reference)}",
             "# chess-actors run replays it: under schedule fifo the ply sends the same messages, and each",
             "# fault step befalls the message it names.", "schedule fifo"]
    if any(fault.fault == "lose" for fault in run.faults):
        lines.append("network retries=0                # a lost message is never sent again: lost for good")
    lines.append(f"start {'chess960 ' if chess960 else ''}{fen}")
    for fault in run.faults:
        verb = "drop" if fault.fault == "lose" else fault.fault
        lines.append(f"{verb} {fault.point.text()}")
    if reference.san is not None:
        lines += [f"play {move}", f"fen {reference.fen}"]
    else:
        lines.append(f"reject {move}")
    lines.append("invariants")
    return "\n".join(lines) + "\n"
