"""Links that fail under a delivery turnstile: the shell, step mode and the order explorer over a link model.

The turnstile's clock is the schedule's, and every fault is decided by a seed or chosen by hand, so
what each test asserts is decided by its inputs, never by the machine's speed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from actors.game.game import ActorGame
from actors.game.replay import MoveReport
from actors.kernel.errors import LinkFailure
from actors.kernel.links import COUNTED, parse_network
from actors.kernel.network import Network
from actors.protocol.referee import Accepted, FenQuery
from actors.study.shell import Shell
from actors.study.shell_words import DELIVERY_VERBS
from actors.tracing.recorder import TraceRecorder
from tests.helpers.self_play import self_play_games

SHELL = [sys.executable, "-m", "actors.cli", "shell"]
FAULTS = ("Dropped", "Duplicated", "Delayed", "Retried")


Judged = tuple[list[str], str, dict[str, int] | None, list[str]]


def judged(moves: list[str], schedule: str, network: str | None) -> Judged:
    """Each move's verdict, the position after, what befell the messages, and the kinds of the trace."""
    recorder = TraceRecorder()
    verdicts = []
    with ActorGame(recorder=recorder, schedule=schedule, network=network) as game:
        for move in moves:
            reply = game.propose(move)
            accepted = isinstance(reply, Accepted)
            verdicts.append(f"accepted {reply.san}" if accepted else f"rejected {reply.reason}")  # type: ignore[union-attr]
        fen = game.fen()
        counts = dict(game.links.counts) if game.links is not None else None
    return verdicts, fen, counts, [event["kind"] for event in recorder.events()]


@pytest.mark.parametrize("schedule", ["fifo", "random(7)"])
def test_games_over_failing_links_under_a_schedule_end_as_over_reliable_ones(schedule: str) -> None:
    totals: Counter[str] = Counter()
    for game in self_play_games(6, seed=11, max_plies=30):
        moves = [move.text for move in game.moves]
        reference = judged(moves, schedule, None)
        for seed in (1, 2, 3):
            verdicts, fen, counts, _ = judged(moves, schedule, f"loss=0.05,dup=0.05,delay=0.05,seed={seed}")
            assert (verdicts, fen) == reference[:2], f"seed {seed} changed a verdict of {game.headers}"
            assert counts is not None
            totals.update(counts)
    assert all(totals[name] > 0 for name in COUNTED), totals


def test_the_same_seed_under_the_same_schedule_gives_the_same_faults_and_trace() -> None:
    moves = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
    first = judged(moves, "random(3)", "loss=0.1,dup=0.1,delay=0.1,reorder=0.1,seed=4")
    again = judged(moves, "random(3)", "loss=0.1,dup=0.1,delay=0.1,reorder=0.1,seed=4")
    other = judged(moves, "random(3)", "loss=0.1,dup=0.1,delay=0.1,reorder=0.1,seed=5")
    assert first == again
    assert first[2] != other[2]
    assert set(FAULTS) <= set(first[3])


def test_a_network_object_under_a_schedule_is_refused_and_its_model_is_taken() -> None:
    with pytest.raises(ValueError, match="runs on free actors"):
        ActorGame(network=Network(parse_network("loss=0.1")), schedule="fifo")
    game = ActorGame(network="loss=0.1", schedule="fifo")
    assert game.network is None and game.links is not None and game.links.model.loss == 0.1


def test_a_message_lost_more_often_than_the_retries_allow_is_a_named_failure() -> None:
    with ActorGame(schedule="fifo", network="retries=2") as game:
        links = game.links
        assert links is not None and isinstance(game.propose("e4"), Accepted)
        links.partition(frozenset({"referee"}), 30.0)  # longer than three attempts take
        with pytest.raises(LinkFailure, match="FenQuery from client to referee was lost 3 times"):
            game.ask("referee", FenQuery())
        assert game.plies == 1
        dropped = links.counts["dropped"]
        with pytest.raises(LinkFailure, match="the link broke"):  # nothing can come after a lost message
            game.ask("referee", FenQuery())
        assert links.counts["dropped"] == dropped, "refused at once, not sent"
        assert links.failures == ["FenQuery from client to referee was lost 3 times"]
    assert links.counts["retried"] == 2


