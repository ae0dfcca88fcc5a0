"""Chess under chosen delivery orders on one reused actor system: a ply, or a whole game, again and again.

Starting the 35 threads of a game for every run would cost more than the run itself; the system is
re-seated for each run instead (as a pool re-seats it, see :meth:`Supervisor.reset`), in arrival order,
and only the deliveries of the moves are the run's.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Protocol, TypeVar, overload

from actors.kernel.errors import ActorFailure
from actors.kernel.limits import GAMES
from actors.kernel.links import FAULT_KINDS, LinkModel
from actors.kernel.messaging import DEFAULT_TIMEOUT, Caller, Request
from actors.kernel.policies import Fifo, Policy, Random
from actors.kernel.schedule import Turnstile
from actors.kernel.scheduled_links import ScheduledLinks
from actors.protocol.board import Roster, RosterQuery, Teach
from actors.protocol.piece import Learned
from actors.protocol.referee import Accepted, Description, FenQuery, ProposeText, Verdict
from actors.roles.registered import BOARD, CLIENT, REFEREE
from actors.roles.supervisor import STANDARD_ROLES, Roles, Supervisor
from actors.study.explore import Outcome, Report, Run, RunOnce, shortest_counterexample
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import Delivery, TraceRecorder
from board.errors import ChessActorsError, IllegalMoveError, InputError
from board.games.game import Game
from board.rules.fen_text import format_fen
from board.rules.geometry import Geometry
from board.rules.squares import SQUARE_NAMES

Lesson = tuple[int, Geometry]
"""A lesson in a scenario: the piece on this square (0..63) learns this move function."""


R = TypeVar("R")


class Player(Protocol):
    """Plays moves under a delivery policy, a run a ply (what :func:`explore_game` explores)."""

    def play(self, fen: str, moves: Sequence[str], policy: Policy, first: int = 1) -> list[Run]:
        """One run a ply of ``moves`` from ``fen``, in the order ``policy`` chooses."""
        ...

    def ply(self, fen: str, move: str, number: int = 1) -> RunOnce:
        """Runs one ply from ``fen`` under the policy it is given."""
        ...


class OrderedSystem:
    """One actor system under one delivery turnstile, re-seated from a FEN for every run.

    Use it as a context manager, or call :meth:`close`; it counts as one live game (actors.kernel.limits)
    from its first run.

    Args:
        timeout: every ask's timeout in seconds (in the schedule's time: see actors.kernel.schedule).
        chess960: every game seated is Chess960 (its FENs' K and Q are X-FEN), as for
            :class:`~actors.game.game.ActorGame`.
        roles: the classes its actors are made of (a lab's class in place of one of the project's).
    """

    def __init__(self, timeout: float = DEFAULT_TIMEOUT, chess960: bool = False,
                 roles: Roles = STANDARD_ROLES) -> None:
        self.timeout = timeout
        self.roles = roles
        self.chess960 = chess960
        self.recorder = TraceRecorder()
        self.turnstile = Turnstile(Fifo())
        self.supervisor: Supervisor | None = None
        self._caller: Caller | None = None
        """How the system's client asks its actors, once they are started."""
        self.link_counts: Counter[str] = Counter()
        """What befell the messages of the runs over failing links, summed (see :meth:`play`)."""

    def __enter__(self) -> OrderedSystem:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the system's actors and wait for each."""
        supervisor, self.supervisor, self._caller = self.supervisor, None, None
        self.turnstile.close()
        if supervisor is not None:
            try:
                supervisor.stop_all()
            finally:
                GAMES.release()

    def seat(self, fen: str) -> None:
        """Set the system up for a game from ``fen``, in arrival order (started on first use).

        Raises:
            FenError: the FEN is malformed or impossible.
            ActorFailure: an actor did not take part.
        """
        with self.turnstile.using(Fifo()):
            # A run cut short (an order the search found redundant) finishes its conversation first:
            # a referee left judging would otherwise make its move on the re-seated board.
            self.turnstile.drain()
            if self.supervisor is None:
                supervisor = self.roles.supervisor_class(
                    fen, self.recorder, self.timeout, turnstile=self.turnstile, chess960=self.chess960,
                    roles=self.roles)
                GAMES.acquire()
                self.supervisor = supervisor
                self._caller = Caller(CLIENT, self.recorder, self.timeout, supervisor.ref)
                supervisor.start()
            else:
                self.supervisor.reset(fen, self.chess960)
            self.turnstile.drain()
        self.turnstile.steps.clear()

    def play(self, fen: str, moves: Sequence[str], policy: Policy, first: int = 1,
             links: LinkModel | None = None) -> list[Run]:
        """Play ``moves`` (SAN or UCI) from ``fen``, each ply's deliveries in the order ``policy`` chooses,
        up to the first one refused (included); one run a ply, ``first`` the first's ply number.

        With ``links``, each ply's messages cross links that fail as that model decides, on the
        schedule's clock (actors.kernel.scheduled_links; the faults are added to ``link_counts``).

        A ply's run holds its proposal's conversation and the journal's record of the move; the FEN
        after it is the placement the board reported in making the move (see :meth:`_position`).
        """
        self.seat(fen)
        runs: list[Run] = []
        for number, move in enumerate(moves, start=first):
            self.recorder.clear()
            self.turnstile.steps.clear()
            with self.turnstile.using(policy), self._linked(links):
                try:
                    reply: Verdict | ActorFailure = self._ask(ProposeText(move, number), number)
                except ActorFailure as failure:  # over links that fail: a named failure, not a verdict
                    reply = failure
                if isinstance(reply, Accepted) and reply.entry is not None:
                    self._supervisor.record(number, (reply.entry,))
            deliveries = self.recorder.deliveries()
            steps = tuple(self.turnstile.steps)
            verdict, san = verdict_of(reply)
            outcome = Outcome(verdict, san, self._position(reply, number), messages_sent(deliveries))
            runs.append(Run(outcome, steps, LazyTrace(deliveries)))
            if not isinstance(reply, Accepted):
                break
        return runs

    def ply_after(
        self, fen: str, history: Sequence[Lesson | str], lessons: Sequence[Lesson], move: str
    ) -> RunOnce:
        """Runs the move ``move`` after ``history`` (moves and lessons, from ``fen``, in arrival
        order), with ``lessons`` taught inside the run: the lesson's messages and the move's share
        one schedule, so every order of the two is explored.

        Raises (from the run):
            ChessActorsError: a move of the history was refused, or a lesson's square holds no piece.
        """
        number = sum(1 for item in history if isinstance(item, str)) + 1

        def run_once(policy: Policy) -> Run:
            self.seat(fen)
            with self.turnstile.using(Fifo()):
                played = 0
                for item in history:
                    if isinstance(item, str):
                        played += 1
                        self._play_before(item, played)
                    else:
                        self._teach(item)
            self.recorder.clear()
            self.turnstile.steps.clear()
            with self.turnstile.using(policy):
                for lesson in lessons:
                    self._teach(lesson)
                reply: Verdict = self._ask(ProposeText(move, number), number)
                if isinstance(reply, Accepted) and reply.entry is not None:
                    self._supervisor.record(number, (reply.entry,))
            deliveries = self.recorder.deliveries()
            verdict, san = verdict_of(reply)
            outcome = Outcome(verdict, san, self._position(reply, number), messages_sent(deliveries))
            return Run(outcome, tuple(self.turnstile.steps), LazyTrace(deliveries))

        return run_once

    def _play_before(self, move: str, number: int) -> None:
        reply: Verdict = self._ask(ProposeText(move, number), number)
        if not isinstance(reply, Accepted) or reply.entry is None:
            raise IllegalMoveError(move, f"ply {number} of the history was refused")
        self._supervisor.record(number, (reply.entry,))

    def _teach(self, lesson: Lesson) -> None:
        """Teach the piece on the lesson's square through the board, as a game's client does."""
        square, geometry = lesson
        roster: Roster = self._ask(RosterQuery(), 0, BOARD)
        name = next((entry.name for entry in roster.entries if entry.square == square), None)
        if name is None:
            raise InputError(f"learn: there is no piece on {SQUARE_NAMES[square]}")
        learned: Learned = self._ask(Teach(name, geometry), 0, BOARD)
        if learned.refused is not None:
            raise InputError(f"learn: {name} cannot learn {geometry.name!r}: {learned.refused}")

    def _position(self, reply: Verdict | ActorFailure, number: int) -> str:
        """The FEN after the ply: from the placement the board reported when it made the move (the
        journal entry carries it), or, after a refusal, asked of the board in arrival order."""
        if isinstance(reply, Accepted) and reply.entry is not None:
            placement, state = reply.entry.key[0], reply.entry.state
            return format_fen(placement, state.turn, state.castling, state.legal_en_passant, state.halfmove,
                              state.fullmove, state.layout.table)
        try:
            with self.turnstile.using(Fifo()):
                description: Description = self._ask(FenQuery(), number + 1)
        except ActorFailure as failure:
            return f"unknown: {failure}"
        return description.fen

    def ply(self, fen: str, move: str, number: int = 1, links: LinkModel | None = None) -> RunOnce:
        """Runs the move ``move`` from ``fen``, seated afresh for every run (``number``: the ply the
        referee expects next, 1 from a FEN), over ``links`` when given (see :meth:`play`)."""

        def run_once(policy: Policy) -> Run:
            return self.play(fen, [move], policy, number, links)[0]

        return run_once

    @contextmanager
    def _linked(self, model: LinkModel | None) -> Iterator[None]:
        """The run's mail crosses links that fail as ``model`` says, numbered afresh: a run's faults
        are decided by the seed and its own conversation, whatever ran before it."""
        if model is None:
            yield
            return
        links = ScheduledLinks(model)
        self.turnstile.attach(links)
        try:
            yield
        finally:
            self.turnstile.attach(None)
            self.link_counts.update(links.counts)

    @property
    def _supervisor(self) -> Supervisor:
        assert self.supervisor is not None, "seated before it plays"
        return self.supervisor

    def _ask(self, message: Request[R], ply: int, name: str = REFEREE) -> R:
        assert self._caller is not None, "seated before it plays"
        reply = self._caller.call(name, message, ply=ply or None)
        self.turnstile.drain()  # the conversation is over when its last tell is delivered
        return reply


class LazyTrace(Sequence[TraceEvent]):
    """A run's trace events, built from its deliveries the first time they are read (most runs'
    traces are never read: only a counterexample's is written)."""

    def __init__(self, deliveries: Sequence[Delivery]) -> None:
        self._deliveries = deliveries
        self._events: list[TraceEvent] | None = None

    def _built(self) -> list[TraceEvent]:
        if self._events is None:
            self._events = [delivery.event() for delivery in self._deliveries]
        return self._events

    @overload
    def __getitem__(self, index: int) -> TraceEvent: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[TraceEvent]: ...

    def __getitem__(self, index: int | slice) -> TraceEvent | Sequence[TraceEvent]:
        return self._built()[index]

    def __len__(self) -> int:
        return len(self._deliveries)


def messages_sent(deliveries: Sequence[Delivery]) -> frozenset[tuple[object, int]]:
    """The messages a run delivered, as a multiset of (sender, receiver, message, reply) with counts:
    like :func:`messages_of` for a trace, but comparing the messages and replies themselves (frozen
    dataclasses, equal by value) without building readable events."""
    return frozenset(Counter(
        (delivery.sender, delivery.receiver, delivery.message, _comparable(delivery.answer))
        for delivery in deliveries
        if type(delivery.message).__name__ not in FAULT_KINDS  # what befell a message on its link
    ).items())


def _comparable(answer: object) -> object:
    """A reply as compared across runs: an error by its class and text (errors are equal only to
    themselves), anything else as it is."""
    if isinstance(answer, BaseException):
        return f"{type(answer).__name__}: {answer}"
    return answer


def verdict_of(reply: Verdict | ActorFailure) -> tuple[str, str | None]:
    """A verdict as compared across orders (with the outcome it announces), and the SAN if accepted."""
    if isinstance(reply, ActorFailure):
        return f"failure: {reply}", None
    if isinstance(reply, Accepted):
        return f"accepted{', ' + reply.outcome if reply.outcome else ''}", reply.san
    return f"rejected: {reply.reason}", None


def explore_game(
    system: Player, fen: str, moves: Sequence[str], orders: int, seed: int = 0
) -> list[Report]:
    """Every ply of the game ``moves`` from ``fen`` (up to its first illegal one) under ``orders`` random
    orders: the whole game is played once in arrival order, then ``orders`` times, each time under
    one seeded random policy (seeds ``seed``, ``seed + 1``, ...) that orders every ply.

    Returns one report a ply, its ``orders`` the distinct orders that ply ran under; a ply whose
    outcome some order changed has its shortest such order (see :func:`shortest_counterexample`,
    rerun from the ply's position).
    """
    started = time.perf_counter()
    reference = system.play(fen, moves, Fifo())
    reports = [Report(0, False, 0.0, run) for run in reference]
    seen: list[set[tuple[str, ...]]] = [set() for _ in reference]
    for number in range(orders):
        for index, run in enumerate(system.play(fen, moves, Random(seed + number))):
            if index >= len(reports):
                break  # the reference stopped at a refusal this order did not make: that ply differs
            seen[index].add(tuple(run.schedule))
            if reports[index].differing is None and run.outcome != reports[index].reference.outcome:
                reports[index].differing = run
    for index, report in enumerate(reports):
        report.orders = len(seen[index])
        if report.differing is not None:
            before = reference[index - 1].outcome.fen if index else fen
            _shrink(system, report, before, moves[index])
    elapsed = time.perf_counter() - started
    for report in reports:
        report.seconds = elapsed / len(reports)
    return reports


def _shrink(system: Player, report: Report, fen: str, move: str) -> None:
    """Replace a report's differing run by the shortest order that changes the ply run on its own
    (from its position, as the game's first ply), when one does."""
    assert report.differing is not None
    run_once = system.ply(fen, move)
    alone = run_once(Fifo())
    shrunk = shortest_counterexample(run_once, alone.outcome, report.differing.schedule)
    if shrunk.outcome != alone.outcome:
        report.differing = shrunk
    report.differences = report.reference.outcome.differences(report.differing.outcome)


def game_plies(start_fen: str, moves: Sequence[str], chess960: bool = False) -> list[tuple[int, str, str]]:
    """(ply number, FEN before, move) for each move up to the first illegal one, included (its
    refusal is a verdict to explore too); legality is checked directly, without actors (``chess960``:
    the game is Chess960, as for :class:`~board.games.game.Game`)."""
    board = Game(start_fen, chess960=chess960)
    plies = []
    for number, move in enumerate(moves, start=1):
        before = board.fen()
        plies.append((number, before, move))
        try:
            board.play(move, want_san=False)
        except ChessActorsError:
            break
    return plies


__all__ = [
    "LazyTrace", "OrderedSystem", "Player", "explore_game", "game_plies", "messages_sent", "verdict_of",
]
