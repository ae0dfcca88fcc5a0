"""The runtime's actor: one ``handle(message)`` per role, deliveries shown to an instrument, faults injected.

An unexpected exception kills the actor (let it crash: the supervisor restarts it); an
:class:`~actors.kernel.errors.ActorFailure` only reports a peer's trouble to the asker.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import pykka

from actors.kernel.control import Armed, Crash, CrashOnNext, Disarm, HangOnNext, Ping, Pong
from actors.kernel.deliveries import Turn
from actors.kernel.errors import ActorFailure, ActorUnavailable, InjectedCrash
from actors.kernel.fault_marks import Fenced
from actors.kernel.limits import start_actor_thread
from actors.kernel.mailbox import Reply, new_inbox
from actors.kernel.messaging import (
    DEFAULT_TIMEOUT,
    Directory,
    Envelope,
    Pending,
    Request,
    ask,
    post,
    tell,
    wait_all,
    wait_one,
)

if TYPE_CHECKING:
    from actors.kernel.instrument import Instrument, Visit

Handled = TypeVar("Handled")
R = TypeVar("R")
S = TypeVar("S")

_PYKKA_LOG = logging.getLogger("pykka")
"""pykka's own logger: the loop below reports a failure where pykka's would."""

_envelope = tuple.__new__
"""Makes an :class:`Envelope` without the named tuple's own ``__new__``: ``_envelope(Envelope, fields)``."""

_CONTROL = frozenset({Ping, Crash, CrashOnNext, HangOnNext, Disarm})
"""The control messages every actor answers itself (the rest go to its role's ``handle``)."""


