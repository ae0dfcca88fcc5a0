"""Links that fail: messages lost, duplicated, delayed, reordered and partitioned, and verdicts that stay.

Every fault here is decided by a seed or planned on a chosen message, never by the clock: the
network's timeouts run in the order of the times they stand for, so a delay and the timeout it
outlasts are ordered alike on any machine.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from actors.game.game import ActorGame
from actors.game.replay import watch_game
from actors.kernel.errors import LinkFailure
from actors.kernel.links import COUNTED, LinkModel, Partition, parse_network
from actors.kernel.network import PLANNED, Network
from actors.protocol import Learn
from actors.protocol.referee import Accepted, FenQuery, Rejected, Verdict
from actors.study.runner import run_scenario
from actors.study.script import parse_scenario
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError
from board.games.game import Game
from board.games.replay import replay_direct
from board.rules.geometry import geometry_named
from tests.helpers.self_play import outcome_of, self_play_games


def test_forty_self_play_games_over_failing_links_end_as_over_reliable_ones() -> None:
    games = self_play_games(40, seed=28)
    expected = [outcome_of(replay_direct(game)) for game in games]
    assert sum(1 for item in expected if item[3] is not None) >= 8, "some games stop at an illegal try"
    for seed in (1, 2, 3):
        model = parse_network(f"loss=0.05,dup=0.05,delay=0.05,seed={seed}")
        faults: Counter[str] = Counter()
        got = []
        for game in games:
            got.append(outcome_of(watch_game(game, network=model, faults=faults)))
        assert got == expected, f"seed {seed}"
        assert all(faults[name] > 0 for name in COUNTED), (seed, faults)


def test_the_same_seed_gives_the_same_faults_and_another_seed_others() -> None:
    games = self_play_games(3, seed=5)

    def counts(seed: int) -> dict[str, int]:
        faults: Counter[str] = Counter()
        model = parse_network(f"loss=0.1,dup=0.1,delay=0.1,seed={seed}")
        for game in games:
            watch_game(game, network=model, faults=faults)
        return dict(faults)

    first = counts(7)
    assert counts(7) == first
    assert counts(8) != first


def test_the_same_seed_and_moves_give_the_same_trace_faults_included() -> None:
    def trace(seed: int) -> Counter[str]:
        recorder = TraceRecorder()
        network = Network(parse_network(f"loss=0.1,dup=0.1,delay=0.1,seed={seed}"), recorder)
        with ActorGame(recorder=recorder, network=network) as game:
            for move in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"):
                assert isinstance(game.propose(move), Accepted)
        fields = ("sender", "receiver", "kind", "payload", "reply", "reply_payload", "phase")
        return Counter(repr([event.get(field) for field in fields]) for event in recorder.events())

    first = trace(11)
    faults = sum(count for text, count in first.items() if "'Dropped'" in text or "'Duplicated'" in text)
    assert faults >= 5, "a trace with faults to compare"
    assert trace(11) == first, "the same seed, the same messages and the same faults"
    assert trace(12) != first


def test_faults_are_trace_events_of_their_own_children_of_the_message_they_befell() -> None:
    recorder = TraceRecorder()
    model = parse_network("loss=0.1,dup=0.1,delay=0.1,seed=4")
    network = Network(model, recorder)
    with ActorGame(recorder=recorder, network=network) as game:
        for move in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
            assert isinstance(game.propose(move), Accepted)
    counts = dict(network.counts)  # once closed: what was still on its way is finished then
    events = recorder.events()
    by_id = {event["msg_id"]: event for event in events}
    marks = [event for event in events if event["kind"] in ("Dropped", "Duplicated", "Delayed", "Retried")]
    assert Counter(event["kind"] for event in marks) == Counter(
        {kind.capitalize(): number for kind, number in counts.items() if number}
    )
    for mark in marks:
        parent = by_id.get(mark["parent_id"]) if mark["parent_id"] is not None else None
        if parent is not None:
            assert parent["kind"] == mark["payload"]["message"]


# -- one message kind at a time: lost, duplicated, delayed past its timeout, reordered

OPENING = (
    "e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Bd7", "bxa8=Q", "Qc7", "Nf3", "e5", "Bc4", "Bd6",
    "O-O", "O-O", "Qxb8", "Rxb8", "Re1", "Re8", "Rxe5", "Rxe5", "Nxe5", "Bxe5", "Ke2",
)
"""Captures, a promotion, castling on both sides, and an illegal move at the end."""

ASKS = ("ProposeText", "MoveQuery", "Survey", "Apply", "Moved", "CastleQuery", "CastleSurvey", "Promote",
        "FenQuery", "Begin", "Gather", "RosterQuery", "TargetsQuery", "JournalQuery")
TELLS = ("Captured", "Record", "RecordTeaching", "RecordStart")
"""Every kind a game sends, its start-up included (the referee's Begin, the board's Gather and roster,
each piece's reach, the journal's start)."""


def play(network: Network | None) -> tuple[list[Verdict], str, tuple[object, ...]]:
    with ActorGame(network=network) as game:
        verdicts = []
        for move in OPENING:
            verdicts.append(game.propose(move))
            if isinstance(verdicts[-1], Rejected):
                break
        return verdicts, game.fen(), game.journal


RELIABLE = play(None)


@pytest.mark.parametrize("kind", ASKS + TELLS)
@pytest.mark.parametrize("fault", sorted(PLANNED))
def test_a_message_lost_duplicated_delayed_or_reordered_changes_no_verdict(kind: str, fault: str) -> None:
    assert isinstance(RELIABLE[0][-1], Rejected) and RELIABLE[0][-1].kind == "illegal"
    network = Network(LinkModel())
    network.plan(kind, fault, times=3)
    assert play(network) == RELIABLE
    befell = {"drop": "dropped", "duplicate": "duplicated", "delay": "delayed", "reorder": "delayed"}[fault]
    assert network.counts[befell] >= 1, f"no {kind} was {befell}"
    if fault in ("drop", "delay"):
        assert network.counts["retried"] >= 1  # sent again when its acknowledgement did not come


@pytest.mark.parametrize("kind", ASKS)
@pytest.mark.parametrize("fault", sorted(PLANNED))
def test_a_reply_lost_duplicated_delayed_or_reordered_changes_no_verdict(kind: str, fault: str) -> None:
    network = Network(LinkModel())
    network.plan(kind, fault, reply=True, times=3)
    assert play(network) == RELIABLE
    assert sum(network.counts.values()) >= 1


STUDY_KINDS = ("ProposeSquares", "LegalTargetsQuery", "ProbeSurvey", "Teach", "Learn", "Describe")
"""The kinds a game sends only when asked: a move by its squares, where a piece may go, a lesson."""


def study(network: Network | None) -> tuple[object, ...]:
    """Moves by their squares, legal targets, and a bishop taught a rook's moves, then asked about."""
    with ActorGame(network=network) as game:
        return (game.propose_squares("e2", "e4"), game.propose_squares("e7", "e5"), game.legal_targets("g1"),
                game.teach("white-bishop-f1", geometry_named("rook")), game.legal_targets("f1"),
                game.propose_squares("f1", "f2"), game.propose("Bf3"), game.fen(), game.journal)


