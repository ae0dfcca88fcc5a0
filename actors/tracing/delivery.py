"""One message on its way, stamped at send, handling and reply by the actors it passes between, and
turned into its trace event only when someone reads it.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Any

from actors.protocol.readable import readable, readable_reply, summarize
from actors.tracing.event import FORMAT_VERSION, TraceEvent

if TYPE_CHECKING:
    from actors.tracing.recorder import TraceRecorder

__all__ = ["Delivery", "reply_text"]

_PLAIN_TYPES = frozenset({type(None), bool, int, float, str})


def reply_text(answer: object) -> str:
    """Return the short text a trace shows for a reply: its class name, or a plain value as text.

    ``Yes(...)`` gives ``"Yes"``, an exception ``"TimeoutError"``, ``None`` ``"None"``, ``"ok"``
    ``"ok"``: the kind of answer, never its whole content.
    """
    if type(answer) in _PLAIN_TYPES:
        return str(answer)
    return type(answer).__name__


# Marks a delivery finished without a reply (a tell), as distinct from an ask answered None.
_TELL: Any = object()


@dataclasses.dataclass(slots=True, eq=False)
class Delivery:
    """One message on its way: created by :meth:`TraceRecorder.post`, finished by the receiver.

    The sender's thread fills the send half, the receiver's thread the handling half; the actor
    mailbox between them orders the two, so no lock is needed here. The recorder keeps the
    finished delivery itself and builds the event dict (payload included) only when the events
    are read or a sink is attached: that is what keeps recording to a few hundred nanoseconds.
    """

    recorder: TraceRecorder
    msg_id: int
    parent_id: int | None
    sender: str
    receiver: str
    message: object
    ply: int | None
    t_sent: int
    game: int | None = None
    phase: str | None = None
    hint: str | None = None
    t_handled: int | None = None
    sender_node: str | None = None
    receiver_node: str | None = None
    t_replied: int | None = None
    answer: object = _TELL

    def begin(self) -> Delivery:
        """Stamp ``t_handled``: the receiver starts handling the message. Returns ``self``."""
        self.t_handled = time.monotonic_ns()
        handling = self.recorder.handling
        if handling is not None:
            handling[self.msg_id] = self
        return self

    def replied(self, answer: object) -> None:
        """Finish an ask: stamp ``t_replied`` and record the delivery.

        ``answer`` is what the receiver replies (a message, a value or an exception); the event
        keeps its :func:`reply_text`. Without a :meth:`begin` first, both times are stamped now.
        """
        self.t_replied = now = time.monotonic_ns()
        if self.t_handled is None:
            self.t_handled = now
        self.answer = answer
        self.recorder.record_delivery(self)

    def done(self) -> None:
        """Finish a tell (no reply): record the delivery with ``t_replied`` None."""
        if self.t_handled is None:
            self.t_handled = time.monotonic_ns()
        self.recorder.record_delivery(self)

    def cancelled(self, ply: int) -> None:
        """A proposal sent for a later ply was cancelled by the refusal of ``ply``: it served that ply
        (its ``ply``, and its phase when the phase was its own ply's), never a ply of its own."""
        if self.phase == f"ply {self.ply}":
            self.phase = f"ply {ply}"
        self.ply = ply

    @property
    def instrument(self) -> TraceRecorder:
        """The recorder that follows this delivery (the runtime's name for it: see
        :class:`actors.kernel.instrument.Visit`)."""
        return self.recorder

    @property
    def kind(self) -> str:
        """The message's class name."""
        return type(self.message).__name__

    def event(self) -> TraceEvent:
        """Return this delivery as a trace event dict (builds the readable payloads)."""
        answer = self.answer
        kind = type(self.message).__name__
        payload = readable(self.message)
        reply_payload = None if answer is _TELL else readable_reply(answer)
        reply = None if answer is _TELL else reply_text(answer)
        event: TraceEvent = {
            "format": FORMAT_VERSION,
            "msg_id": self.msg_id,
            "parent_id": self.parent_id,
            "sender": self.sender,
            "receiver": self.receiver,
            "kind": kind,
            "payload": payload,
            "summary": summarize(kind, payload),
            "t_sent": self.t_sent,
            "t_handled": self.t_sent if self.t_handled is None else self.t_handled,
            "t_replied": self.t_replied,
            "game": self.game,
            "phase": self.phase,
            "ply": self.ply,
            "reply": reply,
            "reply_payload": reply_payload,
            "reply_summary": None if reply_payload is None or reply is None
            else summarize(reply, reply_payload),
            "hint": self.hint,
        }
        if self.sender_node is not None or self.receiver_node is not None:
            event["sender_node"] = self.sender_node or "?"
            event["receiver_node"] = self.receiver_node or "?"
        return event
