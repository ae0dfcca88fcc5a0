"""The actor engine's front door: a game played by piece, board and referee actors, as a context manager.

The facade is the client: it asks only the referee (and, for study, a piece directly); when an actor
dies it asks the supervisor to heal and asks again (a proposal: unless the journal shows it was made).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import nullcontext
from functools import partial
from types import TracebackType
from typing import TYPE_CHECKING, Any

from actors.client.arguments import checked_text, checked_timeout
from actors.client.cluster import check_address
from actors.client.handle import PieceHandle, Teachable, as_geometry
from actors.client.placement import Placement, checked_count
from actors.client.pool import SystemPool
from actors.client.stream import CLIENT, Proposal, ProposalStream
from actors.client.study import StudyTools
from actors.kernel.errors import ActorFailure, ActorUnavailable, GameClosed
from actors.kernel.limits import GAMES
from actors.kernel.links import LinkModel, parse_network
from actors.kernel.messaging import DEFAULT_TIMEOUT, Pending, ask, post, tell, wait_one
from actors.kernel.network import Network
from actors.kernel.policies import Policy
from actors.kernel.schedule import Turnstile, make_turnstile, start_up
from actors.kernel.scheduled_links import ScheduledLinks
from actors.protocol.control import CrashOnNext, Disarm, HangOnNext, Ping
from actors.protocol.referee import (
    Accepted,
    Description,
    FenQuery,
    LegalTargets,
    LegalTargetsQuery,
    ProposeSquares,
    ProposeText,
    Rejected,
    Verdict,
)
from actors.protocol.values import JournalEntry
from actors.roles.referee import REFEREE
from actors.roles.supervisor import Supervisor
from actors.tracing.recorder import STARTUP, TraceRecorder
from board.errors import ChessActorsError
from board.games.game import Game
from board.notation.fen import STARTING_FEN
from board.rules.squares import SQUARE_NAMES, parse_standard_square

if TYPE_CHECKING:
    from actors.client.nodes import Nodes

__all__ = [
    "ActorGame",
    "PieceHandle",
    "ReplayResult",
    "SystemPool",
    "Teachable",
    "as_geometry",
    "final_fen",
    "replay_moves",
]

ReplayResult = tuple[int, str, str | None, tuple[int, str, str] | None]
"""(plies played, FEN reached, outcome there, (ply, move, reason) of the first illegal move or None)."""

class ActorGame(ProposalStream, StudyTools):
    """A game judged by actors: one per piece, a board, a referee and a journal, under a supervisor.

    Use it as a context manager, or call :meth:`start` and :meth:`close`.

    Args:
        fen: the starting position ('startpos' or a FEN).
        timeout: every ask's timeout in seconds; a late or dead actor becomes an
            :class:`~actors.kernel.errors.ActorFailure`, never a hang.
        recorder: records one trace event per delivered message when given.
        max_restarts: the supervisor's restart intensity limit: at most this many restarts ...
        period: ... within this many seconds.
        teach: pieces that start the game with another move function, by square ('c1': 'archbishop').
        schedule: the order deliveries run in: 'free' (None, pykka's own: the default), 'fifo',
            'random(SEED)', 'interactive', a Policy (a Script of actor names), or a Turnstile. Under
            any but free, one delivery runs at a time; start-up runs in arrival order and is not in
            ``turnstile.steps``, and every request of the client ends when all its mail is delivered.
        chess960: a Chess960 game, as for :class:`board.games.game.Game`: True (the FEN's K and Q are
            X-FEN), False (standard chess, where a Shredder-FEN field or an inner rook's file letter
            still makes the game Chess960) or None (a castling field standard chess refuses is read
            as X-FEN). The game's castling layout reaches the king and rook actors as they are
            created or seated, and the referee in the game's state.
        network: the links between the game's actors: a :class:`~actors.kernel.links.LinkModel`,
            its text ('loss=0.05,dup=0.05,seed=1', see :func:`~actors.kernel.links.parse_network`) or
            a :class:`~actors.kernel.network.Network` not yet used; None: reliable. Under a model
            messages are lost, duplicated, delayed and reordered as it decides, and the game's
            verdicts stay the same (see the protocol's page). With a schedule other than free, a
            model's faults befall the mail on the schedule's clock (see ``links``).
        nodes: run the game's actors on node processes placed by Ray: a number of nodes (started
            for this game and ended with it) or a :class:`~actors.client.nodes.Nodes` already
            started (used by one game at a time, and left running). None: in this process. With
            ``network``, each node runs a network of its own under the same model for the mail its
            actors send, and a partition may name nodes (see :meth:`partition`).
        ray: where a number of ``nodes`` run: 'local' (a Ray started on this machine, loopback
            only), 'auto' or a cluster's address.
        placement: which node runs which actor, with a number of ``nodes``: 'role', 'colour',
            'round-robin' or a list ('referee=1,board=2,pieces=3'; see actors.client.placement).

    Raises:
        FenError: the FEN is malformed or impossible.
        InputError: a lesson in ``teach`` is unknown, or names an empty square (raised by :meth:`start`).
    """

    def __init__(
        self,
        fen: str = "startpos",
        timeout: float | None = None,
        recorder: TraceRecorder | None = None,
        max_restarts: int = 10,
        period: float = 5.0,
        teach: Mapping[str, Teachable] | None = None,
        pool: SystemPool | None = None,
        schedule: str | Policy | Turnstile | None = None,
        chess960: bool | None = False,
        network: str | LinkModel | Network | None = None,
        nodes: int | Nodes | None = None,
        ray: str = "local",
        placement: str | Placement = "role",
    ) -> None:
        if nodes is not None and (pool is not None or schedule is not None):
            raise ValueError("a game on nodes runs actors of its own, freely, over Ray's links: "
                             "give nodes= without pool= or schedule=")
        if pool is not None:
            if recorder is not None and recorder is not pool.recorder:
                raise ValueError("a pooled game is traced by its pool's recorder: give it to SystemPool")
            if timeout is not None and timeout != pool.timeout:
                raise ValueError("a pooled game uses its pool's timeout: give it to SystemPool")
            recorder, timeout = pool.recorder, pool.timeout
        self.recorder = recorder
        if pool is not None and schedule is not None:
            raise ValueError("a scheduled game runs actors of its own: give pool= or schedule=, not both")
        self.timeout = DEFAULT_TIMEOUT if timeout is None else checked_timeout(timeout)
        self.pool = pool
        self.turnstile = make_turnstile(schedule)
        self.supervisor = Supervisor(
            fen, recorder, self.timeout, max_restarts, period, turnstile=self.turnstile, chess960=chess960
        )
        """The game's actor system (with a pool: the one borrowed, once started)."""
        self.links: ScheduledLinks | None = None
        """Under a schedule, the failing links of the model ``network`` names, on the schedule's
        clock (actors.kernel.scheduled_links; ``counts``: what befell the messages); else None."""
        if self.turnstile is not None and network is not None and not isinstance(network, Network):
            self.links = ScheduledLinks(parse_network(network) if isinstance(network, str) else network)
            self.turnstile.attach(self.links)
            network = None
        self.network = _network(network, recorder, self.turnstile is not None)
        """The network the game's messages cross (None: reliable links; ``counts``: what befell them)."""
        self.supervisor.directory.network = self.network
        self.nodes: Nodes | None = None
        """The node processes the game's actors run on (None: this process)."""
        self._nodes_wanted: tuple[int, str, str | Placement] | Nodes | None = None
        if isinstance(nodes, int) or (nodes is not None and not hasattr(nodes, "spawn")):
            self._nodes_wanted = (checked_count(nodes), check_address(ray), placement)  # a count
        elif nodes is not None:
            self._nodes_wanted = nodes
        self.lessons = {square: as_geometry(lesson) for square, lesson in (teach or {}).items()}
        self.startup_seconds = 0.0
        """How long :meth:`start` took (starting threads, or re-seating a pooled system)."""
        self._state = "new"
        self._counted = False
        self._entries: list[JournalEntry] = []  # what this client wrote to the journal (its own record)
        self._outcome: str | None = None
        self._claimable: tuple[str, ...] = ()
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._armed: set[str] = set()
        self._sending = False

    def __repr__(self) -> str:
        if self._state == "started":
            from actors.studio.notebook import actor_game_repr

            try:
                return actor_game_repr(self)
            except ChessActorsError:
                pass  # a game whose journal cannot be read, or taught pieces the mirror cannot follow
        return f"<ActorGame {self._state}, {self.plies} plies>"

    def _repr_svg_(self) -> str:
        """Jupyter: the board the actors have reached (read from the journal)."""
        from actors.studio.notebook import actor_game_svg

        return actor_game_svg(self)

    # -- lifetime

    def __enter__(self) -> ActorGame:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        # A block left by an exception may leave the actors mid-conversation: not for another game.
        self._close(discard=error is not None)

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
                        self.teach(self.piece(square).name, geometry, reassess=False)
                    if self.lessons:
                        self._reassess()
            except BaseException:
                self._close(discard=True)
                raise
        self.startup_seconds = time.perf_counter() - began

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

    # -- playing

    def propose(self, text: str) -> Verdict:
        """Propose a move in SAN or UCI for the side to move.

        Returns Accepted (uci, san, check, outcome) or Rejected (text, reason, kind); a text that is
        neither SAN nor UCI is Rejected with kind 'syntax' and the syntax error as reason.

        Raises:
            TypeError: ``text`` is not a string.
            GameClosed: the game is not started, or closed.
            ActorFailure: the supervisor gave up healing (RestartIntensityExceeded; a stuck board or
                referee that would not stop), or ``max_restarts + 1`` attempts failed.
        """
        checked_text(text, "the move")
        self._check_open()
        ply = self.plies + 1
        return self._played(self._propose(ProposeText(text, ply)))

    def propose_squares(self, origin: str, target: str, promotion: int | None = None) -> Verdict:
        """Propose the move of the piece on ``origin`` to ``target`` (square names)."""
        checked_text(origin, "the origin square")
        checked_text(target, "the target square")
        if promotion is not None and (isinstance(promotion, bool) or not isinstance(promotion, int)):
            kind = type(promotion).__name__
            raise TypeError(f"promotion must be a piece kind (an int) or None, not {kind}")
        self._check_open()
        ply = self.plies + 1
        message = ProposeSquares(
            parse_standard_square(origin), parse_standard_square(target), promotion or 0, ply
        )
        return self._played(self._propose(message))

    def _played(self, reply: Verdict) -> Verdict:
        """Count and journal an accepted move."""
        if isinstance(reply, Accepted):
            self._journal((reply,))
        return reply

    def _journal(self, accepted: Sequence[Accepted]) -> None:
        """Write accepted moves to the journal and to this client's own record of what it was told,
        and remember how the game stands after the last. (A reply without an entry was answered
        from the journal after healing: its move is there already.)"""
        entries = tuple(reply.entry for reply in accepted if reply.entry is not None)
        if entries:
            self.supervisor.record(len(self._entries) + 1, entries)
            self._entries.extend(entries)
        if accepted and accepted[-1].entry is not None:
            self._outcome, self._claimable = accepted[-1].outcome, accepted[-1].claimable

    def _journalled(self, ply: int) -> Accepted | None:
        """The Accepted reply for the ``ply``-th move (1-based), if the journal has it."""
        journal = self.supervisor.journal(ply - 1)
        if not journal.entries:
            return None
        entry = journal.entries[0]
        return Accepted(entry.uci, entry.san, entry.check, entry.outcome)

    def _propose(self, message: Proposal, sent: Iterable[Pending | None] = ()) -> Verdict:
        """Ask the referee ``message`` (tagged with its ply), healing on failure.

        A move made by an earlier attempt (this call's, or ``sent``: asks of the same proposal
        that went unanswered in time) is answered from the journal, or from that attempt's own late
        reply: a slow referee answers the first ask before it calls the repeat stale.
        """
        attempts = [pending for pending in sent if pending is not None]
        made = partial(self._journalled, message.ply)
        reply: Verdict = self._request(message, made, attempts)
        if isinstance(reply, Rejected) and reply.kind == "stale":
            return made() or _made_by(attempts) or reply
        return reply

    def _request(self, message: object, made: Callable[[], Accepted | None] | None = None,
                 attempts: list[Pending] | None = None) -> Any:
        """Ask the referee; while actors fail, heal and ask again, unless ``made()`` finds it done.

        Each ask sent is added to ``attempts``. Giving up is the supervisor's decision (its
        intensity limit); ``max_restarts + 1`` failed attempts also end it, for failures that
        restart nothing (a referee slower than the timeout).
        """
        supervisor = self.supervisor
        if supervisor.failed is not None:
            raise supervisor.failed
        for _ in range(max(1, supervisor.max_restarts + 1)):
            try:
                pending = self._ask_later(REFEREE, message)
                if attempts is not None:
                    attempts.append(pending)
                return self._wait(pending)
            except ActorFailure as error:
                failure = error
            supervisor.heal()
            self._entries = list(supervisor.journal().entries)
            self._outcome, self._claimable = supervisor.outcome, supervisor.claimable
            done = made() if made is not None else None
            if done is not None:
                return done
        raise failure

    def ask(self, name: str, message: object) -> Any:
        """Ask the actor ``name`` as the client and wait (up to the timeout) for its reply.

        Raises:
            GameClosed: the game is not started, or closed.
            ActorFailure: the actor is not running, crashed on the message or did not answer in time.
        """
        return self._wait(self._ask_later(name, message))

    def _ask_later(self, name: str, message: object) -> Pending:
        """Send an ask as the client, without waiting."""
        self._check_open()
        if isinstance(message, (CrashOnNext, HangOnNext)):
            self._armed.add(name)
        # A proposal serves the ply it is tagged with; a question (the FEN, legal targets, a piece's
        # answer) serves none: labelled with the next ply, the end of a game would gain a ply.
        ply = message.ply if isinstance(message, ProposeText | ProposeSquares) else None
        envelope = post(self.recorder, CLIENT, name, message, None, ply)
        return ask(self.supervisor.ref(name), name, envelope)

    def _wait(self, pending: Pending) -> Any:
        """The reply to an ask sent by :meth:`_ask_later`, within the timeout."""
        reply = wait_one(*pending, self.timeout)
        if self.turnstile is not None:
            self.turnstile.drain()  # the conversation is over when its last tell is delivered
        return reply

    # -- looking

    @property
    def plies(self) -> int:
        """Legal plies played so far."""
        return len(self._entries)

    @property
    def journal(self) -> tuple[JournalEntry, ...]:
        """Every accepted move, oldest first: what this client wrote to the journal (no message sent;
        after healing it is read back from the journal actor).

        Raises:
            GameClosed: the game is not started, or closed.
        """
        self._check_open()
        return tuple(self._entries)

    @property
    def outcome(self) -> str | None:
        """How the game stands now, as the referee last said (before any move: the start position)."""
        return self._outcome

    @property
    def claimable(self) -> tuple[str, ...]:
        """The draws a player could claim now (threefold repetition, fifty moves), as the referee said."""
        return self._claimable

    def fen(self) -> str:
        """The FEN of the current position (the board's placement, the referee's game state)."""
        self._check_open()
        description: Description = self._request(FenQuery())
        return description.fen

    def legal_targets(self, square: str) -> tuple[str, ...]:
        """Where the piece on ``square`` may legally go now (none if it is not its side's turn)."""
        self._check_open()
        reply: LegalTargets = self._request(LegalTargetsQuery(parse_standard_square(square)))
        return tuple(SQUARE_NAMES[target] for target in reply.targets)

    def piece(self, square: str) -> PieceHandle:
        """A handle to the piece actor on ``square`` (the board says who stands there).

        Raises:
            ActorUnavailable: there is no piece on that square.
        """
        self._check_open()
        index = parse_standard_square(square)
        for entry in self.supervisor.roster().entries:
            if entry.square == index:
                return PieceHandle(self, entry.name, entry.square, entry.code)
        raise ActorUnavailable(f"there is no piece on {square}")


def _network(
    network: str | LinkModel | Network | None, recorder: TraceRecorder | None, shared: bool
) -> Network | None:
    """The network a game's ``network=`` argument stands for (None: reliable links).

    Raises:
        InputError: malformed text (see :func:`actors.kernel.links.parse_network`).
        ValueError: a network (not a model) with a schedule other than free.
    """
    if network is None:
        return None
    if shared:
        raise ValueError("a Network runs on free actors: under a schedule, give network= its model")
    if isinstance(network, Network):
        return network
    return Network(parse_network(network) if isinstance(network, str) else network, recorder)


def _made_by(attempts: Iterable[Pending]) -> Accepted | None:
    """The acceptance one of these asks already got back, if one made its move."""
    for pending in attempts:
        try:
            reply = wait_one(*pending, 0)
        except ActorFailure:
            continue
        if isinstance(reply, Accepted) and reply.entry is not None:
            return reply
    return None


def _stop_dropped(
    supervisor: Supervisor, network: Network | None = None, nodes: Nodes | None = None, owned: bool = False
) -> None:
    """Stop the actors of a game that was dropped (or left open at exit) without close()."""
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


def replay_moves(
    moves: Sequence[str],
    fen: str = STARTING_FEN,
    timeout: float = DEFAULT_TIMEOUT,
    recorder: TraceRecorder | None = None,
) -> ReplayResult:
    """Play ``moves`` through the actors until the first illegal one.

    Returns (plies, fen, outcome, error) where error is (1-based ply, move, reason) or None.

    Args:
        moves: SAN or UCI moves, in order.
        fen: the starting position.
        timeout: every ask's timeout, in seconds.
        recorder: traces every message when given.

    Returns:
        (plies, fen, outcome, error): the legal plies played, the FEN reached, how the game stands
        there, and (1-based ply, move, reason) of the first illegal move, or None.
    """
    with ActorGame(fen, timeout, recorder) as game:
        for number, move in enumerate(moves, start=1):
            reply = game.propose(move)
            if isinstance(reply, Rejected):
                return game.plies, game.fen(), game.outcome, (number, move, reply.reason)
        return game.plies, game.fen(), game.outcome, None


def final_fen(game: ActorGame) -> str:
    """The FEN of the position ``game`` has reached.

    Args:
        game: a started game, or one whose actors failed.

    Returns:
        The FEN the actors give; when they are past asking (the game failed), the FEN the journal's
        moves lead to, played over the direct engine.
    """
    try:
        return game.fen()
    except ChessActorsError:
        pass
    board = Game(game.supervisor.start_fen, chess960=game.supervisor.chess960)
    for entry in game.journal:
        board.play(entry.uci, want_san=False)
    return board.fen()
