"""Running scenario scripts: each step against a live actor game, with what the actors answered.

:func:`run_scenario` plays a parsed :class:`~actors.study.steps.Scenario`; the shell runs one
step at a time through :func:`step_runner`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from actors.study.steps import (
    Crash,
    Expect,
    FenCheck,
    Invariants,
    Learn,
    Legal,
    Lie,
    LinkFault,
    MessageFault,
    Order,
    OutcomeCheck,
    Partition,
    Play,
    Reject,
    Restarts,
    Scenario,
    ScenarioError,
    Send,
    SquareCheck,
    Stall,
    Start,
    Step,
    StepResult,
)
from board.errors import ChessActorsError, InputError
from board.rules.pieces import COLOUR_NAMES, KIND_LETTERS, KIND_NAMES
from board.rules.squares import SQUARE_NAMES, parse_standard_square

if TYPE_CHECKING:
    from actors.clusters.nodes import Nodes
    from actors.game.game import ActorGame, PieceHandle
    from actors.game.pool import SystemPool
    from actors.kernel.links import LinkModel
    from actors.kernel.network import Network
    from actors.kernel.schedule import Turnstile
    from actors.kernel.scheduled_links import ScheduledLinks
    from actors.protocol import No, Yes
    from actors.roles.supervisor import Roles
    from actors.study.fault_search import EveryDelivery
    from actors.tracing.recorder import TraceRecorder

__all__ = [
    "SCHEDULED_RUNS_HERE", "ScenarioFailure", "StepListener", "phase_of_step", "run_scenario",
    "scenario_roles", "step_runner",
]


def step_runner(game: ActorGame) -> Callable[[Step], StepResult]:
    """Runs steps one at a time against ``game`` (an ``expect`` checks the last ``send`` it ran)."""
    return _Runner(game).run




StepListener = Callable[[StepResult], None]


def run_scenario(
    scenario: Scenario,
    on_step: StepListener | None = None,
    recorder: TraceRecorder | None = None,
    timeout: float | None = None,
    teach: Mapping[str, str] | None = None,
    pool: SystemPool | None = None,
    network: LinkModel | Network | None = None,
    nodes: Nodes | None = None,
    counts: Counter[str] | None = None,
    max_restarts: int = 10,
) -> list[StepResult]:
    """Run the steps against a fresh actor game, stopping after the first that fails.

    ``on_step`` is called with each result as it comes; ``recorder`` traces every message; an
    ask waits ``timeout`` seconds at most (the actors' default when None). The game borrows its
    actor system from ``pool`` (which then sets the recorder and timeout); untraced, with the
    default timeout, from this process's pool. Returns the results of the steps run, in order.
    A scenario with a schedule runs one delivery at a time in arrival order, each step after an
    ``order`` line in the order it gives (see actors/examples/README.md).
    An actor that dies is healed by the supervisor and the step retried once, as the game facade
    does for moves.

    Args:
        scenario: the parsed script.
        on_step: called with each result as it comes.
        recorder: traces every message.
        timeout: every ask's timeout in seconds (None: the actors' default).
        teach: pieces (by square) that start moving as another geometry (by name).
        pool: the pool to borrow the actor system from.
        network: the links between the actors (the game then starts its own); a
            :class:`~actors.kernel.network.Network` given is the one used, to read its counts after.
            None: the model of the script's ``network`` line, if it has one.
        nodes: run the actors on these node processes (:class:`~actors.clusters.nodes.Nodes`).
        max_restarts: the supervisor's restart intensity limit (see :class:`ActorGame`).
        counts: given, what befell the messages on failing links is added to it when the game ends
            (``dropped``, ``duplicated``, ``delayed``, ``retried``), whichever links the game had.

    Returns:
        The results of the steps run, in order (the last one failed if the run stopped early).

    Raises:
        ValueError: a scenario under a schedule (``schedule fifo``, ``order`` lines), which runs
            its own actors under a turnstile, given ``nodes``, ``pool`` or a Network (a LinkModel
            is taken, on the turnstile's clock); a step that befalls the next message of a kind, on
            ``nodes``.
    """
    from actors.game.game import ActorGame
    from actors.game.pool import process_pool
    from actors.kernel.links import LinkModel
    from actors.kernel.network import Network
    from actors.tracing.recorder import marking

    if network is None:
        network = scenario.network
    faulting = any(isinstance(step, LinkFault | Partition) for step in scenario.steps)
    if nodes is not None and any(isinstance(step, LinkFault) for step in scenario.steps):
        raise ValueError(NODES_PLAN_ONE_FAULT)
    turnstile = None
    if scenario.schedule is not None:
        from actors.kernel.policies import Fifo
        from actors.kernel.schedule import Turnstile

        if nodes is not None or pool is not None or isinstance(network, Network):
            raise ValueError(SCHEDULED_RUNS_HERE)
        # The shell's game: one delivery at a time, over links that fault as their model says (none
        # given: reliable) and when a step says so.
        turnstile = Turnstile(Fifo())
        network = network or LinkModel()
    elif network is None and faulting:
        network = Network(LinkModel(), recorder)  # reliable links, but for the faults the script asks
    roles = scenario_roles(scenario)
    if pool is None and recorder is None and timeout is None and network is None and nodes is None \
            and turnstile is None and roles.standard:
        pool = process_pool()
    results: list[StepResult] = []
    with ActorGame(scenario.start_fen, timeout, recorder, pool=pool, teach=teach, network=network,
                   chess960=scenario.chess960, nodes=nodes, schedule=turnstile,
                   max_restarts=max_restarts, roles=roles) as game:
        runner = _Runner(game)
        if turnstile is not None:  # one delivery at a time: the invariants are watched after each
            from actors.study.fault_search import EveryDelivery

            runner.watch = EveryDelivery(game)
            turnstile.watchers.append(runner.watch)
        for index, step in enumerate(scenario.steps):
            order = scenario.order_before(index)
            with marking(recorder, *phase_of_step(step, index + 1, game.plies)):
                if order is None or turnstile is None:
                    result = runner.run(step)
                else:
                    result = _run_ordered(runner, step, order, turnstile)
            results.append(result)
            if on_step is not None:
                on_step(result)
            if not result.ok:
                break
    links = game.links or game.network
    if counts is not None and links is not None:
        counts.update(links.counts)
    return results


def scenario_roles(scenario: Scenario) -> Roles:
    """The classes the scenario's ``role`` lines name, loaded from their files (each path relative
    to the script's folder), in place of the project's own.

    Raises:
        ScenarioError: naming the ``role`` line: the file is missing, does not import, or has no
            class of that role (or several, and the line names none).
    """
    from actors.roles.supervisor import STANDARD_ROLES

    if not scenario.roles:
        return STANDARD_ROLES
    from actors.study.labs.plugin import PluginError, load_role

    # A script read from a file names files from its folder; one from stdin ('<stdin>'), from here.
    folder = Path.cwd() if scenario.source.startswith("<") else Path(scenario.source).parent
    chosen: dict[str, type] = {}
    for role in scenario.roles:
        base = STANDARD_ROLES.of(role.role)
        try:
            chosen[role.role] = load_role(folder / role.path, base, role.class_name)
        except PluginError as error:
            raise ScenarioError(scenario.source, role.line, str(error)) from None
    return replace(STANDARD_ROLES, **chosen)


def phase_of_step(step: Step, number: int, plies: int) -> tuple[str, int]:
    """The trace phase a step's messages serve (the shell's commands too): a move's, ``ply N`` (the
    ply it proposes, as in a replay); any other step's, ``step N`` (its number in the script)."""
    if isinstance(step, Play | Reject):
        return "ply", plies + 1
    return "step", number


