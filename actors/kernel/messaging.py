"""Sending: envelopes that carry routing beside the message, asks with timeouts, tells, a name directory.

An envelope is the message plus who sent it, the ply it serves and, when traced, its delivery; the
message itself carries only what it is about (pykka's ``ask``/``tell`` carry the envelope).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar, cast

import pykka

from actors.kernel.errors import ActorFailure, ActorTimeout, ActorUnavailable
from actors.kernel.mailbox import Reply, post_ask, post_tell
from actors.kernel.policies import ScheduleError

if TYPE_CHECKING:
    from actors.kernel.instrument import Instrument, Visit

DEFAULT_TIMEOUT = 5.0
WINDOW = 16
"""Requests a client keeps in flight: enough to keep an actor busy, few enough to redo after a failure."""

ROUTES: dict[str, Route] = {}
"""The delivery policy each actor's mail goes through, by pykka urn: a turnstile (a schedule other than
free) or a network (a link model). Empty in a plain run, where a send goes straight to the inbox."""

Ref = pykka.ActorRef[Any]

R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)

Pending = tuple[str, pykka.Future[R]]
"""An ask on its way: the asked actor's name and the future of its reply (``Pending[R]``: a reply
of type ``R``)."""


class Request(Generic[R_co]):
    """A message that is asked, and the type of its reply: ``class Survey(Request[SurveyReport])``.

    Every way of asking (an actor's :meth:`~actors.kernel.actor.TracedActor.ask_one`, ``send`` and
    ``wait``, a game's ``ask``) takes a ``Request[R]`` and returns an ``R``, so the type checker
    holds each conversation to its protocol: asking ``Survey`` and expecting a ``Roster`` is an
    error. A message that is only told is no ``Request``. Adds nothing to the message's instances.
    """

    __slots__ = ()


class Route(Protocol):
    """A policy on the delivery path: takes a sent message and hands it to its receiver in its own way.

    The two are the delivery turnstile (actors.kernel.schedule: one delivery at a time, in a chosen
    order) and the network (actors.kernel.network: links that lose, duplicate, delay and reorder).
    """

    def ask(self, ref: Ref, name: str, envelope: Envelope) -> pykka.Future[Any]:
        """Send an ask to ``ref`` (called ``name``); its reply comes through the returned future."""

    def tell(self, ref: Ref, envelope: Envelope) -> None:
        """Send a tell to ``ref``."""


class ScheduledReply(pykka.Future[Any]):
    """The reply to an ask sent under a turnstile: the turnstile answers it, and waiting drives it
    (a plain future: the turnstile's lock guards it, so it needs no lock of its own)."""

    def __init__(self, turnstile: Any, name: str, asker: str, seq: int) -> None:
        super().__init__()
        self.turnstile = turnstile
        self.name = name
        self.asker = asker
        self.seq = seq
        self.resolved = False
        self.value: Any = None
        self.error: BaseException | None = None
        self.answered: Envelope | None = None
        """The ask it answers, once answered over failing links (see actors.kernel.scheduled_links)."""

    def resolve(self, value: Any, error: BaseException | None) -> None:
        """Settle the reply (called by the turnstile, under its lock)."""
        self.value, self.error, self.resolved = value, error, True

    def get(self, *, timeout: float | None = None) -> Any:
        """The reply, driving the turnstile until it comes (see :meth:`Turnstile.wait`)."""
        return self.turnstile.wait(self.name, self, DEFAULT_TIMEOUT if timeout is None else timeout)


class Envelope(NamedTuple):
    """A message with its routing: the sender's name, the ply it serves, the trace delivery (or None)."""

    message: object
    sender: str
    ply: int | None
    delivery: Visit | None


def post(
    recorder: Instrument | None,
    sender: str,
    receiver: str,
    message: object,
    parent: Visit | None = None,
    ply: int | None = None,
    hint: str | None = None,
) -> Envelope:
    """The envelope for ``message``; traced as a child of ``parent`` when a recorder is attached.

    ``hint`` names the remembered fact (see the referee's hints) that chose this receiver, for the trace.
    """
    if recorder is None:
        return Envelope(message, sender, ply, None)
    delivery = recorder.post(sender, receiver, message, parent=parent, ply=ply, hint=hint)
    return Envelope(message, sender, delivery.ply, delivery)


class Directory:
    """The running actors of one actor system by stable name (Erlang's registered names).

    Only the supervisor writes it; any actor may look a name up, as ``whereis`` would.
    """

    def __init__(self) -> None:
        self.turnstile: Any = None
        """The delivery turnstile the system's actors run under (None: free, pykka's own order)."""
        self.network: Any = None
        """The network the system's mail crosses (None: every link reliable, in order, at once)."""
        self._refs: dict[str, Ref] = {}
        self._lock = threading.Lock()
        self.changes = 0
        """How many times a name was given or forgotten: whoever remembers refs knows when to look again."""
        self.lookup: Callable[[str], Ref | None] = self._refs.get
        """:meth:`ref` without a call of its own (an actor looks a name up on every send)."""

    def ref(self, name: str) -> Ref | None:
        """The running actor called ``name``, None if there is none."""
        return self._refs.get(name)

    def names(self) -> list[str]:
        """Every registered name."""
        with self._lock:
            return list(self._refs)

    def register(self, name: str, ref: Ref) -> None:
        """Give ``name`` to ``ref`` (a restarted actor takes its predecessor's name)."""
        with self._lock:
            self._refs[name] = ref
            self.changes += 1
        if self.turnstile is not None:
            self.turnstile.adopt(name, ref)
        if self.network is not None:
            self.network.adopt(name, ref)

    def unregister(self, name: str) -> Ref | None:
        """Forget ``name`` (its actor is being stopped); returns the ref it had."""
        with self._lock:
            ref = self._refs.pop(name, None)
            self.changes += 1
        if ref is not None and self.turnstile is not None:
            self.turnstile.forget(ref)  # its mail fails and a stall ends, so that it can stop
        if ref is not None and self.network is not None:
            self.network.forget(ref)
        return ref

    def clear(self) -> list[Ref]:
        """Forget every name; returns the refs."""
        with self._lock:
            refs = list(self._refs.values())
            self._refs.clear()
            self.changes += 1
            return refs


def ask(ref: Ref | None, name: str, envelope: Envelope) -> Pending[Any]:
    """Send an ask without waiting: (name, future) for :func:`wait_one` / :func:`wait_all`.

    Raises:
        ActorUnavailable: there is no such actor, or it is dead.
    """
    if ref is None:
        raise ActorUnavailable(f"{name} is not running")
    if ROUTES:
        route = ROUTES.get(ref.actor_urn)
        if route is not None:
            return name, route.ask(ref, name, envelope)
    reply = post_ask(ref, envelope)
    if reply is None:
        raise ActorUnavailable(f"{name} is not running")
    return name, reply


def tell(ref: Ref | None, envelope: Envelope) -> None:
    """Send a tell; a dead receiver is left for the supervisor to notice (Erlang's ``!``)."""
    if ref is None:
        return
    if ROUTES:
        route = ROUTES.get(ref.actor_urn)
        if route is not None:
            route.tell(ref, envelope)
            return
    post_tell(ref, envelope)


def wait_one(name: str, future: pykka.Future[R], timeout: float) -> R:
    """The reply of one ask.

    Raises:
        ActorTimeout: no reply within ``timeout`` seconds.
        ActorUnavailable: the actor was dead or crashed on the message.
    """
    try:
        if type(future) is ScheduledReply:
            return cast("R", future.turnstile.wait(name, future, timeout))
        return future.get(timeout=timeout)
    except pykka.Timeout:
        raise ActorTimeout(f"{name} did not answer within {timeout:g} s") from None
    except pykka.ActorDeadError:
        raise ActorUnavailable(f"{name} is not running") from None
    except (ActorFailure, ScheduleError):
        raise
    except Exception as error:
        raise ActorUnavailable(f"{name} crashed: {error!r}") from error


def wait_all(pending: Sequence[Pending[R]] | Iterable[Pending[R]], timeout: float) -> list[R]:
    """The replies of several asks sent at once, in order (see :func:`wait_one` for the errors)."""
    pending = list(pending)
    if len(pending) < 2 or type(last := pending[-1][1]) is not Reply:
        return [wait_one(name, future, timeout) for name, future in pending]
    # Wait for the last first: the others have usually answered by then, so the asker sleeps and
    # wakes once, not once a reply. Replies (and the first failure) are still read in order.
    came = last.settle(timeout)
    replies = [wait_one(name, future, timeout) for name, future in pending[:-1]]
    name = pending[-1][0]
    if not (came or last.settle(0.0)):  # it had its whole timeout already
        raise ActorTimeout(f"{name} did not answer within {timeout:g} s")
    replies.append(wait_one(name, last, timeout))
    return replies


def expect(name: str, reply: object, expected: type[R]) -> R:
    """``reply`` when it is an ``expected``: the check of an answer whose type a conversation fixes.

    Raises:
        ActorUnavailable: ``name`` answered something else.
    """
    if not isinstance(reply, expected):
        raise ActorUnavailable(f"{name} answered {type(reply).__name__}, not {expected.__name__}")
    return reply


class Caller:
    """The asking done once for everyone who asks actors by name from outside them (a game, a session,
    the supervisor): each message posted in an envelope (traced by ``recorder`` as sent by ``sender``),
    sent to the actor ``lookup`` names, and its reply awaited within ``timeout`` seconds.

    ``lookup`` is asked at every send, so an actor restarted under the same name is reached. A
    ``Request[R]`` asked returns an ``R``. A caller holds no reference to whoever asks through it (a
    dropped game is collected as soon as it is dropped, and its finalizer stops its actors).
    """

    __slots__ = ("lookup", "recorder", "sender", "timeout")

    def __init__(self, sender: str, recorder: Instrument | None, timeout: float,
                 lookup: Callable[[str], Ref | None]) -> None:
        self.sender = sender
        self.recorder = recorder
        self.timeout = timeout
        self.lookup = lookup

    def envelope(self, name: str, message: object, ply: int | None = None) -> Envelope:
        """``message`` to ``name`` in its envelope, traced as sent (serving ``ply``) when traced."""
        return post(self.recorder, self.sender, name, message, None, ply)

    def send(self, name: str, message: Request[R], ply: int | None = None) -> Pending[R]:
        """Ask ``name`` without waiting (see :func:`ask`); :meth:`wait` reads the reply.

        Raises:
            ActorUnavailable: there is no such actor, or it is dead.
        """
        return cast("Pending[R]", ask(self.lookup(name), name, self.envelope(name, message, ply)))

    def tell(self, name: str, message: object, ply: int | None = None) -> None:
        """Tell ``name`` ``message`` (see :func:`tell`)."""
        tell(self.lookup(name), self.envelope(name, message, ply))

    def wait(self, pending: Pending[R], timeout: float | None = None) -> R:
        """The reply to an ask sent, within ``timeout`` seconds (None: the caller's).

        Raises:
            ActorTimeout, ActorUnavailable: as :func:`wait_one`.
        """
        return wait_one(*pending, self.timeout if timeout is None else timeout)

    def call(self, name: str, message: Request[R], expected: type[R] | None = None,
             ply: int | None = None) -> R:
        """Ask ``name`` and wait for its reply (an ``expected`` one, when given; see :func:`expect`).

        Raises:
            ActorTimeout, ActorUnavailable: no reply in time, no such actor, or (with ``expected``)
                another kind of reply.
        """
        reply = self.wait(self.send(name, message, ply))
        return reply if expected is None else expect(name, reply, expected)
