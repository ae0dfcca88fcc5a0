"""Messages by name: a message's repr is the call that makes it, with squares, colours, kinds and pieces
by name (``MoveQuery(start='b1', end='c3', colour='white')``), and its constructor takes those names.

The actors work on small integers (a square is 0..63, a1 = 0; a piece code is colour * 8 + kind), and
every message they make carries them. A message made by hand may carry names instead; its ``__init__``
turns them into those integers, so that what a repr shows is what a constructor takes and what the
actors receive. Which field holds what is decided once, from the field's name and declared type.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from board.rules.fen_text import placement_field
from board.rules.geometry import Geometry, geometry_named
from board.rules.pieces import COLOUR_NAMES, KIND_NAMES, parse_colour
from board.rules.squares import FILE_LETTERS, SQUARE_NAMES, parse_standard_square

__all__ = ["Codec", "codecs_of", "message_repr"]


@dataclasses.dataclass(frozen=True, slots=True)
class Codec:
    """How one field is shown and taken by name.

    ``show`` turns the integers the actors use into names; ``take`` turns names (or integers) back;
    ``ready`` is a Python expression over ``value``, true when ``value`` needs no ``take`` (it is
    evaluated on every message made, so it must be cheap).
    """

    show: Callable[[Any], Any]
    take: Callable[[Any], Any]
    ready: str


# -- one value ------------------------------------------------------------------------------------


def _show_square(square: int) -> str | None:
    return SQUARE_NAMES[square] if 0 <= square < 64 else None


def _take_square(value: object) -> int:
    if value is None:
        return -1
    if isinstance(value, str):
        return parse_standard_square(value)
    if isinstance(value, int) and not isinstance(value, bool) and -1 <= value < 64:
        return value
    raise ValueError(f"not a square: {value!r} (a name like 'e4', 0..63, or None)")


def _show_file(file: int) -> str | None:
    return FILE_LETTERS[file] if 0 <= file < 8 else None


def _take_file(value: object) -> int:
    if value is None:
        return -1
    if isinstance(value, str) and len(value) == 1 and value.lower() in FILE_LETTERS:
        return FILE_LETTERS.index(value.lower())
    if isinstance(value, int) and not isinstance(value, bool) and -1 <= value < 8:
        return value
    raise ValueError(f"not a file: {value!r} (a letter 'a' to 'h', 0..7, or None)")


def _show_colour(colour: int | None) -> str | None:
    return None if colour is None else COLOUR_NAMES[colour]


def _take_colour(value: object) -> int:
    if isinstance(value, str):
        return parse_colour(value)
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return value
    raise ValueError(f"not a colour: {value!r} ('white' or 'black')")


def _show_kind(kind: int) -> str | None:
    return KIND_NAMES[kind] or None


def _take_kind(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, str) and value.lower() in KIND_NAMES[1:]:
        return KIND_NAMES.index(value.lower())
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(KIND_NAMES):
        return value
    raise ValueError(f"not a piece kind: {value!r} (one of {', '.join(KIND_NAMES[1:])})")


def _show_piece(code: int) -> str | None:
    return f"{COLOUR_NAMES[code >> 3]} {KIND_NAMES[code & 7]}" if code & 7 else None


def _take_piece(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        colour, _, kind = value.strip().partition(" ")
        if kind:
            return _take_colour(colour) * 8 + _take_kind(kind)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 16:
        return value
    raise ValueError(f"not a piece: {value!r} (a colour and a kind, like 'white knight')")


def _take_placement(value: object) -> bytes:
    if isinstance(value, bytes) and len(value) == 64:
        return value
    if not isinstance(value, str):
        raise ValueError(f"not a placement: {value!r} (a FEN placement field)")
    letters = "pnbrqk"
    codes = [0] * 64
    ranks = value.split("/")
    if len(ranks) != 8:
        raise ValueError(f"not a placement: {value!r} (8 ranks expected)")
    for row, rank_text in enumerate(ranks):
        file = 0
        for char in rank_text:
            if char.isdigit():
                file += int(char)
            elif char.lower() in letters and file < 8:
                colour = 0 if char.isupper() else 1
                codes[(7 - row) * 8 + file] = colour * 8 + letters.index(char.lower()) + 1
                file += 1
            else:
                raise ValueError(f"not a placement: {value!r} (at {char!r})")
        if file != 8:
            raise ValueError(f"not a placement: {value!r} (rank {8 - row} has {file} squares)")
    return bytes(codes)


def _show_geometry(geometry: Geometry) -> Geometry | str:
    """A geometry the project names is shown by its name; a user's function stays as it is."""
    try:
        known = geometry_named(geometry.name)
    except ValueError:
        return geometry
    return geometry.name if known.moves is geometry.moves else geometry


