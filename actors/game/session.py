"""ChessMoveQ answered by the actor system: one supervisor, board and referee kept across many cases.

Each case seats piece actors on the board, one kept for each piece code and square a case has used
(started the first time one is needed), and asks the referee CheckMove; the answer is the direct
engine's, learnt by messages.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from types import TracebackType
from typing import Any, TypeVar

from pykka import Future

from actors.game.arguments import checked_timeout
from actors.kernel.errors import ActorFailure, ActorUnavailable, GameClosed
from actors.kernel.limits import GAMES
from actors.kernel.mailbox import Reply
from actors.kernel.messaging import DEFAULT_TIMEOUT, WINDOW, Caller, Request, expect, wait_one
from actors.kernel.policies import Policy
from actors.kernel.schedule import Turnstile, make_turnstile, start_up
from actors.protocol.referee import CheckMove, MoveCheck, Ready, Setup
from actors.protocol.values import RosterEntry
from actors.roles.registered import CLIENT, REFEREE
from actors.roles.supervisor import Supervisor
from actors.tracing.recorder import TraceRecorder
from board.puzzles.chessmoveq import Answer, Placement
from board.rules.pieces import COLOUR_NAMES, KIND_NAMES
from board.rules.squares import SQUARE_NAMES

EMPTY_FEN = "8/8/8/8/8/8/8/8 w - - 0 1"
"""The board the session starts with; every case seats its own pieces."""


R = TypeVar("R")


def piece_name(code: int, square: int) -> str:
    """The name of the session's piece actor for ``code`` on ``square``: 'white-knight-g1'."""
    return f"{COLOUR_NAMES[code >> 3]}-{KIND_NAMES[code & 7]}-{SQUARE_NAMES[square]}"


Case = tuple[Sequence[Placement], Placement]

AWAIT_SEVERAL = 8
"""How many cases in flight the client waits for at once, when it has to wait (see ``_await_several``)."""


