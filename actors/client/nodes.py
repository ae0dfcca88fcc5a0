"""A game's actors on several node processes: each node is a Ray actor (a process) that runs its share
of the pykka actors, and a message between two nodes is pickled and carried by Ray.

The driver (the process of the client and the supervisor) is not a node: it runs no game actor,
starts each one on the node the placement names (:mod:`actors.client.placement`) and tells every
node where it runs. Every process keeps a directory of the game's actors by name: its own actors by
their pykka references, the others by :class:`~actors.kernel.remote.RemoteRef`, whose mail takes
the remote route. A node serves many deliveries at once (a threaded Ray actor), and puts what it
receives in its actors' inboxes in the order each process sent it (:class:`~actors.kernel.remote.Arrivals`).

Each node records the deliveries its actors handle (its trace ids interleaved with the others');
the driver collects them when the game ends and records them in time order, each naming the node
of its sender and of its receiver. A node whose process dies is noticed by the first message to
it (Ray's actor-died error, an :class:`~actors.kernel.errors.ActorUnavailable`): the supervisor
heals as for any dead actor, and the placement then names a surviving node.

Over links that fail (a game's ``network``), every node runs a network of its own under the game's
model for the mail its actors send, and the driver's network is added up with theirs when the game
ends; a partition may name nodes (the networks know where each actor runs).
"""

from __future__ import annotations

import importlib
import itertools
import os
import pickle
import queue
import threading
from collections import Counter
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

import pykka

from actors.client.cluster import RAY_TIMEOUT_SECONDS, MissingExtra, init_ray, prepare_ray, reach
from actors.client.placement import Placement, checked_count, parse_placement
from actors.client.stream import CLIENT
from actors.kernel.errors import ActorUnavailable, LinkFailure
from actors.kernel.links import LinkModel
from actors.kernel.mailbox import Reply
from actors.kernel.messaging import DEFAULT_TIMEOUT, Directory, Envelope, Ref
from actors.kernel.network import Network
from actors.kernel.remote import Arrivals, Here, RemoteRoute, Wire, from_wire
from actors.roles.supervisor import SUPERVISOR
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder

if TYPE_CHECKING:
    from actors.roles.supervisor import Supervisor

__all__ = ["DRIVER", "NodeHost", "Nodes", "RayCarrier"]

DRIVER = "driver"
"""The name the trace gives the driver's process (the client and the supervisor)."""

NODE_CONCURRENCY = 128
"""Deliveries a node serves at once: each ask waits on a thread of its node until its actor answers.
Far more than a client keeps in flight (two windows of proposals) and the actors ask one another,
so that no ask waits for a thread while the asks holding the threads wait on it."""

CALL_SECONDS = 10.0
"""How long a call to start, stop or look at an actor on a node may take before the node is called gone."""


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


# -- crossing: what each process (the driver and every node) sends with


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
        """Send a tell to the actor ``urn`` on ``node`` (nobody waits on it: a node that is gone loses it)."""
        self._send(node, urn, wire, False)

    def send(self, node: str, urn: str, wire: Wire, reply: Reply | None) -> None:
        """Send to the actor ``urn`` on ``node``: an ask whose answer settles ``reply``, or a tell.

        The answer is settled on a thread of this carrier's, in the order answers come, never on
        Ray's own (whoever waits on ``reply`` may send again at once).
        """
        call = self._send(node, urn, wire, reply is not None)
        if reply is None:
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
                unread = ActorUnavailable(f"{node}: {_first_line(failed)}")
                reply.set_exception((ActorUnavailable, unread, None))
                continue
            if error is not None:
                reply.set_exception((type(error), error, None))
            else:
                reply.set(value)

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


# -- a node


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
            return None, ActorUnavailable(f"{self.node} cannot read the message: {_first_line(error)}")
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


# -- the nodes, as the driver holds them