def _take_geometry(value: object) -> Geometry:
    if isinstance(value, str):
        return geometry_named(value)
    if isinstance(value, Geometry):
        return value
    raise ValueError(f"not a geometry: {value!r} (a name like 'camel', or a Geometry)")


# -- values made of values --------------------------------------------------------------------------


def _show_sighting(sighting: tuple[int, int]) -> tuple[str | None, str | None]:
    return (_show_square(sighting[0]), _show_piece(sighting[1]))


def _take_sighting(value: Any) -> tuple[int, int]:
    square, piece = value
    return (_take_square(square), _take_piece(piece))


def _show_path(path: tuple[int, tuple[int, ...], str]) -> tuple[Any, ...]:
    target, traversed, rule = path
    return (_show_square(target), tuple(_show_square(square) for square in traversed), rule)


def _take_path(value: Any) -> tuple[int, tuple[int, ...], str]:
    target, traversed, rule = value
    return (_take_square(target), tuple(_take_square(square) for square in traversed), rule)


def _show_crossing(item: tuple[int, tuple[tuple[int, int], ...]]) -> tuple[Any, ...]:
    return (_show_square(item[0]), tuple(_show_sighting(sighting) for sighting in item[1]))


def _take_crossing(value: Any) -> tuple[int, tuple[tuple[int, int], ...]]:
    square, sightings = value
    return (_take_square(square), tuple(_take_sighting(sighting) for sighting in sightings))


def _show_change(item: tuple[int, int, str]) -> tuple[Any, ...]:
    return (_show_square(item[0]), _show_piece(item[1]), item[2])


def _take_change(value: Any) -> tuple[int, int, str]:
    square, piece, name = value
    return (_take_square(square), _take_piece(piece), name)


def _show_lessons(lessons: Any) -> tuple[Any, ...]:
    return tuple((_show_square(square), label) for square, label in lessons)


def _take_lessons(value: Any) -> tuple[tuple[int, str], ...]:
    return tuple((_take_square(square), str(label)) for square, label in value)


def _show_key(key: Any) -> tuple[Any, ...]:
    placement, turn, castling, en_passant, lessons = key
    shown = (placement_field(placement), _show_colour(turn), castling, _show_square(en_passant))
    return (*shown, _show_lessons(lessons))


def _take_key(value: Any) -> tuple[bytes, int, int, int, tuple[tuple[int, str], ...]]:
    placement, turn, castling, en_passant, lessons = value
    return (
        _take_placement(placement), _take_colour(turn), int(castling), _take_square(en_passant),
        _take_lessons(lessons),
    )


def _show_held(value: Any) -> tuple[Any, ...]:
    placement, lessons = value
    return (placement_field(placement), _show_lessons(lessons))


def _take_held(value: Any) -> tuple[bytes, tuple[tuple[int, str], ...]]:
    placement, lessons = value
    return (_take_placement(placement), _take_lessons(lessons))


def _show_occupant(value: Any) -> tuple[Any, str]:
    code, name = value
    return (_show_piece(code), name)


def _take_occupant(value: Any) -> tuple[int, str]:
    code, name = value
    return (_take_piece(code), str(name))


def _each(convert: Callable[[Any], Any]) -> Callable[[Any], tuple[Any, ...]]:
    def every(values: Any) -> tuple[Any, ...]:
        return tuple(convert(value) for value in values)

    return every


