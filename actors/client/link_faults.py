"""Exploring faults on links, not sampling them: a ply run once for every message of it lost (or duplicated).

A ply's messages (its asks, tells and replies, each counted once however often the network sends it
again) are its *fault points*. :func:`explore_ply` runs the ply without a fault, then once for each
fault point with that one message lost (``single-loss``) or duplicated (``single-dup``), and
compares what each run decided: the verdict, the position after it and the journal. A run that
differs is a counterexample whose fault set is one message: nothing smaller could change it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from actors.client.game import ActorGame
from actors.kernel.errors import ActorFailure
from actors.kernel.links import LinkModel
from actors.kernel.network import Network
from actors.protocol.referee import Accepted
from actors.protocol.values import JournalEntry
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError

__all__ = ["MODES", "LinkOutcome", "LinkReport", "LinkRun", "explore_ply", "single_fault"]

MODES = {"single-loss": "drop", "single-dup": "duplicate"}
"""The explorations ``explore --network`` takes, and the fault each gives one message at a time."""


def single_fault(text: str) -> str:
    """The fault an exploration's name stands for.

    Raises:
        InputError: any other name.
    """
    fault = MODES.get(text.strip().lower())
    if fault is None:
        raise InputError(f"--network {text}: explore takes single-loss or single-dup (every message of"
                         " each ply lost, or duplicated, one at a time) or a link model (loss=0.05,seed=1)")
    return fault


@dataclass(frozen=True, slots=True)
class LinkOutcome:
    """What a run of one ply decided: the verdict (with its SAN or reason), the position, the journal."""

    verdict: str
    fen: str
    journal: tuple[JournalEntry, ...]

    def differences(self, other: LinkOutcome) -> list[str]:
        """The names of the fields in which ``other`` differs from this one."""
        return [name for name in ("verdict", "fen", "journal") if getattr(self, name) != getattr(other, name)]


@dataclass(frozen=True, slots=True)
class LinkRun:
    """One run of a ply: its outcome, how many messages it sent, which one was faulted, its trace."""

    outcome: LinkOutcome
    points: int
    faulted: int | None
    trace: list[TraceEvent]

    @property
    def faulted_message(self) -> str:
        """The faulted message as a person reads it (``referee -> board Apply``), or '' for none."""
        marks = [event for event in self.trace if event["kind"] in ("Dropped", "Duplicated")]
        if not marks:
            return ""
        mark = marks[0]
        payload = mark.get("payload") or {}
        what = str(payload.get("message"))
        if payload.get("carrying") == "reply":
            what = f"the reply to {what}"
        return f"{mark['sender']} -> {mark['receiver']} {what}"


@dataclass
class LinkReport:
    """A ply explored: its fault points, the runs that changed, the first of them."""

    points: int
    changed: int
    seconds: float
    reference: LinkRun
    differing: LinkRun | None = None
    differences: list[str] = field(default_factory=list)


def run_ply(fen: str, move: str, faults: dict[int, str], chess960: bool = False) -> LinkRun:
    """Play ``move`` from ``fen`` over a network that befalls the numbered messages with ``faults``
    (``chess960``: a Chess960 game, as for :class:`~actors.client.game.ActorGame`)."""
    recorder = TraceRecorder()
    network = Network(LinkModel(), recorder)
    with ActorGame(fen, recorder=recorder, network=network, chess960=chess960) as game:
        recorder.clear()  # the set-up is not the ply's
        network.count_points(faults)
        try:
            reply = game.propose(move)
            verdict = f"accepted {reply.san}" if isinstance(reply, Accepted) else f"rejected: {reply.reason}"
        except ActorFailure as error:
            verdict = f"failure: {error}"
        points = network.points or 0
        network.points = None  # looking afterwards is not the ply's
        try:
            outcome = LinkOutcome(verdict, game.fen(), tuple(game.supervisor.journal().entries))
        except ActorFailure as error:
            outcome = LinkOutcome(verdict, f"unknown: {error}", ())
    return LinkRun(outcome, points, next(iter(faults), None), recorder.events())


def explore_ply(fen: str, move: str, fault: str, chess960: bool = False) -> LinkReport:
    """Run the ply ``move`` from ``fen`` without a fault, then once for each of its messages with
    ``fault`` ('drop' or 'duplicate'), and compare (``chess960``: a Chess960 game).

    Returns:
        The report: fault points, runs that changed the outcome, the first such run.
    """
    began = time.perf_counter()
    reference = run_ply(fen, move, {}, chess960)
    report = LinkReport(reference.points, 0, 0.0, reference)
    for point in range(reference.points):
        run = run_ply(fen, move, {point: fault}, chess960)
        if run.outcome != reference.outcome:
            report.changed += 1
            if report.differing is None:
                report.differing = run
                report.differences = reference.outcome.differences(run.outcome)
    report.seconds = time.perf_counter() - began
    return report