class Nodes:
    """``count`` node processes on a Ray cluster, for games' actors: start them once, let games use
    them one at a time (``ActorGame(nodes=...)``), close them.

    Args:
        count: how many node processes (1 to :data:`MAX_NODES`).
        address: 'local' (start a Ray on this machine, listening on the loopback interface only),
            'auto' or a cluster's address (HOST:PORT, ray://HOST:PORT).
        placement: which node runs which actor (a :class:`~actors.client.placement.Placement` or its text).
        timeout: how long the cluster may take to answer.

    Raises:
        InputError: a bad count or placement; MissingExtra: Ray is not installed; RayUnreachable: no
            cluster answered in time.
    """

    def __init__(self, count: int, address: str = "local", placement: Placement | str = "role",
                 timeout: float = RAY_TIMEOUT_SECONDS) -> None:
        self.count = checked_count(count)
        self.placement = parse_placement(placement) if isinstance(placement, str) else placement
        self.address = address
        self._closed = False
        self.handles: dict[str, Any] = {}
        prepare_ray(address)  # before Ray is imported: it reads its settings then
        ray = import_ray()
        self.ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            reach(address, timeout)
            init_ray(ray, address)
        self.names = [f"node-{index}" for index in range(1, self.count + 1)]
        remote = ray.remote(num_cpus=0, max_concurrency=NODE_CONCURRENCY, max_restarts=0)(NodeHost)
        try:
            for name in self.names:
                self.handles[name] = remote.remote(name)
            pids = ray.get([self.handles[name].connect.remote(self.handles) for name in self.names],
                           timeout=timeout)
        except BaseException:
            self.close()
            raise
        self.pids: dict[str, int] = dict(zip(self.names, pids, strict=True))
        """Each node's process id, by name (``handles`` holds each node's Ray actor)."""
        self.carrier = RayCarrier(ray, DRIVER, self.handles)
        self.route = RemoteRoute(self.carrier)
        self.placed: dict[str, str] = {}
        """Where each actor of the current game runs, by name."""
        self._order: dict[str, int] = {}
        self._incarnations = itertools.count(1)
        self._directory: Directory | None = None
        self._recorder: TraceRecorder | None = None
        self._network: Network | None = None
        self._places: dict[str, str] = {}
        self._timeout = DEFAULT_TIMEOUT

    # -- a game

    def begin(self, supervisor: Supervisor, network: Network | None = None) -> None:
        """Run ``supervisor``'s actors on these nodes, traced by its recorder (if any), from now on.

        Args:
            supervisor: the game's supervisor (it starts the actors, through :meth:`spawn`).
            network: the driver's network, when the game's links fail: every node then runs one
                of its own under the same model, for the mail its actors send, and its counts
                are added to this one's when the game ends.

        Raises:
            ValueError: another game uses these nodes.
        """
        if self._directory is not None:
            raise ValueError("these nodes run another game: one game at a time")
        if self._closed:
            raise ValueError("these nodes are closed")
        self._directory, self._recorder = supervisor.directory, supervisor.recorder
        self._timeout = supervisor.timeout
        self.placed, self._order = {}, {}
        self._network = network
        self._places = {CLIENT: DRIVER, SUPERVISOR: DRIVER}
        links = None
        if network is not None:
            network.places = self._places
            links = network.model
        step = self.count + 1
        first = 0
        recorder = self._recorder
        if recorder is not None:  # the driver's ids, then each node's, take turns: none is given twice
            first = recorder.next_id()
            recorder.number(first + step, step)
            recorder.node = DRIVER
        self._call_all("begin",
                       lambda index: (recorder is not None, first + index, step, self._timeout, links))
        supervisor.spawn = self.spawn

    def spawn(self, name: str, actor_class: type[pykka.Actor], *arguments: Any, **keywords: Any) -> Ref:
        """Start the actor ``name`` on the node its placement names (the next surviving one, if that
        one is gone) and tell every node where it runs; returns its reference here.

        Raises:
            ActorUnavailable: every node is gone, or the actor could not be started.
        """
        here = {id(self._directory): Here.DIRECTORY}
        if self._recorder is not None:
            here[id(self._recorder)] = Here.RECORDER
        given = tuple(here.get(id(argument), argument) for argument in arguments)
        order = self._order.setdefault(name, len(self._order))
        wanted = self.placement.node_of(name, order, self.count)
        for node in self._surviving_from(wanted):
            urn = f"{node}/{name}/{next(self._incarnations)}"
            try:
                call = self.handles[node].start.remote(name, urn, actor_class, given, keywords)
            except Exception as error:
                raise ActorUnavailable(f"{name} cannot be started on {node}: its arguments cannot be "
                                       f"pickled ({type(error).__name__}: {error})") from None
            try:
                self.ray.get(call, timeout=CALL_SECONDS)
            except self.ray.exceptions.RayActorError as error:
                self.carrier.gone(node, error)
                continue
            except self.ray.exceptions.RayError as error:
                raise ActorUnavailable(f"{name} could not be started on {node}: {_first_line(error)}") \
                    from None
            self._call_all("register", lambda _, node=node, urn=urn: (name, node, urn), skip=node)
            self.placed[name] = self._places[name] = node
            return self.route.refer(node, name, urn)
        raise ActorUnavailable(f"{name} cannot be started: every node is gone ({self._gone_text()})")

    def end(self) -> None:
        """The game is over: stop its actors on every node and record what the nodes recorded, in the
        order it happened (the events of a node that is gone are lost with it)."""
        if self._directory is None:
            return
        recorder, self._directory, self._recorder = self._recorder, None, None
        network, self._network = self._network, None
        self.route.close()
        handed = self._call_all("end", lambda _: ())
        if network is not None:
            for _, _, counts, failures in handed:
                network.counts.update(Counter(counts))
                network.failures.extend(failures)
        if recorder is None:
            return
        events: list[TraceEvent] = []
        next_id = recorder.next_id()
        for node_events, node_next, _, _ in handed:
            events.extend(node_events)
            next_id = max(next_id, node_next)
        events.sort(key=_finished_at)
        for event in events:
            recorder.record(event)
        recorder.number(next_id, 1)
        recorder.node = None

    def gather(self) -> int:
        """Record here, in the order they finished, the events every node recorded since the last
        gather (the game goes on: a live view of a game on nodes gathers after each command);
        returns how many. Nothing when the game is not traced."""
        recorder = self._recorder
        if recorder is None:
            return 0
        events = [event for handed in self._call_all("take", lambda _: ()) for event in handed]
        events.sort(key=_finished_at)
        for event in events:
            recorder.record(event)
        return len(events)

    def partition(self, actors: frozenset[str], seconds: float, apart: frozenset[str] = frozenset()) -> None:
        """Cut ``actors`` off from ``apart`` (or from the rest) for ``seconds`` from now, on every node
        (the driver's own network is cut by the caller); names may be actors' or nodes'."""
        self._call_all("partition", lambda _: (actors, seconds, apart))

    def _call_all(self, method: str, arguments: Any, skip: str | None = None) -> list[Any]:
        """Call ``method`` on every surviving node at once (``arguments(index)`` gives each its
        arguments) and wait for them; a node found gone is marked so and left out."""
        calls = []
        for index, name in enumerate(self.names, start=1):
            if name == skip or name in self.carrier.dead:
                continue
            calls.append((name, getattr(self.handles[name], method).remote(*arguments(index))))
        results = []
        for name, call in calls:
            try:
                results.append(self.ray.get(call, timeout=CALL_SECONDS))
            except self.ray.exceptions.RayError as error:
                self.carrier.gone(name, error)
        return results

    def _surviving_from(self, index: int) -> Iterable[str]:
        """The surviving nodes, from the ``index``-th (1-based) round."""
        for step in range(self.count):
            name = self.names[(index - 1 + step) % self.count]
            if name not in self.carrier.dead:
                yield name

    def _gone_text(self) -> str:
        return "; ".join(f"{node}: {why}" for node, why in sorted(self.carrier.dead.items()))

    # -- looking

    def memory(self) -> dict[str, int]:
        """Each surviving node's resident memory, in bytes."""
        sizes = self._call_all("memory", lambda _: ())
        return dict(zip([name for name in self.names if name not in self.carrier.dead], sizes, strict=False))

    @property
    def dead(self) -> dict[str, str]:
        """The nodes found gone, with what Ray said."""
        return self.carrier.dead

    # -- lifetime

    def close(self) -> None:
        """End every node process, and the local Ray if these nodes started it (nothing stays running)."""
        if self._closed:
            return
        self._closed = True
        route = getattr(self, "route", None)
        if route is not None:
            route.close()
        carrier = getattr(self, "carrier", None)
        if carrier is not None:
            carrier.close()
        for handle in self.handles.values():
            try:
                self.ray.kill(handle)
            except Exception:  # a node already gone
                continue
        if self._started:
            self.ray.shutdown()

    def __enter__(self) -> Nodes:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _finished_at(event: TraceEvent) -> int:
    """When a delivery was recorded: its reply, or for a tell its handling."""
    replied = event.get("t_replied")
    return replied if replied is not None else event["t_handled"]


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0][:200] if lines else ''}"