def _optional(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def maybe(value: Any) -> Any:
        return None if value is None else convert(value)

    return maybe


# Cheap tests that a value is already as the actors hold it.
_INT = "value.__class__ is int"
_INTS = "value.__class__ is tuple and (not value or value[0].__class__ is int)"
_PAIR = "value is None or value[0].__class__ is int"
_PAIRS = "value.__class__ is tuple and (not value or value[0][0].__class__ is int)"

_SCALAR = Codec(_show_square, _take_square, _INT)
_SQUARES = Codec(_each(_show_square), _each(_take_square), _INTS)
_SIGHTINGS = Codec(_each(_show_sighting), _each(_take_sighting), _PAIRS)
_PATHS = Codec(_each(_show_path), _each(_take_path), _PAIRS)

# (field name, declared type) -> codec; a field not listed carries plain values, shown as they are.
_CODECS: dict[tuple[str, str], Codec] = {
    **{
        (name, "int"): _SCALAR
        for name in ("square", "origin", "target", "start", "end", "king_square", "to", "victim",
                     "en_passant", "legal_en_passant", "rook_square", "king_to", "rook_to")
    },
    **{
        (name, "tuple[int, ...]"): _SQUARES
        for name in ("traversed", "crossed", "between", "targets", "origins", "hidden")
    },
    ("kings", "tuple[int, int]"): Codec(_each(_show_square), _each(_take_square), _PAIR),
    ("rooks", "tuple[int, int, int, int]"): Codec(_each(_show_square), _each(_take_square), _INTS),
    ("rook", "tuple[int, int] | None"): Codec(
        _optional(_each(_show_square)), _optional(_each(_take_square)), _PAIR
    ),
    ("colour", "int"): Codec(_show_colour, _take_colour, _INT),
    ("turn", "int"): Codec(_show_colour, _take_colour, _INT),
    ("colour", "int | None"): Codec(_show_colour, _optional(_take_colour), f"value is None or {_INT}"),
    ("kind", "int"): Codec(_show_kind, _take_kind, _INT),
    ("file", "int"): Codec(_show_file, _take_file, _INT),
    ("promotion", "int"): Codec(_show_kind, _take_kind, _INT),
    **{(name, "int"): Codec(_show_piece, _take_piece, _INT) for name in ("code", "target_code", "expect")},
    **{
        (name, "tuple[Sighting, ...]"): _SIGHTINGS
        for name in ("candidates", "check_candidates", "king_candidates", "checkers", "exposers", "check")
    },
    ("check", "tuple[tuple[int, int], ...]"): _SIGHTINGS,
    ("ghosts", "tuple[tuple[int, int], ...]"): _SIGHTINGS,
    ("blocker", "Sighting | None"): Codec(_optional(_show_sighting), _optional(_take_sighting), _PAIR),
    **{(name, "Reach"): _PATHS for name in ("reach", "rook_reach", "onward")},
    ("path", "PathEntry | None"): Codec(_optional(_show_path), _optional(_take_path), _PAIR),
    ("placement", "bytes"): Codec(placement_field, _take_placement, "value.__class__ is bytes"),
    ("key", "PositionKey"): Codec(_show_key, _take_key, "value[0].__class__ is bytes"),
    ("held", "tuple[bytes, tuple[tuple[int, str], ...]] | None"): Codec(
        _optional(_show_held), _optional(_take_held), "value is None or value[0].__class__ is bytes"
    ),
    ("start_key", "PositionKey | None"): Codec(
        _optional(_show_key), _optional(_take_key), "value is None or value[0].__class__ is bytes"
    ),
    ("crossed_candidates", "tuple[tuple[int, tuple[Sighting, ...]], ...]"): Codec(
        _each(_show_crossing), _each(_take_crossing), _PAIRS
    ),
    ("changes", "tuple[Change, ...]"): Codec(_each(_show_change), _each(_take_change), _PAIRS),
    ("lessons", "tuple[tuple[int, str], ...]"): Codec(_show_lessons, _take_lessons, _PAIRS),
    **{
        (name, "tuple[int, str]"): Codec(_show_occupant, _take_occupant, "value[0].__class__ is int")
        for name in ("king", "rook")
    },
    ("geometry", "Geometry"): Codec(_show_geometry, _take_geometry, "value.__class__ is not str"),
}  # fmt: skip


def codecs_of(kind: type) -> dict[str, Codec]:
    """Return the codec of each field of the dataclass ``kind`` that holds squares, colours, kinds,
    pieces, placements or geometries (by the field's name and declared type)."""
    return {
        field.name: _CODECS[(field.name, str(field.type))]
        for field in dataclasses.fields(kind)
        if (field.name, str(field.type)) in _CODECS
    }


_SHOWN: dict[type, tuple[tuple[str, Callable[[Any], Any] | None], ...]] = {}


def message_repr(message: object) -> str:
    """``MoveQuery(start='g1', end='f3', colour='white')``: the call that makes ``message``, with
    names where the actors hold numbers (fields declared with ``repr=False`` left out)."""
    kind = type(message)
    shown = _SHOWN.get(kind)
    if shown is None:
        codecs = codecs_of(kind)
        shown = tuple(
            (field.name, codecs[field.name].show if field.name in codecs else None)
            for field in dataclasses.fields(kind)  # type: ignore[arg-type]  # a dataclass, by its caller
            if field.repr
        )
        _SHOWN[kind] = shown
    parts = []
    for name, show in shown:
        value = getattr(message, name)
        parts.append(f"{name}={(value if show is None else show(value))!r}")
    return f"{kind.__name__}({', '.join(parts)})"
