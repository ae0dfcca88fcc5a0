"""The trace event: the one dict a delivered message becomes, its fields and format version, and
its JSON line (what a trace file holds, one per line).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypedDict

from actors.tracing.fields import SCHEMA_FIELDS

__all__ = ["FORMAT_VERSION", "OPTIONAL_FIELDS", "REQUIRED_FIELDS", "TraceEvent", "event_to_json"]

# The trace format's version, written in every line's ``format`` field. 1 (no field) had only
# the required fields, payload, t_replied, ply and reply; 2 added the readable payloads, the
# summaries, game and phase.
FORMAT_VERSION = 2

# Every line of a trace file has the required fields (the CLI contract of ``replay --trace``);
# the optional ones default to None (payload to {}) when a reader finds them missing.
REQUIRED_FIELDS = ("msg_id", "parent_id", "sender", "receiver", "kind", "t_sent", "t_handled")
OPTIONAL_FIELDS = (
    "format", "payload", "summary", "t_replied", "game", "phase", "ply", "reply", "reply_payload",
    "reply_summary", "hint",
)  # fmt: skip


class TraceEvent(TypedDict, total=False):
    """One delivered message; times are ``time.monotonic_ns()`` readings. The recorder fills every
    field; a reader (:func:`actors.tracing.export.read_jsonl`) may find format 2's missing."""

    format: int | None
    msg_id: int
    parent_id: int | None
    sender: str
    receiver: str
    kind: str
    payload: dict[str, Any]
    summary: str | None
    t_sent: int
    t_handled: int
    t_replied: int | None
    game: int | None
    phase: str | None
    ply: int | None
    reply: str | None
    reply_payload: dict[str, Any] | None
    reply_summary: str | None
    hint: str | None
    sender_node: str
    receiver_node: str


def event_to_json(event: Mapping[str, Any]) -> str:
    """Return one event as a JSON line (no newline), schema fields first."""
    ordered = {name: event[name] for name in SCHEMA_FIELDS if name in event}
    ordered.update((key, value) for key, value in event.items() if key not in ordered)
    return json.dumps(ordered, separators=(",", ":"), default=str)
