"""The trace's field names and logger name, apart from the sinks so that naming them loads no structlog.

structlog is loaded only when a sink is made (a program that traces nothing to a file never pays for it).
"""

from __future__ import annotations

TRACE_LOGGER_NAME = "chess_actors.trace"

# The order of the fields in every trace line (the README documents each one).
SCHEMA_FIELDS = (
    "format",
    "msg_id",
    "parent_id",
    "sender",
    "receiver",
    "kind",
    "payload",
    "summary",
    "t_sent",
    "t_handled",
    "t_replied",
    "game",
    "phase",
    "ply",
    "reply",
    "reply_payload",
    "reply_summary",
    "hint",
)

__all__ = ["SCHEMA_FIELDS", "TRACE_LOGGER_NAME"]