def _run_ordered(runner: _Runner, step: Step, order: Order, turnstile: Turnstile) -> StepResult:
    """Run ``step`` with its deliveries in the order written on the line before it."""
    from actors.study.ordering import Ordered

    policy = Ordered(order.entries, turnstile.befall, f"the order on line {order.line}")
    with turnstile.using(policy):
        result = runner.run(step)
    if result.ok and policy.left:
        left = " ".join(str(entry) for entry in policy.left)
        return StepResult(step.line, step.written, False, f"its deliveries as ordered on line {order.line}",
                          f"the step was over before the order's last {len(policy.left)} entries: {left}")
    return result


SCHEDULED_RUNS_HERE = (
    "a scenario with schedule fifo or order lines runs its actors under one turnstile in this process,"
    " not on nodes or a pool (a links' model, if any, is given as a model: its faults befall the mail on"
    " the turnstile's clock)"
)


NODES_PLAN_ONE_FAULT = (
    "a step that befalls the next message of a kind (drop next Apply, ...) cannot run on nodes: each node's"
    " network decides the fates of the mail its own actors send, and none knows which will send it next"
    " (a partition, or --network, can)"
)


class _Runner:
    """Runs steps one by one against one game, remembering the last reply to a send."""

    def __init__(self, game: ActorGame) -> None:
        self.game = game
        self.reply: Yes | No | None = None
        self.watch: EveryDelivery | None = None
        """Under a schedule, what every delivery so far broke (an ``invariants`` step reports it)."""

    def run(self, step: Step) -> StepResult:
        from actors.kernel.errors import ActorFailure

        try:
            ok, expected, got = self._run(step)
        except ActorFailure as failure:
            if isinstance(step, Play | Reject | Crash):  # the facade has healed and retried already
                return StepResult(step.line, step.written, False, _expected(step),
                                  f"actor failure: {failure}")
            try:
                self.game.supervisor.heal()
                ok, expected, got = self._run(step)
            except ActorFailure as again:
                return StepResult(step.line, step.written, False, _expected(step), f"actor failure: {again}")
        except ChessActorsError as error:
            return StepResult(step.line, step.written, False, _expected(step), str(error))
        return StepResult(step.line, step.written, ok, expected, got)

    def _run(self, step: Step) -> tuple[bool, str, str]:
        from actors.protocol import Rejected

        game = self.game
        match step:
            case Start():
                return True, "the game set up", f"{len(game.supervisor.names())} actors started"
            case Play(move=move, san=san):
                reply = game.propose(move)
                if isinstance(reply, Rejected):
                    return False, _expected(step), f"rejected ({reply.kind}): {reply.reason}"
                mark = move[-1] if move[-1] in "+#" else ""
                ok = reply.san.endswith(mark) and san in (None, reply.san)
                return ok, _expected(step), f"accepted {reply.san}"
            case Reject(move=move, reason=reason):
                reply = game.propose(move)
                if not isinstance(reply, Rejected):
                    return False, _expected(step), f"accepted {reply.san}"
                ok = reason is None or reason.lower() in reply.reason.lower()
                return ok, _expected(step), f"rejected ({reply.kind}): {reply.reason}"
            case Send():
                self.reply = self._piece(step.actor).move_query(step.start, step.end, step.colour)
                return True, _expected(step), _reply_text(self.reply)
            case Expect():
                return self._expect(step)
            case Crash(actor=actor, kind=kind):
                name = self._name(actor)
                if kind is None:
                    game.crash(name)
                    return True, _expected(step), f"{name} crashed"
                game.crash_on_next(name, kind)
                return True, _expected(step), f"{name} will crash on its next {kind}"
            case Stall(actor=actor, seconds=seconds):
                from actors.game.stall import default_stall, stall

                name = self._name(actor)
                lasting = seconds if seconds is not None else default_stall(game.timeout)
                stall(game, name, lasting)
                return True, _expected(step), f"{name} answers nothing for {lasting:g} s"
            case Restarts(count=count):
                restarts = game.supervisor.restarts
                return restarts == count, _expected(step), _plural(restarts, "restart")
            case SquareCheck():
                return self._square(step)
            case Legal(square=square, targets=targets):
                found = tuple(sorted(game.legal_targets(square)))
                return found == targets, _expected(step), _targets_text(found)
            case FenCheck(fen=fen):
                position = game.fen()
                return position == fen, _expected(step), position
            case OutcomeCheck(outcome=outcome):
                standing = game.outcome
                return standing == outcome, _expected(step), standing or "none"
            case Learn(square=square, geometry=geometry):
                piece = game.piece(square)
                piece.learn(geometry)
                return True, _expected(step), f"{piece.name} now moves as {geometry}"
            case LinkFault(fault=fault, kind=kind, reply=reply):
                self._network(step).plan(kind, fault, reply=reply)
                what = f"reply to {kind}" if reply else kind
                return True, _expected(step), f"the next {what} will be {_BEFALLS[fault]}"
            case MessageFault():
                links = game.links
                if links is None:
                    raise ScenarioFailure(f"{step.written}: a message named by its place in the"
                                          " conversation is faulted under schedule fifo only")
                links.plan_message(step.sender, step.receiver, step.reply, step.kind, step.index, step.fault)
                return True, _expected(step), f"{step.text()} will be {_BEFALLS[step.fault]}"
            case Invariants():
                from actors.study.fault_search import game_invariants

                broken = [*(self.watch.broken if self.watch is not None else ()), *game_invariants(game)]
                return not broken, _expected(step), "; ".join(broken) or "all hold"
            case Partition(actors=actors, seconds=seconds, apart=apart):
                network = self._network(step)
                names = [self._name(actor) for actor in actors]
                others = [self._name(actor) for actor in apart]
                if game.nodes is not None:
                    game.partition(frozenset(names), seconds, frozenset(others))
                else:
                    network.partition(frozenset(names), seconds, frozenset(others))
                cut = f" from {' and '.join(others)}" if others else ""
                return True, _expected(step), f"{' and '.join(names)} cut off{cut} for {seconds:g} s"
            case Lie(ghosts=ghosts, hidden=hidden):
                game.board_lies(dict(ghosts), hidden)
                return True, _expected(step), _lie_text(ghosts, hidden)

    def _network(self, step: LinkFault | Partition) -> Network | ScheduledLinks:
        network = self.game.network or self.game.links
        if network is None:
            raise ScenarioFailure(f"{step.written}: this game's links are reliable (a script run by"
                                  " chess-actors run, and the shell, have links that can fail)")
        return network

    def _expect(self, step: Expect) -> tuple[bool, str, str]:
        from actors.protocol import Yes

        reply = self.reply
        got = _reply_text(reply) if reply is not None else "no reply (the send failed)"
        if not isinstance(reply, Yes):
            ok = not step.yes and reply is not None and (
                step.reason is None or step.reason.lower() in reply.reason.lower())
            return ok, _expected(step), got
        traversed = reply.traversed_names
        ruled = step.rule in (None, reply.target_rule)
        return step.yes and step.traversed in (None, traversed) and ruled, _expected(step), got

    def _square(self, step: SquareCheck) -> tuple[bool, str, str]:
        index = parse_standard_square(step.square)
        entries = self.game.supervisor.roster().entries
        entry = next((entry for entry in entries if entry.square == index), None)
        if entry is None:
            return step.piece is None, _expected(step), f"{step.square} empty"
        piece = f"{COLOUR_NAMES[entry.code >> 3]} {KIND_NAMES[entry.code & 7]}"
        ok = piece == step.piece and step.actor in (None, entry.name)
        return ok, _expected(step), f"{piece} on {step.square} ({entry.name})"

    def _name(self, actor: str) -> str:
        """The actor's stable name: as written, or the piece actor standing on a square."""
        try:
            index = parse_standard_square(actor)
        except InputError:
            nodes = self.game.nodes
            if nodes is not None and actor in nodes.names:
                return actor  # on nodes, a node's name stands for its actors
            if actor not in self.game.supervisor.names():
                raise ScenarioFailure(f"no actor is called {actor}") from None
            return actor
        for entry in self.game.supervisor.roster().entries:
            if entry.square == index:
                return entry.name
        raise ScenarioFailure(f"there is no piece on {SQUARE_NAMES[index]}")

    def _piece(self, actor: str) -> PieceHandle:
        from actors.game.game import PieceHandle

        name = self._name(actor)
        for entry in self.game.supervisor.roster().entries:
            if entry.name == name:
                return PieceHandle(self.game, name, entry.square, entry.code)
        raise ScenarioFailure(f"{name} is not a piece on the board")


