"""Recovery through random sequences: a game over failing links, crashed, stalled and cut off while it
plays and learns, judged against the reference after every step.

Each step is a proposal (legal or not), a lesson through the handle, a crash (now, or armed on a
lesson), a stall, a partition, or a message of a chosen kind (or its reply) lost once, lost for
good or duplicated. After every step: the actors agree with tests/helpers/reference_judge.py on the
position, every legal target and the outcome (no verdict of the game differs); no king was taken;
and, healed, every piece answers as the board and the journal hold (Supervisor.disagreements). A
game may instead fail, cleanly: with an ActorFailure, after which it plays nothing more; the next
steps play a new game. The run counts what it reached and asserts a floor for each kind of event.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from actors.game.game import ActorGame
from actors.kernel.control import HangOnNext
from actors.kernel.errors import ActorFailure, LinkFailure
from actors.kernel.links import LinkModel
from actors.kernel.network import Network
from actors.kernel.policies import Fifo
from actors.kernel.schedule import Turnstile
from actors.study.fault_search import EveryDelivery
from actors.tracing.recorder import TraceRecorder
from tests.helpers.extras import needs
from tests.helpers.reference_judge import Reference
from tests.helpers.truth_model import STARTS, Switch, Tally, TruthRun, lessons, machine_settings

LESSONS = sorted(lessons(Switch()))
KINDS = ("ProposeText", "Apply", "Moved", "Promote", "Captured", "MoveQuery", "Survey", "Teach", "Learn",
         "Declare", "Record", "RecordTeaching", "Begin", "Gather", "Resync", "TargetsQuery", "Ping")
"""The kinds of message a fault is planned on (a lesson's, a move's, a heal's and the journal's)."""

FLOORS = {
    "accepted": 20,
    "lessons": 5,
    "heals": 10,
    "heal during a lesson": 2,
    "late message from a replaced incarnation": 1,
    "reply lost for good": 2,
    "message lost for good": 3,
    "lost once and sent again": 10,
    "duplicated": 5,
    "stalls": 2,
    "partitions": 3,
    "games failed cleanly": 2,
}
"""How often each kind of event must happen in one run of the machine, at least."""

REACHED: Counter[str] = Counter()


class FaultRun(TruthRun):
    """A TruthRun whose game runs over a network that faults what the steps plan (under ``turnstile``,
    when given: the links on the schedule's clock)."""

    def __init__(self, fen: str, tally: Tally, turnstile: Turnstile | None = None) -> None:
        self.switch = Switch()
        self.lessons = lessons(self.switch)
        self.tally = tally
        self.reference = Reference(fen)
        self.recorder = TraceRecorder()
        network = Network(LinkModel(retries=4), self.recorder) if turnstile is None else LinkModel(retries=4)
        self.game = ActorGame(fen, timeout=0.3, recorder=self.recorder, network=network, schedule=turnstile,
                              max_restarts=12, period=0.001)
        self.game.start()
        # Under a turnstile, the links on its clock: they take the same plans and partitions.
        self.network = self.game.network or self.game.links  # type: ignore[assignment]
        self.said = (self.game.outcome, tuple(self.game.claimable))
        self.fen = fen
        self.taught = {}
        self.on_nodes = False
        self.log = [f"ActorGame({fen!r}) over a network"]
        self.calls = []
        self.played = []

    def marks(self, kind: str) -> list[dict[str, object]]:
        return [event for event in self.recorder.events() if event["kind"] == kind]


class RecoveryMachine(RuleBasedStateMachine):
    """Games on the actors and the reference, stepped by the same calls, with faults between."""

    run_kind: type[FaultRun] = FaultRun
    """How each game runs (under the turnstile, on nodes: see the machines below)."""

    def __init__(self) -> None:
        super().__init__()
        self.tally = Tally()
        self.run: FaultRun | None = None
        self.starts = 0

    @initialize(first=st.integers(0, len(STARTS) - 1))
    def begin(self, first: int) -> None:
        self.starts = first
        self._new_game()

    def _new_game(self) -> None:
        if self.run is not None:
            self._tally_marks(self.run)
            self.run.close()
        self.run = self.run_kind(STARTS[self.starts % len(STARTS)], self.tally)
        self.starts += 1

    def _tally_marks(self, run: FaultRun) -> None:
        retries = run.network.model.retries
        REACHED["late message from a replaced incarnation"] += len(run.marks("Fenced"))
        for mark in run.marks("Dropped"):
            payload = mark["payload"]
            assert isinstance(payload, dict)
            if payload["attempt"] == retries + 1 and payload["carrying"] == "reply":
                REACHED["reply lost for good"] += 1
            elif payload["attempt"] == retries + 1 and payload["carrying"] in ("ask", "tell"):
                REACHED["message lost for good"] += 1
            elif payload["attempt"] == 1 and payload["carrying"] != "ack":
                REACHED["lost once and sent again"] += 1
        REACHED["duplicated"] += len(run.marks("Duplicated"))

    def teardown(self) -> None:
        if self.run is not None:
            self._tally_marks(self.run)
            self.run.close()
        REACHED.update(self.tally.counts)

    @property
    def live(self) -> FaultRun:
        assert self.run is not None
        return self.run

    def _failed(self, error: ActorFailure) -> None:
        """The game failed: cleanly, with a named failure, after which it plays nothing."""
        game = self.live.game
        failed = game.supervisor.failed
        if failed is not None:
            try:
                game.propose("e4")
            except ActorFailure as again:
                assert again is failed, f"after {failed!r}, the game answered {again!r}"
            else:
                raise AssertionError(f"the game failed ({failed!r}) and then played on")
        REACHED["games failed cleanly"] += 1
        self._new_game()

    def _step(self, action: str, *arguments: object) -> None:
        try:
            getattr(self.live, action)(*arguments)
        except ActorFailure as error:
            self._failed(error)

    # -- moves and lessons

    @rule(index=st.integers(0, 10_000), form=st.integers(0, 2))
    def propose_a_legal_move(self, index: int, form: int) -> None:
        self._step("propose_legal", index, form)

    @rule(index=st.integers(0, 10_000), form=st.integers(0, 2))
    def propose_another_legal_move(self, index: int, form: int) -> None:
        self._step("propose_legal", index, form)

    @rule(text=st.sampled_from(["Ke5", "O-O", "exd6", "Qxh8", "a8=Q", "Nf3", "Kxe8"]))
    def propose_a_text(self, text: str) -> None:
        self._step("propose_text", text)

    @rule(at=st.integers(0, 63), lesson=st.sampled_from(LESSONS))
    def teach(self, at: int, lesson: str) -> None:
        self._step("teach", at, lesson, False)

    # -- crashes, stalls, partitions

    @rule(who=st.integers(0, 40))
    def crash_and_heal(self, who: int) -> None:
        self._step("crash", who)

    @rule(at=st.integers(0, 63), lesson=st.sampled_from(LESSONS))
    def crash_during_a_lesson(self, at: int, lesson: str) -> None:
        run = self.live
        occupied = sorted(run.reference.men)
        square = min(occupied, key=lambda candidate: (abs(candidate - at), candidate))
        name = run.game.piece(_name(square)).name
        run.game.crash_on_next(name, "Learn")
        restarts = run.game.supervisor.restarts
        self._step("teach", square, lesson, False)
        if self.run is run and run.game.supervisor.restarts > restarts:
            REACHED["heal during a lesson"] += 1

    @rule(who=st.integers(0, 40), kind=st.sampled_from(["Moved", "MoveQuery", "Learn", "Survey"]))
    def stall(self, who: int, kind: str) -> None:
        run = self.live
        names = ["board"] + [entry.name for entry in run.game.supervisor.roster().entries]
        try:
            run.game.ask(names[who % len(names)], HangOnNext(kind, 0.9))  # three timeouts long
        except ActorFailure as error:
            self._failed(error)
            return
        REACHED["stalls"] += 1

    @rule(at=st.integers(0, 63), lesson=st.sampled_from(LESSONS))
    def stall_a_lesson(self, at: int, lesson: str) -> None:
        # The piece stalls in its lesson, is replaced, and wakes to tell the journal of a lesson its
        # successor may not have: fenced, it changes nothing.
        run = self.live
        occupied = sorted(run.reference.men)
        square = min(occupied, key=lambda candidate: (abs(candidate - at), candidate))
        name = run.game.piece(_name(square)).name
        stuck = run.game.supervisor.ref(name)
        assert stuck is not None
        run.game.ask(name, HangOnNext("Learn", 0.9))
        self._step("teach", square, lesson, False)
        stuck.actor_stopped.wait(3.0)  # it woke, handled the lesson, and stopped
        REACHED["stalls"] += 1

    @rule(kind=st.sampled_from(["ProposeText", "Apply", "Moved", "Survey", "MoveQuery"]),
          index=st.integers(0, 10_000))
    def lose_a_reply_of_the_next_move_for_good(self, kind: str, index: int) -> None:
        self.live.network.plan(kind, "lose", reply=True)
        self._step("propose_legal", index, 1)

    @rule(kind=st.sampled_from(["ProposeText", "Apply", "Moved", "Survey", "MoveQuery", "Captured",
                                "Record"]), reply=st.booleans(), index=st.integers(0, 10_000))
    def duplicate_a_message_of_the_next_move(self, kind: str, reply: bool, index: int) -> None:
        self.live.network.plan(kind, "duplicate", reply=reply)
        self._step("propose_legal", index, 0)

    @rule(kind=st.sampled_from(["ProposeText", "Apply", "Moved", "Survey", "Captured", "Record"]),
          index=st.integers(0, 10_000))
    def lose_a_message_of_the_next_move_for_good(self, kind: str, index: int) -> None:
        self.live.network.plan(kind, "lose")
        self._step("propose_legal", index, 2)

    @rule(who=st.sampled_from(["board", "referee", "journal"]), seconds=st.sampled_from([0.002, 0.01]))
    def partition(self, who: str, seconds: float) -> None:
        self.live.network.partition(frozenset({who}), seconds)
        REACHED["partitions"] += 1

    # -- messages lost, lost for good, duplicated

    @rule(kind=st.sampled_from(KINDS), reply=st.booleans(),
          fault=st.sampled_from(["drop", "lose", "duplicate"]))
    def fault_the_next(self, kind: str, reply: bool, fault: str) -> None:
        self.live.network.plan(kind, fault, reply=reply)

    # -- after every step

    @invariant()
    def the_actors_agree_with_the_reference_and_every_piece_with_the_board_and_journal(self) -> None:
        if self.run is None:
            return
        try:
            self.run.check()  # position, legal targets, outcome, both kings on the board
            self.run.game.supervisor.heal()
            disagreements = self.run.game.supervisor.disagreements()
        except ActorFailure as error:
            self._failed(error)
            return
        assert disagreements == [], disagreements


def _name(square: int) -> str:
    from board.rules.squares import SQUARE_NAMES

    return SQUARE_NAMES[square]


def _run_and_reach(machine: type[RuleBasedStateMachine], floors: dict[str, int], examples: int,
                   steps: int) -> None:
    """Run ``machine`` and assert that each event reached its floor (the counts are printed)."""
    REACHED.clear()
    run_state_machine_as_test(machine, settings=machine_settings(examples, steps))
    print(f"reached by {machine.__name__}:", dict(sorted(REACHED.items())))
    short = {event: (REACHED[event], floor) for event, floor in floors.items() if REACHED[event] < floor}
    assert not short, f"events reached fewer times than their floor (reached, floor): {short}"


def test_recovery_never_changes_a_verdict_and_reaches_every_kind_of_event() -> None:
    _run_and_reach(RecoveryMachine, FLOORS, 30, 30)
    assert LinkFailure  # a lost message's failure is named (see _failed)


# -- the same under the turnstile, checked after every delivery

SCHEDULED_FLOORS = {**{event: floor for event, floor in FLOORS.items()
                       if event != "late message from a replaced incarnation"}, "deliveries checked": 5_000}
"""Under the turnstile a stalled actor that is replaced is forgotten at once (its mail fails): it
never wakes to send late, so that event is the free-threaded machine's alone."""


class ScheduledFaultRun(FaultRun):
    """A FaultRun whose game runs under the turnstile in arrival order, its links on the schedule's
    clock (timeouts, stalls and partitions included): the seed hypothesis draws decides everything,
    whatever the machine's speed. The fault search's watch checks every delivery."""

    def __init__(self, fen: str, tally: Tally) -> None:
        turnstile = Turnstile(Fifo())
        super().__init__(fen, tally, turnstile)
        self.watch = EveryDelivery(self.game)
        turnstile.watchers.append(self.watch)


class ScheduledRecoveryMachine(RecoveryMachine):
    """The recovery machine under the turnstile, checked after every delivery as well as every step."""

    run_kind = ScheduledFaultRun

    @rule(at=st.integers(0, 63), lesson=st.sampled_from(LESSONS))
    def stall_a_lesson(self, at: int, lesson: str) -> None:
        # The piece stalls in its lesson and is replaced; forgotten by the turnstile, it never wakes.
        run = self.live
        occupied = sorted(run.reference.men)
        square = min(occupied, key=lambda candidate: (abs(candidate - at), candidate))
        run.game.ask(run.game.piece(_name(square)).name, HangOnNext("Learn", 0.9))
        self._step("teach", square, lesson, False)
        REACHED["stalls"] += 1

    def _tally_marks(self, run: FaultRun) -> None:
        super()._tally_marks(run)
        REACHED["deliveries checked"] += cast(ScheduledFaultRun, run).watch.deliveries

    @invariant()
    def every_delivery_kept_the_invariants(self) -> None:
        if self.run is not None:
            watch = cast(ScheduledFaultRun, self.run).watch
            assert watch.broken == [], watch.broken


def test_recovery_under_the_turnstile_keeps_every_invariant_after_every_delivery() -> None:
    _run_and_reach(ScheduledRecoveryMachine, SCHEDULED_FLOORS, 12, 30)


# -- the same on nodes, with nodes lost mid-ply

NODE_FLOORS = {
    "accepted": 5,
    "node lost mid-ply": 1,
    "heals": 2,
    "lessons on nodes": 1,
}
"""How often each kind of event must happen in one run of the machine on nodes, at least."""

NODE_KINDS = ("MoveQuery", "Moved")
"""The messages a node is lost on: sent to pieces (on node 3 under the role placement) in the middle
of every legal ply, the referee's question and the board's news of the move."""


class NodeFaultRun(FaultRun):
    """A FaultRun whose game's actors run on three node processes of a local Ray (the role placement:
    referee, board and journal, pieces)."""

    def __init__(self, fen: str, tally: Tally) -> None:
        from actors.clusters.nodes import Nodes

        self.switch = Switch()
        self.lessons = lessons(self.switch)
        self.tally = tally
        self.reference = Reference(fen)
        self.recorder = TraceRecorder()
        self.network = Network(LinkModel(retries=4), self.recorder)
        self.nodes = Nodes(3, "local")
        self.game = ActorGame(fen, timeout=2.0, recorder=self.recorder, network=self.network,
                              max_restarts=12, nodes=self.nodes)
        try:
            self.game.start()
        except BaseException:
            self.nodes.close()
            raise
        self.said = (self.game.outcome, tuple(self.game.claimable))
        self.fen = fen
        self.taught = {}
        self.on_nodes = True
        self.log = [f"ActorGame({fen!r}) on three nodes over a network"]
        self.calls = []
        self.played = []

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.nodes.close()


class NodeRecoveryMachine(RecoveryMachine):
    """The recovery machine's steps on nodes (no stalls or partitions: a node is lost instead), and
    nodes lost at a message a step names."""

    run_kind = NodeFaultRun

    # Stalls and partitions run on the wall clock of three processes: left to the machine in one.
    stall = None  # type: ignore[assignment]
    stall_a_lesson = None  # type: ignore[assignment]
    partition = None  # type: ignore[assignment]
    crash_during_a_lesson = None  # type: ignore[assignment]

    @rule(kind=st.sampled_from(NODE_KINDS), index=st.integers(0, 10_000))
    def lose_a_node_mid_ply(self, kind: str, index: int) -> None:
        run = self.live
        assert isinstance(run, NodeFaultRun)
        running = [name for name in run.nodes.names if name not in run.nodes.dead]
        if "node-3" not in running:
            return  # the pieces' node is gone already: its actors run on the survivors
        run.nodes.kill_on_next("node-3", kind)
        self._step("propose_legal", index, 0)
        if self.run is run and "node-3" in run.nodes.dead:
            REACHED["node lost mid-ply"] += 1


@needs("ray")
def test_recovery_on_nodes_never_changes_a_verdict_and_loses_nodes_mid_ply() -> None:
    _run_and_reach(NodeRecoveryMachine, NODE_FLOORS, 3, 14)
