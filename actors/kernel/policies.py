"""How a turnstile chooses the next delivery: in arrival order, at random (seeded), by script, by hand.

A policy sees the ready deliveries (one per actor that can run: the head of its mailbox, or its
resumption once the reply it waits for is in) and returns one of them.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import NamedTuple

from board.errors import ChessActorsError, InputError


class ScheduleError(ChessActorsError):
    """A schedule that cannot go on: it does not match the deliveries, or no choice came in time."""


class Reoffer(ScheduleError):
    """The choice open to a person changed under it (a waiting message was dropped): offer it again."""


class Ready(NamedTuple):
    """A delivery that may run next: ``actor`` handles ``kind`` (the message ``body``) from ``sender``
    (or resumes).

    ``since`` orders ready deliveries by when they became ready (a mailbox's head by its arrival, a
    resumption by when its reply came in); ``waits`` says who waits on it: "reply" (an ask), "nothing"
    (a tell) or, for a resumption, what it was waiting for.
    """

    actor: str
    kind: str
    sender: str
    body: object
    waits: str
    since: int
    resume: bool = False

    @property
    def summary(self) -> str:
        """The message in one line of at most 80 characters (built only when someone looks)."""
        if self.resume:
            return ""
        text = repr(self.body)
        return text if len(text) <= 80 else text[:77] + "..."

    def describe(self) -> str:
        """One line a person reads: who, what, from whom."""
        if self.resume:
            return f"{self.actor} resumes ({self.waits})"
        return f"{self.actor} <- {self.sender}: {self.summary} (sender waits for {self.waits})"


class Step(NamedTuple):
    """One delivery run to its end or to its next wait: who ran, what, and whom it sent to or answered."""

    actor: str
    chosen: Ready | None  # the delivery let in (None: the game closed before it ran)
    sends: frozenset[str]
    answers: frozenset[str]

    @property
    def what(self) -> str:
        """The delivery in one line a person reads (built only when someone looks)."""
        return self.chosen.describe() if self.chosen is not None else "closed"



def record_of(steps: Sequence[Step]) -> list[str]:
    """The schedule that ``steps`` followed: one actor name a delivery (what a Script replays)."""
    return [step.actor for step in steps]



class Policy:
    """Chooses among ready deliveries; ``choose`` is called with at least one."""

    name = "policy"
    instant = False
    """Whether it chooses at once, waiting for no one: then the actor whose step ends asks it."""

    def choose(self, ready: Sequence[Ready]) -> Ready:
        """The delivery to run next."""
        raise NotImplementedError

    def ran(self, step: Step) -> None:
        """Told what the delivery it chose did, once it has run (a search keeps these; most ignore them)."""


class Fifo(Policy):
    """The delivery that has been ready longest."""

    name = "fifo"
    instant = True

    def choose(self, ready: Sequence[Ready]) -> Ready:
        return min(ready, key=lambda item: item.since)


class Random(Policy):
    """A seeded random choice: the same seed, the same order."""

    name = "random"
    instant = True

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def choose(self, ready: Sequence[Ready]) -> Ready:
        return self._random.choice(sorted(ready, key=lambda item: item.since))


class Script(Policy):
    """An explicit list of actor names, one a delivery; after the list, arrival order (fifo).

    Raises (from ``choose``):
        ScheduleError: the next name is not an actor that can run now.
    """

    name = "script"
    instant = True

    def __init__(self, actors: Sequence[str]) -> None:
        self.actors = list(actors)
        self.position = 0

    def choose(self, ready: Sequence[Ready]) -> Ready:
        if self.position >= len(self.actors):
            return Fifo().choose(ready)
        wanted = self.actors[self.position]
        for item in ready:
            if item.actor == wanted:
                self.position += 1
                return item
        choices = ", ".join(sorted(item.actor for item in ready))
        raise ScheduleError(
            f"schedule step {self.position + 1} names {wanted}, but the actors that can run are: {choices}"
        )


class Interactive(Policy):
    """Waits for a person (another thread) to call :meth:`decide`; bounded by ``patience`` seconds.

    Raises (from ``choose``):
        ScheduleError: no decision within ``patience`` seconds, or the decision was withdrawn.
    """

    name = "interactive"

    def __init__(self, patience: float = 600.0) -> None:
        self.patience = patience
        self._lock = threading.Condition()
        self._ready: tuple[Ready, ...] | None = None
        self._decision: int | None = None
        self._withdrawn = False
        self._reoffered = False

    @property
    def waiting(self) -> tuple[Ready, ...] | None:
        """The choices waiting for a decision (None when no choice is open)."""
        with self._lock:
            return self._ready

    def wait_for_choice(self, timeout: float) -> bool:
        """Wait until a choice is open (True) or ``timeout`` seconds pass (False)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._ready is not None, timeout)

    def decide(self, index: int) -> Ready:
        """Choose the open choice's ``index``-th delivery (0-based, in the order listed).

        Raises:
            InputError: no choice is open, or the index is past the list.
        """
        with self._lock:
            if self._ready is None:
                raise InputError("nothing is waiting to be delivered")
            if not 0 <= index < len(self._ready):
                raise InputError(f"no delivery {index + 1}: {len(self._ready)} can run now")
            chosen = self._ready[index]
            self._decision, self._ready = index, None
            self._lock.notify_all()
            return chosen

    def reoffer(self) -> None:
        """Close the open choice without a decision: the turnstile looks again at what is ready and
        offers that (after a fault chosen by hand changed what waits)."""
        with self._lock:
            if self._ready is not None:
                self._reoffered = True
                self._ready = None
                self._lock.notify_all()

    def withdraw(self) -> None:
        """Give up waiting (the game is closing)."""
        with self._lock:
            self._withdrawn = True
            self._lock.notify_all()

    def choose(self, ready: Sequence[Ready]) -> Ready:
        offered = tuple(ready)
        with self._lock:
            self._ready, self._decision, self._reoffered = offered, None, False
            self._lock.notify_all()
            try:
                decided = self._lock.wait_for(
                    lambda: self._decision is not None or self._withdrawn or self._reoffered, self.patience
                )
                if self._reoffered:
                    raise Reoffer("the choice changed: offered again")
                if self._withdrawn:
                    raise ScheduleError("the interactive schedule was closed while a delivery waited")
                if not decided or self._decision is None:
                    raise ScheduleError(f"no delivery was chosen within {self.patience:g} s")
                return offered[self._decision]
            finally:
                self._ready = None


def parse_policy(text: str) -> Policy | None:
    """The policy a schedule name stands for: free (None), fifo, random or random(SEED), interactive.

    Raises:
        InputError: any other text.
    """
    spec = text.strip().lower()
    if spec == "free":
        return None
    if spec == "fifo":
        return Fifo()
    if spec == "interactive":
        return Interactive()
    if spec == "random":
        return Random(0)
    if spec.startswith("random(") and spec.endswith(")"):
        try:
            return Random(int(spec[7:-1]))
        except ValueError:
            pass
    raise InputError(
        f"unknown schedule {text!r}: use free, fifo, random, random(SEED) or interactive"
        " (a script is a list of actor names)"
    )
