"""Links that fail under a delivery turnstile: the network's faults and its answer, on the schedule's clock.

Under a turnstile (the shell, the live studio, the order explorer) time is the schedule's: a delivery
takes none, and the clock moves only when nothing can run. The network (:mod:`actors.kernel.network`)
runs on real time, with a timer thread; here the same link model (:class:`~actors.kernel.links.LinkModel`,
the same seeded fates) decides what befalls each ask, tell and reply, and the turnstile keeps the
network's promise to the actors on the schedule's clock:

- a lost transmission is sent again after the network's timeout (doubling each time, at most
  ``retries`` times), so the message arrives that much later on the schedule's clock, after what
  can run before it; a delayed one arrives ``delay`` seconds later;
- a duplicate's second copy is recognised at the receiving end by its sequence number and dropped,
  and a reordered one is put back in its place: the actor handles each message once, in order;
- what a sender sent after a late message to the same receiver waits for it (in order per pair);
- a message lost ``retries + 1`` times is given up: its asker's reply fails with
  :class:`~actors.kernel.errors.LinkFailure`, and so does everything sent after it on the pair.

The network's acknowledgements are not modelled here (a message is sent again only when it was
lost), so the counts of a seed are not those of the same seed on free actors. Every fault is a
trace event of the network's kinds (``Dropped``, ``Duplicated``, ``Delayed``, ``Retried``), a child
of the message it befell.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from actors.kernel.fault_marks import Delayed, Dropped, Duplicated, Retried
from actors.kernel.links import COUNTED, Fate, LinkModel, PlannedFaults, separated
from actors.kernel.network import FIRST_WAIT, LONGEST_WAIT, LOSE, PLANNED

if TYPE_CHECKING:
    from actors.kernel.instrument import Visit

__all__ = ["Journey", "MessageName", "ScheduledLinks"]


@dataclass(frozen=True, slots=True, order=True)
class MessageName:
    """A message's identity in a conversation: who sent it to whom, what it carries ('ask', 'tell' or
    'reply'), its kind (for a reply, the kind of the ask it answers) and its index among the messages
    of the pair (sender, receiver), from 0, in the order they were sent. Under a turnstile in arrival
    order the same conversation names the same message the same way every time it runs."""

    sender: str
    receiver: str
    carrying: str
    kind: str
    index: int

    def text(self) -> str:
        """The message as a person (and a scenario's fault step) writes it: ``referee -> board Apply[1]``."""
        what = f"reply to {self.kind}" if self.carrying == "reply" else self.kind
        return f"{self.sender} -> {self.receiver} {what}[{self.index}]"


@dataclass(frozen=True, slots=True)
class Journey:
    """How a transmission crossed its link: ``wait`` seconds of the schedule after it was sent (or
    sent again), at attempt ``attempts``; ``failure`` says why it never arrived (None: it did)."""

    wait: float
    attempts: int
    failure: str | None = None


_DOOMED = Fate(True, 0, 0.0, False)
"""A planned loss for good: every attempt of the transmission is lost (this very object says so)."""


class ScheduledLinks:
    """The links of one turnstile's actors under ``model`` (see the module's docstring).

    Args:
        model: the faults of every link (default: reliable, for faults chosen by hand).
    """

    def __init__(self, model: LinkModel | None = None) -> None:
        self.model = model or LinkModel()
        self.counts: Counter[str] = Counter({name: 0 for name in COUNTED})
        """How many transmissions were dropped, duplicated, delayed (or reordered), and sent again."""
        self.failures: list[str] = []
        """What the links gave up on (a message every attempt of which was lost)."""
        self.clock: Callable[[], float] = lambda: 0.0
        """The schedule's clock (set by the turnstile that takes these links)."""
        self._seqs: dict[tuple[str, str, str], int] = {}
        self._planned = PlannedFaults()
        self._cuts: list[tuple[frozenset[str], frozenset[str], float]] = []
        self._first_wait = FIRST_WAIT + 2 * self.model.delay_seconds
        model = self.model
        self._reliable = not (model.loss or model.dup or model.delay or model.reorder or model.partitions)
        self.sent: list[MessageName] | None = None
        """Every message sent since :meth:`name_messages`, named, in the order sent (None: not naming)."""
        self.moments: list[object] = []
        """Beside each named message, what ``moment`` said when it was sent."""
        self.moment: Callable[[], object] | None = None
        """Asked as each message is named: the state of the run it is sent in (for a search of faults)."""
        self.befallen: list[MessageName] = []
        """The named messages a fault chosen by name befell."""
        self._named: dict[tuple[str, str, bool, str, int], str] = {}
        self._on_pair: dict[tuple[str, str], int] = {}
        self.crash_armed = False
        """The message just sent is to crash its receiver (the turnstile then puts it in ``crashing``)."""
        self.crashing: list[object] = []
        """The envelopes whose receivers crash on them."""

    # -- what a script or a person asks for

    def plan(self, kind: str, fault: str, *, reply: bool = False, times: int = 1) -> None:
        """Befall the next ``times`` messages of class ``kind`` (or their replies) with ``fault``
        (``drop``, ``duplicate``, ``delay``, ``reorder`` or ``lose``: lost on every attempt, lost for
        good), whatever the model says, as :meth:`actors.kernel.network.Network.plan` does.

        Raises:
            ValueError: an unknown fault.
        """
        if fault not in PLANNED and fault != LOSE:
            raise ValueError(f"unknown fault {fault!r}: use {', '.join(PLANNED)} or {LOSE}")
        self._planned.add(kind, fault, reply, times)

    def name_messages(self) -> None:
        """Name every message sent from now on by its place in the conversation (see :class:`MessageName`),
        counting each pair's messages from 0 again."""
        self.sent, self.moments, self._on_pair = [], [], {}

    def plan_message(self, sender: str, receiver: str, reply: bool, kind: str, index: int,
                     fault: str) -> None:
        """Befall the message named so (a reply to ``kind`` when ``reply``; ``index`` counted from
        :meth:`name_messages`, which this starts if it has not begun) with ``fault``: ``drop``,
        ``duplicate``, or ``crash`` (its receiver crashes on it instead of handling it).

        Raises:
            ValueError: an unknown fault, or a crash on a reply (a reply is handled by no one).
        """
        if fault not in (*PLANNED, "crash"):
            raise ValueError(f"unknown fault {fault!r}: use {', '.join(PLANNED)} or crash")
        if fault == "crash" and reply:
            raise ValueError("a reply is handled by no one: crash an actor on an ask or a tell")
        if self.sent is None:
            self.name_messages()
        self._named[sender, receiver, reply, kind, index] = fault

    def partition(self, actors: frozenset[str], seconds: float, apart: frozenset[str] = frozenset()) -> None:
        """Cut ``actors`` off from the rest (or from ``apart`` only) for ``seconds`` of the schedule's
        time from now."""
        self._cuts.append((actors, apart, self.clock() + seconds))

    # -- crossing (called by the turnstile, under its lock)

    def sequence(self, sender: str, receiver: str, carrying: str) -> int:
        """The next sequence number of ``carrying`` (ask, tell, reply) from ``sender`` to ``receiver``."""
        key = (sender, receiver, carrying)
        seq = self._seqs.get(key, 0)
        self._seqs[key] = seq + 1
        return seq

    def cross(self, sender: str, receiver: str, carrying: str, kind: str, seq: int,
              delivery: Visit | None, attempt: int = 1, lost: bool = False) -> Journey:
        """Send attempt ``attempt`` of a transmission, and again while it is lost.

        Args:
            sender, receiver: the link's ends, by name.
            carrying: 'ask', 'tell' or 'reply'.
            kind: the message's class name.
            seq: its sequence number on the link (see :meth:`sequence`).
            delivery: the message's trace delivery (the faults are traced as its children).
            attempt: the attempt this is (a message lost by hand is sent again from its next one).
            lost: this attempt is lost whatever the model says (a fault chosen by hand).

        Returns:
            When it arrives after this attempt was sent, and at which attempt; or why it never does.
        """
        planned: Fate | None = None
        if self.sent is not None and attempt == 1 and not lost:
            pair = (sender, receiver)
            index = self._on_pair.get(pair, 0)
            self._on_pair[pair] = index + 1
            name = MessageName(sender, receiver, carrying, kind, index)
            self.sent.append(name)
            if self.moment is not None:
                self.moments.append(self.moment())
            named = self._named.pop((sender, receiver, carrying == "reply", kind, index), None)
            if named is not None:
                self.befallen.append(name)
                if named == "crash":
                    self.crash_armed = True  # the turnstile marks the letter it sends (see crashes)
                    return Journey(0.0, attempt)
                planned = self._planned_fate(named)
        if planned is None and self._reliable and not lost and not self._planned and not self._cuts:
            return Journey(0.0, attempt)  # the shell's links, until a fault is asked for
        wait = 0.0
        if planned is None and attempt == 1:
            planned = self._take_planned(kind, carrying)
        doomed = planned is _DOOMED
        while True:
            if lost or doomed:
                fate, lost = PLANNED["drop"], False
            elif planned is not None:
                fate, planned = planned, None
            else:
                fate = self.model.fate(sender, receiver, carrying, seq, attempt)
            if fate.lost or self._cut(sender, receiver, self.clock() + wait):
                self.note("dropped", Dropped(kind, carrying, attempt), sender, receiver, delivery)
                if attempt > self.model.retries:
                    reason = f"{kind} from {sender} to {receiver} was lost {attempt} times"
                    self.failures.append(reason)
                    return Journey(wait, attempt, reason)
                wait += min(LONGEST_WAIT, self._first_wait * 2 ** (attempt - 1))
                attempt += 1
                self.note("retried", Retried(kind, carrying, attempt), sender, receiver, delivery)
                continue
            if fate.copies > 1:  # the receiving end knows the copy's sequence number: it drops it
                self.note("duplicated", Duplicated(kind, carrying, attempt), sender, receiver, delivery)
            if fate.delay:
                self.note("delayed", Delayed(kind, carrying, attempt, fate.delay), sender, receiver, delivery)
                wait += fate.delay
            if fate.reordered:  # overtaken on its link, and put back in its place at the other end
                self.note("delayed", Delayed(kind, carrying, attempt, 0.0), sender, receiver, delivery)
            return Journey(wait, attempt)

    def crashes(self, envelope: object) -> bool:
        """Whether the receiver of ``envelope`` crashes on it instead of handling it (asked by the
        turnstile as it lets the delivery in: a message named with the fault ``crash``)."""
        for index, marked in enumerate(self.crashing):
            if marked is envelope:
                del self.crashing[index]
                return True
        return False

    def duplicate(self, sender: str, receiver: str, carrying: str, kind: str, attempt: int,
                  delivery: Visit | None) -> None:
        """A transmission arrived twice (a fault chosen by hand): its copy is dropped at the other end."""
        self.note("duplicated", Duplicated(kind, carrying, attempt), sender, receiver, delivery)

    def note(self, count: str, marker: object, sender: str, receiver: str, delivery: Visit | None) -> None:
        """Count a fault, and trace it as a child of the message it befell (when that is traced)."""
        self.counts[count] += 1
        if delivery is not None:
            delivery.instrument.post(sender, receiver, marker, parent=delivery).done()

    def _take_planned(self, kind: str, carrying: str) -> Fate | None:
        fault = self._planned.take(kind, carrying)
        return None if fault is None else self._planned_fate(fault)

    def _planned_fate(self, fault: str) -> Fate:
        if fault == "delay":  # held past the first timeout, as the network holds it
            return Fate(False, 1, 10 * self._first_wait, False)
        if fault == LOSE:
            return _DOOMED
        return PLANNED[fault]

    def _cut(self, sender: str, receiver: str, now: float) -> bool:
        if self.model.partitions and self.model.cut(sender, receiver, now):
            return True
        return any(now < until and separated(sender, receiver, actors, apart, {})
                   for actors, apart, until in self._cuts)
