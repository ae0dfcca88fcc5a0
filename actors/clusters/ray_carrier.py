"""The carrier of mail between a game's processes over Ray: each process (the driver and every node)
sends with one, numbered per node so that every node hands its mail on in the order it was sent.
"""

from __future__ import annotations

import importlib
import queue
import threading
from functools import partial
from typing import Any

import pykka

from actors.clusters.cluster import MissingExtra
from actors.kernel.errors import ActorUnavailable
from actors.kernel.mailbox import Reply
from actors.kernel.remote import Wire

__all__ = ["CALL_SECONDS", "DRIVER", "RayCarrier", "RayReply", "first_line", "import_ray"]

DRIVER = "driver"
"""The name the trace gives the driver's process (the client and the supervisor)."""

CALL_SECONDS = 10.0
"""How long a call to start, stop or look at an actor on a node may take before the node is called gone."""


TOLD_KEPT = 512
"""How many tells a carrier remembers before it forgets those that reached their node (see
:meth:`RayCarrier.landed`)."""


def import_ray(option: str = "--nodes") -> Any:
    """The ``ray`` module (an optional extra: typed as Any).

    Raises:
        MissingExtra: Ray is not installed (the message says how to install it).
    """
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise MissingExtra(
            f"{option} needs Ray, which is not installed: pip install 'chess-actors[cluster]' "
            "(or, in a checkout, pip install -e '.[cluster]')"
        ) from None


class RayReply(pykka.Future[Any]):
    """The reply to an ask carried by Ray: read from the delivery's Ray object."""

    def __init__(self, ray: Any, carrier: RayCarrier, node: str, object_ref: Any) -> None:
        super().__init__()
        self.ray, self.carrier, self.node, self.object_ref = ray, carrier, node, object_ref

    def get(self, *, timeout: float | None = None) -> Any:
        """The reply, waiting at most ``timeout`` seconds.

        Raises:
            pykka.Timeout: no reply in time.
            pykka.ActorDeadError: the actor, or its node, is gone.
            Exception: what the actor raised on the message.
        """
        exceptions = self.ray.exceptions
        try:
            value, error = self.ray.get(self.object_ref, timeout=timeout)
        except exceptions.GetTimeoutError:
            raise pykka.Timeout(f"{timeout} seconds") from None
        except exceptions.RayError as error:
            self.carrier.gone(self.node, error)
            raise pykka.ActorDeadError(f"its node, {self.node}, is gone") from None
        if error is not None:
            raise error
        return value


