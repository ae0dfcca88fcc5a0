"""How an observer watches the runtime: the hooks it calls on every message, and nothing else.

The runtime knows no tracer. An actor system is given an :class:`Instrument` (or none); the runtime
calls it when a message is sent (:meth:`Instrument.post`), and the :class:`Visit` it returns travels
with the message and is told when the receiver takes the message up, answers it, or finishes a tell.
An instrument in another process takes up a message that crossed from here with
:meth:`Instrument.carried`. The project's tracer (``actors.tracing``) is one such instrument; a test
may bring its own.

Every hook runs on the thread of the actor doing the thing it reports, so an instrument shared by a
system's actors must be safe to call from all of them at once.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Instrument", "Visit"]


class Visit(Protocol):
    """One message on its way, as its instrument follows it: made at send, told of its handling."""

    @property
    def msg_id(self) -> int:
        """The message's id, unique in its instrument."""

    @property
    def parent_id(self) -> int | None:
        """The id of the message being handled when this one was sent (None: sent from outside)."""

    @property
    def sender(self) -> str:
        """The sending actor's name."""

    @property
    def receiver(self) -> str:
        """The receiving actor's name."""

    @property
    def ply(self) -> int | None:
        """The step of the caller's work the message serves, if the caller numbers them."""

    @property
    def t_sent(self) -> int:
        """When it was sent (``time.monotonic_ns``)."""

    @property
    def game(self) -> int | None:
        """Which of the caller's runs the message belongs to, if it numbers them."""

    @property
    def phase(self) -> str | None:
        """What the message serves, as the caller labels it."""

    @property
    def hint(self) -> str | None:
        """Why the sender chose this receiver, when it says."""

    @property
    def sender_node(self) -> str | None:
        """The node process of the sender, when the system spans several."""

    @property
    def instrument(self) -> Instrument:
        """The instrument that follows this message."""

    def begin(self) -> object:
        """The receiver takes the message up."""

    def replied(self, answer: object) -> None:
        """The receiver answered an ask with ``answer`` (a value, a message or an exception)."""

    def done(self) -> None:
        """The receiver finished a tell."""


class Instrument(Protocol):
    """What watches every message an actor system sends."""

    def post(
        self,
        sender: str,
        receiver: str,
        message: object,
        *,
        parent: Visit | None = None,
        ply: int | None = None,
        hint: str | None = None,
    ) -> Visit:
        """``sender`` sends ``message`` to ``receiver`` while handling ``parent`` (None: from outside)."""

    def carried(
        self, message: object, msg_id: int, parent_id: int | None, sender: str, receiver: str,
        ply: int | None, t_sent: int, game: int | None, phase: str | None, hint: str | None,
        sender_node: str | None,
    ) -> Visit:
        """A message posted to an instrument in another process arrived here, with the fields its
        visit had there; this instrument follows it from now on."""
