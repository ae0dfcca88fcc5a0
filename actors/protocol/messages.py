"""Every message the actors exchange, and every reply: the whole protocol at a glance.

Squares are 0..63 (a1 = 0), piece codes ``colour * 8 + kind`` (board.pieces). Each message names its
``sender`` and carries ``corr``, the ply (or proposal) it serves, so that traces can be stitched.

client -> referee (asks; a replay keeps up to 16 tagged proposals in flight)
    Propose            -> Accepted | Rejected
    FenQuery           -> Description
    LegalTargetsQuery  -> LegalTargets
    Begin              -> Ready             (the supervisor, after (re)starting the referee)
  position-only mode (ChessMoveQ: no turn, castling or en passant; a side may have no king)
    Setup              -> Ready             (seat these piece actors; the referee re-reads the roster)
    CheckMove          -> MoveCheck         (can any piece of this colour and kind go there?)
referee -> piece (asks, several at once)
    MoveQuery          -> Yes | No          (the piece's move function: traversed squares)
    CastleQuery        -> Yes | No          (only a king or rook that has never moved says yes)
    TargetsQuery       -> Targets           (every geometric move from a square)
referee -> board (asks)
    Survey             -> SurveyReport      (blockers, target, who might reach our king)
    Assess             -> Assessment        (check candidates, en passant, a proof of mobility)
    Apply              -> Applied           (the board moves pieces and tells them)
    Apply(probe, expect) -> Applied | SurveyReport  (conditional: moves only if the probe's facts are
                                            as the referee expects: clear, target as given, no candidates)
    RosterQuery        -> Roster
    Describe           -> Description       (the FEN, from the referee's game state)
    Setup              -> Roster            (position-only mode: clear the board, seat these pieces)
board -> piece (tells)
    Moved, Captured; the supervisor tells Resync after healing
    (not on Setup: in position-only mode a piece actor stands for its colour and kind wherever it
    is seated, and every question names the square it asks about)
client -> a knight (asks; any other piece answers No)
    KnightPathQuery    -> KnightWalk        (a shortest path from its square, on any board size)
    KnightTourQuery    -> KnightWalk        (a knight's tour from its square)
anyone -> any actor
    Crash (raise now), CrashOnNext (raise on the next message of a kind) -> Armed
    HangOnNext (stall past the asker's timeout on the next message of a kind) -> Armed
supervisor -> any actor
    Ping               -> Pong              (liveness: answered at once, asking nobody)

A proposal's rounds: MoveQuery to the candidate pieces (those whose remembered targets include the
square; if none does, the move is refused unasked); then, when exactly one says yes and the move is
legal by board.judge.decide on the facts the referee expects (a clear path, the target as its
roster has it, no enemy piece that might reach the king), one conditional Apply: the board surveys
and moves in the same handling, or answers the SurveyReport and moves nothing. Otherwise (several
yeses, or the board's facts differ): Survey (unless the conditional Apply already reported),
MoveQuery to the candidates it names, then a plain Apply.
"""

from __future__ import annotations

from dataclasses import dataclass

from board.judge import Sighting
from board.squares import SQUARE_NAMES

PathEntry = tuple[int, tuple[int, ...], str]
"""One geometric move from a square: (target, traversed squares nearest first, target rule)."""


# --- values carried inside messages ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Probe:
    """A move the board is asked about: the piece on ``origin`` going to ``target``."""

    origin: int
    target: int
    traversed: tuple[int, ...] = ()
    en_passant: bool = False
    target_rule: str = "any"


@dataclass(frozen=True, slots=True)
class ProbeReport:
    """What the board sees for a probe.

    ``blocker``: the first occupied traversed square; ``target_code``: what stands on the target;
    ``candidates``: the enemy pieces that might reach the mover's king once the move is made
    (surveyed only when the path is clear and the target is not the mover's own piece).
    """

    blocker: Sighting | None
    target_code: int
    candidates: tuple[Sighting, ...]
    king_square: int


@dataclass(frozen=True, slots=True)
class CastleSurvey:
    """Castling's questions: the squares between king and rook, the squares the king crosses."""

    king_square: int
    between: tuple[int, ...]
    crossed: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CastleReport:
    """Castling's facts from the board: a blocker, who might reach the king and each crossed square."""

    blocker: Sighting | None
    king_candidates: tuple[Sighting, ...]
    crossed_candidates: tuple[tuple[int, tuple[Sighting, ...]], ...]


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """One piece on the board: where it stands, what it is, its actor's name, whether it has moved."""

    square: int
    code: int
    name: str
    has_moved: bool


# --- client -> referee ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Propose:
    """Play a move: SAN or UCI ``text``, or ``origin``/``target`` squares (then ``promotion``).

    ``ply`` (1-based), when not 0, is the ply the move is meant to be: if the game is elsewhere the
    referee refuses it as 'stale' and changes nothing. A client that sends several proposals without
    waiting tags each, so that none is made after one is refused, and asking again is harmless.
    """

    sender: str
    corr: int
    text: str = ""
    origin: int = -1
    target: int = -1
    promotion: int = 0
    colour: int | None = None
    ply: int = 0


