"""What waits at the delivery turnstile, as its policy is offered it: the deliveries ready to run, those
queued behind a mailbox's head or on their way over failing links; and the mail of an actor gone."""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable

from actors.kernel.deliveries import Letter, Waiting, fail, since
from actors.kernel.errors import ActorUnavailable
from actors.kernel.policies import Ready


class WaitingDeliveries:
    """What :class:`~actors.kernel.schedule.Turnstile` offers its policy, read under its lock."""

    clock: float
    _lock: threading.RLock
    _names: dict[str, str]
    _mail: dict[str, deque[Letter]]
    _addressed: set[str]
    _waiting: dict[str, Waiting]
    _grants: dict[str, Letter | Waiting]
    _running: str | None
    _holds: dict[str, float]
    _timers: list[tuple[float, int, Letter | Callable[[], None]]]

    def ready(self) -> list[Ready]:
        """The deliveries that may run next, oldest first (one per actor at most)."""
        with self._lock:
            return [item for item, _ in self._ready_now()]

    def queued(self) -> list[Ready]:
        """Every delivery waiting: the ready ones first, then those behind a mailbox's head."""
        with self._lock:
            ready = [item for item, _ in self._ready_now()]
            behind = []
            for urn, mailbox in self._mail.items():
                first = 1 if urn not in self._waiting and urn not in self._holds else 0
                for letter in itertools.islice(mailbox, first, None):
                    behind.append(self._describe(urn, letter, ready=False))
            return ready + sorted(behind, key=lambda item: item.since)

    def on_the_way(self) -> list[tuple[Ready, float]]:
        """The messages on their way over failing links (sent again after a loss, or delayed), each
        with the seconds of the schedule's time until it arrives, soonest first."""
        with self._lock:
            return [(self._describe(held.urn, held, ready=False, travelling=True), when - self.clock)
                    for when, _, held in sorted(self._timers, key=lambda timer: timer[:2])
                    if isinstance(held, Letter)]

    def _describe(self, urn: str, letter: Letter, ready: bool = True, travelling: bool = False) -> Ready:
        body = letter.envelope.message
        waits = "reply" if letter.reply is not None else "nothing"
        if urn in self._holds:
            waits += f", queued: {self._names[urn]} is stalled for {self._holds[urn] - self.clock:g} s more"
        elif travelling:
            waits += ", on its way"
        elif not ready:
            waits += ", queued behind its mailbox's head"
        return Ready(self._names[urn], type(body).__name__, letter.envelope.sender, body, waits,
                     letter.seq)

    def _ready_now(self) -> list[tuple[Ready, Letter | Waiting]]:
        # Called before every step: it builds each offer once (cached on the letter or the wait), and
        # leaves dead actors to be found when let in (a crash or a stop drops an actor's mail at once).
        found: list[tuple[Ready, Letter | Waiting]] = []
        running, grants, holds, waits = self._running, self._grants, self._holds, self._waiting
        for urn, waiting in waits.items():
            if waiting.since is None or urn in grants or urn == running or urn in holds:
                continue
            if waiting.item is None:
                state = "timed out" if waiting.timed_out else "reply in"
                waiting.item = Ready(self._names[urn], "resume", waiting.waiting_for, None,
                                     f"{state} from {waiting.waiting_for}", waiting.since, resume=True)
            found.append((waiting.item, waiting))
        for urn in self._addressed:
            if urn in waits or urn in grants or urn == running or urn in holds:
                continue
            letter = self._mail[urn][0]
            if letter.item is None:
                letter.item = self._describe(urn, letter)
            found.append((letter.item, letter))
        found.sort(key=since)
        return found

    def _drop(self, urn: str) -> None:
        """An actor is gone: every message still filed for it fails, as pykka fails a dead inbox."""
        name = self._names.get(urn, "the actor")
        for letter in self._mail.get(urn, ()):
            fail(letter.reply, ActorUnavailable(f"{name} is not running"))
        self._mail.pop(urn, None)
        self._addressed.discard(urn)
        self._waiting.pop(urn, None)
