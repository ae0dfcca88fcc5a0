"""An OTP-style one_for_one supervisor for one actor system (pykka has none), with an intensity limit.

Children have stable names ("journal", "board", "referee", "white-knight-g1") in the system's
directory; a restart gives a new ref under the same name. The journal outlives the others, so every
child's state can be rebuilt: the board from the journal's moves, pieces from the board's roster (and
the journal's teachings), the referee from both. The supervisor runs in its client's thread.
"""

from __future__ import annotations

import functools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pykka

from actors.kernel.actor import fence
from actors.kernel.control import Ping
from actors.kernel.errors import (
    ActorFailure,
    ActorTimeout,
    ActorUnavailable,
    LinkFailure,
    RestartIntensityExceeded,
)
from actors.kernel.messaging import (
    DEFAULT_TIMEOUT,
    Caller,
    Directory,
    Pending,
    Ref,
    post,
    tell,
    wait_all,
    wait_one,
)
from actors.kernel.remote import RemoteRef
from actors.protocol.board import Place, Roster, RosterQuery
from actors.protocol.journal import JournalEntries, JournalQuery, Record
from actors.protocol.piece import Resync, Targets, TargetsQuery
from actors.protocol.referee import Begin, Ready
from actors.protocol.values import GameState, JournalEntry, RosterEntry, layout_of
from actors.roles.board import BoardActor, birth_name
from actors.roles.journal import JournalActor
from actors.roles.piece import PieceActor
from actors.roles.referee import PositionRefereeActor, RefereeActor
from actors.roles.registered import BOARD, JOURNAL, REFEREE, SUPERVISOR
from actors.tracing.recorder import marking, note_restart
from board.notation.fen import parse_fen, write_fen
from board.rules.geometry import Geometry, label_of, reach, standard
from board.rules.squares import SQUARE_NAMES

if TYPE_CHECKING:
    from actors.kernel.hive import Hive
    from actors.kernel.schedule import Turnstile
    from actors.tracing.recorder import TraceRecorder


Spawn = Callable[..., Ref]
"""Starts a child: ``spawn(name, actor_class, *arguments, **keywords)`` returns its reference."""


def _start_here(name: str, actor_class: type[pykka.Actor], *arguments: Any, **keywords: Any) -> Ref:
    """Start the child ``name`` in this process (the default :data:`Spawn`)."""
    return actor_class.start(*arguments, **keywords)


@functools.lru_cache(maxsize=32)
def seating(fen: str, chess960: bool | None = False) -> tuple[str, GameState, tuple[RosterEntry, ...]]:
    """A game's start from ``fen``: the FEN as written back, the judge's state (with the game's
    castling layout), and each piece's seat under its birth name (kept for the FENs seen last: a pool
    seats the same start again and again). ``chess960``: a Chess960 game (board.notation.fen.parse_fen).

    Raises:
        FenError: the FEN is malformed or impossible.
    """
    position = parse_fen(fen, chess960=chess960)
    table = position.castling_table
    state = GameState(position.turn, position.castling, position.en_passant, position.halfmove,
                      position.fullmove, layout=layout_of(table))
    entries = tuple(
        RosterEntry(
            square, code, birth_name(code, square), not table.home_rights(square, code) & position.castling
        )
        for square, code in enumerate(position.squares)
        if code
    )
    return write_fen(position), state, entries


def promoted_names(start_fen: str, entries: tuple[JournalEntry, ...], chess960: bool = False) -> set[str]:
    """The actor names of the pieces that promoted in the journal's moves from ``start_fen``."""
    names = {entry.square: entry.name for entry in seating(start_fen, chess960)[2]}
    promoted: set[str] = set()
    for entry in entries:
        move = entry.move
        if move.rook is not None:  # castling: both lifted first (either may land on the other's square)
            king, rook = names.pop(move.origin, ""), names.pop(move.rook[0], "")
            names[move.target], names[move.rook[1]] = king, rook
            continue
        name = names.pop(move.origin, "")
        names.pop(move.victim if move.victim >= 0 else move.target, None)
        names[move.target] = name
        if move.promotion:
            promoted.add(name)
    return promoted


