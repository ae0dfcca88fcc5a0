"""Move geometries a piece can learn: the standard kinds, named fairy pieces, and a user's own.

A :class:`Geometry` answers like board.rules.geometry's move function (a :class:`Path` or ``None``, never
raising on a non-geometric move); fairy pieces are tables of leaps, rides and combinations of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Final

from board.errors import BetzaError, InputError, SquareError
from board.rules.betza import betza_moves
from board.rules.geometry import Path, TargetRule, move_function, reach_of
from board.rules.pieces import BISHOP, KIND_NAMES, KINDS, KING, KNIGHT, QUEEN, ROOK
from board.rules.squares import STANDARD, Coord, parse_square, square_name

MoveRule = Callable[[int, Coord, Coord], Path | None]
"""``(colour, start, end) -> Path | None`` on 1-based (file, rank) pairs."""

Reach = tuple[tuple[int, tuple[int, ...], TargetRule], ...]
"""Every (target, traversed squares, target rule) a geometry allows from one square, as 0..63 indexes."""


@dataclass(frozen=True, slots=True, eq=False)
class Geometry:
    """A named move rule.

    ``pure`` marks a fixed table: a rule that always answers the same, so its reach may be cached
    and a piece may declare it once. A rule not so marked (the default, and every user's function)
    may answer differently from one moment to the next: it is asked afresh each time, and a piece
    that moves by it tells the board "ask me" rather than a reach to keep.

    Each geometry is its own identity (two made alike are two rules), which keeps the caches keyed
    by it cheap to look up. Others know it by its ``label``, which says what it is, the same in
    every process: a known geometry's name ('knight', 'camel'), a notation of its moves, or for a
    function the function's qualified name and the values it was made with (see :func:`label_of`;
    empty: worked out from ``moves``).
    """

    name: str
    moves: MoveRule
    pure: bool = False
    betza: str | None = None
    """The piece in Betza notation when it can be written so ('NC', and 'C' for the camel), else None."""
    label: str = ""
    """What the piece is, by value (a name, a Betza string), the same in every process; empty: a
    function named by its qualified name and the values it was made with (see :func:`label_of`)."""


# -- building blocks ------------------------------------------------------------------------------


def standard(kind: int) -> Geometry:
    """The geometry of a standard piece kind (board.rules.pieces), exactly board.rules.geometry's move
    function.

    Args:
        kind: one of board.rules.pieces' kinds (PAWN .. KING).

    Returns:
        The kind's geometry, the same object every time.

    Raises:
        InputError: ``kind`` is not one of the six kinds.
    """
    if kind not in KINDS:
        raise InputError(f"piece kind {kind} is not one of {list(KINDS)} (pawn .. king)")
    return _STANDARD[kind]


_STANDARD_BETZA: Final = {KNIGHT: "N", BISHOP: "B", ROOK: "R", QUEEN: "Q", KING: "K"}
"""The standard kinds in Betza notation (a pawn's first double step and en passant are not Betza)."""


def _standard(kind: int) -> Geometry:
    moves = partial(move_function, kind)
    name = KIND_NAMES[kind]
    return Geometry(name, moves, pure=True, betza=_STANDARD_BETZA.get(kind), label=name)


_STANDARD: Final = {kind: _standard(kind) for kind in KINDS}


def _directions(step: tuple[int, int]) -> frozenset[tuple[int, int]]:
    """The up to eight symmetric versions of one (file, rank) step."""
    a, b = step
    signs = ((1, 1), (1, -1), (-1, 1), (-1, -1))
    return frozenset((x * sx, y * sy) for x, y in ((a, b), (b, a)) for sx, sy in signs)


def leaper(name: str, step: tuple[int, int]) -> Geometry:
    """A piece that jumps by ``step`` (in any of its symmetric directions), traversing nothing.

    Args:
        name: the piece's name.
        step: (files, ranks) of one jump, e.g. (1, 3) for the camel.

    Returns:
        A pure geometry.
    """
    directions = _directions(step)

    def moves(colour: int, start: Coord, end: Coord) -> Path | None:
        if (end[0] - start[0], end[1] - start[1]) in directions:
            return Path(end, ())
        return None

    return Geometry(name, moves, pure=True)


def rider(name: str, step: tuple[int, int]) -> Geometry:
    """A piece that repeats ``step`` in one direction any number of times, crossing each stop on the way.

    Args:
        name: the piece's name.
        step: (files, ranks) of one stop, e.g. (1, 2) for the nightrider.

    Returns:
        A pure geometry.
    """
    directions = _directions(step)

    def moves(colour: int, start: Coord, end: Coord) -> Path | None:
        file_shift, rank_shift = end[0] - start[0], end[1] - start[1]
        for df, dr in directions:
            # The number of steps, read from whichever coordinate the step moves.
            count = file_shift // df if df else rank_shift // dr
            if count >= 1 and (df * count, dr * count) == (file_shift, rank_shift):
                stops = tuple((start[0] + df * k, start[1] + dr * k) for k in range(1, count))
                return Path(end, stops)
        return None

    return Geometry(name, moves, pure=True)


def jumping(name: str, base: Geometry) -> Geometry:
    """``base``'s targets, reached by a jump: the same moves, traversing nothing."""

    def moves(colour: int, start: Coord, end: Coord) -> Path | None:
        path = base.moves(colour, start, end)
        return None if path is None else Path(path.target, (), path.target_rule)

    return Geometry(name, moves, base.pure)


def combine(name: str, *parts: Geometry) -> Geometry:
    """A piece that moves as any of ``parts``; the first part that says yes gives the path.

    Args:
        name: the new piece's name.
        parts: the geometries it moves as, asked in order.

    Returns:
        The combined geometry (pure when every part is).
    """

    def moves(colour: int, start: Coord, end: Coord) -> Path | None:
        for part in parts:
            path = part.moves(colour, start, end)
            if path is not None:
                return path
        return None

    return Geometry(name, moves, all(part.pure for part in parts))


# -- pieces written in Betza notation --------------------------------------------------------------


@lru_cache(maxsize=1024)
def _betza(text: str) -> Geometry:
    return Geometry(text, betza_moves(text), pure=True, betza=text, label=text)


def betza(text: str) -> Geometry:
    """The piece written ``text`` in Betza notation (see board.rules.betza), named by that string.

    Args:
        text: e.g. ``NC`` (knight and camel), ``mBcF``, ``nN``, ``W4``; surrounding spaces ignored.

    Returns:
        A pure geometry, the same object for the same string.

    Raises:
        BetzaError: a letter outside the notation read here; the message names it and its position.
    """
    return _betza(text.strip())


def _named_betza(name: str, text: str) -> Geometry:
    return Geometry(name, betza(text).moves, pure=True, betza=text, label=name)


# -- the named pieces -----------------------------------------------------------------------------

_ROOK = _STANDARD[ROOK]

def _named(geometry: Geometry) -> Geometry:
    """``geometry`` known by its name, wherever it is sent."""
    return Geometry(geometry.name, geometry.moves, geometry.pure, geometry.betza, label=geometry.name)


NAMED: Final[dict[str, Geometry]] = {
    **{geometry.name: geometry for geometry in _STANDARD.values()},
    "archbishop": _named_betza("archbishop", "BN"),
    "chancellor": _named_betza("chancellor", "RN"),
    "amazon": _named_betza("amazon", "QN"),
    "jumping-rook": _named(jumping("jumping-rook", _ROOK)),
    "camel": _named_betza("camel", "C"),
    "zebra": _named_betza("zebra", "Z"),
    "nightrider": _named_betza("nightrider", "NN"),
    "mann": _named_betza("mann", "K"),  # a king's steps on a piece that is not royal
}
"""Every geometry known by name: the six standard kinds and the fairy pieces (written in Betza
underneath, all but the jumping rook, which leaps any distance and has no Betza atom)."""


def geometry_named(name: str) -> Geometry:
    """The geometry a lesson's text names: a Betza string when it holds an upper-case letter (``NC``,
    ``mBcF``), else a name (surrounding spaces ignored).

    Args:
        name: a Betza string, a kind (``knight``) or a fairy piece (``archbishop``, ``camel``, ...).

    Returns:
        The geometry; the same object every time for the same name or Betza string.

    Raises:
        BetzaError: a Betza string that cannot be read (the letter and its position named).
        InputError: no geometry has that name; the message lists the known ones.
    """
    text = name.strip()
    if text.lower() != text:
        try:
            return betza(text)
        except BetzaError as error:
            if text.lower() in NAMED:
                raise BetzaError(f"{error} (for the named piece, write {text.lower()!r})") from None
            raise
    found = NAMED.get(text)
    if found is None:
        raise InputError(
            f"unknown piece geometry {name!r}; known: {', '.join(sorted(NAMED))}, "
            f"or a piece in Betza notation (e.g. NC, mBcF)"
        )
    return found


# -- a user's own function ------------------------------------------------------------------------

UserAnswer = object
"""What a user's function may return: ``None``/``False`` (no), a :class:`Path`, or a pair
``(target, traversed)`` whose squares are names ('e4') or 1-based (file, rank) pairs."""


class _Malformed(Exception):
    """An answer that breaks the contract; the text says how."""


def _on_board(coord: Coord) -> bool:
    return 1 <= coord[0] <= STANDARD[0] and 1 <= coord[1] <= STANDARD[1]


def _shown(coord: Coord) -> str:
    return square_name(coord) if _on_board(coord) else f"({coord[0]}, {coord[1]})"


def _as_coord(value: object, what: str) -> Coord:
    if isinstance(value, str):
        try:
            return parse_square(value, STANDARD)
        except SquareError as error:
            raise _Malformed(f"{what} {value!r}: {error}") from None
    if (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(isinstance(part, int) and not isinstance(part, bool) for part in value)
    ):
        file, rank = value
        return int(file), int(rank)
    raise _Malformed(f"{what} {value!r} is neither a square name nor a (file, rank) pair")


def _validated(answer: object, start: Coord, end: Coord) -> Path | None:
    if answer is None or answer is False:
        return None
    if isinstance(answer, Path):
        target, traversed, rule = answer.target, answer.traversed, answer.target_rule
        target = _as_coord(target, "the target")
        steps = [_as_coord(square, "traversed square") for square in traversed]
        if rule not in ("any", "empty", "enemy"):
            raise _Malformed(f"target rule {rule!r} is not any, empty or enemy")
    elif isinstance(answer, tuple | list) and len(answer) == 2 and isinstance(answer[1], tuple | list):
        target = _as_coord(answer[0], "the target")
        steps = [_as_coord(square, "traversed square") for square in answer[1]]
        rule = "any"
    else:
        raise _Malformed(
            f"answered {answer!r}; expected None or False (no), a Path, or (target, traversed squares)"
        )
    if target != end:
        raise _Malformed(f"the target {_shown(target)} is not the square asked about ({_shown(end)})")
    for step in steps:
        if not _on_board(step):
            raise _Malformed(f"traversed square {_shown(step)} is off the 8x8 board")
        if step in (start, end):
            raise _Malformed(f"traversed square {_shown(step)} is the start or the target")
    if len(set(steps)) != len(steps):
        repeated = next(step for step in steps if steps.count(step) > 1)
        raise _Malformed(f"traversed square {_shown(repeated)} appears more than once")
    return Path(end, tuple(steps), rule)


def user_geometry(function: Callable[[Coord, Coord], object], name: str) -> Geometry:
    """Wrap a user's ``(start, end) -> answer`` function as a geometry that checks every answer.

    The function gets 1-based (file, rank) pairs and may answer ``None`` or ``False`` for no, a
    :class:`Path`, or a pair ``(target, traversed)`` of square names or (file, rank) pairs. The
    target must be the square asked about; traversed squares must be on the board, distinct, and
    neither the start nor the target (their order is the function's word: nearest the mover first).

    The returned geometry raises :class:`InputError` naming the function, the squares asked and
    what was wrong when the function raises or answers something malformed. It is never cached.
    """
    shown = f"move function {name!r} ({getattr(function, '__qualname__', type(function).__name__)})"

    def moves(colour: int, start: Coord, end: Coord) -> Path | None:
        asked = f"{shown} asked {_shown(start)} -> {_shown(end)}"
        try:
            answer = function(start, end)
        except Exception as error:
            raise InputError(f"{asked} raised {type(error).__name__}: {error}") from error
        try:
            return _validated(answer, start, end)
        except _Malformed as error:
            raise InputError(f"{asked}: {error}") from None

    return Geometry(name, moves, label=function_label(function))


def label_of(geometry: Geometry) -> str:
    """How a piece names its move function to others, by what it is, the same in one process and
    across processes: the label it was made with (a known geometry's name, 'knight', 'camel'), else
    the qualified name of its function with the values it was made with."""
    return geometry.label or function_label(geometry.moves)


def function_label(function: Callable[..., object]) -> str:
    """A function by value: its module and qualified name, with the arguments a ``partial`` gives it
    and the values its closure holds ('tests.rules.moves', 'board.rules.geometry.move_function(2)',
    'lessons.<locals>.ride[(1, 0)]'). An object that is not a plain value is named by its type."""
    if isinstance(function, partial):
        given = [_value_label(value) for value in function.args]
        given += [f"{key}={_value_label(value)}" for key, value in sorted(function.keywords.items())]
        return f"{function_label(function.func)}({', '.join(given)})"
    module = getattr(function, "__module__", None) or type(function).__module__
    qualified = getattr(function, "__qualname__", None) or type(function).__qualname__
    if qualified.endswith("<lambda>"):  # lambdas of one scope share a name: their line tells them apart
        code = getattr(function, "__code__", None)
        qualified += f":{code.co_firstlineno}" if code is not None else ""
    held = []
    for cell in getattr(function, "__closure__", None) or ():
        try:
            held.append(_value_label(cell.cell_contents))
        except ValueError:  # a cell not yet filled
            held.append("?")
    return f"{module}.{qualified}" + (f"[{', '.join(held)}]" if held else "")


def _value_label(value: object) -> str:
    if value is None or isinstance(value, bool | int | float | str):
        return repr(value)
    if isinstance(value, tuple | list):
        return "(" + ", ".join(_value_label(item) for item in value) + ")"
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(sorted(_value_label(item) for item in value)) + "}"
    if isinstance(value, Geometry):
        return label_of(value)
    if callable(value):
        return function_label(value)
    return type(value).__qualname__


# -- what a piece actor declares ------------------------------------------------------------------


def _compute_reach(geometry: Geometry, colour: int, square: int) -> Reach:
    return reach_of(geometry.moves, colour, square)


_cached_reach = lru_cache(maxsize=8192)(_compute_reach)


def reach(geometry: Geometry, colour: int, square: int) -> Reach:
    """Every move ``geometry`` allows a ``colour`` piece on ``square`` (0..63), ascending by target.

    Cached for pure geometries (standard and named); a user's function is asked afresh each time.
    """
    if geometry.pure:
        return _cached_reach(geometry, colour, square)
    return _compute_reach(geometry, colour, square)