class CheckMoveSession:
    """An actor system for ChessMoveQ questions in position-only mode, reused from case to case.

    The mover is the move's colour; there is no castling and no en passant; a side may have no king
    (then it has none to keep safe); a pawn may stand on any rank and reaching the last one is a move.

    Args:
        timeout: every ask's timeout in seconds.
        recorder: records one trace event per delivered message when given.
        schedule: the order deliveries run in, as for ActorGame ('free' by default); every start of
            the actor system (a restart too) gets a fresh turnstile, in :attr:`turnstile`.

    Use it as a context manager (every actor stops on exit), or call :meth:`start` and :meth:`close`.
    """

    def __init__(
        self,
        timeout: float = DEFAULT_TIMEOUT,
        recorder: TraceRecorder | None = None,
        schedule: str | Policy | Turnstile | None = None,
    ) -> None:
        self.timeout = checked_timeout(timeout)
        self.schedule = schedule
        self.turnstile: Turnstile | None = None
        self.recorder = recorder
        self.supervisor: Supervisor | None = None
        self._caller: Caller | None = None
        """How the session asks the referee, once its actors are started."""
        self.cases = 0
        self.restarts = 0
        self._seats: dict[int, RosterEntry] = {}
        """square * 16 + code -> where the session's actor for that piece is seated: it stands
        nowhere else."""
        self._seated: tuple[RosterEntry, ...] | None = None
        self._counted = False
        self._closed = False

    # -- lifetime

    def __enter__(self) -> CheckMoveSession:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def start(self) -> None:
        """Start the board and the referee (piece actors start as cases need them).

        Raises:
            TooManyGames: the process already runs its limit of actor games (actors.kernel.limits).
            GameClosed: the session was closed (a closed session starts no threads again).
        """
        if self._closed:
            raise GameClosed("the session is closed: make a new CheckMoveSession")
        if self.supervisor is not None:
            return
        GAMES.acquire()
        self._counted = True
        try:
            self._start_system()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stop every actor of the session and wait for each; the session cannot start again."""
        self._closed = True
        try:
            if self.turnstile is not None:
                self.turnstile.close()
            if self.supervisor is not None:
                self.supervisor.stop_all()
        finally:
            self.supervisor = self._caller = None
            if self._counted:
                self._counted = False
                GAMES.release()

    def _start_system(self) -> None:
        self._seats = {}
        self._seated = None
        if self.turnstile is not None:
            self.turnstile.close()
        self.turnstile = make_turnstile(self.schedule)
        # The pieces only answer: they share one thread (actors.kernel.hive), so that seating a case's
        # twenty pieces wakes one thread, not twenty.
        self.supervisor = Supervisor(
            EMPTY_FEN, self.recorder, self.timeout, position_only=True, turnstile=self.turnstile, hive=True
        )
        self._caller = Caller(CLIENT, self.recorder, self.timeout, self.supervisor.ref)
        with start_up(self.turnstile):
            self.supervisor.start()

    @property
    def piece_actors(self) -> int:
        """How many piece actors the session runs: one for each piece code and square seen so far
        (at most 12 kinds and colours times 64 squares)."""
        return len(self._seats)

    # -- asking

    def answer(self, pieces: Sequence[Placement], move: Placement) -> Answer:
        """The ChessMoveQ answer for checked pieces and move (see board.puzzles.chessmoveq.parse_position).

        Starts the session if it is not running. When an actor fails, the whole actor system is
        started afresh and the case asked once more.

        Raises:
            ActorFailure: the actors failed on this case twice.
            GameClosed: the session was closed.
        """
        self.start()
        self.cases += 1
        try:
            return self._answer(pieces, move)
        except ActorFailure:
            self.restarts += 1
            assert self.supervisor is not None
            self.supervisor.stop_all()
            self._start_system()
            return self._answer(pieces, move)

    def answer_many(self, cases: Iterable[Case], window: int = WINDOW) -> Iterator[Answer]:
        """The answers to many cases, in order, with up to ``window`` cases in flight at once.

        The referee takes its mail in order, so the cases can be sent without waiting for each
        answer: the client's hand-off is paid once for many. When an actor fails, the actor system
        is started afresh and every case still unanswered is asked again.

        Raises:
            ActorFailure: the actors failed on the same case twice.
            GameClosed: the session was closed.
        """
        self.start()
        pending: deque[tuple[Case, list[tuple[str, Future[Any]]]]] = deque()
        for case in cases:
            pending.append((case, self._send(*case)))
            if len(pending) >= window:
                yield self._receive(pending)
        while pending:
            yield self._receive(pending)

    def _send(self, pieces: Sequence[Placement], move: Placement) -> list[tuple[str, Future[Any]]]:
        """Post a case's Setup (when the placement changes) and CheckMove without waiting."""
        caller = self._caller
        assert caller is not None
        self.cases += 1
        messages: list[Setup | CheckMove] = []
        entries = self._seat(pieces)
        if entries != self._seated:
            messages.append(Setup(entries))
            self._seated = entries
        messages.append(CheckMove(move.colour, move.kind, move.square))
        return [caller.send(REFEREE, message, self.cases) for message in messages]

    def _receive(self, pending: deque[tuple[Case, list[tuple[str, Future[Any]]]]]) -> Answer:
        """The answer to the oldest case in flight (restarting the actors if they failed)."""
        self._await_several(pending)
        case, futures = pending.popleft()
        try:
            replies = [wait_one(name, future, self.timeout) for name, future in futures]
        except ActorFailure:
            self.restarts += 1
            assert self.supervisor is not None
            self.supervisor.stop_all()
            self._start_system()
            later = [waiting for waiting, _ in pending]
            pending.clear()
            answer = self._answer(*case)
            pending.extend((waiting, self._send(*waiting)) for waiting in later)
            return answer
        reply = replies[-1]
        if not isinstance(reply, MoveCheck) or not isinstance(replies[0], (Ready, MoveCheck)):
            raise ActorUnavailable(f"{REFEREE} answered {type(reply).__name__}, not MoveCheck")
        return Answer(reply.valid, reply.origins, reply.reasons)

    def _await_several(self, pending: deque[tuple[Case, list[tuple[str, Future[Any]]]]]) -> None:
        """When the oldest answer has not come yet, wait for one a few cases later instead: the
        referee answers in order, so the client then sleeps and wakes once for those few cases, not
        once a case (what it waits on is only a moment; each answer is still read in order, with its
        own timeout, by :meth:`_receive`)."""
        _, futures = pending[0]
        oldest = futures[-1][1]
        if type(oldest) is not Reply or oldest.settle(0.0):
            return
        later = pending[min(len(pending), AWAIT_SEVERAL) - 1][1][-1][1]
        if type(later) is Reply:
            later.settle(self.timeout)

    def _answer(self, pieces: Sequence[Placement], move: Placement) -> Answer:
        entries = self._seat(pieces)
        if entries != self._seated:
            self._seated = None
            self._ask(Setup(entries), Ready)
            self._seated = entries
        question = CheckMove(move.colour, move.kind, move.square)
        reply: MoveCheck = self._ask(question, MoveCheck)
        return Answer(reply.valid, reply.origins, reply.reasons)

    def _seat(self, pieces: Sequence[Placement]) -> tuple[RosterEntry, ...]:
        """The session's actor for every piece: the same piece code on the same square is always the
        same actor, so the board need not seat it again (it keeps that actor's own declaration)."""
        seats = self._seats
        keys = sorted([piece.square * 16 + piece.code for piece in pieces])  # by square, as the board lists
        entries: list[RosterEntry] = []
        for key in keys:
            entry = seats.get(key)
            if entry is None:
                entry = seats[key] = self._start_piece(key & 15, key >> 4)
            entries.append(entry)
        return tuple(entries)

    def _start_piece(self, code: int, square: int) -> RosterEntry:
        supervisor = self.supervisor
        assert supervisor is not None
        name = piece_name(code, square)
        supervisor.start_piece(name, code, square)
        return RosterEntry(square, code, name, True)

    def _ask(self, message: Request[R], expected: type[R]) -> R:
        caller = self._caller
        assert caller is not None
        reply = caller.wait(caller.send(REFEREE, message, self.cases))
        if self.turnstile is not None:
            self.turnstile.drain()
        return expect(REFEREE, reply, expected)
