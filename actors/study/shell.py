"""The shell's engine: a live game under a delivery turnstile, driven one command line at a time.

Its grammar is the scenario grammar (every step is a command) plus a few shell verbs for looking and
for choosing deliveries by hand; it prints nothing (actors/cli/shell.py does) and returns what to show.
A move (``Nc6``, ``play e4``) is a question to the referee, and its answer is a verdict, not a check
that passed or failed; so is ``legal <square>`` alone, whose answer is the targets. The shell's words
are in :mod:`actors.study.shell_words`, and what it shows in :mod:`actors.study.shell_output`.
"""

from __future__ import annotations

import json
import threading
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

from actors.game.game import ActorGame
from actors.game.replay import MoveReport
from actors.kernel.errors import ActorFailure
from actors.kernel.links import LinkModel
from actors.kernel.messaging import DEFAULT_TIMEOUT
from actors.kernel.policies import Fifo, Interactive, Ready, Script
from actors.kernel.schedule import LINK_FAULTS, Turnstile, record_of
from actors.protocol import Rejected
from actors.protocol.readable import readable, summarize
from actors.study.ordering import Befallen, Ordered, order_line
from actors.study.runner import NODES_PLAN_ONE_FAULT, phase_of_step, step_runner
from actors.study.script import parse_line, parse_order
from actors.study.shell_output import LegalMoves, Output, Pending, Shown
from actors.study.shell_words import BY_HAND_VERBS, DELIVERY_VERBS, FREE_ON_NODES, HELP, SHELL_VERBS
from actors.study.steps import (
    STEP_NAMES,
    Legal,
    LinkFault,
    Order,
    Play,
    Reject,
    ScenarioError,
    Start,
    Step,
    StepResult,
)
from actors.tracing.compare import OrderComparison, compare_orders
from actors.tracing.event import event_to_json
from actors.tracing.recorder import TraceRecorder
from board.errors import ChessActorsError, InputError
from board.games.game import Game
from board.notation.fen import parse_fen

if TYPE_CHECKING:
    from actors.clusters.nodes import Nodes


def command_problem(verb: str, problem: str) -> str:
    """What is wrong with a shell command, said of commands: the script grammar's ``unknown step``
    becomes an unknown command, listed with the shell's own commands beside the scenario's."""
    if not problem.startswith("unknown step"):
        return problem
    scenario = ", ".join(name for name in STEP_NAMES if name != "start")
    return (f"unknown command {verb!r} (commands: a move, {scenario}; the shell's own: "
            f"{', '.join(SHELL_VERBS)}; help says what each does)")


WAIT = 30.0
"""Seconds to wait for a command's next delivery to come up (real time: a bound, never a hang)."""


