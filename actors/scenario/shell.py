"""The shell's engine: a live game under a delivery turnstile, driven one command line at a time.

Its grammar is the scenario grammar (every step is a command) plus a few shell verbs for looking and
for choosing deliveries by hand; it prints nothing (actors/cli/shell.py does) and returns what to show.
A move (``Nc6``, ``play e4``) is a question to the referee, and its answer is a verdict, not a check
that passed or failed; so is ``legal <square>`` alone, whose answer is the targets. The shell's words
are in :mod:`actors.scenario.shell_words`, what it shows in :mod:`actors.scenario.shell_output`, and
choosing deliveries by hand in :mod:`actors.scenario.shell_by_hand`.
"""

from __future__ import annotations

import json
import threading
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING

from actors.client.game import ActorGame
from actors.client.replay import MoveReport
from actors.kernel.errors import ActorFailure
from actors.kernel.links import LinkModel
from actors.kernel.messaging import DEFAULT_TIMEOUT
from actors.kernel.policies import Fifo, Interactive
from actors.kernel.schedule import LINK_FAULTS, Turnstile, record_of
from actors.protocol import Rejected
from actors.scenario.ordering import Befallen
from actors.scenario.runner import NODES_PLAN_ONE_FAULT, phase_of_step, step_runner
from actors.scenario.script import parse_line, parse_order
from actors.scenario.shell_by_hand import DeliveryByHand
from actors.scenario.shell_output import LegalMoves, Output, Shown
from actors.scenario.shell_words import BY_HAND_VERBS, FREE_ON_NODES, HELP, SHELL_VERBS
from actors.scenario.steps import (
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
from actors.tracing.event import event_to_json
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError
from board.notation.fen import parse_fen

if TYPE_CHECKING:
    from actors.client.nodes import Nodes



def command_problem(verb: str, problem: str) -> str:
    """What is wrong with a shell command, said of commands: the script grammar's ``unknown step``
    becomes an unknown command, listed with the shell's own commands beside the scenario's."""
    if not problem.startswith("unknown step"):
        return problem
    scenario = ", ".join(name for name in STEP_NAMES if name != "start")
    return (f"unknown command {verb!r} (commands: a move, {scenario}; the shell's own: "
            f"{', '.join(SHELL_VERBS)}; help says what each does)")

class Shell(DeliveryByHand):
    """A live game that takes command lines (see :data:`~actors.scenario.shell_words.HELP`); use as a
    context manager.

    Args:
        fen: the starting position ('startpos' or a FEN).
        timeout: every ask's timeout in seconds.
        chess960: a Chess960 game, as for :class:`~actors.client.game.ActorGame` (True: the FEN's K
            and Q are X-FEN; False: standard chess, but a Shredder-FEN field still makes it Chess960).
        network: the links' model (default: reliable links, on which faults can still be chosen).
        nodes: run the actors on these node processes (:class:`~actors.client.nodes.Nodes`): they
            deliver freely over Ray's links, so nothing is delivered by hand (``mode step``,
            ``deliver N``, ``order`` and the like are refused), and what the nodes record joins the
            trace after each command.
        max_restarts: the supervisor's restart intensity limit (see
            :class:`~actors.client.game.ActorGame`).

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
