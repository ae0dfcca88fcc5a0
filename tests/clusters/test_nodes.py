"""A game's actors on several node processes (Ray's single-machine mode, loopback only): the same
verdicts as in one process, a trace that names every message's nodes, a node killed mid-game healed.

One local Ray and one set of three nodes serve the whole module (starting Ray takes seconds).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from actors.clusters.nodes import Nodes
from actors.clusters.ray_carrier import DRIVER
from actors.examples import examples
from actors.game.game import ActorGame
from actors.game.placement import Placement, parse_placement, spread
from actors.game.pool import SystemPool
from actors.game.replay import embedded_game, watch_game
from actors.kernel.errors import ActorFailure, ActorUnavailable, LinkFailure
from actors.kernel.links import COUNTED, FAULT_KINDS, LinkModel, parse_network
from actors.protocol.referee import Accepted, FenQuery
from actors.study.runner import run_scenario
from actors.study.script import parse_scenario
from actors.tracing.event import TraceEvent
from actors.tracing.mermaid import to_mermaid
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError
from board.games.game import Game
from board.games.replay import replay_direct
from board.notation.pgn import PgnGame, read_games
from tests.helpers.extras import needs
from tests.helpers.processes import DRIVER_ACTORS, process_family
from tests.helpers.self_play import outcome_of, self_play_games

# Ray is looked for, not imported: it reads how to listen (loopback only) when it is first imported.
pytestmark = needs("ray")

RUY_LOPEZ = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 *\n"

@pytest.fixture(scope="module")
def nodes() -> Iterator[Nodes]:
    with Nodes(3, "local") as started:
        yield started


def _check_nodes_named(events: list[TraceEvent], placed: dict[str, str]) -> None:
    """Every event names the node of its sender and of its receiver, as the placement put them."""
    for event in events:
        sender, receiver = event["sender"], event["receiver"]
        assert event["sender_node"] == (DRIVER if sender in DRIVER_ACTORS else placed[sender]), event
        assert event["receiver_node"] == placed[receiver], event


def test_ten_self_play_games_on_three_nodes_end_as_in_one_process(nodes: Nodes) -> None:
    games = self_play_games(10, seed=29)
    expected = [outcome_of(watch_game(game)) for game in games]
    assert expected == [outcome_of(replay_direct(game)) for game in games]
    assert sum(1 for item in expected if item[3] is not None) >= 2, "some games stop at an illegal try"
    named: set[str] = set()
    crossed = 0
    for game, wanted in zip(games, expected, strict=True):
        recorder = TraceRecorder()
        assert outcome_of(watch_game(game, recorder=recorder, nodes=nodes)) == wanted
        events = recorder.events()
        _check_nodes_named(events, nodes.placed)
        ids = [event["msg_id"] for event in events]
        assert len(set(ids)) == len(ids), "no id is given twice across the processes"
        assert all(event["parent_id"] is None or event["parent_id"] < event["msg_id"] for event in events)
        named |= {event["sender_node"] for event in events} | {event["receiver_node"] for event in events}
        crossed += sum(1 for event in events if event["sender_node"] != event["receiver_node"])
    assert named == {DRIVER, "node-1", "node-2", "node-3"}
    assert crossed > 0


def test_a_traced_game_on_nodes_sends_the_messages_one_process_sends(nodes: Nodes) -> None:
    moves = [token.text for token in next(read_games(RUY_LOPEZ.splitlines(keepends=True))).moves]
    counts = []
    for on_nodes in (None, nodes):
        recorder = TraceRecorder()
        with ActorGame(recorder=recorder, nodes=on_nodes) as game:
            for move in moves:
                assert isinstance(game.propose(move), Accepted)
            fen = game.fen()
        counts.append((fen, recorder.counts_by_kind()))
    assert counts[0] == counts[1]


def test_a_node_killed_mid_game_is_healed_on_a_survivor_with_the_same_verdicts(nodes: Nodes) -> None:
    with embedded_game() as text:
        [game] = read_games(text)  # the Opera game: 33 plies to mate
    moves = [token.text for token in game.moves]
    expected = outcome_of(replay_direct(game))
    with Nodes(3, "local") as doomed, ActorGame(nodes=doomed) as actor_game:
        assert doomed.placed["board"] == "node-2"
        for move in moves[:10]:
            assert isinstance(actor_game.propose(move), Accepted)
        doomed.ray.kill(doomed.handles["node-2"])  # the board's node: rebuilt from the journal
        for move in moves[10:]:
            assert isinstance(actor_game.propose(move), Accepted)
        assert actor_game.supervisor.restarts >= 1
        assert "node-2" in doomed.dead and "Actor" in doomed.dead["node-2"]
        assert doomed.placed["board"] == "node-3", "restarted on the next surviving node"
        fen = actor_game.fen()
    assert (actor_game.plies, fen, actor_game.outcome) == expected[:3] == (33, expected[1], "checkmate")


def test_a_game_whose_every_node_is_gone_fails_with_a_clear_error(nodes: Nodes) -> None:
    with Nodes(1, "local") as lonely, ActorGame(nodes=lonely, max_restarts=3) as actor_game:
        assert isinstance(actor_game.propose("e4"), Accepted)
        lonely.ray.kill(lonely.handles["node-1"])
        with pytest.raises(ActorUnavailable, match=r"the journal is not running \(on node-1\)"):
            actor_game.propose("e5")


def test_the_placements_put_each_actor_where_they_say() -> None:
    names = ["journal", "board", "white-king-e1", "black-knight-g8", "referee"]
    assert spread(Placement("role"), 3, names) == {
        "node-1": ["journal", "referee"], "node-2": ["board"], "node-3": ["white-king-e1", "black-knight-g8"]}
    assert spread(parse_placement("color"), 3, names) == {
        "node-1": ["journal", "board", "referee"], "node-2": ["white-king-e1"], "node-3": ["black-knight-g8"]}
    assert spread(parse_placement("round-robin"), 2, names) == {
        "node-1": ["journal", "white-king-e1", "referee"], "node-2": ["board", "black-knight-g8"]}
    listed = parse_placement("referee=2, black=3, black-knight-g8=1, pieces=2")
    assert spread(listed, 3, names) == {
        "node-1": ["journal", "board", "black-knight-g8"], "node-2": ["white-king-e1", "referee"],
        "node-3": []}, "what is not named goes to node 1; a name is more particular than its colour"
    assert spread(Placement("role"), 2, names)["node-1"] == [
        "journal", "white-king-e1", "black-knight-g8", "referee"], "node 3 of 2 wraps round to node 1"


@pytest.mark.parametrize(("text", "message"), [
    ("everywhere", "unknown placement"),
    ("referee=0", "a number from 1"),
    ("queen=2", "unknown actor 'queen'"),
    ("board=1,board=2", "given twice"),
])
def test_a_bad_placement_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_placement(text)


def _replay(*arguments: str, hide_ray: bool = False) -> subprocess.CompletedProcess[str]:
    code = ("import sys; sys.modules['ray'] = None\n" if hide_ray else "import sys\n") + (
        "from actors.cli import main\n"
        f"sys.exit(main(['replay', *{list(arguments)!r}]))"
    )
    command = [sys.executable, "-c", code]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)


def test_replay_on_three_local_nodes_prints_the_verdicts_of_one_process(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    here = _replay("--json")
    there = _replay("--json", "--nodes", "3", "--ray", "local", "--placement", "colour",
                    "--trace", str(trace))
    assert there.returncode == here.returncode == 0, there.stderr[-2000:]
    assert there.stdout == here.stdout
    assert there.stderr.splitlines() == [
        "nodes: 3 node processes on a local Ray, placement colour",
        "  node-1: journal, board, referee",
        "  node-2: 16 white pieces",
        "  node-3: 16 black pieces",
    ]
    lines = trace.read_text(encoding="utf-8").splitlines()
    assert lines and all('"sender_node":' in line and '"receiver_node":' in line for line in lines)


@pytest.mark.parametrize(("arguments", "message"), [
    (("--nodes", "0"), "--nodes 0: give a number of node processes from 1 to 16"),
    (("--nodes", "three"), "--nodes three: give a number"),
    (("--nodes", "2", "--placement", "by-magic"), "unknown placement"),
    (("--placement", "role"), "--placement: only with --nodes N"),
    (("--nodes", "2", "--engine", "direct"), "--nodes needs the actor engine"),
    (("--nodes", "2", "--ray", "http://somewhere"), "not a Ray address"),
    (("--nodes", "2", "--ray", "127.0.0.1:9"), "--ray 127.0.0.1:9: cannot reach a Ray cluster there"),
])
def test_bad_node_options_are_one_clear_line_and_exit_2(arguments: tuple[str, ...], message: str) -> None:
    result = _replay(*arguments)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_nodes_without_ray_say_how_to_install_it() -> None:
    result = _replay("--nodes", "2", hide_ray=True)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "--nodes needs Ray" in result.stderr
    assert "pip install" in result.stderr and "cluster" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
@pytest.mark.parametrize(("signal_number", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_replay_on_nodes_stopped_by_a_signal_leaves_no_process_running(
    tmp_path: Path, signal_number: int, status: int
) -> None:
    games = tmp_path / "many.pgn"
    texts = [" ".join(token.text for token in game.moves) + " *\n" for game in self_play_games(40, seed=7)]
    games.write_text("\n".join(texts), encoding="utf-8")
    command = [sys.executable, "-m", "actors.cli", "replay", "--nodes", "2", "--json", str(games)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().startswith('{"game": 1')
        family = process_family(process.pid)
        assert len(family) > 3, "Ray's processes and the nodes run beside the command"
        process.send_signal(signal_number)
        assert process.wait(timeout=60) == status
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    deadline = time.monotonic() + 30
    while (left := [pid for pid in family if Path(f"/proc/{pid}").exists()]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"processes left running: {left}"


def test_mermaid_draws_each_node_s_actors_in_a_box_of_its_own(nodes: Nodes) -> None:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder, nodes=nodes) as game:
        for move in ("e4", "e5", "Nf3"):
            assert isinstance(game.propose(move), Accepted)
    boxes: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in to_mermaid(recorder.events(), plies=(3, 3)).splitlines():
        words = line.split()
        if words[0] == "box":
            current = boxes.setdefault(words[-1], [])
        elif words[0] == "end" and current is not None:
            current = None
        elif words[0] == "participant":
            assert current is not None, f"{line!r} is in no node's box"
            current.append(words[-1])
    assert boxes == {"driver": ["client"], "node-1": ["referee", "journal"], "node-2": ["board"],
                     "node-3": ["white-knight-b1", "white-knight-g1"]}


def test_every_shipped_scenario_passes_on_nodes_as_in_one_process(nodes: Nodes) -> None:
    for item in examples():
        scenario = parse_scenario(item.text, item.source)
        results = run_scenario(scenario, nodes=nodes)
        failed = [result for result in results if not result.ok]
        assert not failed and len(results) == len(scenario.steps), (item.name, failed)


def test_run_on_nodes_shows_the_placement_then_the_steps() -> None:
    command = [sys.executable, "-m", "actors.cli", "run", "--example", "crash-and-restart", "--nodes", "2",
               "--placement", "referee=2,board=2"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "nodes: 2 node processes on a local Ray, placement referee=2,board=2",
        "  node-1: journal, 16 white pieces, 16 black pieces",
        "  node-2: board, referee",
    ]
    assert lines[-1].endswith("steps passed")


def test_the_studio_groups_each_node_s_lanes_and_marks_the_messages_that_crossed(
    nodes: Nodes, tmp_path: Path, browser: Any
) -> None:
    from actors.studio import write_page
    from actors.studio.model import build_model
    from tests.helpers.browser_pages import open_page

    recorder = TraceRecorder()
    with ActorGame(recorder=recorder, nodes=nodes) as game:
        for move in ("e4", "e5", "Nf3"):
            assert isinstance(game.propose(move), Accepted)
    path = tmp_path / "nodes.html"
    write_page(recorder.events(), path)
    page = open_page(browser, path, "#ply=3")
    try:
        lanes = page.locator("#diagram .lane-head").evaluate_all("all => all.map(h => h.dataset.lane)")
        bands = page.locator("#diagram .node-band").evaluate_all("all => all.map(b => b.dataset.node)")
        crossing = page.locator("#diagram g.arrow.crossing").count()
        arrows = page.locator("#diagram g.arrow").count()
    finally:
        page.close()
    assert lanes == ["client", "referee", "journal", "board", "white-knight-b1", "white-knight-g1"]
    assert bands == ["driver", "node-1", "node-2", "node-3"]
    [phase] = [phase for phase in build_model(recorder.events())["games"][0]["phases"] if phase["ply"] == 3]
    crossed = [phase["events"][index]["crossed"] for index, _ in phase["rows"]]
    assert crossing == sum(crossed) > 0 and arrows == len(crossed)
    startup = build_model(recorder.events())["games"][0]["phases"][0]
    assert not all(event["crossed"] for event in startup["events"]), "the referee asks the journal on node-1"


def test_a_piece_taught_a_move_function_on_nodes_judges_as_in_one_process(nodes: Nodes) -> None:
    def one_step_any_way(start: tuple[int, int], end: tuple[int, int]) -> object:
        """A piece that moves one square in any direction (a function of this test: it crosses by value)."""
        near = max(abs(start[0] - end[0]), abs(start[1] - end[1])) == 1
        return (end, ()) if near else None

    verdicts = []
    for on_nodes in (None, nodes):
        with ActorGame(teach={"g1": one_step_any_way, "c1": "archbishop"}, nodes=on_nodes) as game:
            verdicts.append([game.propose(move) for move in ("Nf3", "e5", "Nh3", "Nf3", "d3", "d6", "Bh6")])
    assert verdicts[0] == verdicts[1]
    assert [type(verdict).__name__ for verdict in verdicts[1]] == [
        "Rejected", "Rejected", "Rejected", "Rejected", "Accepted", "Accepted", "Accepted"]


def test_nodes_are_refused_with_a_pool_or_a_schedule_and_counted_from_one_to_sixteen() -> None:
    for extra in ({"schedule": "fifo"}, {"pool": SystemPool()}):
        with pytest.raises(ValueError, match="give nodes= without pool= or schedule="):
            ActorGame(nodes=2, **extra)  # type: ignore[arg-type]
    for count in (0, 17, True, "3"):
        with pytest.raises(InputError, match="give a number of node processes from 1 to 16"):
            ActorGame(nodes=count)  # type: ignore[arg-type]


def test_a_program_that_imported_ray_first_still_starts_a_local_ray_on_loopback_with_a_token() -> None:
    code = (
        "import os, ray\n"  # imported before chess-actors sets how a local Ray listens
        "from actors.clusters.nodes import Nodes\n"
        "with Nodes(1, 'local') as nodes:\n"  # its GCS refuses a driver without the token: it started
        "    from ray._private.ray_constants import ENABLE_RAY_CLUSTER\n"
        "    print(ENABLE_RAY_CLUSTER, os.environ['RAY_AUTH_MODE'], len(nodes.pids))\n"
    )
    command = [sys.executable, "-c", code]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["False", "token", "1"], "a single-machine Ray (loopback), with a token"


# -- links that fail between nodes


def _faulted(
    game: PgnGame, model: LinkModel, nodes: Nodes | None
) -> tuple[tuple[object, ...], dict[str, int]]:
    # In one process too on free threads over the real-time network, as on nodes (not under a
    # turnstile, whose links model no acknowledgements): the same links' model, the same faults.
    faults: Counter[str] = Counter()
    verdict = watch_game(game, network=model, faults=faults, nodes=nodes, scheduled=False)
    return outcome_of(verdict), dict(faults)


def test_self_play_games_on_three_nodes_over_failing_links_meet_the_faults_and_verdicts_of_one_process(
    nodes: Nodes,
) -> None:
    games = self_play_games(6, seed=30)
    expected = [outcome_of(replay_direct(game)) for game in games]
    assert any(item[3] is not None for item in expected), "a game stops at an illegal try"
    for seed in (1, 2):
        model = parse_network(f"loss=0.05,dup=0.05,delay=0.05,seed={seed}")
        total: Counter[str] = Counter()
        for number, (game, wanted) in enumerate(zip(games, expected, strict=True), start=1):
            here, faults_here = _faulted(game, model, None)
            there, faults_there = _faulted(game, model, nodes)
            assert here == there == wanted, (seed, number)
            # Each process decides the fates of what its actors send from the seed and the message's
            # identity on its link, never from where the actors run: the same faults befall the game.
            # (Not in a game that stops at an illegal try: how many proposals of the client's window
            # were on their way when the refusal came back depends on the machine, in one process too.)
            if wanted[3] is None:
                assert faults_there == faults_here, (seed, number)
            total.update(faults_there)
        assert all(total[name] > 0 for name in COUNTED), (seed, total)


def test_faults_between_nodes_are_traced_by_the_process_that_sent_the_message(nodes: Nodes) -> None:
    # The asker's process decides the fates of its asks and of their replies: the driver (the client),
    # node-1 (the referee) and node-2 (the board) ask; the pieces on node-3 only answer.
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder, nodes=nodes, network="loss=0.1,dup=0.1,delay=0.1,seed=4") as game:
        for move in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
            assert isinstance(game.propose(move), Accepted)
    assert game.network is not None
    counts = {kind.capitalize(): number for kind, number in game.network.counts.items() if number}
    marks = [event for event in recorder.events() if event["kind"] in FAULT_KINDS]
    assert Counter(event["kind"] for event in marks) == Counter(counts)
    assert {event["sender_node"] for event in marks} == {DRIVER, "node-1", "node-2"}


def test_a_piece_taught_on_nodes_over_failing_links_declares_its_reach_before_its_answer(
    nodes: Nodes,
) -> None:
    # The piece tells the board its new reach, across two nodes, before its answer goes back: lost
    # or duplicated on the way, the board still has it before the next move is judged.
    verdicts = []
    for on_nodes in (None, nodes):
        with ActorGame(teach={"c1": "archbishop", "g1": "camel"}, nodes=on_nodes,
                       network="loss=0.2,dup=0.2,delay=0.2,seed=9") as game:
            verdicts.append([game.propose(move) for move in ("Bb3", "e6", "Nh4", "Nc6", "Nf3")])
    assert verdicts[0] == verdicts[1]
    # The archbishop leaps c1-b3 and the camel g1-h4, as no bishop or knight could; then no piece of
    # white's reaches f3.
    assert [type(verdict).__name__ for verdict in verdicts[1]] == [
        "Accepted", "Accepted", "Accepted", "Accepted", "Rejected"]


def test_a_partition_between_two_nodes_heals_and_the_game_goes_on_with_the_same_verdicts(
    nodes: Nodes,
) -> None:
    # Twenty retries keep a message trying for about 2.7 s: longer than the cut, so it heals in time.
    moves = ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7")
    board = Game()
    for move in moves:
        board.play(move)
    with ActorGame(nodes=nodes, network="retries=20,seed=1") as game:
        assert isinstance(game.propose(moves[0]), Accepted)
        game.partition(frozenset({"node-1"}), 1.0, frozenset({"node-2"}))  # the referee from the board
        assert all(isinstance(game.propose(move), Accepted) for move in moves[1:])
        assert game.fen() == board.fen()
    assert game.network is not None
    assert game.network.counts["dropped"] >= 1 and not game.network.failures


def test_a_partition_written_in_the_option_cuts_the_links_between_two_nodes_only(nodes: Nodes) -> None:
    model = parse_network("retries=20,partition=node-1/node-3:1")
    board = Game()
    with ActorGame(nodes=nodes, network=model) as game:
        for move in ("d4", "d5", "c4", "dxc4"):
            assert isinstance(game.propose(move), Accepted)
            board.play(move)
        assert game.fen() == board.fen()


def test_a_partition_between_nodes_that_outlasts_the_retries_is_a_named_failure_never_a_verdict(
    nodes: Nodes,
) -> None:
    with ActorGame(nodes=nodes, network=LinkModel(retries=2)) as game:
        assert isinstance(game.propose("e4"), Accepted)
        game.partition(frozenset({DRIVER}), 30.0, frozenset({"node-1"}))  # the client from the referee
        with pytest.raises(LinkFailure, match="FenQuery from client to referee was lost 3 times"):
            game.ask("referee", FenQuery())
        with pytest.raises(LinkFailure, match="a link between running actors is broken: the link broke:"
                                              " FenQuery from client to referee"):
            game.propose("e5")  # the game fails at once: nothing crosses that link again
        assert game.plies == 1
    with ActorGame(nodes=nodes, network=LinkModel(retries=2)) as game:
        assert isinstance(game.propose("e4"), Accepted)
        game.partition(frozenset({"node-1"}), 30.0, frozenset({"node-2"}))  # the referee from the board
        with pytest.raises(ActorFailure):  # the referee cannot reach the board: no verdict comes
            game.propose("e5")
        assert game.plies == 1


def test_a_partition_naming_a_node_that_is_not_there_is_refused_when_the_game_starts(nodes: Nodes) -> None:
    with pytest.raises(InputError, match="there is no actor called 'node-7'"):
        ActorGame(nodes=nodes, network="partition=node-1/node-7:1").start()


def test_replay_on_nodes_over_failing_links_prints_the_verdicts_and_counts_the_faults() -> None:
    spec = "loss=0.05,dup=0.05,delay=0.05,seed=2"
    here = _replay("--json")
    there = _replay("--json", "--nodes", "3", "--network", spec)
    assert there.returncode == here.returncode == 0, there.stderr[-2000:]
    row, plain = json.loads(there.stdout), json.loads(here.stdout)
    assert {key: value for key, value in row.items() if key != "network"} == plain
    assert all(row["network"][name] > 0 for name in COUNTED), row["network"]


def test_a_script_on_nodes_partitions_two_nodes_but_plans_no_single_fault(tmp_path: Path) -> None:
    script = tmp_path / "cut.scenario"
    script.write_text("play e4\npartition node-1 node-2 0.3\nplay e5\nplay Nf3\n"
                      "fen rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n",
                      encoding="utf-8")
    command = [sys.executable, "-m", "actors.cli", "run", str(script), "--nodes", "3",
               "--network", "retries=20"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "node-1 cut off from node-2 for 0.3 s" in result.stdout
    assert "5 steps passed" in result.stdout.splitlines()
    planned = tmp_path / "planned.scenario"
    planned.write_text("play e4\ndrop next Apply\n", encoding="utf-8")
    command = [sys.executable, "-m", "actors.cli", "run", str(planned), "--nodes", "2"]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "cannot run on nodes" in result.stderr and "Traceback" not in result.stderr
