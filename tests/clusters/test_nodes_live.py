"""The shell and the live studio over a game whose actors run on node processes (Ray's single-machine
mode, loopback only): the verdicts of one process, a trace that names every message's nodes after each
command, deliveries by hand refused in one line, and nothing left running when the command ends.

One local Ray and one set of three nodes serve the module (starting Ray takes seconds).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from actors.clusters.nodes import Nodes
from actors.clusters.ray_carrier import DRIVER
from actors.game.replay import MoveReport
from actors.studio.live import LiveGame
from actors.study.runner import run_scenario
from actors.study.script import parse_scenario
from actors.study.shell import Shell
from actors.study.shell_words import BY_HAND_VERBS
from actors.tracing.export import placing_nodes
from board.errors import InputError
from board.games.replay import replay_direct
from tests.helpers.extras import import_or_skip, needs
from tests.helpers.live_studio import studio_running
from tests.helpers.processes import DRIVER_ACTORS, process_family
from tests.helpers.self_play import self_play_games

pytestmark = needs("ray")

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0  # seconds a subprocess may take at most (Ray starts in it): a bound, never a timing relied on


@pytest.fixture(scope="module")
def nodes() -> Iterator[Nodes]:
    with Nodes(3, "local", "colour") as started:
        yield started


def _named_by_node(events: list[dict[str, Any]], placed: dict[str, str]) -> None:
    """Every delivery names the node of its sender and of its receiver, as the placement put them (a
    restart or a fault is marked by the process where it happened)."""
    for event in events:
        if placing_nodes(event) is None:  # a mark, noted where it happened
            assert event["receiver_node"] == event["sender_node"], event
            continue
        sender, receiver = event["sender"], event["receiver"]
        assert event["sender_node"] == (DRIVER if sender in DRIVER_ACTORS else placed[sender]), event
        assert event["receiver_node"] == placed[receiver], event


def test_a_shell_on_nodes_plays_self_play_games_to_the_verdicts_of_one_process(nodes: Nodes) -> None:
    for game in self_play_games(3, seed=29, max_plies=40):
        direct = replay_direct(game)
        refused = direct.error.ply if direct.error is not None else None
        with Shell(nodes=nodes) as shell:
            for ply, token in enumerate(game.moves, start=1):
                marked = len(shell.recorder)
                [report] = [item for item in shell.execute(token.text) if isinstance(item, MoveReport)]
                assert report.accepted == (ply != refused), (ply, token.text, report)
                # What the nodes recorded is in the trace when the command's answer is: the move's
                # questions to pieces (run on nodes 2 and 3) among them.
                events = shell.recorder.events()[marked:]
                _named_by_node(events, nodes.placed)
                assert any(event["kind"] == "ProposeText" for event in events)
                assert {event["receiver_node"] for event in events} >= {"node-1"}
                if not report.accepted:
                    break
            [shown] = shell.execute("board")
            assert shown.fen == direct.fen  # type: ignore[union-attr]
        crossed = {(event["sender_node"], event["receiver_node"]) for event in shell.recorder.events()}
        assert {("node-1", "node-2"), ("node-1", "node-3")} <= crossed, "the referee asked pieces elsewhere"


@pytest.mark.parametrize("line", ["mode step", "pending", "step", "deliver 1", "run", "drop 1", "duplicate 2",
                                  "order referee board"])
def test_deliveries_by_hand_are_refused_on_nodes_in_one_line_and_the_game_goes_on(
    nodes: Nodes, line: str
) -> None:
    named = line if line == "mode step" else line.split()[0]
    assert named == "mode step" or named in BY_HAND_VERBS
    with Shell(nodes=nodes) as shell:
        with pytest.raises(InputError) as refused:
            shell.execute(line)
        assert str(refused.value) == (f"{named}: deliveries are chosen by hand in a game in one"
                                      " process only; on nodes the actors deliver freely over Ray's links")
        [report] = shell.execute("e4")
        assert isinstance(report, MoveReport) and report.accepted


def test_a_fault_planned_for_the_next_message_is_refused_on_nodes_but_a_partition_of_a_node_heals(
    nodes: Nodes,
) -> None:
    with Shell(nodes=nodes) as shell:
        with pytest.raises(InputError, match="drop next Apply: a step that befalls the next message"):
            shell.execute("drop next Apply")
        [cut] = shell.execute("partition node-2 0.2")
        assert cut.ok, cut  # type: ignore[union-attr]
        for move in ("e4", "e5", "Nf3"):
            [report] = shell.execute(move)
            assert isinstance(report, MoveReport) and report.accepted, report
        crash = shell.execute("crash board")
        assert crash[0].ok  # type: ignore[union-attr]
        shown = shell.execute("Nc6")
        assert isinstance(shown[0], MoveReport) and shown[0].accepted
        assert "  the supervisor restarted board" in shown[1:]
        _named_by_node(shell.recorder.events(), nodes.placed)


def test_the_live_studio_on_nodes_streams_each_node_s_messages_before_the_command_is_done(
    nodes: Nodes,
) -> None:
    messages: list[dict[str, Any]] = []
    with LiveGame(shell=Shell(nodes=nodes)) as live:
        live.subscribe(lambda text: messages.append(json.loads(text)))
        live.submit("e4").result(WAIT)
        live.submit("learn g1 camel").result(WAIT)
        live.submit("Ke3").result(WAIT)
        state = live.state(whole=True)
    done = [index for index, message in enumerate(messages) if message["type"] == "done"]
    assert [messages[index]["command"] for index in done] == ["e4", "learn g1 camel", "Ke3"]
    events = [message["event"] for message in messages[: done[0]] if message["type"] == "event"]
    assert {event["receiver_node"] for event in events} == {"node-1", "node-2", "node-3"}
    refusal = [m for m in messages[done[1]:done[2]] if m["type"] == "shown"]
    assert refusal[0]["accepted"] is False and refusal[0]["kind"] == "illegal"
    placed = state["model"]["games"][0]["nodes"]  # the page draws each node's lanes together
    assert placed == {"client": DRIVER, "supervisor": DRIVER, **nodes.placed}


def test_shell_on_nodes_from_the_command_line_shows_the_placement_and_refuses_stepping_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "shell", "--nodes", "2", "--placement", "referee=2,board=2"],
        input="e4\nmode step\ne5\nKe2\nboard\n", capture_output=True, text=True, cwd=ROOT, timeout=WAIT * 3,
    )
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "nodes: 2 node processes on a local Ray, placement referee=2,board=2",
        "  node-1: journal, 16 white pieces, 16 black pieces",
        "  node-2: board, referee",
    ]
    assert "chess> mode step" in lines and "Traceback" not in result.stdout + result.stderr
    assert "FEN rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 1 2" in lines
    assert result.stderr == ("chess-actors shell: 1 of the commands failed; the first: mode step: deliveries"
                             " are chosen by hand in a game in one process only; on nodes the actors deliver"
                             " freely over Ray's links\n")


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_studio_on_nodes_serves_a_live_game_and_a_signal_leaves_no_process_running() -> None:
    connect = import_or_skip("websockets.sync.client").connect  # the studio extra, too

    with studio_running("--nodes", "2", "--json") as process:
        assert process.stdout is not None
        address = json.loads(process.stdout.readline())
        family = process_family(process.pid)
        url = f"ws://127.0.0.1:{address['port']}/ws?token={address['token']}"
        with connect(url, open_timeout=WAIT) as client:
            assert json.loads(client.recv(WAIT))["type"] == "state"
            client.send("e4")
            nodes_seen = set()
            while (message := json.loads(client.recv(WAIT)))["type"] != "done":
                if message["type"] == "event":
                    nodes_seen |= {message["event"]["sender_node"], message["event"]["receiver_node"]}
        assert nodes_seen == {DRIVER, "node-1", "node-2"}
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=WAIT) == 0
        assert process.stderr is not None
        said = process.stderr.read()
        assert said.startswith("nodes: 2 node processes on a local Ray, placement role\n"), said
        assert "Traceback" not in said
    deadline = time.monotonic() + WAIT  # Ray's own processes end on their own, soon after
    while (left := [pid for pid in family if Path(f"/proc/{pid}").exists()]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"processes left running: {left}"


def test_a_session_on_nodes_is_saved_without_a_schedule_and_runs_again_on_nodes(
    nodes: Nodes, tmp_path: Path
) -> None:
    script = tmp_path / "session.scenario"
    with Shell(nodes=nodes) as shell:
        for line in ("e4", "e5", "learn g1 camel", "Ke3", "crash board", "Nf3", "board", f"save {script}"):
            shell.execute(line)
    lines = script.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("start ") and "schedule fifo" not in lines  # nodes deliver freely
    assert lines[1:6] == ["play e4", "play e5", "learn g1 camel", "reject Ke3", "crash board"]
    results = run_scenario(parse_scenario(script.read_text(encoding="utf-8"), str(script)), nodes=nodes)
    assert [result.ok for result in results] == [True] * len(lines)
