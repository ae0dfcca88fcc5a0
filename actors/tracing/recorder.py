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
stamps ``t_replied`` and keeps :func:`reply_text` of the answer; ``done``
finishes a tell (``t_replied`` None). Both record the delivery. Nothing here knows chess: a message
is any dataclass (or mapping), its ``kind`` is its class name and its payload its fields.

The event schema (one dict per delivered message, see :class:`~actors.tracing.event.TraceEvent`;
README documents it)::

    format, msg_id, parent_id, sender, receiver, kind, payload, summary, t_sent, t_handled,
    t_replied, game, phase, ply, reply, reply_payload, reply_summary

Payloads are readable (:mod:`actors.protocol.readable`: square, piece and colour names). The phase
says what a message served: ``startup``, ``ply N``, ``step N`` (a scenario) or ``heal``; client
code marks it with ``with recorder.phase("step", 3):`` and children inherit their parent's.

Recording costs a lock, a counter, three clock reads and an append (about a microsecond); the
event dict and its payload are built only when the events are read or a sink is attached. With
a sink attached (``recorder.attach(jsonl_sink(file))``, from :mod:`actors.tracing.sinks`) each
event also runs through a structlog pipeline whose wrapped logger is named ``chess_actors.trace``.
Nothing is configured globally: with no sink attached nothing is written anywhere.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import IO, TYPE_CHECKING, Any, cast

from actors.kernel.links import FAULT_KINDS
from actors.protocol.readable import readable, readable_reply, summarize
from actors.tracing.event import FORMAT_VERSION, TraceEvent, event_to_json
from actors.tracing.fields import SCHEMA_FIELDS, TRACE_LOGGER_NAME
from actors.tracing.statistics import actor_role, median, p99, percentile

if TYPE_CHECKING:
    from actors.kernel.instrument import Visit
    from actors.tracing.sinks import TraceSink

__all__ = [
    "SCHEMA_FIELDS",
    "STARTUP",
    "TRACE_LOGGER_NAME",
    "Delivery",
    "Restart",
    "TraceRecorder",
    "actor_role",
    "marking",
    "median",
    "note_restart",
    "p99",
    "percentile",
    "reply_text",
]

COLOURS = frozenset({"white", "black"})

STARTUP = "startup"
"""The phase of the messages that set a game up (start or re-seat actors) before its first move."""


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


