"""Messages made readable: any message or reply as plain data with square, piece and colour names.

Works on any frozen dataclass by field-name convention, so a new message needs no code here. Trace
payloads and summaries use it (a message's repr is :mod:`actors.protocol.names`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import Any

from board.rules.fen_text import placement_field
from board.rules.pieces import COLOUR_NAMES, KIND_NAMES
from board.rules.squares import FILE_LETTERS, SQUARE_NAMES

__all__ = [
    "ROUTING_FIELDS",
    "readable",
    "readable_reply",
    "summarize",
]

# Routing rides on the envelope (sender, correlation); the event already names both ends.
ROUTING_FIELDS = frozenset({"sender", "corr"})

# Field names whose integers are squares (0..63, a1 = 0; -1 means none), alone or in tuples.
SQUARE_FIELDS = frozenset(
    {
        "square", "origin", "target", "start", "end", "king_square", "to", "victim",
        "traversed", "crossed", "between", "targets", "origins", "rook", "en_passant", "hidden", "rooks",
        "kings",
    }
)  # fmt: skip
# Field names whose integers are piece codes (colour * 8 + kind; 0 is an empty square).
CODE_FIELDS = frozenset({"code", "target_code", "expect"})
# Field names whose integers are piece kinds (0: none).
KIND_FIELDS = frozenset({"kind", "promotion"})
COLOUR_FIELDS = frozenset({"colour", "turn"})
# (square, code) pairs: a piece seen somewhere.
SIGHTING_FIELDS = frozenset(
    {
        "blocker",
        "candidates",
        "check_candidates",
        "king_candidates",
        "checkers",
        "exposers",
        "check",
        "ghosts",
    }
)
# (target, traversed, rule) triples: one geometric move.
PATH_FIELDS = frozenset({"paths", "onward", "reach", "rook_reach", "path"})

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _file(value: object) -> Any:
    """A file by its letter (``e``); -1 (every file) becomes None."""
    if _is_int(value) and 0 <= int(value) < 8:  # type: ignore[call-overload]  # checked first
        return FILE_LETTERS[int(value)]  # type: ignore[call-overload]
    return None if _is_int(value) else _plain(value)


def _square(value: object) -> Any:
    if _is_int(value):
        number = int(value)  # type: ignore[call-overload]  # checked just above
        if 0 <= number < 64:
            return SQUARE_NAMES[number]
        if number < 0:
            return None
    if isinstance(value, tuple | list):
        return [_square(item) for item in value]
    return _plain(value)


def _piece(value: object) -> Any:
    if _is_int(value) and 0 <= int(value) < 16:  # type: ignore[call-overload]
        code = int(value)  # type: ignore[call-overload]
        if code & 7 == 0:
            return None if code == 0 else _plain(value)
        return f"{COLOUR_NAMES[code >> 3]} {KIND_NAMES[code & 7]}"
    return _plain(value)


def _kind(value: object) -> Any:
    if _is_int(value) and 0 <= int(value) < len(KIND_NAMES):  # type: ignore[call-overload]
        return KIND_NAMES[int(value)] or None  # type: ignore[call-overload]
    return _plain(value)


def _colour(value: object) -> Any:
    if _is_int(value) and 0 <= int(value) < 2:  # type: ignore[call-overload]
        return COLOUR_NAMES[int(value)]  # type: ignore[call-overload]
    return _plain(value)


def _sighting(value: object) -> Any:
    if isinstance(value, tuple | list) and len(value) == 2 and all(_is_int(part) for part in value):
        return {"square": _square(value[0]), "piece": _piece(value[1])}
    if isinstance(value, tuple | list):
        return [_sighting(item) for item in value]
    return _plain(value)


def _path(value: object) -> Any:
    if isinstance(value, tuple | list) and len(value) == 3 and _is_int(value[0]):
        return {"target": _square(value[0]), "traversed": _square(value[1]), "rule": _plain(value[2])}
    if isinstance(value, tuple | list):
        return [_path(item) for item in value]
    return _plain(value)


def _placement(value: bytes) -> str:
    """64 piece codes, a1 first, as the FEN placement field (rank 8 first)."""
    return placement_field(value)


def _square_pairs(value: tuple[Any, ...] | list[Any], key: str, convert: Callable[[Any], Any]) -> list[Any]:
    """(square, something) pairs as {"square": name, key: convert(something)}; anything else plain."""
    return [
        {"square": _square(item[0]), key: convert(item[1])}
        if isinstance(item, tuple | list) and len(item) == 2
        else _plain(item)
        for item in value
    ]


def _field(name: str, value: object) -> Any:
    converter = _CONVERTERS.get(name)
    if converter is not None:
        return converter(value)
    if name == "pieces" and isinstance(value, tuple | list):
        # Assess: (square, paths) for every piece of the side that just moved.
        return _square_pairs(value, "paths", _path)
    if name == "crossed_candidates" and isinstance(value, tuple | list):
        return _square_pairs(value, "candidates", _sighting)
    if name == "changes" and isinstance(value, tuple | list):
        return [
            {"square": _square(item[0]), "piece": _piece(item[1]), "name": _plain(item[2])}
            if isinstance(item, tuple | list) and len(item) == 3
            else _plain(item)
            for item in value
        ]
    return _plain(value)


_CONVERTERS: dict[str, Callable[[object], Any]] = {
    **dict.fromkeys(SQUARE_FIELDS, _square),
    **dict.fromkeys(CODE_FIELDS, _piece),
    **dict.fromkeys(KIND_FIELDS, _kind),
    **dict.fromkeys(COLOUR_FIELDS, _colour),
    **dict.fromkeys(SIGHTING_FIELDS, _sighting),
    **dict.fromkeys(PATH_FIELDS, _path),
    "file": _file,
}


def _plain(value: object) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return _plain(value.value)
    if isinstance(value, bytes):
        return _placement(value) if len(value) == 64 else value.hex()
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

    Squares become names (``g1``; -1 becomes None), piece codes ``"white knight"``, kinds
    ``"knight"``, colours ``"white"``, a 64-byte placement its FEN field; nested dataclasses
    are rendered the same way. A mapping keeps its items; anything else is ``{"value": text}``.
    """
    cls = type(message)
    names = _FIELD_NAMES.get(cls)
    if names is None and dataclasses.is_dataclass(message) and not isinstance(message, type):
        names = tuple(field.name for field in dataclasses.fields(message))
        _FIELD_NAMES[cls] = names
    if names is not None:
        return {name: _field(name, getattr(message, name)) for name in names if name not in ROUTING_FIELDS}
    if isinstance(message, Mapping):
        return {str(key): _field(str(key), item) for key, item in message.items()}
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
