"""Trace exporters: JSON lines, a Mermaid sequence diagram and a Chrome/Perfetto timeline.

Small pure functions over lists of trace event dicts (:class:`actors.tracing.TraceEvent`), no I/O.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from actors.tracing import OPTIONAL_FIELDS, REQUIRED_FIELDS, TraceEvent, event_to_json
from board.errors import InputError
from board.squares import square_name

__all__ = [
    "PlyRangeError",
    "TraceFormatError",
    "describe_move",
    "messages_per_ply",
    "parse_ply_range",
    "read_jsonl",
    "select_plies",
    "to_jsonl",
    "to_mermaid",
    "to_perfetto",
]

# A tell has no reply time; its slice gets this nominal length (ns), cut short where the
# receiver's next slice begins so that it never swallows a neighbour.
TELL_SLICE_NS = 1_000


class TraceFormatError(InputError):
    """A trace file line that is not a JSON object with the trace schema; names line and field."""


class PlyRangeError(InputError):
    """A ``--plies`` range that is not ``A-B`` (or ``A``) with 1 <= A <= B."""


# --- reading and selecting ------------------------------------------------------------------

_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "msg_id": (int,),
    "parent_id": (int, type(None)),
    "sender": (str,),
    "receiver": (str,),
    "kind": (str,),
    "payload": (dict,),
    "t_sent": (int,),
    "t_handled": (int,),
    "t_replied": (int, type(None)),
    "ply": (int, type(None)),
    "reply": (str, type(None)),
}
_TYPE_NAMES = {int: "an integer", str: "a string", dict: "an object", type(None): "null"}


def read_jsonl(lines: Iterable[str | bytes], source: str = "<trace>") -> list[TraceEvent]:
    """Parse trace JSON lines into a list of events (see :func:`iter_jsonl`)."""
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
            raise TraceFormatError(f"{source}, line {number}: longer than the limit of {limit:,} bytes "
                                   f"for a trace line")
        yield line


def iter_jsonl(lines: Iterable[str | bytes], source: str = "<trace>") -> Iterator[TraceEvent]:
    """Parse trace JSON lines into events one by one, checking every field; blank lines are skipped.

    Missing optional fields (``payload``, ``t_replied``, ``ply``, ``reply``) default to ``{}`` or
    None; extra fields are kept. Only the message ids seen so far are remembered (to refuse a
    repeated one), so a long trace streams through in little memory.

    Raises:
        TraceFormatError: naming ``source`` and the line: not UTF-8, not JSON, not an object, a
            required field missing, a field of the wrong type, or a repeated ``msg_id``.
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
            raise TraceFormatError(
                f"{where}: not JSON ({error.msg} at column {error.colno})"
            ) from None
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
    for name in OPTIONAL_FIELDS:
        record.setdefault(name, {} if name == "payload" else None)
    for name, allowed in _FIELD_TYPES.items():
        value = record[name]
        # bool is an int to Python but never a valid id or time in a trace.
        if isinstance(value, bool) or not isinstance(value, allowed):
            wanted = " or ".join(_TYPE_NAMES[kind] for kind in allowed)
            raise TraceFormatError(f"{where}: field {name!r} must be {wanted}, got {value!r}")
    return record  # type: ignore[return-value]  # every schema field was checked just above


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
    (set-up, supervision) are left out.
    """
    return [event for event in events if event["ply"] is not None and first <= event["ply"] <= last]


def messages_per_ply(events: Iterable[TraceEvent]) -> dict[int, int]:
    """Return how many messages each ply took, in ply order (events without a ply are skipped)."""
    counts = Counter(event["ply"] for event in events if event["ply"] is not None)
    return {ply: counts[ply] for ply in sorted(counts)}


def to_jsonl(events: Iterable[TraceEvent]) -> Iterator[str]:
    """Yield each event as one JSON line ending in a newline, schema fields first."""
    for event in events:
        yield event_to_json(event) + "\n"


# --- the causal timeline --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Point:
    """A moment on the timeline: a send (``is_reply`` False) or a reply of ``event``."""

    time: int
    order: int
    is_reply: bool
    event: TraceEvent


def _timeline(events: Sequence[TraceEvent], roots_when_taken: bool = False) -> list[_Point]:
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
    points: list[_Point] = []
    order = 0
    # An explicit stack, not recursion: a long chain of causes must not hit the recursion limit.
    stack: list[tuple[TraceEvent, bool]] = [(root, False) for root in reversed(children[None])]
    while stack:
        event, finished = stack.pop()
        if finished:
            if event["t_replied"] is not None:
                points.append(_Point(event["t_replied"], order, True, event))
        else:
            taken = roots_when_taken and event["msg_id"] in roots
            points.append(_Point(event["t_handled" if taken else "t_sent"], order, False, event))
            stack.append((event, True))
            stack.extend((child, False) for child in reversed(children.get(event["msg_id"], [])))
        order += 1
    points.sort(key=lambda point: (point.time, point.order))
    return points


# --- Mermaid --------------------------------------------------------------------------------

# Characters that end a statement, open an entity or a comment, or look like HTML to Mermaid.
_MERMAID_ESCAPES = str.maketrans(
    {
        "#": "#35;",
        ";": "#59;",
        '"': "#quot;",
        "<": "#lt;",
        ">": "#gt;",
        "\n": " ",
        "\r": " ",
    }
)
_MERMAID_KEYWORDS = frozenset(
    {
        "participant", "actor", "as", "note", "over", "left", "right", "of", "loop", "alt",
        "else", "opt", "par", "and", "rect", "end", "critical", "break", "box", "autonumber",
        "activate", "deactivate", "title", "create", "destroy", "links", "link", "properties",
        "details", "sequencediagram",
    }
)  # fmt: skip
_PLY_COLOURS = ("rgba(100, 149, 237, 0.12)", "rgba(128, 128, 128, 0.12)")


def _mermaid_text(text: str) -> str:
    return text.translate(_MERMAID_ESCAPES).strip() or "-"


def _mermaid_aliases(names: Sequence[str]) -> dict[str, str]:
    """Give every actor a Mermaid identifier: its name with non-word characters as ``_``."""
    aliases: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        alias = re.sub(r"\W", "_", name, flags=re.ASCII) or "actor"
        if alias[0].isdigit():
            alias = "a_" + alias
        if alias.lower() in _MERMAID_KEYWORDS:
            alias += "_"
        candidate, suffix = alias, 2
        while candidate in taken:
            candidate, suffix = f"{alias}_{suffix}", suffix + 1
        taken.add(candidate)
        aliases[name] = candidate
    return aliases


def _square_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64:
        return square_name((value % 8 + 1, value // 8 + 1))
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(part, int) and not isinstance(part, bool) and part > 0 for part in value)
    ):
        return square_name((value[0], value[1]))
    return None


def describe_move(payload: Mapping[str, Any]) -> str | None:
    """Return the move a proposal's payload names (``"g1-f3"``, ``"e7-e8=q"``, a SAN), or None.

    Looks for ``san`` / ``move`` / ``uci`` / ``text`` (a Propose's SAN or UCI) text, else a from
    and a to square under the usual field names; squares may be names, ``[file, rank]`` pairs or
    0..63 indexes (a1 = 0, as in actors.messages).
    """
    for key in ("san", "move", "uci", "text"):
        if isinstance(payload.get(key), str) and payload[key]:
            return str(payload[key])
    start = next(
        (
            text
            for key in ("from_square", "from", "start", "origin", "source")
            if (text := _square_text(payload.get(key))) is not None
        ),
        None,
    )
    end = next(
        (
            text
            for key in ("to_square", "to", "end", "target", "destination")
            if (text := _square_text(payload.get(key))) is not None
        ),
        None,
    )
    if start is None or end is None:
        return None
    promotion = payload.get("promotion")
    suffix = f"={promotion}" if isinstance(promotion, str) and promotion else ""
    return f"{start}-{end}{suffix}"


def _ply_note(ply: int, root: TraceEvent) -> str:
    move = describe_move(root["payload"])
    colour = root["payload"].get("colour", root["payload"].get("color"))
    parts = [f"ply {ply}:"]
    if isinstance(colour, str):
        parts.append(colour)
    parts.append(move if move is not None else root["kind"])
    return _mermaid_text(" ".join(parts))


def to_mermaid(events: Iterable[TraceEvent], plies: tuple[int, int] | None = None) -> str:
    """Return a Mermaid ``sequenceDiagram`` of the events (of plies ``plies`` when given).

    Every actor is declared as a ``participant`` (``participant white_knight_g1 as
    white-knight-g1``); asks are ``->>`` arrows, tells ``-)``, replies dashed ``-->>`` arrows
    carrying the reply kind. Each ply sits in a shaded ``rect`` opened by a ``Note`` naming the
    proposed move; a proposal sent ahead (replay keeps several in flight) is drawn when the referee
    takes it up. Message text is escaped so that the diagram renders on GitHub.
    """
    chosen = select_plies(events, *plies) if plies is not None else list(events)
    points = _timeline(chosen, roots_when_taken=True)
    names: dict[str, None] = {}
    for point in points:
        names.setdefault(point.event["sender"])
        names.setdefault(point.event["receiver"])
    aliases = _mermaid_aliases(list(names))
    lines = ["sequenceDiagram"]
    for name, alias in aliases.items():
        shown = _mermaid_text(name)
        lines.append(
            f"    participant {alias}" if shown == alias else f"    participant {alias} as {shown}"
        )

    roots: dict[int, TraceEvent] = {}
    known = {event["msg_id"] for event in chosen}
    for event in sorted(chosen, key=lambda item: item["msg_id"]):
        ply = event["ply"]
        if ply is None or event["parent_id"] in known:
            continue
        # The client's proposal names the ply; start-up messages that share its number do not.
        if ply not in roots or (event["kind"] == "Propose" and roots[ply]["kind"] != "Propose"):
            roots[ply] = event

    current_ply: int | None = None
    indent = "    "
    for point in points:
        event = point.event
        if event["ply"] != current_ply:
            if current_ply is not None:
                lines.append("    end")
            current_ply = event["ply"]
            indent = "    "
            if current_ply is not None:
                root = roots.get(current_ply, event)
                lines.append(f"    rect {_PLY_COLOURS[(current_ply + 1) % 2]}")
                over = aliases[root["sender"]]
                if root["receiver"] != root["sender"]:
                    over += "," + aliases[root["receiver"]]
                lines.append(f"        Note over {over}: {_ply_note(current_ply, root)}")
                indent = "        "
        sender, receiver = aliases[event["sender"]], aliases[event["receiver"]]
        if point.is_reply:
            lines.append(f"{indent}{receiver}-->>{sender}: {_mermaid_text(event['reply'] or '')}")
        else:
            arrow = "-)" if event["t_replied"] is None else "->>"
            lines.append(f"{indent}{sender}{arrow}{receiver}: {_mermaid_text(event['kind'])}")
    if current_ply is not None:
        lines.append("    end")
    return "\n".join(lines) + "\n"


# --- Chrome / Perfetto ----------------------------------------------------------------------


@dataclass(slots=True)
class _Slice:
    tid: int
    start: int
    end: int | None  # None: a tell, whose length is decided once the track is known
    name: str
    category: str
    args: dict[str, Any]


def _lay_out_track(slices: list[_Slice]) -> None:
    """Give tells a length and clamp every slice inside the one that encloses its start.

    One actor handles one message at a time, so overlaps on a track are clock noise or a
    tell's nominal length; Perfetto needs slices on a track to nest, so ends are clamped.
    """
    slices.sort(key=lambda item: item.start)
    for index, item in enumerate(slices):
        if item.end is None:
            end = item.start + TELL_SLICE_NS
            for later in slices[index + 1 :]:
                if later.start > item.start:
                    end = min(end, later.start)
                    break
            item.end = end
        item.end = max(item.end, item.start)
    slices.sort(key=lambda item: (item.start, -(item.end or 0)))
    open_slices: list[_Slice] = []
    for item in slices:
        while open_slices and (open_slices[-1].end or 0) <= item.start:
            open_slices.pop()
        if open_slices and (item.end or 0) > (open_slices[-1].end or 0):
            item.end = open_slices[-1].end
        open_slices.append(item)


def to_perfetto(events: Iterable[TraceEvent]) -> dict[str, Any]:
    """Return a Chrome/Perfetto JSON trace: a track per actor, a slice per handled message.

    One process; each actor a thread named after it (``thread_name`` metadata). A message's
    slice runs on the receiver's track from ``t_handled`` to ``t_replied`` (a tell gets a short
    nominal slice); a client request also gets a slice on the client's track while it waits.
    A flow arrow runs from the send (``ph: "s"`` on the sender's track at ``t_sent``) to the
    handling (``ph: "f"``, ``bp: "e"`` on the receiver's track at ``t_handled``) with the message
    id as flow id. Times are microseconds (floats) from the earliest send.
    """
    chosen = sorted(events, key=lambda item: (item["t_sent"], item["msg_id"]))
    tids: dict[str, int] = {}
    for event in chosen:
        tids.setdefault(event["sender"], len(tids) + 1)
        tids.setdefault(event["receiver"], len(tids) + 1)
    origin = min((min(event["t_sent"], event["t_handled"]) for event in chosen), default=0)

    def micros(t: int) -> float:
        return (t - origin) / 1000

    known = {event["msg_id"] for event in chosen}
    tracks: dict[int, list[_Slice]] = {tid: [] for tid in tids.values()}
    for event in chosen:
        details = {
            "msg_id": event["msg_id"],
            "parent_id": event["parent_id"],
            "sender": event["sender"],
            "ply": event["ply"],
            "reply": event["reply"],
            "payload": event["payload"],
        }
        is_ask = event["t_replied"] is not None
        receiver_tid = tids[event["receiver"]]
        tracks[receiver_tid].append(
            _Slice(
                receiver_tid,
                event["t_handled"],
                event["t_replied"],
                event["kind"],
                "ask" if is_ask else "tell",
                details,
            )
        )
        if event["parent_id"] not in known:
            # Nobody traced handles the client's requests' sending side; give the flow a slice
            # to start from: the client waiting for its reply.
            sender_tid = tids[event["sender"]]
            tracks[sender_tid].append(
                _Slice(
                    sender_tid,
                    event["t_sent"],
                    event["t_replied"],
                    f"{event['kind']} -> {event['receiver']}",
                    "request",
                    {"msg_id": event["msg_id"], "receiver": event["receiver"]},
                )
            )

    trace: list[dict[str, Any]] = [
        {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "chess-actors"}}
    ]
    for name, tid in tids.items():
        trace.append(
            {"ph": "M", "name": "thread_name", "pid": 1, "tid": tid, "args": {"name": name}}
        )
        trace.append(
            {
                "ph": "M",
                "name": "thread_sort_index",
                "pid": 1,
                "tid": tid,
                "args": {"sort_index": tid},
            }
        )
    for slices in tracks.values():
        _lay_out_track(slices)
        for item in slices:
            trace.append(
                {
                    "ph": "X",
                    "name": item.name,
                    "cat": item.category,
                    "pid": 1,
                    "tid": item.tid,
                    "ts": micros(item.start),
                    "dur": ((item.end or item.start) - item.start) / 1000,
                    "args": item.args,
                }
            )
    for event in chosen:
        flow = {"name": event["kind"], "cat": "message", "pid": 1, "id": event["msg_id"]}
        trace.append(
            {**flow, "ph": "s", "tid": tids[event["sender"]], "ts": micros(event["t_sent"])}
        )
        trace.append(
            {
                **flow,
                "ph": "f",
                "bp": "e",
                "tid": tids[event["receiver"]],
                "ts": micros(event["t_handled"]),
            }
        )
    return {"traceEvents": trace, "displayTimeUnit": "ns"}