class TraceRecorder:
    """Collects the events of a run; safe to use from every actor thread at once.

    Args:
        keep: store events for :meth:`events` and the statistics. ``keep=False`` only streams to
            the attached sinks (a long replay written with ``--trace`` need not stay in memory).
    """

    def __init__(self, *, keep: bool = True) -> None:
        self._lock = threading.Lock()
        self._next_id, self._id_step = 1, 1
        # Finished deliveries are turned into event dicts lazily, oldest first; every item
        # before index _built is already a dict.
        self._items: list[TraceEvent | Delivery] = []
        self._built = 0
        self._keep = keep
        # Replaced, never mutated, so recording can read it without the lock.
        self._sinks: tuple[TraceSink, ...] = ()
        # Set by the one client thread that drives a game; actors read them only through post().
        self._phases: list[str] = []
        self.game: int | None = None
        self.phase_ns: Counter[str] = Counter()
        """Wall time the client spent in each phase (see :meth:`phase`)."""
        self.handling: dict[int, Delivery] | None = None
        """The deliveries taken up by their receiver and not yet finished (an ask waiting on the
        asks it made), by id, when a watcher wants to see them at once (set it to ``{}``); None: not
        kept (the usual case: nothing is spent on it)."""
        self.node: str | None = None
        """The node process this recorder records on, when a game's actors run on several (see
        :mod:`actors.clusters.nodes`): every delivery then names the node of its sender and receiver."""
        self._held: list[TraceEvent | Delivery] | None = None  # see hold()

    # -- the actor-facing API

    def next_id(self) -> int:
        """Return a fresh message id: unique in this recorder, increasing from 1."""
        with self._lock:
            msg_id = self._next_id
            self._next_id += self._id_step
            return msg_id

    def number(self, first: int, step: int) -> None:
        """Give the ids ``first``, ``first + step``, ... from now on: recorders in several processes
        then share one space of ids, each with its own residue modulo ``step``."""
        with self._lock:
            self._next_id, self._id_step = first, step

    def witness(self, msg_id: int) -> None:
        """A message numbered ``msg_id`` in another process arrived: number every message from now on
        above it (keeping this recorder's residue), so that a cause keeps a smaller id than its
        effects across processes (Lamport's logical clock)."""
        with self._lock:
            if self._next_id <= msg_id:
                self._next_id += ((msg_id - self._next_id) // self._id_step + 1) * self._id_step

    def post(
        self,
        sender: str,
        receiver: str,
        message: object,
        *,
        parent: Visit | None = None,
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
        phase: str | None
        game = self.game
        if parent is not None:
            parent_id = parent.msg_id
            phase, game = parent.phase, parent.game
            if ply is None:
                ply = parent.ply
        elif self._phases:
            phase = self._phases[-1]
        else:
            phase = None if ply is None else f"ply {ply}"
        with self._lock:
            msg_id = self._next_id
            self._next_id += self._id_step
        t_sent = time.monotonic_ns()
        return Delivery(
            self, msg_id, parent_id, sender, receiver, message, ply, t_sent, game, phase, hint,
            sender_node=self.node,
        )

    def carried(
        self, message: object, msg_id: int, parent_id: int | None, sender: str, receiver: str,
        ply: int | None, t_sent: int, game: int | None, phase: str | None, hint: str | None,
        sender_node: str | None,
    ) -> Delivery:
        """A delivery posted in another process (these are the fields its sender filled), to be
        finished here, where its receiver runs (see :mod:`actors.kernel.remote`); this recorder's
        next ids come after ``msg_id`` (see :meth:`witness`)."""
        self.witness(msg_id)
        return Delivery(self, msg_id, parent_id, sender, receiver, message, ply, t_sent, game, phase, hint,
                        sender_node=sender_node)

    @contextmanager
    def phase(self, name: str, number: int | None = None) -> Iterator[str]:
        """Mark the messages sent (with no parent) inside the block as serving one phase, and add
        the block's wall time to :attr:`phase_ns`.

        ``recorder.phase("step", 3)`` labels them ``step 3``; ``phase("startup")`` ``startup``.
        Phases nest (a heal inside a scenario step is ``heal``); outside every phase a client
        request's label is ``ply N`` from its ``ply``. Yields the label.
        """
        label = name if number is None else f"{name} {number}"
        self._phases.append(label)
        started = time.monotonic_ns()
        try:
            yield label
        finally:
            self._phases.pop()
            self.phase_ns[label] += time.monotonic_ns() - started

    def being_handled(self) -> list[TraceEvent]:
        """The deliveries being handled now (see :attr:`handling`) as events, oldest first: each is
        drawn as sent and taken up, with no reply yet. Call it while no actor runs (between the
        deliveries of a turnstile), or the list may miss one that is just starting."""
        if self.handling is None:
            return []
        taken = sorted(self.handling.copy().values(), key=lambda delivery: delivery.msg_id)
        return [delivery.event() for delivery in taken]

    def counts_by_phase(self) -> dict[str, int]:
        """Return how many delivered messages belong to each named phase."""
        with self._lock:
            items = list(self._items)
        phases = Counter(item.phase if isinstance(item, Delivery) else item.get("phase") for item in items)
        return {phase: count for phase, count in phases.items() if phase is not None}

    def record(self, event: TraceEvent) -> None:
        """Record one delivered message given as an event dict (and emit it to every sink)."""
        if self._held is not None and self._hold(event):
            return
        if self._keep:
            with self._lock:
                self._items.append(event)
        if self._sinks:
            self._emit(event)

    def record_delivery(self, delivery: Delivery) -> None:
        """Record a finished delivery; :meth:`Delivery.replied` and ``done`` call this."""
        if self.node is not None:
            delivery.receiver_node = self.node  # a delivery is finished where its receiver runs
        if self.handling is not None:
            self.handling.pop(delivery.msg_id, None)
        if self._held is not None and self._hold(delivery):
            return
        if self._keep:
            with self._lock:
                self._items.append(delivery)
        if self._sinks:
            self._emit(delivery.event())

    # -- holding a game's events back until they can be numbered by their causes

    def hold(self) -> None:
        """Keep what is recorded from now on back (from the events read and from the sinks) until
        :meth:`release`: a game whose actors run in several processes numbers its messages there in
        the order threads happen to take them, and is numbered again, by causes, when it ends."""
        with self._lock:
            if self._held is None:
                self._held = []

    def _hold(self, item: TraceEvent | Delivery) -> bool:
        with self._lock:
            held = self._held
            if held is None:  # released meanwhile: record it as usual
                return False
            held.append(item)
            return True

    def release(self, more: Iterable[TraceEvent] = (), *, first_id: int | None = None) -> None:
        """Record what :meth:`hold` kept back, with ``more`` (events recorded elsewhere: a node's).

        With ``first_id``, the events are numbered again from it in the order of their causes, and
        the recorder's next id follows them: a message's request first (one sent from outside in
        the order it was sent), then what its handling sent, in the order it was sent, then the
        faults that befell it, in the order of what they say. So two runs that send the same
        messages for the same causes give the same ids in the same order, however their threads
        ran. Without it, everything is recorded in the order it finished, ids kept.
        """
        with self._lock:
            held, self._held = self._held or [], None
        events = [item.event() if isinstance(item, Delivery) else item for item in held]
        events.extend(more)
        if first_id is None:
            events.sort(key=_finished_at)
        else:
            events = _numbered_by_causes(events, first_id)
            self.number(first_id + len(events), 1)
        for event in events:
            self.record(event)

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

    def deliveries(self) -> list[Delivery]:
        """The finished deliveries not yet read as events, oldest first, without building any event
        (for comparing runs cheaply; :meth:`Delivery.event` builds one when it is wanted)."""
        with self._lock:
            return [item for item in self._items[self._built:] if isinstance(item, Delivery)]

    def take(self) -> list[TraceEvent]:
        """Return the recorded events and forget them (a node process hands its events on this way)."""
        with self._lock:
            items, self._items, self._built = self._items, [], 0
        return [item.event() if isinstance(item, Delivery) else item for item in items]

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

    def __repr__(self) -> str:
        """``<TraceRecorder 1,204 messages, plies 1-12, game 1; kinds: MoveQuery 310, Yes 288, ...>``:
        what was recorded, without building any event."""
        with self._lock:
            items = list(self._items)
        if not items:
            return f"<TraceRecorder empty{'' if self._keep else ', streaming only'}>"
        plies = {item.ply if isinstance(item, Delivery) else item.get("ply") for item in items}
        games = {item.game if isinstance(item, Delivery) else item.get("game") for item in items}
        numbered = sorted(ply for ply in plies if ply is not None)
        games_played = sorted(game for game in games if game is not None)
        parts = [f"{len(items):,} message{'' if len(items) == 1 else 's'}"]
        if numbered:
            parts.append(f"plies {numbered[0]}-{numbered[-1]}" if len(numbered) > 1 else f"ply {numbered[0]}")
        if games_played:
            parts.append(
                f"game {games_played[0]}" if len(games_played) == 1 else f"{len(games_played)} games"
            )
        common = list(self.counts_by_kind().items())
        shown = ", ".join(f"{kind} {count:,}" for kind, count in common[:3])
        more = ", ..." if len(common) > 3 else ""
        return f"<TraceRecorder {', '.join(parts)}; kinds: {shown}{more}>"

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


@dataclasses.dataclass(frozen=True, slots=True)
class Restart:
    """Trace marker, not a delivered message: the supervisor started a fresh actor as ``name``."""

    name: str


def note_restart(recorder: TraceRecorder | None, name: str) -> None:
    """Record that the supervisor restarts the actor ``name`` (an event from the supervisor to it)."""
    if recorder is not None:
        recorder.post("supervisor", name, Restart(name)).done()


def marking(
    recorder: TraceRecorder | None, name: str, number: int | None = None
) -> AbstractContextManager[Any]:
    """``recorder.phase(name, number)``, or a block that does nothing when there is no recorder."""
    if recorder is None:
        return nullcontext()
    return recorder.phase(name, number)


def _finished_at(event: TraceEvent) -> int:
    """When a delivery was recorded: its reply, or for a tell its handling."""
    replied = event.get("t_replied")
    return replied if replied is not None else event["t_handled"]


def _numbered_by_causes(events: list[TraceEvent], first_id: int) -> list[TraceEvent]:
    """``events`` in the order of their causes, numbered from ``first_id`` (see ``TraceRecorder.release``).

    Each event comes after the one that caused it (its parent), so a parent keeps a smaller id than
    its children. The events with no parent among them come in the order of their ids (sent from one
    thread, the caller's); the messages a handling sent follow in the order of their ids too (sent
    from the handler's one thread); the fault marks on a message, which threads of either end may
    post, come last, in the order of their kind and fields.
    """
    by_id = {event["msg_id"]: event for event in events}
    children: dict[int | None, list[TraceEvent]] = {}
    for event in events:
        parent = event["parent_id"]
        children.setdefault(parent if parent in by_id else None, []).append(event)

    def order(event: TraceEvent) -> tuple[bool, str, int]:
        if event["kind"] in FAULT_KINDS:
            return True, f"{event['kind']} {event['sender']} {event['receiver']} {event.get('payload')}", 0
        return False, "", event["msg_id"]

    numbered: list[TraceEvent] = []
    renamed: dict[int, int] = {}
    stack = sorted(children.get(None, []), key=order, reverse=True)
    while stack:
        event = stack.pop()
        old, new = event["msg_id"], first_id + len(numbered)
        renamed[old] = new
        parent = event["parent_id"]
        if parent in renamed:
            parent = renamed[parent]
        elif parent is not None and parent >= new:  # a cause that is not here (lost with its node)
            parent = None
        numbered.append(cast(TraceEvent, {**event, "msg_id": new, "parent_id": parent}))
        stack.extend(sorted(children.get(old, []), key=order, reverse=True))
    return numbered