class Shell:
    """A live game that takes command lines (see :data:`~actors.study.shell_words.HELP`); use as a
    context manager.

    Args:
        fen: the starting position ('startpos' or a FEN).
        timeout: every ask's timeout in seconds.
        chess960: a Chess960 game, as for :class:`~actors.game.game.ActorGame` (True: the FEN's K
            and Q are X-FEN; False: standard chess, but a Shredder-FEN field still makes it Chess960).
        network: the links' model (default: reliable links, on which faults can still be chosen).
        nodes: run the actors on these node processes (:class:`~actors.clusters.nodes.Nodes`): they
            deliver freely over Ray's links, so nothing is delivered by hand (``mode step``,
            ``deliver N``, ``order`` and the like are refused), and what the nodes record joins the
            trace after each command.
        max_restarts: the supervisor's restart intensity limit (see
            :class:`~actors.game.game.ActorGame`).

    Raises:
        FenError: the FEN is malformed or impossible.
        InputError: (from :meth:`execute`) a command that cannot be run; the game is unchanged.
    """

    def __init__(
        self, fen: str = "startpos", timeout: float = DEFAULT_TIMEOUT, chess960: bool | None = False,
        network: LinkModel | None = None, nodes: Nodes | None = None, max_restarts: int = 10,
    ) -> None:
        self.policy = Interactive(patience=600.0)
        self.turnstile: Turnstile | None = None
        self.recorder = TraceRecorder()
        self.timeout = timeout
        self.network = network
        """The links' model the session was started with (saved as its ``network`` line)."""
        # Its links are always the schedule's (reliable without a model), so that faults can be
        # chosen by hand: a waiting delivery dropped, the next Apply duplicated. On nodes they are
        # the network's, which a partition can cut.
        if nodes is None:
            self.turnstile = Turnstile(self.policy)
            self.game = ActorGame(fen, timeout, self.recorder, schedule=self.turnstile, chess960=chess960,
                                  network=network or LinkModel(), max_restarts=max_restarts)
        else:
            self.game = ActorGame(fen, timeout, self.recorder, chess960=chess960, nodes=nodes,
                                  network=network or LinkModel(), max_restarts=max_restarts)
        self.run_step = step_runner(self.game)
        self.stepping = False
        self.saved: list[str] = []
        """The steps that passed, as a scenario's lines (``start`` first; see :meth:`_save`)."""
        self.orders: dict[int, str] = {}
        """The ``order`` line written before ``saved[i]``: the deliveries of a command not run in
        arrival order (chosen by hand, or by ``order``), and the faults befallen on the way."""
        self.unsaved = 0
        """Commands that failed (so are not saved) after sending messages: the saved session lacks those."""
        self._befallen: list[Befallen] = []  # the faults chosen by hand in the command in flight
        self._hand_chosen = 0  # its deliveries up to the last one chosen out of arrival order
        self.order: Order | None = None
        """The ``order`` given for the next step command (a move, a question, a lesson, ...)."""
        self.commands = 0
        self._worker: threading.Thread | None = None
        self._result: Output | BaseException | None = None
        self._mark = (0, 0)  # trace events and steps before the last command
        self._saved_mark = 0  # saved steps before the last command
        self._stalled: set[str] = set()  # the actors stalled when the last command began
        # The last move played: the moves before it, the move, its phase, its trace events' span.
        self._last_move: tuple[tuple[str, ...], str, str, int, int] | None = None

    def __enter__(self) -> Shell:
        self.game.start()
        supervisor = self.game.supervisor
        self.saved = [f"start {'chess960 ' if supervisor.chess960 else ''}{supervisor.start_fen}"]
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the game (a command still in flight fails) and its actors."""
        self.game.close()
        if self._worker is not None:
            self._worker.join(self.timeout)

    def names(self) -> list[str]:
        """The actors' names (for completion)."""
        return sorted(self.game.supervisor.names())

    # -- commands

    def execute(self, text: str) -> list[Output]:
        """Run one command line; returns what to show."""
        words = text.split()
        if not words or words[0].startswith("#"):
            return []
        verb, rest = words[0], words[1:]
        self.commands += 1
        if self.turnstile is None and verb in BY_HAND_VERBS and rest[:1] != ["next"]:  # not: drop next Apply
            raise InputError(f"{verb}: {FREE_ON_NODES}")
        if verb in SHELL_VERBS:
            return self._shell_verb(verb, rest)
        if verb in LINK_FAULTS and len(rest) == 1 and rest[0].isdigit():  # drop 2; not drop next Apply
            return self._deliver(verb, rest)
        try:
            step = parse_line(text, "<shell>", self.commands)
        except ScenarioError as error:  # the shell speaks of commands, not of a script's lines
            raise InputError(command_problem(verb, error.problem)) from None
        if step is None:
            return []
        if isinstance(step, Start):
            raise InputError("start: the shell's game has started; start a new shell for another position")
        if isinstance(step, LinkFault) and self.turnstile is None:
            raise InputError(f"{step.written}: {NODES_PLAN_ONE_FAULT}")
        if self.in_flight:
            raise InputError("a command is waiting for its deliveries: step, deliver N or run first")
        if self.order is not None:
            if isinstance(step, Play | Reject):
                return self._ordered(step, self.order)
            return self._ordered_as_run(step, self.order)
        self._begin()
        if not self.stepping:
            with self._in_arrival_order():
                shown = self._perform(step)
            self._count_unsaved()
            return [shown, *self._supervision()]
        self._worker = threading.Thread(target=self._work, args=(step,), name="shell-command", daemon=True)
        self._worker.start()
        return self._settle()

    def _perform(self, step: Step) -> Output:
        """Run ``step`` against the game (on whichever thread delivers); return what to show, and keep
        what it did for :meth:`_save`.

        Its messages serve one phase of the trace, as in ``chess-actors run`` (so that the session
        saved and run again is traced alike): a move's ``ply N``, any other command's ``step N``, the
        number it has in the saved scenario; what a command's messages did stays together, the
        re-reading after a heal included."""
        phase = phase_of_step(step, len(self.saved) + 1, self.game.plies)
        if not isinstance(step, Play):
            try:
                with self.recorder.phase(*phase):
                    return self._performed(step)
            finally:
                self._gather()
        before, first = tuple(entry.uci for entry in self.game.journal), len(self.recorder)
        try:
            with self.recorder.phase(*phase):
                shown = self._performed(step)
        finally:
            self._gather()
        self._last_move = (before, step.move, f"{phase[0]} {phase[1]}", first, len(self.recorder))
        return shown

    def _in_arrival_order(self) -> AbstractContextManager[object]:
        """Deliveries in arrival order: the turnstile's, one at a time (on nodes: as they come)."""
        return nullcontext() if self.turnstile is None else self.turnstile.using(Fifo())

    def _gather(self) -> None:
        """On nodes, bring what the nodes recorded into this game's trace (in one process it is there)."""
        if self.game.nodes is not None:
            self.game.nodes.gather()

    def _performed(self, step: Step) -> Output:
        if isinstance(step, Play):
            return self._move(step.move)
        if isinstance(step, Legal) and not step.targets:
            try:
                targets = tuple(sorted(self.game.legal_targets(step.square)))
            except ActorFailure as failure:
                raise InputError(f"the command failed: {failure}") from None
            self.saved.append(" ".join(("legal", step.square, *targets)))  # saved as the check it passes
            return LegalMoves(step.square, targets)
        return self._keep(step, self.run_step(step))

    def _move(self, move: str) -> MoveReport:
        """Propose ``move``: the verdict, placed in the game (ply, move number, side)."""
        ply = self.game.plies + 1
        start = parse_fen(self.game.supervisor.start_fen, chess960=self.game.supervisor.chess960)
        half_moves = start.turn + ply - 1  # plies since white's move of the starting move number
        number, colour = start.fullmove + half_moves // 2, half_moves % 2
        try:
            reply = self.game.propose(move)
        except ActorFailure as failure:
            return MoveReport(ply, number, colour, move, reason=f"actor failure: {failure}", kind="failure")
        if isinstance(reply, Rejected):
            self.saved.append(f"reject {move}")
            return MoveReport(ply, number, colour, move, reason=reply.reason, kind=reply.kind)
        self.saved.append(f"play {move}")
        return MoveReport(ply, number, colour, move, reply.san, reply.uci, reply.check, reply.outcome)

    def _shell_verb(self, verb: str, rest: list[str]) -> list[Output]:
        match verb:
            case "help":
                return [HELP]
            case "board":
                return [self._board()]
            case "actors":
                return [" ".join(self.names())]
            case "pending":
                return self._pending()
            case "step" | "deliver":
                return self._deliver(verb, rest)
            case "run":
                return self._run_rest()
            case "mode":
                return [self._mode(rest)]
            case "order":
                if not rest:
                    raise InputError("order needs actor names, e.g. order referee board white-pawn-e2")
                try:
                    order = parse_order(" ".join(("order", *rest)), source="<shell>", line=self.commands)
                except ScenarioError as error:
                    raise InputError(error.problem) from None
                unknown = [entry.actor for entry in order.entries if entry.actor not in self.names()]
                if unknown:
                    raise InputError(f"order: no actor is called {unknown[0]} (see: actors)")
                self.order = order
                return [f"the next command delivers in this order: {' '.join(map(str, order.entries))}"]
            case "compare":
                return [self._compare(rest)]
            case "trace":
                return self._trace(rest)
            case "save":
                return [self._save(rest)]
            case _:  # quit and exit are the reader's to act on
                return []

    def _begin(self) -> None:
        """Mark where a command's messages and deliveries begin, and which actors are stalled."""
        if self.turnstile is None:
            self._mark, self._stalled = (len(self.recorder), 0), set()
            return
        self._mark = (len(self.recorder), len(self.turnstile.steps))
        self._stalled = set(self.turnstile.held())
        self._befallen, self._hand_chosen = [], 0
        self._saved_mark = len(self.saved)

    def _supervision(self) -> list[Output]:
        """What the supervisor did during the last command: each actor it restarted, and why."""
        lines: list[Output] = []
        for event in self.recorder.events()[self._mark[0]:]:
            if event["kind"] != "Restart":
                continue
            name = event["receiver"]
            if name in self._stalled:
                lines.append(f"  the supervisor found {name} silent (stalled: it answered nothing in time)"
                             " and restarted it")
            else:
                lines.append(f"  the supervisor restarted {name}")
        return lines

    def _keep(self, step: Step, result: StepResult) -> StepResult:
        if result.ok and not isinstance(step, Start):
            self.saved.append(step.written)
        elif isinstance(step, Reject) and result.got.startswith("accepted"):
            self.saved.append(f"play {step.move}")  # the check failed, but the move was made
        return result

    def _count_unsaved(self) -> None:
        if len(self.saved) == self._saved_mark and len(self.recorder) > self._mark[0]:
            self.unsaved += 1

    def _keep_order(self, line: str | None) -> None:
        """Save ``line`` as the order of the step the last command saved (if it saved one)."""
        if line is not None and len(self.saved) > self._saved_mark:
            self.orders[self._saved_mark] = line

    # -- looking and keeping

    def _board(self) -> Shown:
        if self.in_flight:  # the board's answer would queue behind the deliveries being chosen
            raise InputError("a command is waiting for its deliveries: step, deliver N or run first")
        # The referee's answer is a message of the session: saved as the check it passes, it is
        # asked again when the session is run as a scenario.
        number = len(self.saved) + 1
        with self._in_arrival_order(), self.recorder.phase("step", number):
            fen = self.game.fen()
            journal = self.game.journal
        self.saved.append(f"fen {fen}")
        last = journal[-1] if journal else None
        return Shown(fen, last.uci if last else None, bool(last and last.check))

    def _trace(self, rest: list[str]) -> list[Output]:
        events = self.recorder.events()[self._mark[0]:]
        if len(rest) == 1:
            try:
                with open(rest[0], "w", encoding="utf-8") as file:
                    file.writelines(event_to_json(event) + "\n" for event in self.recorder.events())
            except OSError as error:
                raise InputError(f"trace {rest[0]}: cannot write: {error.strerror}") from None
            return [f"wrote {len(self.recorder)} messages to {rest[0]}"]
        if rest:
            raise InputError("trace takes one file path at most")
        lines: list[Output] = []
        for event in events:
            payload = json.dumps(event["payload"], separators=(",", ":"))
            reply = f" -> {event['reply']}" if event["reply"] else ""
            lines.append(f"  {event['msg_id']:>4} {event['sender']} -> {event['receiver']}: "
                         f"{event['kind']} {payload}{reply}")
        schedule = [] if self.turnstile is None else record_of(self.turnstile.steps[self._mark[1]:])
        if schedule:
            lines.append(f"  order: {' '.join(schedule)}")
        return lines or ["no messages yet"]

    def _save(self, rest: list[str]) -> str:
        """Write the session as a scenario that ``chess-actors run`` replays to the same trace: its
        links' model (a ``network`` line), its deliveries one at a time in arrival order (``schedule
        fifo``, as the shell runs them), and each command's that ran otherwise in the ``order`` line
        before it. On nodes, whose actors deliver freely, the steps alone (``run --nodes`` runs them)."""
        if len(rest) != 1:
            raise InputError("save needs a file path, e.g. save game.scenario")
        lines = [self.saved[0]]
        if self.network is not None:
            lines.append(f"network {self.network.text()}")
        if self.turnstile is not None:
            lines.append("schedule fifo")
        for index, line in enumerate(self.saved[1:], start=1):
            if index in self.orders:
                lines.append(self.orders[index])
            lines.append(line)
        try:
            with open(rest[0], "w", encoding="utf-8") as file:
                file.write("\n".join(lines) + "\n")
        except OSError as error:
            raise InputError(f"save {rest[0]}: cannot write: {error.strerror}") from None
        written = f"wrote {len(self.saved)} steps to {rest[0]} (chess-actors run {rest[0]} replays them)"
        if self.unsaved:
            failed = "command that failed is" if self.unsaved == 1 else "commands that failed are"
            written += f"; {self.unsaved} {failed} left out, with the messages sent for them"
        return written

    # -- deliveries chosen by hand: the next, one named, dropped or duplicated

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


