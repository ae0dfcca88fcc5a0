"""The live studio's server: the page and its WebSocket, on 127.0.0.1, for whoever holds the token.

Built on ``websockets`` (asyncio): one small, dependency-free library that serves the WebSocket
and, through its ``process_request`` hook, the one page and the refusals; no web framework is needed
for a single document. Every request and upgrade must carry ``?token=`` (none: 401, a wrong one:
403), name this server as its ``Host``, and a WebSocket opened by a page must come from this origin;
a request with two of either is malformed (400). At most :data:`MAX_PAGES` pages at once (503 past
it); each page has its own queue of messages to send, and one that falls :data:`QUEUE_CHARACTERS`
behind is disconnected rather than buffered without end. What the server refuses or drops is one
line to its ``log``, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import json
import logging
import secrets
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from actors.studio.live import COMMAND_LENGTH, LiveGame
from board.errors import InputError

__all__ = ["HOST", "MAX_PAGES", "QUEUE_CHARACTERS", "StudioServer", "listen", "serving_in_background"]

HOST = "127.0.0.1"
"""The only address the studio listens on: a live game takes commands, so it is never on a network."""

MAX_PAGES = 32
"""The most pages (WebSockets) served at once; one more is refused (503)."""

QUEUE_CHARACTERS = 4_000_000
"""How far a page may fall behind, in characters of messages waiting to be sent to it (four of the
largest messages, see :data:`~actors.studio.live.PAGE_CHARACTERS`): past it, it is disconnected."""

_MESSAGE_COST = 64  # what a waiting message costs besides its characters


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
        log: where a line goes for each request refused as malformed or from elsewhere and each page
            dropped (None: nowhere); the lines may hold text a client sent, as it sent it.
        max_pages: the most pages at once (see :data:`MAX_PAGES`).
        queue_characters: how far a page may fall behind (see :data:`QUEUE_CHARACTERS`).

    Raises:
        OSError: the port cannot be listened on (in use, or not allowed).
    """

    def __init__(
        self, live: LiveGame, page: str, port: int | socket.socket = 0, token: str | None = None,
        log: Callable[[str], None] | None = None, max_pages: int = MAX_PAGES,
        queue_characters: int = QUEUE_CHARACTERS,
    ) -> None:
        self.live = live
        self.page = page.encode("utf-8")
        self.token = token if token is not None else secrets.token_urlsafe(24)
        self.socket = port if isinstance(port, socket.socket) else listen(port)
        self.port: int = self.socket.getsockname()[1]
        self.hosts = frozenset({f"{HOST}:{self.port}", f"localhost:{self.port}"})
        self.origins = frozenset(f"http://{host}" for host in self.hosts)
        self.log = log if log is not None else _nowhere
        self.max_pages = max_pages
        self.queue_characters = queue_characters
        self.pages: dict[ServerConnection, _Page] = {}
        self.dropped = 0
        """Pages disconnected for falling too far behind."""

    @property
    def url(self) -> str:
        """The page's address, token included."""
        return f"http://{HOST}:{self.port}/?token={self.token}"

    async def serve(self, stop: asyncio.Future[None]) -> None:
        """Serve until ``stop`` is done; then close every connection (the caller closes the game)."""
        try:
            async with serve(self._talk, sock=self.socket, process_request=self._check,
                             max_size=COMMAND_LENGTH * 4, server_header=None, close_timeout=1,
                             logger=_quiet_logger(self.log)):
                await stop
                for page in list(self.pages.values()):  # one that reads nothing would hold the close up
                    if page.behind:
                        page.connection.transport.abort()
        finally:
            self.socket.close()

    # -- one page's WebSocket

    async def _talk(self, connection: ServerConnection) -> None:
        sock = connection.transport.get_extra_info("socket")
        if sock is not None:
            # A command's answer is several small messages: without this, the second waits for the
            # first one's acknowledgement (Nagle's algorithm against delayed acks: some 40 ms).
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        loop = asyncio.get_running_loop()
        page = _Page(connection, self)
        self.pages[connection] = page
        sending = asyncio.create_task(page.send_queued())
        unsubscribe: Callable[[], None] | None = None
        try:
            joined = self.live.join(lambda text: _call_soon(loop, page.put, text))
            unsubscribe = await asyncio.wrap_future(joined)
            async for message in connection:
                await self._take(page, message)
        except (ConnectionClosed, RuntimeError):  # the page left, or the game closed (the worker stopped)
            pass
        finally:
            if unsubscribe is not None:
                unsubscribe()
            sending.cancel()
            self.pages.pop(connection, None)

    async def _take(self, page: _Page, message: str | bytes) -> None:
        """One message from a page: a command for the game, or a request for earlier phases."""
        if isinstance(message, bytes) or "\n" in message.strip():
            page.put(_error(str(message)[:80], "one command per message, as text"))
            return
        if message.startswith("{"):
            before = _phases_before(message)
            if before is None:
                page.put(_error(message[:80], 'a request is {"want": "phases", "before": N}'))
                return
            page.put(await asyncio.wrap_future(self.live.earlier(before)))
            return
        try:
            self.live.submit(message)
        except InputError as error:
            page.put(_error(message.strip()[:80], str(error)))

    def drop(self, page: _Page) -> None:
        """Disconnect a page that has fallen too far behind: what waits for it is let go at once."""
        if page.dropped:
            return
        page.dropped = True
        self.dropped += 1
        page.queue.clear()
        page.waiting = 0
        self.log(f"disconnected a page that fell {self.queue_characters:,} characters behind "
                 "(it reads too slowly, or not at all)")
        page.connection.transport.abort()

    # -- every request, before anything else

    def _check(self, connection: ServerConnection, request: Request) -> Response | None:
        """Refuse a request without the token, for another host, or an upgrade from another origin;
        answer ``/`` with the page; let ``/ws`` become a WebSocket."""
        for name in ("Host", "Origin"):
            if len(request.headers.get_all(name)) > 1:
                self.log(f"refused a request with {len(request.headers.get_all(name))} {name} headers (400)")
                return _refusal(connection, http.HTTPStatus.BAD_REQUEST, f"one {name} header at most")
        address = urlsplit(request.path)
        token = parse_qs(address.query).get("token", [""])[0]
        if not token:
            return _refusal(connection, http.HTTPStatus.UNAUTHORIZED, "a token is needed: open the address "
                            "chess-actors studio printed")
        if not secrets.compare_digest(token.encode("utf-8"), self.token.encode("utf-8")):
            return _refusal(connection, http.HTTPStatus.FORBIDDEN, "wrong token")
        host = request.headers.get("Host")
        if host not in self.hosts:
            self.log(f"refused a request for host {host!r} (403)")
            return _refusal(connection, http.HTTPStatus.FORBIDDEN, "this server answers only for "
                            f"{HOST}:{self.port}")
        if address.path == "/ws":
            origin = request.headers.get("Origin")
            if origin is not None and origin not in self.origins:
                self.log(f"refused a WebSocket from origin {origin!r} (403)")
                return _refusal(connection, http.HTTPStatus.FORBIDDEN, "a WebSocket from another origin")
            if len(self.pages) >= self.max_pages:
                self.log(f"refused a page: {self.max_pages} are open, the most at once (503)")
                return _refusal(connection, http.HTTPStatus.SERVICE_UNAVAILABLE,
                                f"{self.max_pages} pages are open, the most at once: close one")
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