@dataclass(frozen=True, slots=True)
class Accepted:
    """The move was legal and is made."""

    sender: str
    corr: int
    uci: str
    san: str
    check: bool
    outcome: str | None


@dataclass(frozen=True, slots=True)
class Rejected:
    """The move was refused. ``kind`` is 'illegal', 'ambiguous', 'syntax', 'over', or 'stale' (a
    proposal tagged for another ply than the game's next: it was not judged)."""

    sender: str
    corr: int
    text: str
    reason: str
    kind: str = "illegal"


@dataclass(frozen=True, slots=True)
class FenQuery:
    """Ask for the FEN of the current position."""

    sender: str
    corr: int


@dataclass(frozen=True, slots=True)
class LegalTargetsQuery:
    """Ask where the piece on ``square`` may legally go now."""

    sender: str
    corr: int
    square: int


@dataclass(frozen=True, slots=True)
class LegalTargets:
    """The squares the piece may legally move to (castling: the king's target), ascending."""

    sender: str
    corr: int
    square: int
    targets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Begin:
    """(Re)build the referee's state: the heir's journal, the board's roster, the pieces' targets."""

    sender: str
    corr: int


@dataclass(frozen=True, slots=True)
class Ready:
    """The referee is ready for the next proposal."""

    sender: str
    corr: int
    plies: int


# --- client -> referee, position-only mode (ChessMoveQ) -----------------------------------------


@dataclass(frozen=True, slots=True)
class Setup:
    """Seat these pieces, and only these, each under its actor's name (position-only mode).

    Sent by the client to the referee, which passes it on to the board and re-reads the roster.
    There is no game state: no side to move, no castling, no en passant.
    """

    sender: str
    corr: int
    entries: tuple[RosterEntry, ...]


@dataclass(frozen=True, slots=True)
class CheckMove:
    """ChessMoveQ: can any piece of ``colour`` and ``kind`` legally go to ``target`` as the board stands?"""

    sender: str
    corr: int
    colour: int
    kind: int
    target: int


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """The answer to CheckMove: valid if some piece can; their squares; one reason line per piece."""

    sender: str
    corr: int
    valid: bool
    origins: tuple[int, ...]
    reasons: tuple[str, ...]


# --- referee -> piece -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveQuery:
    """Can a piece of ``colour`` go start -> end by its geometry? (The seed's move message.)"""

    sender: str
    corr: int
    start: int
    end: int
    colour: int


@dataclass(frozen=True, slots=True)
class Yes:
    """The move function says yes: the traversed squares (nearest first) and the target rule.

    ``onward`` is every geometric move from ``end``, so a referee that accepts the move already
    knows the piece's targets there. For castling, ``traversed`` is what the piece crosses.
    """

    sender: str
    corr: int
    kind: int
    start: int
    end: int
    traversed: tuple[int, ...]
    target_rule: str = "any"
    onward: tuple[PathEntry, ...] = ()

    @property
    def traversed_names(self) -> tuple[str, ...]:
        """The traversed squares by name ('d2', ...)."""
        return tuple(SQUARE_NAMES[square] for square in self.traversed)


@dataclass(frozen=True, slots=True)
class No:
    """The piece cannot make that move; ``reason`` says why."""

    sender: str
    corr: int
    reason: str


@dataclass(frozen=True, slots=True)
class CastleQuery:
    """Castle to ``side`` ('K' or 'Q'): asked of the king and of that rook."""

    sender: str
    corr: int
    side: str
    square: int


@dataclass(frozen=True, slots=True)
class TargetsQuery:
    """Every geometric move of the piece from ``square`` (where the referee's roster has it)."""

    sender: str
    corr: int
    square: int


@dataclass(frozen=True, slots=True)
class Targets:
    """The piece's geometric moves from ``square``: its own answer, memoised by the referee."""

    sender: str
    corr: int
    square: int
    paths: tuple[PathEntry, ...]


# --- referee -> board -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Survey:
    """Report blockers, targets and king-reach candidates for each probe (or castling's squares).

    ``check``: also report who might reach ``colour``'s king as the board stands (position-only
    mode, where no earlier assessment says whether the mover is in check).
    """

    sender: str
    corr: int
    colour: int
    probes: tuple[Probe, ...] = ()
    castle: CastleSurvey | None = None
    check: bool = False


@dataclass(frozen=True, slots=True)
class SurveyReport:
    """One report per probe, in order, the castling report and the check candidates when asked."""

    sender: str
    corr: int
    reports: tuple[ProbeReport, ...]
    castle: CastleReport | None = None
    check_candidates: tuple[Sighting, ...] = ()


@dataclass(frozen=True, slots=True)
class Assess:
    """How does ``colour`` (to move) stand: who might check its king, can it capture en passant,
    and is one of its moves (from the referee's memoised targets, per square) plainly open?"""

    sender: str
    corr: int
    colour: int
    pieces: tuple[tuple[int, tuple[PathEntry, ...]], ...]
    en_passant: tuple[Probe, ...] = ()


