"""What the network carries across a failing link (see actors.kernel.network): a message on its way, kept
to be sent again, and an asker's reply, settled once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from actors.kernel.mailbox import Reply
from actors.kernel.messaging import Envelope, Ref

if TYPE_CHECKING:
    from pykka._types import OptExcInfo

    from actors.kernel.instrument import Visit

__all__ = ["Packet", "Pair", "as_exc_info", "settle"]

Pair = tuple[str, str]
"""A sequence of messages: the sender's incarnation and the receiver's (see actors.kernel.network:
'board' for a first start, 'board#2' for the next; the client with its supervisor is one, 'client')."""


@dataclass(eq=False, slots=True)
class Packet:
    """One message on its way across a link, with everything needed to send it again."""

    carrying: str  # "ask", "tell", "reply" or "ack"
    sender: str
    receiver: str
    pair: Pair  # (sender's incarnation, receiver's incarnation) of the ask or tell: its sequence
    seq: int
    kind: str  # the message's class name, for the trace
    order: int = 0  # a reply's place among the replies on its pair (answered in that order)
    ref: Ref | None = None  # the receiver (an ask or tell)
    envelope: Envelope | None = None
    future: Reply | None = None  # the asker's reply (an ask, or a reply to it)
    answer: tuple[Any, OptExcInfo | None] | None = None  # a reply's value or error
    acked: Packet | None = None  # what an acknowledgement acknowledges, or the ask a reply answers
    attempts: int = 0
    arrivals: int = 0
    done: bool = False  # acknowledged (or given up)
    doomed: bool = False  # lost on every attempt (a planned loss for good)
    origin: str = ""  # the urn of the sending actor ("" for the client): a replaced one's mail is fenced

    @property
    def delivery(self) -> Visit | None:
        return self.envelope.delivery if self.envelope is not None else None


def as_exc_info(error: BaseException) -> OptExcInfo:
    """``error`` as the exception info a reply is settled with."""
    return (type(error), error, None)


def settle(future: Reply, answer: tuple[Any, OptExcInfo | None]) -> None:
    """Settle the asker's reply once (a second settling is a stale reply, dropped)."""
    value, error = answer
    try:
        if error is not None:
            future.set_exception(error)
        else:
            future.set(value)
    except Exception:  # queue.Full: settled already
        return
