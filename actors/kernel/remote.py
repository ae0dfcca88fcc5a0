"""Delivery across node processes: a reference to an actor another process runs, and the road of its mail.

A policy on the delivery path (see :class:`actors.kernel.messaging.Route`), beside the turnstile and
the network. Mail to a :class:`RemoteRef` is put in wire form (the message, its sender, its ply and
the header of its trace delivery: nothing that lives only in this process) and handed to a
:class:`Carrier`, which takes it to the node process that runs the actor; there :class:`Arrivals`
puts it in the actor's inbox, in the order the sending process sent it, and the reply travels back
the same way. Nothing here knows how mail crosses (Ray does it: see :mod:`actors.clusters.ray_carrier`).
"""

from __future__ import annotations

import contextlib
import enum
import threading
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import pykka

from actors.kernel.errors import ActorUnavailable
from actors.kernel.mailbox import Posted, Reply
from actors.kernel.messaging import ROUTES, Envelope, Ref

if TYPE_CHECKING:
    from actors.kernel.instrument import Instrument, Visit

__all__ = ["Arrivals", "Carrier", "Here", "RemoteRef", "RemoteRoute", "TraceHeader", "Wire", "from_wire"]


class Here(enum.Enum):
    """Stands, among the arguments an actor is started with on another node, for that node's own."""

    DIRECTORY = "directory"
    RECORDER = "recorder"


class TraceHeader(NamedTuple):
    """What a trace delivery carries across: every field its sender filled (the receiver fills the rest)."""

    msg_id: int
    parent_id: int | None
    sender: str
    receiver: str
    ply: int | None
    t_sent: int
    game: int | None
    phase: str | None
    hint: str | None
    sender_node: str | None


class Wire(NamedTuple):
    """An envelope as it crosses between processes: the message, its sender, its ply, its trace header."""

    message: object
    sender: str
    ply: int | None
    header: TraceHeader | None


def to_wire(envelope: Envelope) -> Wire:
    """The wire form of ``envelope`` (its delivery, if traced, reduced to its header)."""
    message, sender, ply, delivery = envelope
    if delivery is None:
        return Wire(message, sender, ply, None)
    header = TraceHeader(delivery.msg_id, delivery.parent_id, delivery.sender, delivery.receiver,
                         delivery.ply, delivery.t_sent, delivery.game, delivery.phase, delivery.hint,
                         delivery.sender_node)
    return Wire(message, sender, ply, header)


def from_wire(wire: Wire, recorder: Instrument | None) -> Envelope:
    """The envelope ``wire`` stands for in this process: a traced one's delivery is finished (recorded)
    by ``recorder``, this process's, when the receiver has handled it."""
    message, sender, ply, header = wire
    delivery: Visit | None = None
    if header is not None and recorder is not None:
        delivery = recorder.carried(message, *header)
    return Envelope(message, sender, ply, delivery)


class Carrier(Protocol):
    """What takes mail to the node process that runs an actor, and asks that process about it."""

    def ask(self, node: str, urn: str, wire: Wire) -> pykka.Future[Any]:
        """Send an ask to the actor ``urn`` on ``node``; its reply comes through the returned future
        (which raises :class:`pykka.ActorDeadError` when the actor or its node is gone)."""

    def tell(self, node: str, urn: str, wire: Wire) -> None:
        """Send a tell to the actor ``urn`` on ``node`` (lost if the node is gone)."""

    def send(self, node: str, urn: str, wire: Wire, reply: Reply | None) -> None:
        """Send to the actor ``urn`` on ``node`` as its inbox would take it: an ask when ``reply`` is
        given, which the carrier settles when the answer comes back (with :class:`pykka.ActorDeadError`
        when the actor or its node is gone), else a tell.

        Raises:
            ActorUnavailable: the message cannot be sent (it cannot be pickled).
        """

    def alive(self, node: str, urn: str) -> bool:
        """Whether the actor ``urn`` runs on ``node`` (False when the node is gone or does not answer)."""

    def stop(self, node: str, urn: str, block: bool, timeout: float | None) -> None:
        """Stop the actor ``urn`` on ``node``; with ``block``, wait until it has stopped.

        Raises:
            pykka.Timeout: it did not stop within ``timeout`` seconds.
        """


class _Unreachable:
    """The inbox of a remote actor once its route is gone: every ask is answered ActorDeadError."""

    def put(self, posted: Posted) -> None:
        if posted.reply_to is not None:
            posted.reply_to.set_exception(_dead("its node is gone"))

    def empty(self) -> bool:
        return True


