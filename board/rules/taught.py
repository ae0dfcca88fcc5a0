"""Legal moves when pieces have learnt other move functions: the direct engine's taught pieces.

A :class:`TaughtBoard` is a position and its lessons (square -> geometry). Each lesson moves with the
piece that learnt it (a capture ends it, a promotion replaces it), as a piece actor keeps its own. Moves
are found from every piece's reach and kept when the mover's king is not attacked afterwards, with the
attacks of taught pieces read from their reach; the rules beyond geometry are the actor referee's: a
pawn (by kind) promotes on its last rank, takes en passant with a capture-only move onto the skipped
square, and opens en passant when it crosses one square straight two ranks ahead; kings and rooks castle
by kind and rights, whatever they learnt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from board.errors import InputError, SquareError
from board.rules.bitboards import (
    BISHOP_EMPTY,
    BIT,
    KNIGHT_ATTACKS,
    ROOK_EMPTY,
    bishop_attacks,
    rook_attacks,
    squares_of,
)
from board.rules.geometry import Geometry, geometry_named, label_of, reach, standard
from board.rules.movegen import attackers
from board.rules.moves import CASTLE, DOUBLE_PUSH, EN_PASSANT, Move
from board.rules.pieces import BISHOP, KIND_NAMES, KING, KNIGHT, LAST_RANK, PAWN, QUEEN, ROOK, WHITE
from board.rules.position import Position
from board.rules.squares import parse_standard_square

ANY, EMPTY, ENEMY = 0, 1, 2
_RULES = {"any": ANY, "empty": EMPTY, "enemy": ENEMY}

Step = tuple[int, int, int]
"""One move a geometry allows from a square: (target, traversed squares as a bitboard, target rule code)."""

_STEPS: dict[tuple[Geometry, int, int], tuple[Step, ...]] = {}
_HITS: dict[tuple[Geometry, int, int], dict[int, int]] = {}


def _compute_steps(geometry: Geometry, colour: int, square: int) -> tuple[Step, ...]:
    found = []
    for target, traversed, rule in reach(geometry, colour, square):
        mask = 0
        for crossed in traversed:
            mask |= BIT[crossed]
        found.append((target, mask, _RULES[rule]))
    return tuple(found)


def steps(geometry: Geometry, colour: int, square: int) -> tuple[Step, ...]:
    """Every move ``geometry`` allows a ``colour`` piece on ``square`` (kept for pure geometries)."""
    if not geometry.pure:
        return _compute_steps(geometry, colour, square)
    key = (geometry, colour, square)
    found = _STEPS.get(key)
    if found is None:
        found = _STEPS[key] = _compute_steps(geometry, colour, square)
    return found


def hits(geometry: Geometry, colour: int, square: int) -> dict[int, int]:
    """The squares a piece could capture on, each with the squares that must be empty on the way."""
    if not geometry.pure:
        return _captures(_compute_steps(geometry, colour, square))
    key = (geometry, colour, square)
    found = _HITS.get(key)
    if found is None:
        found = _HITS[key] = _captures(steps(geometry, colour, square))
    return found


def _captures(found: tuple[Step, ...]) -> dict[int, int]:
    return {target: mask for target, mask, rule in found if rule != EMPTY}


def read_lessons(position: Position, teach: Mapping[str, str | Geometry]) -> dict[int, Geometry]:
    """Lessons by square name read into square -> geometry, each a Betza string (``'NC'``), a name
    (``'camel'``) or a geometry.

    Raises:
        InputError: a square off the board or holding no piece, or a lesson that cannot be read (a
            Betza string's error names the letter and its position); one line naming the square.
    """
    lessons: dict[int, Geometry] = {}
    for name, lesson in teach.items():
        try:
            square = parse_standard_square(name)
        except SquareError as error:
            raise InputError(f"teach {name!r}: {error}") from None
        if not position.squares[square]:
            raise InputError(f"teach {name!r}: {name} holds no piece to teach")
        try:
            lessons[square] = lesson if isinstance(lesson, Geometry) else geometry_named(lesson)
        except InputError as error:
            raise type(error)(f"teach {name}={lesson}: {error}") from None
    return lessons


def _attacked_after(
    position: Position,
    by: int,
    square: int,
    occupied: int,
    skipped: int,
    enemies: list[tuple[int, dict[int, int]]],
    removed: int,
) -> bool:
    """Whether a piece of ``by`` could capture on ``square`` once a move leaves ``occupied``: the
    standard pieces by the bitboards (those on ``skipped`` squares left out: captured, or taught), the
    taught ones (``enemies``: square and what each could capture) by their reach, the captured ones
    (``removed``) left out."""
    if attackers(position, by, square, occupied) & ~skipped:
        return True
    for origin, targets in enemies:
        if BIT[origin] & removed:
            continue
        mask = targets.get(square)
        if mask is not None and not mask & occupied:
            return True
    return False


class TaughtBoard:
    """A position whose pieces may have learnt other move functions, made and unmade move by move.

    ``lessons`` maps a square to the geometry of the piece standing there; a piece not in it moves as its
    kind. The moves are the engine's encoded ints (board.rules.moves), so :class:`Position`'s own make
    and unmake apply them.
    """

    def __init__(self, position: Position, lessons: dict[int, Geometry]) -> None:
        self.position = position
        self.lessons = dict(lessons)
        self._undo: list[list[tuple[int, Geometry | None]]] = []

    def geometry_at(self, square: int) -> Geometry:
        """The move function of the piece on ``square`` (its lesson, or its kind's own)."""
        lesson = self.lessons.get(square)
        return lesson if lesson is not None else standard(self.position.squares[square] & 7)

    # -- attacks -----------------------------------------------------------------------------------

    def attacked(self, by: int, square: int, occupied: int) -> bool:
        """Whether a piece of colour ``by`` could capture on ``square`` with ``occupied`` as the occupancy."""
        taught, enemies = self._taught_by(by)
        return _attacked_after(self.position, by, square, occupied, taught, enemies, 0)

    def _taught_by(self, by: int) -> tuple[int, list[tuple[int, dict[int, int]]]]:
        """Every taught square as a bitboard, and the taught pieces of ``by`` with what each could
        capture (target -> squares that must be empty on the way)."""
        squares = self.position.squares
        taught = 0
        enemies: list[tuple[int, dict[int, int]]] = []
        for square, geometry in self.lessons.items():
            taught |= BIT[square]
            if squares[square] >> 3 == by:
                enemies.append((square, hits(geometry, by, square)))
        return taught, enemies

    def in_check(self) -> bool:
        """Whether the side to move's king is attacked."""
        position = self.position
        us = position.turn
        king = position.kings[us]
        return king >= 0 and self.attacked(us ^ 1, king, position.occupancy[0] | position.occupancy[1])

    # -- moves -------------------------------------------------------------------------------------

    def legal_moves(self) -> list[int]:
        """Every legal move of the side to move, encoded."""
        position = self.position
        squares = position.squares
        us = position.turn
        them = us ^ 1
        occupied = position.occupancy[0] | position.occupancy[1]
        last_rank = LAST_RANK[us]
        double = 16 if us == WHITE else -16
        # The enemy's taught pieces, read once: whether a move leaves the king attacked is asked of the
        # occupancy after it, not by making it (enemy lessons stay where they are during our move).
        taught, enemies = self._taught_by(them)
        king_square = position.kings[us]
        check = king_square >= 0 and _attacked_after(
            position, them, king_square, occupied, taught, enemies, 0
        )
        lessons = self.lessons
        enemy_king = position.kings[them]
        untakable = ~(position.occupancy[us] | (BIT[enemy_king] if enemy_king >= 0 else 0))
        # The squares whose piece may screen the king: its lines, and every square a taught enemy
        # must find empty to reach it (only lifting such a piece can let an attack through).
        screens = 0
        if king_square >= 0:
            screens = ROOK_EMPTY[king_square] | BISHOP_EMPTY[king_square]
            for _, reachable in enemies:
                screens |= reachable.get(king_square, 0)
        legal: list[int] = []
        candidates: list[int] = []  # the moves whose king safety is still to be tested
        for origin in squares_of(position.occupancy[us]):
            kind = squares[origin] & 7
            # Out of check, a piece whose lifting leaves the king unattacked may go anywhere: where it
            # lands only blocks more, and what it takes attacks no more (en passant is tested apart).
            free = king_square < 0 or (
                not check
                and kind != KING
                and (
                    not BIT[origin] & screens
                    or not _attacked_after(
                        position, them, king_square, occupied & ~BIT[origin], taught, enemies, 0
                    )
                )
            )
            found = legal if free else candidates
            lesson = lessons.get(origin)
            if lesson is None and KNIGHT <= kind <= QUEEN:  # an untaught piece: its targets by bitboards
                if kind == KNIGHT:
                    targets = KNIGHT_ATTACKS[origin]
                elif kind == BISHOP:
                    targets = bishop_attacks(origin, occupied)
                elif kind == ROOK:
                    targets = rook_attacks(origin, occupied)
                else:
                    targets = bishop_attacks(origin, occupied) | rook_attacks(origin, occupied)
                targets &= untakable
                while targets:
                    bit = targets & -targets
                    targets ^= bit
                    found.append(origin | (bit.bit_length() - 1) << 6)
                continue
            geometry = lesson if lesson is not None else standard(kind)
            for target, mask, rule in steps(geometry, us, origin):
                if mask & occupied:
                    continue
                victim = squares[target]
                flag = 0
                if victim:
                    if victim >> 3 == us or victim & 7 == KING or rule == EMPTY:
                        continue
                elif rule == ENEMY:
                    if kind != PAWN or target != position.en_passant:
                        continue
                    flag = EN_PASSANT
                if kind == PAWN:
                    if target >> 3 == last_rank:
                        found.extend(origin | target << 6 | promoted << 12 for promoted in (5, 4, 3, 2))
                        continue
                    if target - origin == double and mask == BIT[(origin + target) >> 1]:
                        flag = DOUBLE_PUSH
                if flag == EN_PASSANT:
                    candidates.append(origin | target << 6 | flag << 15)
                else:
                    found.append(origin | target << 6 | flag << 15)
        for move in candidates:
            origin, target = move & 63, move >> 6 & 63
            removed = BIT[target]
            after = (occupied & ~BIT[origin]) | removed
            if move >> 15 == EN_PASSANT:
                victim = target - 8 if us == WHITE else target + 8
                after &= ~BIT[victim]
                removed |= BIT[victim]
            king = target if squares[origin] & 7 == KING else king_square
            if king >= 0 and _attacked_after(position, them, king, after, removed | taught, enemies, removed):
                continue
            legal.append(move)
        if position.castling and not check:
            for castling in position.castling_table.by_colour[us]:
                if position.castling & castling.right and not occupied & castling.between_mask:
                    after = occupied & ~castling.lifted_mask | BIT[castling.rook_to]
                    if not any(self.attacked(them, square, after) for square in castling.king_crossed):
                        legal.append(castling.king_from | castling.king_to << 6 | CASTLE << 15)
        return legal

    def legal_en_passant(self) -> int:
        """The en passant square when a legal en passant capture exists there, else -1."""
        if self.position.en_passant < 0:
            return -1
        if any(move >> 15 == EN_PASSANT for move in self.legal_moves()):
            return self.position.en_passant
        return -1

    # -- make and unmake ---------------------------------------------------------------------------

    def push(self, move: int) -> None:
        """Make an encoded move, carrying each lesson with its piece."""
        lessons = self.lessons
        changed: list[tuple[int, Geometry | None]] = []
        origin, target, promoted, special = move & 63, move >> 6 & 63, move >> 12 & 7, move >> 15
        if special == CASTLE:
            row = self.position.castling_table.by_king_target[target]
            moving = [(row.king_from, row.king_to), (row.rook_from, row.rook_to)]
        else:
            moving = [(origin, target)]
            if special == EN_PASSANT:
                victim = target - 8 if self.position.turn == WHITE else target + 8
                moving.append((victim, -1))
        carried = []
        for start, end in moving:
            changed.append((start, lessons.get(start)))
            if end >= 0:
                changed.append((end, lessons.get(end)))
            carried.append((end, lessons.pop(start, None)))
        for end, _ in carried:
            if end >= 0:
                lessons.pop(end, None)
        for end, lesson in carried:
            if end >= 0 and lesson is not None and not promoted:
                lessons[end] = lesson
        self._undo.append(changed)
        self.position.push(move)

    def pop(self) -> int:
        """Take back the last move made with :meth:`push`; return it."""
        lessons = self.lessons
        for square, lesson in reversed(self._undo.pop()):
            if lesson is None:
                lessons.pop(square, None)
            else:
                lessons[square] = lesson
        return self.position.pop()

    # -- what the rules beyond the moves read ------------------------------------------------------

    def lesson_labels(self) -> tuple[tuple[int, str], ...]:
        """(square, label) of every taught piece, a1 first: what repetition compares beside the placement."""
        return tuple(sorted((square, label_of(geometry)) for square, geometry in self.lessons.items()))

    def repetition_key(self) -> tuple[object, ...]:
        """The placement, turn, rights, legal en passant square and every lesson."""
        position = self.position
        return (
            bytes(position.squares), position.turn, position.castling, self.legal_en_passant(),
            self.lesson_labels(),
        )

    def material(self) -> Iterator[tuple[int, int]]:
        """Each piece as (square, code) of the material its move function makes it: a piece taught a
        standard bishop's or knight's moves counts as one, any other lesson as a queen (it may mate); a
        pawn stays a pawn, and a king the king, with a queen beside it when it was taught other moves."""
        position = self.position
        squares = position.squares
        minor = {KIND_NAMES[BISHOP]: BISHOP, KIND_NAMES[KNIGHT]: KNIGHT}
        for square in squares_of(position.occupancy[0] | position.occupancy[1]):
            code = squares[square]
            lesson = self.lessons.get(square)
            if lesson is None or code & 7 == PAWN:
                yield square, code
            elif code & 7 == KING:  # still the king; one taught other moves may also mate, as a queen
                yield square, code
                if label_of(lesson) != KIND_NAMES[KING]:
                    yield square, (code & 8) | QUEEN
            else:
                yield square, (code & 8) | minor.get(label_of(lesson), QUEEN)


def perft(board: TaughtBoard, depth: int, checkpoint: Callable[[], object] | None = None) -> int:
    """The leaf count of the legal move tree ``depth`` plies deep, taught pieces moving by their lessons.
    ``checkpoint``, when given, is called before each position one ply from the leaves (the command
    line answers signals there, compiled code never handing back to Python otherwise)."""
    if depth <= 0:
        return 1
    if checkpoint is not None and depth <= 2:
        checkpoint()
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    nodes = 0
    for move in moves:
        board.push(move)
        nodes += perft(board, depth - 1, checkpoint)
        board.pop()
    return nodes


def divided(board: TaughtBoard, depth: int,
            checkpoint: Callable[[], object] | None = None) -> Iterable[tuple[Move, int]]:
    """Each legal first move with the leaf count below it (a Chess960 castling shown as the king
    taking its own rook). ``checkpoint`` as for :func:`perft`."""
    table = board.position.castling_table
    for move in board.legal_moves():
        board.push(move)
        try:
            count = perft(board, depth - 1, checkpoint)
        finally:
            board.pop()
        yield Move(move & 63, table.uci_target(move), move >> 12 & 7), count