STUDIED = study(None)


@pytest.mark.parametrize("kind", STUDY_KINDS)
@pytest.mark.parametrize("fault", sorted(PLANNED))
@pytest.mark.parametrize("reply", [False, True], ids=["message", "reply"])
def test_a_study_message_or_its_reply_lost_duplicated_delayed_or_reordered_changes_nothing(
    kind: str, fault: str, reply: bool
) -> None:
    assert STUDIED[2] == ("e2", "f3", "h3") and isinstance(STUDIED[-3], Rejected)
    network = Network(LinkModel())
    network.plan(kind, fault, reply=reply, times=3)
    assert study(network) == STUDIED
    befell = {"drop": "dropped", "duplicate": "duplicated", "delay": "delayed", "reorder": "delayed"}[fault]
    assert network.counts[befell] >= 1, f"no {kind} {'reply ' if reply else ''}was {befell}"


@pytest.mark.parametrize("fault", sorted(PLANNED))
def test_a_piece_s_declaration_of_its_new_reach_arrives_whatever_befalls_it(fault: str) -> None:
    network = Network(LinkModel())
    network.plan("Declare", fault, times=1)
    with ActorGame("4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", network=network) as game:
        game.ask("white-bishop-c1", Learn(geometry_named("rook")))  # the bishop tells the board itself
        assert [game.propose(move).san for move in ("Kd7", "Kf2")] == ["Kd7", "Kf2"]  # type: ignore[union-attr]
        refused = game.propose("Kc6")
        assert isinstance(refused, Rejected) and "from the bishop on c1" in refused.reason
    assert network.counts["dropped" if fault == "drop" else "duplicated" if fault == "duplicate"
                          else "delayed"] == 1


