"""Tracing: every delivered message becomes one event dict, recorded and optionally logged.

Actors stamp each message at send, handling and reply; exporters (:mod:`actors.tracing.export`) read.

How an actor records one delivered message::

    recorder = TraceRecorder()                                   # one per game, shared by actors
    delivery = recorder.post("referee", "white-knight-g1", query, parent=current)  # sender
    future = piece_ref.ask((query, delivery), block=False)       # the delivery rides along
    delivery.begin()                                             # receiver, first thing
    delivery.replied(answer)                                     # receiver, an ask; a tell: done()

``post`` allocates the ``msg_id`` and stamps ``t_sent``. ``parent`` is the delivery the sender is
handling when it sends (``None`` for the client's own requests, which pass ``ply=`` instead); the
child inherits its ``parent_id`` and ``ply`` from it. ``begin`` stamps ``t_handled``; ``replied``
stamps ``t_replied`` and keeps :func:`reply_text` of the answer; ``done`` finishes a tell
(``t_replied`` None). Both record the delivery. Nothing here knows chess: a message is any
dataclass (or mapping), its ``kind`` is its class name and its payload its fields.

The event schema (one dict per delivered message, see :class:`TraceEvent`)::

    msg_id, parent_id, sender, receiver, kind, payload, t_sent, t_handled, t_replied, ply, reply

Recording costs a lock, a counter, three clock reads and an append (about a microsecond); the
event dict and its payload are built only when the events are read or a sink is attached. With
a sink attached (``recorder.attach(jsonl_sink(file))``) each event also runs through a structlog
pipeline whose wrapped logger is named ``chess_actors.trace``. Nothing is configured globally:
with no sink attached nothing is written anywhere.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import json
import logging
import math
import os
import statistics
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import IO, Any, TextIO, TypedDict, cast

import structlog
from structlog.processors import JSONRenderer
from structlog.typing import EventDict, FilteringBoundLogger, Processor, WrappedLogger

__all__ = [
    "OPTIONAL_FIELDS",
    "REQUIRED_FIELDS",
    "SCHEMA_FIELDS",
    "STARTUP",
    "TRACE_LOGGER_NAME",
    "Delivery",
    "TraceEvent",
    "TraceRecorder",
    "actor_role",
    "event_to_json",
    "jsonl_sink",
    "kind_from_event_name",
    "logging_sink",
    "median",
    "p99",
    "payload_of",
    "percentile",
    "reply_text",
    "trace_sink",
]

TRACE_LOGGER_NAME = "chess_actors.trace"

# Every line of a trace file has the required fields (the CLI contract of ``replay --trace``);
# the optional ones default to None (payload to {}) when a reader finds them missing.
REQUIRED_FIELDS = ("msg_id", "parent_id", "sender", "receiver", "kind", "t_sent", "t_handled")
OPTIONAL_FIELDS = ("payload", "t_replied", "ply", "reply", "hint", "phase")
SCHEMA_FIELDS = (
    "msg_id",
    "parent_id",
    "sender",
    "receiver",
    "kind",
    "payload",
    "t_sent",
    "t_handled",
    "t_replied",
    "ply",
    "reply",
    "hint",
    "phase",
)

COLOURS = frozenset({"white", "black"})


class TraceEvent(TypedDict):
    """One delivered message; times are ``time.monotonic_ns()`` readings."""

    msg_id: int
    parent_id: int | None
    sender: str
    receiver: str
    kind: str
    payload: dict[str, Any]
    t_sent: int
    t_handled: int
    t_replied: int | None
    ply: int | None
    reply: str | None
    hint: str | None
    phase: str | None


STARTUP = "start-up"
"""The phase of the messages that set a game up (start or re-seat actors) before its first move."""

TraceSink = FilteringBoundLogger


# --- payloads -------------------------------------------------------------------------------

_PLAIN_TYPES = frozenset({type(None), bool, int, float, str})

# dataclasses.fields() walks the class every call; a message class is asked thousands of times.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = tuple(field.name for field in dataclasses.fields(cls))
        _FIELD_NAMES[cls] = names
    return names


def _jsonable(value: object) -> Any:
    if type(value) in _PLAIN_TYPES:
        return value
    if isinstance(value, enum.Enum):
        return _jsonable(value.value)
    if isinstance(value, tuple | list):
        return [_jsonable(item) for item in value]
    if isinstance(value, frozenset | set):
        # Sets have no order; sort their JSON forms so that a trace is reproducible.
        return sorted((_jsonable(item) for item in value), key=repr)
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return payload_of(value)
    if isinstance(value, bool | int | float | str):  # subclasses of the plain types
        return value
    return str(value)


def payload_of(message: object) -> dict[str, Any]:
    """Return the JSON-able payload of ``message``: a dataclass's fields or a mapping's items.

    Tuples become lists, enums their values, nested dataclasses dicts, anything else its
    ``str``. A message that is neither a dataclass nor a mapping gets ``{"value": str(message)}``.
    """
    names = _FIELD_NAMES.get(type(message))
    if names is None and dataclasses.is_dataclass(message) and not isinstance(message, type):
        names = _field_names(type(message))
    if names is not None:
        return {name: _jsonable(getattr(message, name)) for name in names}
    if isinstance(message, Mapping):
        return {str(key): _jsonable(item) for key, item in message.items()}
    return {"value": _jsonable(message)}


def reply_text(answer: object) -> str:
    """Return the short text a trace shows for a reply: its class name, or a plain value as text.

    ``Yes(...)`` gives ``"Yes"``, an exception ``"TimeoutError"``, ``None`` ``"None"``, ``"ok"``
    ``"ok"``: the kind of answer, never its whole content.
    """
    if type(answer) in _PLAIN_TYPES:
        return str(answer)
    return type(answer).__name__


# --- deliveries -----------------------------------------------------------------------------

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
    t_handled: int | None = None
    t_replied: int | None = None
    answer: object = _TELL
    hint: str | None = None
    phase: str | None = None

    def begin(self) -> Delivery:
        """Stamp ``t_handled``: the receiver starts handling the message. Returns ``self``."""
        self.t_handled = time.monotonic_ns()
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

    @property
    def kind(self) -> str:
        """The message's class name."""
        return type(self.message).__name__

    def event(self) -> TraceEvent:
        """Return this delivery as a trace event dict (builds the payload)."""
        answer = self.answer
        return {
            "msg_id": self.msg_id,
            "parent_id": self.parent_id,
            "sender": self.sender,
            "receiver": self.receiver,
            "kind": type(self.message).__name__,
            "payload": payload_of(self.message),
            "t_sent": self.t_sent,
            "t_handled": self.t_sent if self.t_handled is None else self.t_handled,
            "t_replied": self.t_replied,
            "ply": self.ply,
            "reply": None if answer is _TELL else reply_text(answer),
            "hint": self.hint,
            "phase": self.phase,
        }


