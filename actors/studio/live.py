"""The live studio's game: the chess shell's engine, shared by every page that watches it.

Commands (the shell's grammar, one line each) run one at a time on one worker thread, since a shell
is one conversation; every delivered message, everything a command shows, and the game's state go
to every subscriber as JSON text, in the order they happen. Nothing here speaks HTTP.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict
from typing import Any

from actors.kernel.messaging import DEFAULT_TIMEOUT
from actors.scenario.shell import Shell
from actors.scenario.shell_output import output_record
from actors.scenario.shell_words import DELIVERY_VERBS
from actors.studio.model import build_model
from actors.tracing.event import TraceEvent
from actors.tracing.sinks import TraceSink, callback_sink
from board.errors import InputError
from board.rules.geometries import NAMED

__all__ = ["COMMAND_LENGTH", "LiveGame", "Subscriber"]

Subscriber = Callable[[str], None]
"""Called with each message for the pages (a JSON object as text), from whichever thread made it."""

COMMAND_LENGTH = 10_000
"""The longest command line taken (as the shell reads from a pipe)."""


class LiveGame:
    """A shell's live game with its watchers; use as a context manager (it stops every actor).

    Args:
        fen: the starting position (``startpos`` or a FEN).
        timeout: every ask's timeout in seconds.
        chess960: a Chess960 game, as for :class:`~actors.scenario.shell.Shell` (None: as the FEN's
            castling field says).
        shell: the shell to drive instead of a new one over ``fen`` (one built on other actors, such
            as a game placed on several nodes); it is entered and closed here.
    """

    def __init__(
        self, fen: str = "startpos", timeout: float = DEFAULT_TIMEOUT, shell: Shell | None = None,
        chess960: bool | None = False,
    ) -> None:
        self.shell = shell if shell is not None else Shell(fen, timeout, chess960=chess960)
        self._subscribers: tuple[Subscriber, ...] = ()
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="studio-command")
        self._sink: TraceSink = callback_sink(self._publish_event)
        self._sequence = 0
        self._closed = False
        # Each phase's label, size and messages awaiting their reply in the last state sent to all.
        self._sent: list[tuple[str, int, int]] = []
        self.shell.recorder.handling = {}  # a delivery is drawn when taken up, not when it is answered

    def __enter__(self) -> LiveGame:
        self.shell.recorder.attach(self._sink)
        self.shell.__enter__()
        self.state()  # what every page gets first: the later states send what changed after it
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop taking commands, let the one running finish or fail, and stop the game's actors."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._worker.shutdown(wait=False, cancel_futures=True)
        self.shell.close()  # a command waiting for deliveries chosen by hand fails now
        self._worker.shutdown(wait=True)
        self.shell.recorder.detach(self._sink)

    # -- watchers

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Send ``subscriber`` everything from now on; returns the function that stops it."""
        with self._lock:
            self._subscribers = (*self._subscribers, subscriber)

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers = tuple(item for item in self._subscribers if item is not subscriber)
        return unsubscribe

    def _publish(self, record: dict[str, Any]) -> None:
        self._publish_text(json.dumps(record, separators=(",", ":"), default=str))

    def _publish_text(self, text: str) -> None:
        for subscriber in self._subscribers:
            subscriber(text)

    def _publish_event(self, line: str) -> None:
        # The line is already the trace format's JSON (rendered by structlog, as in a trace file).
        self._publish_text('{"type":"event","event":' + line + "}")

    # -- commands

    def submit(self, line: str) -> Future[int]:
        """Queue one command line; its future gives the command's sequence number once it is done.

        Whatever the command shows, an error included, goes to the subscribers, then the game's state
        and a ``done`` message naming the command.

        Raises:
            InputError: the game is closed, or the line is longer than :data:`COMMAND_LENGTH`.
        """
        if len(line) > COMMAND_LENGTH:
            raise InputError(f"a command longer than {COMMAND_LENGTH:,} characters")
        with self._lock:
            if self._closed:
                raise InputError("the game is closed")
            self._sequence += 1
            sequence = self._sequence
            return self._worker.submit(self._run, line, sequence)

    def run_lines(self, lines: Iterable[str]) -> list[dict[str, Any]]:
        """Run lines one after the other (a game or a scenario to start from); returns the records of
        what went wrong (none: every line ran)."""
        problems: list[dict[str, Any]] = []
        for line in lines:
            for record in self._execute(line):
                if "error" in record or record.get("ok") is False or record.get("accepted") is False:
                    problems.append(record)
            if problems:
                break
        self.state()
        return problems

    def _run(self, line: str, sequence: int) -> int:
        command = line.strip()
        for record in self._execute(line):
            self._publish({"type": "shown" if "error" not in record else "error", "command": command,
                           "seq": sequence, **record})
        self._publish({"type": "state", **self.state()})
        self._publish({"type": "done", "command": command, "seq": sequence})
        return sequence

    def _execute(self, line: str) -> list[dict[str, Any]]:
        try:
            return [output_record(item) for item in self.shell.execute(line)]
        except InputError as error:
            return [{"error": str(error)}]

    # -- the game as it stands

    def state(self, whole: bool = False) -> dict[str, Any]:
        """The game as the pages draw it: the studio's model of the messages so far, the deliveries
        waiting (step mode), the actors, plies, outcome and restarts. Sends no message.

        The model's phases start at its ``from`` index: a page keeps the phases before it and replaces
        the rest. ``whole`` (a page that has none yet): from 0. Otherwise from the first phase that
        changed since the last state sent to every page, so that a move sends its own phases, not the
        whole game again."""
        shell = self.shell
        game = shell.game
        events: list[TraceEvent] = shell.recorder.events()
        # In step mode, what was delivered and waits on its own asks is drawn at once, reply to come.
        done = {event["msg_id"] for event in events}
        handling = [event for event in shell.recorder.being_handled() if event["msg_id"] not in done]
        events += handling
        model = build_model(events, "chess-actors live studio", {event["msg_id"] for event in handling}) \
            if events else None
        if model is not None:
            phases = model["games"][0]["phases"]
            shape = [(phase["label"], len(phase["events"]), sum("open" in event for event in phase["events"]))
                     for phase in phases]
            start = 0
            if not whole:
                while start < min(len(shape), len(self._sent)) and shape[start] == self._sent[start]:
                    start += 1
                self._sent = shape
            model["games"][0]["phases"] = phases[start:]
            model["from"] = start
        return {
            "model": model,
            "stepping": shell.stepping,
            "in_flight": shell.in_flight,
            "pending": [asdict(item) for item in shell.pending()] if shell.in_flight else [],
            "actors": shell.names(),
            "plies": game.plies,
            "outcome": game.outcome,
            "restarts": game.supervisor.restarts,
            "messages": len(done),
            "geometries": sorted(NAMED),
            "delivery_verbs": list(DELIVERY_VERBS),
        }

    def hello(self) -> Future[str]:
        """The first message a new page gets, taken between two commands: the game's state (after it,
        the page follows the stream)."""
        return self._worker.submit(lambda: json.dumps({"type": "state", **self.state(whole=True)},
                                                      separators=(",", ":"), default=str))
