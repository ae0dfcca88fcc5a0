"""The live studio's server: the token and origin checks, the WebSocket's commands and events, several
watchers of one game, and a clean stop on a signal."""

from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.extras import missing_extra_reason

pytest.importorskip("websockets", reason=missing_extra_reason("websockets"))

from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from actors.game.replay import judge_for
from actors.studio import live_page_html
from actors.studio.live import LiveGame
from actors.studio.server import StudioServer, serving_in_background
from actors.study.shell import Shell
from board.games.replay import start_game
from board.notation.pgn import PgnGame, read_games
from tests.helpers.live_studio import (
    WAIT,
    open_client,
    send_command,
    studio_running,
    until_done,
    url_of,
    ws_url,
)
from tests.helpers.replayed import first_difference, read_trace, run_saved, untimed

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def studio(fen: str = "startpos", shell: Shell | None = None) -> Iterator[StudioServer]:
    with LiveGame(fen, shell=shell) as live:
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server):
            yield server


def _http_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as error:
        return error.code


def test_every_http_request_needs_the_token() -> None:
    with studio() as server:
        base = f"http://127.0.0.1:{server.port}"
        assert _http_status(f"{base}/") == 401
        assert _http_status(f"{base}/ws") == 401
        assert _http_status(f"{base}/?token=") == 401
        assert _http_status(f"{base}/?token={server.token[:-1]}x") == 403
        assert _http_status(f"{base}/elsewhere?token={server.token}") == 404
        with urllib.request.urlopen(server.url, timeout=WAIT) as response:
            page = response.read().decode("utf-8")
            policy = response.headers["Content-Security-Policy"]
        assert response.status == 200 and "chess-actors live studio" in page
        assert f"connect-src ws://127.0.0.1:{server.port}" in policy and "default-src 'none'" in policy


def test_a_websocket_upgrade_without_the_right_token_is_refused() -> None:
    with studio() as server:
        for token, status in (("", 401), ("wrong", 403)):
            with pytest.raises(InvalidStatus) as refused:
                connect(ws_url(server, token), open_timeout=WAIT)
            assert refused.value.response.status_code == status


def test_a_websocket_from_another_origin_is_refused_and_one_from_the_page_is_not() -> None:
    with studio() as server:
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url(server), origin="http://evil.example", open_timeout=WAIT)
        assert refused.value.response.status_code == 403
        own = f"http://127.0.0.1:{server.port}"
        with open_client(server, origin=own) as client:
            assert [m["type"] for m in send_command(client, "help")][-1] == "done"


def test_a_host_other_than_the_servers_is_refused() -> None:
    with studio() as server:
        request = urllib.request.Request(server.url, headers={"Host": f"attacker.example:{server.port}"})
        try:
            urllib.request.urlopen(request, timeout=WAIT)
            status = 200
        except urllib.error.HTTPError as error:
            status = error.code
        assert status == 403


def _moves_over_the_websocket(client: ClientConnection, game: PgnGame) -> tuple[list[str], dict[str, Any]]:
    """Play the game's moves until one is refused: the SANs accepted, and the refusal (or {})."""
    accepted: list[str] = []
    for token in game.moves:
        answers = send_command(client, f"play {token.text}")
        [verdict] = [m for m in answers if m["type"] == "shown" and "accepted" in m]
        if not verdict["accepted"]:
            return accepted, verdict
        accepted.append(verdict["san"])
    return accepted, {}


def test_a_game_played_over_the_websocket_gets_the_direct_engines_verdicts() -> None:
    text = (ROOT / "tests" / "data" / "opera-game.pgn").read_text(encoding="utf-8")
    [opera] = read_games(text.splitlines(keepends=True))
    # The same game with an illegal move put in at ply 9: both engines must stop there alike.
    moves = " ".join(token.text for token in opera.moves[:8]) + " Ke3 " + " ".join(
        token.text for token in opera.moves[8:])
    [broken] = read_games([f'[Event "broken"]\n\n{moves} *\n'])
    for game in (opera, broken):
        direct = judge_for("direct")(game)
        with studio() as server, open_client(server) as client:
            accepted, refusal = _moves_over_the_websocket(client, game)
            [shown] = [m for m in send_command(client, "board") if m["type"] == "shown"]
        assert len(accepted) == direct.plies
        assert shown["fen"] == direct.fen
        if direct.error is None:
            assert refusal == {}
        else:
            assert refusal["ply"] == direct.error.ply == 9
            assert refusal["move"] == direct.error.move == "Ke3"


