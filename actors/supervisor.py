"""An OTP-style one_for_one supervisor for one game's actors (pykka has none), with an intensity limit.

Children have stable names ("referee", "board", "white-knight-g1"); a restart gives a new ref under
the same name. The referee's journal lives here (the heir), so every child's state can be rebuilt.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any

import pykka

from actors.actor_base import (
    DEFAULT_TIMEOUT,
    ActorFailure,
    ActorTimeout,
    ActorUnavailable,
    RestartIntensityExceeded,
    ask,
    post,
    tell,
    wait_one,
)
from actors.journal import GameState, Heir
from actors.messages import Begin, Ping, Ready, Resync, Roster, RosterQuery
from actors.occupancy import BoardActor
from actors.piece import PieceActor
from actors.referee import RefereeActor
from actors.tracing import TraceRecorder, marking, note_restart
from board.fen import parse_fen, write_fen

BOARD = "board"
REFEREE = "referee"


class Supervisor:
    """Starts, names, restarts (one_for_one) and stops the actors of one game.

    Args:
        fen: the starting position.
        recorder: traces every message when given.
        timeout: every ask's timeout, in seconds.
        max_restarts, period: more than ``max_restarts`` restarts within ``period`` seconds raise
            :class:`RestartIntensityExceeded`, and the game is over with that error.
        strict: False takes any placement (board.fen.parse_fen), for position-only mode.
    """

    def __init__(
        self,
        fen: str,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_restarts: int = 10,
        period: float = 5.0,
        *,
        strict: bool = True,
    ) -> None:
        position = parse_fen(fen, strict=strict)  # setup: the starting state, never a judgement
        self.strict = strict
        self.start_fen = write_fen(position)
        start = GameState(
            position.turn, position.castling, position.en_passant, position.halfmove, position.fullmove
        )
        self.heir = Heir(self.start_fen, start)
        self.recorder = recorder
        self.timeout = timeout
        self.max_restarts = max_restarts
        self.period = period
        self.restarts = 0
        self.failed: ActorFailure | None = None
        self._restart_times: deque[float] = deque()
        self._children: dict[str, pykka.ActorRef[Any]] = {}
        self._started: list[pykka.ActorRef[Any]] = []
        self._lock = threading.RLock()

    # -- registry (for the board and the referee)

    def ref(self, name: str) -> pykka.ActorRef[Any] | None:
        """The running actor called ``name`` (None if there is none)."""
        return self._children.get(name)

    def names(self) -> list[str]:
        """Every supervised child's name."""
        with self._lock:
            return list(self._children)

    def retire(self, name: str) -> None:
        """Stop supervising ``name`` (a captured piece); it stops, and is never restarted."""
        with self._lock:
            ref = self._children.pop(name, None)
        if ref is not None:
            ref.stop(block=False)

    def start_piece(self, name: str, code: int, square: int, has_moved: bool = True) -> None:
        """Start (and supervise) one more piece actor, called ``name``, of ``code`` on ``square``."""
        self._start_piece(name, code, square, has_moved)

    def promote(self, pawn: str, name: str, code: int, square: int) -> None:
        """Retire the promoting pawn and start the new piece's actor on ``square``."""
        self.retire(pawn)
        self._start_piece(name, code, square, True)

    # -- starting

    def start(self) -> None:
        """Start the board, one actor per piece, then the referee (which reads the board)."""
        with marking(self.recorder, "startup"):
            self._start_board()
            roster = self._roster()
            for entry in roster.entries:
                self._start_piece(entry.name, entry.code, entry.square, entry.has_moved)
            self._start_referee()

    def _remember(self, name: str, ref: pykka.ActorRef[Any]) -> pykka.ActorRef[Any]:
        with self._lock:
            self._children[name] = ref
            self._started.append(ref)
        return ref

    def _start_board(self) -> None:
        moves = [entry.move for entry in self.heir.entries()]
        ref = BoardActor.start(
            self.start_fen, moves, self, self.recorder, self.timeout, BOARD, strict=self.strict
        )
        self._remember(BOARD, ref)

    def _start_piece(self, name: str, code: int, square: int, has_moved: bool) -> None:
        ref = PieceActor.start(name, code, square, has_moved, self.recorder, self.timeout)
        self._remember(name, ref)

    def _start_referee(self) -> None:
        ref = RefereeActor.start(self, self.recorder, self.timeout, REFEREE, BOARD)
        self._remember(REFEREE, ref)
        self._ask(REFEREE, Begin("supervisor", len(self.heir)), Ready)

    def _ask(self, name: str, message: object, expected: type) -> Any:
        envelope = post(self.recorder, "supervisor", name, message, None, len(self.heir) + 1)
        reply = wait_one(*ask(self.ref(name), name, envelope), self.timeout)
        if not isinstance(reply, expected):
            raise ActorUnavailable(f"{name} answered {type(reply).__name__}, not {expected.__name__}")
        return reply

    def roster(self) -> Roster:
        """The board's roster: every piece with its square, code, actor name and moved flag."""
        return self._roster()

    def _roster(self) -> Roster:
        roster: Roster = self._ask(BOARD, RosterQuery("supervisor", len(self.heir)), Roster)
        return roster

    # -- healing

    def _count_restart(self, name: str) -> None:
        note_restart(self.recorder, name)
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

    def alive(self, name: str) -> bool:
        """Whether the child ``name`` is running."""
        ref = self.ref(name)
        return ref is not None and ref.is_alive()

    def heal(self) -> None:
        """Restart every dead child (board, then pieces, then referee), rebuilding state from the heir.

        A board that disagrees with the journal (it died, or applied a move the referee never
        recorded) is rebuilt from the journal; pieces are rebuilt from the board's roster.

        Raises:
            RestartIntensityExceeded: too many restarts in the period (also for every later call).
            ActorTimeout: a stuck board or referee would not stop (also for every later call).
        """
        while True:
            if self.failed is not None:
                raise self.failed
            try:
                with marking(self.recorder, "heal"):
                    self._heal_once()
                return
            except RestartIntensityExceeded:
                raise
            except ActorFailure:
                continue  # something died while healing: heal again (the intensity limit bounds this)

    def _unresponsive(self, names: list[str]) -> set[str]:
        """The children among ``names`` that do not answer a Ping within the timeout (asked all at once)."""
        silent: set[str] = set()
        pending = []
        for name in names:
            try:
                pending.append(ask(self.ref(name), name, post(self.recorder, "supervisor", name,
                                                              Ping("supervisor", len(self.heir)), None)))
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
        # The referee first: one still judging a move its asker gave up on may yet apply it, so
        # nothing is compared with the journal until the referee is idle, or stopped.
        referee_stopped = False
        if self.alive(REFEREE) and self._unresponsive([REFEREE]):
            self._count_restart(REFEREE)
            self._stop(REFEREE)
            referee_stopped = True
        roster: Roster | None = None
        if self.alive(BOARD):
            try:
                roster = self._roster()
            except ActorFailure:
                roster = None
        if roster is None or roster.plies != len(self.heir):
            self._count_restart(BOARD)
            self._stop(BOARD)
            self._start_board()
            roster = self._roster()
        on_board = {entry.name for entry in roster.entries}
        for name in self.names():
            if name not in (BOARD, REFEREE) and name not in on_board:
                self.retire(name)
        # A piece that is alive but silent (stuck in a handler) is replaced like a dead one.
        silent = self._unresponsive([entry.name for entry in roster.entries if self.alive(entry.name)])
        for entry in roster.entries:
            if self.alive(entry.name) and entry.name not in silent:
                resync = Resync("supervisor", len(self.heir), entry.square, entry.has_moved)
                tell(self.ref(entry.name), post(self.recorder, "supervisor", entry.name, resync, None))
                continue
            self._count_restart(entry.name)
            self._stop(entry.name, wait=False)
            self._start_piece(entry.name, entry.code, entry.square, entry.has_moved)
        if referee_stopped:
            self._start_referee()
        elif not self.alive(REFEREE):
            self._count_restart(REFEREE)
            self._stop(REFEREE)
            self._start_referee()
        else:
            try:
                self._ask(REFEREE, Begin("supervisor", len(self.heir)), Ready)
            except ActorFailure:
                self._count_restart(REFEREE)
                self._stop(REFEREE)
                self._start_referee()

    # -- stopping

    def _stop(self, name: str, wait: bool = True) -> None:
        """Stop the child ``name``; with ``wait``, until it has finished the message it is handling.

        A piece changes nothing but its own answers, so a stuck one is left to finish alone. A board
        or referee that will not stop cannot be replaced (threads cannot be killed, and two of them
        would both change the game), so the game ends with an ActorTimeout.
        """
        with self._lock:
            ref = self._children.pop(name, None)
        if ref is None or not ref.is_alive():
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
        with self._lock:
            started, self._started = self._started, []
            self._children.clear()
        for ref in started:
            try:
                if ref.is_alive():
                    ref.stop(block=True, timeout=self.timeout)
            except (pykka.Timeout, pykka.ActorDeadError):
                continue
        for ref in started:
            ref.actor_stopped.wait(self.timeout)
