"""How a letter crosses a failing link under the delivery turnstile, and what befalls it there:
sent, delayed, given up on, or dropped or duplicated by hand; and how a reply crosses back."""

from __future__ import annotations

import heapq
import itertools
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from actors.kernel.deliveries import Letter, Waiting, acting, fail
from actors.kernel.errors import ActorUnavailable, LinkFailure
from actors.kernel.messaging import Ref, ScheduledReply
from actors.kernel.policies import Ready
from actors.kernel.scheduled_links import Journey, ScheduledLinks

LINK_FAULTS = ("drop", "duplicate")
"""The faults :meth:`Turnstile.befall` gives a waiting delivery chosen by hand."""


class TurnstileLinks:
    """What :class:`~actors.kernel.schedule.Turnstile` does when its actors' mail crosses failing
    links (see actors.kernel.scheduled_links): every delay and loss is on the schedule's clock."""

    links: ScheduledLinks | None
    clock: float
    _lock: threading.RLock
    _seq: itertools.count[int]
    _names: dict[str, str]
    _refs: dict[str, Ref]
    _mail: dict[str, deque[Letter]]
    _addressed: set[str]
    _gone: set[str]
    _timers: list[tuple[float, int, Letter | Callable[[], None]]]
    _late: dict[tuple[str, str], float]
    _broken: dict[tuple[str, str], str]
    attach: Callable[[ScheduledLinks | None], None]
    _note_answer: Callable[[ScheduledReply | None], None]
    _ready_now: Callable[[], list[tuple[Ready, Letter | Waiting]]]

    def _cross(self, letter: Letter) -> None:
        """Under the lock: send ``letter`` across its link; it arrives now, later, or never."""
        links = self.links
        assert links is not None
        receiver = self._names.get(letter.urn, "?")
        # A pair is the sending actor's incarnation (a restarted one starts afresh, as a new
        # process's links do) and the receiver's.
        letter.pair = pair = (getattr(acting, "urn", None) or "client", letter.urn)
        carrying = "tell" if letter.reply is None else "ask"
        sender = letter.envelope.sender
        letter.link_seq = links.sequence(sender, receiver, carrying)
        if pair in self._broken:
            self._refuse(letter, self._broken[pair])
            return
        journey = links.cross(sender, receiver, carrying, type(letter.envelope.message).__name__,
                              letter.link_seq, letter.envelope.delivery)
        if links.crash_armed:  # named to crash its receiver: known by its envelope when let in
            links.crash_armed = False
            links.crashing.append(letter.envelope)
        self._travel(letter, journey)

    def _travel(self, letter: Letter, journey: Journey) -> None:
        """Under the lock: ``letter`` arrives as ``journey`` says, never before what its sender sent
        to the same receiver earlier (the receiving end hands a pair's messages over in order)."""
        pair = letter.pair
        assert pair is not None
        letter.attempts = journey.attempts
        failure = journey.failure
        when = max(self.clock + journey.wait, self._late.get(pair, 0.0))
        if failure is not None:  # given up when its last attempt's timeout ends

            def give_up() -> None:
                self._broken.setdefault(pair, f"the link broke: {failure}")
                self._refuse(letter, self._broken[pair])

            self._late[pair] = when
            heapq.heappush(self._timers, (when, next(self._seq), give_up))
        elif when > self.clock:
            self._late[pair] = when
            heapq.heappush(self._timers, (when, next(self._seq), letter))
        else:
            self._arrive(letter)

    def _refuse(self, letter: Letter, reason: str) -> None:
        receiver = self._names.get(letter.urn, "the actor")
        kind = type(letter.envelope.message).__name__
        fail(letter.reply, LinkFailure(f"{receiver} did not answer {kind}: {reason}"))
        if letter.reply is not None:
            self._note_answer(letter.reply)

    def _arrive(self, letter: Letter) -> None:
        """Under the lock: ``letter`` reaches its receiver's mailbox (a mailbox gone: it fails)."""
        if letter.pair in self._broken:  # behind a message given up on: nothing may take its place
            assert letter.pair is not None
            self._refuse(letter, self._broken[letter.pair])
            return
        urn = letter.urn
        ref = self._refs.get(urn)
        if urn in self._gone or urn not in self._mail or ref is None or not ref.is_alive():
            name = self._names.get(urn, "the actor")
            fail(letter.reply, ActorUnavailable(f"{name} is not running"))
            if letter.reply is not None:
                self._note_answer(letter.reply)
            return
        letter.seq, letter.item = next(self._seq), None  # ready from its arrival
        self._mail[urn].append(letter)
        self._addressed.add(urn)

    def _answer(self, urn: str, grant: Letter, value: Any, error: BaseException | None) -> None:
        """Under the lock: the receiver's reply to ``grant`` crosses the link back to its asker."""
        reply = grant.reply
        if reply is None:
            return
        links = self.links
        if links is None or grant.pair is None:
            if error is None:
                reply.resolve(value, None)
            else:
                fail(reply, error)
            self._note_answer(reply)
            return
        sender, asker = self._names.get(urn, "?"), grant.envelope.sender
        kind = type(grant.envelope.message).__name__
        seq = links.sequence(sender, asker, "reply")
        reply.answered = grant.envelope
        journey = links.cross(sender, asker, "reply", kind, seq, grant.envelope.delivery)
        if journey.failure is not None:
            value, error = None, LinkFailure(f"{sender} could not answer {kind}: {journey.failure}")

        def hand_over() -> None:
            if error is None:
                reply.resolve(value, None)
            else:
                fail(reply, error)
            self._note_answer(reply)

        pair = (sender, f"reply to {grant.pair[0]}")  # a pair's replies, in order, apart from its asks
        when = max(self.clock + journey.wait, self._late.get(pair, 0.0))
        if when > self.clock:
            self._late[pair] = when
            heapq.heappush(self._timers, (when, next(self._seq), hand_over))
        else:
            hand_over()

    def _due(self, limit: float) -> bool:
        """Under the lock: move the clock to the next arrival on the way, if it comes by ``limit``,
        and let everything due by then arrive. False if nothing is on its way so soon."""
        if not self._timers or self._timers[0][0] > limit:
            return False
        self.clock = max(self.clock, self._timers[0][0])
        while self._timers and self._timers[0][0] <= self.clock:
            _, _, held = heapq.heappop(self._timers)
            if isinstance(held, Letter):
                self._arrive(held)
            else:
                held()
        return True

    def befall(self, chosen: Ready, fault: str) -> str:
        """Befall the waiting delivery ``chosen`` with ``fault`` (one of :data:`LINK_FAULTS`) on its
        link, as a person chooses in step mode; returns what happened, in a line.

        A dropped message is sent again after the link's timeout, and arrives then (so what can run
        meanwhile runs first), it and what its sender sent after it to the same receiver; a dropped
        reply likewise. A duplicate's copy is recognised by its sequence number and dropped.

        Raises:
            ValueError: the delivery is not waiting, or nothing of it crossed a link (a timeout).
        """
        if fault not in LINK_FAULTS:
            raise ValueError(f"unknown fault {fault!r}: use {' or '.join(LINK_FAULTS)}")
        with self._lock:
            if self.links is None:
                self.attach(ScheduledLinks())
            links = self.links
            assert links is not None
            target = next((pending for item, pending in self._ready_now() if item is chosen), None)
            if target is None:
                raise ValueError("that delivery is no longer waiting")
            if isinstance(target, Waiting):
                if target.timed_out and not target.reply.resolved:
                    raise ValueError(f"{chosen.actor}'s wait timed out: no reply crossed a link to drop")
                return self._befall_reply(target, fault)
            return self._befall_letter(target, fault)

    def _befall_letter(self, letter: Letter, fault: str) -> str:
        links = self.links
        assert links is not None
        receiver, sender = self._names.get(letter.urn, "?"), letter.envelope.sender
        kind = type(letter.envelope.message).__name__
        carrying = "tell" if letter.reply is None else "ask"
        if letter.pair is None:  # sent before the links failed: its place on them is taken now
            letter.pair = (sender, letter.urn)
            letter.link_seq = links.sequence(sender, receiver, carrying)
        if fault == "duplicate":
            links.duplicate(sender, receiver, carrying, kind, letter.attempts, letter.envelope.delivery)
            return (f"duplicated: {receiver} <- {sender}: {kind}; the copy arrives too, and {receiver}'s end"
                    f" of the link drops it (its sequence number, {letter.link_seq}, was seen)")
        mailbox = self._mail[letter.urn]
        behind = [other for other in mailbox if other is not letter and other.pair == letter.pair]
        for other in (letter, *behind):
            mailbox.remove(other)
        if not mailbox:
            self._addressed.discard(letter.urn)
        # What its sender sent after it and is still on its way must arrive after it too.
        travelling = sorted((timer for timer in self._timers
                             if isinstance(timer[2], Letter) and timer[2].pair == letter.pair),
                            key=lambda timer: timer[:2])
        if travelling:
            self._timers = [timer for timer in self._timers if timer not in travelling]
            heapq.heapify(self._timers)
            behind.extend(timer[2] for timer in travelling if isinstance(timer[2], Letter))
        journey = links.cross(sender, receiver, carrying, kind, letter.link_seq, letter.envelope.delivery,
                              attempt=letter.attempts, lost=True)
        self._late.pop(letter.pair, None)
        self._travel(letter, journey)
        for other in behind:  # they arrive after it, or fail with it
            self._travel(other, Journey(0.0, other.attempts))
        if journey.failure is not None:
            return f"dropped: {receiver} <- {sender}: {kind}, for good ({journey.failure})"
        return (f"dropped: {receiver} <- {sender}: {kind}; sent again (attempt {journey.attempts}),"
                f" it arrives {journey.wait * 1000:g} ms later")

    def _befall_reply(self, waiting: Waiting, fault: str) -> str:
        links = self.links
        assert links is not None
        asker = self._names.get(waiting.urn, "?")
        answered = waiting.reply.answered
        kind = type(answered.message).__name__ if answered is not None else "reply"
        delivery = answered.delivery if answered is not None else None
        what = f"the reply to {kind} from {waiting.waiting_for} to {asker}"
        if fault == "duplicate":
            links.duplicate(waiting.waiting_for, asker, "reply", kind, 1, delivery)
            return f"duplicated: {what}; {asker}'s end takes the first copy and drops the other (stale)"
        journey = links.cross(waiting.waiting_for, asker, "reply", kind,
                              links.sequence(waiting.waiting_for, asker, "reply"), delivery, lost=True)
        waiting.since, waiting.item = None, None

        def hand_over() -> None:
            waiting.since = next(self._seq)
            if journey.failure is not None and not waiting.timed_out:
                waiting.reply.resolve(None, LinkFailure(f"{waiting.waiting_for} could not answer:"
                                                        f" {journey.failure}"))

        heapq.heappush(self._timers, (self.clock + journey.wait, next(self._seq), hand_over))
        if journey.failure is not None:
            return f"dropped: {what}, for good ({journey.failure})"
        return (f"dropped: {what}; sent again (attempt {journey.attempts}),"
                f" it arrives {journey.wait * 1000:g} ms later")
