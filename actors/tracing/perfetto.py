"""The Chrome/Perfetto timeline of a trace: a process per game, a track per actor, a slice per message.

A pure function over trace event dicts (:class:`actors.tracing.TraceEvent`); open the JSON in ui.perfetto.dev.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from actors.tracing.event import TraceEvent

__all__ = ["TELL_SLICE_NS", "to_perfetto"]

# A tell has no reply time; its slice gets this nominal length (ns), cut short where the
# receiver's next slice begins so that it never swallows a neighbour.
TELL_SLICE_NS = 1_000
# Each game's phases (startup, ply N, step N, heal) get a track of their own, first in the list.
PHASE_TID = 0


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


def _event_end(event: TraceEvent) -> int:
    replied = event.get("t_replied")
    return max(event["t_handled"], replied if replied is not None else event["t_handled"])


def to_perfetto(events: Iterable[TraceEvent]) -> dict[str, Any]:
    """Return a Chrome/Perfetto JSON trace: a process per game, a track per actor, a slice per message.

    Each game is a process named ``game N`` (a trace with no game numbers is one process); each
    actor a thread named after it (``thread_name`` metadata), and a ``phases`` track holds one
    slice per phase: ``startup``, ``ply N``, ``step N``, ``heal``. A message's slice runs on the
    receiver's track from ``t_handled`` to ``t_replied`` (a tell gets a short nominal slice), its
    args the readable payload, the reply and its payload; a client request also gets a slice on
    the client's track while it waits. A flow arrow runs from the send (``ph: "s"`` on the
    sender's track at ``t_sent``) to the handling (``ph: "f"``, ``bp: "e"`` on the receiver's
    track at ``t_handled``) with the message id as flow id. Times are microseconds (floats) from
    the earliest send.

    Args:
        events: the trace's events.

    Returns:
        The trace as a JSON-ready dict (``{"traceEvents": [...], ...}``).
    """
    chosen = sorted(events, key=lambda item: (item["t_sent"], item["msg_id"]))
    pids: dict[int | None, int] = {}
    tids: dict[tuple[int, str], int] = {}
    for event in chosen:
        pid = pids.setdefault(event.get("game"), event.get("game") or len(pids) + 1)
        for name in (event["sender"], event["receiver"]):
            if (pid, name) not in tids:
                tids[(pid, name)] = 1 + sum(1 for key in tids if key[0] == pid)
    if not pids:
        pids[None] = 1  # an empty trace still names its one process
    origin = min((min(event["t_sent"], event["t_handled"]) for event in chosen), default=0)

    def micros(t: int) -> float:
        return (t - origin) / 1000

    known = {event["msg_id"] for event in chosen}
    tracks: dict[tuple[int, int], list[_Slice]] = {
        key: [] for key in ((pid, tid) for (pid, _), tid in tids.items())
    }
    phases: dict[tuple[int, str], list[int]] = {}
    for event in chosen:
        pid = pids[event.get("game")]
        details = {
            "msg_id": event["msg_id"],
            "parent_id": event["parent_id"],
            "sender": event["sender"],
            "phase": event.get("phase"),
            "ply": event.get("ply"),
            "summary": event.get("summary"),
            "payload": event.get("payload", {}),
            "reply": event.get("reply"),
            "reply_summary": event.get("reply_summary"),
            "reply_payload": event.get("reply_payload"),
        }
        phase = event.get("phase")
        if phase is not None:
            span = phases.setdefault((pid, phase), [event["t_sent"], _event_end(event)])
            span[0], span[1] = min(span[0], event["t_sent"]), max(span[1], _event_end(event))
        is_ask = event["t_replied"] is not None
        receiver_tid = tids[(pid, event["receiver"])]
        tracks[(pid, receiver_tid)].append(
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
            sender_tid = tids[(pid, event["sender"])]
            tracks[(pid, sender_tid)].append(
                _Slice(
                    sender_tid,
                    event["t_sent"],
                    event["t_replied"],
                    f"{event['kind']} -> {event['receiver']}",
                    "request",
                    {"msg_id": event["msg_id"], "receiver": event["receiver"]},
                )
            )

    trace: list[dict[str, Any]] = []
    for game, pid in pids.items():
        name = "chess-actors" if game is None else f"game {game}"
        trace.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": name}})
        if any(key[0] == pid for key in phases):
            trace.append(
                {"ph": "M", "name": "thread_name", "pid": pid, "tid": PHASE_TID, "args": {"name": "phases"}}
            )
    for (pid, name), tid in tids.items():
        trace.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": name}})
        trace.append(
            {"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid, "args": {"sort_index": tid}}
        )
    for (pid, phase), (start, end) in phases.items():
        # Phases can interleave (a heal inside a ply); Perfetto wants a track's slices nested,
        # so they are laid out like any other track below.
        tracks.setdefault((pid, PHASE_TID), []).append(
            _Slice(PHASE_TID, start, end, phase, "phase", {"phase": phase})
        )
    for (pid, _), slices in tracks.items():
        _lay_out_track(slices)
        for item in slices:
            trace.append({
                "ph": "X", "name": item.name, "cat": item.category, "pid": pid, "tid": item.tid,
                "ts": micros(item.start), "dur": ((item.end or item.start) - item.start) / 1000,
                "args": item.args,
            })  # fmt: skip
    for event in chosen:
        pid = pids[event.get("game")]
        flow = {"name": event["kind"], "cat": "message", "pid": pid, "id": event["msg_id"]}
        trace.append({**flow, "ph": "s", "tid": tids[(pid, event["sender"])], "ts": micros(event["t_sent"])})
        trace.append(
            {
                **flow,
                "ph": "f",
                "bp": "e",
                "tid": tids[(pid, event["receiver"])],
                "ts": micros(event["t_handled"]),
            }
        )
    return {"traceEvents": trace, "displayTimeUnit": "ns"}