class TracedActor(pykka.ThreadingActor, Generic[Handled]):
    """A pykka actor with a stable name, traced deliveries, fault injection and timed asks.

    Subclasses implement :meth:`handle` with one ``match`` over their role's request union, ending
    in ``assert_never`` so that the type checker proves every message is handled.

    Inboxes and replies are the lighter ones of :mod:`actors.kernel.mailbox`.

    Actor threads are daemon threads: a program that forgets to close a game still exits (games
    also stop their actors when they are closed, or dropped: see the client's lifetimes).

    Args:
        name: the stable name (a restarted actor keeps it).
        directory: where the system's actors are found by name.
        recorder: the instrument shown every delivery, if any (the project's is the tracer's
            :class:`~actors.tracing.recorder.TraceRecorder`; see :mod:`actors.kernel.instrument`).
        timeout: every ask this actor makes waits at most this long.
    """

    use_daemon_thread = True

    @staticmethod
    def _create_actor_inbox() -> Any:
        return new_inbox()  # C-level queue and reply signal: see actors.kernel.mailbox

    @staticmethod
    def _create_future() -> Reply:
        return Reply()

    def __init__(
        self,
        name: str,
        directory: Directory,
        recorder: Instrument | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        super().__init__()
        self.name = name
        self.directory = directory
        self.recorder = recorder
        self.timeout = timeout
        self.current: Visit | None = None
        self.sender = ""
        self._crash_on: str | None = None
        self._hang_on: tuple[str, float] | None = None
        self.fenced = False
        """Whether this incarnation was replaced (see :func:`fence`): what it still sends goes nowhere."""

    # -- how the kernel delivers

    def _actor_loop_running(self) -> None:
        """pykka's loop, with the kernel's envelopes handed straight to :meth:`receive`.

        Envelopes are nearly all an actor takes (several a ply). Only pykka's own messages (a stop)
        and a failure can stop an actor, so whether it stopped is asked after those alone; each is
        otherwise taken as pykka's loop takes it (a failure goes back to the asker, or ends a tell).
        """
        stopped, take, receive = self.actor_stopped, self.actor_inbox.get, self.receive
        while not stopped.is_set():
            posted = take()
            message, reply = posted.message, posted.reply_to
            try:
                while type(message) is Envelope:
                    response = receive(message)
                    if reply is not None:
                        reply.set(response)
                    posted = take()
                    message, reply = posted.message, posted.reply_to
                response = self._handle_receive(message)
                if reply is not None:
                    reply.set(response)
            except Exception:
                if reply is not None:
                    _PYKKA_LOG.info(f"Exception returned from {self} to caller:", exc_info=sys.exc_info())
                    reply.set_exception()
                else:
                    self._handle_failure(*sys.exc_info())
                    try:
                        self.on_failure(*sys.exc_info())
                    except Exception:
                        self._handle_failure(*sys.exc_info())
            except BaseException:
                _PYKKA_LOG.debug(f"{sys.exc_info()[1]!r} in {self}. Stopping all actors.")
                self._stop()
                pykka.ActorRegistry.stop_all()

    def _handle_receive(self, message: Any) -> Any:
        # An envelope goes straight to receive; pykka's own messages (stop, proxy calls) and a turn
        # token take pykka's way in.
        if type(message) is Envelope:
            return self.receive(message)
        return super()._handle_receive(message)

    def on_receive(self, message: Any) -> Any:
        """Handle an envelope; under a turnstile, a turn token: wait at the gate for the next delivery."""
        if type(message) is Turn:
            message.turnstile.run_turn(self)
            return None
        return self.receive(message)

    def receive(self, message: Envelope) -> Any:
        """Unwrap the envelope, stamp the delivery, handle, and die on an unexpected error."""
        body: Any
        body, sender, _, delivery = message
        if delivery is not None:
            delivery.begin()
        self.current, self.sender = delivery, sender
        try:
            if type(body) not in _CONTROL and self._crash_on is None and self._hang_on is None:
                answer = self.handle(body)  # the common case: a message of the role, no fault armed
            else:
                answer = self._dispatch(body)
        except ActorFailure as failure:
            if delivery is not None:
                delivery.replied(failure)
            raise
        except Exception as error:
            # Let it crash: stop taking messages, so the supervisor sees a dead actor.
            pykka.ActorRegistry.unregister(self.actor_ref)
            self.actor_stopped.set()
            if delivery is not None:
                delivery.replied(error)
            raise
        if delivery is not None:
            if answer is None:
                delivery.done()
            else:
                delivery.replied(answer)
        return answer

    def _dispatch(self, body: Any) -> object:
        """A control message, or a message of the role while a fault is armed (see :meth:`receive`)."""
        if self._crash_on is not None and type(body).__name__ == self._crash_on:
            self._crash_on = None
            raise InjectedCrash(f"{self.name}: injected crash on {type(body).__name__}")
        if self._hang_on is not None and type(body).__name__ == self._hang_on[0]:
            seconds, self._hang_on = self._hang_on[1], None
            time.sleep(seconds)
        match body:
            case Ping():
                return Pong()
            case Crash():
                raise InjectedCrash(f"{self.name}: crash requested")
            case CrashOnNext(kind=kind):
                self._crash_on = kind
                return Armed(kind)
            case HangOnNext(kind=kind, seconds=seconds):
                self._hang_on = (kind, seconds)
                return Armed(kind)
            case Disarm():
                self._crash_on = self._hang_on = None
                return Armed("Disarm")
            case _:
                return self.handle(body)

    def handle(self, message: Handled) -> object:
        """Answer one message of the role (None for a tell)."""
        raise NotImplementedError

    def _start_actor_loop(self) -> None:
        start_actor_thread(self, self.name)  # a refused thread is one clear error, never a hang

    # -- sending, for subclasses

    def envelope(self, receiver: str, message: object, hint: str | None = None) -> Envelope:
        """Wrap ``message`` for ``receiver``, traced as a child of the delivery being handled."""
        return post(self.recorder, self.name, receiver, message, self.current, hint=hint)

    def send(self, receiver: str, message: Request[R], hint: str | None = None) -> Pending[R]:
        """Ask ``receiver`` without waiting (see :meth:`wait`).

        Raises:
            ActorUnavailable: ``receiver`` is not running, or this incarnation was replaced.
        """
        if self.fenced:
            raise self._fenced(receiver, message)
        recorder = self.recorder
        envelope = (  # untraced, made here as a plain tuple is made: a send is made several times a ply
            _envelope(Envelope, (message, self.name, None, None))
            if recorder is None
            else post(recorder, self.name, receiver, message, self.current, hint=hint)
        )
        return ask(self.directory.lookup(receiver), receiver, envelope)

    def wait(self, pending: Sequence[Pending[R]]) -> list[R]:
        """The replies of asks sent with :meth:`send`, in order, each within this actor's timeout."""
        return wait_all(pending, self.timeout)

    def wait_with(self, pending: Sequence[Pending[R]], last: Pending[S]) -> tuple[list[R], S]:
        """The replies of asks sent with :meth:`send` and of one more, of another type, sent after them
        (several pieces and the board, asked at once): ``(replies, last reply)``."""
        replies: list[Any] = wait_all([*pending, last], self.timeout)
        return replies[:-1], replies[-1]

    def ask_one(self, receiver: str, message: Request[R]) -> R:
        """Ask ``receiver`` and wait for the reply."""
        name, future = self.send(receiver, message)
        return wait_one(name, future, self.timeout)

    def tell(self, receiver: str, message: object) -> None:
        """Tell ``receiver`` (no reply; a dead receiver is the supervisor's to notice; nothing goes
        from a replaced incarnation)."""
        if self.fenced:
            self._fenced(receiver, message)
            return
        tell(self.directory.ref(receiver), self.envelope(receiver, message))

    def _fenced(self, receiver: str, message: object) -> ActorUnavailable:
        """Mark in the trace that a replaced incarnation tried to send ``message``; the error its ask gets."""
        if self.recorder is not None:
            mark = Fenced(type(message).__name__, "message", "sender")
            self.recorder.post(self.name, receiver, mark, parent=self.current).done()
        return ActorUnavailable(f"{self.name} was replaced: this incarnation sends nothing")


def fence(ref: Any) -> None:
    """Fence the incarnation behind ``ref`` before another takes its name: whatever it still sends
    (a late declaration, a record for the journal) goes nowhere. An actor in another process is not
    reached from here: the supervisor stops it on its node, and the network drops mail to it."""
    weak = getattr(ref, "_actor_weakref", None)
    actor = weak() if weak is not None else None
    if isinstance(actor, TracedActor):
        actor.fenced = True
