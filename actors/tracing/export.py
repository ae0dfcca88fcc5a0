"""Trace exporters: reading JSON lines, choosing plies and games, Mermaid and Markdown diagrams.

Small pure functions over lists of trace event dicts (:class:`actors.tracing.recorder.TraceEvent`), no I/O;
the Perfetto timeline is :mod:`actors.tracing.perfetto`, the studio page :mod:`actors.studio`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from actors.tracing.perfetto import to_perfetto
from actors.tracing.recorder import FORMAT_VERSION, REQUIRED_FIELDS, TraceEvent, event_to_json
from board.errors import InputError
from board.squares import square_name

__all__ = [
    "PlyRangeError",
    "TimelinePoint",
    "TraceFormatError",
    "describe_move",
    "games_of",
    "messages_per_ply",
    "parse_ply_range",
    "phase_of",
    "read_jsonl",
    "select_game",
    "select_plies",
    "timeline",
    "to_jsonl",
    "to_markdown",
    "to_mermaid",
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
}
# Filled in when missing, so that every reader can index them; format 2's own are left absent,
# so that a format 1 trace read and written again is the same text.
_FORMAT_1_OPTIONAL = ("payload", "t_replied", "ply", "reply")
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
    """Yield each event as one JSON line ending in a newline, schema fields first."""
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
# Start-up and healing stand out from the plies around them.
_PHASE_COLOURS = {"startup": "rgba(60, 179, 113, 0.15)", "heal": "rgba(220, 20, 60, 0.15)"}


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
    0..63 indexes (a1 = 0, as in actors.protocol).
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


def _phase_note(phase: str, root: TraceEvent) -> str:
    if "ply " not in phase:
        return _mermaid_text(phase)
    move = describe_move(root["payload"])
    colour = root["payload"].get("colour", root["payload"].get("color"))
    parts = [f"{phase}:"]
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
    points = timeline(chosen, roots_when_taken=True)
    names: dict[str, None] = {}
    for point in points:
        names.setdefault(point.event["sender"])
        names.setdefault(point.event["receiver"])
    aliases = _mermaid_aliases(list(names))
    lines = ["sequenceDiagram"]
    for name, alias in aliases.items():
        shown = _mermaid_text(name)
        lines.append(f"    participant {alias}" if shown == alias else f"    participant {alias} as {shown}")

    # In a trace of several games each game's phases get boxes of their own, named with the game.
    several = len(games_of(chosen)) > 1

    def box(event: TraceEvent) -> str | None:
        phase = phase_of(event)
        return f"game {event.get('game')} {phase}" if several and phase is not None else phase

    roots: dict[str, TraceEvent] = {}
    known = {event["msg_id"] for event in chosen}
    for event in sorted(chosen, key=lambda item: item["msg_id"]):
        phase = box(event)
        if phase is None or event["parent_id"] in known:
            continue
        # The client's proposal names the ply; start-up messages that share its number do not.
        proposal = event["kind"].startswith("Propose")
        if phase not in roots or (proposal and not roots[phase]["kind"].startswith("Propose")):
            roots[phase] = event

    # Each phase is drawn as one box: a message of an earlier phase that happens while a later one
    # runs (the client journalling the last window while the referee judges the next) joins its
    # own phase's box rather than splitting the one in progress.
    first: dict[str | None, int] = {}
    for index, point in enumerate(points):
        first.setdefault(box(point.event), index)
    order = {
        id(point): first[box(point.event)] if box(point.event) is not None else index
        for index, point in enumerate(points)
    }
    points = sorted(points, key=lambda point: order[id(point)])

    current: str | None = None
    shade = 0
    indent = "    "
    for point in points:
        event = point.event
        phase = box(event)
        if phase != current:
            if current is not None:
                lines.append("    end")
            current = phase
            indent = "    "
            if phase is not None:
                root = roots.get(phase, event)
                shade += 1
                colour = _PHASE_COLOURS.get(str(phase_of(event)).split()[0], _PLY_COLOURS[shade % 2])
                lines.append(f"    rect {colour}")
                over = aliases[root["sender"]]
                if root["receiver"] != root["sender"]:
                    over += "," + aliases[root["receiver"]]
                lines.append(f"        Note over {over}: {_phase_note(phase, root)}")
                indent = "        "
        sender, receiver = aliases[event["sender"]], aliases[event["receiver"]]
        if point.is_reply:
            text = event.get("reply_summary") or event["reply"] or ""
            lines.append(f"{indent}{receiver}-->>{sender}: {_mermaid_text(text)}")
        else:
            arrow = "-)" if event["t_replied"] is None else "->>"
            text = event.get("summary") or event["kind"]
            lines.append(f"{indent}{sender}{arrow}{receiver}: {_mermaid_text(text)}")
    if current is not None:
        lines.append("    end")
    return "\n".join(lines) + "\n"


def to_markdown(events: Iterable[TraceEvent], plies: tuple[int, int] | None = None) -> str:
    """Return the Mermaid diagram of :func:`to_mermaid` as a fenced Markdown block (GitHub draws it)."""
    return "```mermaid\n" + to_mermaid(events, plies) + "```\n"