class RemoteRef(pykka.ActorRef[Any]):
    """The reference this process holds for an actor another process runs: mail to it takes the
    carrier's road (:class:`RemoteRoute`), and asking whether it lives asks its node.

    Args:
        node: the name of the node process that runs the actor.
        name: the actor's stable name.
        urn: the identity of this incarnation of the actor (a restarted actor has another).
        carrier: what reaches ``node``.
    """

    def __init__(self, node: str, name: str, urn: str, carrier: Carrier) -> None:
        # No pykka actor runs here: only the fields pykka's reference (and the kernel) read.
        self.actor_class = RemoteRef
        self.actor_urn = urn
        self.actor_inbox = _Unreachable()  # type: ignore[assignment]
        self.actor_stopped = threading.Event()
        self.node, self.name, self.carrier = node, name, carrier

    def post(self, envelope: Envelope, reply: Reply | None) -> None:
        """Put ``envelope`` in the actor's inbox on its node, as a local inbox takes it (the network's
        last step: see :mod:`actors.kernel.network`); ``reply`` is settled with its answer, or with
        the error that kept it from crossing."""
        try:
            self.carrier.send(self.node, self.actor_urn, to_wire(envelope), reply)
        except ActorUnavailable as error:
            if reply is not None:
                reply.set_exception((ActorUnavailable, error, None))

    def is_alive(self) -> bool:
        """Whether the actor runs: not stopped from here, and its node says so (an actor found not
        running, or whose node is gone, is marked stopped here: it never runs again)."""
        if self.actor_stopped.is_set():
            return False
        if self.carrier.alive(self.node, self.actor_urn):
            return True
        self.actor_stopped.set()
        return False

    def stop(self, block: bool = True, timeout: float | None = None) -> Any:
        """Stop the actor on its node (a node that is gone has stopped it already).

        Raises:
            pykka.Timeout: with ``block``, it did not stop within ``timeout`` seconds.
        """
        with contextlib.suppress(pykka.ActorDeadError):
            self.carrier.stop(self.node, self.actor_urn, block, timeout)
        self.actor_stopped.set()
        return True

    def __str__(self) -> str:
        return f"{self.name} on {self.node} ({self.actor_urn})"

    def __repr__(self) -> str:
        return f"<RemoteRef {self}>"


class RemoteRoute:
    """The road of mail to actors on other nodes: each message in wire form, through the carrier."""

    def __init__(self, carrier: Carrier) -> None:
        self.carrier = carrier
        self._urns: set[str] = set()

    def refer(self, node: str, name: str, urn: str) -> RemoteRef:
        """A reference to the actor ``urn`` (called ``name``) on ``node``, whose mail takes this road."""
        ref = RemoteRef(node, name, urn, self.carrier)
        self._urns.add(urn)
        ROUTES[urn] = self
        return ref

    def ask(self, ref: Ref, name: str, envelope: Envelope) -> pykka.Future[Any]:
        """Send an ask across to ``ref``'s node."""
        assert isinstance(ref, RemoteRef)
        return self.carrier.ask(ref.node, ref.actor_urn, to_wire(envelope))

    def tell(self, ref: Ref, envelope: Envelope) -> None:
        """Send a tell across to ``ref``'s node."""
        assert isinstance(ref, RemoteRef)
        self.carrier.tell(ref.node, ref.actor_urn, to_wire(envelope))

    def close(self) -> None:
        """Take every reference this road made off it (mail to them then fails: see :class:`RemoteRef`)."""
        for urn in self._urns:
            ROUTES.pop(urn, None)
        self._urns.clear()


class Arrivals:
    """The receiving end on a node: hands mail that crossed from other processes to the local actors'
    inboxes, in the order each sending process numbered it.

    Mail crosses on many threads at once (a node serves many deliveries together), so two messages
    one process sent in turn may arrive the other way round; one that overtook an earlier one
    waits for it here, as a tell that changes state must never pass the one before it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._expected: dict[str, int] = {}
        self._early: dict[str, dict[int, tuple[Ref | None, Envelope, Reply | None]]] = {}

    def arrive(self, origin: str, seq: int, ref: Ref | None, envelope: Envelope, reply: Reply | None) -> None:
        """Take the ``seq``-th message from the process ``origin`` for ``ref`` (None: no such actor
        here); an ask's ``reply`` is settled by the actor, or with ActorDeadError if it is gone."""
        with self._lock:
            early = self._early.setdefault(origin, {})
            early[seq] = (ref, envelope, reply)
            expected = self._expected.get(origin, 0)
            while expected in early:
                _post(*early.pop(expected))
                expected += 1
            self._expected[origin] = expected


def _post(ref: Ref | None, envelope: Envelope, reply: Reply | None) -> None:
    if ref is None or ref.actor_stopped.is_set():
        if reply is not None:
            reply.set_exception(_dead("the actor is not running"))
        return
    inbox: Any = ref.actor_inbox
    inbox.put(Posted(envelope, reply))


def _dead(why: str) -> tuple[type[BaseException], BaseException, None]:
    return pykka.ActorDeadError, pykka.ActorDeadError(why), None