def test_events_stream_in_the_trace_format_and_two_watchers_see_the_same() -> None:
    with studio() as server, open_client(server) as first, open_client(server) as second:
        first.send("e4")
        seen = [until_done(first), until_done(second)]
        streams = [[m["event"] for m in messages if m["type"] == "event"] for messages in seen]
        assert streams[0] and streams[0] == streams[1]
        for event in streams[0]:
            assert event["format"] == 2 and event["phase"] == "ply 1"
            assert {"msg_id", "parent_id", "sender", "receiver", "kind", "t_sent", "t_handled"} <= set(event)
        assert any(event["kind"] == "ProposeText" and event["sender"] == "client" for event in streams[0])
        kinds = [m["type"] for m in seen[1]]
        assert kinds.index("shown") > kinds.index("event") and kinds[-2:] == ["state", "done"]
        state = next(m for m in seen[1] if m["type"] == "state")
        assert state["plies"] == 1 and state["model"]["games"][0]["phases"][-1]["move"]["san"] == "e4"
        # Only what changed: the start-up, which every page has from its first state, is not sent again.
        assert state["model"]["from"] == 1
        assert [phase["label"] for phase in state["model"]["games"][0]["phases"]] == ["ply 1"]


def test_a_bad_command_gets_an_error_and_the_session_goes_on() -> None:
    with studio() as server, open_client(server) as client:
        errors = [m for m in send_command(client, "fly e4 e9") if m["type"] == "error"]
        assert len(errors) == 1 and errors[0]["error"].startswith("unknown command 'fly' (commands: a move")
        client.send("e4\ne5")
        assert json.loads(client.recv(WAIT))["error"] == "one command per message, as text"
        verdicts = [m for m in send_command(client, "e4") if "accepted" in m]
        assert verdicts[0]["accepted"] and verdicts[0]["san"] == "e4"


def test_step_mode_lists_the_waiting_deliveries_and_delivers_the_one_chosen() -> None:
    with studio() as server, open_client(server) as client:
        send_command(client, "mode step")
        state = next(m for m in send_command(client, "Nf3") if m["type"] == "state")
        assert state["in_flight"] and [p["kind"] for p in state["pending"]] == ["ProposeText"]
        state = next(m for m in send_command(client, "deliver 1") if m["type"] == "state")
        asked = sorted(p["actor"] for p in state["pending"] if p["number"] is not None)
        assert asked == ["board", "white-knight-b1", "white-knight-g1"]
        chosen = next(p for p in state["pending"] if p["actor"] == "white-knight-g1")
        delivered = send_command(client, f"deliver {chosen['number']}")
        assert any("delivered: white-knight-g1 <- referee" in m.get("text", "") for m in delivered)
        verdict = next(m for m in send_command(client, "run") if "accepted" in m)
        assert verdict["san"] == "Nf3"


def test_a_waiting_message_dropped_over_the_websocket_is_sent_again_and_its_faults_stream() -> None:
    with studio() as server, open_client(server) as client:
        send_command(client, "mode step")
        state = next(m for m in send_command(client, "Nf3") if m["type"] == "state")
        assert state["delivery_verbs"] == ["deliver", "drop", "duplicate"]
        send_command(client, "deliver 1")
        messages = send_command(client, "drop 3")
        events = [m["event"] for m in messages if m["type"] == "event"]
        assert [(event["kind"], event["payload"]["attempt"]) for event in events] == [("Dropped", 1),
                                                                                      ("Retried", 2)]
        assert {(event["sender"], event["receiver"]) for event in events} == {("referee", "board")}
        state = next(m for m in messages if m["type"] == "state")
        travelling = [p for p in state["pending"] if p["number"] is None]
        assert [(p["actor"], p["kind"]) for p in travelling] == [("board", "Survey")]
        assert "on its way" in travelling[0]["waits"]
        messages = send_command(client, "duplicate 1")
        assert [m["event"]["kind"] for m in messages if m["type"] == "event"] == ["Duplicated"]
        verdict = next(m for m in send_command(client, "run") if "accepted" in m)
        assert verdict["san"] == "Nf3"


def test_a_crash_is_healed_by_the_supervisor_and_shown() -> None:
    with studio() as server, open_client(server) as client:
        send_command(client, "crash board")
        messages = send_command(client, "e4")
        assert any(m.get("text", "").strip() == "the supervisor restarted board" for m in messages)
        state = next(m for m in messages if m["type"] == "state")
        assert state["restarts"] == 1 and state["plies"] == 1
        assert any(phase["kind"] == "heal" for phase in state["model"]["games"][0]["phases"])


