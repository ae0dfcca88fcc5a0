"""The live studio's server under load and hostile clients, on 127.0.0.1: a save that cannot be written
holds up nothing, a command costs what it adds, a page joining late pages through the game, a page
that reads nothing is dropped, and malformed requests are a 400 and one log line."""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.extras import missing_extra_reason

pytest.importorskip("websockets", reason=missing_extra_reason("websockets"))

from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

import actors.studio.model as studio_model
from actors.studio import live_page_html
from actors.studio.live import LiveGame
from actors.studio.model import build_model
from actors.studio.server import StudioServer, serving_in_background
from board.notation.pgn import read_games
from tests.helpers.live_studio import (
    WAIT,
    open_client,
    send_command,
    studio_running,
    until_done,
    url_of,
    ws_url,
)

ROOT = Path(__file__).resolve().parents[2]
OPERA = [f"play {token.text}" for token in
         next(iter(read_games((ROOT / "tests" / "data" / "opera-game.pgn").open(encoding="utf-8")))).moves]


@contextmanager
def served(live: LiveGame, **options: Any) -> Iterator[StudioServer]:
    server = StudioServer(live, live_page_html(), 0, **options)
    with serving_in_background(server):
        yield server


def _release(fifo: Path) -> None:
    """Open and close a pipe's reading end, so that a writer waiting for a reader goes on."""
    with suppress(OSError):
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))


