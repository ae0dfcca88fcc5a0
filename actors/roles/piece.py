"""The piece actor: one per piece, owning its move function and its square, as in the Erlang seed.

It answers from its geometry and its own square alone: asked about a move from another square, or
for another colour, it says no. It can learn a new move function while the game runs.

How you talk to me: see :mod:`actors.protocol.piece`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, assert_never

from actors.kernel.actor import TracedActor
from actors.kernel.messaging import DEFAULT_TIMEOUT, Directory
from actors.protocol.board import Declare
from actors.protocol.journal import RecordTeaching, Teaching
from actors.protocol.piece import (
    Answer,
    Captured,
    CastleQuery,
    KnightPathQuery,
    KnightTourQuery,
    KnightWalk,
    Learn,
    Learned,
    Moved,
    MoveQuery,
    No,
    PieceRequest,
    Promote,
    Resync,
    Seat,
    Targets,
    TargetsQuery,
    Yes,
)
from actors.protocol.values import STANDARD_LAYOUT, CastlingLayout, PathEntry, Reach
from actors.roles.registered import BOARD, JOURNAL
from board.errors import ChessActorsError
from board.rules.geometry import Geometry, label_of, reach, standard
from board.rules.pieces import COLOUR_NAMES, KIND_NAMES, KING, KNIGHT, PAWN, ROOK
from board.rules.squares import SQUARE_NAMES, coord_of

if TYPE_CHECKING:
    from actors.tracing.recorder import TraceRecorder


@lru_cache(maxsize=4096)
def _indexed(geometry: Geometry, colour: int, square: int) -> dict[int, PathEntry]:
    return {entry[0]: entry for entry in reach(geometry, colour, square)}


def reach_index(geometry: Geometry, colour: int, square: int) -> dict[int, PathEntry]:
    """A piece's reach from ``square`` by target (cached for geometries that always answer alike)."""
    if geometry.pure:
        return _indexed(geometry, colour, square)
    return {entry[0]: entry for entry in reach(geometry, colour, square)}


OFF_BOARD = -1
"""The square of a captured piece: it stands nowhere, and every move from its square is a no."""



