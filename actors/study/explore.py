"""Exploring delivery orders: run one ply (or any small actor system) under many schedules and compare.

Two orders differ only where messages race to the same receiver or replies race to the same waiter;
the exhaustive search explores one order per class of equivalent ones (a sleep-set search).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from actors.kernel.policies import Fifo, Policy, Random, Ready, ScheduleError, Script
from actors.kernel.schedule import Step, record_of
from actors.tracing.event import TraceEvent, event_to_json


class Redundant(ScheduleError):
    """This order is equivalent to one already explored: the run stops here."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a run produced, compared across orders: verdict, SAN, position and the messages sent."""

    verdict: str
    san: str | None
    fen: str
    messages: Collection[object]
    """The messages sent, as a multiset whose equality ignores their order."""

    def differences(self, other: Outcome) -> list[str]:
        """The names of the fields in which ``other`` differs from this one."""
        fields = ("verdict", "san", "fen", "messages")
        return [name for name in fields if getattr(self, name) != getattr(other, name)]


@dataclass(frozen=True, slots=True)
class Run:
    """One run under one order: its outcome, the steps it took, its trace."""

    outcome: Outcome
    steps: tuple[Step, ...]
    trace: Sequence[TraceEvent]

    @property
    def schedule(self) -> list[str]:
        """The order as a script: one actor name a delivery."""
        return record_of(self.steps)


RunOnce = Callable[[Policy], Run]
"""Runs a system from the same start with deliveries in the order the policy chooses, and returns what
happened (its steps are only the run's: set-up and looking afterwards are left out)."""


@dataclass
class Report:
    """What exploring found: orders run, whether all agreed, and the first order that did not."""

    orders: int
    exhaustive: bool
    seconds: float
    reference: Run
    differing: Run | None = None
    differences: list[str] = field(default_factory=list)
    cut_short: bool = False
    """Whether the time budget ended the search before the orders asked for were run."""

    @property
    def same(self) -> bool:
        """Whether every order gave the reference's outcome."""
        return self.differing is None


def messages_of(events: Sequence[TraceEvent]) -> tuple[str, ...]:
    """The messages a run delivered, as a sorted multiset (the order they went in is not compared)."""
    return tuple(sorted(
        f"{event['sender']}>{event['receiver']} {event['kind']} {event_to_json(event['payload'])}"
        f" -> {event['reply']}"
        for event in events
    ))


# --- the exhaustive search -------------------------------------------------------------------


@dataclass
class _Node:
    choices: list[str]
    sleep: dict[str, Step]
    chosen: str
    step: Step | None = None


def _independent(one: Step, other: Step) -> bool:
    """Whether two steps commute: different actors, no common receiver, no common waiter."""
    return one.actor != other.actor and not (one.sends & other.sends) and not (one.answers & other.answers)


class SleepSetSearch(Policy):
    """A policy that, run after run, walks every order that can differ (depth first, with sleep sets).

    A step explored from a node sleeps in its later siblings' subtrees for as long as the steps
    taken there are independent of it: running it there would only reorder commuting steps.
    """

    name = "exhaustive"
    instant = True

    def __init__(self) -> None:
        self.stack: list[_Node] = []
        self.depth = 0
        self.steps: list[Step] = []
        self.finished = False

    def begin(self) -> None:
        """Start a run: follow the stack's choices, then explore."""
        self.depth = 0
        self.steps = []

    def ran(self, step: Step) -> None:
        self.steps.append(step)

    def choose(self, ready: Sequence[Ready]) -> Ready:
        depth = self.depth
        self.depth += 1
        if depth > 0 and depth - 1 < len(self.stack):
            self.stack[depth - 1].step = self.steps[depth - 1]
        names = [item.actor for item in ready]
        if depth < len(self.stack):
            node = self.stack[depth]
            if node.chosen not in names:
                raise ScheduleError(
                    f"the run did not repeat itself at step {depth + 1}: {node.chosen} is not ready"
                )
        else:
            sleep: dict[str, Step] = {}
            if self.stack:
                parent = self.stack[-1]
                last = parent.step
                assert last is not None
                sleep = {actor: step for actor, step in parent.sleep.items() if _independent(step, last)}
            awake = [name for name in names if name not in sleep]
            if not awake:
                raise Redundant("every order from here repeats one already explored")
            node = _Node(names, sleep, awake[0])
            self.stack.append(node)
        return next(item for item in ready if item.actor == node.chosen)

    def backtrack(self) -> None:
        """After a run: choose the next unexplored branch (``finished`` when none is left)."""
        for index, node in enumerate(self.stack):
            if node.step is None and index < len(self.steps):
                node.step = self.steps[index]
        while self.stack:
            node = self.stack[-1]
            if node.step is not None:
                node.sleep[node.chosen] = node.step
            remaining = [name for name in node.choices if name not in node.sleep and name != node.chosen]
            if remaining:
                node.chosen, node.step = remaining[0], None
                return
            self.stack.pop()
        self.finished = True


