"""What the integers in messages mean: the one table saying which field holds squares, colours, kinds
or pieces, and how each reads by name, in a message's repr and in a trace payload alike.

The actors work on small integers (a square is 0..63, a1 = 0, -1 for none; a piece code is colour * 8
+ kind), and so does every message's constructor: ``MoveQuery(1, 18, 0)``. Names belong at the edges
(the scenario reader, the shell, the game's methods, the command line), which turn ``'b1'`` into 1 once,
with :func:`board.rules.squares.parse_standard_square`. Reading a message back is the other edge: its
repr names what it holds (``MoveQuery(start='b1', end='c3', colour='white')``), and so does its trace
payload (:mod:`actors.protocol.readable`), both from the table below.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from board.rules.fen_text import placement_field
from board.rules.geometry import Geometry, geometry_named, label_of
from board.rules.pieces import COLOUR_NAMES, KIND_NAMES
from board.rules.squares import FILE_LETTERS, SQUARE_NAMES

__all__ = ["Meaning", "Named", "meanings_of", "message_repr"]


@dataclasses.dataclass(frozen=True, slots=True)
class Meaning:
    """What one field's integers mean, and the two ways it reads by name.

    ``show`` names them in the value's own shape (tuples stay tuples): a message's repr. ``plain``
    names them as plain data for a trace payload: lists for tuples, and a dict naming the parts of a
    value whose parts have names (a sighting is ``{"square": "e4", "piece": "white knight"}``).
    A value not of the shape the field promises is returned as it is by both.
    """

    show: Callable[[Any], Any]
    plain: Callable[[Any], Any]


# -- one value: the same by name in a repr and a payload --------------------------------------------


def _is_int(value: object) -> bool:
    return value.__class__ is int


def _square(value: Any) -> Any:
    if _is_int(value):
        if 0 <= value < 64:
            return SQUARE_NAMES[value]
        if value == -1:
            return None
    return value


def _file(value: Any) -> Any:
    if _is_int(value):
        if 0 <= value < 8:
            return FILE_LETTERS[value]
        if value == -1:
            return None
    return value


def _colour(value: Any) -> Any:
    return COLOUR_NAMES[value] if _is_int(value) and 0 <= value < 2 else value


def _kind(value: Any) -> Any:
    return (KIND_NAMES[value] or None) if _is_int(value) and 0 <= value < len(KIND_NAMES) else value


def _piece(value: Any) -> Any:
    if _is_int(value) and 0 <= value < 16 and (value & 7) < len(KIND_NAMES):
        if value & 7:
            return f"{COLOUR_NAMES[value >> 3]} {KIND_NAMES[value & 7]}"
        if value == 0:
            return None
    return value


def _placement(value: Any) -> Any:
    """64 piece codes, a1 first, as FEN's placement field."""
    return placement_field(value) if isinstance(value, bytes) and len(value) == 64 else value


def _geometry(value: Any) -> Any:
    """A geometry the project names reads as its name; a user's function stays as it is."""
    if not isinstance(value, Geometry):
        return value
    try:
        known = geometry_named(value.name)
    except ValueError:
        return value
    return value.name if known.moves is value.moves else value


def _geometry_plain(value: Any) -> Any:
    """A geometry in a trace payload: its name, notation and label, and whether it is a fixed table
    (what the studio draws a lesson by)."""
    if not isinstance(value, Geometry):
        return value
    return {"name": value.name, "pure": value.pure, "betza": value.betza, "label": label_of(value)}


def _leaf(name: Callable[[Any], Any]) -> Meaning:
    return Meaning(name, name)


def _as_is(value: Any) -> Any:
    return value


SQUARE = _leaf(_square)
FILE = _leaf(_file)
COLOUR = _leaf(_colour)
KIND = _leaf(_kind)
PIECE = _leaf(_piece)
PLACEMENT = _leaf(_placement)
GEOMETRY = Meaning(_geometry, _geometry_plain)
TEXT = _leaf(_as_is)


# -- values made of values --------------------------------------------------------------------------


def _each(item: Meaning) -> Meaning:
    """A tuple of values of one meaning."""

    def show(values: Any) -> Any:
        return tuple(item.show(value) for value in values) if isinstance(values, tuple) else values

    def plain(values: Any) -> Any:
        return [item.plain(value) for value in values] if isinstance(values, tuple) else values

    return Meaning(show, plain)


def _optional(inner: Meaning) -> Meaning:
    """A value of that meaning, or None."""
    return Meaning(
        lambda value: None if value is None else inner.show(value),
        lambda value: None if value is None else inner.plain(value),
    )


def _parts(*parts: Meaning) -> Meaning:
    """A tuple of values of these meanings, one each, read as a list in a payload."""

    def show(value: Any) -> Any:
        if not isinstance(value, tuple) or len(value) != len(parts):
            return value
        return tuple(part.show(item) for part, item in zip(parts, value, strict=True))

    def plain(value: Any) -> Any:
        if not isinstance(value, tuple) or len(value) != len(parts):
            return value
        return [part.plain(item) for part, item in zip(parts, value, strict=True)]

    return Meaning(show, plain)


def _record(**parts: Meaning) -> Meaning:
    """A tuple of values of these meanings, one each, read as a dict of the parts' names in a payload."""
    unnamed = _parts(*parts.values())
    names = tuple(parts)

    def plain(value: Any) -> Any:
        listed = unnamed.plain(value)
        return dict(zip(names, listed, strict=True)) if isinstance(listed, list) else listed

    return Meaning(unnamed.show, plain)


