"""The actor engine's front door: a game played by piece, board and referee actors, as a context manager.

The facade is the client: it asks only the referee (and, for study, a piece directly); when an actor
dies it asks the supervisor to heal and asks again (a proposal: unless the journal shows it was made).
"""

from __future__ import annotations

import time
import weakref
from collections import deque
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from contextlib import nullcontext, suppress
from functools import partial
from itertools import islice
from types import TracebackType
from typing import Any, TypeVar

from actors.game.arguments import check_address, checked_text, checked_timeout
from actors.game.placement import GameNodes, Placement, checked_count, start_nodes
from actors.game.pool import SystemPool
from actors.kernel.control import Armed, Crash, CrashOnNext, Disarm, HangOnNext, Ping
from actors.kernel.errors import ActorFailure, ActorTimeout, ActorUnavailable, GameClosed
from actors.kernel.limits import GAMES
from actors.kernel.links import LinkModel, parse_network
from actors.kernel.messaging import DEFAULT_TIMEOUT, WINDOW, Caller, Pending, Request, wait_one
from actors.kernel.network import Network
from actors.kernel.policies import Policy
from actors.kernel.schedule import Turnstile, make_turnstile, start_up
from actors.kernel.scheduled_links import ScheduledLinks
from actors.protocol.board import Lie, Teach
from actors.protocol.piece import (
    Answer,
    KnightPathQuery,
    KnightTourQuery,
    KnightWalk,
    Learned,
    MoveQuery,
    Targets,
    TargetsQuery,
)
from actors.protocol.referee import (
    Accepted,
    Begin,
    Description,
    FenQuery,
    LegalTargets,
    LegalTargetsQuery,
    ProposeSquares,
    ProposeText,
    Ready,
    Rejected,
    Verdict,
)
from actors.protocol.values import JournalEntry
from actors.roles.registered import BOARD, CLIENT, REFEREE
from actors.roles.supervisor import STANDARD_ROLES, Roles, Supervisor
from actors.tracing.recorder import STARTUP, TraceRecorder
from board.errors import ChessActorsError, InputError
from board.games.game import Game
from board.rules.geometry import Geometry, geometry_named, user_geometry
from board.rules.pieces import KIND_BY_LETTER, KIND_NAMES, PROMOTION_KINDS
from board.rules.squares import SQUARE_NAMES, parse_size, parse_square, parse_standard_square

R = TypeVar("R")

_KIND_BY_NAME = {name: kind for kind, name in enumerate(KIND_NAMES) if name}

__all__ = [
    "ActorGame",
    "PieceHandle",
    "SystemPool",
    "Teachable",
    "as_geometry",
]


REQUEST_DEADLINE_FLOOR = 30.0
"""The least default deadline of a request (seconds): healing under many faults may take a while."""


Proposal = ProposeText | ProposeSquares
InFlight = tuple[Proposal, Pending[Verdict] | None]
"""A proposal sent without waiting, and its pending reply (None when it could not be sent)."""


Teachable = Geometry | str | Callable[[tuple[int, int], tuple[int, int]], object]
"""What a piece can learn: a geometry, the name of one ('archbishop', 'knight', ...), or a function
``(start, end) -> None | (target, traversed)`` on (file, rank) pairs (see board.rules.geometry)."""


def as_geometry(lesson: Teachable) -> Geometry:
    """The geometry a lesson stands for.

    Raises:
        InputError: an unknown name, or something that is neither a geometry, a name nor a function.
    """
    if isinstance(lesson, Geometry):
        return lesson
    if isinstance(lesson, str):
        return geometry_named(lesson)
    if callable(lesson):
        return user_geometry(lesson, getattr(lesson, "__name__", "a function"))
    raise InputError(f"cannot learn {lesson!r}: give a geometry, its name, or a move function")


