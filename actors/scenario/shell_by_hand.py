"""Deliveries chosen by hand in the shell: the command in flight, the pending list, step, deliver N,
drop N, duplicate N, run and mode, a move run in a given order, and the last move compared with arrival order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from actors.client.game import ActorGame
from actors.kernel.policies import Fifo, Interactive, Ready, Script
from actors.kernel.schedule import LINK_FAULTS, Turnstile
from actors.protocol.readable import readable, summarize
from actors.scenario.ordering import Befallen, Ordered, order_line
from actors.scenario.shell_output import Output, Pending
from actors.scenario.shell_words import DELIVERY_VERBS, FREE_ON_NODES
from actors.scenario.steps import Order, Play, Reject, Step
from actors.tracing.compare import OrderComparison, compare_orders
from actors.tracing.recorder import TraceRecorder
from board.errors import ChessActorsError, InputError
from board.games.game import Game

WAIT = 30.0
"""Seconds to wait for a command's next delivery to come up (real time: a bound, never a hang)."""


class DeliveryByHand:
    """What :class:`~actors.scenario.shell.Shell` does to let deliveries be chosen by hand: a command
    sent in ``mode step`` runs on a thread of its own and waits on the turnstile for each choice."""

    policy: Interactive
    turnstile: Turnstile | None
    game: ActorGame
    recorder: TraceRecorder
    timeout: float
    stepping: bool
    order: Order | None
    _worker: threading.Thread | None
    _result: Output | BaseException | None
    _mark: tuple[int, int]
    _befallen: list[Befallen]
    _hand_chosen: int
    _last_move: tuple[tuple[str, ...], str, str, int, int] | None
    _perform: Callable[[Step], Output]
    _begin: Callable[[], None]
    _count_unsaved: Callable[[], None]
    _keep_order: Callable[[str | None], None]
    _supervision: Callable[[], list[Output]]

    @property
    def in_flight(self) -> bool:
        """Whether a command waits for deliveries chosen by hand."""
        return self._worker is not None

    def _by_hand(self) -> Turnstile:
        """The turnstile that deliveries chosen by hand go through (the verbs that use it are
        refused on nodes before they get here)."""
        assert self.turnstile is not None
        return self.turnstile

    def _work(self, step: Step) -> None:
        try:
            self._result = self._perform(step)
        except BaseException as error:
            self._result = error

    def _settle(self) -> list[Output]:
        """Wait until the command in flight needs a choice (list it) or is done (show its result)."""
        worker, turnstile = self._worker, self._by_hand()
        assert worker is not None
        before = len(turnstile.steps)
        while worker.is_alive() and not self.policy.wait_for_choice(0.05):
            worker.join(0.0)
        shown: list[Output] = [f"  delivered: {step.what}" for step in turnstile.steps[before:]]
        if worker.is_alive():
            return shown + self._pending()
        worker.join()
        self._count_unsaved()
        # After the last delivery chosen out of arrival order, or befallen, the rest ran as arrival
        # order would run them, which is what a scenario does after its order line.
        ran = turnstile.steps[self._mark[1]:]
        cut = max([self._hand_chosen, *(position for position, _, _ in self._befallen)])
        self._keep_order(order_line(ran[:cut], self._befallen))
        self._worker, result, self._result = None, self._result, None
        if isinstance(result, BaseException):
            raise InputError(f"the command failed: {result}")
        assert result is not None
        return [*shown, result, *self._supervision()]

    def pending(self) -> list[Pending]:
        """The deliveries waiting, in the order ``pending`` lists them (empty when none is)."""
        deliveries: list[Pending] = []
        if self.turnstile is None:  # on nodes nothing waits for a hand
            return deliveries
        number = 0
        for item in self.turnstile.queued():
            chosen: int | None = None
            if "queued" not in item.waits:
                number += 1
                chosen = number
            summary = item.describe() if item.resume else summarize(item.kind, readable(item.body))
            deliveries.append(Pending(chosen, item.actor, item.sender, item.kind, summary, item.waits,
                                      item.describe()))
        for item, seconds in self.turnstile.on_the_way():
            waits = f"on its way: it arrives in {seconds * 1000:g} ms of the schedule's time"
            deliveries.append(Pending(None, item.actor, item.sender, item.kind,
                                      summarize(item.kind, readable(item.body)), waits,
                                      f"{item.actor} <- {item.sender}: {item.summary} ({waits})"))
        return deliveries

    def _pending(self) -> list[Output]:
        queued = self.pending()
        stalled: list[Output] = [f"  {name} is stalled for {left:g} s more of the schedule's time"
                                 for name, left in sorted(self._by_hand().held().items())]
        if not queued:
            return ["nothing is waiting to be delivered", *stalled]
        lines: list[Output] = stalled
        for item in queued:
            lines.append(f"  -  {item.text}" if item.number is None else f"{item.number:>3}. {item.text}")
        return lines

    def _open_choice(self) -> tuple[Ready, ...]:
        if not self.in_flight:
            raise InputError("nothing is in flight: a command sent in 'mode step' waits for deliveries")
        if not self.policy.wait_for_choice(WAIT):
            raise InputError(f"no delivery came up within {WAIT:g} s")
        ready = self.policy.waiting
        assert ready is not None
        return ready

    def _deliver(self, verb: str, rest: list[str]) -> list[Output]:
        ready = self._open_choice()
        index = 0
        if verb in DELIVERY_VERBS:
            if len(rest) != 1 or not rest[0].isdigit():
                raise InputError(f"{verb} needs the number of a delivery in the pending list, e.g. {verb} 2")
            index = int(rest[0]) - 1
            if not 0 <= index < len(ready):
                raise InputError(f"{verb} {rest[0]}: the pending list has {len(ready)} that can run now")
        elif rest:
            raise InputError("step takes nothing more (deliver N chooses one)")
        if verb in LINK_FAULTS:
            turnstile = self._by_hand()
            try:
                befell = turnstile.befall(ready[index], verb)
            except ValueError as error:
                raise InputError(f"{verb} {rest[0]}: {error}") from None
            self._befallen.append((len(turnstile.steps) - self._mark[1], verb, ready[index].actor))
            self.policy.reoffer()
            return [f"  {befell}", *self._settle()]
        if index > 0:  # the pending list is in arrival order: the first is what arrival order runs
            self._hand_chosen = len(self._by_hand().steps) - self._mark[1] + 1
        self.policy.decide(index)
        return self._settle()

    def _run_rest(self) -> list[Output]:
        shown: list[Output] = []
        while self.in_flight:
            self._open_choice()
            self.policy.decide(0)
            shown.extend(self._settle())
        return shown or ["nothing is in flight"]

    def _mode(self, rest: list[str]) -> str:
        if rest not in (["step"], ["auto"]):
            raise InputError("mode needs step (choose each delivery) or auto (arrival order)")
        if rest == ["step"] and self.turnstile is None:
            raise InputError(f"mode step: {FREE_ON_NODES}")
        if self.in_flight:
            raise InputError("a command is waiting for its deliveries: step, deliver N or run first")
        self.stepping = rest == ["step"]
        if self.stepping:
            return "each delivery waits for step or deliver N"
        return "deliveries run in arrival order"

    def _ordered(self, step: Play | Reject, written: Order) -> list[Output]:
        """Run a move under a given order: first on a scratch game, so a wrong order changes nothing
        (its drops and duplicates too: they befall the scratch game's deliveries alike)."""
        self.order = None
        if any(entry.fault is not None for entry in written.entries):
            self._try_faults(step, written)
            return self._ordered_as_run(step, written)
        order = [entry.actor for entry in written.entries]
        turnstile = self._by_hand()
        fen = self._position()
        try:
            scratch_turnstile = Turnstile(Script(order))
            chess960 = self.game.supervisor.chess960
            with ActorGame(fen, self.timeout, schedule=scratch_turnstile, chess960=chess960) as scratch:
                scratch.propose(step.move)
        except ChessActorsError as error:
            raise InputError(f"order does not match the game: {error}; the game is unchanged") from None
        if len(scratch_turnstile.steps) < len(order):
            raise InputError(f"order does not match the game: the move took {len(scratch_turnstile.steps)}"
                             f" deliveries, fewer than the {len(order)} names given; the game is unchanged")
        self._begin()
        with turnstile.using(Script(order)):
            shown = self._perform(step)
        self._count_unsaved()
        self._keep_order(" ".join(("order", *order)))
        return [shown, *self._supervision()]

    def _try_faults(self, step: Play | Reject, order: Order) -> None:
        """Run a move under an order that drops or duplicates deliveries on a scratch game; raise
        InputError (the game unchanged) when the order does not match it."""
        fen = self._position()
        scratch_turnstile = Turnstile(Fifo())
        policy = Ordered(order.entries, scratch_turnstile.befall, "the order")
        try:
            chess960 = self.game.supervisor.chess960
            with ActorGame(fen, self.timeout, schedule=scratch_turnstile, chess960=chess960) as scratch, \
                    scratch_turnstile.using(policy):
                scratch.propose(step.move)
        except ChessActorsError as error:
            raise InputError(f"{error}; the game is unchanged") from None
        if policy.left:
            raise InputError(f"the order does not match the game: the move was over before its last"
                             f" {len(policy.left)} entries ({' '.join(map(str, policy.left))});"
                             " the game is unchanged")

    def _ordered_as_run(self, step: Step, order: Order) -> list[Output]:
        """Run ``step`` under a given order as ``chess-actors run`` runs an ``order`` line, each fault
        befalling the delivery it names: a move's once tried on a scratch game (:meth:`_ordered`); any
        other step's on the game itself (its actors' lessons, lies and crashes are not on a scratch
        game to try it on). The entries the command reached are saved as its order."""
        self.order = None
        turnstile = self._by_hand()
        policy = Ordered(order.entries, turnstile.befall, "the order")
        self._begin()
        try:
            with turnstile.using(policy):
                shown = self._perform(step)
        except ChessActorsError as error:
            raise InputError(f"the command failed: {error}") from None
        finally:
            self._count_unsaved()
            reached = order.entries[:policy.position]
            self._keep_order(" ".join(("order", *map(str, reached))) if reached else None)
        if not policy.left:
            return [shown, *self._supervision()]
        left = " ".join(map(str, policy.left))
        return [shown, *self._supervision(),
                f"  the command was over before the order's last {len(policy.left)} entries: {left}"]

    def _position(self) -> str:
        """The game's FEN from its journal, by the rules core: asking the referee would be a message
        of the session's, and the order is tried before the move is played."""
        supervisor = self.game.supervisor
        position = Game(supervisor.start_fen, chess960=supervisor.chess960)
        try:
            for entry in self.game.journal:
                position.play(entry.uci, want_san=False)
        except ChessActorsError:
            raise InputError("order: a move of this game is not standard chess's (a piece learned another):"
                             " it cannot be tried on fresh actors first; play without order") from None
        return position.fen()

    def _compare(self, rest: list[str]) -> OrderComparison:
        """The last move's delivery order beside arrival order: the same game played again on fresh
        actors under a fifo turnstile, up to that move (lessons and lies are not carried over)."""
        if rest:
            raise InputError("compare takes nothing more: it compares the last move with arrival order")
        if self.in_flight:
            raise InputError("a command is waiting for its deliveries: step, deliver N or run first")
        if self._last_move is None:
            raise InputError("compare: no move has been played yet")
        before, move, label, first, last = self._last_move
        ran = self.recorder.events()[first:last]
        arrival = TraceRecorder()
        try:
            with ActorGame(self.game.supervisor.start_fen, self.timeout, arrival, schedule="fifo") as scratch:
                for played in before:
                    scratch.propose(played)
                arrival.clear()  # only the move's own messages are compared
                scratch.propose(move)
        except ChessActorsError as error:
            raise InputError(f"compare: the move could not be run again: {error}") from None
        return compare_orders(arrival.events(), ran, "arrival order (the game again on fresh actors)",
                              "as it ran here", f"{label} {move}")
