"""The delivery turnstile: the same actors, one delivery handled at a time, in an order a policy chooses.

Under a turnstile a send files the message in the receiver's mailbox here; when the turnstile lets that
delivery run, it puts a token in the receiver's pykka inbox, and the receiver's thread runs it.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pykka

from actors.kernel.deliveries import Letter, Turn, Waiting, acting, fail, outcome
from actors.kernel.errors import ActorTimeout, ActorUnavailable
from actors.kernel.messaging import ROUTES, Envelope, Ref, ScheduledReply
from actors.kernel.policies import Fifo, Policy, Ready, Reoffer, ScheduleError, Step, parse_policy, record_of
from actors.kernel.scheduled_links import ScheduledLinks
from actors.kernel.turnstile_links import TurnstileLinks
from actors.kernel.turnstile_waiting import WaitingDeliveries

if TYPE_CHECKING:
    from actors.kernel.actor import TracedActor

STEP_LIMIT = 30.0
"""Seconds a single step may run before the driver calls it stuck (real time, not the schedule's)."""


class Turnstile(TurnstileLinks, WaitingDeliveries):
    """Runs one actor system's deliveries one at a time, in the order ``policy`` chooses.

    The thread waiting for a reply from outside the actors (the client) drives: while its reply is
    not in, it asks the policy for the next ready delivery and lets it run to its end, or to the
    point where that actor waits for a reply of its own. Time is the schedule's: a delivery takes no
    time, and when nothing can run the clock jumps to the next thing that would happen in real time:
    a stalled actor (see :meth:`hold`) takes mail again, or the wait that began first times out.
    What waits is read as in actors.kernel.turnstile_waiting; mail crossing failing links travels
    as in actors.kernel.turnstile_links.

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

