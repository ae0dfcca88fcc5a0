"""The actor engine's front door: a game played by piece, board and referee actors, as a context manager.

The facade is the client: it asks only the referee (and, for study, a piece directly); when an actor
dies it asks the supervisor to heal and asks again (a proposal: unless the journal shows it was made).
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from contextlib import suppress
from functools import partial
from itertools import islice
from types import TracebackType
from typing import Any

from actors.kernel.errors import ActorFailure, ActorUnavailable, GameClosed
from actors.kernel.limits import GAMES
from actors.kernel.messaging import DEFAULT_TIMEOUT, WINDOW, Pending, ask, post, tell, wait_one
from actors.kernel.policies import Policy
from actors.kernel.schedule import Turnstile, make_turnstile, start_up
from actors.protocol.board import Declare, Declared
from actors.protocol.control import Armed, Crash, CrashOnNext, Lie
from actors.protocol.journal import RecordTeaching, Teaching
from actors.protocol.piece import (
    Answer,
    KnightPathQuery,
    KnightTourQuery,
    KnightWalk,
    Learn,
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
from actors.roles.journal import JOURNAL
from actors.roles.referee import REFEREE
from actors.roles.supervisor import BOARD, Supervisor
from actors.tracing.recorder import TraceRecorder
from board.errors import ChessActorsError, InputError
from board.fen import STARTING_FEN
from board.game import Game
from board.geometries import Geometry, geometry_named, user_geometry
from board.pieces import KIND_BY_LETTER
from board.squares import SQUARE_NAMES, parse_size, parse_square, parse_standard_square

CLIENT = "client"

ReplayResult = tuple[int, str, str | None, tuple[int, str, str] | None]
"""(plies played, FEN reached, outcome there, (ply, move, reason) of the first illegal move or None)."""

Proposal = ProposeText | ProposeSquares
InFlight = tuple[Proposal, Pending | None]
"""A proposal sent without waiting, and its pending reply (None when it could not be sent)."""

Teachable = Geometry | str | Callable[[tuple[int, int], tuple[int, int]], object]
"""What a piece can learn: a geometry, the name of one ('archbishop', 'knight', ...), or a function
``(start, end) -> None | (target, traversed)`` on (file, rank) pairs (see board.geometries)."""


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
        max_restarts, period: the supervisor's restart intensity limit.
        teach: pieces that start the game with another move function, by square ('c1': 'archbishop').
        schedule: the order deliveries run in: 'free' (None, pykka's own: the default), 'fifo',
            'random(SEED)', 'interactive', a Policy (a Script of actor names), or a Turnstile. Under
            any but free, one delivery runs at a time; start-up runs in arrival order and is not in
            ``turnstile.steps``, and every request of the client ends when all its mail is delivered.

    Raises:
        FenError: the FEN is malformed or impossible.
        InputError: a lesson in ``teach`` is unknown, or names an empty square (raised by :meth:`start`).
    """

    def __init__(
        self,
        fen: str = "startpos",
        timeout: float = DEFAULT_TIMEOUT,
        recorder: TraceRecorder | None = None,
        max_restarts: int = 10,
        period: float = 5.0,
        teach: Mapping[str, Teachable] | None = None,
        schedule: str | Policy | Turnstile | None = None,
    ) -> None:
        self.recorder = recorder
        self.turnstile = make_turnstile(schedule)
        self.timeout = timeout
        self.supervisor = Supervisor(fen, recorder, timeout, max_restarts, period, turnstile=self.turnstile)
        self.lessons = {square: as_geometry(lesson) for square, lesson in (teach or {}).items()}
        self._state = "new"
        self._counted = False
        self._plies = 0
        self._outcome: str | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    def __repr__(self) -> str:
        return f"<ActorGame {self._state}, {self._plies} plies>"

    # -- lifetime

    def __enter__(self) -> ActorGame:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def start(self) -> None:
        """Start every actor of the game (and teach the pieces their lessons).

        Raises:
            GameClosed: the game was closed; a closed game cannot start again.
            TooManyGames: the process already runs its limit of games (actors.kernel.limits), or the
                system refused a thread; nothing of this game is left running.
        """
        if self._state == "started":
            return
        if self._state == "closed":
            raise GameClosed("this game is closed; start a new ActorGame")
        GAMES.acquire()
        self._counted = True
        self._state = "started"
        # A game dropped without close() stops its actors when it is collected (or at exit).
        self._finalizer = weakref.finalize(self, _stop_dropped, self.supervisor)
        try:
            with start_up(self.turnstile):
                self.supervisor.start()
                self._outcome = self.supervisor.outcome
                for square, geometry in self.lessons.items():
                    self.teach(self.piece(square).name, geometry, reassess=False)
                if self.lessons:
                    self._reassess()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stop every actor the game started and wait for each; the game cannot be used again."""
        self._state = "closed"
        if self._finalizer is not None:
            self._finalizer.detach()
        if self.turnstile is not None:
            self.turnstile.close()
        try:
            self.supervisor.stop_all()
        finally:
            if self._counted:
                self._counted = False
                GAMES.release()

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
            GameClosed: the game is not started, or closed.
            ActorFailure: the supervisor gave up healing (RestartIntensityExceeded; a stuck board or
                referee that would not stop), or ``max_restarts + 1`` attempts failed.
        """
        self._check_open()
        ply = self._plies + 1
        return self._played(self._propose(ProposeText(text, ply)))

    def propose_squares(self, origin: str, target: str, promotion: int | None = None) -> Verdict:
        """Propose the move of the piece on ``origin`` to ``target`` (square names)."""
        self._check_open()
        ply = self._plies + 1
        message = ProposeSquares(
            parse_standard_square(origin), parse_standard_square(target), promotion or 0, ply
        )
        return self._played(self._propose(message))

    def _played(self, reply: Verdict) -> Verdict:
        """Count and journal an accepted move."""
        if isinstance(reply, Accepted):
            self._plies += 1
            self._outcome = reply.outcome
            if reply.entry is not None:
                self.supervisor.record(self._plies, (reply.entry,))
        return reply

    def propose_many(self, texts: Iterable[str], window: int = WINDOW) -> Generator[Verdict, None, None]:
        """Propose moves in order, as :meth:`propose` one by one would, with many in flight at once.

        Yields the replies in order and ends after the first Rejected. The proposals go out a window
        at a time, and the next window is sent before this one is collected: the referee always has
        mail, and the client waits once a window instead of once a move. Each is tagged with the ply
        it is meant to be, so that the referee refuses (as stale) any that comes after a refused
        one: only moves yielded as Accepted are made. When an actor fails, the supervisor heals and
        the moves not yet made are proposed again, one at a time.

        Moves already sent are made even if the iterator is closed early; they are in :attr:`journal`.

        Raises:
            GameClosed: the game is not started, or closed (checked when the first reply is asked for).
            ValueError: ``window`` is less than 1.
            ActorFailure: as :meth:`propose`.
        """
        if window < 1:
            raise ValueError(f"window {window}: at least one proposal must be in flight")
        self._check_open()
        return self._propose_many(iter(texts), window)

    def _propose_many(self, source: Iterable[str], window: int) -> Generator[Verdict, None, None]:
        windows: deque[list[InFlight]] = deque()
        next_ply = self._plies + 1

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
            send()
            while windows:
                send()
                batch = windows.popleft()
                replies = self._collect(batch)
                accepted = tuple(
                    reply.entry for reply in replies if isinstance(reply, Accepted) and reply.entry
                )
                if accepted:
                    self.supervisor.record(self._plies + 1, accepted)
                    self._plies += len(accepted)
                    self._outcome = accepted[-1].outcome
                for reply in replies:
                    yield reply
                    if isinstance(reply, Rejected):
                        return
                if len(replies) < len(batch):  # an actor failed: heal, and ask the rest again
                    redo = batch[len(replies) :] + [item for later in windows for item in later]
                    windows.clear()
                    for message, _ in redo:
                        reply = self._played(self._propose(message))
                        yield reply
                        if isinstance(reply, Rejected):
                            return
                    next_ply = self._plies + 1
                    send()  # and go on with the rest as before
        finally:
            self._settle(windows)

    def _send(self, name: str, message: object, ply: int) -> Pending | None:
        """Ask without waiting; None if the actor is not there to ask."""
        try:
            return ask(self.supervisor.ref(name), name, post(self.recorder, CLIENT, name, message, None, ply))
        except ActorFailure:
            return None

    def _collect(self, batch: list[InFlight]) -> list[Verdict]:
        """The replies of a window, in order, up to the first that failed (or came back stale).

        The referee answers in order, so waiting for the last reply waits for them all; it is the
        only wait, and its timeout bounds the window's.
        """
        last = batch[-1][1]
        if last is not None:
            with suppress(ActorFailure):  # the first failure is found below, in order
                wait_one(*last, self.timeout)
        replies: list[Verdict] = []
        for _, pending in batch:
            if pending is None:
                break
            try:
                reply = wait_one(*pending, 0)
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
        entries: list[JournalEntry] = []
        for batch in windows:
            for _, pending in batch:
                if pending is None:
                    break
                try:
                    reply = wait_one(*pending, self.timeout)
                except ActorFailure:
                    break
                if not isinstance(reply, Accepted) or reply.entry is None:
                    break
                entries.append(reply.entry)
        if entries:
            self.supervisor.record(self._plies + 1, tuple(entries))
            self._plies += len(entries)
            self._outcome = entries[-1].outcome

    def _journalled(self, ply: int) -> Accepted | None:
        """The Accepted reply for the ``ply``-th move (1-based), if the journal has it."""
        journal = self.supervisor.journal(ply - 1)
        if not journal.entries:
            return None
        entry = journal.entries[0]
        return Accepted(entry.uci, entry.san, entry.check, entry.outcome, None)

    def _propose(self, message: Proposal) -> Verdict:
        """Ask the referee ``message`` (tagged with its ply), healing on failure; a move the journal
        shows made (by an earlier attempt) is answered from the journal."""
        made = partial(self._journalled, message.ply)
        reply: Verdict = self._request(message, made)
        if isinstance(reply, Rejected) and reply.kind == "stale":
            return made() or reply
        return reply

    def _request(self, message: object, made: Callable[[], Accepted | None] | None = None) -> Any:
        """Ask the referee; while actors fail, heal and ask again, unless ``made()`` finds it done.

        Giving up is the supervisor's decision (its intensity limit); ``max_restarts + 1`` failed
        attempts also end it, for failures that restart nothing (a referee slower than the timeout).
        """
        supervisor = self.supervisor
        if supervisor.failed is not None:
            raise supervisor.failed
        for _ in range(max(1, supervisor.max_restarts + 1)):
            try:
                return self.ask(REFEREE, message)
            except ActorFailure as error:
                failure = error
            supervisor.heal()
            self._plies = supervisor.journal(self._plies).total
            self._outcome = supervisor.outcome
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
        self._check_open()
        envelope = post(self.recorder, CLIENT, name, message, None, self._plies + 1)
        reply = wait_one(*ask(self.supervisor.ref(name), name, envelope), self.timeout)
        if self.turnstile is not None:
            self.turnstile.drain()  # the conversation is over when its last tell is delivered
        return reply

    # -- looking

    @property
    def plies(self) -> int:
        """Legal plies played so far."""
        return self._plies

    @property
    def journal(self) -> tuple[JournalEntry, ...]:
        """Every accepted move, oldest first (asked of the journal actor)."""
        self._check_open()
        return self.supervisor.journal().entries

    @property
    def outcome(self) -> str | None:
        """How the game stands now, as the referee last said (before any move: the start position)."""
        return self._outcome

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

    # -- teaching

    def teach(self, name: str, geometry: Geometry, reassess: bool = True) -> Learned:
        """Teach the piece actor ``name`` a move function, tell the board its new reach, journal it,
        and (``reassess``) have the referee look at the position afresh: who gives check now, whether
        the side to move can move at all.

        Raises:
            InputError: the piece refused the geometry (it raised or answered nonsense); nothing changed.
        """
        learned: Learned = self.ask(name, Learn(geometry))
        if learned.refused is not None:
            raise InputError(f"{name} cannot learn {geometry.name!r}: {learned.refused}")
        declared: Declared = self.ask(BOARD, Declare(name, learned.reach))
        if declared.square < 0:
            raise ActorUnavailable(f"the board has no piece called {name}")
        teaching = RecordTeaching(Teaching(name, geometry, self._plies))
        tell(self.supervisor.ref(JOURNAL), post(self.recorder, CLIENT, JOURNAL, teaching))
        if reassess:
            self._reassess()
        return learned

    def _reassess(self) -> None:
        """Have the referee look at the position afresh (its facts may have changed under it)."""
        ready: Ready = self._request(Begin())
        self._outcome = ready.outcome

    # -- fault injection (for tests and demonstrations)

    def crash(self, name: str) -> None:
        """Make the actor ``name`` crash now."""
        self._check_open()
        tell(self.supervisor.ref(name), post(self.recorder, CLIENT, name, Crash(), None, self._plies + 1))

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


def _stop_dropped(supervisor: Supervisor) -> None:
    """Stop the actors of a game that was dropped (or left open at exit) without close()."""
    supervisor.stop_all()
    GAMES.release()


def replay_moves(
    moves: Sequence[str],
    fen: str = STARTING_FEN,
    timeout: float = DEFAULT_TIMEOUT,
    recorder: TraceRecorder | None = None,
) -> ReplayResult:
    """Play ``moves`` through the actors until the first illegal one.

    Returns (plies, fen, outcome, error) where error is (1-based ply, move, reason) or None.
    """
    with ActorGame(fen, timeout, recorder) as game:
        for number, move in enumerate(moves, start=1):
            reply = game.propose(move)
            if isinstance(reply, Rejected):
                return game.plies, game.fen(), game.outcome, (number, move, reply.reason)
        return game.plies, game.fen(), game.outcome, None


def final_fen(game: ActorGame) -> str:
    """The FEN from the actors; if they are past asking (the game failed), from the journal's moves."""
    try:
        return game.fen()
    except ChessActorsError:
        pass
    board = Game(game.supervisor.start_fen)
    for entry in game.journal:
        board.play(entry.uci, want_san=False)
    return board.fen()
