"""A game's actors on several node processes: each node is a Ray actor (a process) that runs its share
of the pykka actors, and a message between two nodes is pickled and carried by Ray.

The driver (the process of the client and the supervisor) is not a node: it runs no game actor,
starts each one on the node the placement names (:mod:`actors.game.placement`) and tells every
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

The node process itself is :mod:`actors.clusters.node_process`; the mail between processes is
carried by :mod:`actors.clusters.ray_carrier`. This module is the driver's view of its nodes.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import pykka

from actors.clusters.cluster import RAY_TIMEOUT_SECONDS, init_ray, prepare_ray, reach
from actors.clusters.node_process import NODE_CONCURRENCY, NodeHost
from actors.clusters.ray_carrier import CALL_SECONDS, DRIVER, RayCarrier, first_line, import_ray
from actors.game.placement import Placement, checked_count, parse_placement, provide_node_starter
from actors.kernel.errors import ActorUnavailable
from actors.kernel.messaging import DEFAULT_TIMEOUT, Directory, Ref
from actors.kernel.network import Network
from actors.kernel.remote import Here, RemoteRoute
from actors.roles.registered import CLIENT, SUPERVISOR
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError

if TYPE_CHECKING:
    from actors.roles.supervisor import Supervisor

__all__ = ["Nodes"]


class Nodes:
    """``count`` node processes on a Ray cluster, for games' actors: start them once, let games use
    them one at a time (``ActorGame(nodes=...)``), close them.

    Args:
        count: how many node processes (1 to :data:`MAX_NODES`).
        address: 'local' (start a Ray on this machine, listening on the loopback interface only),
            'auto' or a cluster's address (HOST:PORT, ray://HOST:PORT).
        placement: which node runs which actor (a :class:`~actors.game.placement.Placement` or its text).
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
        self.driver = DRIVER
        """This process's name among the nodes (the client's, and its supervisor's)."""
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
        self._first_id, self._held = 0, False  # the game's first id; whether its events are held back
        self._network: Network | None = None
        self._places: dict[str, str] = {}
        self._timeout = DEFAULT_TIMEOUT
        self._supervisor: Supervisor | None = None
        self.restarts = 0
        """How many restarts the supervisor of the last game to end made (a lost node's actors
        count once)."""

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
        self._supervisor, self.restarts = supervisor, 0
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
            recorder.hold()  # until the game ends, and is numbered by causes (see end)
        self._first_id, self._held = first, recorder is not None
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
                raise ActorUnavailable(f"{name} could not be started on {node}: {first_line(error)}") \
                    from None
            self._call_all("register", lambda _, node=node, urn=urn: (name, node, urn), skip=node)
            self.placed[name] = self._places[name] = node
            return self.route.refer(node, name, urn)
        raise ActorUnavailable(f"{name} cannot be started: every node is gone ({self._gone_text()})")

    def end(self) -> None:
        """The game is over: stop its actors on every node and record what the nodes recorded with
        what this process recorded, numbered by their causes (see
        :meth:`~actors.tracing.recorder.TraceRecorder.release`), so that the same game gives the same
        trace however the threads of its processes ran (the events of a node that is gone are lost
        with it)."""
        if self._directory is None:
            return
        recorder, self._directory, self._recorder = self._recorder, None, None
        network, self._network = self._network, None
        if self._supervisor is not None:
            self.restarts, self._supervisor = self._supervisor.restarts, None
        self.route.close()
        self.landed()
        handed = self._call_all("end", lambda _: ())
        if network is not None:
            for _, _, counts, failures in handed:
                network.counts.update(Counter(counts))
                network.failures.extend(failures)
        if recorder is None:
            return
        events = [event for node_events, _, _, _ in handed for event in node_events]
        recorder.release(events, first_id=self._first_id if self._held else None)
        if not self._held:  # gathered live, its ids kept: the next ones come after every node's
            recorder.number(max([recorder.next_id(), *(node_next for _, node_next, _, _ in handed)]), 1)
        recorder.node = None

    def landed(self) -> None:
        """Wait until every tell that any process of the game sent is in its actor's inbox (or its
        node is found gone): call it before the game's actors are stopped, so that none is stopped
        before a tell sent to it lands, as Ray's timing would have it now and then (see
        :meth:`actors.clusters.ray_carrier.RayCarrier.landed`)."""
        try:
            self.carrier.landed(CALL_SECONDS)
        except self.ray.exceptions.RayError:  # Ray itself is gone: so is whatever was on its way
            return
        self._call_all("landed", lambda _: ())

    def gather(self) -> int:
        """Record here, in the order they finished, the events every node recorded since the last
        gather (the game goes on: a live view of a game on nodes gathers after each command);
        returns how many. Nothing when the game is not traced. A game gathered live keeps the ids its
        processes gave (it is not numbered again by causes when it ends)."""
        recorder = self._recorder
        if recorder is None:
            return 0
        events = [event for handed in self._call_all("take", lambda _: ()) for event in handed]
        self._held = False
        recorder.release(events)
        return len(events)

    def kill_on_next(self, node: str, kind: str) -> None:
        """Have the process of ``node`` end at once (as a SIGKILL ends it) when the next message of
        class ``kind`` arrives for one of its actors: a node lost mid-ply, at a point the caller names.

        Raises:
            InputError: ``node`` is not one of these nodes, or is gone already.
        """
        if node not in self.handles or node in self.carrier.dead:
            known = ", ".join(name for name in self.names if name not in self.carrier.dead)
            raise InputError(f"no running node called {node!r} (running: {known or 'none'})")
        self.ray.get(self.handles[node].die_on_next.remote(kind), timeout=CALL_SECONDS)

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


provide_node_starter(Nodes)  # what a game given a number of nodes starts