class ScenarioFailure(ChessActorsError):
    """A step that cannot be carried out (an actor that does not exist): the step fails."""


def _expected(step: Step) -> str:
    """What a step expects, in words."""
    match step:
        case Start():
            return "the game set up"
        case Play(move=move, san=san):
            mark = {"+": " giving check", "#": " giving checkmate"}.get(move[-1], "")
            return f"{move} accepted{mark}" + (f" as {san}" if san else "")
        case Reject(move=move, reason=reason):
            return f"{move} rejected" + (f", the reason containing {reason!r}" if reason else "")
        case Send():
            return "a reply"
        case Expect(yes=True, traversed=traversed, rule=rule):
            ruled = f" (target rule {rule})" if rule else ""
            if traversed is None:
                return f"Yes{ruled}"
            crossed = f"traversing {' '.join(traversed)}" if traversed else "traversing nothing"
            return f"Yes, {crossed}{ruled}"
        case Expect(reason=reason):
            return "No" + (f", the reason containing {reason!r}" if reason else "")
        case Crash(actor=actor):
            return f"{actor} crashed"
        case Stall(actor=actor):
            return f"{actor} stalled"
        case Restarts(count=count):
            return _plural(count, "restart")
        case SquareCheck(square=square, piece=None):
            return f"{square} empty"
        case SquareCheck(square=square, piece=piece, actor=actor):
            return f"{piece} on {square}" + (f" ({actor})" if actor else "")
        case Legal(targets=targets):
            return _targets_text(targets)
        case FenCheck(fen=fen):
            return fen
        case OutcomeCheck(outcome=outcome):
            return outcome or "none"
        case Learn(square=square, geometry=geometry):
            return f"the piece on {square} moving as {geometry}"
        case LinkFault(fault=fault, kind=kind, reply=reply):
            return f"the next {'reply to ' if reply else ''}{kind} {_BEFALLS[fault]}"
        case Partition(actors=actors, seconds=seconds):
            return f"{'+'.join(actors)} cut off for {seconds:g} s"
        case MessageFault(fault=fault):
            return f"{step.text()} {_BEFALLS[fault]}"
        case Invariants():
            return ("no king captured, the board as the journal, every piece as the board holds it"
                    " (under a schedule: after every delivery so far)")

        case Lie(ghosts=ghosts, hidden=hidden):
            return _lie_text(ghosts, hidden)


