"""The delivery turnstile: the same actors, one delivery handled at a time, in an order a policy chooses.

Under a turnstile a send files the message in the receiver's mailbox here; when the turnstile lets that
delivery run, it puts a token in the receiver's pykka inbox, and the receiver's thread runs it.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pykka

from actors.kernel.deliveries import Letter, Turn, Waiting, acting, fail, outcome, since
from actors.kernel.errors import ActorTimeout, ActorUnavailable, LinkFailure
from actors.kernel.messaging import ROUTES, Envelope, Ref, ScheduledReply
from actors.kernel.policies import Fifo, Policy, Ready, Reoffer, ScheduleError, Step, parse_policy, record_of
from actors.kernel.scheduled_links import Journey, ScheduledLinks

if TYPE_CHECKING:
    from actors.kernel.actor import TracedActor

STEP_LIMIT = 30.0
"""Seconds a single step may run before the driver calls it stuck (real time, not the schedule's)."""

LINK_FAULTS = ("drop", "duplicate")
"""The faults :meth:`Turnstile.befall` gives a waiting delivery chosen by hand."""


class Turnstile:
    """Runs one actor system's deliveries one at a time, in the order ``policy`` chooses.

    The thread waiting for a reply from outside the actors (the client) drives: while its reply is
    not in, it asks the policy for the next ready delivery and lets it run to its end, or to the
    point where that actor waits for a reply of its own. Time is the schedule's: a delivery takes no
    time, and when nothing can run the clock jumps to the next thing that would happen in real time:
    a stalled actor (see :meth:`hold`) takes mail again, or the wait that began first times out.
    Over failing links (see actors.kernel.scheduled_links) every delay and loss is on that clock too.

    Args:
        policy: chooses the next delivery (see actors.kernel.policies).
    """

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy: Policy = policy or Fifo()
        self.steps: list[Step] = []
        # One lock; the driver waits on ``_cond`` and each actor at its own gate, so that a grant
        # wakes the one thread it lets in rather than every thread waiting (the cost of a step).
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self._gates: dict[str, threading.Condition] = {}
        self._driver = threading.Lock()
        self._seq = itertools.count()
        self._names: dict[str, str] = {}
        self._refs: dict[str, Ref] = {}
        self._mail: dict[str, deque[Letter]] = {}
        self._addressed: set[str] = set()  # the actors whose mailbox holds a letter (few, most steps)
        self._waiting: dict[str, Waiting] = {}
        self._grants: dict[str, Letter | Waiting] = {}
        self._running: str | None = None
        self._sends: set[str] = set()
        self._answers: set[str] = set()
        self._chosen: Ready | None = None
        self._closed = False
        self.clock = 0.0
        """The schedule's time in seconds: it moves only when a wait times out or a stall ends."""
        self._holds: dict[str, float] = {}  # stalled actors: urn -> when they take mail again
        self._gone: set[str] = set()  # actors forgotten while they might wait at their gate
        self._piloting = False  # the actors let each other in (see _pilot)
        self._target: ScheduledReply | None = None  # piloting until this reply is in (None: until idle)
        self._failure: Exception | None = None  # what the policy raised while an actor asked it
        self.links: ScheduledLinks | None = None
        """The links the actors' mail crosses (None: reliable; see actors.kernel.scheduled_links)."""
        self.watchers: list[Callable[[Step], None]] = []
        """Called with each step as it ends, every actor parked (the one whose step ended is done or
        waits for a reply): what a watcher reads of the actors is a state between two deliveries.
        A watcher neither sends nor raises: it notes what it finds."""
        # Over failing links: what is on its way, by when it arrives on the schedule's clock (a
        # letter, or the action that hands a reply over), the last arrival on each pair, broken pairs.
        self._timers: list[tuple[float, int, Letter | Callable[[], None]]] = []
        self._late: dict[tuple[str, str], float] = {}
        self._broken: dict[tuple[str, str], str] = {}

    # -- joining

    def adopt(self, name: str, ref: Ref) -> None:
        """Put the actor ``name`` under this turnstile (its sends and deliveries go through it)."""
        with self._lock:
            self._names[ref.actor_urn] = name
            self._refs[ref.actor_urn] = ref
            self._mail.setdefault(ref.actor_urn, deque())
        ROUTES[ref.actor_urn] = self

    def attach(self, links: ScheduledLinks | None) -> None:
        """Send the actors' mail across ``links`` from now on (None: reliable links again)."""
        with self._lock:
            self.links = links
            self._late.clear()
            self._broken.clear()
            if links is not None:
                links.clock = lambda: self.clock

    def close(self) -> None:
        """Let every waiting gate go (its delivery fails) and take the actors off the turnstile."""
        with self._lock:
            self._closed = True
            for _, _, held in self._timers:
                if isinstance(held, Letter):
                    fail(held.reply, ActorUnavailable("the game closed before this message arrived"))
            self._timers.clear()
            for urn in self._names:
                ROUTES.pop(urn, None)
            for mailbox in self._mail.values():
                for letter in mailbox:
                    fail(letter.reply, ActorUnavailable("the game closed before this message was delivered"))
                mailbox.clear()
            self._addressed.clear()
            self._cond.notify_all()
            for gate in self._gates.values():
                gate.notify_all()
        withdraw = getattr(self.policy, "withdraw", None)
        if withdraw is not None:
            withdraw()

    def hold(self, name: str, ref: Ref, seconds: float) -> None:
        """Stall the actor ``name``: it takes no delivery (nor resumes) for ``seconds`` of the schedule's
        time, as an actor stuck in a handler takes none; its mail waits, and waits on it time out."""
        with self._lock:
            self._holds[ref.actor_urn] = self.clock + seconds

    def held(self) -> dict[str, float]:
        """The stalled actors by name, each with the seconds left until it takes mail again."""
        with self._lock:
            return {self._names.get(urn, "?"): until - self.clock for urn, until in self._holds.items()}

    def in_flight(self) -> bool:
        """Whether a message is on its way on a failing link (it arrives when nothing else can run)."""
        with self._lock:
            return bool(self._timers)

    def forget(self, ref: Ref) -> None:
        """The actor is being stopped (its supervisor unregistered it): its mail fails, its stall ends."""
        with self._lock:
            self._holds.pop(ref.actor_urn, None)
            self._drop(ref.actor_urn)
            self._gone.add(ref.actor_urn)
            self._gate(ref.actor_urn).notify_all()

    @contextmanager
    def using(self, policy: Policy) -> Iterator[None]:
        """Run with ``policy`` for a while (start-up runs in arrival order), then the previous one."""
        previous, self.policy = self.policy, policy
        try:
            yield
        finally:
            self.policy = previous

    # -- sending (called by actors.kernel.messaging)

    def ask(self, ref: Ref, name: str, envelope: Envelope) -> ScheduledReply:
        """File an ask for ``ref``; its reply comes through the returned future."""
        reply = ScheduledReply(self, name, self._sender_key(), next(self._seq))
        self._file(ref, envelope, reply)
        return reply

    def tell(self, ref: Ref, envelope: Envelope) -> None:
        """File a tell for ``ref``."""
        self._file(ref, envelope, None)

    def _sender_key(self) -> str:
        urn = getattr(acting, "urn", None)
        return self._names.get(urn, "client") if urn is not None else "client"

    def _file(self, ref: Ref, envelope: Envelope, reply: ScheduledReply | None) -> None:
        with self._lock:
            if self._closed:
                raise ActorUnavailable(f"{self._names.get(ref.actor_urn, 'the actor')} is not running")
            letter = Letter(next(self._seq), ref.actor_urn, envelope, reply)
            if self.links is not None:
                self._cross(letter)
                return
            self._mail.setdefault(ref.actor_urn, deque()).append(letter)
            self._addressed.add(ref.actor_urn)
            self._sends.add(self._names.get(ref.actor_urn, "?"))
            # The receiver's thread is woken only when its delivery is let in (see _let_in):
            # waking it now would cost a thread switch for it only to wait at its gate.
            if not ref.is_alive():
                self._drop(ref.actor_urn)

    # -- driving

    def wait(self, name: str, reply: ScheduledReply, timeout: float) -> Any:
        """The reply to an ask, driving the schedule if the caller is outside the actors.

        Raises:
            ActorTimeout: the schedule ran out of deliveries before the reply came.
            ActorUnavailable: the actor was dead or crashed on the message.
            ScheduleError: the policy could not choose (a script that does not match, no decision).
        """
        if getattr(acting, "urn", None) is not None:
            return self._block(name, reply, timeout)
        with self._driver:
            patience = self.clock + timeout
            while True:
                with self._lock:
                    if reply.resolved:
                        return outcome(reply)
                    if self._closed:
                        raise ActorUnavailable(f"{name} did not answer: the game closed")
                    ready = self._ready_now()
                    if not ready and not self._advance(patience):
                        if self._holds or self._timers:
                            self.clock = max(self.clock, patience)
                            raise ActorTimeout(f"{name} did not answer within {timeout:g} s")
                        raise ActorTimeout(f"{name} never answered: no delivery is left that could answer")
                    if ready and self.policy.instant:
                        self._pilot(ready, reply)
                        continue
                if ready:
                    self._run(ready)

    def drain(self) -> None:
        """Run the ready deliveries until none is left (the tells a reply left behind)."""
        with self._driver:
            while True:
                with self._lock:
                    ready = self._ready_now()
                    if ready and self.policy.instant:
                        self._pilot(ready, None)
                        continue
                    if not ready and self._due(float("inf")):
                        continue
                if not ready:
                    return
                self._run(ready)

    def step(self, policy: Policy | None = None) -> Step | None:
        """Run one delivery chosen by ``policy`` (default: this turnstile's); None if none is ready."""
        with self._driver:
            with self._lock:
                ready = self._ready_now()
            if not ready:
                return None
            return self._run(ready, policy)

    def _run(self, ready: list[tuple[Ready, Letter | Waiting]], policy: Policy | None = None) -> Step | None:
        chooser = policy or self.policy
        try:
            chosen = chooser.choose([item for item, _ in ready])
        except Reoffer:  # what waits changed under the choice: the caller looks again
            return None
        step = self._let_in(ready, chosen)
        chooser.ran(step)
        return step

    def _let_in(self, ready: list[tuple[Ready, Letter | Waiting]], chosen: Ready) -> Step:
        with self._lock:
            before = len(self.steps)
            if not self._grant(ready, chosen):
                return Step(chosen.actor, None, frozenset(), frozenset())
            if not self._cond.wait_for(lambda: len(self.steps) > before or self._closed, STEP_LIMIT):
                raise ActorTimeout(f"{chosen.actor} ran for more than {STEP_LIMIT:g} s on one delivery")
            return self.steps[-1] if len(self.steps) > before else Step(chosen.actor, None, frozenset(),
                                                                         frozenset())

    # -- the autopilot: a policy that chooses at once is asked by the actor whose step ends, which lets
    # the next delivery in itself: a step then costs one thread switch, not two (there and back).

    def _pilot(self, ready: list[tuple[Ready, Letter | Waiting]], reply: ScheduledReply | None) -> None:
        """Under the lock: run deliveries until ``reply`` is in (None: until none is ready)."""
        self._piloting, self._target = True, reply
        try:
            self._next(ready)
            seen = len(self.steps)
            while self._piloting and not self._closed:
                if not self._cond.wait(STEP_LIMIT) and len(self.steps) == seen:
                    raise ActorTimeout(f"a delivery ran for more than {STEP_LIMIT:g} s")
                seen = len(self.steps)
        finally:
            self._piloting = False
        failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def _next(self, ready: list[tuple[Ready, Letter | Waiting]]) -> None:
        """Under the lock, piloting: let the policy's choice in; stop piloting when none can run."""
        while ready:
            try:
                chosen = self.policy.choose([item for item, _ in ready])
            except Exception as error:  # the driver raises it (a script that does not match, ...)
                self._failure = error
                break
            if self._grant(ready, chosen):
                return
            ready = self._ready_now()
        self._piloting = False
        self._cond.notify_all()

    def _grant(self, ready: list[tuple[Ready, Letter | Waiting]], chosen: Ready) -> bool:
        """Let ``chosen`` in (under the lock); False if its actor turned out dead (its mail fails)."""
        target = next(pending for item, pending in ready if item is chosen)
        urn = target.urn
        if isinstance(target, Letter):
            mailbox = self._mail[urn]
            mailbox.popleft()
            if not mailbox:
                self._addressed.discard(urn)
        self._running = urn
        self._sends, self._answers, self._chosen = set(), set(), chosen
        self._grants[urn] = target
        if not isinstance(target, Letter):
            self._gate(urn).notify_all()
            return True
        try:
            self._refs[urn].tell(Turn(self))
        except pykka.ActorDeadError:
            del self._grants[urn]
            self._running = None
            fail(target.reply, ActorUnavailable(f"{chosen.actor} is not running"))
            self._drop(urn)
            return False
        return True

    def _advance(self, patience: float) -> bool:
        """Nothing can run: move the clock to the next thing that would happen in real time. A stall
        ends (if it ends before the driver's ``patience`` and before every wait's deadline), or the
        wait that began first times out (an actor's wait ends before its asker's). False if neither."""
        stuck = [waiting for waiting in self._waiting.values() if waiting.since is None]
        first = min(stuck, key=lambda waiting: (waiting.deadline, waiting.reply.seq)) if stuck else None
        ends = [(until, urn) for urn, until in self._holds.items()
                if self._mail.get(urn) or urn in self._waiting]
        # A message on its way arrives before anything ends that would end later.
        soonest = min([patience, *(until for until, _ in ends)] + ([first.deadline] if first else []))
        if self._due(soonest):
            return True
        if ends:
            until, urn = min(ends)
            if until <= patience and (first is None or until <= first.deadline):
                self.clock = max(self.clock, until)
                del self._holds[urn]
                return True
        if first is None:
            return False
        self.clock = max(self.clock, first.deadline)
        first.timed_out, first.since = True, next(self._seq)
        return True

    def _end_step(self, urn: str) -> None:
        """The actor ``urn``'s delivery ran to its end or to a wait (one stopped while it waited
        ends nothing: another actor's step may be running); piloting, it lets the next one in."""
        if urn != self._running:
            return
        step = Step(self._names.get(urn, "?"), self._chosen, frozenset(self._sends), frozenset(self._answers))
        self.steps.append(step)
        self._running = None
        for watcher in self.watchers:
            watcher(step)
        if self._piloting:
            self.policy.ran(step)
            target = self._target
            if not self._closed and (target is None or not target.resolved):
                self._next(self._ready_now())
                return
            self._piloting = False
        self._cond.notify_all()

    def _gate(self, urn: str) -> threading.Condition:
        """The condition the actor ``urn`` waits on to be let in (called under the lock)."""
        gate = self._gates.get(urn)
        if gate is None:
            gate = self._gates[urn] = threading.Condition(self._lock)
        return gate

    # -- the actors' side

    def run_turn(self, actor: TracedActor[Any]) -> None:
        """In ``actor``'s thread: wait at the gate for its next delivery, run it, answer its asker."""
        urn = actor.actor_ref.actor_urn
        with self._lock:
            # The token comes with the grant, so the gate is normally open already.
            if not isinstance(self._grants.get(urn), Letter) and not self._gate(urn).wait_for(
                lambda: isinstance(self._grants.get(urn), Letter) or self._closed, actor.timeout + STEP_LIMIT
            ):
                return  # never let in: a driver gone away; the message's asker times out on its own
            grant = self._grants.pop(urn, None)
        if not isinstance(grant, Letter):
            return
        links = self.links
        if links is not None and links.crashes(grant.envelope):
            actor._crash_on = type(grant.envelope.message).__name__  # it dies on this very delivery
        acting.urn = urn
        try:
            answer = actor.receive(grant.envelope)
        except Exception as error:  # every failure goes to the asker, as pykka's loop would send it
            with self._lock:
                self._answer(urn, grant, None, error)
                if actor.actor_stopped.is_set():
                    self._drop(urn)
                self._end_step(urn)
            return
        finally:
            acting.urn = None
        with self._lock:
            self._answer(urn, grant, answer, None)
            self._end_step(urn)

    def _note_answer(self, reply: ScheduledReply | None) -> None:
        if reply is None:
            return
        self._answers.add(reply.asker)
        for waiting in self._waiting.values():
            if waiting.reply is reply:
                waiting.since = next(self._seq)

    def _block(self, name: str, reply: ScheduledReply, timeout: float) -> Any:
        """An actor waits for a reply: its step ends, and it resumes when the turnstile lets it."""
        urn = acting.urn
        with self._lock:
            if reply.resolved:
                return outcome(reply)
            waiting = Waiting(urn, reply, name, self.clock + timeout)
            self._waiting[urn] = waiting
            self._end_step(urn)
            let_in = self._gate(urn).wait_for(
                lambda: self._grants.get(urn) is waiting or self._closed or urn in self._gone, STEP_LIMIT * 4
            )
            self._grants.pop(urn, None)
            self._waiting.pop(urn, None)
            if urn in self._gone:
                raise ActorUnavailable(f"{name} did not answer: the actor waiting for it is being stopped")
            if not let_in or self._closed:
                raise ActorTimeout(f"{name} did not answer: the schedule stopped")
            if waiting.timed_out and not reply.resolved:
                raise ActorTimeout(f"{name} did not answer: nothing left to deliver could answer it")
        return outcome(reply)

    # -- what waits: what the policy is offered, read under the lock

    def ready(self) -> list[Ready]:
        """The deliveries that may run next, oldest first (one per actor at most)."""
        with self._lock:
            return [item for item, _ in self._ready_now()]

    def queued(self) -> list[Ready]:
        """Every delivery waiting: the ready ones first, then those behind a mailbox's head."""
        with self._lock:
            ready = [item for item, _ in self._ready_now()]
            behind = []
            for urn, mailbox in self._mail.items():
                first = 1 if urn not in self._waiting and urn not in self._holds else 0
                for letter in itertools.islice(mailbox, first, None):
                    behind.append(self._describe(urn, letter, ready=False))
            return ready + sorted(behind, key=lambda item: item.since)

    def on_the_way(self) -> list[tuple[Ready, float]]:
        """The messages on their way over failing links (sent again after a loss, or delayed), each
        with the seconds of the schedule's time until it arrives, soonest first."""
        with self._lock:
            return [(self._describe(held.urn, held, ready=False, travelling=True), when - self.clock)
                    for when, _, held in sorted(self._timers, key=lambda timer: timer[:2])
                    if isinstance(held, Letter)]

    def _describe(self, urn: str, letter: Letter, ready: bool = True, travelling: bool = False) -> Ready:
        body = letter.envelope.message
        waits = "reply" if letter.reply is not None else "nothing"
        if urn in self._holds:
            waits += f", queued: {self._names[urn]} is stalled for {self._holds[urn] - self.clock:g} s more"
        elif travelling:
            waits += ", on its way"
        elif not ready:
            waits += ", queued behind its mailbox's head"
        return Ready(self._names[urn], type(body).__name__, letter.envelope.sender, body, waits,
                     letter.seq)

    def _ready_now(self) -> list[tuple[Ready, Letter | Waiting]]:
        # Called before every step: it builds each offer once (cached on the letter or the wait), and
        # leaves dead actors to be found when let in (a crash or a stop drops an actor's mail at once).
        found: list[tuple[Ready, Letter | Waiting]] = []
        running, grants, holds, waits = self._running, self._grants, self._holds, self._waiting
        for urn, waiting in waits.items():
            if waiting.since is None or urn in grants or urn == running or urn in holds:
                continue
            if waiting.item is None:
                state = "timed out" if waiting.timed_out else "reply in"
                waiting.item = Ready(self._names[urn], "resume", waiting.waiting_for, None,
                                     f"{state} from {waiting.waiting_for}", waiting.since, resume=True)
            found.append((waiting.item, waiting))
        for urn in self._addressed:
            if urn in waits or urn in grants or urn == running or urn in holds:
                continue
            letter = self._mail[urn][0]
            if letter.item is None:
                letter.item = self._describe(urn, letter)
            found.append((letter.item, letter))
        found.sort(key=since)
        return found

    def _drop(self, urn: str) -> None:
        """An actor is gone: every message still filed for it fails, as pykka fails a dead inbox."""
        name = self._names.get(urn, "the actor")
        for letter in self._mail.get(urn, ()):
            fail(letter.reply, ActorUnavailable(f"{name} is not running"))
        self._mail.pop(urn, None)
        self._addressed.discard(urn)
        self._waiting.pop(urn, None)

    # -- over failing links: every delay and loss on the schedule's clock

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


def make_turnstile(schedule: str | Policy | Turnstile | None) -> Turnstile | None:
    """The turnstile a schedule stands for (None for free).

    Raises:
        InputError: an unknown schedule name.
    """
    if schedule is None or isinstance(schedule, Turnstile):
        return schedule
    policy = parse_policy(schedule) if isinstance(schedule, str) else schedule
    return None if policy is None else Turnstile(policy)


@contextmanager
def start_up(turnstile: Turnstile | None) -> Iterator[None]:
    """Start-up runs in arrival order under any schedule, and is left out of the recorded steps."""
    if turnstile is None:
        yield
        return
    with turnstile.using(Fifo()):
        yield
        turnstile.drain()
    turnstile.steps.clear()


__all__ = [
    "STEP_LIMIT", "ScheduleError",
    "Step", "Turn", "Turnstile", "make_turnstile", "record_of", "start_up",
]

