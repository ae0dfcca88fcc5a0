"""The trace marks of link faults: what the trace records, as a child of a message's delivery, when a
transmission of it is lost, duplicated, delayed or sent again (see actors.kernel.network)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Delayed", "Dropped", "Duplicated", "Fenced", "Retried"]


@dataclass(frozen=True, slots=True)
class Dropped:
    """A transmission of ``message`` (an ask, tell, reply or acknowledgement: ``carrying``) was lost."""

    message: str
    carrying: str
    attempt: int


@dataclass(frozen=True, slots=True)
class Duplicated:
    """A transmission of ``message`` arrived twice."""

    message: str
    carrying: str
    attempt: int


@dataclass(frozen=True, slots=True)
class Delayed:
    """A transmission of ``message`` was held ``seconds`` (0: held until the next one on its link)."""

    message: str
    carrying: str
    attempt: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Retried:
    """``message`` was not acknowledged in time and is sent again (attempt ``attempt``)."""

    message: str
    carrying: str
    attempt: int


@dataclass(frozen=True, slots=True)
class Fenced:
    """``message`` came from, or was meant for, an incarnation that was replaced (``side``: 'sender' or
    'receiver'): it is dropped where it arrives and changes nothing (Erlang's mail to a dead pid)."""

    message: str
    carrying: str
    side: str