@pytest.mark.parametrize("fault", ["drop", "duplicate", "delay", "reorder"])
@pytest.mark.parametrize("kind", ["ProposeText", "MoveQuery", "Survey", "Apply", "Moved", "Record"])
def test_a_shell_step_befalling_the_next_message_of_a_kind_changes_no_verdict(fault: str, kind: str) -> None:
    with Shell() as shell:
        for move in ("e4", "e5"):
            shell.execute(move)
        assert shell.execute(f"{fault} next {kind}")[0].ok  # type: ignore[union-attr]
        assert shell.execute(f"{fault} next reply to {kind}")[0].ok  # type: ignore[union-attr]
        shown = shell.execute("Nf3")[0]
        assert isinstance(shown, MoveReport) and shown.san == "Nf3", shown
        assert shell.execute("fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")[0].ok  # type: ignore[union-attr]
        kinds = [event["kind"] for event in shell.recorder.events()]
        marks = {"drop": "Dropped", "duplicate": "Duplicated", "delay": "Delayed", "reorder": "Delayed"}
        assert marks[fault] in kinds


def _stepped_to_the_survey(shell: Shell) -> None:
    shell.execute("e4")
    shell.execute("e5")
    shell.execute("mode step")
    shell.execute("Nf3")
    shell.execute("step")
    assert [item.kind for item in shell.pending()] == ["MoveQuery", "MoveQuery", "Survey"]


def test_a_delivery_dropped_by_hand_is_sent_again_and_arrives_after_what_could_run() -> None:
    assert DELIVERY_VERBS == ("deliver", "drop", "duplicate")
    with Shell() as shell:
        _stepped_to_the_survey(shell)
        shown = shell.execute("drop 3")
        assert shown[0] == ("  dropped: board <- referee: Survey; sent again (attempt 2),"
                            " it arrives 0.2 ms later")
        waiting = shell.pending()
        assert [(item.number, item.kind) for item in waiting] == [(1, "MoveQuery"), (2, "MoveQuery"),
                                                                  (None, "Survey")]
        assert "on its way" in waiting[2].waits
        steps = shell.execute("run")
        assert isinstance(steps[-1], MoveReport) and steps[-1].san == "Nf3"
        delivered = [line for line in steps if isinstance(line, str) and "delivered:" in line]
        assert "board <- referee: Survey" in delivered[3], "both knights answered and were heard first"
        events = shell.recorder.events()
        survey = next(event for event in events if event["kind"] == "Survey" and event["ply"] == 3)
        marks = [(event["kind"], event["payload"]["attempt"]) for event in events
                 if event["parent_id"] == survey["msg_id"] and event["kind"] in FAULTS]
        assert marks == [("Dropped", 1), ("Retried", 2)]
        assert shell.game.links is not None and shell.game.links.counts["dropped"] == 1


def test_a_delivery_duplicated_by_hand_is_handled_once() -> None:
    with Shell() as shell:
        _stepped_to_the_survey(shell)
        shown = shell.execute("duplicate 3")
        assert shown[0].startswith("  duplicated: board <- referee: Survey; the copy arrives too")
        assert [item.number for item in shell.pending()] == [1, 2, 3], "nothing else changed"
        shell.execute("run")
        events = shell.recorder.events()
        assert sum(1 for event in events if event["kind"] == "Survey" and event["ply"] == 3) == 1
        assert sum(1 for event in events if event["kind"] == "Duplicated") == 1
        assert shell.execute("board")[0].fen.startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/")  # type: ignore[union-attr]


def test_a_reply_dropped_by_hand_reaches_its_asker_later() -> None:
    with Shell() as shell:
        _stepped_to_the_survey(shell)
        shell.execute("deliver 1")
        resumes = [item for item in shell.pending() if item.kind == "resume"]
        assert [item.actor for item in resumes] == ["referee"]
        number = resumes[0].number
        shown = shell.execute(f"drop {number}")
        assert shown[0].startswith(
            "  dropped: the reply to MoveQuery from white-knight-b1 to referee; sent again")
        assert all(item.kind != "resume" for item in shell.pending())
        assert isinstance(shell.execute("run")[-1], MoveReport)


def test_dropping_a_message_past_the_retries_fails_its_asker_by_name_and_the_game_heals() -> None:
    with Shell(network=parse_network("retries=0")) as shell:
        shell.execute("mode step")
        shell.execute("Nf3")
        shown = shell.execute("drop 1")
        assert shown[0] == ("  dropped: referee <- client: ProposeText, for good (ProposeText from client to"
                            " referee was lost 1 times)")
        shown = shell.execute("run")
        assert isinstance(shown[-2], MoveReport) and shown[-2].san == "Nf3"
        assert shown[-1] == "  the supervisor restarted referee"
        assert shell.game.links is not None
        assert shell.game.links.failures == ["ProposeText from client to referee was lost 1 times"]


