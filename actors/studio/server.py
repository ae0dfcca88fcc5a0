"""The live studio's server: the page and its WebSocket, on 127.0.0.1, for whoever holds the token.

Built on ``websockets`` (asyncio): one small, dependency-free library that serves the WebSocket
and, through its ``process_request`` hook, the one page and the refusals; no web framework is needed
for a single document. Every request and upgrade must carry ``?token=`` (none: 401, a wrong one:
403), name this server as its ``Host``, and a WebSocket opened by a page must come from this origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import json
import secrets
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from actors.studio.live import COMMAND_LENGTH, LiveGame
from board.errors import InputError

__all__ = ["HOST", "StudioServer", "listen", "serving_in_background"]

HOST = "127.0.0.1"
"""The only address the studio listens on: a live game takes commands, so it is never on a network."""


def listen(port: int = 0) -> socket.socket:
    """A socket listening on ``HOST:port`` (0: a port the system picks), for a :class:`StudioServer`.

    Raises:
        OSError: the port cannot be listened on (in use, or not allowed).
    """
    return socket.create_server((HOST, port))


class StudioServer:
    """Serves ``live`` at ``http://127.0.0.1:PORT/?token=...`` and ``/ws?token=...``.

    Args:
        live: the game every page watches and drives.
        page: the HTML page to serve at ``/``.
        port: the port to listen on (0: one the system picks), or a socket :func:`listen` made, so
            that a busy port is found before the game starts.
        token: the secret every request must carry (None: a fresh random one).

    Raises:
        OSError: the port cannot be listened on (in use, or not allowed).
    """

    def __init__(
        self, live: LiveGame, page: str, port: int | socket.socket = 0, token: str | None = None
    ) -> None:
        self.live = live
        self.page = page.encode("utf-8")
        self.token = token if token is not None else secrets.token_urlsafe(24)
        self.socket = port if isinstance(port, socket.socket) else listen(port)
        self.port: int = self.socket.getsockname()[1]
        self.hosts = frozenset({f"{HOST}:{self.port}", f"localhost:{self.port}"})
        self.origins = frozenset(f"http://{host}" for host in self.hosts)
        self.connections: set[ServerConnection] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def url(self) -> str:
        """The page's address, token included."""
        return f"http://{HOST}:{self.port}/?token={self.token}"

    async def serve(self, stop: asyncio.Future[None]) -> None:
        """Serve until ``stop`` is done; then close every connection (the caller closes the game)."""
        self._loop = asyncio.get_running_loop()
        unsubscribe = self.live.subscribe(self._from_game)
        try:
            async with serve(self._talk, sock=self.socket, process_request=self._check,
                             max_size=COMMAND_LENGTH * 4, server_header=None):
                await stop
        finally:
            unsubscribe()
            self.socket.close()

    # -- the game's messages, to every page

    def _from_game(self, text: str) -> None:
        """Called on the game's threads: hand ``text`` to the event loop, which sends it to every page
        in the order it came (websockets' broadcast writes without waiting for slow readers)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
                loop.call_soon_threadsafe(self._send_all, text)

    def _send_all(self, text: str) -> None:
        broadcast(self.connections, text)

    # -- one page's WebSocket

    async def _talk(self, connection: ServerConnection) -> None:
        sock = connection.transport.get_extra_info("socket")
        if sock is not None:
            # A command's answer is several small messages: without this, the second waits for the
            # first one's acknowledgement (Nagle's algorithm against delayed acks: some 40 ms).
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        hello: str = await asyncio.wrap_future(self.live.hello())
        await connection.send(hello)
        self.connections.add(connection)
        try:
            async for message in connection:
                if isinstance(message, bytes) or "\n" in message.strip():
                    await connection.send(_error(str(message)[:80], "one command per message, as text"))
                    continue
                try:
                    self.live.submit(message)
                except InputError as error:
                    await connection.send(_error(message.strip()[:80], str(error)))
        except ConnectionClosed:
            pass
        finally:
            self.connections.discard(connection)

    # -- every request, before anything else

    def _check(self, connection: ServerConnection, request: Request) -> Response | None:
        """Refuse a request without the token, for another host, or an upgrade from another origin;
        answer ``/`` with the page; let ``/ws`` become a WebSocket."""
        address = urlsplit(request.path)
        token = parse_qs(address.query).get("token", [""])[0]
        if not token:
            return _refusal(connection, http.HTTPStatus.UNAUTHORIZED, "a token is needed: open the address "
                            "chess-actors studio printed")
        if not secrets.compare_digest(token.encode("utf-8"), self.token.encode("utf-8")):
            return _refusal(connection, http.HTTPStatus.FORBIDDEN, "wrong token")
        if request.headers.get("Host") not in self.hosts:
            return _refusal(connection, http.HTTPStatus.FORBIDDEN, "this server answers only for "
                            f"{HOST}:{self.port}")
        if address.path == "/ws":
            origin = request.headers.get("Origin")
            if origin is not None and origin not in self.origins:
                refused = f"a WebSocket from {origin} is refused"
                return _refusal(connection, http.HTTPStatus.FORBIDDEN, refused)
            return None
        if address.path == "/":
            return Response(200, "OK", _page_headers(self.port, len(self.page)), self.page)
        return _refusal(connection, http.HTTPStatus.NOT_FOUND, f"nothing at {address.path}")


@contextlib.contextmanager
def serving_in_background(server: StudioServer) -> Iterator[StudioServer]:
    """Serve on an event loop of its own thread for the duration of a ``with`` block (tests, the
    latency benchmark); the block's end stops the server and the thread (the caller closes the game)."""
    loop = asyncio.new_event_loop()
    stop: asyncio.Future[None] = loop.create_future()

    def stopping() -> None:
        if not stop.done():
            stop.set_result(None)

    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(stop),),
                              name="studio-server", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        loop.call_soon_threadsafe(stopping)
        thread.join()
        loop.close()


def _refusal(connection: ServerConnection, status: http.HTTPStatus, text: str) -> Response:
    response = connection.respond(status, text + "\n")
    response.headers["Cache-Control"] = "no-store"
    return response


def _page_headers(port: int, length: int) -> Headers:
    # The page may talk only to this server; its address (with the token) is never sent elsewhere.
    sources = f"ws://{HOST}:{port} ws://localhost:{port}"
    policy = (f"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
              f"img-src data:; connect-src {sources}; base-uri 'none'; form-action 'none'")
    return Headers([
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Length", str(length)),
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", policy),
        ("Connection", "close"),
    ])


def _error(command: str, problem: str) -> str:
    record: dict[str, Any] = {"type": "error", "command": command, "seq": None, "error": problem}
    return json.dumps(record, separators=(",", ":"))