@dataclass(frozen=True, slots=True)
class Roles:
    """The classes a game's actors are made of: the project's own by default. A lab runs a student's
    class in place of one of them (see :mod:`actors.study.labs`); it speaks the same protocol, so
    nothing else changes."""

    piece: type[PieceActor] = PieceActor
    board: type[BoardActor] = BoardActor
    referee: type[RefereeActor] = RefereeActor
    supervisor: type[Supervisor] | None = None
    """The supervisor's class (None: the project's :class:`Supervisor`, defined below this class)."""

    @property
    def standard(self) -> bool:
        """Whether every class is the project's own."""
        return self == STANDARD_ROLES

    @property
    def supervisor_class(self) -> type[Supervisor]:
        """The class that supervises: the one given, or the project's own."""
        return self.supervisor or Supervisor

    def of(self, role: str) -> type:
        """The class that plays ``role`` ('piece', 'board', 'referee' or 'supervisor')."""
        return self.supervisor_class if role == "supervisor" else getattr(self, role)


STANDARD_ROLES = Roles()


IDLE_PIECES = 8
"""How many pieces a re-seated system keeps idle for positions to come (a pool alternating between
a few positions reuses them); past that, the pieces the new position does not seat are stopped."""


class Supervisor:
    """Starts, names, restarts (one_for_one) and stops the actors of one game or position session.

    Args:
        fen: the starting position.
        recorder: traces every message when given.
        timeout: every ask's timeout, in seconds.
        max_restarts, period: more than ``max_restarts`` restarts within ``period`` seconds raise
            :class:`RestartIntensityExceeded`, and the game is over with that error.
        position_only: a ChessMoveQ session (any placement, a position referee, no journal).
        turnstile: the delivery turnstile every child runs under (None: free, pykka's own order).
        chess960: a Chess960 game (board.notation.fen.parse_fen's ``chess960``: True, False or None to read
            a castling field standard chess refuses as X-FEN); its castling layout is given to the
            pieces as they are created or seated, and to the referee in the game's state.
        hive: run the piece actors on one shared thread (actors.kernel.hive) instead of a thread
            each: pieces only answer, and a question to many of them then wakes one thread. Not
            under a turnstile, which schedules each actor's thread.
        roles: the classes of the piece, board and referee actors (every start and restart).
    """

    def __init__(
        self,
        fen: str,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_restarts: int = 10,
        period: float = 5.0,
        *,
        position_only: bool = False,
        turnstile: Turnstile | None = None,
        hive: bool = False,
        chess960: bool | None = False,
        roles: Roles = STANDARD_ROLES,
    ) -> None:
        # Setup: the starting state, never a judgement.
        position = parse_fen(fen, strict=not position_only, chess960=chess960)
        self.position_only = position_only
        self.roles = roles
        self.start_fen = write_fen(position)
        self.chess960 = position.castling_table.chess960
        """Whether the game is Chess960 (its start FEN's K and Q are then X-FEN)."""
        self.start_state = GameState(position.turn, position.castling, position.en_passant, position.halfmove,
                                     position.fullmove, layout=layout_of(position.castling_table))
        self.outcome: str | None = None
        self.claimable: tuple[str, ...] = ()
        """How the game stood when the referee last said it was ready."""
        self.directory = Directory()
        self.directory.turnstile = turnstile
        self.recorder = recorder
        self.timeout = timeout
        self._caller = Caller(SUPERVISOR, recorder, timeout, self.directory.ref)
        """How the supervisor asks its children: as itself, traced by its recorder, within its timeout."""
        self.max_restarts = max_restarts
        self.period = period
        self.restarts = 0
        self.failed: ActorFailure | None = None
        self._restart_times: deque[float] = deque()
        self._lost_nodes: set[str] = set()
        """The nodes found gone: the restarts of their actors were counted once, as one event."""
        self._started: list[Ref] = []
        self._hive_wanted = hive and turnstile is None
        self._hive: Hive | None = None
        self.spawn: Spawn = _start_here
        """How a child is started: in this process by default; a game on several nodes starts each
        child on the node its placement names (see :mod:`actors.clusters.nodes`)."""

    # -- looking things up

    def ref(self, name: str) -> Ref | None:
        """The running actor called ``name`` (None if there is none)."""
        return self.directory.ref(name)

    def names(self) -> list[str]:
        """Every supervised child's name."""
        return self.directory.names()

    def alive(self, name: str) -> bool:
        """Whether the child ``name`` is running."""
        ref = self.ref(name)
        return ref is not None and ref.is_alive()

    def roster(self) -> Roster:
        """The board's roster: every piece with its square, code, actor name and moved flag."""
        roster: Roster = self._caller.call(BOARD, RosterQuery(), Roster)
        return roster

    def journal(self, since: int = 0) -> JournalEntries:
        """The journal's entries after the first ``since``, its teachings and the start."""
        entries: JournalEntries = self._caller.call(JOURNAL, JournalQuery(since), JournalEntries)
        return entries

    def record(self, first_ply: int, entries: tuple[JournalEntry, ...]) -> None:
        """Write accepted moves to the journal (a tell: the journal takes its mail in order).

        Raises:
            LinkFailure: over failing links, the record was lost for good (the game is over: a heal
                would rebuild it without those moves).
        """
        if self.failed is not None:
            raise self.failed
        if entries:
            last = first_ply + len(entries) - 1  # traced with the last ply it records
            turnstile = self.directory.turnstile
            links = turnstile.links if turnstile is not None else None
            given_up = len(links.failures) if links is not None else 0
            tell(
                self.ref(JOURNAL),
                post(self.recorder, "client", JOURNAL, Record(first_ply, entries), None, last),
            )
            lost: str | None = None
            if turnstile is not None:
                turnstile.drain()  # under a schedule, the ply ends with its journal entry
                if links is not None:  # over its failing links, a record lost for good fails the game
                    lost = next((reason for reason in links.failures[given_up:]
                                 if reason.startswith("Record from client")), None)
            network = self.directory.network
            if network is not None:  # over failing links, a record lost for good fails the game now
                lost = network.told("client", self.timeout)
            if lost is not None:
                plies = f"ply {first_ply}" if first_ply == last else f"plies {first_ply}-{last}"
                self.failed = LinkFailure(f"the journal never got the record of {plies}: {lost}")
                raise self.failed

    # -- starting

    def start(self) -> None:
        """Start the journal, the board, one actor per piece, then the referee (which gathers the rest)."""
        with marking(self.recorder, "startup"):
            if not self.position_only:
                journal = self.spawn(
                    JOURNAL, JournalActor, self.start_state, self.directory, self.recorder, self.timeout
                )
                self._remember(JOURNAL, journal)
            self._start_board(())
            for entry in self.roster().entries:
                self._start_piece(entry, None)
            self._start_referee()

    def reset(self, fen: str, chess960: bool | None = False) -> None:
        """Set this running system up for a new game from ``fen``, starting threads only where it must.

        Each piece of the new position (``chess960`` as for the constructor) is seated by the board on
        its square as a plain piece of its kind (a promoted pawn is a pawn again, a taught piece
        forgets its lesson), under its birth name ('white-knight-g1'), and declares its reach;
        pieces the system lacks are started, and those the position does not seat stand idle off
        the board, up to :data:`IDLE_PIECES` of them; past that they are stopped (positions from the
        middle of games name pieces by squares of their own, and a system re-seated ply after ply
        kept every piece it had started, 106 threads by ply 75); the referee
        begins afresh from the board (which need not ask the pieces again) and has the journal
        forget the last game.

        Raises:
            FenError: the FEN is malformed or impossible.
            ActorFailure: an actor did not take part (the system is fit only to be stopped).
        """
        self.start_fen, self.start_state, entries = seating(fen, chess960)
        self.chess960 = self.start_state.layout.chess960
        self.outcome = None
        self.restarts = 0
        self._restart_times.clear()
        seated = {entry.name for entry in entries}
        idle = [name for name in self.names() if name not in (BOARD, REFEREE, JOURNAL) and name not in seated]
        if len(idle) > IDLE_PIECES:
            for name in idle:
                self._stop(name, wait=False)
        for entry in entries:
            if not self.alive(entry.name):
                self._stop(entry.name, wait=False)
                self._start_piece(entry, None)
        self._started = [ref for ref in self._started if ref.is_alive()]
        # The referee's Gather queues behind the Place at the board: no need to wait in between.
        place = Place(entries, self.start_state.layout)
        placing = self._caller.send(BOARD, place)
        ready: Ready = self._caller.call(REFEREE, Begin(self.start_state), Ready)
        if not isinstance(self._caller.wait(placing), Roster):
            raise ActorUnavailable(f"{BOARD} did not place the pieces")
        self.outcome = ready.outcome

    def start_piece(self, name: str, code: int, square: int, has_moved: bool = True) -> None:
        """Start (and supervise) one more piece actor, called ``name``, of ``code`` on ``square``."""
        self._start_piece(RosterEntry(square, code, name, has_moved), None)

    def _remember(self, name: str, ref: Ref) -> None:
        self.directory.register(name, ref)
        self._started.append(ref)

    def _start_board(self, moves: tuple[JournalEntry, ...]) -> None:
        journal = [entry.move for entry in moves]
        ref = self.spawn(
            BOARD,
            self.roles.board,
            self.start_fen,
            journal,
            self.directory,
            self.recorder,
            self.timeout,
            BOARD,
            strict=not self.position_only,
            chess960=self.chess960,
        )
        self._remember(BOARD, ref)

    def _start_piece(self, entry: RosterEntry, geometry: Geometry | None) -> None:
        arguments = (entry.name, entry.code, entry.square, entry.has_moved, self.directory, self.recorder,
                     self.timeout, geometry, self.start_state.layout)  # fmt: skip
        if not self._hive_wanted:
            self._remember(entry.name, self.spawn(entry.name, self.roles.piece, *arguments))
            return
        if self._hive is None or not self._hive.is_alive():
            from actors.kernel.hive import Hive  # only position sessions use one: replay never loads it

            self._hive = Hive()
            self._started.append(self._hive.ref)
        self._remember(entry.name, self._hive.adopt(self.roles.piece(*arguments)))

    def _start_referee(self) -> None:
        if self.position_only:
            self._remember(REFEREE, PositionRefereeActor.start(self.directory, self.recorder, self.timeout))
            return
        referee = self.spawn(REFEREE, self.roles.referee, self.directory, self.recorder, self.timeout)
        self._remember(REFEREE, referee)
        ready: Ready = self._caller.call(REFEREE, Begin(), Ready)
        self.outcome, self.claimable = ready.outcome, ready.claimable


    # -- healing

    def _count_restart(self, name: str) -> None:
        note_restart(self.recorder, name)
        ref = self.ref(name)
        if isinstance(ref, RemoteRef) and ref.node in getattr(ref.carrier, "dead", ()):
            # Its node is gone, and every actor it ran with it: one event, counted once against the
            # intensity (as an OTP supervisor restarting a subtree counts one restart), however
            # many actors the node held.
            if ref.node in self._lost_nodes:
                return
            self._lost_nodes.add(ref.node)
        now = time.monotonic()
        times = self._restart_times
        times.append(now)
        while times and now - times[0] > self.period:
            times.popleft()
        self.restarts += 1
        if len(times) > self.max_restarts:
            self.failed = RestartIntensityExceeded(
                f"{len(times)} restarts within {self.period:g} s (the limit is {self.max_restarts});"
                f" last to fail: {name}"
            )
            raise self.failed

    def heal(self, deadline: float | None = None) -> None:
        """Restart every dead child (board, then pieces, then referee), rebuilding state from the journal.

        A board that disagrees with the journal (it died, or made a move the client was never told
        of) is rebuilt from the journal; pieces are rebuilt from the board's roster. ``deadline``
        (a ``time.monotonic()`` instant) ends the rounds of healing once it has passed: an actor
        that is stuck again after every restart (a taught move function that turned slow) would
        otherwise be restarted for ever, slower than the intensity limit counts.

        Raises:
            RestartIntensityExceeded: too many restarts in the period (also for every later call).
            ActorTimeout: a stuck board or referee would not stop (also for every later call).
            ActorUnavailable: the journal itself is gone (nothing is left to rebuild from).
            LinkFailure: a link the supervisor heals over broke (also for every later call).
        """
        while True:
            if self.failed is not None:
                raise self.failed
            if deadline is not None and time.monotonic() >= deadline:
                raise ActorTimeout("the actors did not recover before the deadline (an actor stuck "
                                   "again after each restart: a slow move function?)")
            try:
                with marking(self.recorder, "heal"):
                    self._heal_once()
                return
            except RestartIntensityExceeded:
                raise
            except LinkFailure as error:
                # A link the network gave up on stays broken (nothing may follow a lost message):
                # healing again would meet it again, for ever, restarting nothing.
                self.failed = error
                raise
            except ActorFailure:
                if not self.position_only and not self.alive(JOURNAL):
                    journal = self.ref(JOURNAL)
                    where = f" (on {journal.node})" if isinstance(journal, RemoteRef) else ""
                    self.failed = ActorUnavailable(
                        f"the journal is not running{where}: the game cannot be rebuilt"
                    )
                    raise self.failed from None
                continue  # something died while healing: heal again (the intensity limit bounds this)

    def _unresponsive(self, names: list[str]) -> set[str]:
        """The children among ``names`` that do not answer a Ping within the timeout (asked all at once)."""
        silent: set[str] = set()
        pending = []
        for name in names:
            try:
                pending.append(self._caller.send(name, Ping()))
            except ActorFailure:
                silent.add(name)
        deadline = time.monotonic() + self.timeout
        for name, future in pending:
            try:
                wait_one(name, future, max(0.0, deadline - time.monotonic()))
            except ActorFailure:
                silent.add(name)
        return silent

    def _heal_once(self) -> None:
        network = self.directory.network
        if network is not None and (broken := network.broken_links()):
            # Nothing can cross a broken link between two running actors again: fail at once, rather
            # than go on with the moves that cross it refused and the others accepted.
            raise LinkFailure(f"a link between running actors is broken: {broken[0]}")
        # The referee first: one still judging a move its asker gave up on may yet make it, so
        # nothing is compared with the journal until the referee is idle, or stopped.
        referee_stopped = False
        if self.alive(REFEREE) and self._unresponsive([REFEREE]):
            self._count_restart(REFEREE)
            self._stop(REFEREE)
            referee_stopped = True
        journal = self.journal() if not self.position_only else None
        plies = journal.total if journal is not None else 0
        roster: Roster | None = None
        if self.alive(BOARD):
            try:
                roster = self.roster()
            except ActorFailure:
                roster = None
        if roster is None or (journal is not None and roster.plies != plies):
            self._count_restart(BOARD)
            self._stop(BOARD)
            self._start_board(journal.entries if journal is not None else ())
            roster = self.roster()
        on_board = {entry.name for entry in roster.entries}
        for name in self.names():
            if name not in (BOARD, REFEREE, JOURNAL) and name not in on_board:
                self._stop(name, wait=False)
        # A piece that is alive but silent (stuck in a handler) is replaced like a dead one.
        silent = self._unresponsive([entry.name for entry in roster.entries if self.alive(entry.name)])
        records = self.records(roster, journal)
        resyncs: list[Pending[Targets]] = []
        for entry in roster.entries:
            record = records[entry.name]
            if self.alive(entry.name) and entry.name not in silent:
                # One record, asked: what the board and the journal hold of the piece, the whole of it
                # (a promotion or a lesson the journal never recorded is undone), answered before the
                # heal ends, so no later Moved can be overtaken by it.
                resyncs.append(self._caller.send(entry.name, record))
                continue
            self._count_restart(entry.name)
            self._stop(entry.name, wait=False)
            seat = RosterEntry(record.square, record.code or entry.code, entry.name, record.has_moved)
            self._start_piece(seat, record.geometry)
        wait_all(resyncs, self.timeout)  # a piece that does not answer is healed again (or the game fails)
        if referee_stopped or not self.alive(REFEREE):
            if not referee_stopped:
                self._count_restart(REFEREE)
                self._stop(REFEREE)
            self._start_referee()
        elif not self.position_only:
            try:
                ready: Ready = self._caller.call(REFEREE, Begin(), Ready)
                self.outcome, self.claimable = ready.outcome, ready.claimable
            except ActorFailure:
                self._count_restart(REFEREE)
                self._stop(REFEREE)
                self._start_referee()

    def records(self, roster: Roster, journal: JournalEntries | None) -> dict[str, Resync]:
        """What each piece on the board must be once healed, by its actor's name: where it stands and
        whether it has moved (the board's roster, itself rebuilt from the journal), what it moves as
        and how many times it was promoted (the journal's lessons and moves)."""
        taught = self._current_lessons(journal) if journal is not None else {}
        entries = journal.entries if journal is not None else ()
        promoted = promoted_names(self.start_fen, entries, self.chess960) if entries else set()
        return {
            entry.name: Resync(entry.square, entry.has_moved, entry.code, taught.get(entry.name),
                               int(entry.name in promoted))
            for entry in roster.entries
        }

    def disagreements(self) -> list[str]:
        """Where a piece's own answers differ from what the board and the journal hold of it (none,
        after any heal: the invariant every fault test checks). Each piece on the board's roster is
        asked for its reach, and must answer from the roster's square, by the move function the
        journal gives it (its lesson, or its kind's own: a promotion or lesson the journal never
        recorded does not count), under that function's label.

        Raises:
            ActorFailure: the board, the journal or a piece did not answer.
        """
        roster = self.roster()
        taught = {} if self.position_only else self._current_lessons(self.journal())
        pending = [self._caller.send(entry.name, TargetsQuery()) for entry in roster.entries]
        found: list[str] = []
        for entry, answer in zip(roster.entries, wait_all(pending, self.timeout), strict=True):
            geometry = taught.get(entry.name) or standard(entry.code & 7)
            where = f"{entry.name} (on {SQUARE_NAMES[entry.square]} for the board)"
            if not isinstance(answer, Targets):
                found.append(f"{where} answered {type(answer).__name__}")
            elif answer.square != entry.square:
                stands = SQUARE_NAMES[answer.square] if answer.square >= 0 else "no square"
                found.append(f"{where} says it stands on {stands}")
            elif answer.label != label_of(geometry):
                found.append(f"{where} moves as {answer.label!r}, the journal says {label_of(geometry)!r}")
            elif geometry.pure and answer.reach != reach(geometry, entry.code >> 3, entry.square):
                found.append(f"{where} reaches other squares than a {label_of(geometry)} there")
        return found

    def _current_lessons(self, journal: JournalEntries) -> dict[str, Geometry]:
        """Each taught piece's move function now: the last it told the journal at the number of
        promotions the journal's moves give it (a lesson a promotion replaced is not restored, nor
        a promotion the journal never recorded)."""
        promoted = promoted_names(self.start_fen, journal.entries, self.chess960)
        taught: dict[str, Geometry] = {}
        for teaching in journal.teachings:
            if teaching.promotions == (1 if teaching.name in promoted else 0):
                taught[teaching.name] = teaching.geometry
        return taught

    # -- stopping

    def _stop(self, name: str, wait: bool = True) -> None:
        """Stop the child ``name``; with ``wait``, until it has finished the message it is handling.

        A piece changes nothing but its own answers, so a stuck one is left to finish alone. A board
        or referee that will not stop cannot be replaced (threads cannot be killed, and two of them
        would both change the game), so the game ends with an ActorTimeout.
        """
        ref = self.directory.unregister(name)
        if ref is None:
            return
        fence(ref)  # before another incarnation serves the name: a late word of this one changes nothing
        if not ref.is_alive():
            return
        try:
            if not wait:
                ref.stop(block=False)
                return
            ref.stop(block=True, timeout=self.timeout)
        except pykka.ActorDeadError:
            return
        except pykka.Timeout:
            self.failed = ActorTimeout(
                f"{name} did not stop within {self.timeout:g} s of being restarted for not answering;"
                f" a second {name} cannot safely run beside it, so the game ends here"
            )
            raise self.failed from None

    def stop_all(self) -> None:
        """Stop every actor this supervisor ever started, and wait for each to finish."""
        started, self._started = self._started, []
        self.directory.clear()
        for ref in started:
            try:
                if ref.is_alive():
                    ref.stop(block=False)
            except pykka.ActorDeadError:
                continue
        for ref in started:
            ref.actor_stopped.wait(self.timeout)
