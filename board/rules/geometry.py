"""A piece's move geometry: where a piece could go and which squares it crosses, for every kind of piece
a game may hold.

``move_function(kind, colour, start, end)`` answers a :class:`Path` (target, traversed squares
ordered from the start outward, and whether the target must be empty or hold an enemy) or ``None``
for a move the piece's geometry cannot make. Pure arithmetic on 1-based (file, rank) pairs with no
board edges, as in the Erlang design; it never raises for a non-geometric move.

A :class:`Geometry` is such a rule with a name, which a piece can learn: a standard kind's, a named
fairy piece's (leaps, rides and combinations of them), one written in Betza notation, or a user's own
function (its answers checked); :func:`reach` is every move it allows a piece on a square.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Final, Literal

from mypy_extensions import mypyc_attr

from board.errors import BetzaError, InputError, SquareError
from board.rules.pieces import BISHOP, KIND_NAMES, KINDS, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE
from board.rules.squares import STANDARD, Coord, coord_of, index_of, parse_square, square_name

__all__ = [
    "DIRECTION_LETTERS",
    "LAME_LETTER",
    "LEAPS",
    "MOVE_LETTERS",
    "NAMED",
    "RIDERS",
    "Entry",
    "Geometry",
    "MoveRule",
    "Path",
    "Reach",
    "Shift",
    "Table",
    "TargetRule",
    "UserAnswer",
    "betza",
    "betza_move",
    "betza_moves",
    "bishop_move",
    "coloured",
    "combine",
    "forward",
    "function_label",
    "geometry_named",
    "jumping",
    "king_move",
    "knight_move",
    "label_of",
    "leaper",
    "move_function",
    "pawn_capture",
    "pawn_move",
    "pawn_push",
    "queen_move",
    "reach",
    "reach_of",
    "read_betza",
    "rider",
    "rook_move",
    "standard",
    "user_geometry",
]


# -- a move function's answer


TargetRule = Literal["any", "empty", "enemy"]
"""What the target square must hold: ``any`` (empty or an enemy), ``empty`` (pawn pushes),
``enemy`` (pawn captures; en passant is the referee's business)."""


@mypyc_attr(native_class=False)  # a plain Python class in the compiled build (see setup.py)
@dataclass(frozen=True, slots=True)
class Path:
    """A geometric yes: the target and the squares strictly between, nearest the mover first."""

    target: Coord
    traversed: tuple[Coord, ...]
    target_rule: TargetRule = "any"


# -- the standard kinds' move functions


def _ray(start: Coord, end: Coord, diagonal: bool, straight: bool) -> Path | None:
    file_step, rank_step = end[0] - start[0], end[1] - start[1]
    distance = max(abs(file_step), abs(rank_step))
    if distance == 0:
        return None
    is_straight = file_step == 0 or rank_step == 0
    is_diagonal = abs(file_step) == abs(rank_step)
    if not ((straight and is_straight) or (diagonal and is_diagonal)):
        return None
    df, dr = file_step // distance, rank_step // distance
    traversed = tuple((start[0] + df * step, start[1] + dr * step) for step in range(1, distance))
    return Path(end, traversed)


def rook_move(start: Coord, end: Coord) -> Path | None:
    """Along a file or a rank, any distance."""
    return _ray(start, end, diagonal=False, straight=True)


def bishop_move(start: Coord, end: Coord) -> Path | None:
    """Along a diagonal, any distance."""
    return _ray(start, end, diagonal=True, straight=False)


def queen_move(start: Coord, end: Coord) -> Path | None:
    """Along a file, rank or diagonal, any distance."""
    return _ray(start, end, diagonal=True, straight=True)


def king_move(start: Coord, end: Coord) -> Path | None:
    """One square in any direction (castling is the referee's rule, not the king's geometry)."""
    if start != end and abs(end[0] - start[0]) <= 1 and abs(end[1] - start[1]) <= 1:
        return Path(end, ())
    return None


def knight_move(start: Coord, end: Coord) -> Path | None:
    """Two squares one way and one the other; a knight traverses nothing."""
    if {abs(end[0] - start[0]), abs(end[1] - start[1])} == {1, 2}:
        return Path(end, ())
    return None


def forward(colour: int) -> int:
    """The rank direction a pawn of ``colour`` moves in."""
    return 1 if colour == WHITE else -1


def pawn_push(colour: int, start: Coord, end: Coord) -> Path | None:
    """One square forward onto an empty square, or two from the pawn's home rank (2 or 7)."""
    step = forward(colour)
    if end[0] != start[0]:
        return None
    if end[1] - start[1] == step:
        return Path(end, (), "empty")
    home_rank = 2 if colour == WHITE else 7
    if start[1] == home_rank and end[1] - start[1] == 2 * step:
        return Path(end, ((start[0], start[1] + step),), "empty")
    return None


def pawn_capture(colour: int, start: Coord, end: Coord) -> Path | None:
    """One square diagonally forward, onto an enemy piece (or the en passant square)."""
    if abs(end[0] - start[0]) == 1 and end[1] - start[1] == forward(colour):
        return Path(end, (), "enemy")
    return None


def pawn_move(colour: int, start: Coord, end: Coord) -> Path | None:
    """A pawn's whole geometry: its push if that fits, else its capture."""
    return pawn_push(colour, start, end) or pawn_capture(colour, start, end)


_SLIDERS: Final = {ROOK: rook_move, BISHOP: bishop_move, QUEEN: queen_move}
_STEPPERS: Final = {KING: king_move, KNIGHT: knight_move}


def move_function(kind: int, colour: int, start: Coord, end: Coord) -> Path | None:
    """The geometry of ``kind`` (a board.rules.pieces kind) moving start -> end; ``None`` means no."""
    if kind == PAWN:
        return pawn_move(colour, start, end)
    mover = _SLIDERS.get(kind) or _STEPPERS.get(kind)
    if mover is None:
        return None
    return mover(start, end)


def reach_of(
    moves: Callable[[int, Coord, Coord], Path | None], colour: int, square: int
) -> tuple[tuple[int, tuple[int, ...], TargetRule], ...]:
    """Every move the rule ``moves`` allows a ``colour`` piece on ``square`` (0..63) of the 8x8 board:
    (target, traversed squares nearest first, target rule), ascending by target."""
    start = coord_of(square)
    found = []
    for target in range(64):
        if target == square:
            continue
        path = moves(colour, start, coord_of(target))
        if path is not None:
            found.append((target, tuple([index_of(coord) for coord in path.traversed]), path.target_rule))
    return tuple(found)


# -- Betza notation read into a move function: the way variant designers write a piece ('NC', 'mBcF', 'nN')
#
# A Betza string is a run of groups, each ``modifiers atom [range]``: the atoms are leaps, the modifiers
# choose among an atom's directions (relative to the piece's colour: forward is up the board for white,
# down for black) and whether it moves, captures or both, and a doubled atom or a digit makes it ride.
# The reader turns the string into a table of shifts, so the move function is one look-up a square pair.

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


def _betza_directions(leg: tuple[int, int], specs: list[str]) -> list[Shift]:
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
                for vector in _betza_directions(leg, specs):
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


# -- geometries a piece can learn: the standard kinds, named fairy pieces, and a user's own

MoveRule = Callable[[int, Coord, Coord], Path | None]
"""``(colour, start, end) -> Path | None`` on 1-based (file, rank) pairs."""

Reach = tuple[tuple[int, tuple[int, ...], TargetRule], ...]
"""Every (target, traversed squares, target rule) a geometry allows from one square, as 0..63 indexes."""


@mypyc_attr(native_class=False)  # crosses processes in Learn, Teach and the journal: it must pickle
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
    """The geometry of a standard piece kind (board.rules.pieces), exactly :func:`move_function`.

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
    return Geometry(name, partial(_leap, _directions(step)), pure=True)


def _leap(directions: frozenset[tuple[int, int]], colour: int, start: Coord, end: Coord) -> Path | None:
    if (end[0] - start[0], end[1] - start[1]) in directions:
        return Path(end, ())
    return None


def rider(name: str, step: tuple[int, int]) -> Geometry:
    """A piece that repeats ``step`` in one direction any number of times, crossing each stop on the way.

    Args:
        name: the piece's name.
        step: (files, ranks) of one stop, e.g. (1, 2) for the nightrider.

    Returns:
        A pure geometry.
    """
    return Geometry(name, partial(_ride, _directions(step)), pure=True)


def _ride(directions: frozenset[tuple[int, int]], colour: int, start: Coord, end: Coord) -> Path | None:
    file_shift, rank_shift = end[0] - start[0], end[1] - start[1]
    for df, dr in directions:
        # The number of steps, read from whichever coordinate the step moves.
        count = file_shift // df if df else rank_shift // dr
        if count >= 1 and (df * count, dr * count) == (file_shift, rank_shift):
            stops = tuple((start[0] + df * k, start[1] + dr * k) for k in range(1, count))
            return Path(end, stops)
    return None


def jumping(name: str, base: Geometry) -> Geometry:
    """``base``'s targets, reached by a jump: the same moves, traversing nothing."""
    return Geometry(name, partial(_jump, base), base.pure)


def _jump(base: Geometry, colour: int, start: Coord, end: Coord) -> Path | None:
    path = base.moves(colour, start, end)
    return None if path is None else Path(path.target, (), path.target_rule)


def combine(name: str, *parts: Geometry) -> Geometry:
    """A piece that moves as any of ``parts``; the first part that says yes gives the path.

    Args:
        name: the new piece's name.
        parts: the geometries it moves as, asked in order.

    Returns:
        The combined geometry (pure when every part is).
    """
    return Geometry(name, partial(_any_of, parts), all(part.pure for part in parts))


def _any_of(parts: tuple[Geometry, ...], colour: int, start: Coord, end: Coord) -> Path | None:
    for part in parts:
        path = part.moves(colour, start, end)
        if path is not None:
            return path
    return None


# -- pieces written in Betza notation --------------------------------------------------------------


@lru_cache(maxsize=1024)
def _betza(text: str) -> Geometry:
    return Geometry(text, betza_moves(text), pure=True, betza=text, label=text)


def betza(text: str) -> Geometry:
    """The piece written ``text`` in Betza notation (see :func:`read_betza`), named by that string.

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


def _checked_answer(
    function: Callable[[Coord, Coord], object], shown: str, colour: int, start: Coord, end: Coord
) -> Path | None:
    """``function``'s answer for ``start`` -> ``end``, checked (see :func:`user_geometry`)."""
    asked = f"{shown} asked {_shown(start)} -> {_shown(end)}"
    try:
        answer = function(start, end)
    except Exception as error:
        raise InputError(f"{asked} raised {type(error).__name__}: {error}") from error
    try:
        return _validated(answer, start, end)
    except _Malformed as error:
        raise InputError(f"{asked}: {error}") from None


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
    # A partial of a module-level function, not a closure: a geometry taught to a piece on another
    # node is pickled, and a compiled closure cannot be.
    moves = partial(_checked_answer, function, shown)
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
