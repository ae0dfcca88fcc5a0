"""Messages the board actor receives, and its replies: facts about who stands where, never a verdict.

How you talk to the board (the referee asks; the supervisor asks for the roster):
    Survey(colour, kind, target, en_passant, check, file) -> SurveyReport  (every piece of that kind,
                                                or those on one file: its declared path to the
                                                target, blockers, target, exposers)
    ProbeSurvey(colour, probes)              -> ProbeReports  (the same for moves given in full)
    CastleSurvey(colour, king, between, crossed) -> CastleReport
    Apply(move, en_passant)                  -> Applied | ApplyRefused (move the pieces, which answer
                                                their new reach; assess the other side)
    Gather(colour, en_passant)               -> Gathered      (ask every piece its reach, unless a Place
                                                just did; the roster and the assessment of ``colour``)
    Declare(name, square, reach, fixed, label) tell, from the piece itself: its new reach (it learnt)
    Teach(name, geometry)                    -> Learned       (ask that piece to Learn; its answer is its
                                                word to the board, taken before anything after it)
    RosterQuery()                            -> Roster
    Describe(state)                          -> Description
    Place(entries, layout, keep)             -> Roster        (clear, seat these pieces: a ChessMoveQ
                                                case, or a pooled system's next game; with keep, a piece
                                                already seated so keeps its own last declaration)
    Lie(ghosts, hidden)                      -> Armed         (report these false facts until told the
                                                truth with an empty Lie)
The board asks pieces only for their reach (Gather, Place, a move, a promotion, and a piece that said
"ask me" whenever its reach matters) and tells them Captured; pieces never ask anyone, so no two actors
ever wait on each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from actors.kernel.control import Armed
from actors.kernel.messaging import Request
from actors.protocol.names import Named
from actors.protocol.piece import Learned
from actors.protocol.referee import Description
from actors.protocol.values import (
    STANDARD_LAYOUT,
    Assessment,
    CastleReport,
    CastlingLayout,
    GameState,
    JournalMove,
    PieceReport,
    Probe,
    ProbeReport,
    Reach,
    RosterEntry,
)
from board.rules.geometry import Geometry


@dataclass(frozen=True, slots=True, repr=False)
class Survey(Request["SurveyReport"], Named):
    """Tell me about every piece of ``colour`` and ``kind``, for a move to ``target``.

    ``en_passant`` is the square a pawn skipped last ply (-1 for none), so a pawn's diagonal step onto
    it is reported as en passant. ``check``: also report who reaches ``colour``'s king now. ``file``:
    only the pieces on that file (0-7: a pawn's move names its file), or -1 for every one.
    """

    colour: int
    kind: int
    target: int
    en_passant: int = -1
    check: bool = False
    file: int = -1


@dataclass(frozen=True, slots=True, repr=False)
class SurveyReport(Named):
    """One report per piece of the kind surveyed (ascending squares), and the king's checkers if asked."""

    pieces: tuple[PieceReport, ...]
    check: tuple[tuple[int, int], ...] = ()
    king_square: int = -1


@dataclass(frozen=True, slots=True, repr=False)
class ProbeSurvey(Request["ProbeReports"], Named):
    """Report blockers, target and exposers for each probe of ``colour`` (moves given in full)."""

    colour: int
    probes: tuple[Probe, ...]


@dataclass(frozen=True, slots=True, repr=False)
class ProbeReports(Named):
    """One report per probe, in order."""

    reports: tuple[ProbeReport, ...]


@dataclass(frozen=True, slots=True, repr=False)
class CastleSurvey(Request[CastleReport], Named):
    """Castling's questions: what stands on the king's and the rook's squares, anything between them,
    who reaches the king now, and who would reach each square the king crosses and lands on once the
    king has gone to ``king_to`` and the rook to ``rook_to`` (the position the castling makes)."""

    colour: int
    king_square: int
    rook_square: int
    king_to: int
    rook_to: int
    between: tuple[int, ...]
    crossed: tuple[int, ...]


@dataclass(frozen=True, slots=True, repr=False)
class Apply(Request["Applied | ApplyRefused"], Named):
    """Make this move; the mover (and a castling rook) answer their reach from where they land.

    The board then assesses the side to move next, with ``en_passant`` the square the move skipped.
    """

    move: JournalMove
    en_passant: int = -1


@dataclass(frozen=True, slots=True, repr=False)
class ApplyRefused(Named):
    """The board will not make the move: it would capture a king (which no verdict can allow)."""

    reason: str


Change = tuple[int, int, str]
"""A square that changed: (square, the code now there, the actor name now there; '' for none)."""


@dataclass(frozen=True, slots=True, repr=False)
class Applied(Named):
    """The move is made: the squares that changed, the captured piece's name, the next side's assessment."""

    changes: tuple[Change, ...]
    captured: str | None
    assessment: Assessment


@dataclass(frozen=True, slots=True, repr=False)
class Gather(Request["Gathered"], Named):
    """Ask every piece on the board for its reach (unless a Place just had each declare it), then
    answer the roster and ``colour``'s assessment."""

    colour: int
    en_passant: int = -1


@dataclass(frozen=True, slots=True, repr=False)
class Gathered(Named):
    """The roster after gathering, the side's assessment, and how many moves the board has made."""

    entries: tuple[RosterEntry, ...]
    assessment: Assessment
    plies: int


@dataclass(frozen=True, slots=True, repr=False)
class Declare(Named):
    """Told by the piece called ``name`` itself: from ``square`` it now reaches this far (it learnt a
    new move function). ``fixed`` and ``label`` as in the piece's Targets."""

    name: str
    square: int
    reach: Reach
    fixed: bool = True
    label: str = ""


@dataclass(frozen=True, slots=True, repr=False)
class Teach(Request[Learned], Named):
    """Have the piece called ``name`` learn ``geometry``: the board asks it, takes its answer as the
    piece's declaration, and answers with it (the piece's Learned). A lesson taught so is in the
    board's record before any message that comes after it, whatever order deliveries take."""

    name: str
    geometry: Geometry


@dataclass(frozen=True, slots=True, repr=False)
class Declared(Named):
    """The board took the declaration; ``square`` is where that piece stands (-1: not on the board)."""

    square: int


@dataclass(frozen=True, slots=True, repr=False)
class RosterQuery(Request["Roster"], Named):
    """Every piece on the board."""


@dataclass(frozen=True, slots=True, repr=False)
class Roster(Named):
    """Every piece with its square, code, actor name and moved flag; moves made; the placement, as
    reported; ``ghosts``: the squares where a ghost is reported (no actor answers for what stands
    there: a piece held under a ghost is hidden by it)."""

    entries: tuple[RosterEntry, ...]
    plies: int
    placement: bytes
    ghosts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, repr=False)