# --- the recorder ---------------------------------------------------------------------------


class TraceRecorder:
    """Collects the events of a run; safe to use from every actor thread at once.

    Args:
        keep: store events for :meth:`events` and the statistics. ``keep=False`` only streams to
            the attached sinks (a long replay written with ``--trace`` need not stay in memory).
    """

    def __init__(self, *, keep: bool = True) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        # Finished deliveries are turned into event dicts lazily, oldest first; every item
        # before index _built is already a dict.
        self._items: list[TraceEvent | Delivery] = []
        self._built = 0
        self._keep = keep
        # Replaced, never mutated, so recording can read it without the lock.
        self._sinks: tuple[TraceSink, ...] = ()
        self.phase: str | None = None
        """The phase the client's messages belong to now (their descendants inherit it)."""
        self.phase_ns: Counter[str] = Counter()
        """Wall time the client spent in each phase (see :meth:`in_phase`)."""

    # -- the actor-facing API

    def next_id(self) -> int:
        """Return a fresh message id: unique in this recorder, increasing from 1."""
        with self._lock:
            return next(self._ids)

    def post(
        self,
        sender: str,
        receiver: str,
        message: object,
        *,
        parent: Delivery | None = None,
        ply: int | None = None,
        hint: str | None = None,
    ) -> Delivery:
        """Start the delivery of ``message``: allocate its id and stamp ``t_sent``.

        Args:
            sender: the sending actor's stable name ("client", "referee", "white-knight-g1").
            receiver: the receiving actor's stable name.
            message: the message object; its class name is the event's ``kind``.
            parent: the delivery being handled when this send happens; None for a client request.
            ply: the ply this message serves; defaults to the parent's.
            hint: the remembered fact that chose this receiver (the referee's ``whereabouts``), if any.

        Returns:
            The delivery, to travel with the message to the receiver.
        """
        parent_id = None
        phase = self.phase
        if parent is not None:
            parent_id, phase = parent.msg_id, parent.phase
            if ply is None:
                ply = parent.ply
        with self._lock:
            msg_id = next(self._ids)
        t_sent = time.monotonic_ns()
        return Delivery(
            self, msg_id, parent_id, sender, receiver, message, ply, t_sent, hint=hint, phase=phase
        )

    @contextmanager
    def in_phase(self, name: str) -> Iterator[None]:
        """Mark the messages the client sends inside the block (and all they cause) as ``name``, and
        add the block's wall time to :attr:`phase_ns` (the client calls this around a game's start-up)."""
        before, self.phase = self.phase, name
        started = time.monotonic_ns()
        try:
            yield
        finally:
            self.phase_ns[name] += time.monotonic_ns() - started
            self.phase = before

    def counts_by_phase(self) -> dict[str, int]:
        """Return how many delivered messages belong to each named phase."""
        with self._lock:
            items = list(self._items)
        phases = Counter(item.phase if isinstance(item, Delivery) else item.get("phase") for item in items)
        return {phase: count for phase, count in phases.items() if phase is not None}

    def record(self, event: TraceEvent) -> None:
        """Record one delivered message given as an event dict (and emit it to every sink)."""
        if self._keep:
            with self._lock:
                self._items.append(event)
        if self._sinks:
            self._emit(event)

    def record_delivery(self, delivery: Delivery) -> None:
        """Record a finished delivery; :meth:`Delivery.replied` and ``done`` call this."""
        if self._keep:
            with self._lock:
                self._items.append(delivery)
        if self._sinks:
            self._emit(delivery.event())

    def _emit(self, event: TraceEvent) -> None:
        fields: dict[str, Any] = dict(event)
        kind: str = fields.pop("kind")
        for sink in self._sinks:
            sink.info(kind, **fields)

    # -- sinks

    def attach(self, sink: TraceSink) -> None:
        """Emit every event recorded from now on to ``sink`` (see :func:`jsonl_sink`)."""
        with self._lock:
            self._sinks = (*self._sinks, sink)

    def detach(self, sink: TraceSink) -> None:
        """Stop emitting to ``sink``; detaching a sink that is not attached does nothing."""
        with self._lock:
            self._sinks = tuple(attached for attached in self._sinks if attached is not sink)

    @contextmanager
    def attached(self, sink: TraceSink) -> Iterator[TraceSink]:
        """Attach ``sink`` for the duration of a ``with`` block."""
        self.attach(sink)
        try:
            yield sink
        finally:
            self.detach(sink)

    # -- reading

    def events(self) -> list[TraceEvent]:
        """Return a snapshot of the recorded events, in the order they were recorded."""
        with self._lock:
            items = self._items
            for index in range(self._built, len(items)):
                item = items[index]
                if isinstance(item, Delivery):
                    items[index] = item.event()
            self._built = len(items)
            return cast(list[TraceEvent], list(items))

    def clear(self) -> None:
        """Forget the recorded events and phase times (message ids keep increasing)."""
        with self._lock:
            self._items.clear()
            self._built = 0
            self.phase_ns = Counter()

    def __len__(self) -> int:
        """Return the number of recorded events."""
        return len(self._items)

    def counts_by_kind(self) -> dict[str, int]:
        """Return how many messages of each kind were delivered, most frequent first."""
        # Read kinds straight off the deliveries: counting must not pay for building payloads.
        with self._lock:
            items = list(self._items)
        kinds = Counter(item.kind if isinstance(item, Delivery) else item["kind"] for item in items)
        return dict(kinds.most_common())

    def latencies_by_receiver_kind(self) -> dict[str, list[int]]:
        """Return handling latencies (``t_replied - t_handled``, ns) grouped by receiver role.

        The role is :func:`actor_role` of the receiver ("referee", "board", "knight", ...); each
        list is sorted, ready for :func:`median` and :func:`p99`. Tells have no reply and no
        latency, so they are left out.
        """
        with self._lock:
            items = list(self._items)
        latencies: dict[str, list[int]] = {}
        for item in items:
            if isinstance(item, Delivery):
                receiver, t_handled, t_replied = item.receiver, item.t_handled, item.t_replied
            else:
                receiver, t_handled, t_replied = (
                    item["receiver"],
                    item["t_handled"],
                    item["t_replied"],
                )
            if t_replied is not None and t_handled is not None:
                latencies.setdefault(actor_role(receiver), []).append(t_replied - t_handled)
        return {role: sorted(samples) for role, samples in sorted(latencies.items())}

    def write_jsonl(self, destination: str | os.PathLike[str] | IO[str]) -> int:
        """Write the recorded events as JSON lines to a path or an open text file.

        Returns the number of lines written. A path is created or truncated.
        """
        events = self.events()
        if isinstance(destination, str | os.PathLike):
            with open(destination, "w", encoding="utf-8") as file:
                return _write_lines(file, events)
        return _write_lines(destination, events)