_BEFALLS = {"drop": "lost", "duplicate": "duplicated", "delay": "delayed", "reorder": "overtaken",
            "crash": "crashed on"}


def _piece_named(letter: str) -> str:
    """``white queen`` for ``Q``, ``black pawn`` for ``p``."""
    return f"{COLOUR_NAMES[letter.islower()]} {KIND_NAMES[KIND_LETTERS.index(letter.upper())]}"


def _lie_text(ghosts: Sequence[tuple[str, str]], hidden: Sequence[str]) -> str:
    if not ghosts and not hidden:
        return "the board tells the truth"
    parts = [f"a ghost {_piece_named(letter)} on {square}" for square, letter in ghosts]
    parts += [f"the piece on {square} hidden" for square in hidden]
    return "the board lies: " + ", ".join(parts)


def _reply_text(reply: Yes | No) -> str:
    from actors.protocol import Yes

    if isinstance(reply, Yes):
        traversed = " ".join(reply.traversed_names)
        ruled = f" (target rule {reply.target_rule})" if reply.target_rule != "any" else ""
        return (f"Yes, traversing {traversed}" if traversed else "Yes, traversing nothing") + ruled
    return f"No: {reply.reason}"


def _targets_text(targets: Sequence[str]) -> str:
    return f"legal targets {' '.join(targets)}" if targets else "no legal move"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
