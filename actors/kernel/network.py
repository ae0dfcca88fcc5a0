"""The network: every message crosses a link that may fail, and arrives exactly once, in order, anyway.

A policy on the delivery path (see :class:`actors.kernel.messaging.Route`), beside the turnstile.
Under a :class:`~actors.kernel.links.LinkModel` each transmission may be lost, duplicated, delayed
or reordered, and a partition cuts actors off for a time. Over those links the network keeps
the guarantee pykka gives in one process, per pair of actors, as TCP does over IP:

- **Incarnations.** Every start of an actor (the first, a restart, a move to another node) is a new
  incarnation, named for the trace and the seed by its name and how many times that name was started
  on this network ('board', then 'board#2'); the client and the supervisor it runs are one, 'client'.
  Sequence numbers, acknowledgements and the fates the model draws belong to a pair of incarnations,
  never to a thread (threads' idents are reused). Mail from or to an incarnation that was replaced
  is dropped where it arrives (a ``Fenced`` mark in the trace): a replaced actor changes nothing.
- **Sequence numbers.** Each (sender, receiver) pair of incarnations numbers its asks and tells; the
  receiving end
  hands them to the receiver's mailbox in that order, once each: a copy it has had already (a
  duplicate, or a sending again whose acknowledgement was lost) is dropped, and one that overtook
  an earlier message waits for it.
- **Acknowledgements and sending again.** The receiving end acknowledges every arrival (the
  acknowledgement crosses the link back, and may be lost too); the sending end sends again what is
  not acknowledged, after a timeout that doubles each time (backoff), at most ``retries`` times.
  Replies are sent the same way, and the asker's end takes the first and drops the rest (a reply
  to an ask already answered is stale). So an ask is handled once however often it crosses, and a
  tell (a piece's ``Declare``, a ``Captured``) arrives for certain, in its place.
- **Giving up is a named failure.** When every attempt of a message is lost, its asker's reply
  fails with :class:`~actors.kernel.errors.LinkFailure`, and the pair's link breaks (nothing after
  the lost message may be handed over in its place: every later ask on it fails the same way):
  nothing is decided on a message that never came.

Fates are the model's (seeded by each transmission's identity, never by the clock); times are
kept on one timer thread, whose events run in the order of the times they stand for, so a
delayed message and the timeout that would send it again are ordered the same way on any machine.
Each fault is a trace event of its own (``Dropped``, ``Duplicated``, ``Delayed``, ``Retried``),
a child of the message it befell, and counted in :attr:`Network.counts`.

Everything above runs in the sending process. On nodes each process has a network of its own for
the mail its actors send, and the last step, handing a message to its receiver, takes the remote
route when the receiver runs in another process (:meth:`~actors.kernel.remote.RemoteRef.post`); an
ask's reply comes back from there and crosses the modelled link back here.
"""

from __future__ import annotations

import heapq
import itertools
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from actors.kernel.errors import ActorUnavailable, LinkFailure
from actors.kernel.fault_marks import Delayed, Dropped, Duplicated, Fenced, Retried
from actors.kernel.links import COUNTED, Fate, LinkModel, PlannedFaults, separated
from actors.kernel.mailbox import Posted, Reply
from actors.kernel.messaging import ROUTES, Directory, Envelope, Ref
from actors.kernel.packets import Packet, Pair, as_exc_info, settle
from actors.kernel.remote import RemoteRef

if TYPE_CHECKING:
    from pykka._types import OptExcInfo

    from actors.kernel.instrument import Instrument

__all__ = ["LOSE", "PLANNED", "Network"]

FIRST_WAIT = 0.0001
"""Seconds, beyond the round trip of a delayed message, before one not yet acknowledged is sent again
the first time (then twice as long each time)."""

LONGEST_WAIT = 0.25
"""The backoff's ceiling: no wait between two attempts is longer."""

PLANNED = {
    "drop": Fate(True, 0, 0.0, False),
    "duplicate": Fate(False, 2, 0.0, False),
    "delay": Fate(False, 1, 0.0, False),  # the time is set from the model's first timeout
    "reorder": Fate(False, 1, 0.0, True),
}
"""The faults :meth:`Network.plan` can give a chosen message, each survived by the protocol."""

LOSE = "lose"
"""The fault :meth:`Network.plan` also gives: lost on every attempt, for good (the game then fails with
LinkFailure, or the heal resolves a lost reply: never a verdict on a message that did not come)."""
_LOST = Fate(True, 0, 0.0, False)


