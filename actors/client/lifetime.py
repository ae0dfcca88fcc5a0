"""A game's life: its actors started (in this process, on a pool's system or on nodes) and stopped.

The part of :class:`~actors.client.game.ActorGame` that leaves no actor, link or node behind it.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from actors.kernel.control import Disarm, Ping
from actors.kernel.errors import ActorFailure, ActorUnavailable, GameClosed
from actors.kernel.limits import GAMES
from actors.kernel.messaging import ask, post, tell, wait_one
from actors.kernel.schedule import start_up
from actors.roles.registered import CLIENT, REFEREE
from actors.tracing.recorder import STARTUP
from board.errors import InputError

if TYPE_CHECKING:
    from actors.client.handle import PieceHandle
    from actors.client.nodes import Nodes
    from actors.client.placement import Placement
    from actors.client.pool import SystemPool
    from actors.kernel.network import Network
    from actors.kernel.schedule import Turnstile
    from actors.kernel.scheduled_links import ScheduledLinks
    from actors.protocol.piece import Learned
    from actors.roles.supervisor import Supervisor
    from actors.tracing.recorder import TraceRecorder
    from board.rules.geometries import Geometry


class GameLifetime:
    """Start, where the actors run, and close: what :class:`~actors.client.game.ActorGame` does to
    have actors to ask, and to leave none behind."""

    supervisor: Supervisor
    recorder: TraceRecorder | None
    timeout: float
    pool: SystemPool | None
    turnstile: Turnstile | None
    links: ScheduledLinks | None
    network: Network | None
    nodes: Nodes | None
    _nodes_wanted: tuple[int, str, str | Placement] | Nodes | None
    lessons: dict[str, Geometry]
    startup_seconds: float
    _state: str
    _counted: bool
    _outcome: str | None
    _claimable: tuple[str, ...]
    _finalizer: weakref.finalize[Any, Any] | None
    _armed: set[str]
    _sending: bool
    teach: Callable[..., Learned]
    piece: Callable[[str], PieceHandle]
    _reassess: Callable[..., None]

    def start(self) -> None:
        """Start every actor of the game, or borrow a system from the pool (and teach the pieces
        their lessons).

        Raises:
            GameClosed: the game was closed (a closed game cannot start again), or its pool was.
            TooManyGames: the process already runs its limit of games (actors.kernel.limits), or the
                system refused a thread; nothing of this game is left running.
        """
        if self._state == "started":
            return
        if self._state == "closed":
            raise GameClosed("this game is closed; start a new ActorGame")
        began = time.perf_counter()
        with self.recorder.phase(STARTUP) if self.recorder is not None else nullcontext():
            self._start_system()
            self._state = "started"
            try:
                self._outcome, self._claimable = self.supervisor.outcome, self.supervisor.claimable
                with start_up(self.turnstile):  # lessons are part of the start, in arrival order
                    for square, geometry in self.lessons.items():
                        self.teach(self._piece_to_teach(square).name, geometry, reassess=False)
                    if self.lessons:
                        self._reassess(lessons_at_start=True)
            except BaseException:
                self._close(discard=True)
                raise
        self.startup_seconds = time.perf_counter() - began

    def _piece_to_teach(self, square: str) -> PieceHandle:
        """The piece a start-up lesson names by its square.

        Raises:
            InputError: the square is not one, or no piece stands there.
        """
        try:
            return self.piece(square)
        except ActorUnavailable:
            raise InputError(f"teach {square}: there is no piece on {square} to teach") from None

    def _start_system(self) -> None:
        """Borrow a system from the pool, or start this game's own."""
        if self.pool is not None:
            supervisor = self.supervisor
            self.supervisor = self.pool.borrow(
                supervisor.start_fen, supervisor.max_restarts, supervisor.period, supervisor.chess960
            )
            # A game dropped without close() stops the system it borrowed (its state is unknown).
            self._finalizer = weakref.finalize(self, self.pool.discard, self.supervisor)
            if self.network is not None:  # the borrowed system's mail crosses this game's links
                self.network.join(self.supervisor.directory)
                try:
                    self.network.model.check_actors([*self.supervisor.names(), CLIENT])
                except BaseException:
                    self._state = "started"
                    self._close(discard=True)
                    raise
            return
        GAMES.acquire()
        self._counted = True
        try:
            self._start_nodes()
        except BaseException:
            self._state = "started"
            self._close(discard=True)
            raise
        # A game dropped without close() stops its actors when it is collected (or at exit).
        self._finalizer = weakref.finalize(self, _stop_dropped, self.supervisor, self.network, self.nodes,
                                           self._nodes_owned)
        try:
            with start_up(self.turnstile):
                self.supervisor.start()
            if self.network is not None:
                self.network.model.check_actors(self._partitionable())
            if self.links is not None:
                self.links.model.check_actors([*self.supervisor.names(), CLIENT])
                assert self.turnstile is not None
                self.turnstile.attach(self.links)
        except BaseException:
            self._state = "started"
            self._close(discard=True)
            raise

    def _start_nodes(self) -> None:
        """Start the game's node processes (or take the ones given), and have the supervisor start
        every actor on them."""
        wanted = self._nodes_wanted
        if wanted is None:
            return
        if isinstance(wanted, tuple):
            from actors.client.nodes import Nodes

            self.nodes = Nodes(*wanted)
        else:
            self.nodes = wanted
        self.nodes.begin(self.supervisor, self.network)

    def _partitionable(self) -> list[str]:
        """The names a partition may use: the actors', and on nodes the nodes' (and the driver's)."""
        names = [*self.supervisor.names(), CLIENT]
        if self.nodes is not None:
            from actors.client.ray_carrier import DRIVER

            names += [*self.nodes.names, DRIVER]
        return names

    def partition(self, actors: frozenset[str], seconds: float, apart: frozenset[str] = frozenset()) -> None:
        """Cut the links of ``actors`` for ``seconds`` from now: to every other actor, or, given
        ``apart``, to those only. On nodes a node's name stands for its actors, and every node's
        network is cut as well as this process's.

        Raises:
            ValueError: the game's links are reliable (it has no network).
        """
        if self.network is None:
            raise ValueError("this game's links are reliable: give it network= to partition them")
        self.network.partition(actors, seconds, apart)
        if self.nodes is not None:
            self.nodes.partition(actors, seconds, apart)

    @property
    def _nodes_owned(self) -> bool:
        return isinstance(self._nodes_wanted, tuple)

    def close(self) -> None:
        """Stop every actor the game started and wait for each, or give the borrowed system back to
        its pool; the game cannot be used again."""
        self._close(discard=False)

    def _close(self, discard: bool) -> None:
        started, self._state = self._state == "started", "closed"
        if self._finalizer is not None:
            self._finalizer.detach()
        if self.turnstile is not None:
            self.turnstile.close()
            self._finalizer = None
        if self.pool is not None:
            if started:
                self._give_back(discard)
            return
        try:
            if self.nodes is not None:
                self.nodes.landed()  # what was told to an actor reaches it before it stops
            self.supervisor.stop_all()
        finally:
            if self.network is not None:
                self.network.close()
            if self.nodes is not None:
                _end_nodes(self.nodes, self._nodes_owned)
            if self._counted:
                self._counted = False
                GAMES.release()

    def _give_back(self, discard: bool) -> None:
        """Return the borrowed system, fit for the next game, or have the pool stop it."""
        assert self.pool is not None
        supervisor = self.supervisor
        healthy = not discard and supervisor.failed is None
        if healthy:
            try:
                if self._sending:  # a proposal stream left open: let the referee finish with it
                    envelope = post(self.recorder, CLIENT, REFEREE, Ping())
                    wait_one(*ask(supervisor.ref(REFEREE), REFEREE, envelope), self.timeout)
                for name in self._armed:  # faults armed through this game die with it
                    tell(supervisor.ref(name), post(self.recorder, CLIENT, name, Disarm()))
            except ActorFailure:
                healthy = False
        if self.network is not None:
            self.network.leave(supervisor.directory)  # the next game's mail is not this game's to fault
        self.pool.give_back(supervisor, healthy)

    def _check_open(self) -> None:
        if self._state == "new":
            raise GameClosed("the game is not started: use 'with ActorGame() as game:' or call game.start()")
        if self._state == "closed":
            raise GameClosed("the game is closed: its actors have stopped; start a new ActorGame")


def _stop_dropped(
    supervisor: Supervisor, network: Network | None = None, nodes: Nodes | None = None, owned: bool = False
) -> None:
    """Stop the actors of a game that was dropped (or left open at exit) without close()."""
    if nodes is not None:
        nodes.landed()
    supervisor.stop_all()
    if network is not None:
        network.close()
    if nodes is not None:
        _end_nodes(nodes, owned)
    GAMES.release()


def _end_nodes(nodes: Nodes, owned: bool) -> None:
    """End the game on its nodes (collecting what they traced), and end the nodes the game started."""
    try:
        nodes.end()
    finally:
        if owned:
            nodes.close()

