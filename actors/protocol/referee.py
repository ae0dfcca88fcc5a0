"""Messages the referee receives (from the client and the supervisor), and its replies.

How you talk to the referee of a game:
    ProposeText(text, ply)                   -> Verdict = Accepted | Rejected
    ProposeSquares(origin, target, promotion, ply) -> Verdict
    FenQuery()                               -> Description
    LegalTargetsQuery(square)                -> LegalTargets
    Begin(start)                             -> Ready        (the supervisor, after a (re)start; with
                                                             ``start``, a pooled system's new game)
and the referee of a position (ChessMoveQ: no turn, no castling, no en passant; a side may lack a king):
    Setup(entries)                           -> Ready        (seat these pieces)
    CheckMove(colour, kind, target)          -> MoveCheck
"""

from __future__ import annotations

from dataclasses import dataclass, field

from actors.kernel.messaging import Request
from actors.protocol.names import Named
from actors.protocol.values import GameState, JournalEntry, RejectionKind, RosterEntry


@dataclass(frozen=True, slots=True, repr=False)
class ProposeText(Request["Verdict"], Named):
    """Play a move written in SAN or UCI for the side to move.

    ``ply`` (1-based), when not 0, is the ply the move is meant to be: if the game is elsewhere the
    referee refuses it as 'stale' and changes nothing, so a client may send several proposals without
    waiting (none is made after a refused one) and asking again is harmless. ``colour``, when given,
    is the side the proposer plays: a move proposed out of turn is refused.
    """

    text: str
    ply: int = 0
    colour: int | None = None


@dataclass(frozen=True, slots=True, repr=False)
class ProposeSquares(Request["Verdict"], Named):
    """Play the move of the piece on ``origin`` to ``target`` (``promotion``: a kind, 0 for none)."""

    origin: int
    target: int
    promotion: int = 0
    ply: int = 0


@dataclass(frozen=True, slots=True, repr=False)
class Accepted(Named):
    """The move was legal and is made. ``claimable``: the draws a player could now claim (threefold
    repetition, the fifty-move rule); ``entry`` is what the client writes to the game's journal."""

    uci: str
    san: str
    check: bool
    outcome: str | None
    claimable: tuple[str, ...] = ()
    entry: JournalEntry | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True, slots=True, repr=False)
class Rejected(Named):
    """The move was refused, and nothing changed; ``kind`` says which sort of refusal it is."""

    text: str
    reason: str
    kind: RejectionKind = "illegal"


Verdict = Accepted | Rejected
"""The referee's one answer to a proposal."""


@dataclass(frozen=True, slots=True, repr=False)
class FenQuery(Request["Description"], Named):
    """Ask for the FEN of the current position (the board's placement, the referee's game state)."""


@dataclass(frozen=True, slots=True, repr=False)
class Description(Named):
    """A position as FEN."""

    fen: str


@dataclass(frozen=True, slots=True, repr=False)
class LegalTargetsQuery(Request["LegalTargets"], Named):
    """Ask where the piece on ``square`` may legally go now."""

    square: int


@dataclass(frozen=True, slots=True, repr=False)
class LegalTargets(Named):
    """The squares the piece may legally move to (castling: the king's target), ascending."""

    square: int
    targets: tuple[int, ...]


@dataclass(frozen=True, slots=True, repr=False)
class Begin(Request["Ready"], Named):
    """(Re)build the referee: the journal's moves, the board's roster and the pieces' declared reach.

    With ``start``, a new game begins there instead (the board has just been placed): the referee
    does not ask the journal but tells it to start over (Reset). ``lessons_at_start``: the pieces
    were just taught the game's start-up lessons, before any move; they are part of the start, so
    the start position's repetition key is worked out afresh (and the journal told it).
    """

    start: GameState | None = None
    lessons_at_start: bool = False


@dataclass(frozen=True, slots=True, repr=False)
class Ready(Named):
    """The referee is ready; ``plies`` moves have been made, and the game stands at ``outcome``
    (with ``claimable`` draws)."""

    plies: int
    outcome: str | None = None
    claimable: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, repr=False)
class Setup(Request["Ready"], Named):
    """Seat these pieces, and only these, each under its actor's name (position-only mode)."""

    entries: tuple[RosterEntry, ...]


@dataclass(frozen=True, slots=True, repr=False)
class CheckMove(Request["MoveCheck"], Named):
    """ChessMoveQ: can any piece of ``colour`` and ``kind`` legally go to ``target`` as the board stands?"""

    colour: int
    kind: int
    target: int


@dataclass(frozen=True, slots=True, repr=False)
class MoveCheck(Named):
    """The answer to CheckMove: valid if some piece can; their squares; one reason line per piece."""

    valid: bool
    origins: tuple[int, ...]
    reasons: tuple[str, ...]


RefereeRequest = ProposeText | ProposeSquares | FenQuery | LegalTargetsQuery | Begin
"""Everything the referee of a game answers."""

PositionRefereeRequest = Setup | CheckMove
"""Everything the referee of a position answers."""