def _raw(server: StudioServer, request: bytes) -> bytes:
    """Send ``request`` as it is and return the status line the server answers."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as sock:
        sock.sendall(request)
        return sock.recv(4096).split(b"\r\n", 1)[0]


def _upgrade(server: StudioServer, *headers: str) -> bytes:
    lines = [f"GET /ws?token={server.token} HTTP/1.1", f"Host: 127.0.0.1:{server.port}",
             "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
             "Sec-WebSocket-Version: 13", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def test_a_save_to_a_pipe_no_one_reads_holds_up_no_other_command(tmp_path: Path) -> None:
    fifo = tmp_path / "session.scenario"
    os.mkfifo(fifo)
    try:
        with LiveGame(save_timeout=3 * WAIT) as live, served(live) as server, open_client(server) as client:
            client.send(f"save {fifo}")
            # The save waits for a reader; the next command is done meanwhile, and so is a new page.
            answers = send_command(client, "e4")
            assert answers[-1]["seq"] == 2 and any(m.get("san") == "e4" for m in answers)
            with open_client(server) as second:
                assert send_command(second, "e5")[-1]["seq"] == 3
    finally:
        _release(fifo)


def test_a_save_to_a_pipe_no_one_reads_ends_in_an_error_after_its_timeout(tmp_path: Path) -> None:
    fifo = tmp_path / "session.scenario"
    os.mkfifo(fifo)
    try:
        with LiveGame(save_timeout=1) as live, served(live) as server, open_client(server) as client:
            send_command(client, "e4")
            said = send_command(client, f"save {fifo}")
            [error] = [m for m in said if m["type"] == "error"]
            assert "not written within 1 s" in error["error"] and error["seq"] == 2
            saved = tmp_path / "saved.scenario"
            [shown] = [m for m in send_command(client, f"save {saved}") if m["type"] == "shown"]
            assert shown["text"].startswith(f"wrote 2 steps to {saved}")
            assert saved.read_text(encoding="utf-8").splitlines()[-1] == "play e4"
    finally:
        _release(fifo)
    writers = [thread for thread in threading.enumerate() if thread.name.startswith("studio-write")]
    for thread in writers:
        thread.join(WAIT)
    assert not any(thread.is_alive() for thread in writers), "the write waiting on the pipe was let go"


def test_sigterm_stops_the_studio_while_a_save_waits_on_a_pipe(tmp_path: Path) -> None:
    fifo = tmp_path / "session.scenario"
    os.mkfifo(fifo)
    try:
        with studio_running() as process:
            url = url_of(process)
            with connect(url.replace("http://", "ws://").replace("/?", "/ws?"), open_timeout=WAIT) as client:
                client.recv(WAIT)
                client.send(f"save {fifo}")
                assert any(m.get("san") == "e4" for m in send_command(client, "e4"))
                process.send_signal(signal.SIGTERM)
                status = process.wait(WAIT)
            _, errors = process.communicate(timeout=WAIT)
    finally:
        _release(fifo)
    assert status == 0 and errors == ""


def test_a_late_command_builds_only_its_own_phases(monkeypatch: pytest.MonkeyPatch) -> None:
    compacted: list[int] = []
    compact = studio_model._compact

    def counting(event: Any, *rest: Any) -> Any:
        compacted.append(event["msg_id"])
        return compact(event, *rest)

    monkeypatch.setattr(studio_model, "_compact", counting)
    with LiveGame() as live:
        assert live.run_lines(OPERA[:30]) == []
        with served(live) as server, open_client(server) as client:
            compacted.clear()
            messages = send_command(client, "board")
    state = next(m for m in messages if m["type"] == "state")
    events = [m for m in messages if m["type"] == "event"]
    assert state["messages"] > 200, "thirty plies of messages before the command"
    assert len(compacted) == len(events) < 20, "the command's own messages are built, no others"
    assert state["model"]["from"] == state["model"]["total"] - 1 and not state["model"]["reset"]


def test_a_page_joining_late_gets_the_newest_phases_and_pages_through_the_rest() -> None:
    budget = 40_000
    with LiveGame(page_characters=budget) as live:
        assert live.run_lines(OPERA) == []
        with served(live) as server, connect(ws_url(server), open_timeout=WAIT, max_size=None) as client:
            hello = client.recv(WAIT)
            first = json.loads(hello)["model"]
            assert len(hello) < budget + 10_000, "the first message is bounded"
            assert first["reset"] and 0 < first["from"] < first["total"] - 1
            phases = first["games"][0]["phases"]
            base, pages = first["from"], 0
            while base > 0:
                client.send(json.dumps({"want": "phases", "before": base}))
                page = json.loads(client.recv(WAIT))
                assert page["type"] == "phases" and page["to"] == base and page["from"] < base
                assert len(json.dumps(page["phases"], separators=(",", ":"))) <= budget
                phases, base, pages = page["phases"] + phases, page["from"], pages + 1
            whole = build_model(live.shell.recorder.events(), "chess-actors live studio")["games"][0]
    assert pages >= 3
    assert phases == whole["phases"]


def test_a_page_that_reads_nothing_is_dropped_and_the_others_are_served() -> None:
    lines: list[str] = []
    with LiveGame() as live, served(live, log=lines.append, queue_characters=60_000) as server, \
            open_client(server) as reader:
        idle = socket.socket()
        idle.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        idle.connect(("127.0.0.1", server.port))
        idle.sendall(_upgrade(server))
        # It never reads again: what is sent to it piles up on the server until the bound.
        commands = 0
        while server.dropped == 0 and commands < 400:
            answers = send_command(reader, "legal g1" if commands % 2 else "legal b1")
            assert answers[-1]["seq"] == commands + 1
            commands += 1
        idle.close()
        assert server.dropped == 1 and len(server.pages) == 1
        assert send_command(reader, "e4")[-1]["type"] == "done"
    assert [line for line in lines if "disconnected a page" in line] == [
        "disconnected a page that fell 60,000 characters behind (it reads too slowly, or not at all)"]


def test_two_host_or_origin_headers_are_a_400_and_one_log_line(capfd: pytest.CaptureFixture[str]) -> None:
    lines: list[str] = []
    with LiveGame() as live, served(live, log=lines.append) as server:
        host = f"Host: 127.0.0.1:{server.port}"
        page = f"GET /?token={server.token} HTTP/1.1\r\n{host}\r\n{host}\r\n\r\n".encode()
        assert _raw(server, page) == b"HTTP/1.1 400 Bad Request"
        origin = f"Origin: http://127.0.0.1:{server.port}"
        assert _raw(server, _upgrade(server, origin, origin)) == b"HTTP/1.1 400 Bad Request"
        assert _raw(server, _upgrade(server, "Origin: http://x\x9b2J")) == b"HTTP/1.1 403 Forbidden"
        with open_client(server) as client:
            assert send_command(client, "e4")[-1]["type"] == "done"
    assert lines == ["refused a request with 2 Host headers (400)",
                     "refused a request with 2 Origin headers (400)",
                     "refused a WebSocket from origin 'http://x\\x9b2J' (403)"]
    assert "Traceback" not in capfd.readouterr().err


def test_a_page_that_leaves_before_its_first_message_ends_quietly(capfd: pytest.CaptureFixture[str]) -> None:
    lines: list[str] = []
    release = threading.Event()
    with LiveGame() as live, served(live, log=lines.append) as server:
        held = live._worker.submit(release.wait, WAIT)  # the game is busy: the first message waits
        try:
            with connect(ws_url(server), open_timeout=WAIT) as leaving:
                # Closed at once, with a reset: the server finds it gone when it sends the first message.
                leaving.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                leaving.socket.close()
        finally:
            release.set()
        held.result(WAIT)
        with open_client(server) as client:
            assert send_command(client, "e4")[-1]["type"] == "done"
            assert len(server.pages) == 1
    assert "Traceback" not in capfd.readouterr().err and lines == []


def test_past_the_most_pages_at_once_a_page_is_refused() -> None:
    lines: list[str] = []
    with LiveGame() as live, served(live, log=lines.append, max_pages=3) as server, ExitStack() as stack:
        clients = [stack.enter_context(open_client(server)) for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url(server), open_timeout=WAIT)
        assert refused.value.response.status_code == 503
        clients[0].close()
        clients[1].send("e4")
        assert any(m.get("san") == "e4" for m in until_done(clients[2]))
        assert any(m.get("san") == "e4" for m in until_done(clients[1]))
    assert lines == ["refused a page: 3 are open, the most at once (503)"]


def test_an_empty_command_or_a_bad_request_is_answered_and_the_game_goes_on() -> None:
    with LiveGame() as live, served(live) as server, open_client(server) as client:
        assert [m["type"] for m in send_command(client, "   ")] == ["state", "done"]
        client.send('{"want": "phases", "before": -1}')
        assert json.loads(client.recv(WAIT))["error"] == 'a request is {"want": "phases", "before": N}'
        client.send('{"want": "phases", "before": 1}')
        page = json.loads(client.recv(WAIT))
        assert (page["type"], page["from"], page["to"]) == ("phases", 0, 1)
        assert any(m.get("san") == "e4" for m in send_command(client, "e4"))
