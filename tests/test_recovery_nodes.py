"""A lost node is healed as one event: its actors start again on a survivor, counted once against
the restart intensity, and the game goes on to the verdicts of one process. With a seed, a replay
on nodes over failing links is the same in every process, and what Ray carries late is not lost."""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support import accepted
from test_recovery import _assert_alike, _finished, _replay_in_process

from actors.client.game import ActorGame
from actors.client.node_process import NodeHost
from actors.client.nodes import Nodes
from actors.client.replay import embedded_game
from actors.protocol import Accepted
from actors.tracing.recorder import TraceRecorder
from board.games.replay import replay_direct
from board.notation.pgn import read_games

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="needs the 'cluster' extra")


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


def test_the_same_seed_replays_ten_real_games_alike_on_nodes_in_three_processes(tmp_path: Path) -> None:
    # Each process starts a Ray of its own: two at a time, so that three Rays do not share two cores.
    on_nodes = ("--nodes", "2", "--ray", "local")
    traces = {seed: tmp_path / f"trace-{seed}.jsonl" for seed in (1, 2, 3)}
    started = [_replay_in_process(seed, tmp_path, *on_nodes) for seed in (1, 2)]
    try:
        runs = [_finished(started[0], traces[1])]
        started.append(_replay_in_process(3, tmp_path, *on_nodes))
        runs += [_finished(started[1], traces[2]), _finished(started[2], traces[3])]
    finally:
        for process in started:  # a run that failed leaves none behind it
            if process.poll() is None:
                process.kill()
                process.wait()
    _assert_alike(runs)
    crossing = sum(count for event, count in runs[0][1].items()
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

    import actors.client.nodes

    monkeypatch.setattr(actors.client.nodes, "NodeHost", _SlowCaptures)
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
