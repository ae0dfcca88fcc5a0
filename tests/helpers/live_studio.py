"""The live studio driven from a test: a client of a studio served in this process (its WebSocket
commands and events), and ``chess-actors studio`` run as a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from websockets.sync.client import ClientConnection

    from actors.studio.server import StudioServer

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0  # seconds a test waits for a message at most: a bound, never a timing the test relies on


def ws_url(server: StudioServer, token: str | None = None) -> str:
    """The WebSocket address of a studio served in this process, with its token or ``token``."""
    return f"ws://127.0.0.1:{server.port}/ws?token={server.token if token is None else token}"


@contextmanager
def open_client(server: StudioServer, **options: Any) -> Iterator[ClientConnection]:
    """A WebSocket client of ``server``, once it has been sent the game's state."""
    from websockets.sync.client import connect  # the studio extra, which the tests that use it skip without

    with connect(ws_url(server), open_timeout=WAIT, **options) as client:
        hello = json.loads(client.recv(WAIT))
        assert hello["type"] == "state", hello
        yield client


def until_done(client: ClientConnection) -> list[dict[str, Any]]:
    """Every message up to and including the next ``done``."""
    messages: list[dict[str, Any]] = []
    while True:
        message = json.loads(client.recv(WAIT))
        messages.append(message)
        if message["type"] == "done":
            return messages


def send_command(client: ClientConnection, line: str) -> list[dict[str, Any]]:
    """Send one command line and return every message up to its ``done``."""
    client.send(line)
    return until_done(client)


@contextmanager
def studio_running(*arguments: str) -> Iterator[subprocess.Popen[str]]:
    """``chess-actors studio ARGUMENTS`` as a process of its own, killed if it is still running
    when the block ends (a test that failed before stopping it)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "actors.cli", "studio", *arguments], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def url_of(process: subprocess.Popen[str]) -> str:
    """The one address a studio prints."""
    assert process.stdout is not None
    url = process.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:") and "?token=" in url, url
    return url