class Network:
    """The links of one actor system under ``model``; adopt actors, close it when the system stops.

    Args:
        model: the faults of every link.
        recorder: traces each fault when given.
    """

    def __init__(self, model: LinkModel, recorder: Instrument | None = None) -> None:
        self.model = model
        self.recorder = recorder
        self.counts: Counter[str] = Counter({name: 0 for name in COUNTED})
        """How many transmissions were dropped, duplicated, delayed (or reordered), and sent again."""
        self.failures: list[str] = []
        """What the network gave up on (a message every attempt of which was lost)."""
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._names: dict[str, str] = {}
        self._labels: dict[str, str] = {}  # an actor's urn -> its incarnation ('board', 'board#2')
        self._serving: dict[str, str] = {}  # a name -> the urn of the incarnation that serves it now
        self._starts: Counter[str] = Counter()  # how many incarnations each name has had here
        self._refs: dict[str, Ref] = {}  # an actor's urn -> its ref (is that incarnation still running?)
        self._seqs: dict[Pair, int] = {}
        self._expected: dict[Pair, int] = {}
        self._early: dict[Pair, dict[int, Packet]] = {}
        self._broken: dict[Pair, str] = {}
        self._holding: dict[tuple[str, str], list[Packet]] = {}  # by link: (sender, receiver)
        self._timers: list[tuple[float, int, Callable[[Packet, float], None], Packet]] = []
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._began = time.monotonic()
        self._first_wait = FIRST_WAIT + 2 * model.delay_seconds  # a delayed message and its delayed
        # acknowledgement come back before it is sent again (it is sent again when either is lost)
        self._cuts: list[tuple[frozenset[str], frozenset[str], float]] = []  # partitions made while running
        self.places: Mapping[str, str] = {}
        """Each actor's node by name, on nodes: a partition may name a node for its actors."""
        self._quiet = threading.Condition(self._lock)  # a sender's last tell on its way acknowledged
        self._lost_tells: dict[str, str] = {}  # by sender: why a tell of its was given up
        self._planned = PlannedFaults()
        self.points: int | None = None
        """Messages sent since :meth:`count_points` (None: not counting)."""
        self._nth: dict[int, str] = {}
        self._reply_seqs: dict[Pair, int] = {}  # replies sent on each pair
        self._telling: Counter[str] = Counter()  # tells not yet acknowledged, by sender
        self._deferred: dict[str, list[Packet]] = {}  # replies waiting for their sender's tells
        self._replies_expected: dict[Pair, int] = {}
        self._replies_early: dict[Pair, dict[int, Packet]] = {}

    # -- joining (called by the directory)

    def adopt(self, name: str, ref: Ref) -> None:
        """Put the actor ``name`` behind this network: mail to it crosses a link."""
        urn = ref.actor_urn
        with self._lock:
            self._names[urn] = name
            if urn not in self._labels:  # a new incarnation: its links start afresh
                self._starts[name] += 1
                starts = self._starts[name]
                self._labels[urn] = name if starts == 1 else f"{name}#{starts}"
            self._serving[name] = urn
            self._refs[urn] = ref
        ROUTES[urn] = self

    def incarnation(self, ref: Ref) -> str:
        """The incarnation ``ref`` is on this network ('white-pawn-e2', 'white-pawn-e2#2'; '' if
        it was never adopted)."""
        with self._lock:
            return self._labels.get(ref.actor_urn, "")

    def forget(self, ref: Ref) -> None:
        """The actor is being stopped: its mail no longer goes through the network, and what it
        still sends is fenced (it serves its name no longer)."""
        urn = ref.actor_urn
        ROUTES.pop(urn, None)
        with self._lock:
            name = self._names.get(urn)
            if name is not None and self._serving.get(name) == urn:
                del self._serving[name]

    def join(self, directory: Directory) -> None:
        """Put a running system's actors (a pooled one, borrowed) behind this network."""
        directory.network = self
        for name in directory.names():
            ref = directory.ref(name)
            if ref is not None:
                self.adopt(name, ref)

    def leave(self, directory: Directory) -> None:
        """Give the system back its reliable links (see :meth:`close`)."""
        directory.network = None
        self.close()

    def close(self) -> None:
        """Finish what is on its way, stop the timer thread and take every actor off the network.

        What is on its way when the system stops (a tell whose acknowledgement was lost, say) is
        finished first, its timeouts run at once in their order, so that what the run counts does
        not depend on how soon after its last reply the system stopped.
        """
        with self._lock:
            for _ in range(100_000):  # a bound: each event is finished, or sends again at most ``retries``
                if not self._timers:
                    break
                when, _, action, packet = heapq.heappop(self._timers)
                action(packet, when)
            self._closed = True
            self._quiet.notify_all()
            for urn in self._names:
                ROUTES.pop(urn, None)
            self._wake.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def partition(self, actors: frozenset[str], seconds: float, apart: frozenset[str] = frozenset()) -> None:
        """Cut ``actors`` off for ``seconds`` from now (a scenario's step): from the rest, or from the
        actors ``apart`` only (names may be nodes': see :attr:`places`)."""
        with self._lock:
            self._cuts.append((actors, apart, self._now() + seconds))

    def plan(self, kind: str, fault: str, *, reply: bool = False, times: int = 1) -> None:
        """Befall the next ``times`` messages of class ``kind`` (or their replies) with ``fault``,
        whatever the model says: a scenario's ``drop next Apply``, a test's single fault.

        ``fault`` is ``drop`` (lost once: it is sent again), ``lose`` (lost on every attempt: lost for
        good), ``duplicate``, ``delay`` (held past the first timeout, so that it is sent again and
        arrives twice) or ``reorder``.

        Raises:
            ValueError: an unknown fault.
        """
        if fault not in PLANNED and fault != LOSE:
            raise ValueError(f"unknown fault {fault!r}: use {', '.join(PLANNED)} or {LOSE}")
        with self._lock:
            self._planned.add(kind, fault, reply, times)

    def count_points(self, faults: Mapping[int, str] | None = None) -> None:
        """Number the messages sent from now on (asks, tells and replies, first attempts only: the
        fault points), and befall the ``n``-th (0-based) with ``faults[n]`` (see :meth:`plan`)."""
        with self._lock:
            self.points = 0
            self._nth = dict(faults or {})
            for fault in self._nth.values():
                if fault not in PLANNED and fault != LOSE:
                    raise ValueError(f"unknown fault {fault!r}: use {', '.join(PLANNED)} or {LOSE}")

    def _planned_fate(self, packet: Packet) -> Fate | None:
        fault = self._planned.take(packet.kind, packet.carrying)
        if fault == LOSE:
            packet.doomed = True
        return None if fault is None else self._planned_fault(fault)

    def _planned_fault(self, fault: str) -> Fate:
        if fault == LOSE:
            return _LOST
        if fault == "delay":
            return Fate(False, 1, 10 * self._first_wait, False)
        return PLANNED[fault]

    # -- sending (called by actors.kernel.messaging)

    def ask(self, ref: Ref, name: str, envelope: Envelope) -> Reply:
        """Send an ask to ``ref`` across its link; the reply comes through the returned future."""
        future = Reply()
        self._send("ask", ref, name, envelope, future)
        return future

    def tell(self, ref: Ref, envelope: Envelope) -> None:
        """Send a tell to ``ref`` across its link (certain to arrive unless the link breaks)."""
        self._send("tell", ref, self._names.get(ref.actor_urn, "?"), envelope, None)

    def _send(self, carrying: str, ref: Ref, name: str, envelope: Envelope, future: Reply | None) -> None:
        with self._lock:
            if self._closed:
                raise ActorUnavailable(f"{name} is not running: the network closed")
            # The sender is the incarnation whose thread sends (an actor's thread knows its actor);
            # the client and the supervisor it runs are one, whose record of a move must reach the
            # journal before its question about the journal does.
            origin = getattr(threading.current_thread(), "actor_urn", None) or ""
            labels = self._labels
            sender = labels.get(origin) or self._label_of(envelope.sender)
            pair = (sender, labels.get(ref.actor_urn) or name)
            seq = self._seqs.get(pair, 0)
            self._seqs[pair] = seq + 1
            packet = Packet(carrying, envelope.sender, name, pair, seq, type(envelope.message).__name__,
                             ref=ref, envelope=envelope, future=future, origin=origin)
            broken = self._broken.get(pair)
            if broken is not None:
                self._give_up(packet, broken)
                return
            if carrying == "tell":
                self._telling[packet.sender] += 1
            self._transmit(packet, self._now())

    def broken_links(self) -> list[str]:
        """Why each link between two running incarnations broke (a message on it lost for good), oldest
        first: such a link carries nothing more, and a game over it must fail rather than go on with
        some moves failing and others accepted. A link to an incarnation since replaced or stopped is
        not listed: its successor's links start afresh."""
        with self._lock:
            running = {"client"} | {
                self._labels[urn] for urn in self._serving.values()
                if urn in self._refs and self._refs[urn].is_alive()
            }
            return [reason for (sender, receiver), reason in self._broken.items()
                    if sender in running and receiver in running]

    def _label_of(self, name: str) -> str:
        """The incarnation a message sent as ``name`` from a thread of no actor of this network comes
        from: the client's (its supervisor's too), or the one serving ``name`` now."""
        if name in ("client", "supervisor"):
            return "client"
        urn = self._serving.get(name)
        return self._labels.get(urn, name) if urn is not None else name

    # -- the link

    def _now(self) -> float:
        return time.monotonic() - self._began

    def _transmit(self, packet: Packet, now: float) -> None:
        """Under the lock: send ``packet`` once more, as its link's model decides."""
        packet.attempts += 1
        attempt = packet.attempts
        if attempt > 1:
            self._note("retried", Retried(packet.kind, packet.carrying, attempt), packet)
        link = (packet.sender, packet.receiver)
        fate = self._fate(packet, attempt)
        if fate.lost or self._cut(packet.sender, packet.receiver, now):
            self._note("dropped", Dropped(packet.kind, packet.carrying, attempt), packet)
        else:
            if fate.copies > 1:
                self._note("duplicated", Duplicated(packet.kind, packet.carrying, attempt), packet)
            if fate.delay:
                self._note("delayed", Delayed(packet.kind, packet.carrying, attempt, fate.delay), packet)
            overtaken = self._holding.pop(link, ())
            for copy in range(fate.copies):
                if copy == 0 and fate.reordered and packet.carrying != "ack":
                    self._note("delayed", Delayed(packet.kind, packet.carrying, attempt, 0.0), packet)
                    self._holding.setdefault(link, []).append(packet)
                elif fate.delay:
                    self._later(now + fate.delay, self._arrive, packet)
                else:
                    self._arrive(packet, now)
            for held in overtaken:
                self._arrive(held, now)
        if packet.carrying != "ack" and not packet.done:
            wait = min(LONGEST_WAIT, self._first_wait * 2 ** (attempt - 1))
            self._later(now + wait, self._again, packet)

    def _fate(self, packet: Packet, attempt: int) -> Fate:
        """What befalls this attempt: a planned fault, else the model's decision."""
        if packet.doomed:
            return _LOST
        if attempt == 1 and packet.carrying != "ack" and self.points is not None:
            point, self.points = self.points, self.points + 1
            fault = self._nth.get(point)
            if fault is not None:
                packet.doomed = fault == LOSE
                return self._planned_fault(fault)
        if self._planned and attempt == 1 and packet.carrying != "ack":
            planned = self._planned_fate(packet)
            if planned is not None:
                return planned
        # Decided for the pair of incarnations the transmission crosses, in its direction.
        first, second = packet.pair
        if packet.carrying == "ack":  # sent once an arrival: told apart by what it acknowledges
            acked = packet.acked
            assert acked is not None
            if acked.carrying != "reply":
                first, second = second, first
            return self.model.fate(first, second, f"ack of {acked.carrying}", packet.seq, packet.arrivals)
        if packet.carrying == "reply":
            first, second = second, first
        return self.model.fate(first, second, packet.carrying, packet.seq, attempt)

    def _cut(self, sender: str, receiver: str, now: float) -> bool:
        if self.model.partitions and self.model.cut(sender, receiver, now, self.places):
            return True
        return any(
            now < until and separated(sender, receiver, actors, apart, self.places)
            for actors, apart, until in self._cuts
        )

    def _again(self, packet: Packet, now: float) -> None:
        """A timeout: send ``packet`` again unless it was acknowledged, or give up on it."""
        if packet.done or self._closed:
            return
        if packet.attempts > self.model.retries:
            if packet.arrivals and packet.carrying in ("ask", "tell"):
                # It arrived, and every acknowledgement of it was lost: the receiving end has it, in
                # its place, so nothing is missing from the sequence and the link stays whole. (Broken
                # when the timer gives up, it would fail whichever later message the clock reached.)
                packet.done = True
                if packet.carrying == "tell":
                    self._told(packet.sender, now)
                return
            self._give_up(packet, f"{packet.kind} from {packet.sender} to {packet.receiver} was lost"
                                  f" {packet.attempts} times")
            return
        self._transmit(packet, now)

    def _told(self, sender: str, now: float, failure: str | None = None) -> None:
        """A tell of ``sender`` was acknowledged (or given up): once none is left on its way, the
        replies it held back go out (each failing with ``failure`` when a tell was lost for good)."""
        self._telling[sender] -= 1
        if failure is not None:
            self._lost_tells[sender] = failure
            for reply in self._deferred.get(sender, ()):
                lost = LinkFailure(f"{sender} could not answer {reply.kind}: {failure}")
                reply.answer = (None, as_exc_info(lost))
        if self._telling[sender] > 0:
            return
        del self._telling[sender]
        self._quiet.notify_all()
        for reply in self._deferred.pop(sender, ()):
            self._transmit(reply, now)

    def told(self, sender: str, timeout: float) -> str | None:
        """Wait, at most ``timeout`` seconds, until no tell ``sender`` sent is still on its way (an
        answer to an asker in another process goes back only then, as :meth:`answer` holds one back
        here); returns why a tell of its was given up since it was last asked, or None."""
        with self._lock:
            self._quiet.wait_for(lambda: self._telling[sender] <= 0 or self._closed, timeout)
            return self._lost_tells.pop(sender, None)

    def _give_up(self, packet: Packet, reason: str) -> None:
        packet.done = True
        self.failures.append(reason)
        if packet.carrying in ("ask", "tell"):
            self._break(packet.pair, reason)
        if packet.carrying == "tell" and packet.attempts:  # it was on its way: its sender waits for it
            self._told(packet.sender, self._now(), reason)
        elif packet.carrying == "tell":  # refused on a broken link: its sender hears of it all the same
            self._lost_tells[packet.sender] = reason
        if packet.future is not None:
            asked = packet.receiver if packet.carrying == "ask" else packet.sender
            failure = (None, as_exc_info(LinkFailure(f"{asked} did not answer {packet.kind}: {reason}")))
            if packet.carrying == "reply":  # in its place: the replies after it are still taken
                packet.answer = failure
                self._take_reply(packet)
            else:
                settle(packet.future, failure)

    def _break(self, pair: Pair, reason: str) -> None:
        """A message of ``pair`` is lost for good: nothing after it can be handed over in its place,
        so what waits behind it fails now, and so does everything sent on the pair from now on."""
        if pair in self._broken:
            return
        self._broken[pair] = f"the link broke: {reason}"
        for held in self._early.pop(pair, {}).values():
            self._refuse(held)

    def _refuse(self, packet: Packet) -> None:
        if packet.future is not None:
            broken = self._broken[packet.pair]
            failure = LinkFailure(f"{packet.receiver} did not answer {packet.kind}: {broken}")
            settle(packet.future, (None, as_exc_info(failure)))

    def _arrive(self, packet: Packet, now: float) -> None:
        """Under the lock: one copy of ``packet`` reaches the other end."""
        if self._closed:
            return
        if packet.carrying == "ack":
            acked = packet.acked
            if acked is not None and not acked.done:
                acked.done = True
                if acked.carrying == "tell":
                    self._told(acked.sender, now)
            return
        packet.arrivals += 1
        self._transmit(Packet("ack", packet.receiver, packet.sender, packet.pair, packet.seq, packet.kind,
                               envelope=packet.envelope, acked=packet, arrivals=packet.arrivals), now)
        if packet.carrying == "reply":
            # The reply is not taken as its ask's acknowledgement: whether it beats the ask's next
            # attempt would depend on how fast the handler ran, and the seed alone decides the faults.
            self._take_reply(packet)
            return
        pair = packet.pair
        if pair in self._broken:
            self._refuse(packet)
            return
        expected = self._expected.get(pair, 0)
        early = self._early.setdefault(pair, {})
        if packet.seq < expected or packet.seq in early:
            return  # a duplicate: handed over once already
        early[packet.seq] = packet
        while expected in early:
            self._deliver(early.pop(expected))
            expected += 1
        self._expected[pair] = expected

    def _take_reply(self, packet: Packet) -> None:
        """The asker's end: settle replies in the order they were sent on their pair, each once.

        A receiver answers one sender's asks in the order they came; the asker may rely on it (the
        client waits for the last of a window of proposals first), so a reply that overtook an
        earlier one waits for it, and a copy of one already taken is stale and dropped.
        """
        pair = packet.pair
        expected = self._replies_expected.get(pair, 0)
        early = self._replies_early.setdefault(pair, {})
        if packet.order < expected or packet.order in early:
            return
        early[packet.order] = packet
        while expected in early:
            taken = early.pop(expected)
            if taken.future is not None and taken.answer is not None:
                settle(taken.future, taken.answer)
            expected += 1
        self._replies_expected[pair] = expected

    def _deliver(self, packet: Packet) -> None:
        """Hand an ask or tell to the receiver's mailbox (its one delivery)."""
        ref = packet.ref
        assert ref is not None
        origin = packet.origin
        if origin and origin in self._names and self._serving.get(self._names[origin]) != origin:
            self._fence(packet, "sender")  # sent by an incarnation replaced since: it changes nothing
            return
        if self._serving.get(packet.receiver, ref.actor_urn) != ref.actor_urn:
            self._fence(packet, "receiver")  # meant for an incarnation replaced since
            return
        if ref.actor_stopped.is_set():
            if packet.future is not None:
                settle(packet.future,
                       (None, as_exc_info(ActorUnavailable(f"{packet.receiver} is not running"))))
            return
        answer = AnswerBack(self, packet) if packet.carrying == "ask" else None
        if isinstance(ref, RemoteRef):  # the receiver runs in another process: the remote route carries it
            assert packet.envelope is not None
            ref.post(packet.envelope, answer)
            return
        inbox: Any = ref.actor_inbox
        inbox.put(Posted(packet.envelope, answer))

    def answer(self, ask: Packet, answer: tuple[Any, OptExcInfo | None]) -> None:
        """The receiver handled ``ask``: send its reply back across the link (called on its thread)."""
        with self._lock:
            if self._closed:
                if ask.future is not None:
                    settle(ask.future, answer)
                return
            order = self._reply_seqs.get(ask.pair, 0)
            self._reply_seqs[ask.pair] = order + 1
            reply = Packet("reply", ask.receiver, ask.sender, ask.pair, ask.seq, ask.kind, order,
                            envelope=ask.envelope, future=ask.future, answer=answer, acked=ask)
            if self._telling[ask.receiver] > 0:
                # What the receiver told others is in their mailboxes before anyone hears its answer
                # (as it is in one process): a piece's new reach reaches the board before the client
                # can propose a move that the board must judge by it.
                self._deferred.setdefault(ask.receiver, []).append(reply)
                return
            self._transmit(reply, self._now())

    def _fence(self, packet: Packet, side: str) -> None:
        """Drop ``packet``, from or to a replaced incarnation (``side``), marked in the trace; its
        asker hears that the actor is not running."""
        recorder = self.recorder
        if recorder is not None:
            recorder.post(packet.sender, packet.receiver, Fenced(packet.kind, packet.carrying, side),
                          parent=packet.delivery).done()
        if packet.future is not None:
            replaced = packet.receiver if side == "receiver" else packet.sender
            failure = ActorUnavailable(f"{replaced} is not running: that incarnation was replaced")
            settle(packet.future, (None, as_exc_info(failure)))

    # -- the timer thread

    def _later(self, when: float, action: Callable[[Packet, float], None], packet: Packet) -> None:
        heapq.heappush(self._timers, (when, next(self._order), action, packet))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="network-timer", daemon=True)
            self._thread.start()
        elif self._timers[0][2] is action and self._timers[0][3] is packet:
            self._wake.notify()

    def _run(self) -> None:
        with self._lock:
            while not self._closed:
                if not self._timers:
                    self._wake.wait()
                    continue
                when = self._timers[0][0]
                ahead = when - self._now()
                if ahead > 0:
                    self._wake.wait(ahead)
                    continue
                _, _, action, packet = heapq.heappop(self._timers)
                action(packet, when)  # later events are stamped from this one's time, not the clock's

    # -- tracing

    def _note(self, count: str, marker: object, packet: Packet) -> None:
        self.counts[count] += 1
        recorder = self.recorder
        if recorder is not None:
            recorder.post(packet.sender, packet.receiver, marker, parent=packet.delivery).done()


class AnswerBack(Reply):
    """What the receiver's loop settles when it has handled an ask: the reply goes back over the link."""

    def __init__(self, network: Network, ask: Packet) -> None:
        super().__init__()
        self.network, self.ask = network, ask

    def set(self, value: Any | None = None) -> None:
        self.network.answer(self.ask, (value, None))

    def set_exception(self, exc_info: OptExcInfo | None = None) -> None:
        self.network.answer(self.ask, (None, exc_info if exc_info is not None else sys.exc_info()))
