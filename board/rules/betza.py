"""Betza notation read into a move function: the way variant designers write a piece ('NC', 'mBcF', 'nN').

A Betza string is a run of groups, each ``modifiers atom [range]``: the atoms are leaps, the modifiers
choose among an atom's directions (relative to the piece's colour: forward is up the board for white,
down for black) and whether it moves, captures or both, and a doubled atom or a digit makes it ride.
The reader turns the string into a table of shifts, so the move function is one look-up a square pair.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final

from board.errors import BetzaError
from board.rules.paths import Path, TargetRule
from board.rules.squares import Coord

LEAPS: Final[dict[str, tuple[tuple[int, int], ...]]] = {
    "W": ((1, 0),),
    "F": ((1, 1),),
    "D": ((2, 0),),
    "N": ((2, 1),),
    "A": ((2, 2),),
    "H": ((3, 0),),
    "C": ((3, 1),),
    "Z": ((3, 2),),
    "G": ((3, 3),),
    "K": ((1, 0), (1, 1)),
    "R": ((1, 0),),
    "B": ((1, 1),),
    "Q": ((1, 0), (1, 1)),
}
"""Each atom's leaps as (long, short) legs: W wazir, F ferz, D dabbaba, N knight, A alfil, H threeleaper,
C camel, Z zebra, G tripper; K is W and F together; R, B and Q are the riders of W, F and both."""

RIDERS: Final = frozenset("RBQ")
"""The atoms that ride by themselves (the rook, the bishop and the queen)."""

MOVE_LETTERS: Final = "mc"
DIRECTION_LETTERS: Final = "fblrvs"
LAME_LETTER: Final = "n"

_VERTICAL: Final = "fbv"
_HORIZONTAL: Final = "lrs"
_REFUSED: Final[dict[str, str]] = {
    "p": "a hopper (it leaps over a piece), which lessons do not read",
    "g": "a grasshopper-style hopper, which lessons do not read",
    "i": "an initial-move modifier, which lessons do not read (a piece's moves never depend on its history)",
}
_KNOWN: Final = "atoms W F D N A H C Z G K Q R B; modifiers m c f b l r v s n"

Shift = tuple[int, int]
Entry = tuple[tuple[Shift, ...], TargetRule]
"""What one shift of the table says: the traversed offsets, nearest the start first, and the target rule."""
Table = dict[Shift, Entry]


def _fail(text: str, position: int, why: str) -> BetzaError:
    letter = text[position]
    return BetzaError(f"Betza {text!r}: {letter!r} at position {position + 1} is {why}")


def _readings(vector: Shift) -> list[tuple[str, str, str]]:
    """Each way to name ``vector`` (white's view): (main direction, its group v or s, side) where the
    main direction is the way its longer leg points and the side the way its shorter leg does ('' when
    the shorter leg is nil: both sides then). A diagonal vector has two readings."""
    x, y = vector
    readings = []
    if abs(y) >= abs(x):
        sides = ("r" if x > 0 else "l") if x else "lr"
        readings.append(("f" if y > 0 else "b", "v", sides))
    if abs(x) >= abs(y):
        sides = ("f" if y > 0 else "b") if y else "fb"
        readings.append(("r" if x > 0 else "l", "s", sides))
    return readings


def _chosen(vector: Shift, spec: str) -> bool:
    """Whether a direction spec (one letter, or a side letter then a main direction or group) names
    ``vector``."""
    for main, group, sides in _readings(vector):
        if len(spec) == 1:
            if spec in (main, group):
                return True
        elif spec[0] in sides and spec[1] in (main, group):
            return True
    return False


def _vectors(leg: tuple[int, int]) -> list[Shift]:
    """The up to eight (file, rank) vectors of a (long, short) leg."""
    long, short = leg
    found: list[Shift] = []
    for a, b in ((long, short), (short, long)):
        for sx in (1, -1):
            for sy in (1, -1):
                vector = (a * sx, b * sy)
                if vector not in found:
                    found.append(vector)
    return found


def _directions(leg: tuple[int, int], specs: list[str]) -> list[Shift]:
    """The vectors of ``leg`` the direction specs choose (all of them when there is none). On an
    orthogonal leg a two-letter spec is both its directions (``fsW``: forward and sideways)."""
    vectors = _vectors(leg)
    if not specs:
        return vectors
    if leg[1] == 0:
        specs = [letter for spec in specs for letter in spec]
    return [vector for vector in vectors if any(_chosen(vector, spec) for spec in specs)]


def _lame_path(vector: Shift) -> tuple[Shift, ...]:
    """The squares a lame leap passes, nearest first: straight along the longer leg while it is the
    longer, then diagonally (the xiangqi horse goes one square straight, then one diagonally)."""
    x, y = 0, 0
    tx, ty = vector
    step_x = 1 if tx > 0 else -1
    step_y = 1 if ty > 0 else -1
    passed = []
    while (x, y) != (tx, ty):
        gap = abs(tx - x) - abs(ty - y)
        if gap > 0:
            x += step_x
        elif gap < 0:
            y += step_y
        else:
            x, y = x + step_x, y + step_y
        if (x, y) != (tx, ty):
            passed.append((x, y))
    return tuple(passed)


def _merge(table: Table, shift: Shift, entry: Entry) -> None:
    """Add one way of reaching ``shift``. The same path with another target rule widens the rule (a
    move-only and a capture-only part together move and capture); of two paths with one rule, the one
    that crosses fewer of the other's squares is kept (a jump beats a ride); otherwise the part written
    first answers."""
    known = table.get(shift)
    if known is None:
        table[shift] = entry
        return
    (old_path, old_rule), (new_path, new_rule) = known, entry
    if old_path == new_path:
        if old_rule != new_rule:
            table[shift] = (old_path, "any")
    elif (old_rule == new_rule and set(new_path) < set(old_path)) or (
        new_rule == "any" and set(new_path) <= set(old_path)
    ):
        table[shift] = entry


def read_betza(text: str) -> Table:
    """The shifts a piece written ``text`` in Betza notation can make, as white (see the module).

    Args:
        text: the Betza string, e.g. ``NC``, ``mBcF``, ``fNbW``, ``nN``, ``W4``, ``NN``.

    Returns:
        (file shift, rank shift) -> (traversed offsets nearest first, target rule).

    Raises:
        BetzaError: a letter outside the set read here (hoppers ``p``/``g``, ``i``, ``h``, unknown
            atoms ...), a modifier with no atom after it, a range that is not 1..9, or a lame rider;
            one line naming the letter and its 1-based position.
    """
    if not text:
        raise BetzaError("Betza '': an empty string names no move (write atoms such as N, W, B)")
    table: Table = {}
    rules: list[str] = []
    specs: list[str] = []
    lame = -1
    index = 0
    while index < len(text):
        letter = text[index]
        if letter in MOVE_LETTERS:
            rules.append(letter)
        elif letter == LAME_LETTER:
            lame = index
        elif letter in DIRECTION_LETTERS:
            after = text[index + 1] if index + 1 < len(text) else ""
            if after == letter:
                specs.append(letter)
                index += 1
            elif (letter in _VERTICAL and after in _HORIZONTAL) or (
                letter in _HORIZONTAL and after in _VERTICAL
            ):
                if letter in "vs":
                    raise _fail(text, index, f"'{letter}' followed by '{after}', which names no direction "
                                f"(a side comes first: e.g. fs, rv, lf)")
                specs.append(letter + after)
                index += 1
            else:
                specs.append(letter)
        elif letter in LEAPS:
            limit = 0 if letter in RIDERS else 1
            after = text[index + 1] if index + 1 < len(text) else ""
            if after == letter:
                limit = 0
                index += 1
            elif after.isdigit():
                if after == "0":
                    raise _fail(text, index + 1, "a range of 0; a range is 1 to 9 steps")
                limit = int(after)
                index += 1
            if lame >= 0 and limit != 1:
                raise _fail(text, lame, "a lame leap on a rider; only a leaper can be lame")
            rule: TargetRule = "any"
            if "m" in rules and "c" not in rules:
                rule = "empty"
            elif "c" in rules and "m" not in rules:
                rule = "enemy"
            for leg in LEAPS[letter]:
                for vector in _directions(leg, specs):
                    _add(table, vector, limit, lame >= 0, rule)
            rules, specs, lame = [], [], -1
        elif letter in _REFUSED:
            raise _fail(text, index, _REFUSED[letter])
        elif letter.isdigit():
            raise _fail(text, index, "a range with no atom before it (write e.g. W4 or B2)")
        else:
            raise _fail(text, index, f"not read in Betza lessons ({_KNOWN})")
        index += 1
    if rules or specs or lame >= 0:
        last = len(text) - 1
        raise _fail(text, last, "a modifier with no atom after it (end with an atom, e.g. fN)")
    return table


def _add(table: Table, vector: Shift, limit: int, lame: bool, rule: TargetRule) -> None:
    """The shifts one vector makes: one leap, or a ride of up to ``limit`` steps (0: to the edge)."""
    if limit == 1:
        _merge(table, vector, (_lame_path(vector) if lame else (), rule))
        return
    steps = 7 if limit == 0 else limit
    for count in range(1, steps + 1):
        shift = (vector[0] * count, vector[1] * count)
        if abs(shift[0]) > 7 or abs(shift[1]) > 7:
            return
        stops = tuple((vector[0] * k, vector[1] * k) for k in range(1, count))
        _merge(table, shift, (stops, rule))


def coloured(table: Table) -> tuple[Table, Table]:
    """White's table and black's (every shift turned half a turn: forward is down, right is the a-file)."""
    black: Table = {}
    for (x, y), (path, rule) in table.items():
        black[(-x, -y)] = (tuple((-a, -b) for a, b in path), rule)
    return dict(table), black


def betza_move(tables: tuple[Table, Table], colour: int, start: Coord, end: Coord) -> Path | None:
    """A Betza piece's move start -> end by its tables (:func:`coloured`), or None for no."""
    entry = tables[colour].get((end[0] - start[0], end[1] - start[1]))
    if entry is None:
        return None
    path, rule = entry
    return Path(end, tuple([(start[0] + x, start[1] + y) for x, y in path]), rule)


def betza_moves(text: str) -> Callable[[int, Coord, Coord], Path | None]:
    """The move function ``(colour, start, end) -> Path | None`` of the piece written ``text``: its
    tables bound to :func:`betza_move` (plain data and a module's function, so a piece taught it can be
    sent to another process).

    Raises:
        BetzaError: as :func:`read_betza`.
    """
    return partial(betza_move, coloured(read_betza(text)))
