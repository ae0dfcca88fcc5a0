"""Messages a piece actor receives, and its replies: the seed's move message and what grew around it.

How you talk to a piece (it answers about its own square only, from its own move function):
    MoveQuery(start, end, colour)  -> Answer = Yes(origin, target, traversed, target_rule, code) | No(reason)
    CastleQuery(side)              -> Answer  (the king or rook's castling squares, if it never moved)
    TargetsQuery()                 -> Targets (its whole reach from where it stands)
    Learn(geometry)                -> Learned (a new move function; refused if it misbehaves; the
                                              piece itself tells the board its new reach: Declare)
    Moved(to)                      -> Targets (the board moved you: your reach from there)
    Promote(kind, square)          -> Targets (a pawn that reached ``square`` becomes a ``kind``)
    Seat(square, has_moved, code, layout) -> Targets (stand here now as a plain ``code``, in a game
                                              of that castling layout: a pooled system's next game,
                                              a ChessMoveQ case)
    Resync(square, has_moved, code, geometry, promotions) -> Targets (the supervisor healed the
                                              game: be exactly this, as the board and the journal hold it)
    KnightPathQuery(target, size)  -> KnightWalk
    KnightTourQuery(size, closed)  -> KnightWalk
    Captured()                     a tell from the board
A piece's reach is its own word, and it alone keeps the board's record of it current: every change
(a seat, a move, a promotion, a lesson) is answered or told to the board by the piece, never relayed.
A captured piece leaves the board but keeps running (off the board, it answers no to every move), so
that a pooled actor system can seat it again in its next game.
"""

from __future__ import annotations

from dataclasses import dataclass

from actors.kernel.messaging import Request
from actors.protocol.names import Named
from actors.protocol.values import STANDARD_LAYOUT, CastlingLayout, Reach
from board.rules.geometry import Geometry
from board.rules.squares import SQUARE_NAMES


@dataclass(frozen=True, slots=True, repr=False)
class MoveQuery(Request["Answer"], Named):
    """Can you go start -> end? (The seed's ``{move, Start, End, Colour}``.)

    ``start`` is where the asker believes the piece stands and ``colour`` the side it believes it
    plays: a piece elsewhere, or of the other colour, says no rather than answer for another square.
    """

    start: int
    end: int
    colour: int


@dataclass(frozen=True, slots=True, repr=False)
class Yes(Named):
    """The move function says yes: the target, the squares traversed (nearest first), the target rule.

    For castling, ``traversed`` is what the piece crosses, ending where it lands.
    """

    origin: int
    target: int
    traversed: tuple[int, ...]
    target_rule: str = "any"
    code: int = 0
    """What the piece says it is (colour * 8 + kind): the rules that belong to kinds (a king's safety,
    castling's partners, promotion, en passant, a pawn's two-step) are judged on this word, never on
    what a report says stands there."""

    @property
    def traversed_names(self) -> tuple[str, ...]:
        """The traversed squares by name ('d2', ...)."""
        return tuple(SQUARE_NAMES[square] for square in self.traversed)


@dataclass(frozen=True, slots=True, repr=False)
class No(Named):
    """The piece cannot make that move (or will not answer for another square); ``reason`` says why."""

    reason: str


Answer = Yes | No
"""A piece's one answer to a move or castling question."""


@dataclass(frozen=True, slots=True, repr=False)
class CastleQuery(Request["Answer"], Named):
    """Castle to ``side`` ('K' or 'Q'): asked of the king and of that rook, which answer from their
    own square and the game's castling layout (given them when they were created or seated)."""

    side: str


@dataclass(frozen=True, slots=True, repr=False)
class TargetsQuery(Request["Targets"], Named):
    """Every move the piece's geometry allows from where it stands."""


