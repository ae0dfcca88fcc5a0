"""A lost node is healed as one event: its actors start again on a survivor, counted once against
the restart intensity, and the game goes on to the verdicts of one process. With a seed, a replay
on nodes over failing links is the same in every process, and what Ray carries late is not lost."""

from __future__ import annotations

import json
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest

from actors.clusters.node_process import NodeHost
from actors.clusters.nodes import Nodes
from actors.game.game import ActorGame
from actors.game.replay import embedded_game
from actors.protocol import Accepted
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError
from board.games.replay import replay_direct
from board.notation.pgn import read_games
from tests.helpers.extras import needs
from tests.helpers.processes import alive, living_descendants
from tests.helpers.seeded_replays import assert_alike, finished, replay_in_process
from tests.helpers.support import accepted

pytestmark = needs("ray")


def test_the_node_holding_every_piece_killed_mid_game_is_one_restart_and_the_game_goes_on() -> None:
    with embedded_game() as text:
        [game] = read_games(text)  # the Opera game: 33 plies to mate
    moves = [token.text for token in game.moves]
    expected = replay_direct(game).as_json()
    with Nodes(3, "local") as nodes, ActorGame(nodes=nodes) as actor_game:
        held = [name for name, node in nodes.placed.items() if node == "node-3"]
        assert len(held) == 32, "the role placement puts every piece on node 3"
        for move in moves[:12]:
            assert isinstance(actor_game.propose(move), Accepted)
        os.kill(nodes.pids["node-3"], signal.SIGKILL)  # more actors than the intensity allows restarts
        for move in moves[12:]:
            assert isinstance(actor_game.propose(move), Accepted), move
        assert actor_game.supervisor.restarts == 1, "the node's 32 actors were one restart"
        assert "node-3" in nodes.dead
        standing = {entry.name for entry in actor_game.supervisor.roster().entries}
        assert {nodes.placed[name] for name in held if name in standing} <= {"node-1", "node-2"}
        assert actor_game.supervisor.disagreements() == []
        fen = actor_game.fen()
    assert (actor_game.plies, fen, actor_game.outcome) == (expected["plies"], expected["fen"], "checkmate")


@pytest.mark.parametrize(("kind", "restarts"), [("MoveQuery", 1), ("Moved", 3)])
def test_a_node_lost_mid_ply_is_one_restart_and_the_game_goes_on(kind: str, restarts: int) -> None:
    # Node 3 holds every piece; it ends (as a SIGKILL ends it) when the next MoveQuery or Moved
    # arrives for one of them: in the middle of ply 13. Lost on a MoveQuery, the referee's question
    # fails and the node's 32 actors are one restart. Lost on a Moved, the board was making the
    # move: the board fails with it (its Moved unanswered), and so does the referee (which no
    # longer knows whether the ply was made): one restart each besides the node's.
    with embedded_game() as text:
        [game] = read_games(text)
    moves = [token.text for token in game.moves]
    expected = replay_direct(game).as_json()
    with Nodes(3, "local") as nodes, ActorGame(nodes=nodes) as actor_game:
        for move in moves[:12]:
            accepted(actor_game, move)
        nodes.kill_on_next("node-3", kind)
        for move in moves[12:]:
            accepted(actor_game, move)
        assert "node-3" in nodes.dead, "the node ended mid-ply"
        assert actor_game.supervisor.restarts == restarts, "the node's 32 actors were one restart"
        assert actor_game.supervisor.disagreements() == []
        with pytest.raises(InputError, match="no running node called 'node-3'"):
            nodes.kill_on_next("node-3", kind)
        fen = actor_game.fen()
    assert (actor_game.plies, fen, actor_game.outcome) == (expected["plies"], expected["fen"], "checkmate")


def test_the_same_seed_replays_ten_real_games_alike_on_nodes_in_three_processes(tmp_path: Path) -> None:
    # The same events in the same order, ids included: the processes' threads take the mail in their
    # own order, and each game's events are numbered by their causes when it ends.
    # Each process starts a Ray of its own: two at a time, so that three Rays do not share two cores.
    on_nodes = ("--nodes", "2", "--ray", "local")
    traces = {seed: tmp_path / f"trace-{seed}.jsonl" for seed in (1, 2, 3)}
    started = [replay_in_process(seed, tmp_path, *on_nodes) for seed in (1, 2)]
    try:
        runs = [finished(started[0], traces[1])]
        started.append(replay_in_process(3, tmp_path, *on_nodes))
        runs += [finished(started[1], traces[2]), finished(started[2], traces[3])]
    finally:
        for process in started:  # a run that failed leaves none behind it
            if process.poll() is None:
                process.kill()
                process.wait()
    assert_alike(runs, 10_000)
    crossing = sum(1 for event in runs[0][1]
                   if len({json.loads(event)["sender_node"], json.loads(event)["receiver_node"]}) == 2)
    assert crossing > 1_000, "the games' messages crossed between processes"