def test_the_board_lies_and_the_verdicts_follow_it() -> None:
    with studio() as server, open_client(server) as client:
        said = [m for m in send_command(client, "lie hide e2") if m["type"] == "shown"]
        assert said[0]["ok"] and said[0]["got"] == "the board lies: the piece on e2 hidden"
        [refused] = [m for m in send_command(client, "e3") if "accepted" in m]
        assert not refused["accepted"] and "no pawn can reach e3" in refused["reason"]
        send_command(client, "lie off")
        [accepted] = [m for m in send_command(client, "e3") if "accepted" in m]
        assert accepted["accepted"]
        errors = [m for m in send_command(client, "lie ghost e4 purple pawn") if m["type"] == "error"]
        assert errors and "lie needs off, or ghost" in errors[0]["error"]


def test_the_studio_drives_a_shell_it_is_given() -> None:
    with studio(shell=Shell("4k3/8/8/8/8/8/8/4K2R w K - 0 1")) as server, open_client(server) as client:
        [castled] = [m for m in send_command(client, "O-O") if "accepted" in m]
        [shown] = [m for m in send_command(client, "board") if m["type"] == "shown"]
    assert castled["uci"] == "e1g1" and shown["fen"] == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"


def test_twenty_watchers_at_once_are_served_and_all_stopped() -> None:
    before = {thread.ident for thread in threading.enumerate()}
    with studio() as server, ExitStack() as stack:
        clients = [stack.enter_context(open_client(server)) for _ in range(20)]
        clients[7].send("d4")
        for client in clients:
            verdicts = [m for m in until_done(client) if "accepted" in m]
            assert verdicts[0]["san"] == "d4"
    left = [thread.name for thread in threading.enumerate() if thread.ident not in before]
    assert left == [], f"threads left behind: {left}"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_studio_cleanly_even_with_a_move_waiting(signal_number: int) -> None:
    with studio_running("--port", "0") as process:
        url = url_of(process)
        websocket = url.replace("http://", "ws://").replace("/?", "/ws?")
        with connect(websocket, open_timeout=WAIT) as client:
            client.recv(WAIT)
            send_command(client, "e4")
            send_command(client, "mode step")
            send_command(client, "e5")  # left waiting for its deliveries
            assert _children(process.pid) == []
            process.send_signal(signal_number)
            status = process.wait(WAIT)
        _, errors = process.communicate(timeout=WAIT)
    assert status == 0, errors
    assert errors == ""
    with pytest.raises(OSError):
        urllib.request.urlopen(url, timeout=WAIT)


def test_with_json_the_address_is_one_json_object() -> None:
    with studio_running("--json") as process:
        assert process.stdout is not None
        address = json.loads(process.stdout.readline())
        assert address["url"] == f"http://127.0.0.1:{address['port']}/?token={address['token']}"
        assert address["host"] == "127.0.0.1" and _http_status(address["url"]) == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(WAIT) == 0


def _hello_from_studio(*arguments: str) -> dict[str, Any]:
    """The first state a page gets from ``chess-actors studio ARGUMENTS``, which then stops cleanly."""
    with studio_running(*arguments) as process:
        url = url_of(process)
        with connect(url.replace("http://", "ws://").replace("/?", "/ws?"), open_timeout=WAIT) as client:
            hello: dict[str, Any] = json.loads(client.recv(WAIT))
        process.send_signal(signal.SIGTERM)
        assert process.wait(WAIT) == 0
    return hello


def test_the_studio_starts_from_a_game_or_a_scenario(tmp_path: Path) -> None:
    from tests.helpers.chess960_games import random_chess960_game

    scenario = ROOT / "actors" / "examples" / "pin.scenario"
    chess960, _, chess960_plies, _ = random_chess960_game(random.Random(7))
    (tmp_path / "chess960.pgn").write_text(chess960, encoding="utf-8")
    [game] = read_games(chess960.splitlines(keepends=True))
    assert judge_for("direct")(game).plies == chess960_plies
    linked = tmp_path / "links.scenario"  # a session saved over failing links keeps their model
    linked.write_text("network loss=0.3,dup=0.3,seed=2\nplay e4\nplay e5\nplay Nf3\n", encoding="utf-8")
    for arguments, plies in (
        (["tests/data/opera-game.pgn"], 33),
        (["--scenario", str(scenario)], None),
        ([str(tmp_path / "chess960.pgn")], chess960_plies),  # a Chess960 game, castling in its own layout
        (["--scenario", str(linked)], 3),
    ):
        hello = _hello_from_studio(*arguments)
        assert hello["messages"] > 0
        if plies is not None:
            assert hello["plies"] == plies
    kinds = {event["kind"] for phase in hello["model"]["games"][0]["phases"] for event in phase["events"]}
    assert {"Dropped", "Duplicated", "Retried"} <= kinds, "the live game's links follow the script's model"