class RayCarrier:
    """Takes mail from this process (``origin``) to the nodes, numbered per node so that each node
    hands it on in the order it was sent (see :class:`~actors.kernel.remote.Arrivals`).

    Args:
        ray: the ``ray`` module.
        origin: this process's name in the trace (:data:`DRIVER` or a node's name).
        handles: every node's Ray actor, by name.
    """

    def __init__(self, ray: Any, origin: str, handles: dict[str, Any]) -> None:
        self.ray, self.origin, self.handles = ray, origin, handles
        self.dead: dict[str, str] = {}
        """The nodes found gone, with what Ray said."""
        self._lock = threading.Lock()
        self._seqs: dict[str, int] = {}
        self._answers: queue.SimpleQueue[tuple[str, Reply, Any] | None] = queue.SimpleQueue()
        self._settler: threading.Thread | None = None
        self._told: list[Any] = []  # the Ray calls of tells not yet known to have reached their node

    def gone(self, node: str, error: BaseException) -> None:
        """Mark ``node`` gone (Ray said ``error`` of it)."""
        text = str(error).strip().splitlines()
        self.dead.setdefault(node, f"{type(error).__name__}: {text[0][:200] if text else ''}")

    def _send(self, node: str, urn: str, wire: Wire, asked: bool) -> Any:
        # Pickled here, before a number is taken: a message that cannot cross leaves no gap in the
        # numbers its node waits on, and fails in its sender (cloudpickle: Ray's own pickler).
        try:
            payload = self.ray.cloudpickle.dumps(wire)
        except Exception as error:
            raise ActorUnavailable(f"{type(wire.message).__name__} cannot be sent to {node}: "
                                   f"{type(error).__name__}: {error}") from None
        handle = self.handles[node]
        with self._lock:  # numbered and handed to Ray in the same order
            seq = self._seqs.get(node, 0)
            self._seqs[node] = seq + 1
            return handle.deliver.remote(self.origin, seq, urn, payload, asked)

    def ask(self, node: str, urn: str, wire: Wire) -> pykka.Future[Any]:
        """Send an ask to the actor ``urn`` on ``node``."""
        return RayReply(self.ray, self, node, self._send(node, urn, wire, True))

    def tell(self, node: str, urn: str, wire: Wire) -> None:
        """Send a tell to the actor ``urn`` on ``node`` (nobody waits on it: a node that is gone loses
        it; :meth:`landed` waits until it is in the actor's inbox)."""
        self._on_its_way(self._send(node, urn, wire, False))

    def send(self, node: str, urn: str, wire: Wire, reply: Reply | None) -> None:
        """Send to the actor ``urn`` on ``node``: an ask whose answer settles ``reply``, or a tell.

        The answer is settled on a thread of this carrier's, in the order answers come, never on
        Ray's own (whoever waits on ``reply`` may send again at once).
        """
        call = self._send(node, urn, wire, reply is not None)
        if reply is None:
            self._on_its_way(call)
            return
        with self._lock:
            if self._settler is None:
                self._settler = threading.Thread(target=self._settle_answers, name="node-answers",
                                                 daemon=True)
                self._settler.start()
        call.future().add_done_callback(partial(self._came, node, reply))

    def _came(self, node: str, reply: Reply, done: Any) -> None:
        self._answers.put((node, reply, done))

    def _settle_answers(self) -> None:
        while (answer := self._answers.get()) is not None:
            node, reply, done = answer
            try:
                value, error = done.result()
            except self.ray.exceptions.RayError as lost:
                self.gone(node, lost)
                dead = pykka.ActorDeadError(f"its node, {node}, is gone")
                reply.set_exception((pykka.ActorDeadError, dead, None))
                continue
            except Exception as failed:  # cancelled, or what Ray could not read back
                unread = ActorUnavailable(f"{node}: {first_line(failed)}")
                reply.set_exception((ActorUnavailable, unread, None))
                continue
            if error is not None:
                reply.set_exception((type(error), error, None))
            else:
                reply.set(value)

    def _on_its_way(self, call: Any) -> None:
        with self._lock:
            self._told.append(call)
            if len(self._told) >= TOLD_KEPT:  # a long game: forget those that have landed already
                _, self._told = self.ray.wait(self._told, num_returns=len(self._told), timeout=0)

    def landed(self, timeout: float) -> int:
        """Wait, at most ``timeout`` seconds, until every tell sent so far is in its actor's inbox (or
        its node is found gone); returns how many were on their way.

        Ray runs a node's calls on many threads, in no order between two senders: a tell sent before
        a game ended may reach its node after the node was told to stop its actors, and be lost with
        them (its delivery missing from the trace) or not, as Ray's timing goes. So a game's nodes
        stop their actors only once what was told to them has landed.
        """
        with self._lock:
            told, self._told = self._told, []
        if told:
            self.ray.wait(told, num_returns=len(told), timeout=timeout)
        return len(told)

    def close(self) -> None:
        """Stop the thread that settles answers (what has come is settled first)."""
        with self._lock:
            settler, self._settler = self._settler, None
        if settler is not None:
            self._answers.put(None)
            settler.join()

    def alive(self, node: str, urn: str) -> bool:
        """Whether ``node`` runs the actor ``urn`` (False: gone, or silent for :data:`CALL_SECONDS`)."""
        if node in self.dead:
            return False
        try:
            return bool(self.ray.get(self.handles[node].alive.remote(urn), timeout=CALL_SECONDS))
        except self.ray.exceptions.RayError as error:
            self.gone(node, error)
            return False

    def stop(self, node: str, urn: str, block: bool, timeout: float | None) -> None:
        """Stop the actor ``urn`` on ``node``; with ``block``, wait until it has.

        Raises:
            pykka.Timeout: it did not stop within ``timeout`` seconds.
            pykka.ActorDeadError: the node is gone.
        """
        if node in self.dead:
            raise pykka.ActorDeadError(f"{node} is gone")
        call = self.handles[node].stop.remote(urn, block, timeout)
        if not block:
            return
        wait = CALL_SECONDS if timeout is None else timeout + CALL_SECONDS
        try:
            stopped = self.ray.get(call, timeout=wait)
        except self.ray.exceptions.RayError as error:
            self.gone(node, error)
            raise pykka.ActorDeadError(f"{node} is gone") from None
        if not stopped:
            raise pykka.Timeout(f"{timeout} seconds")


def first_line(error: BaseException) -> str:
    """``error``'s class and the first line of what it says (at most 200 characters): a node's
    failure told in one line, whatever Ray wrapped around it."""
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0][:200] if lines else ''}"
