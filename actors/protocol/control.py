"""Messages every actor answers, whatever its role: liveness, and faults injected to study supervision.

Ping()                         -> Pong          (answered at once, asking nobody)
Crash()                                         (raise now: the actor dies)
CrashOnNext(kind)              -> Armed         (raise on the next message of that class)
HangOnNext(kind, seconds)      -> Armed         (stall past the asker's timeout on the next one)
Disarm()                       -> Armed         (forget a CrashOnNext or HangOnNext not yet sprung)
Lie(ghosts, hidden)            -> Armed         (the board only: report these false facts until told
                                                 the truth with an empty Lie)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ping:
    """Are you there?"""


@dataclass(frozen=True, slots=True)
class Pong:
    """I am."""


@dataclass(frozen=True, slots=True)
class Crash:
    """Raise now."""


@dataclass(frozen=True, slots=True)
class CrashOnNext:
    """Raise on the next message whose class is called ``kind``."""

    kind: str


@dataclass(frozen=True, slots=True)
class HangOnNext:
    """Stall ``seconds`` on the next message whose class is called ``kind``."""

    kind: str
    seconds: float


@dataclass(frozen=True, slots=True)
class Disarm:
    """Forget any fault armed and not yet sprung (a pooled system's actors, before their next game)."""


@dataclass(frozen=True, slots=True)
class Lie:
    """The board reports pieces that are not there (``ghosts``: square -> code) and hides some that are
    (``hidden``) until an empty Lie. Only the reports change: moves are made on the true board."""

    ghosts: tuple[tuple[int, int], ...] = ()
    hidden: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Armed:
    """The fault is set."""

    kind: str


ControlRequest = Ping | Crash | CrashOnNext | HangOnNext | Disarm | Lie
"""What every actor's kernel handles before its role sees a message."""