class PieceHandle:
    """A piece actor, to talk to directly (the seed's ``Bishop ! {move, Start, End, Colour}``)."""

    def __init__(self, game: ActorGame, name: str, square: int, code: int) -> None:
        self.game = game
        self.name = name
        self.square = square
        self.code = code

    def __repr__(self) -> str:
        return f"<PieceHandle {self.name} on {SQUARE_NAMES[self.square]}>"

    def move_query(self, start: str, end: str, colour: int | None = None) -> Answer:
        """Ask the piece whether its move function allows start -> end (square names).

        ``colour`` defaults to the piece's own. A piece asked about a square it does not stand on,
        or for the other colour, says no.
        """
        own = self.code >> 3
        message = MoveQuery(
            parse_standard_square(start), parse_standard_square(end), own if colour is None else colour
        )
        reply: Answer = self.game.ask(self.name, message)
        return reply

    def learn(self, lesson: Teachable) -> Learned:
        """Teach the piece another move function; the referee's verdicts follow it from the next move.

        A function that raises or answers nonsense only from a square the piece reaches later
        answers no from there: the piece has no move from that square, and the game goes on.

        Raises:
            InputError: the lesson is unknown, or the function raised or answered nonsense (the piece
                keeps its old move function and the game goes on unchanged).
        """
        return self.game.teach(self.name, as_geometry(lesson))

    def knight_path(self, target: str, size: str = "8") -> KnightWalk:
        """Ask a knight for a shortest path from where it stands to ``target`` (size ``N`` or ``WxH``)."""
        board_size = parse_size(size)
        reply: KnightWalk = self.game.ask(
            self.name, KnightPathQuery(parse_square(target, board_size), board_size)
        )
        return reply

    def knight_tour(self, size: str = "8", closed: bool = False) -> KnightWalk:
        """Ask a knight for a knight's tour of a ``size`` board from where it stands."""
        reply: KnightWalk = self.game.ask(self.name, KnightTourQuery(parse_size(size), closed))
        return reply

    def targets(self) -> Targets:
        """Every move the piece's geometry allows from where it stands."""
        reply: Targets = self.game.ask(self.name, TargetsQuery())
        return reply