def test_a_duplicated_apply_moves_nothing_twice() -> None:
    network = Network(LinkModel())
    network.plan("Apply", "duplicate", times=1000)
    network.plan("Moved", "duplicate", times=1000)
    with ActorGame(network=network) as game:
        for move in ("e4", "e5", "Nf3", "Nc6"):
            assert isinstance(game.propose(move), Accepted)
        assert game.fen() == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert network.counts["duplicated"] == 8


# -- exhausted retries and partitions


def test_a_message_lost_more_often_than_the_retries_allow_is_a_named_failure_not_a_verdict() -> None:
    network = Network(LinkModel(retries=2))
    with ActorGame(network=network) as game:
        assert isinstance(game.propose("e4"), Accepted)
        network.partition(frozenset({"referee"}), 30.0)  # longer than three attempts take
        with pytest.raises(LinkFailure, match="FenQuery from client to referee was lost 3 times"):
            game.ask("referee", FenQuery())
        assert game.plies == 1
        dropped = network.counts["dropped"]
        with pytest.raises(LinkFailure, match="the link broke"):  # nothing can come after a lost message
            game.ask("referee", FenQuery())
        assert network.counts["dropped"] == dropped  # refused at once, not sent
    assert network.counts["retried"] == 2


def test_a_board_cut_off_for_a_while_is_reached_when_the_partition_heals() -> None:
    model = LinkModel(partitions=(Partition(frozenset({"board"}), 0.3, 0.0),))
    with ActorGame(network=model) as game:
        assert isinstance(game.propose("e4"), Accepted)
        assert game.network is not None and game.network.counts["dropped"] >= 1
        board = Game()
        board.play("e4")
        assert game.fen() == board.fen()


# -- options


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("loss=2", "loss is a probability from 0 to 1, not '2'"),
        ("loss=1", "a link that loses everything"),
        ("jitter=0.1", "unknown key 'jitter'"),
        ("loss", "write KEY=VALUE"),
        ("seed=-1", "seed is a whole number"),
        ("delay=0.1:x", "a time is seconds"),
        ("dup=0.1,dup=0.2", "dup is given twice"),
        ("partition=board", "write partition=ACTOR"),
    ],
)
def test_a_malformed_network_option_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        parse_network(text)


def test_an_option_reads_back_as_written() -> None:
    written = "loss=0.05,dup=0.05,delay=0.05:0.01,reorder=0.1,seed=3,partition=board+referee:0.5@1"
    model = parse_network(written)
    assert model.text() == written
    assert parse_network(model.text()) == model


def test_a_partition_with_two_sides_cuts_only_the_links_between_them() -> None:
    model = parse_network("partition=node-1/node-2+board:0.5@1")
    assert model.text() == "seed=0,partition=node-1/board+node-2:0.5@1"
    places = {"referee": "node-1", "journal": "node-1", "white-king-e1": "node-3", "client": "driver"}
    assert model.cut("referee", "board", 1.2, places) and model.cut("board", "journal", 1.2, places)
    assert not model.cut("referee", "journal", 1.2, places), "both on node-1"
    assert not model.cut("referee", "white-king-e1", 1.2, places), "node-3 is on neither side"
    assert not model.cut("client", "referee", 1.2, places)
    assert not model.cut("referee", "board", 1.6, places), "healed"


@pytest.mark.parametrize(("text", "message"), [
    ("partition=board/:0.5", "write partition=ACTOR[+ACTOR...][/ACTOR[+ACTOR...]]:SECONDS"),
    ("partition=board/board+referee:0.5", "board cannot be on both sides of a partition"),
])
def test_a_malformed_two_sided_partition_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        parse_network(text)


def test_a_script_cuts_one_actor_off_from_another_only() -> None:
    scenario = parse_scenario("play e4\npartition referee board 0.3\nplay e5\nplay Nf3\n", "<test>")
    results = run_scenario(scenario)
    assert all(result.ok for result in results), results
    assert results[1].got == "referee cut off from board for 0.3 s"


def test_a_partition_of_an_actor_that_is_not_there_is_refused_when_the_game_starts() -> None:
    game = ActorGame(network="partition=bishop:0.5")
    with pytest.raises(InputError, match="there is no actor called 'bishop'"):
        game.start()
    assert game.network is not None


def test_a_network_object_under_a_schedule_is_refused() -> None:
    with pytest.raises(ValueError, match="runs on free actors"):
        ActorGame(network=Network(parse_network("loss=0.1")), schedule="fifo")