@dataclass(frozen=True, slots=True, repr=False)
class Targets(Named):
    """A piece's reach from ``square``: its own word on where it could go.

    ``fixed``: the move function is a fixed table, so the reach holds until the piece says otherwise;
    when False it means "ask me": the answers may change, and the board asks again whenever it needs
    them. ``label`` names the move function ('knight', 'camel', or a mark of a user's own rule).
    """

    square: int
    reach: Reach
    fixed: bool = True
    label: str = ""
    code: int = 0
    """What the piece says it is (colour * 8 + kind), as in :class:`Yes`."""


@dataclass(frozen=True, slots=True, repr=False)
class Learn(Request["Learned"], Named):
    """Move like this from now on (a standard kind's geometry, a fairy piece's, or a user's function).

    The piece tells the board its new reach itself (Declare), unless the board is who asked (a
    Teach): its answer to the board's own ask is already its word to the board.
    """

    geometry: Geometry


@dataclass(frozen=True, slots=True, repr=False)
class Learned(Named):
    """The answer to Learn: the new reach from ``square``, or why the geometry was refused (unchanged);
    ``fixed`` and ``label`` as in :class:`Targets`."""

    square: int
    reach: Reach
    refused: str | None = None
    fixed: bool = True
    label: str = ""


@dataclass(frozen=True, slots=True, repr=False)
class Promote(Request["Targets"], Named):
    """A pawn reaching ``square`` on the last rank becomes a ``kind`` (keeping its actor and its name)."""

    kind: int
    square: int


@dataclass(frozen=True, slots=True, repr=False)
class Seat(Request["Targets"], Named):
    """Stand on ``square`` now as a plain piece of ``code`` (colour * 8 + kind) with its kind's own move
    function: a pooled piece seated for a new game (a promoted pawn is a pawn again, a taught piece
    forgets its lesson) or for a ChessMoveQ case. ``layout`` is the game's castling layout: where
    its king and rooks castle from and to (standard chess, or a Chess960 start)."""

    square: int
    has_moved: bool
    code: int
    layout: CastlingLayout = STANDARD_LAYOUT


@dataclass(frozen=True, slots=True, repr=False)
class Moved(Request["Targets"], Named):
    """The board moved you to ``to``: stand there, and answer your reach from there (Targets)."""

    to: int


@dataclass(frozen=True, slots=True, repr=False)
class Captured(Named):
    """You were captured: leave the board (a tell)."""


@dataclass(frozen=True, slots=True, repr=False)
class Resync(Request["Targets"], Named):
    """The supervisor healed the game: be what the board and the journal hold of you, all of it in
    one record (an ask: the heal completes only when every piece has answered it, before any later
    move is told to anyone). You stand on ``square``, as a ``code`` (a promotion the journal never
    recorded is undone), moving by ``geometry`` (None: your kind's own; a lesson the journal never
    recorded is forgotten), promoted ``promotions`` times. Seeing it twice changes nothing."""

    square: int
    has_moved: bool
    code: int = 0
    geometry: Geometry | None = None
    promotions: int = 0


@dataclass(frozen=True, slots=True, repr=False)
class KnightPathQuery(Request["KnightWalk"], Named):
    """A shortest knight path from where the knight stands to ``target`` on a ``size`` board."""

    target: tuple[int, int]
    size: tuple[int, int]


@dataclass(frozen=True, slots=True, repr=False)
class KnightTourQuery(Request["KnightWalk"], Named):
    """A knight's tour of a ``size`` board from where the knight stands (``closed``: back to the start)."""

    size: tuple[int, int]
    closed: bool = False


@dataclass(frozen=True, slots=True, repr=False)
class KnightWalk(Named):
    """A knight's answer: the move count and squares by name, or None with ``reason``."""

    moves: int | None
    path: tuple[str, ...] | None
    reason: str = ""


PieceRequest = (
    MoveQuery
    | CastleQuery
    | TargetsQuery
    | Learn
    | Promote
    | Seat
    | Moved
    | Captured
    | Resync
    | KnightPathQuery
    | KnightTourQuery
)
"""Everything a piece answers or takes."""