def _write_lines(file: IO[str], events: Iterable[TraceEvent]) -> int:
    count = 0
    for event in events:
        file.write(event_to_json(event) + "\n")
        count += 1
    return count


def event_to_json(event: Mapping[str, Any]) -> str:
    """Return one event as a JSON line (no newline), schema fields first."""
    ordered = {name: event[name] for name in SCHEMA_FIELDS if name in event}
    ordered.update((key, value) for key, value in event.items() if key not in ordered)
    return json.dumps(ordered, separators=(",", ":"), default=str)


# --- roles and statistics -------------------------------------------------------------------


def actor_role(name: str) -> str:
    """Return the role of an actor from its stable name.

    ``"white-knight-g1"`` -> ``"knight"``; ``"referee"`` -> ``"referee"``; ``"board"`` ->
    ``"board"``; a numbered name such as ``"referee-2"`` -> ``"referee"``.
    """
    parts = name.split("-")
    if len(parts) >= 2 and parts[0] in COLOURS:
        return parts[1]
    return parts[0]


def percentile(samples: Sequence[int], fraction: float) -> int:
    """Return the nearest-rank percentile of sorted ``samples`` (``fraction`` in (0, 1]).

    Raises ValueError when ``samples`` is empty.
    """
    if not samples:
        raise ValueError("percentile of no samples")
    rank = max(1, math.ceil(fraction * len(samples)))
    return samples[min(rank, len(samples)) - 1]