class _SlowCaptures(NodeHost):
    """A node on which a ``Captured`` tell takes a second to reach its piece (Ray gives no order
    between the calls of two senders, so a tell may land after a later call from elsewhere)."""

    def deliver(self, origin: str, seq: int, urn: str, payload: bytes, asked: bool) -> Any:
        if not asked and type(pickle.loads(payload).message).__name__ == "Captured":
            time.sleep(1.0)
        return super().deliver(origin, seq, urn, payload, asked)


def test_a_tell_that_lands_late_still_reaches_its_piece_before_the_game_s_nodes_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ray import cloudpickle

    import actors.clusters.nodes

    monkeypatch.setattr(actors.clusters.nodes, "NodeHost", _SlowCaptures)
    module = sys.modules[__name__]
    cloudpickle.register_pickle_by_value(module)  # the node processes cannot import this module
    recorder = TraceRecorder()
    placement = "referee=1,board=2,white=3,black=1"  # the board tells a black piece, asks a white one
    try:
        with (
            Nodes(3, "local", placement=placement) as nodes,
            ActorGame(recorder=recorder, nodes=nodes) as game,
        ):
            for move in ("e4", "d5", "exd5"):  # the game ends at once on a capture
                accepted(game, move)
    finally:
        cloudpickle.unregister_pickle_by_value(module)
    captured = [(event["sender_node"], event["receiver"], event["receiver_node"])
                for event in recorder.events() if event["kind"] == "Captured"]
    assert captured == [("node-2", "black-pawn-d7", "node-1")], "the taken pawn heard of it before it stopped"


ROOT = Path(__file__).resolve().parents[2]
GAME_OF_THE_CENTURY = ROOT / "tests" / "data" / "game-of-the-century.pgn"  # 82 plies to mate
NODE_LINE = re.compile(r"^  (node-\d+) \(pid (\d+)\): (\d+) actors?\b")


def _replay(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "actors.cli", "replay", str(GAME_OF_THE_CENTURY), "--json", *arguments]


def _lines_until(stream: IO[str], last: str) -> list[str]:
    """The lines of ``stream`` up to the first that starts with ``last`` (which is included)."""
    lines: list[str] = []
    while not lines or not lines[-1].startswith(last):
        line = stream.readline()
        assert line, f"the replay ended before saying {last!r}: {''.join(lines)}"
        lines.append(line)
    return lines


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_replay_on_three_nodes_goes_on_with_one_process_verdicts_after_its_fullest_node_is_killed() -> None:
    alone = subprocess.run(_replay(), cwd=ROOT, capture_output=True, text=True, check=False, timeout=120)
    assert alone.returncode == 0, alone.stderr
    [game] = read_games(GAME_OF_THE_CENTURY.read_text(encoding="utf-8"))
    assert json.loads(alone.stdout) == replay_direct(game).as_json()
    replay = subprocess.Popen(_replay("--nodes", "3", "--ray", "local", "--pause-after", "40"), cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started: list[int] = []
    try:
        assert replay.stderr is not None
        said = _lines_until(replay.stderr, "  go on with:")
        paused = said.index(next(line for line in said if line.startswith("paused")))
        assert said[paused].startswith("paused after ply 40 of game 1, no move in flight: "
                                       f"this replay (pid {replay.pid}) has stopped itself")
        held = {match[1]: (int(match[2]), int(match[3]))
                for match in map(NODE_LINE.match, said[paused + 1:]) if match}
        assert sorted(held) == ["node-1", "node-2", "node-3"], said
        fullest = max(held, key=lambda node: held[node][1])
        node_pid = held[fullest][0]
        deadline = time.monotonic() + 30  # the lines come just before the replay stops itself
        while _state(replay.pid) != "T" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _state(replay.pid) == "T", "the replay did not stop itself after the lines"
        started = living_descendants(replay.pid)
        assert node_pid in started, "the node is a process of the Ray this replay started"
        os.kill(node_pid, signal.SIGKILL)
        os.kill(replay.pid, signal.SIGCONT)
        stdout, stderr = replay.communicate(timeout=240)
    finally:
        if replay.poll() is None:
            os.kill(replay.pid, signal.SIGCONT)
            replay.kill()
            replay.wait()
    assert replay.returncode == 0, stderr[-3000:]
    assert stdout == alone.stdout, "the verdicts, the last position and the outcome of one process"
    after = stderr.splitlines()
    assert "going on after ply 40 of game 1" in after
    restarts = after.index(f"restarts in game 1: 1 (nodes gone: {fullest})")  # its actors, one restart
    assert f"  {fullest} (pid {node_pid}): gone" in after[restarts + 1:restarts + 4]
    deadline = time.monotonic() + 30
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert alive(started) == [], "a process of the replay's Ray is still running"