@dataclass(frozen=True, slots=True)
class Assessment:
    """The board's answer to Assess.

    ``open_probe``: the first probe with a clear path, an admissible target and no candidate
    attacker (a legal move, by board.judge's reading); ``unclear``: clear probes that have
    candidates (the pieces must confirm); ``en_passant``: a report per en passant probe.
    """

    sender: str
    corr: int
    king_square: int
    check_candidates: tuple[Sighting, ...]
    en_passant: tuple[ProbeReport, ...]
    open_probe: Probe | None
    unclear: tuple[tuple[Probe, ProbeReport], ...]
    placement: bytes


@dataclass(frozen=True, slots=True)
class Apply:
    """Make an accepted move, then assess the position for the side to move next.

    ``rook`` is castling's rook (from, to); ``victim`` the en passant capture's square (-1: none);
    ``ply`` the 1-based ply (it names a promoted piece).

    With a ``probe`` the Apply is conditional (the referee's fast path, when one piece said yes and
    the move is legal on the facts the referee expects): the board surveys the probe first and makes
    the move only if the path is clear, the target holds ``expect`` (a piece code, 0: empty) and no
    enemy piece might reach the mover's king; it answers Applied (with the probe's report), or else
    the SurveyReport of that probe, having changed nothing.
    """

    sender: str
    corr: int
    origin: int
    target: int
    promotion: int
    rook: tuple[int, int] | None
    victim: int
    ply: int
    assess: Assess
    probe: Probe | None = None
    expect: int = -1


@dataclass(frozen=True, slots=True)
class Applied:
    """The move is on the board: the squares that changed (square, code, name) and the assessment.

    ``report``: for a conditional Apply, what the board saw for its probe (the facts as expected).
    """

    sender: str
    corr: int
    changes: tuple[tuple[int, int, str], ...]
    captured: str | None
    assessment: Assessment
    report: ProbeReport | None = None


@dataclass(frozen=True, slots=True)
class RosterQuery:
    """Ask the board for every piece with its actor name."""

    sender: str
    corr: int


@dataclass(frozen=True, slots=True)
class Roster:
    """Every piece on the board, how many moves the board has applied, and the placement."""

    sender: str
    corr: int
    entries: tuple[RosterEntry, ...]
    plies: int
    placement: bytes


@dataclass(frozen=True, slots=True)
class Describe:
    """Write the FEN: the board's placement with the referee's game state."""

    sender: str
    corr: int
    turn: int
    castling: int
    en_passant: int
    halfmove: int
    fullmove: int


@dataclass(frozen=True, slots=True)
class Description:
    """A FEN."""

    sender: str
    corr: int
    fen: str


# --- board -> piece (tells) -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moved:
    """You now stand on ``to`` (you have moved)."""

    sender: str
    corr: int
    to: int


@dataclass(frozen=True, slots=True)
class Captured:
    """You were captured: stop."""

    sender: str
    corr: int


@dataclass(frozen=True, slots=True)
class Resync:
    """After healing: you stand on ``square`` and have (not) moved, as the board says."""

    sender: str
    corr: int
    square: int
    has_moved: bool


# --- fault injection ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Crash:
    """Raise now (the actor dies; its supervisor may restart it)."""

    sender: str
    corr: int


@dataclass(frozen=True, slots=True)
class CrashOnNext:
    """Raise when the next message of class ``kind`` arrives."""

    sender: str
    corr: int
    kind: str


@dataclass(frozen=True, slots=True)
class Armed:
    """The fault is armed."""

    sender: str
    corr: int
    kind: str


# --- liveness and fault injection --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HangOnNext:
    """Fault injection: stall ``seconds`` on the next message of class ``kind``, then handle it late
    (a handler that does not answer within its asker's timeout). Answered with Armed."""

    sender: str
    corr: int
    kind: str
    seconds: float


@dataclass(frozen=True, slots=True)
class Ping:
    """Are you there? Answered at once with Pong, without asking anyone: the supervisor's liveness probe."""

    sender: str
    corr: int


@dataclass(frozen=True, slots=True)
class Pong:
    """I am here, and idle enough to answer."""

    sender: str
    corr: int


# --- the knight puzzles, answered by a knight actor from where it stands ---------------------


@dataclass(frozen=True, slots=True)
class KnightPathQuery:
    """To a knight: a shortest knight path from your square to ``target`` on a board of ``size``.

    ``target`` is a 1-based (file, rank); ``size`` is (files, ranks), 8x8 unless given.
    """

    sender: str
    corr: int
    target: tuple[int, int]
    size: tuple[int, int] = (8, 8)


@dataclass(frozen=True, slots=True)
class KnightTourQuery:
    """To a knight: a knight's tour of a ``size`` board starting from your square (closed if asked)."""

    sender: str
    corr: int
    size: tuple[int, int] = (8, 8)
    closed: bool = False


@dataclass(frozen=True, slots=True)
class KnightWalk:
    """A knight's answer: its walk from where it stands (square names, its own first), or why none.

    ``moves`` counts the knight moves (None with ``reason`` when there is no such walk).
    """

    sender: str
    corr: int
    moves: int | None
    path: tuple[str, ...] | None
    reason: str | None = None

