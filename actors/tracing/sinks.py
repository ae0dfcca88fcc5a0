"""Structlog sinks for traces: each recorded event rendered as one JSON line to a file or a logger.

A sink is a structlog bound logger; :meth:`actors.tracing.TraceRecorder.attach` feeds it events.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any, TextIO, cast

import structlog
from structlog.processors import JSONRenderer
from structlog.typing import EventDict, FilteringBoundLogger, Processor, WrappedLogger

from actors.tracing.fields import SCHEMA_FIELDS, TRACE_LOGGER_NAME

__all__ = [
    "SCHEMA_FIELDS",
    "TRACE_LOGGER_NAME",
    "TraceSink",
    "callback_sink",
    "jsonl_sink",
    "kind_from_event_name",
    "logging_sink",
    "trace_sink",
]

TraceSink = FilteringBoundLogger


def kind_from_event_name(logger: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
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


def jsonl_sink(file: TextIO, plies: tuple[int, int] | None = None) -> TraceSink:
    """Return a sink that writes each event to ``file`` as one JSON line, flushed as it happens.

    With ``plies`` (A, B), only the events of plies A to B are written. Lines from several actor
    threads never interleave (structlog's WriteLogger locks the file).
    """
    if plies is None:
        return trace_sink(_NamedWriteLogger(file), JSONRenderer(serializer=_compact_json))
    return trace_sink(_NamedWriteLogger(file), keep_plies(*plies), JSONRenderer(serializer=_compact_json))


def keep_plies(first: int, last: int) -> Processor:
    """A processor that drops every event outside plies ``first`` to ``last`` (the start-up's too)."""

    def keep(logger: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
        ply = event_dict.get("ply")
        if not isinstance(ply, int) or not first <= ply <= last:
            raise structlog.DropEvent
        return event_dict

    return keep


class _CallbackLogger:
    """A structlog logger that hands each rendered line to a function."""

    def __init__(self, deliver: Callable[[str], None]) -> None:
        self.deliver = deliver

    def msg(self, line: str) -> None:
        self.deliver(line)

    info = msg


def callback_sink(deliver: Callable[[str], None]) -> TraceSink:
    """Return a sink that calls ``deliver`` with each event as one JSON line (no newline), on the
    thread that recorded it, as it happens (the live studio streams them to its pages this way)."""
    return trace_sink(_CallbackLogger(deliver), JSONRenderer(serializer=_compact_json))


def logging_sink() -> TraceSink:
    """Return a sink that logs each event as a JSON line at INFO to the stdlib logger
    ``chess_actors.trace``; the application's logging configuration decides where it goes
    (with none, INFO goes nowhere).
    """
    return trace_sink(logging.getLogger(TRACE_LOGGER_NAME), JSONRenderer(serializer=_compact_json))


def _compact_json(value: Any, **kwargs: Any) -> str:
    return json.dumps(value, separators=(",", ":"), default=str)