class _Page:
    """One page's WebSocket and the messages waiting to be sent to it, in order."""

    def __init__(self, connection: ServerConnection, server: StudioServer) -> None:
        self.connection = connection
        self.server = server
        self.queue: deque[str] = deque()
        self.waiting = 0  # the characters waiting, with each message's cost
        self.ready = asyncio.Event()
        self.dropped = False
        self.behind = False  # a message is being written and has not gone yet

    def put(self, text: str) -> None:
        """Queue ``text`` for the page (on the event loop); a page too far behind is dropped."""
        if self.dropped:
            return
        if self.waiting + len(text) + _MESSAGE_COST > self.server.queue_characters:
            self.server.drop(self)
            return
        self.queue.append(text)
        self.waiting += len(text) + _MESSAGE_COST
        self.ready.set()

    async def send_queued(self) -> None:
        """Send what waits, one message at a time: each waits until the page has taken enough of the
        last (websockets' write limit), so what waits stays in the queue, where it is counted."""
        try:
            while True:
                await self.ready.wait()
                self.ready.clear()
                while self.queue:
                    text = self.queue.popleft()
                    self.waiting -= len(text) + _MESSAGE_COST
                    self.behind = True
                    await self.connection.send(text)
                    self.behind = False
        except ConnectionClosed:
            pass


def _call_soon(loop: asyncio.AbstractEventLoop, callback: Callable[[str], None], text: str) -> None:
    """Called on the game's threads: hand ``text`` to the event loop, in the order it came."""
    if not loop.is_closed():
        with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
            loop.call_soon_threadsafe(callback, text)


def _phases_before(message: str) -> int | None:
    """The N of a page's ``{"want": "phases", "before": N}`` (None: not such a request)."""
    try:
        request = json.loads(message)
    except ValueError:
        return None
    if not isinstance(request, dict) or request.get("want") != "phases":
        return None
    before = request.get("before")
    return before if isinstance(before, int) and not isinstance(before, bool) and before >= 0 else None


def _nowhere(line: str) -> None:
    pass


class _LineHandler(logging.Handler):
    """The websockets library's warnings and errors as one line each, without a traceback."""

    def __init__(self, log: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        problem = record.exc_info[1] if record.exc_info else None
        self.log(record.getMessage() + (f": {type(problem).__name__}: {problem}" if problem else ""))


def _quiet_logger(log: Callable[[str], None]) -> logging.Logger:
    logger = logging.Logger("chess-actors.studio", logging.WARNING)  # of its own: never the root's handlers
    logger.addHandler(_LineHandler(log))
    logger.propagate = False
    return logger


def _error(command: str, problem: str) -> str:
    record: dict[str, Any] = {"type": "error", "command": command, "seq": None, "error": problem}
    return json.dumps(record, separators=(",", ":"))