class PieceActor(TracedActor[PieceRequest]):
    """One chess piece. ``name`` is stable (colour-kind-birth square); the square and kind may change.

    Args:
        geometry: the move function it starts with (default: its kind's).
        layout: the game's castling layout, where a king or rook castles from and to (a Seat
            brings the next game's).
    """

    def __init__(
        self,
        name: str,
        code: int,
        square: int,
        has_moved: bool,
        directory: Directory,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        geometry: Geometry | None = None,
        layout: CastlingLayout = STANDARD_LAYOUT,
    ) -> None:
        super().__init__(name, directory, recorder, timeout)
        self.layout = layout
        self.code = code
        self.kind = code & 7
        self.colour = code >> 3
        self.square = square
        self.has_moved = has_moved
        self.geometry = geometry or standard(self.kind)
        self.label = label_of(self.geometry)
        """How I name my move function to others (kept with it: asked on every move)."""
        parts = name.split("-")
        self.promotions = int(len(parts) == 3 and parts[1] == KIND_NAMES[PAWN] and self.kind != PAWN)
        """How many times it was promoted (a pawn's birth name with another kind: once)."""

    def handle(self, message: PieceRequest) -> object:
        """What I do on each message."""
        match message:  # the most frequent first: a question, a move made, a new game's seat
            case MoveQuery():
                return self._move(message)
            case Moved(to=to):
                self.square, self.has_moved = to, True
                return self.targets()
            case Seat(square=square, has_moved=has_moved, code=code, layout=layout):
                self._become(code)
                self.square, self.has_moved, self.layout = square, has_moved, layout
                return self.targets()
            case Captured():
                # Off the board, but still running: a pooled system seats captured pieces again.
                self.square = OFF_BOARD
                return None
            case CastleQuery(side=side):
                return self._castle(side)
            case TargetsQuery():
                return self.targets()
            case Learn(geometry=geometry):
                return self._learn(geometry)
            case Promote(kind=kind, square=square):
                self._become((self.code & 8) | kind)
                self.square, self.has_moved = square, True
                self.promotions += 1
                self.tell(JOURNAL, RecordTeaching(Teaching(self.name, self.geometry, self.promotions)))
                return self.targets()
            case Resync():
                return self._resync(message)
            case KnightPathQuery() | KnightTourQuery():
                return self._knight_walk(message)
            case _:
                assert_never(message)

    def _resync(self, record: Resync) -> Targets:
        """Be what the heal's record says, whole: its kind with its own moves, then its lesson."""
        self._become(record.code or self.code)
        if record.geometry is not None:
            self.geometry, self.label = record.geometry, label_of(record.geometry)
        self.square, self.has_moved, self.promotions = record.square, record.has_moved, record.promotions
        return self.targets()

    def _become(self, code: int) -> None:
        """Be a plain piece of ``code`` with its kind's own move function."""
        self.code, self.kind, self.colour = code, code & 7, code >> 3
        self.geometry = standard(self.kind)
        self.label = label_of(self.geometry)
        self.promotions = 0 if self.kind == PAWN else self.promotions

    def targets(self) -> Targets:
        """My reach from where I stand, with whether it holds ("ask me" if not) and my rule's label.

        A learnt function that misbehaves from here (it raises, or answers nonsense) gives me no
        move from here, as it answers no to every move query: the game goes on, and I am asked
        again before every report, from wherever I stand then."""
        try:
            return Targets(self.square, self.reach(), self.geometry.pure, self.label, self.code)
        except ChessActorsError:
            return Targets(self.square, (), False, self.label, self.code)

    def reach(self, square: int | None = None) -> Reach:
        """Every move my geometry allows from ``square`` (default: where I stand; none off the board)."""
        origin = self.square if square is None else square
        if origin == OFF_BOARD:
            return ()
        return reach(self.geometry, self.colour, origin)

    def _move(self, message: MoveQuery) -> Answer:
        if message.start != self.square:
            return No(f"the {self.describe()} does not stand on {SQUARE_NAMES[message.start]}")
        if message.colour != self.colour:
            return No(f"the {self.describe()} is not {COLOUR_NAMES[message.colour]}")
        try:
            entry = reach_index(self.geometry, self.colour, self.square).get(message.end)
        except ChessActorsError as error:  # a learnt function that misbehaves here: a no, not a crash
            return No(str(error))
        if entry is None:
            return No(
                f"a {self._moving_as()} cannot move from {SQUARE_NAMES[self.square]} "
                f"to {SQUARE_NAMES[message.end]}"
            )
        target, traversed, rule = entry
        return Yes(self.square, target, traversed, rule, self.code)

    def _castle(self, side: str) -> Answer:
        if self.kind not in (KING, ROOK):
            return No(f"a {KIND_NAMES[self.kind]} does not castle")
        if self.has_moved:
            return No(f"the {self.describe()} has moved")
        right = self.layout.table.row(self.colour, side)
        if right is None:
            return No(f"this game has no {'kingside' if side == 'K' else 'queenside'} castling for "
                      f"{COLOUR_NAMES[self.colour]}")
        home, landing, crossed = (
            (right.king_from, right.king_to, right.king_crossed)
            if self.kind == KING
            else (right.rook_from, right.rook_to, right.rook_crossed)
        )
        if self.square != home:
            return No(f"the {self.describe()} is not on {SQUARE_NAMES[home]}, where it would castle from")
        return Yes(self.square, landing, crossed, "empty", self.code)

    def _learn(self, geometry: Geometry) -> Learned:
        """Take ``geometry`` if it answers sensibly from where I stand; keep the old one if not.

        On the board, I tell the board my new reach myself, before I answer: whoever taught me
        hears back only after the board has my word in its mailbox. When the board itself asked
        (a Teach), my answer is that word: nobody can teach me without the board hearing it.
        """
        try:
            taught = reach(geometry, self.colour, self.square) if self.square != OFF_BOARD else ()
        except ChessActorsError as error:
            return Learned(self.square, (), str(error))
        self.geometry = geometry
        self.label = label = label_of(geometry)
        self.tell(JOURNAL, RecordTeaching(Teaching(self.name, geometry, self.promotions)))
        if self.sender != BOARD and self.square != OFF_BOARD:
            self.tell(BOARD, Declare(self.name, self.square, taught, geometry.pure, label))
        return Learned(self.square, taught, None, geometry.pure, label)

    def _moving_as(self) -> str:
        kind = KIND_NAMES[self.kind]
        return kind if self.geometry.name == kind else f"{kind} moving as {self.geometry.name}"

    def _knight_walk(self, message: KnightPathQuery | KnightTourQuery) -> KnightWalk:
        """The knight puzzles, answered from where this knight stands (board.puzzles.knights does the
        work)."""
        if self.kind != KNIGHT:
            return KnightWalk(None, None, f"a {KIND_NAMES[self.kind]} answers no knight puzzles")
        if self.square == OFF_BOARD:
            return KnightWalk(None, None, f"the {self.describe()} stands on no square")
        from board.puzzles.knights import index_names, knight_tour, shortest_path
        from board.rules.squares import square_name

        start = coord_of(self.square)
        try:
            if isinstance(message, KnightPathQuery):
                walk = shortest_path(start, message.target, message.size)
            else:
                walk = knight_tour(message.size, start, closed=message.closed)
        except ChessActorsError as error:
            return KnightWalk(None, None, str(error))
        if walk is None:
            target = square_name(message.target) if isinstance(message, KnightPathQuery) else ""
            return KnightWalk(None, None, f"{target} is unreachable from here")
        width = message.size[0]
        names = index_names(((rank - 1) * width + file - 1 for file, rank in walk), *message.size)
        return KnightWalk(len(walk) - 1, tuple(names))

    def describe(self) -> str:
        """'white king on e1' ('white knight, captured' off the board)."""
        piece = f"{COLOUR_NAMES[self.colour]} {KIND_NAMES[self.kind]}"
        return f"{piece}, captured" if self.square == OFF_BOARD else f"{piece} on {SQUARE_NAMES[self.square]}"