class Describe(Request[Description], Named):
    """The FEN of the board's placement with the referee's game state (whose layout says how the
    castling field is written: standard, X-FEN or Shredder-FEN)."""

    state: GameState


@dataclass(frozen=True, slots=True, repr=False)
class Place(Request["Roster"], Named):
    """Clear the board and seat these pieces (a ChessMoveQ case, or a pooled system's next game); each
    is asked to stand there as a plain piece of its code, in a game of that castling ``layout``, and
    declares its reach.

    With ``keep``, a piece whose own last declaration to the board was made seated exactly as its
    entry asks (same square, code and moved flag, in the same layout), by the actor now registered
    under its name, with a reach it called fixed and has not changed since (it would have declared
    the change itself), is not asked again: its declaration still stands. Every other piece is
    seated and asked.
    """

    entries: tuple[RosterEntry, ...]
    layout: CastlingLayout = STANDARD_LAYOUT
    keep: bool = False


@dataclass(frozen=True, slots=True, repr=False)
class Lie(Request[Armed], Named):
    """The board reports pieces that are not there (``ghosts``: square -> code) and hides some that are
    (``hidden``) until an empty Lie. Only the reports change: moves are made on the true board."""

    ghosts: tuple[tuple[int, int], ...] = ()
    hidden: tuple[int, ...] = ()


BoardRequest = (
    Survey | ProbeSurvey | CastleSurvey | Apply | Gather | Declare | Teach | RosterQuery | Describe | Place
    | Lie
)
"""Everything the board answers."""
