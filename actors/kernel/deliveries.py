"""What a delivery turnstile keeps: the actor each thread runs, letters filed for an actor, waits for replies,
the token that lets an actor in, and how a settled reply is read (see actors.kernel.schedule)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Protocol

from actors.kernel.messaging import Envelope, ScheduledReply
from actors.kernel.policies import Ready

acting = threading.local()
"""Which actor's delivery runs on this thread: ``acting.urn`` (None or unset on any other thread)."""


class Gate(Protocol):
    """What a turn token lets an actor through: the turnstile's gate (actors.kernel.schedule.Turnstile).

    Typed by what the actor calls, so that the actor base need not import the turnstile.
    """

    def run_turn(self, actor: Any) -> None:
        """Run the actor's granted delivery on its own thread."""


@dataclass(eq=False, slots=True)
class Letter:
    """A message filed for the actor ``urn``, and the reply its sender waits for (None: a tell)."""

    seq: int
    urn: str
    envelope: Envelope
    reply: ScheduledReply | None
    item: Ready | None = None  # how it is offered to a policy, once it heads its mailbox
    pair: tuple[str, str] | None = None  # over failing links: (sending thread's name, receiver's urn)
    link_seq: int = 0  # its sequence number on its link
    attempts: int = 1  # the attempt that arrived (or is on its way)


@dataclass(eq=False, slots=True)
class Waiting:
    """The actor ``urn`` waits for ``reply`` from ``waiting_for`` until ``deadline``."""

    urn: str
    reply: ScheduledReply
    waiting_for: str
    deadline: float  # on the schedule's clock
    since: int | None = None  # when the reply came in (it is then ready to resume)
    timed_out: bool = False
    item: Ready | None = None  # how its resumption is offered to a policy


class Turn:
    """The token a turnstile puts in an actor's pykka inbox when it lets the actor's next delivery in."""

    __slots__ = ("turnstile",)

    def __init__(self, turnstile: Gate) -> None:
        self.turnstile = turnstile


def since(pair: tuple[Ready, Letter | Waiting]) -> int:
    """When an offer became ready (offers run oldest first in arrival order)."""
    return pair[0].since


def fail(reply: ScheduledReply | None, error: BaseException) -> None:
    """Settle ``reply`` with ``error``, unless there is none or it is settled already."""
    if reply is not None and not reply.resolved:
        reply.resolve(None, error)


def outcome(reply: ScheduledReply) -> Any:
    """A settled reply's value; its error is raised."""
    if reply.error is not None:
        raise reply.error
    return reply.value
