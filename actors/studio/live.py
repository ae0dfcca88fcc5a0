"""The live studio's game: the chess shell's engine, shared by every page that watches it.

Commands (the shell's grammar, one line each) run one at a time on one worker thread, since a shell
is one conversation; every delivered message, everything a command shows, and the game's state go
to every subscriber as JSON text, in the order they happen. Nothing here speaks HTTP.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict
from typing import Any

from actors.kernel.messaging import DEFAULT_TIMEOUT
from actors.studio.live_model import GrowingModel
from actors.study.shell import Shell
from actors.study.shell_output import output_record
from actors.study.shell_words import DELIVERY_VERBS
from actors.tracing.sinks import TraceSink, callback_sink
from board.errors import InputError
from board.rules.geometry import NAMED

__all__ = ["COMMAND_LENGTH", "PAGE_CHARACTERS", "SAVE_TIMEOUT", "LiveGame", "Subscriber"]

Subscriber = Callable[[str], None]
"""Called with each message for the pages (a JSON object as text), from whichever thread made it."""

COMMAND_LENGTH = 10_000
"""The longest command line taken (as the shell reads from a pipe)."""

PAGE_CHARACTERS = 1_000_000
"""The most characters of phases one message carries: a page's first state (the newest phases) and
each page of earlier phases it asks for after it. A phase is never cut: one larger comes alone."""

SAVE_TIMEOUT = 10.0
"""Seconds a ``save`` or ``trace FILE`` may take before its command is done with an error; the file
is written on a thread of its own meanwhile, so the game takes other commands while it waits."""

_WRITING_VERBS = ("save", "trace")


class LiveGame:
    """A shell's live game with its watchers; use as a context manager (it stops every actor).

    Args:
        fen: the starting position (``startpos`` or a FEN).
        timeout: every ask's timeout in seconds.
        chess960: a Chess960 game, as for :class:`~actors.study.shell.Shell` (None: as the FEN's
            castling field says).
        shell: the shell to drive instead of a new one over ``fen`` (one built on other actors, such
            as a game placed on several nodes); it is entered and closed here.
        save_timeout: the seconds a command that writes a file may take (see :data:`SAVE_TIMEOUT`).
        page_characters: the most characters of phases in one message (see :data:`PAGE_CHARACTERS`).
    """

    def __init__(
        self, fen: str = "startpos", timeout: float = DEFAULT_TIMEOUT, shell: Shell | None = None,
        chess960: bool | None = False, save_timeout: float = SAVE_TIMEOUT,
        page_characters: int = PAGE_CHARACTERS,
    ) -> None:
        self.shell = shell if shell is not None else Shell(fen, timeout, chess960=chess960)
        self.save_timeout = save_timeout
        self.page_characters = page_characters
        self._subscribers: tuple[Subscriber, ...] = ()
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="studio-command")
        self._sink: TraceSink = callback_sink(self._publish_event)
        self._sequence = 0
        self._closed = False
        self._model = GrowingModel("chess-actors live studio")
        self._taken = 0  # the recorder's events the model holds
        self._changed: int | None = None  # the first phase changed since the last state sent to all
        self._writing: dict[int, str] = {}  # the files being written, by their command's number
        self._staging: str | None = None  # the folder where the shell writes what is then copied
        self.shell.recorder.handling = {}  # a delivery is drawn when taken up, not when it is answered

    def __enter__(self) -> LiveGame:
        self.shell.recorder.attach(self._sink)
        self.shell.__enter__()
        self._caught_up()  # what every page gets first: the later states send what changed after it
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
        for path in list(self._writing.values()):
            _release_pipe(path)
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)

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
        self._caught_up()
        return problems

    def _caught_up(self) -> None:
        """Take every message so far into the model, as what every page already has (no page is
        watching yet: each gets it in its first state)."""
        self._update()
        self._changed = None

    def _run(self, line: str, sequence: int) -> int:
        command = line.strip()
        words = command.split()
        if len(words) == 2 and words[0] in _WRITING_VERBS:
            return self._run_writing(words[0], words[1], sequence)
        for record in self._execute(line):
            self._publish_shown(command, sequence, record)
        self._publish_text(self.state_text())
        self._publish({"type": "done", "command": command, "seq": sequence})
        return sequence

    def _publish_shown(self, command: str, sequence: int, record: dict[str, Any]) -> None:
        self._publish({"type": "shown" if "error" not in record else "error", "command": command,
                       "seq": sequence, **record})

    def _run_writing(self, verb: str, path: str, sequence: int) -> int:
        """``save PATH`` or ``trace PATH``: the shell writes what it would write to a file of the game's
        own (local and new, so it never waits), here and now, between the commands before and after it;
        a thread of its own copies that to ``path``, which may wait (a pipe no one reads, a slow disk):
        the command is done when the copy is, or after :attr:`save_timeout` seconds with an error,
        and the game takes other commands meanwhile."""
        command = f"{verb} {path}"
        if self._staging is None:
            self._staging = tempfile.mkdtemp(prefix="chess-actors-studio-")
        staged = os.path.join(self._staging, f"{sequence}.{verb}")
        records = self._execute(f"{verb} {staged}")
        self._publish_text(self.state_text())
        if any("error" in record for record in records):
            with contextlib.suppress(OSError):
                os.unlink(staged)
            for record in records:
                self._publish_shown(command, sequence, _named(record, staged, path))
            self._publish({"type": "done", "command": command, "seq": sequence})
            return sequence
        said = [_named(record, staged, path) for record in records]
        finished = threading.Event()
        answered = threading.Lock()  # the copy and the timeout: the first to take it says what happened

        def answer(shown: list[dict[str, Any]]) -> None:
            if answered.acquire(blocking=False):
                self._writing.pop(sequence, None)
                for record in shown:
                    self._publish_shown(command, sequence, record)
                self._publish({"type": "done", "command": command, "seq": sequence})

        def copy() -> None:
            try:
                with open(staged, "rb") as source, open(path, "wb") as target:
                    shutil.copyfileobj(source, target)
                shown = said
            except OSError as error:
                shown = [{"error": f"{command}: cannot write: {error.strerror or error}"}]
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(staged)
            finished.set()
            answer(shown)

        def wait() -> None:
            if finished.wait(self.save_timeout):
                return
            answer([{"error": f"{command}: not written within {self.save_timeout:g} s (a pipe that no one "
                              "reads, or a disk that does not answer); left unwritten"}])
            _release_pipe(path)

        self._writing[sequence] = path
        threading.Thread(target=copy, name="studio-write", daemon=True).start()
        threading.Thread(target=wait, name="studio-write-timeout", daemon=True).start()
        return sequence

    def _execute(self, line: str) -> list[dict[str, Any]]:
        try:
            return [output_record(item) for item in self.shell.execute(line)]
        except InputError as error:
            return [{"error": str(error)}]

    # -- the game as it stands

    def _update(self) -> None:
        recorder = self.shell.recorder
        # In step mode, what was delivered and waits on its own asks is drawn at once, reply to come;
        # read before the finished ones, so that one finishing in between is read finished.
        handling = recorder.being_handled()
        events = recorder.events()
        if len(events) < self._taken:  # the recorder was cleared: start again
            self._model, self._taken = GrowingModel(self._model.title), 0
        changed = self._model.add(events[self._taken:], handling)
        self._taken = len(events)
        if changed is not None:
            self._changed = changed if self._changed is None else min(self._changed, changed)

    def state(self, whole: bool = False) -> dict[str, Any]:
        """The game as the pages draw it: :meth:`state_text`'s message as data (``whole``: as a new
        page gets it, which changes nothing the next state sends). Sends no message."""
        record: dict[str, Any] = json.loads(self.state_text(first=whole))
        return record

    def _game_state(self) -> dict[str, Any]:
        """The game as the pages draw it, besides the model of its messages: the deliveries waiting
        (step mode), the actors, plies, outcome and restarts."""
        shell = self.shell
        game = shell.game
        return {
            "stepping": shell.stepping,
            "in_flight": shell.in_flight,
            "pending": [asdict(item) for item in shell.pending()] if shell.in_flight else [],
            "actors": shell.names(),
            "plies": game.plies,
            "outcome": game.outcome,
            "restarts": game.supervisor.restarts,
            "messages": self._model.events,
            "geometries": sorted(NAMED),
            "delivery_verbs": list(DELIVERY_VERBS),
        }

    def state_text(self, first: bool = False) -> str:
        """A ``state`` message: the game's state with the ``model`` of the messages so far (None before the
        first message). Its game's phases begin at the model's ``from``: a page keeps the phases before
        it and replaces the rest, unless the model says ``reset`` (drop every phase, and ask for the
        earlier ones again). ``first`` (a page that has none yet): the newest phases that fit in
        :data:`PAGE_CHARACTERS`. Otherwise the phases changed since the last state sent to every page,
        so that a move sends its own phases, not the whole game again."""
        self._update()
        model = self._model
        head = json.dumps({"type": "state", **self._game_state()}, separators=(",", ":"), default=str)[:-1]
        if not len(model):
            return head + ',"model":null}'
        if first:
            start, reset = model.start_of_last(self.page_characters), True
        else:
            changed = len(model) if self._changed is None else self._changed
            self._changed = None
            start = max(changed, model.start_of_last(self.page_characters))
            reset = start > changed
        return f'{head},"model":{model.text(start)[:-1]},"reset":{json.dumps(reset)}}}}}'

    def earlier(self, before: int) -> Future[str]:
        """The phases before index ``before`` that fit in :data:`PAGE_CHARACTERS` (one at least), as
        a ``phases`` message (``from``, ``to``, ``total`` and the ``phases``), taken between two
        commands: how a page that joined late fetches the rest, a page at a time."""
        def page() -> str:
            model = self._model
            end = max(0, min(before, len(model)))
            start = model.start_of_last(self.page_characters, end) if end else 0
            return (f'{{"type":"phases","from":{start},"to":{end},"total":{len(model)},'
                    f'"phases":[{model.phases(start, end)}]}}')
        return self._worker.submit(page)

    def join(self, subscriber: Subscriber) -> Future[Callable[[], None]]:
        """Send ``subscriber`` the game's state as a new page's first message (the newest phases, see
        :meth:`state_text`), then everything from now on; taken between two commands, so that nothing
        is missed or sent twice. Its future gives the function that stops it."""
        def joining() -> Callable[[], None]:
            subscriber(self.state_text(first=True))
            return self.subscribe(subscriber)
        return self._worker.submit(joining)


def _release_pipe(path: str) -> None:
    """If ``path`` is a pipe, open and close its reading end: a write waiting for a reader then goes
    on and fails (a broken pipe), so the thread that waits for it ends."""
    try:
        if not stat.S_ISFIFO(os.stat(path).st_mode):
            return
        reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        if error.errno not in (errno.ENOENT, errno.ENXIO, errno.EACCES):
            raise
        return
    os.close(reader)


def _named(record: dict[str, Any], staged: str, path: str) -> dict[str, Any]:
    """``record`` with the staged file's name replaced by the path the command named."""
    return {key: value.replace(staged, path) if isinstance(value, str) else value
            for key, value in record.items()}
