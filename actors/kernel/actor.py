"""The traced actor every chess actor is: one ``handle(message)``, deliveries stamped, asks timed.

Envelopes are ``(message, delivery | None)``. An unexpected exception kills the actor (let it
crash: the supervisor restarts it); an :class:`ActorFailure` only reports a peer's trouble.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import pykka

from actors.kernel.limits import thread_refused
from actors.protocol.messages import Armed, Crash, CrashOnNext, HangOnNext, Ping, Pong
from actors.tracing.recorder import Delivery, TraceRecorder
from board.errors import ChessActorsError

DEFAULT_TIMEOUT = 5.0
WINDOW = 16
"""Requests a client keeps in flight: enough to keep an actor busy, few enough to redo after a failure."""

Envelope = tuple[object, Delivery | None]
RefLookup = Callable[[str], "pykka.ActorRef[Any] | None"]


class ActorFailure(ChessActorsError):
    """An actor could not answer: dead, crashed, or too slow. The game heals or reports it."""


class ActorTimeout(ActorFailure):
    """An ask got no reply within its timeout."""


class ActorUnavailable(ActorFailure):
    """The actor asked is dead, or crashed while handling the message."""


class RestartIntensityExceeded(ActorFailure):
    """More restarts than the supervisor allows in its period: the game ends with this error."""


class InjectedCrash(RuntimeError):
    """The fault raised by Crash and CrashOnNext (a test's way of killing an actor)."""


def post(
    recorder: TraceRecorder | None,
    sender: str,
    receiver: str,
    message: object,
    parent: Delivery | None,
    ply: int | None = None,
) -> Envelope:
    """The envelope for ``message``, with a delivery when a recorder is attached."""
    if recorder is None:
        return (message, None)
    return (message, recorder.post(sender, receiver, message, parent=parent, ply=ply))


def wait_all(futures: Sequence[tuple[str, pykka.Future[Any]]], timeout: float) -> list[Any]:
    """The replies of several asks sent at once, in order.

    Raises:
        ActorTimeout: some reply did not come within ``timeout`` seconds.
        ActorUnavailable: some actor was dead or crashed on the message.
    """
    replies: list[Any] = []
    for name, future in futures:
        replies.append(wait_one(name, future, timeout))
    return replies


def wait_one(name: str, future: pykka.Future[Any], timeout: float) -> Any:
    """The reply of one ask (see :func:`wait_all` for the errors)."""
    try:
        return future.get(timeout=timeout)
    except pykka.Timeout:
        raise ActorTimeout(f"{name} did not answer within {timeout:g} s") from None
    except pykka.ActorDeadError:
        raise ActorUnavailable(f"{name} is not running") from None
    except ActorFailure:
        raise
    except Exception as error:
        raise ActorUnavailable(f"{name} crashed: {error!r}") from error


def ask(
    ref: pykka.ActorRef[Any] | None, name: str, envelope: Envelope
) -> tuple[str, pykka.Future[Any]]:
    """Send an ask without waiting: (name, future) for :func:`wait_all`."""
    if ref is None:
        raise ActorUnavailable(f"{name} is not running")
    try:
        return name, ref.ask(envelope, block=False)
    except pykka.ActorDeadError:
        raise ActorUnavailable(f"{name} is not running") from None


def tell(ref: pykka.ActorRef[Any] | None, envelope: Envelope) -> None:
    """Send a tell; a dead receiver is left for the supervisor to notice (Erlang's ``!``)."""
    if ref is None:
        return
    try:
        ref.tell(envelope)
    except pykka.ActorDeadError:
        return


class TracedActor(pykka.ThreadingActor):
    """A pykka actor with a stable name, traced deliveries, fault injection and timed asks.

    Subclasses implement :meth:`handle` with one ``match`` over the message classes.
    """

    def __init__(self, name: str, recorder: TraceRecorder | None = None, timeout: float = DEFAULT_TIMEOUT):
        super().__init__()
        self.name = name
        self.recorder = recorder
        self.timeout = timeout
        self.current: Delivery | None = None
        self._crash_on: str | None = None
        self._hang_on: tuple[str, float] | None = None

    def on_receive(self, message: Any) -> Any:
        """Unwrap the envelope, stamp the delivery, handle, and die on an unexpected error."""
        body, delivery = message
        if delivery is not None:
            delivery.begin()
        self.current = delivery
        try:
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

    def _dispatch(self, body: object) -> object:
        if self._crash_on is not None and type(body).__name__ == self._crash_on:
            self._crash_on = None
            raise InjectedCrash(f"{self.name}: injected crash on {type(body).__name__}")
        if self._hang_on is not None and type(body).__name__ == self._hang_on[0]:
            seconds, self._hang_on = self._hang_on[1], None
            time.sleep(seconds)
        match body:
            case Crash():
                raise InjectedCrash(f"{self.name}: crash requested")
            case CrashOnNext(kind=kind):
                self._crash_on = kind
                return Armed(self.name, body.corr, kind)
            case HangOnNext(kind=kind, seconds=seconds):
                self._hang_on = (kind, seconds)
                return Armed(self.name, body.corr, kind)
            case Ping():
                return Pong(self.name, body.corr)
            case _:
                return self.handle(body)

    def handle(self, message: object) -> object:
        """Answer one message (None for a tell). Subclasses override with a ``match``."""
        raise NotImplementedError

    def _start_actor_loop(self) -> None:
        # pykka registers the actor before starting its thread: when the system refuses the thread,
        # take it out again, so that nothing half-started stays registered, and say why clearly.
        try:
            super()._start_actor_loop()
        except RuntimeError as error:
            pykka.ActorRegistry.unregister(self.actor_ref)
            self.actor_stopped.set()
            raise thread_refused(error, self.name) from error

    # -- sending, for subclasses

    def envelope(self, receiver: str, message: object) -> Envelope:
        """Wrap ``message`` for ``receiver``, traced as a child of the delivery being handled."""
        return post(self.recorder, self.name, receiver, message, self.current)