def test_the_shell_over_a_network_plays_and_says_what_befell_the_messages() -> None:
    done = subprocess.run([*SHELL, "--network", "loss=0.1,dup=0.1,seed=3"], input="e4\ne5\nNf3\nNc6\n",
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "✓ ply   4  2...   Nc6" in done.stdout
    # Start-up crosses reliable links (as a network joins the actors once they have started): these
    # are the four plies' faults, the seed's every time.
    assert done.stdout.splitlines()[-1] == ("network loss=0.1,dup=0.1,seed=3: dropped 3, duplicated 4,"
                                            " delayed 0, retried 3")


@pytest.mark.parametrize(("option", "message"), [
    ("loss=2", "network option 'loss=2': loss is a probability from 0 to 1, not '2'"),
    ("partition=nobody:1", "network option 'partition=nobody:1': there is no actor called 'nobody'"),
])
def test_a_bad_network_option_on_the_shell_is_one_line_and_exit_2(option: str, message: str) -> None:
    done = subprocess.run([*SHELL, "--network", option], input="e4\n", capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith(f"chess-actors shell: {message}") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


EXPLORE = [sys.executable, "-m", "actors.cli", "explore"]


def test_explore_over_a_link_model_runs_each_order_under_its_faults_and_agrees_with_reliable_links() -> None:
    command = [*EXPLORE, "--network", "loss=0.1,dup=0.1,delay=0.1,seed=1", "--plies", "30-33",
               "--orders", "5", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record["ply"] for record in records] == [30, 31, 32, 33]
    assert all(all(record["same"].values()) for record in records)
    assert all(record["network"]["model"] == "loss=0.1,dup=0.1,delay=0.1:5e-05,seed=1" for record in records)
    assert sum(record["network"]["dropped"] for record in records) > 0
    assert sum(record["network"]["duplicated"] for record in records) > 0
    again = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert [json.loads(line)["network"] for line in again.stdout.splitlines()] == [
        record["network"] for record in records], "the same seed gives the same faults"


def test_explore_over_links_that_give_up_finds_the_named_failure_and_writes_its_trace(tmp_path: Path) -> None:
    trace = tmp_path / "lost.jsonl"
    done = subprocess.run([*EXPLORE, "--network", "loss=0.3,retries=0,seed=1", "--plies", "3",
                           "--orders", "5", "--counterexample", str(trace)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    assert "ply 3 Nf3 over links loss=0.3,seed=1,retries=0 (dropped 9" in done.stdout
    assert "changed over these links under this order" in done.stdout
    assert "gives failure: white-knight-b1 could not answer MoveQuery" in done.stdout
    kinds = [json.loads(line)["kind"] for line in trace.read_text().splitlines()]
    assert "Dropped" in kinds and "ProposeText" in kinds


def test_what_a_sender_sent_after_a_dropped_message_arrives_after_it() -> None:
    from actors.kernel.messaging import ask, post, wait_one
    from actors.kernel.policies import Fifo
    from actors.kernel.schedule import Turnstile
    from actors.kernel.scheduled_links import ScheduledLinks

    turnstile = Turnstile(Fifo())
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder, schedule=turnstile) as game:
        turnstile.attach(ScheduledLinks())
        referee = game.supervisor.ref("referee")
        recorder.clear()
        futures = [ask(referee, "referee", post(recorder, "client", "referee", FenQuery(), ply=ply))
                   for ply in (1, 2, 3)]
        [head] = turnstile.ready()
        assert "dropped: referee <- client: FenQuery; sent again" in turnstile.befall(head, "drop")
        assert turnstile.queued() == [], "the two behind it wait for it"
        assert [item.actor for item, _ in turnstile.on_the_way()] == ["referee"] * 3
        for name, future in futures:
            assert wait_one(name, future, 5).fen.startswith("rnbqkbnr")
    handled = [event for event in recorder.events() if event["kind"] == "FenQuery"]
    assert [event["ply"] for event in sorted(handled, key=lambda event: event["t_handled"])] == [1, 2, 3]