def test_bad_studio_arguments_exit_2_in_one_line(tmp_path: Path) -> None:
    taken = socket.create_server(("127.0.0.1", 0))
    busy = str(taken.getsockname()[1])
    for arguments, problem in (
        (["--port", busy], f"--port {busy}: cannot listen on it"),
        # found before any node starts: no placement line, no Ray started only to be stopped again
        (["--nodes", "2", "--port", busy], f"--port {busy}: cannot listen on it"),
        (["--port", "70000"], "is not a port"),
        (["missing.pgn"], "missing.pgn"),
        (["tests/data/opera-game.pgn", "--scenario", "x.scenario"], "not both"),
    ):
        done = subprocess.run([sys.executable, "-m", "actors.cli", "studio", *arguments], capture_output=True,
                              text=True, cwd=ROOT, timeout=WAIT)
        assert done.returncode == 2, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and problem in done.stderr
        assert done.stdout == ""
    taken.close()


def test_a_session_saved_over_the_websocket_runs_again_as_a_scenario(tmp_path: Path) -> None:
    script = tmp_path / "session.scenario"
    with studio() as server, open_client(server) as client:
        for line in ("e4", "e5", "learn g1 camel", "Ke3", f"save {script}"):
            send_command(client, line)
    ran = subprocess.run([sys.executable, "-m", "actors.cli", "run", str(script)], capture_output=True,
                         text=True, cwd=ROOT, timeout=WAIT)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert script.read_text(encoding="utf-8").splitlines()[1:] == [
        "schedule fifo", "play e4", "play e5", "learn g1 camel", "reject Ke3"]


def _state(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The last state among a command's messages."""
    return next(message for message in reversed(messages) if message["type"] == "state")


def test_a_session_saved_over_the_websocket_runs_again_to_the_same_trace(tmp_path: Path) -> None:
    script, live, ran = tmp_path / "session.scenario", tmp_path / "live.jsonl", tmp_path / "run.jsonl"
    chosen: list[str] = []
    with studio() as server, open_client(server) as client:
        for line in ("e4", "e5", "Ke3", "crash board", "Nf3", "learn b8 camel", "lie hide e5", "legal b8",
                     "lie off", "mode step"):
            send_command(client, line)
        messages = send_command(client, "Nc6")
        plan = ["deliver", "drop", "duplicate", "deliver"]
        while _state(messages)["in_flight"]:
            numbered = [item["number"] for item in _state(messages)["pending"] if item["number"] is not None]
            if not plan:
                line = "run"
            elif plan[0] == "deliver" and len(numbered) < 2:
                line = "step"  # one to choose from: wait for a choice
            else:  # the last of the list, which arrival order would deliver last
                line = f"{plan.pop(0)} {numbered[-1]}"
            chosen.append(line)
            messages = send_command(client, line)
        for line in ("mode auto", "Bc4", f"save {script}", f"trace {live}"):
            send_command(client, line)
    assert {"drop", "duplicate", "deliver"} <= {line.split()[0] for line in chosen}, chosen
    done = run_saved(script, ran)
    assert done.returncode == 0, done.stdout + done.stderr
    session, replayed = untimed(read_trace(live)), untimed(read_trace(ran))
    assert len(session) > 100, "a refusal, a heal, a lesson, a lie and deliveries chosen by hand"
    assert session == replayed, first_difference(session, replayed)


def test_a_chess960_game_is_played_live_with_the_direct_engines_verdicts() -> None:
    from tests.helpers.chess960_games import random_chess960_game

    rng = random.Random(960)
    castled = 0
    for _ in range(3):
        text, _, _, _ = random_chess960_game(rng)
        [game] = read_games(text.splitlines(keepends=True))
        direct = judge_for("direct")(game)
        board = start_game(game)
        assert board.chess960
        with LiveGame(board.start_fen, chess960=True) as live:
            server = StudioServer(live, live_page_html(), 0)
            with serving_in_background(server), open_client(server) as client:
                accepted, refusal = _moves_over_the_websocket(client, game)
                [shown] = [m for m in send_command(client, "board") if m["type"] == "shown"]
        assert len(accepted) == direct.plies and shown["fen"] == direct.fen
        assert (refusal == {}) == (direct.error is None)
        castled += sum(san.startswith("O-O") for san in accepted)
    assert castled > 0  # the seed plays castlings (python-chess castles whenever it can)