def p99(samples: Sequence[int]) -> int:
    """Return the 99th percentile (nearest rank) of sorted ``samples``."""
    return percentile(samples, 0.99)


def median(samples: Sequence[int]) -> float:
    """Return the median of ``samples``; raises ValueError when there are none."""
    if not samples:
        raise ValueError("median of no samples")
    return float(statistics.median(samples))


# --- structlog sinks ------------------------------------------------------------------------


def kind_from_event_name(
    logger: WrappedLogger, method_name: str, event_dict: EventDict
) -> EventDict:
    """structlog processor: turn the event name back into ``kind``, in schema field order.

    The recorder logs ``sink.info(kind, **fields)`` so that console renderers headline the
    message kind; this puts the event back into the trace schema for machine readers.
    """
    kind = event_dict.pop("event", None)
    ordered: EventDict = {}
    for name in SCHEMA_FIELDS:
        if name == "kind":
            ordered["kind"] = kind
        elif name in event_dict:
            ordered[name] = event_dict.pop(name)
    ordered.update(event_dict)
    return ordered


class _NamedWriteLogger(structlog.WriteLogger):
    """A structlog WriteLogger that carries the trace logger's name for ``add_logger_name``."""

    name = TRACE_LOGGER_NAME


def trace_sink(logger: WrappedLogger, *processors: Processor) -> TraceSink:
    """Wrap ``logger`` as a trace sink: :func:`kind_from_event_name`, then ``processors``.

    The last processor renders (e.g. ``JSONRenderer()``) for ``logger``. The sink ignores the
    global structlog configuration, so an application's log level cannot silence a trace.
    """
    return cast(
        TraceSink,
        structlog.wrap_logger(
            logger,
            processors=[kind_from_event_name, *processors],
            wrapper_class=structlog.make_filtering_bound_logger(logging.NOTSET),
            context_class=dict,
            cache_logger_on_first_use=True,
        ),
    )


def jsonl_sink(file: TextIO) -> TraceSink:
    """Return a sink that writes each event to ``file`` as one JSON line, flushed as it happens.

    Lines from several actor threads never interleave (structlog's WriteLogger locks the file).
    """
    return trace_sink(
        _NamedWriteLogger(file),
        JSONRenderer(serializer=_compact_json),
    )


def logging_sink() -> TraceSink:
    """Return a sink that logs each event as a JSON line at INFO to the stdlib logger
    ``chess_actors.trace``; the application's logging configuration decides where it goes
    (with none, INFO goes nowhere).
    """
    return trace_sink(logging.getLogger(TRACE_LOGGER_NAME), JSONRenderer(serializer=_compact_json))


def _compact_json(value: Any, **kwargs: Any) -> str:
    return json.dumps(value, separators=(",", ":"), default=str)