# --- exploring --------------------------------------------------------------------------------


def explore(run_once: RunOnce, orders: int | None, seed: int = 0, limit: int = 100_000,
            deadline: float | None = None, on_run: Callable[[int], None] | None = None,
            reference: Run | None = None) -> Report:
    """Run ``run_once`` in arrival order, then under ``orders`` random orders (seeds ``seed``,
    ``seed + 1``, ...), or every order that can differ (``orders`` None, at most ``limit`` runs).

    Each run is compared with ``reference`` (default: ``run_once`` in arrival order; a run made
    another way, such as over reliable links when ``run_once``'s links fail, is compared with too).

    ``deadline`` (a ``time.monotonic()`` value) ends the search early, between two runs; the
    report then says it was cut short. ``on_run`` is called after each run with the number of
    runs so far (to show progress; random orders may repeat, so runs can outnumber orders).

    Returns a report whose ``differing`` run, if any, is the shortest order found that changes the
    outcome (see :func:`shortest_counterexample`).
    """
    started = time.perf_counter()
    if reference is None:
        reference = run_once(Fifo())
    differing: Run | None = None
    count = 0
    exhaustive = False
    cut_short = False

    def out_of_time() -> bool:
        nonlocal cut_short
        cut_short = cut_short or (deadline is not None and time.monotonic() >= deadline)
        return cut_short

    if orders is None:
        search = SleepSetSearch()
        while not search.finished and count < limit and not out_of_time():
            search.begin()
            try:
                run = run_once(search)
            except Redundant:
                search.backtrack()
                continue
            count += 1
            search.backtrack()
            if on_run is not None:
                on_run(count)
            if differing is None and run.outcome != reference.outcome:
                differing = run
        exhaustive = search.finished
    else:
        seen: set[tuple[str, ...]] = set()
        for number in range(orders):
            if out_of_time():
                break
            run = run_once(Random(seed + number))
            seen.add(tuple(run.schedule))
            if on_run is not None:
                on_run(number + 1)
            if differing is None and run.outcome != reference.outcome:
                differing = run
        count = len(seen)
    report = Report(count, exhaustive, 0.0, reference, cut_short=cut_short)
    if differing is not None:
        report.differing = shortest_counterexample(run_once, reference.outcome, differing.schedule)
        report.differences = reference.outcome.differences(report.differing.outcome)
    report.seconds = time.perf_counter() - started
    return report


def shortest_counterexample(run_once: RunOnce, reference: Outcome, schedule: Sequence[str]) -> Run:
    """The run of the shortest prefix of ``schedule`` that, continued in arrival order, changes the
    outcome from ``reference`` (the whole schedule if no shorter prefix does)."""
    for length in range(len(schedule) + 1):
        run = run_once(Script(schedule[:length]))
        if run.outcome != reference:
            return run
    return run_once(Script(schedule))


def trace_lines(run: Run) -> list[str]:
    """The run's trace as JSON lines (what ``chess-actors trace`` reads)."""
    return [event_to_json(event) for event in run.trace]


__all__ = [
    "Outcome",
    "Redundant",
    "Report",
    "Run",
    "RunOnce",
    "SleepSetSearch",
    "explore",
    "messages_of",
    "shortest_counterexample",
    "trace_lines",
]
