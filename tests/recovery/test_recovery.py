"""Recovery that never changes a verdict: incarnations, heals that carry one whole record, one seed one run.

A restarted actor is a new incarnation: its links start afresh, and the one it replaced changes
nothing. A heal tells each piece all of what the board and the journal hold of it, and waits for
every answer. With a seed, a replay over failing links is the same in every process.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from actors.game.game import ActorGame
from actors.kernel.control import HangOnNext
from actors.kernel.errors import ActorFailure, LinkFailure
from actors.kernel.links import LinkModel
from actors.kernel.messaging import Envelope
from actors.kernel.network import Network
from actors.protocol import Accepted, Rejected
from actors.protocol.board import Declare
from actors.protocol.piece import TargetsQuery
from actors.study.runner import run_scenario
from actors.study.script import parse_scenario
from actors.tracing.recorder import TraceRecorder
from tests.helpers.seeded_replays import DATA, assert_alike, finished, replay_in_process


def run_script(text: str) -> list[tuple[bool, str]]:
    return [(result.ok, result.got) for result in run_scenario(parse_scenario(text))]


# -- incarnations


def test_a_restarted_sender_starts_a_new_link_and_does_not_inherit_its_predecessor_s_broken_one() -> None:
    # This thread speaks for the knight twice, as a reused thread ident once did for two of its
    # incarnations: the first's link to the board breaks on a message lost for good, and the
    # second's must start afresh (and the client's own link, from this thread too, stays whole).
    network = Network(LinkModel(retries=0))
    with ActorGame(network=network) as game:
        board = game.supervisor.ref("board")
        first = game.supervisor.ref("white-knight-g1")
        assert board is not None and first is not None
        declare = Declare("white-knight-g1", 6, ((21, (), "any"), (23, (), "any")), True, "knight")
        network.plan("Declare", "drop")
        network.tell(board, Envelope(declare, "white-knight-g1", None, None))
        assert "lost 1 times" in str(network.told("white-knight-g1", 2.0))  # the first knight's link broke
        game.crash("white-knight-g1")
        assert isinstance(game.propose("Nf3"), Accepted)  # healed: the knight is a new incarnation
        second = game.supervisor.ref("white-knight-g1")
        assert second is not None and second is not first
        network.tell(board, Envelope(declare, "white-knight-g1", None, None))
        assert network.told("white-knight-g1", 2.0) is None  # the new one's link carries it
        assert len(network.failures) == 1, network.failures
        assert [network.incarnation(first), network.incarnation(second)] == [
            "white-knight-g1", "white-knight-g1#2"]


def test_a_replaced_piece_that_still_runs_changes_nothing() -> None:
    # The knight stalls in a handler, is replaced, then wakes and declares a reach: fenced.
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder, timeout=0.5) as game:
        stuck = game.supervisor.ref("white-knight-g1")
        assert stuck is not None
        game.ask("white-knight-g1", HangOnNext("Moved", 1.5))
        assert isinstance(game.propose("Nf3"), Accepted)  # the board times out on Moved: healed, replaced
        replaced = game.supervisor.ref("white-knight-g1")
        assert replaced is not None and replaced is not stuck
        stuck.actor_stopped.wait(3.0)
        actor = stuck._actor_weakref()  # the old incarnation, as a stray thread would hold it
        if actor is not None:  # (it may be gone: then it can say nothing at all)
            actor.tell("board", Declare("white-knight-g1", 21, (), True, "knight"))
        assert isinstance(game.propose("e5"), Accepted)
        assert sorted(game.legal_targets("f3")) == ["d4", "e5", "g1", "g5", "h4"]
        assert game.supervisor.disagreements() == []
    if actor is not None:
        fenced = [event for event in recorder.events() if event["kind"] == "Fenced"]
        assert fenced and fenced[-1]["payload"]["message"] == "Declare", fenced


def test_mail_to_a_replaced_incarnation_is_dropped_where_it_arrives_and_marked() -> None:
    recorder = TraceRecorder()
    network = Network(LinkModel(), recorder)
    with ActorGame(recorder=recorder, network=network) as game:
        old = game.supervisor.ref("black-knight-g8")
        assert old is not None
        game.crash("black-knight-g8")
        assert isinstance(game.propose("e4"), Accepted)
        assert isinstance(game.propose("Nf6"), Accepted)  # healed on the way: a new knight moved
        with pytest.raises(ActorFailure, match="replaced"):
            reply = network.ask(old, "black-knight-g8", Envelope(TargetsQuery(), "client", None, None))
            reply.get(timeout=1.0)
    marks = [event for event in recorder.events() if event["kind"] == "Fenced"]
    assert [mark["payload"]["side"] for mark in marks] == ["receiver"]


# -- heals carry one whole record


PROMOTION_AHEAD_OF_THE_JOURNAL = """
start 7k/4P3/8/8/8/8/8/4K3 w - - 0 1
network retries=0
drop next reply to ProposeText   # the bishop is made, the client never hears of it: heal, ask again
play e8=B
square e8 white bishop white-pawn-e7
restarts 1
play Kg7
play Bb5
"""


def test_a_promotion_the_journal_never_recorded_is_undone_by_the_heal() -> None:
    results = run_script(PROMOTION_AHEAD_OF_THE_JOURNAL)
    assert all(ok for ok, _ in results), results


def test_after_heals_every_piece_answers_as_the_board_and_the_journal_hold() -> None:
    with ActorGame(network="loss=0.2,seed=4", timeout=2.0) as game:
        for number, move in enumerate(("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O")):
            if number % 3 == 1:
                game.crash(["board", "white-king-e1", "black-pawn-d7"][number // 3])
            assert isinstance(game.propose(move), Accepted), move
            game.supervisor.heal()  # a crash nobody has asked about yet is healed now
            assert game.supervisor.disagreements() == [], move
        assert game.supervisor.restarts >= 3


@pytest.mark.parametrize("lost", ["Learn", "Teach"])
def test_a_lesson_whose_reply_is_lost_for_good_is_resolved_before_the_game_goes_on(lost: str) -> None:
    # The knight on c1 learns the camel's leap (it then attacks d4); the reply that says so is lost
    # for good. The lesson is asked again after the heal, and the king may not step onto d4.
    network = Network(LinkModel(retries=0))
    with ActorGame("8/8/8/8/8/4k3/8/K1N5 b - - 0 1", network=network) as game:
        network.plan(lost, "drop", reply=True)
        learned = game.piece("c1").learn("camel")
        assert learned.refused is None and learned.label == "camel"
        assert game.supervisor.restarts == 0  # healed, with nothing to restart
        rejected = game.propose("Kd4")
        assert isinstance(rejected, Rejected), rejected
        assert game.supervisor.disagreements() == []
        assert isinstance(game.propose("Kd3"), Accepted)


# -- nothing lost in silence


def test_a_journal_cut_off_past_the_retries_fails_the_game_rather_than_lose_its_records() -> None:
    network = Network(LinkModel(retries=1))
    with ActorGame(network=network) as game:
        assert isinstance(game.propose("e4"), Accepted)
        network.partition(frozenset({"journal"}), 30.0)
        with pytest.raises(LinkFailure, match="the journal never got the record of ply 2"):
            game.propose("e5")
        with pytest.raises(LinkFailure):  # the game is over: nothing after it is played or recorded
            game.propose("Nf3")
        assert game.plies == 1


RECORD_LOST_FOR_GOOD = """
network retries=0
start startpos
drop next Record   # the journal never hears of 1. e4
play e4
"""


@pytest.mark.parametrize("schedule", ["", "schedule fifo\n"])
def test_a_record_lost_for_good_fails_the_game_on_free_actors_and_under_a_turnstile(schedule: str) -> None:
    results = run_script(schedule + RECORD_LOST_FOR_GOOD)
    assert results[-1] == (False, "actor failure: the journal never got the record of ply 1: Record from"
                                  " client to journal was lost 1 times"), results


def test_a_broken_link_between_running_actors_fails_the_game_at_once() -> None:
    # The board's word to the knight on g8 is lost for good: every later move that asks the knight
    # would fail and the others be accepted, so the game fails at the next heal, whatever it is.
    network = Network(LinkModel(retries=0))
    with ActorGame(network=network) as game:
        assert isinstance(game.propose("e4"), Accepted)
        network.plan("Moved", "drop")
        with pytest.raises(LinkFailure):
            game.propose("Nf6")
        with pytest.raises(LinkFailure, match=r"broken|lost"):
            game.propose("e5")
        assert game.plies == 1


def test_the_summary_counts_a_game_stopped_by_a_failure_apart_from_illegal_ones(
        capsys: pytest.CaptureFixture[str]) -> None:
    from actors.cli import main

    games = [str(DATA / "opera-game.pgn"), str(DATA / "immortal-game.pgn")]
    status = main(["replay", *games, "--network", "retries=1,partition=journal:60"])
    out = capsys.readouterr().out
    assert status == 1
    assert out.count("failure at ply 1: e4: the journal never got the record") == 2, out
    assert "no illegal move, 2 games stopped by a failure of the actors" in out, out


# -- the restart intensity, from the command line


CRASH_THE_BOARD_TWICE = """
start startpos
crash board
play e4
crash board
play e5
"""


@pytest.mark.parametrize(("limit", "status"), [(1, 1), (2, 0)])
def test_run_takes_the_restart_intensity_limit(tmp_path: Path, limit: int, status: int,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from actors.cli import main

    script = tmp_path / "crashes.scenario"
    script.write_text(CRASH_THE_BOARD_TWICE)
    assert main(["run", str(script), "--max-restarts", str(limit)]) == status
    out = capsys.readouterr().out
    assert ("2 restarts within 5 s (the limit is 1)" in out) == (limit == 1), out


@pytest.mark.parametrize("command", [["replay"], ["run", "x.scenario"], ["shell"], ["studio"]])
def test_each_command_that_runs_actors_takes_max_restarts(command: list[str]) -> None:
    from actors.cli import build_parser

    parser = build_parser()
    assert parser.parse_args([*command, "--max-restarts", "3"]).max_restarts == 3
    assert parser.parse_args(command).max_restarts == 10


def test_a_max_restarts_that_is_no_count_is_one_clear_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from actors.cli import main

    assert main(["replay", "--max-restarts", "-1"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "'-1' is not a count of restarts" in error, error


# -- one seed, one run


def test_the_same_seed_replays_ten_real_games_alike_in_three_processes(tmp_path: Path) -> None:
    # The same events in the same order, ids included: each game runs under a turnstile in arrival
    # order, so the seed decides the order of deliveries as well as every fault.
    processes = [(replay_in_process(seed, tmp_path), tmp_path / f"trace-{seed}.jsonl") for seed in (1, 2, 3)]
    assert_alike([finished(process, trace) for process, trace in processes], 5_000)