SQUARES = _each(SQUARE)
SIGHTING = _record(square=SQUARE, piece=PIECE)
"""A piece seen somewhere: (square, code)."""
PATH = _record(target=SQUARE, traversed=SQUARES, rule=TEXT)
"""One geometric move: (target, the squares traversed nearest first, the target rule)."""
LESSONS = _each(_parts(SQUARE, TEXT))
"""The move functions taught so far: (square, label) of each piece taught."""
KEY = _parts(PLACEMENT, COLOUR, TEXT, SQUARE, LESSONS)
"""A position as repetition counts it: placement, side to move, castling rights, en passant, lessons."""
OCCUPANT = _parts(PIECE, TEXT)
"""Who stands on a square: (code, actor name)."""

# (field name, declared type) -> meaning: a field not listed carries plain values, read as they are.
# The type is part of the key because a few names mean two things: ``rook`` is the rook's move in a
# journal (two squares) and who stands on its square in a castling report (a code and a name).
_MEANINGS: dict[tuple[str, str], Meaning] = {
    **{
        (name, "int"): SQUARE
        for name in ("square", "origin", "target", "start", "end", "king_square", "to", "victim",
                     "en_passant", "legal_en_passant", "rook_square", "king_to", "rook_to")
    },
    **{
        (name, "tuple[int, ...]"): SQUARES
        for name in ("traversed", "crossed", "between", "targets", "origins", "hidden", "ghosts")
    },
    ("kings", "tuple[int, int]"): SQUARES,
    ("rooks", "tuple[int, int, int, int]"): SQUARES,
    ("rook", "tuple[int, int] | None"): _optional(SQUARES),
    ("colour", "int"): COLOUR,
    ("colour", "int | None"): COLOUR,
    ("turn", "int"): COLOUR,
    ("kind", "int"): KIND,
    ("promotion", "int"): KIND,
    ("file", "int"): FILE,
    **{(name, "int"): PIECE for name in ("code", "target_code", "expect")},
    **{
        (name, "tuple[Sighting, ...]"): _each(SIGHTING)
        for name in ("candidates", "check_candidates", "king_candidates", "checkers", "exposers", "check")
    },
    ("check", "tuple[tuple[int, int], ...]"): _each(SIGHTING),
    ("ghosts", "tuple[tuple[int, int], ...]"): _each(SIGHTING),
    ("blocker", "Sighting | None"): _optional(SIGHTING),
    **{(name, "Reach"): _each(PATH) for name in ("reach", "rook_reach")},
    ("path", "PathEntry | None"): _optional(PATH),
    ("placement", "bytes"): PLACEMENT,
    ("key", "PositionKey"): KEY,
    ("start_key", "PositionKey | None"): _optional(KEY),
    ("held", "tuple[bytes, tuple[tuple[int, str], ...]] | None"): _optional(_parts(PLACEMENT, LESSONS)),
    ("crossed_candidates", "tuple[tuple[int, tuple[Sighting, ...]], ...]"): _each(
        _record(square=SQUARE, candidates=_each(SIGHTING))
    ),
    ("changes", "tuple[Change, ...]"): _each(_record(square=SQUARE, piece=PIECE, name=TEXT)),
    ("lessons", "tuple[tuple[int, str], ...]"): LESSONS,
    **{(name, "tuple[int, str]"): OCCUPANT for name in ("king", "rook")},
    ("geometry", "Geometry"): GEOMETRY,
}  # fmt: skip


def _declared(field: dataclasses.Field[Any]) -> str:
    """A field's declared type as written (a class made without postponed annotations holds types)."""
    declared = field.type
    if isinstance(declared, str):
        return declared
    return declared.__name__ if isinstance(declared, type) else str(declared)


_OF_KIND: dict[type, dict[str, Meaning]] = {}


def meanings_of(kind: type) -> dict[str, Meaning]:
    """Return the meaning of each field of the dataclass ``kind`` that holds squares, colours, kinds,
    pieces, placements or geometries, by the field's name and declared type (found once per class)."""
    found = _OF_KIND.get(kind)
    if found is None:
        found = {
            field.name: _MEANINGS[(field.name, _declared(field))]
            for field in dataclasses.fields(kind)
            if (field.name, _declared(field)) in _MEANINGS
        }
        _OF_KIND[kind] = found
    return found


_SHOWN: dict[type, tuple[tuple[str, Callable[[Any], Any]], ...]] = {}


def message_repr(message: object) -> str:
    """``MoveQuery(start='g1', end='f3', colour='white')``: ``message``'s class and fields, with names
    where the actors hold numbers (fields declared with ``repr=False`` left out)."""
    kind = type(message)
    shown = _SHOWN.get(kind)
    if shown is None:
        meanings = meanings_of(kind)
        shown = tuple(
            (field.name, meanings[field.name].show if field.name in meanings else _nested)
            for field in dataclasses.fields(kind)  # type: ignore[arg-type]  # a dataclass, by its caller
            if field.repr
        )
        _SHOWN[kind] = shown
    parts = ", ".join(f"{name}={show(getattr(message, name))!r}" for name, show in shown)
    return f"{kind.__name__}({parts})"


class _Printed(str):
    """Text that a repr shows as it is (a nested value already printed)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def _nested(value: Any) -> Any:
    """A value of the rules (a :class:`board.rules.declared.Probe`, ...) held by a message reads
    by name too: ``board`` knows nothing of this table, so its values print as plain dataclasses."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type | Named):
        return _Printed(message_repr(value))
    if isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
        return tuple(_nested(item) for item in value)
    return value


class Named:
    """The base of every message and value of the protocol: its repr shows what its integers mean
    (:func:`message_repr`). Its dataclass is declared with ``repr=False`` so that this repr is kept;
    the constructor is the dataclass's own and takes the integers."""

    __slots__ = ()

    def __repr__(self) -> str:
        return message_repr(self)

