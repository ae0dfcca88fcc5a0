"""The actor engine's front door: a game played by piece, board and referee actors, as a context manager.

The facade is the client: it asks only the referee (and, for study, a piece directly); when an actor
dies it asks the supervisor to heal and asks again (a proposal: unless the journal shows it was made).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import suppress
from functools import partial
from itertools import islice
from types import TracebackType
from typing import Any

from pykka import Future

from actors.actor_base import (
    DEFAULT_TIMEOUT,
    WINDOW,
    ActorFailure,
    ActorUnavailable,
    ask,
    post,
    tell,
    wait_one,
)
from actors.journal import JournalEntry
from actors.limits import GAMES
from actors.messages import (
    Accepted,
    Crash,
    CrashOnNext,
    Description,
    FenQuery,
    KnightPathQuery,
    KnightTourQuery,
    KnightWalk,
    LegalTargets,
    LegalTargetsQuery,
    MoveQuery,
    No,
    Propose,
    Rejected,
    Targets,
    TargetsQuery,
    Yes,
)
from actors.supervisor import REFEREE, Supervisor
from actors.tracing import TraceRecorder
from board.errors import ChessActorsError
from board.fen import STARTING_FEN
from board.game import Game
from board.outcome import claims
from board.squares import SQUARE_NAMES, parse_size, parse_square, parse_standard_square

CLIENT = "client"

ReplayResult = tuple[int, str, str | None, tuple[int, str, str] | None]
"""(plies played, FEN reached, outcome there, (ply, move, reason) of the first illegal move or None)."""

InFlight = tuple[Propose, tuple[str, "Future[Any]"] | None]
"""A proposal sent without waiting, and its pending reply (None when it could not be sent)."""


class PieceHandle:
    """A piece actor on a square, to talk to directly (the seed's ``Bishop ! {move, ...}``)."""

    def __init__(self, game: ActorGame, name: str) -> None:
        self.game = game
        self.name = name

    def move_query(self, start: str, end: str, colour: int | None = None) -> Yes | No:
        """Ask the piece whether its move function allows start -> end (square names).

        ``colour`` defaults to the piece's own (read from its name).
        """
        own = 0 if self.name.startswith("white") else 1
        message = MoveQuery(
            CLIENT, self.game.plies + 1, parse_standard_square(start), parse_standard_square(end),
            own if colour is None else colour,
        )
        reply: Yes | No = self.game.ask(self.name, message)
        return reply

    def knight_path(self, target: str, size: str = "8") -> KnightWalk | No:
        """Ask a knight for a shortest path from where it stands to ``target`` (size ``N`` or ``WxH``)."""
        board_size = parse_size(size)
        message = KnightPathQuery(CLIENT, self.game.plies + 1, parse_square(target, board_size), board_size)
        reply: KnightWalk | No = self.game.ask(self.name, message)
        return reply

    def knight_tour(self, size: str = "8", closed: bool = False) -> KnightWalk | No:
        """Ask a knight for a knight's tour of a ``size`` board from where it stands."""
        message = KnightTourQuery(CLIENT, self.game.plies + 1, parse_size(size), closed)
        reply: KnightWalk | No = self.game.ask(self.name, message)
        return reply

    def targets(self, square: str) -> Targets:
        """Every geometric move of the piece from ``square``."""
        reply: Targets = self.game.ask(self.name, TargetsQuery(CLIENT, self.game.plies + 1,
                                                               parse_standard_square(square)))
        return reply


class ActorGame:
    """A game judged by actors: one per piece, a board, a referee, under a supervisor.

    Args:
        fen: the starting position ('startpos' or a FEN).
        timeout: every ask's timeout in seconds; a late or dead actor becomes an
            :class:`~actors.actor_base.ActorFailure`, never a hang.
        recorder: records one trace event per delivered message when given.
        max_restarts, period: the supervisor's restart intensity limit.

    Raises:
        FenError: the FEN is malformed or impossible.
    """

    def __init__(
        self,
        fen: str = "startpos",
        timeout: float = DEFAULT_TIMEOUT,
        recorder: TraceRecorder | None = None,
        max_restarts: int = 10,
        period: float = 5.0,
    ) -> None:
        self.recorder = recorder
        self.timeout = timeout
        self.supervisor = Supervisor(fen, recorder, timeout, max_restarts, period)
        self._started = False
        self._counted = False

    # -- lifetime

    def __enter__(self) -> ActorGame:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def start(self) -> None:
        """Start every actor of the game.

        Raises:
            TooManyGames: the process already runs its limit of games (actors.limits), or the system
                refused a thread; nothing of this game is left running.
        """
        if self._started:
            return
        GAMES.acquire()
        self._counted = True
        self._started = True
        try:
            self.supervisor.start()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Stop every actor the game started and wait for each."""
        try:
            self.supervisor.stop_all()
        finally:
            if self._counted:
                self._counted = False
                GAMES.release()

    # -- playing

    def propose(self, text: str) -> Accepted | Rejected:
        """Propose a move in SAN or UCI for the side to move.

        Returns Accepted (uci, san, check, outcome) or Rejected (text, reason, kind); a text that is
        neither SAN nor UCI is Rejected with kind 'syntax' and the syntax error as reason.

        Raises:
            ActorFailure: the supervisor gave up healing (RestartIntensityExceeded; a stuck board or
                referee that would not stop), or ``max_restarts + 1`` attempts failed.
        """
        ply = self.plies + 1
        return self._propose(Propose(CLIENT, ply, text=text, ply=ply))

    def propose_squares(self, origin: str, target: str, promotion: int | None = None) -> Accepted | Rejected:
        """Propose the move of the piece on ``origin`` to ``target`` (square names)."""
        ply = self.plies + 1
        message = Propose(
            CLIENT, ply, origin=parse_standard_square(origin),
            target=parse_standard_square(target), promotion=promotion or 0, ply=ply,
        )
        return self._propose(message)

    def propose_many(
        self, texts: Iterable[str], window: int = WINDOW
    ) -> Generator[Accepted | Rejected, None, None]:
        """Propose moves in order, as :meth:`propose` one by one would, with many in flight at once.

        Yields the replies in order and ends after the first Rejected. The proposals go out a window
        at a time, and the next window is sent before this one is collected: the referee always has
        mail, and the client waits once a window instead of once a move. Each is tagged with the ply
        it is meant to be, so that the referee refuses (as stale) any that comes after a refused
        one: only moves yielded as Accepted are made. When an actor fails, the supervisor heals and
        the moves not yet made are proposed again, one at a time.

        Moves already sent are made even if the iterator is closed early; they are in :attr:`journal`.

        Raises:
            ValueError: ``window`` is less than 1.
            ActorFailure: as :meth:`propose`.
        """
        if window < 1:
            raise ValueError(f"window {window}: at least one proposal must be in flight")
        source = iter(texts)
        windows: deque[list[InFlight]] = deque()
        next_ply = self.plies + 1

        def send() -> None:
            nonlocal next_ply
            batch: list[InFlight] = []
            for text in islice(source, window):
                message = Propose(CLIENT, next_ply, text=text, ply=next_ply)
                batch.append((message, self._send(REFEREE, message, next_ply)))
                next_ply += 1
            if batch:
                windows.append(batch)

        try:
            send()
            while windows:
                send()
                batch = windows.popleft()
                replies = self._collect(batch)
                for reply in replies:
                    yield reply
                    if isinstance(reply, Rejected):
                        return
                if len(replies) < len(batch):  # an actor failed: heal, and ask the rest again
                    redo = batch[len(replies):] + [item for later in windows for item in later]
                    windows.clear()
                    for message, _ in redo:
                        reply = self._propose(message)
                        yield reply
                        if isinstance(reply, Rejected):
                            return
                    send()  # and go on with the rest as before
        finally:
            self._settle(windows)

    def _send(self, name: str, message: object, ply: int) -> tuple[str, Future[Any]] | None:
        """Ask without waiting; None if the actor is not there to ask."""
        try:
            return ask(self.supervisor.ref(name), name, post(self.recorder, CLIENT, name, message, None, ply))
        except ActorFailure:
            return None

    def _collect(self, batch: list[InFlight]) -> list[Accepted | Rejected]:
        """The replies of a window, in order, up to the first that failed (or came back stale).

        The referee answers in order, so waiting for the last reply waits for them all; it is the
        only wait, and its timeout bounds the window's.
        """
        last = batch[-1][1]
        if last is not None:
            with suppress(ActorFailure):  # the first failure is found below, in order
                wait_one(*last, self.timeout)
        replies: list[Accepted | Rejected] = []
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
        """Wait for the replies still in flight, so that what they did is done (and journalled).

        The referee answers in order: the last one sent is the one to wait for."""
        for batch in reversed(windows):
            for _, pending in reversed(batch):
                if pending is not None:
                    with suppress(ActorFailure):
                        wait_one(*pending, self.timeout)
                    return

    def _journalled(self, ply: int) -> Accepted | None:
        """The Accepted reply for the ``ply``-th move (1-based), if the journal has it."""
        entry = self.supervisor.heir.entry(ply)
        if entry is None:
            return None
        return Accepted(REFEREE, ply, entry.uci, entry.san, entry.check, entry.outcome)

    def _propose(self, message: Propose) -> Accepted | Rejected:
        """Ask the referee ``message`` (tagged with its ply), healing on failure; a move the journal
        shows made (by an earlier attempt) is answered from the journal."""
        made = partial(self._journalled, message.ply)
        done = made()
        if done is not None:
            return done
        reply: Accepted | Rejected = self._request(message, made)
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
            done = made() if made is not None else None
            if done is not None:
                return done
        raise failure

    def ask(self, name: str, message: object) -> Any:
        """Ask the actor ``name`` as the client and wait (up to the timeout) for its reply."""
        envelope = post(self.recorder, CLIENT, name, message, None, self.plies + 1)
        return wait_one(*ask(self.supervisor.ref(name), name, envelope), self.timeout)

    # -- looking

    @property
    def plies(self) -> int:
        """Legal plies played so far."""
        return len(self.supervisor.heir)

    @property
    def journal(self) -> tuple[JournalEntry, ...]:
        """Every accepted move, oldest first."""
        return self.supervisor.heir.entries()

    @property
    def outcome(self) -> str | None:
        """How the game stands after the last move (None before any move: see :meth:`status`)."""
        entries = self.journal
        return entries[-1].outcome if entries else self.supervisor.heir.start_outcome

    @property
    def claimable(self) -> tuple[str, ...]:
        """The draws a player could claim now, read from the journal (board.outcome.claims)."""
        heir = self.supervisor.heir
        entries = heir.entries()
        if not entries:
            return claims(heir.start_outcome, heir.start_state.halfmove, 1)
        last = entries[-1]
        repetitions = sum(entry.key == last.key for entry in entries) + (heir.initial_key == last.key)
        return claims(last.outcome, last.state.halfmove, repetitions)

    def fen(self) -> str:
        """The FEN of the current position (the board's placement, the referee's game state)."""
        description: Description = self._request(FenQuery(CLIENT, self.plies + 1))
        return description.fen

    def legal_targets(self, square: str) -> tuple[str, ...]:
        """Where the piece on ``square`` may legally go now (none if it is not its side's turn)."""
        reply: LegalTargets = self._request(LegalTargetsQuery(CLIENT, self.plies + 1,
                                                              parse_standard_square(square)))
        return tuple(SQUARE_NAMES[target] for target in reply.targets)

    def piece(self, square: str) -> PieceHandle:
        """A handle to the piece actor on ``square``.

        Raises:
            ActorUnavailable: there is no piece on that square.
        """
        index = parse_standard_square(square)
        for entry in self.supervisor.roster().entries:
            if entry.square == index:
                return PieceHandle(self, entry.name)
        raise ActorUnavailable(f"there is no piece on {square}")

    # -- fault injection (for tests and demonstrations)

    def crash(self, name: str) -> None:
        """Make the actor ``name`` crash now."""
        envelope = post(self.recorder, CLIENT, name, Crash(CLIENT, self.plies + 1), None, self.plies + 1)
        tell(self.supervisor.ref(name), envelope)

    def crash_on_next(self, name: str, kind: str) -> None:
        """Make the actor ``name`` raise on the next message of class ``kind`` it receives."""
        self.ask(name, CrashOnNext(CLIENT, self.plies + 1, kind))


def replay_moves(
    moves: Sequence[str], fen: str = STARTING_FEN, timeout: float = DEFAULT_TIMEOUT,
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
