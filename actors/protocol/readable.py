"""Messages made readable: any message or reply as plain data with square, piece and colour names.

Works on any dataclass from the protocol's one table of field meanings (:mod:`actors.protocol.names`,
which a message's repr reads too), so a new message needs no code here. Trace payloads and summaries
use it.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import Any

from actors.protocol.names import meanings_of
from board.rules.fen_text import placement_field

__all__ = [
    "ROUTING_FIELDS",
    "readable",
    "readable_reply",
    "summarize",
]

# Routing rides on the envelope (sender, correlation); the event already names both ends.
ROUTING_FIELDS = frozenset({"sender", "corr"})

_FIELDS: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def _plain(value: object) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return _plain(value.value)
    if isinstance(value, bytes):
        return placement_field(value) if len(value) == 64 else value.hex()
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, frozenset | set):
        # Sets have no order; sort them so that a trace is reproducible.
        return sorted((_plain(item) for item in value), key=repr)
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return readable(value)
    if callable(value):
        # A function's repr holds its address: named, the same message reads the same in every run.
        return f"<{getattr(value, '__qualname__', type(value).__qualname__)}>"
    return str(value)


def readable(message: object) -> dict[str, Any]:
    """Return ``message`` as readable plain data: one entry per field, routing fields left out.

    What a field's integers mean is the protocol's one table (:mod:`actors.protocol.names`): squares
    become names (``g1``; -1 becomes None), piece codes ``"white knight"``, kinds ``"knight"``,
    colours ``"white"``, a 64-byte placement its FEN field; nested dataclasses are rendered the same
    way. A mapping keeps its items; anything else is ``{"value": text}``.
    """
    kind = type(message)
    fields = _FIELDS.get(kind)
    if fields is None and dataclasses.is_dataclass(message) and not isinstance(message, type):
        meanings = meanings_of(kind)
        fields = tuple(
            (field.name, meanings[field.name].plain if field.name in meanings else None)
            for field in dataclasses.fields(message)
            if field.name not in ROUTING_FIELDS
        )
        _FIELDS[kind] = fields
    if fields is not None:
        return {
            name: _plain(getattr(message, name) if plain is None else plain(getattr(message, name)))
            for name, plain in fields
        }
    if isinstance(message, Mapping):
        return {str(key): _plain(item) for key, item in message.items()}
    return {"value": _plain(message)}


def readable_reply(answer: object) -> dict[str, Any]:
    """Return a reply as readable data; an exception becomes ``{"error": class, "message": text}``."""
    if isinstance(answer, BaseException):
        return {"error": type(answer).__name__, "message": str(answer)}
    return readable(answer)


# --- one-line summaries ---------------------------------------------------------------------

_SUMMARY_LIMIT = 120


def _names(value: Any) -> str:
    if isinstance(value, list):
        shown = [str(item) for item in value if item is not None]
        return ",".join(shown) if shown else "—"
    return "—" if value is None else str(value)


def _move(payload: Mapping[str, Any]) -> str:
    start = payload.get("start", payload.get("origin"))
    end = payload.get("end", payload.get("target"))
    text = f"{_names(start)}→{_names(end)}"
    promotion = payload.get("promotion")
    return f"{text}={promotion}" if isinstance(promotion, str) else text


def _count(payload: Mapping[str, Any], name: str, noun: str) -> str:
    value = payload.get(name)
    number = len(value) if isinstance(value, list) else 0
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _specific(kind: str, payload: Mapping[str, Any]) -> str | None:
    match kind:
        case "MoveQuery":
            return f"{kind} {_move(payload)}"
        case "Apply":
            move = payload.get("move")
            return f"Apply {_move(move)}" if isinstance(move, Mapping) else "Apply"
        case "ProposeText":
            return f"Propose {payload.get('text')}"
        case "ProposeSquares":
            return f"Propose {_move(payload)}"
        case "Survey":
            file = payload.get("file")
            where = f" of the {file}-file" if isinstance(file, str) else ""
            kinds = f"{payload.get('colour')} {payload.get('kind')}s{where}"
            return f"Survey {kinds} → {_names(payload.get('target'))}"
        case "SurveyReport":
            return f"SurveyReport: {_count(payload, 'pieces', 'piece')}"
        case "ProbeSurvey":
            return f"ProbeSurvey {_count(payload, 'probes', 'probe')}"
        case "Learn":
            geometry = payload.get("geometry")
            name = geometry.get("name") if isinstance(geometry, Mapping) else geometry
            return f"Learn {name}"
        case "Promote":
            return f"Promote to {payload.get('kind')} on {_names(payload.get('square'))}"
        case "Yes":
            return f"Yes via {_names(payload.get('traversed'))}"
        case "No" | "Rejected":
            return f"{kind}: {payload.get('reason')}"
        case "Accepted":
            tail = f", {payload['outcome']}" if payload.get("outcome") else ""
            return f"Accepted {payload.get('san')}{tail}"
        case "Moved":
            return f"Moved to {_names(payload.get('to'))}"
        case "LegalTargetsQuery" | "Resync" | "Seat":
            return f"{kind} {_names(payload.get('square'))}"
        case "Targets":
            return f"Targets from {_names(payload.get('square'))}: {_count(payload, 'reach', 'move')}"
        case "LegalTargets":
            return f"LegalTargets {_names(payload.get('square'))}: {_names(payload.get('targets'))}"
        case "Applied":
            captured = payload.get("captured")
            return f"Applied{f', captured {captured}' if captured else ''}"
        case "Ready" | "Roster":
            return f"{kind} after {payload.get('plies')} plies"
        case "CrashOnNext" | "HangOnNext" | "Armed":
            return f"{kind} {payload.get('kind')}"
        case "Restart":
            return f"Restart {payload.get('name')}"
        case "Description":
            return f"Description {payload.get('fen')}"
    if "error" in payload and "message" in payload and len(payload) == 2:
        return f"{payload['error']}: {payload['message']}"
    return None


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, bool | int | float | str) and value != "":
        return str(value)
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return ",".join(value)
    return None


def summarize(kind: str, payload: Mapping[str, Any]) -> str:
    """Return a one-line summary of a readable payload: ``MoveQuery g1→f3``, ``Yes via —``.

    A kind without a summary of its own shows its first few short fields (``Kind a=1 b=c2``).
    """
    text = _specific(kind, payload)
    if text is None:
        parts = [kind]
        for name, value in payload.items():
            shown = _scalar_text(value)
            if shown is not None:
                parts.append(f"{name}={shown}")
            if len(parts) > 3:
                break
        text = " ".join(parts)
    text = " ".join(text.split())
    return text if len(text) <= _SUMMARY_LIMIT else text[: _SUMMARY_LIMIT - 1] + "…"
