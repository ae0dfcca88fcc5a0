"""The body of one node process: a threaded Ray actor that runs its share of a game's actors, delivers
the mail that crosses to them and hands the driver what they recorded.
"""

from __future__ import annotations

import os
import pickle
from typing import Any

import pykka

from actors.clusters.ray_carrier import CALL_SECONDS, DRIVER, RayCarrier, first_line, import_ray
from actors.kernel.errors import ActorUnavailable, LinkFailure
from actors.kernel.links import LinkModel
from actors.kernel.mailbox import Reply
from actors.kernel.messaging import DEFAULT_TIMEOUT, Directory, Envelope, Ref
from actors.kernel.network import Network
from actors.kernel.remote import Arrivals, Here, RemoteRoute, Wire, from_wire
from actors.roles.registered import CLIENT, SUPERVISOR
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder

__all__ = ["NODE_CONCURRENCY", "NodeHost"]

NODE_CONCURRENCY = 128
"""Deliveries a node serves at once: each ask waits on a thread of its node until its actor answers.
Far more than a client keeps in flight (two windows of proposals) and the actors ask one another,
so that no ask waits for a thread while the asks holding the threads wait on it."""


class NodeHost:
    """The body of one node process (a threaded Ray actor): runs its share of a game's actors and
    delivers the mail that crosses to them.

    Args:
        node: its name (``node-2``).
    """

    def __init__(self, node: str) -> None:
        self.node = node
        self.directory = Directory()
        self.recorder: TraceRecorder | None = None
        self.timeout = DEFAULT_TIMEOUT
        self.arrivals = Arrivals()
        self.local: dict[str, Ref] = {}
        self.names: dict[str, str] = {}  # the local actors' names, by urn
        self.route: RemoteRoute | None = None
        self.network: Network | None = None
        self.places: dict[str, str] = {}
        self.die_on: str | None = None
        """A kind of message whose next arrival ends this process at once (see :meth:`die_on_next`)."""

    def connect(self, handles: dict[str, Any]) -> int:
        """Learn every node's Ray actor (to send to them); returns this process's id."""
        self.route = RemoteRoute(RayCarrier(import_ray(), self.node, handles))
        return os.getpid()

    def begin(self, traced: bool, first_id: int, step: int, timeout: float,
              links: LinkModel | None = None) -> None:
        """Get ready for a game: no actor, an empty directory, a fresh recorder when it is traced
        (ids ``first_id``, ``first_id + step``, ...), ``timeout`` for its actors' asks, and, under
        ``links``, a network of this node's own for the mail its actors send."""
        self._stop_actors()
        self.directory = Directory()
        self.recorder = None
        if traced:
            self.recorder = TraceRecorder()
            self.recorder.node = self.node
            self.recorder.number(first_id, step)
        self.timeout = timeout
        self.places = {CLIENT: DRIVER, SUPERVISOR: DRIVER}
        if links is not None:
            self.network = Network(links, self.recorder)
            self.network.places = self.places
            self.directory.network = self.network

    def start(self, name: str, urn: str, actor_class: type[pykka.Actor], arguments: tuple[Any, ...],
              keywords: dict[str, Any]) -> None:
        """Start the actor ``name`` (incarnation ``urn``) here; :class:`Here` arguments stand for this
        node's directory and recorder."""
        here: dict[Here, Any] = {Here.DIRECTORY: self.directory, Here.RECORDER: self.recorder}
        given = [here[argument] if isinstance(argument, Here) else argument for argument in arguments]
        ref = actor_class.start(*given, **keywords)
        self.local[urn] = ref
        self.names[urn] = name
        self.places[name] = self.node
        self.directory.register(name, ref)

    def register(self, name: str, node: str, urn: str) -> None:
        """The actor ``name`` now runs on ``node`` as ``urn`` (another node: its mail crosses)."""
        self.places[name] = node
        if node != self.node:
            assert self.route is not None
            self.directory.register(name, self.route.refer(node, name, urn))

    def deliver(self, origin: str, seq: int, urn: str, payload: bytes,
                asked: bool) -> tuple[Any, BaseException | None] | None:
        """Hand the ``seq``-th message from ``origin`` to the actor ``urn``, in its turn; for an ask,
        wait for the actor's answer and return (reply, None) or (None, error).

        Over failing links the answer goes back once the tells the actor sent while handling the
        ask have crossed (acknowledged by this node's network), as it would in one process."""
        ref = self.local.get(urn)
        try:
            wire: Wire = pickle.loads(payload)
        except Exception as error:  # a class this node cannot import: the message is lost, in its turn
            self.arrivals.arrive(origin, seq, None, Envelope(None, origin, None, None), None)
            return None, ActorUnavailable(f"{self.node} cannot read the message: {first_line(error)}")
        if self.die_on is not None and type(wire.message).__name__ == self.die_on:
            os._exit(137)  # as a SIGKILL ends it: nothing cleaned up, the message never handed over
        reply = Reply() if asked else None
        self.arrivals.arrive(origin, seq, ref, from_wire(wire, self.recorder), reply)
        if reply is None:
            return None
        try:
            value = reply.get(timeout=self.timeout + CALL_SECONDS)
        except Exception as error:
            return None, _portable(error)
        network, name = self.network, self.names.get(urn)
        if network is not None and name is not None:
            lost = network.told(name, self.timeout + CALL_SECONDS)
            if lost is not None:
                kind = type(wire.message).__name__
                return None, LinkFailure(f"{name} could not answer {kind}: {lost}")
        return value, None

    def die_on_next(self, kind: str) -> None:
        """End this process, at once and with no cleanup, when the next message of class ``kind``
        arrives for one of its actors (a node lost in the middle of a ply, at a point a test names)."""
        self.die_on = kind

    def partition(self, actors: frozenset[str], seconds: float, apart: frozenset[str]) -> None:
        """Cut ``actors`` off from ``apart`` (or the rest) for ``seconds`` from now, for the mail this
        node's actors send (see :meth:`actors.kernel.network.Network.partition`)."""
        if self.network is not None:
            self.network.partition(actors, seconds, apart)

    def alive(self, urn: str) -> bool:
        """Whether the actor ``urn`` runs here."""
        ref = self.local.get(urn)
        return ref is not None and ref.is_alive()

    def stop(self, urn: str, block: bool, timeout: float | None) -> bool:
        """Stop the actor ``urn``; with ``block``, wait at most ``timeout`` seconds: whether it stopped."""
        ref = self.local.get(urn)
        if ref is None or not ref.is_alive():
            return True
        try:
            ref.stop(block=block, timeout=timeout)
        except pykka.ActorDeadError:
            return True
        except pykka.Timeout:
            return False
        return True

    def landed(self) -> int:
        """Wait until every tell this node's actors sent to other nodes is in its actor's inbox (see
        :meth:`actors.clusters.ray_carrier.RayCarrier.landed`); returns how many were on their way."""
        if self.route is None:
            return 0
        carrier = self.route.carrier
        assert isinstance(carrier, RayCarrier)
        return carrier.landed(CALL_SECONDS / 2)  # within the driver's wait for this call

    def end(self) -> tuple[list[TraceEvent], int, dict[str, int], list[str]]:
        """Stop every actor of the game and hand over what it recorded: (events, the next free id,
        what befell the mail its actors sent and what the network gave up on)."""
        network = self.network
        self._stop_actors()
        counts = dict(network.counts) if network is not None else {}
        failures = list(network.failures) if network is not None else []
        if self.recorder is None:
            return [], 0, counts, failures
        return self.recorder.take(), self.recorder.next_id(), counts, failures

    def take(self) -> list[TraceEvent]:
        """Hand over what this node recorded since it last handed anything over (the game goes on)."""
        return [] if self.recorder is None else self.recorder.take()

    def memory(self) -> int:
        """This process's resident memory, in bytes."""
        return _resident_bytes()

    def _stop_actors(self) -> None:
        refs, self.local, self.names = list(self.local.values()), {}, {}
        self.directory.clear()
        for ref in refs:
            if ref.is_alive():
                ref.stop(block=False)
        for ref in refs:
            ref.actor_stopped.wait(self.timeout)
        if self.network is not None:  # what is still on its way is finished, as in one process
            self.network.close()
            self.network = None
        if self.route is not None:
            self.route.close()


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling (it crosses back to the asker), else an ActorUnavailable."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return ActorUnavailable(f"crashed: {type(error).__name__}: {error}")
    return error


def _resident_bytes() -> int:
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