def test_pooled_games_over_a_network_fault_only_their_own_mail() -> None:
    from actors.game.pool import SystemPool
    from actors.kernel.messaging import ROUTES

    with SystemPool() as pool:
        for seed in (1, 2):
            network = Network(parse_network(f"loss=0.2,dup=0.2,seed={seed}"))
            with ActorGame(pool=pool, network=network) as game:
                assert [game.propose(move).san for move in ("e4", "e5", "Qh5")] == ["e4", "e5", "Qh5"]  # type: ignore[union-attr]
                assert ROUTES
            assert not ROUTES  # given back with its reliable links
            assert network.counts["dropped"] > 0
            with ActorGame(pool=pool) as plain:
                assert isinstance(plain.propose("d4"), Accepted)
        assert pool.started == 1


def test_a_lost_message_is_drawn_as_an_arrow_ending_in_a_cross_and_a_retry_names_what_it_repeats() -> None:
    from actors.tracing.mermaid import to_mermaid

    recorder = TraceRecorder()
    network = Network(LinkModel(), recorder)
    network.plan("Apply", "drop")
    with ActorGame(recorder=recorder, network=network) as game:
        assert isinstance(game.propose("e4"), Accepted)
    events = recorder.events()
    apply = next(event for event in events if event["kind"] == "Apply")
    diagram = to_mermaid(events)
    assert "referee-xboard: ✗ Apply lost (attempt 1)" in diagram
    assert f"referee-)board: ↻ Apply sent again (attempt 2, of message {apply['msg_id']})" in diagram


# -- exploring faults: every message of a ply lost, or duplicated, one at a time


@pytest.mark.parametrize("fault", ["drop", "duplicate"])
def test_every_message_of_a_capture_lost_or_duplicated_in_turn_changes_nothing(fault: str) -> None:
    from actors.study.fault_search import run_ply, search_ply

    fen, move = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "Nxe5"
    search = search_ply(fen, move, fault)
    assert search.reference.verdict_text == "accepted Nxe5"
    assert len(search.points) >= 10 and search.results() == {"same": len(search.points)}
    mark = "Dropped" if fault == "drop" else "Duplicated"
    for point in (search.points[0], search.points[len(search.points) // 2], search.points[-1]):
        run = run_ply(fen, move, {point: fault})
        assert [event["kind"] for event in run.trace].count(mark) == 1, point.text()
        assert run.points == search.reference.points and run.result(search.reference) == "same"


def test_explore_network_reports_the_fault_points_of_each_ply() -> None:
    import json
    import subprocess
    import sys

    command = ["explore", "--network", "single-loss", "--plies", "32-33", "--json"]
    done = subprocess.run([sys.executable, "-m", "actors.cli", *command], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(row["ply"], row["move"], row["changed"]) for row in rows] == [(32, "Nxb8", 0), (33, "Rd8#", 0)]
    assert all(row["fault_points"] >= 10 for row in rows)
    assert "no fault changed a verdict, a position or an invariant" in done.stderr
    bad = subprocess.run([sys.executable, "-m", "actors.cli", "explore", "--network", "single-lost"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "single-loss, single-dup" in bad.stderr


def test_a_script_s_fault_steps_befall_the_next_message_of_their_kind_and_change_no_verdict() -> None:
    from actors.study.runner import run_scenario
    from actors.study.script import parse_scenario

    script = "\n".join([
        "play e4", "drop next Apply", "play e5", "duplicate next Moved", "play Nf3",
        "delay next reply to Survey", "reorder next MoveQuery", "play Nc6", "partition board+referee 0.2",
        "play Bb5", "reject Ke2", "fen r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    ])
    recorder = TraceRecorder()
    results = run_scenario(parse_scenario(script), recorder=recorder)
    assert [result.ok for result in results] == [True] * 12, [result.got for result in results]
    assert results[1].got == "the next Apply will be lost"
    kinds = Counter(event["kind"] for event in recorder.events())
    assert kinds["Dropped"] >= 1 and kinds["Duplicated"] == 1
    assert kinds["Delayed"] >= 2 and kinds["Retried"] >= 1


def test_the_actor_base_does_not_import_the_turnstile_nor_the_network() -> None:
    import subprocess
    import sys

    later = ("actors.kernel.schedule", "actors.kernel.network", "actors.kernel.packets")
    code = f"import sys, actors.kernel.actor; print(sorted(m for m in sys.modules if m in {later!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_game_without_a_network_or_schedule_sends_straight_to_the_inbox() -> None:
    from actors.kernel.messaging import ROUTES

    with ActorGame() as game:
        assert isinstance(game.propose("e4"), Accepted)
        assert not ROUTES and game.network is None
