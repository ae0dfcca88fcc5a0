"""Messages every actor answers itself, whatever its role: liveness, and faults injected to study
supervision. They are the runtime's own: an actor's role never sees them.

Ping()                         -> Pong          (answered at once, asking nobody)
Crash()                                         (raise now: the actor dies)
CrashOnNext(kind)              -> Armed         (raise on the next message of that class)
HangOnNext(kind, seconds)      -> Armed         (stall past the asker's timeout on the next one)
Disarm()                       -> Armed         (forget a CrashOnNext or HangOnNext not yet sprung)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from actors.kernel.messaging import Request


@dataclass(frozen=True, slots=True)
class Ping(Request["Pong"]):
    """Are you there?"""


@dataclass(frozen=True, slots=True)
class Pong:
    """I am."""


@dataclass(frozen=True, slots=True)
class Crash(Request[NoReturn]):
    """Raise now."""


@dataclass(frozen=True, slots=True)
class CrashOnNext(Request["Armed"]):
    """Raise on the next message whose class is called ``kind``."""

    kind: str


@dataclass(frozen=True, slots=True)
class HangOnNext(Request["Armed"]):
    """Stall ``seconds`` on the next message whose class is called ``kind``."""

    kind: str
    seconds: float


@dataclass(frozen=True, slots=True)
class Disarm(Request["Armed"]):
    """Forget any fault armed and not yet sprung (a pooled system's actors, before their next game)."""



@dataclass(frozen=True, slots=True)
class Armed:
    """The fault is set."""

    kind: str


ControlRequest = Ping | Crash | CrashOnNext | HangOnNext | Disarm
"""What every actor's kernel handles before its role sees a message."""