class ActorGame:
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
            for this game and ended with it) or a :class:`~actors.clusters.nodes.Nodes` already
            started (used by one game at a time, and left running). None: in this process. With
            ``network``, each node runs a network of its own under the same model for the mail its
            actors send, and a partition may name nodes (see :meth:`partition`).
        ray: where a number of ``nodes`` run: 'local' (a Ray started on this machine, loopback
            only), 'auto' or a cluster's address.
        placement: which node runs which actor, with a number of ``nodes``: 'role', 'colour',
            'round-robin' or a list ('referee=1,board=2,pieces=3'; see actors.game.placement).
        roles: the classes the piece, board and referee actors are made of (a lab's class in place
            of one: see :mod:`actors.study.labs`); in this process, on actors of the game's own.

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
        nodes: int | GameNodes | None = None,
        ray: str = "local",
        placement: str | Placement = "role",
        roles: Roles = STANDARD_ROLES,
    ) -> None:
        if not roles.standard and (nodes is not None or pool is not None):
            raise ValueError("roles of your own run in this process, on actors of the game's own: "
                             "give roles= without nodes= or pool=")
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
        self.request_deadline = max(REQUEST_DEADLINE_FLOOR, self.timeout * (max_restarts + 2))
        """Seconds a move (or any request to the referee) may take, healing included: whatever the
        actors do, :meth:`propose` returns or raises by then (plus one last timeout at most). By
        default as long as the attempts it may make, ``max_restarts + 2`` timeouts, and at least
        :data:`REQUEST_DEADLINE_FLOOR`; it may be set."""
        self.pool = pool
        self.turnstile = make_turnstile(schedule)
        self.supervisor = roles.supervisor_class(
            fen, recorder, self.timeout, max_restarts, period, turnstile=self.turnstile, chess960=chess960,
            roles=roles,
        )
        """The game's actor system (with a pool: the one borrowed, once started)."""
        self._caller = Caller(CLIENT, recorder, self.timeout, self.supervisor.ref)
        """How the game asks its actors: as the client, traced by its recorder, within its timeout."""
        self.links: ScheduledLinks | None = None
        """Under a schedule, the failing links of the model ``network`` names, on the schedule's
        clock (actors.kernel.scheduled_links; ``counts``: what befell the messages); else None."""
        if self.turnstile is not None and network is not None and not isinstance(network, Network):
            # Attached once the actors have started, as a network joins them then: start-up is
            # reliable, and the model's times count from the game's first request.
            self.links = ScheduledLinks(parse_network(network) if isinstance(network, str) else network)
            network = None
        self.network = _network(network, recorder, self.turnstile is not None)
        """The network the game's messages cross (None: reliable links; ``counts``: what befell them)."""
        self.supervisor.directory.network = self.network
        self.nodes: GameNodes | None = None
        """The node processes the game's actors run on (None: this process)."""
        self._nodes_wanted: tuple[int, str, str | Placement] | GameNodes | None = None
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
        """``ActorGame(plies=3, last='g1f3', fen='...')``: where the game stands, by the journal (no
        message is sent: looking at a game never adds to its trace)."""
        if self._state == "started":
            try:
                journal = self.journal
                last = f", last={journal[-1].uci!r}" if journal else ""
                return f"ActorGame(plies={len(journal)}{last}, fen={self._mirror().fen()!r})"
            except ChessActorsError:
                pass  # a game whose journal cannot be read, or taught pieces the mirror cannot follow
        return f"<ActorGame {self._state}, {self.plies} plies>"

    def _repr_svg_(self) -> str:
        """Jupyter: the board the actors have reached (read from the journal), the last move tinted."""
        return self._mirror()._repr_svg_()

    def _mirror(self) -> Game:
        """The direct engine's game replaying the journal of accepted moves."""
        mirror = Game(self.supervisor.start_fen, chess960=self.supervisor.chess960)
        for entry in self.journal:
            mirror.play(entry.uci, want_san=False)
        return mirror

    # -- its life: the actors started (in this process, on a pool's system or on nodes) and stopped,
    # leaving no actor, link or node behind

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
            self._caller.lookup = self.supervisor.ref  # the borrowed system's actors are asked from now on
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
            self.nodes = start_nodes(*wanted)
        else:
            self.nodes = wanted
        self.nodes.begin(self.supervisor, self.network)

    def _partitionable(self) -> list[str]:
        """The names a partition may use: the actors', and on nodes the nodes' (and the driver's)."""
        names = [*self.supervisor.names(), CLIENT]
        if self.nodes is not None:
            names += [*self.nodes.names, self.nodes.driver]
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
                    self._caller.call(REFEREE, Ping())
                for name in self._armed:  # faults armed through this game die with it
                    self._caller.tell(name, Disarm())
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
            ActorTimeout: no verdict within :attr:`request_deadline`, healing included (an actor
                stuck again after each restart: a slow taught move function).
        """
        checked_text(text, "the move")
        self._check_open()
        ply = self.plies + 1
        return self._played(self._propose(ProposeText(text, ply)))

    def propose_squares(self, origin: str, target: str, promotion: int | str | None = None) -> Verdict:
        """Propose the move of the piece on ``origin`` to ``target`` (square names); ``promotion``:
        what a pawn becomes, a knight, bishop, rook or queen given by its kind (board.rules.pieces:
        KNIGHT .. QUEEN), its letter ('q', 'N') or its name ('queen').

        Raises:
            InputError: a square is not one, or ``promotion`` names no piece a pawn may become.
            TypeError: ``promotion`` is neither an int, a string nor None.
        """
        checked_text(origin, "the origin square")
        checked_text(target, "the target square")
        if promotion is not None and (isinstance(promotion, bool) or not isinstance(promotion, int | str)):
            kind = type(promotion).__name__
            raise TypeError(f"promotion must be a piece kind (an int, letter or name) or None, not {kind}")
        self._check_open()
        ply = self.plies + 1
        message = ProposeSquares(
            parse_standard_square(origin), parse_standard_square(target), promotion_kind(promotion), ply
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

    def _propose(self, message: Proposal, sent: Iterable[Pending[Verdict] | None] = ()) -> Verdict:
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

    def _request(self, message: Request[R], made: Callable[[], R | None] | None = None,
                 attempts: list[Pending[R]] | None = None, receiver: str = REFEREE) -> R:
        """Ask the referee (or ``receiver``); while actors fail, heal and ask again, unless ``made()``
        finds it done. So an ask whose reply never came is resolved before the game goes on: the heal
        brings every actor back to what the journal holds (a move or lesson it never recorded is
        undone), and the ask, which sets rather than adds, is asked again.

        Each ask sent is added to ``attempts``. Giving up is the supervisor's decision (its
        intensity limit, or a link broken for good); ``max_restarts + 1`` failed attempts also end
        it, for failures that restart nothing (a referee slower than the timeout), and so does
        :attr:`request_deadline` for the whole request, healing included, which nothing an actor does
        can extend (a taught move function that turned slow stalls each new incarnation of its piece,
        slower than the intensity limit counts restarts).
        """
        supervisor = self.supervisor
        if supervisor.failed is not None:
            raise supervisor.failed
        rounds = max(1, supervisor.max_restarts + 1)
        allowed = self.request_deadline
        deadline = time.monotonic() + allowed
        for _ in range(rounds):
            try:
                pending = self._ask_later(receiver, message)
                if attempts is not None:
                    attempts.append(pending)
                return self._wait(pending, deadline)
            except ActorFailure as error:
                failure = error
            try:
                supervisor.heal(deadline)
            except ActorTimeout:
                if time.monotonic() < deadline:  # a stuck board or referee that would not stop
                    raise
                raise ActorTimeout(
                    f"no verdict within {allowed:g} s (the request's deadline, healing included): {failure}"
                ) from None
            self._entries = list(supervisor.journal().entries)
            self._outcome, self._claimable = supervisor.outcome, supervisor.claimable
            done = made() if made is not None else None
            if done is not None:
                return done
        raise failure

    def ask(self, name: str, message: Request[R]) -> R:
        """Ask the actor ``name`` as the client and wait (up to the timeout) for its reply.

        Raises:
            GameClosed: the game is not started, or closed.
            ActorFailure: the actor is not running, crashed on the message or did not answer in time.
        """
        return self._wait(self._ask_later(name, message))

    def _ask_later(self, name: str, message: Request[R]) -> Pending[R]:
        """Send an ask as the client, without waiting."""
        self._check_open()
        if isinstance(message, (CrashOnNext, HangOnNext)):
            self._armed.add(name)
        # A proposal serves the ply it is tagged with; a question (the FEN, legal targets, a piece's
        # answer) serves none: labelled with the next ply, the end of a game would gain a ply.
        ply = message.ply if isinstance(message, ProposeText | ProposeSquares) else None
        return self._caller.send(name, message, ply)

    def _wait(self, pending: Pending[R], deadline: float | None = None) -> R:
        """The reply to an ask sent by :meth:`_ask_later`, within the timeout (and before ``deadline``,
        a ``time.monotonic()`` instant, when one is given)."""
        timeout = self.timeout
        if deadline is not None:
            timeout = max(0.0, min(timeout, deadline - time.monotonic()))
        reply = self._caller.wait(pending, timeout)
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

    # -- many proposals in flight at once: a window sent before the last is collected, and after
    # a failure the rest asked again

    def propose_many(self, texts: Iterable[str], window: int = WINDOW) -> list[Verdict]:
        """Propose moves in order, as :meth:`propose` one by one would, with many in flight at once.

        Every move is judged before this returns (:meth:`stream_proposals` is the lazy form, for a
        stream too long to hold or read as it goes).

        Args:
            texts: the moves, in SAN or UCI, in the order they are to be played.
            window: how many proposals may be in flight at once (at least 1).

        Returns:
            The verdicts in order: an Accepted for each move made, ending with the first Rejected if
            a move was refused (the moves after it are not proposed).

        Raises:
            GameClosed: the game is not started, or closed.
            ValueError: ``window`` is less than 1.
            ActorFailure: as :meth:`propose`.
        """
        return list(self.stream_proposals(texts, window))

    def stream_proposals(self, texts: Iterable[str], window: int = WINDOW) -> Generator[Verdict, None, None]:
        """Propose moves in order as the returned iterator is read: nothing is sent before the first
        reply is asked for.

        Yields the replies in order and ends after the first Rejected. The proposals go out a window
        at a time, and the next window is sent before this one is collected: the referee always has
        mail, and the client waits once a window instead of once a move. Each is tagged with the ply
        it is meant to be, so that the referee refuses (as stale) any that comes after a refused
        one: only moves yielded as Accepted are made. When an actor fails, the supervisor heals and
        the moves not yet made are proposed again, one at a time.

        Moves already sent are made even if the iterator is closed early; they are in :attr:`journal`.

        Raises:
            GameClosed: the game is not started, or closed (checked again when a reply is asked for).
            ValueError: ``window`` is less than 1.
            ActorFailure: as :meth:`propose`.
        """
        if window < 1:
            raise ValueError(f"window {window}: at least one proposal must be in flight")
        self._check_open()
        return self._propose_many(iter(texts), window)

    def _propose_many(self, source: Iterable[str], window: int) -> Generator[Verdict, None, None]:
        windows: deque[list[InFlight]] = deque()
        next_ply = len(self._entries) + 1

        def send() -> None:
            nonlocal next_ply
            batch: list[InFlight] = []
            for text in islice(source, window):
                message = ProposeText(text, next_ply)
                batch.append((message, self._send(REFEREE, message, next_ply)))
                next_ply += 1
            if batch:
                windows.append(batch)

        try:
            self._check_open()
            self._sending = True
            send()
            while windows:
                self._check_open()  # a stream read on after close() must not reach the actors
                send()
                batch = windows.popleft()
                replies = self._collect(batch)
                self._journal([reply for reply in replies if isinstance(reply, Accepted)])
                for reply in replies:
                    yield reply
                    if isinstance(reply, Rejected):
                        return
                if len(replies) < len(batch):  # an actor failed: heal, and ask the rest again
                    redo = batch[len(replies) :] + [item for later in windows for item in later]
                    windows.clear()
                    for message, pending in redo:
                        reply = self._played(self._propose(message, (pending,)))
                        yield reply
                        if isinstance(reply, Rejected):
                            return
                    next_ply = len(self._entries) + 1
                    send()  # and go on with the rest as before
        finally:
            self._settle(windows)
            self._sending = False

    def _send(self, name: str, message: Proposal, ply: int) -> Pending[Verdict] | None:
        """Ask without waiting; None if the actor is not there to ask."""
        try:
            return self._caller.send(name, message, ply)
        except ActorFailure:
            return None

    def _collect(self, batch: list[InFlight]) -> list[Verdict]:
        """The replies of a window, in order, up to the first that failed (or came back stale).

        The referee answers in order, so waiting for the last reply waits for them all; it is the
        only wait, and its timeout bounds the window's. Over failing links the replies are waited
        for in turn, each for a whole timeout after the one before it: a window of lossy plies may
        take longer than one timeout while every reply comes in time, and whether the game heals
        must not depend on how fast the machine ran them.
        """
        last = batch[-1][1]
        if last is not None and self.network is not None:
            with suppress(ActorFailure):  # the first failure is found below, in order
                for _, pending in batch:
                    if pending is None:
                        break
                    self._caller.wait(pending)
        elif last is not None:
            with suppress(ActorFailure):  # the first failure is found below, in order
                self._caller.wait(last)
        replies: list[Verdict] = []
        for _, pending in batch:
            if pending is None:
                break
            try:
                reply = self._caller.wait(pending, 0)
            except ActorFailure:
                break
            stale = isinstance(reply, Rejected) and reply.kind == "stale"
            if stale or not isinstance(reply, (Accepted, Rejected)):
                break
            replies.append(reply)
        return replies

    def _settle(self, windows: deque[list[InFlight]]) -> None:
        """Wait for the replies still in flight, so that what they did is done, and journal it.

        The referee answers in order, so a reply that is not an acceptance ends what can be made."""
        if self._state != "started":
            return
        made: list[Accepted] = []
        for batch in windows:
            for _, pending in batch:
                if pending is None:
                    break
                try:
                    reply = self._caller.wait(pending)
                except ActorFailure:
                    break
                if not isinstance(reply, Accepted) or reply.entry is None:
                    break
                made.append(reply)
        self._journal(made)

    # -- study: lessons that change how a piece moves, injected faults, a lying board

    # -- teaching

    def teach(self, name: str, geometry: Geometry, reassess: bool = True) -> Learned:
        """Teach the piece actor ``name`` a move function (it tells the journal itself) and
        (``reassess``) have the referee look at the position afresh: who gives check now, whether
        the side to move can move.

        The lesson goes through the board (``Teach``): the board asks the piece and takes its answer
        as the piece's word, so nothing the board reports after it can miss the lesson.

        Raises:
            InputError: the piece refused the geometry (it raised or answered nonsense); nothing changed.
            ActorUnavailable: the board has no piece called ``name`` (it was captured).
            ActorFailure: the actors failed past healing (the game is over, as for a proposal).
        """
        # A lesson sets, it does not add: one whose reply never came is asked again after the heal
        # (which gives the piece the lesson the journal holds), never left half taught.
        learned: Learned = self._request(Teach(name, geometry), receiver=BOARD)
        if learned.refused is not None:
            raise InputError(f"{name} cannot learn {geometry.name!r}: {learned.refused}")
        if learned.square < 0:
            raise ActorUnavailable(f"the board has no piece called {name}")
        if reassess:
            self._reassess()
        return learned

    def _reassess(self, lessons_at_start: bool = False) -> None:
        """Have the referee look at the position afresh (its facts may have changed under it);
        ``lessons_at_start``: the start-up lessons were just taught (they are part of the start)."""
        ready: Ready = self._request(Begin(lessons_at_start=lessons_at_start))
        self._outcome, self._claimable = ready.outcome, ready.claimable

    # -- fault injection (for tests and demonstrations)

    def crash(self, name: str) -> None:
        """Make the actor ``name`` crash now."""
        self._check_open()
        ply = len(self._entries) + 1
        self._caller.tell(name, Crash(), ply)

    def crash_on_next(self, name: str, kind: str) -> None:
        """Make the actor ``name`` raise on the next message of class ``kind`` it receives."""
        self.ask(name, CrashOnNext(kind))

    def board_lies(self, ghosts: Mapping[str, str] | None = None, hidden: Iterable[str] = ()) -> Armed:
        """Make the board report ``ghosts`` (square -> FEN letter: 'P' a white pawn, 'q' a black queen)
        that are not there and hide the pieces on ``hidden``, until called again with neither.

        Raises:
            InputError: a square or a letter is not one.
        """
        placed = []
        for square, letter in (ghosts or {}).items():
            kind = KIND_BY_LETTER.get(letter.upper())
            if kind is None or len(letter) != 1:
                raise InputError(
                    f"ghost on {square}: {letter!r} is not a piece letter (one of PNBRQK pnbrqk)"
                )
            placed.append((parse_standard_square(square), (0 if letter.isupper() else 8) | kind))
        armed: Armed = self.ask(BOARD, Lie(tuple(placed), tuple(parse_standard_square(s) for s in hidden)))
        return armed


def promotion_kind(promotion: int | str | None) -> int:
    """The kind a pawn promotes to, given by kind, letter or name (0 for None).

    Raises:
        InputError: anything but a knight, bishop, rook or queen.
    """
    if promotion is None:
        return 0
    if isinstance(promotion, str):
        text = promotion.strip()
        kind = KIND_BY_LETTER.get(text.upper(), -1) if len(text) == 1 else _KIND_BY_NAME.get(text.lower(), -1)
    else:
        kind = promotion
    if kind not in PROMOTION_KINDS:
        raise InputError(
            f"promotion {promotion!r}: a pawn becomes a knight, bishop, rook or queen "
            f"(N B R Q, their names, or the kinds {', '.join(str(k) for k in sorted(PROMOTION_KINDS))})"
        )
    return kind


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


def _made_by(attempts: Iterable[Pending[Verdict]]) -> Accepted | None:
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
    supervisor: Supervisor, network: Network | None = None, nodes: GameNodes | None = None,
    owned: bool = False,
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


def _end_nodes(nodes: GameNodes, owned: bool) -> None:
    """End the game on its nodes (collecting what they traced), and end the nodes the game started."""
    try:
        nodes.end()
    finally:
        if owned:
            nodes.close()
