"""Trace exporters: reading JSON lines, choosing plies and games, Mermaid and Markdown diagrams.

Small pure functions over lists of trace event dicts (:class:`actors.tracing.event.TraceEvent`), no I/O;
the Perfetto timeline is :mod:`actors.tracing.perfetto`, the studio page :mod:`actors.studio`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from actors.kernel.links import FAULT_KINDS
from actors.tracing.event import FORMAT_VERSION, REQUIRED_FIELDS, TraceEvent, event_to_json
from actors.tracing.perfetto import to_perfetto
from board.errors import InputError

__all__ = [
    "PlyRangeError",
    "TimelinePoint",
    "TraceFormatError",
    "games_of",
    "messages_per_ply",
    "parse_ply_range",
    "phase_of",
    "read_jsonl",
    "select_game",
    "select_plies",
    "timeline",
    "to_jsonl",
    "to_perfetto",
]


class TraceFormatError(InputError):
    """A trace file line that is not a JSON object with the trace schema; names line and field."""


class PlyRangeError(InputError):
    """A ``--plies`` range that is not ``A-B`` (or ``A``) with 1 <= A <= B."""


# --- reading and selecting ------------------------------------------------------------------

_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "format": (int, type(None)),
    "msg_id": (int,),
    "parent_id": (int, type(None)),
    "sender": (str,),
    "receiver": (str,),
    "kind": (str,),
    "payload": (dict,),
    "summary": (str, type(None)),
    "t_sent": (int,),
    "t_handled": (int,),
    "t_replied": (int, type(None)),
    "game": (int, type(None)),
    "phase": (str, type(None)),
    "ply": (int, type(None)),
    "reply": (str, type(None)),
    "reply_payload": (dict, type(None)),
    "reply_summary": (str, type(None)),
    "sender_node": (str, type(None)),
    "receiver_node": (str, type(None)),
}
# Filled in when missing, so that every reader can index them; format 2's own are left absent,
# so that a format 1 trace read and written again is the same text.
_FORMAT_1_OPTIONAL = ("payload", "t_replied", "ply", "reply")
_TYPE_NAMES = {int: "an integer", str: "a string", dict: "an object", type(None): "null"}


def read_jsonl(lines: Iterable[str | bytes], source: str = "<trace>") -> list[TraceEvent]:
    """Parse trace JSON lines into a list of events (see :func:`iter_jsonl`).

    Args:
        lines: the trace's lines, as text or bytes (a file opened in either mode).
        source: how error messages name the trace (a path).

    Returns:
        The events, in the order of the lines.

    Raises:
        TraceFormatError: a line that is not JSON, or an event that lacks a field or has a field of
            the wrong type; the message names the source and the line.
    """
    return list(iter_jsonl(lines, source))


TRACE_LINE_BYTES = 1_000_000
"""The longest line a trace file may have: an event is a few hundred bytes, so a longer line is
not an event, and it is refused before it can fill the memory."""


def bounded_lines(file: BinaryIO, source: str, limit: int = TRACE_LINE_BYTES) -> Iterator[bytes]:
    """The lines of ``file``, read one at a time, none longer than ``limit`` bytes.

    Raises:
        TraceFormatError: a line is longer than ``limit`` (naming ``source``, the line and the limit).
    """
    number = 0
    while True:
        line = file.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit:
            raise TraceFormatError(
                f"{source}, line {number}: longer than the limit of {limit:,} bytes for a trace line"
            )
        yield line


def iter_jsonl(lines: Iterable[str | bytes], source: str = "<trace>") -> Iterator[TraceEvent]:
    """Parse trace JSON lines into events one by one, checking every field; blank lines are skipped.

    Missing format 1 optional fields (``payload``, ``t_replied``, ``ply``, ``reply``) default to
    ``{}`` or None; format 2's (``summary``, ``game``, ``phase``, ``reply_payload`` ...) are
    checked when present and read with ``.get``; extra fields are kept. A line with no
    ``format`` is read as format 1. Only the message ids seen so far are remembered (to refuse a
    repeated one), so a long trace streams through in little memory.

    Raises:
        TraceFormatError: naming ``source`` and the line: not UTF-8, not JSON (a truncated last
            line included), not an object, a required field missing, a field of the wrong type,
            a format newer than this reader's, or a repeated ``msg_id``.
    """
    seen: dict[int, int] = {}
    for number, raw in enumerate(lines, start=1):
        where = f"{source}, line {number}"
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise TraceFormatError(f"{where}: not UTF-8 text") from None
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as error:
            raise TraceFormatError(f"{where}: not JSON ({error.msg} at column {error.colno})") from None
        except RecursionError:
            raise TraceFormatError(f"{where}: nested too deeply to be a trace event") from None
        except ValueError as error:  # e.g. a number past Python's digit limit for int()
            raise TraceFormatError(f"{where}: not usable JSON ({error})") from None
        if not isinstance(record, dict):
            raise TraceFormatError(f"{where}: expected a JSON object, got {type(record).__name__}")
        event = _checked_event(record, where)
        msg_id = event["msg_id"]
        parent_id = event["parent_id"]
        if parent_id is not None and parent_id >= msg_id:
            # Ids are allocated at send time, so a cause always has the smaller id.
            raise TraceFormatError(
                f"{where}: parent_id {parent_id} is not an earlier message than msg_id {msg_id}"
            )
        if msg_id in seen:
            raise TraceFormatError(f"{where}: msg_id {msg_id} repeats line {seen[msg_id]}")
        seen[msg_id] = number
        yield event


def _checked_event(record: dict[str, Any], where: str) -> TraceEvent:
    for name in REQUIRED_FIELDS:
        if name not in record:
            raise TraceFormatError(f"{where}: missing field {name!r}")
    for name in _FORMAT_1_OPTIONAL:
        record.setdefault(name, {} if name == "payload" else None)
    for name, allowed in _FIELD_TYPES.items():
        if name not in record:
            continue  # a format 2 field absent from a format 1 line: readers use .get()
        value = record[name]
        # bool is an int to Python but never a valid id or time in a trace.
        if isinstance(value, bool) or not isinstance(value, allowed):
            wanted = " or ".join(_TYPE_NAMES[kind] for kind in allowed)
            raise TraceFormatError(f"{where}: field {name!r} must be {wanted}, got {_short(value)}")
    version = record.get("format")
    if version is not None and not 1 <= version <= FORMAT_VERSION:
        raise TraceFormatError(
            f"{where}: trace format {version} is not one this version reads (1 to {FORMAT_VERSION})"
        )
    return record  # type: ignore[return-value]  # every schema field was checked just above


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_PLY_RANGE_RE = re.compile(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?")


def parse_ply_range(text: str) -> tuple[int, int]:
    """Parse ``"A-B"`` (or ``"A"``, meaning ``A-A``) into 1-based inclusive ply bounds.

    Raises:
        PlyRangeError: when the text is not of that shape, a bound is 0, or A > B.
    """
    match = _PLY_RANGE_RE.fullmatch(text)
    if match is None:
        raise PlyRangeError(f"--plies {text!r}: expected a range of plies such as 3-7")
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) is not None else first
    if first < 1:
        raise PlyRangeError(f"--plies {text!r}: plies count from 1")
    if first > last:
        raise PlyRangeError(f"--plies {text!r}: the range ends before it starts")
    return first, last


def select_plies(events: Iterable[TraceEvent], first: int, last: int) -> list[TraceEvent]:
    """Return the events serving plies ``first`` to ``last``, inclusive; events without a ply
    and the start-up (which only shares the first ply's number) are left out.
    """
    return [
        event
        for event in events
        if event["ply"] is not None and first <= event["ply"] <= last and event.get("phase") != "startup"
    ]


def games_of(events: Iterable[TraceEvent]) -> list[int]:
    """Return the game numbers the events belong to, in order (none for a trace without games)."""
    return sorted({game for event in events if (game := event.get("game")) is not None})


def select_game(events: Iterable[TraceEvent], game: int) -> list[TraceEvent]:
    """Return the events of game ``game``; in a trace without game numbers, game 1 is every event."""
    chosen = list(events)
    if not games_of(chosen):
        return chosen if game == 1 else []
    return [event for event in chosen if event.get("game") == game]


def placing_nodes(event: TraceEvent) -> tuple[str, str] | None:
    """The nodes a delivery's sender and receiver run on, as a game on nodes traces them; None in a
    trace of one process, and for a mark no actor received (a restart, a fault on a link), which is
    noted by the process where it happened and so says nothing of where its actors run."""
    if "sender_node" not in event or event["kind"] == "Restart" or event["kind"] in FAULT_KINDS:
        return None
    return event["sender_node"], event.get("receiver_node") or "?"


def phase_of(event: TraceEvent) -> str | None:
    """The phase an event served: its ``phase``, else (format 1) ``ply N`` from its ply."""
    phase = event.get("phase")
    if phase is not None:
        return phase
    ply = event.get("ply")
    return None if ply is None else f"ply {ply}"


def messages_per_ply(events: Iterable[TraceEvent]) -> dict[int, int]:
    """Return how many messages each ply took, in ply order (events without a ply are skipped)."""
    counts = Counter(event["ply"] for event in events if event["ply"] is not None)
    return {ply: counts[ply] for ply in sorted(counts)}


def to_jsonl(events: Iterable[TraceEvent]) -> Iterator[str]:
    """Each event as one JSON line, schema fields first (the format ``replay --trace`` writes).

    Args:
        events: trace events, as recorded or as read back.

    Returns:
        An iterator of the lines, each ending in a newline.
    """
    for event in events:
        yield event_to_json(event) + "\n"


# --- the causal timeline --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimelinePoint:
    """A moment on the timeline: a send (``is_reply`` False) or a reply of ``event``."""

    time: int
    order: int
    is_reply: bool
    event: TraceEvent


def timeline(events: Sequence[TraceEvent], roots_when_taken: bool = False) -> list[TimelinePoint]:
    """Return sends and replies in the order they happened.

    The clock decides; ties (a coarse clock makes many) fall back to causal order: a depth-first
    walk of the parent tree puts a send before its children's and a reply after theirs. With
    ``roots_when_taken``, a message with no cause in the list (a client's request) is placed when
    its receiver took it up rather than when it was sent: requests sent ahead, many in flight,
    then each sit with the conversation they start.
    """
    known = {event["msg_id"] for event in events}
    children: dict[int | None, list[TraceEvent]] = {None: []}
    for event in sorted(events, key=lambda item: item["msg_id"]):
        parent = event["parent_id"]
        # A cause outside the selection, or one that is not earlier (only a hand-made list can
        # hold that), makes the event a root: the walk below must see every event exactly once.
        if parent not in known or parent is None or parent >= event["msg_id"]:
            parent = None
        children.setdefault(parent, []).append(event)
    roots = {event["msg_id"] for event in children[None]}
    answered = _answered_together(events)
    points: list[TimelinePoint] = []
    order = 0
    # An explicit stack, not recursion: a long chain of causes must not hit the recursion limit.
    stack: list[tuple[TraceEvent, bool]] = [(root, False) for root in reversed(children[None])]
    while stack:
        event, finished = stack.pop()
        if finished:
            if event["t_replied"] is not None:
                points.append(
                    TimelinePoint(answered.get(event["msg_id"], event["t_replied"]), order, True, event)
                )
        else:
            taken = roots_when_taken and event["msg_id"] in roots
            points.append(TimelinePoint(event["t_handled" if taken else "t_sent"], order, False, event))
            stack.append((event, True))
            stack.extend((child, False) for child in reversed(children.get(event["msg_id"], [])))
        order += 1
    points.sort(key=lambda point: (point.time, point.order))
    return points


def _answered_together(events: Sequence[TraceEvent]) -> dict[int, int]:
    """Asks sent at once and awaited together (a referee asking the pieces and the board in one
    round) are answered, as the asker sees it, when the last reply is in: each such reply is drawn
    then, in the order the asks went out, so that a diagram does not depend on which thread the
    scheduler happened to wake first. Returns the drawing time of those replies by message id."""
    rounds: dict[tuple[int | None, str], list[TraceEvent]] = {}
    for event in events:
        if event["t_replied"] is not None:
            rounds.setdefault((event["parent_id"], event["sender"]), []).append(event)
    drawn: dict[int, int] = {}
    for asks in rounds.values():
        if len(asks) < 2:
            continue
        asks.sort(key=lambda item: (item["t_sent"], item["msg_id"]))
        burst: list[TraceEvent] = []
        for ask in [*asks, None]:
            if ask is not None and burst and ask["t_sent"] <= min(item["t_replied"] or 0 for item in burst):
                burst.append(ask)
                continue
            if len(burst) > 1:
                last = max(item["t_replied"] or 0 for item in burst)
                drawn.update((item["msg_id"], last) for item in burst)
            burst = [ask] if ask is not None else []
    return drawn
