"""Why a move is legal or not: the facts about each candidate piece, and one decision over them.

Both engines judge a move the same way. The direct engine gathers the facts by looking at the
position; the actor engine gathers the same facts by asking piece and board actors. Either way
:func:`decide` (and :func:`decide_castling`) turn the facts into the verdict and its reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from board.rules.castling import castling_for
from board.rules.pieces import KIND_NAMES, KING, LAST_RANK, PAWN, describe
from board.rules.squares import SQUARE_NAMES

Sighting = tuple[int, int]
"""A piece seen on a square: (square, piece code)."""


@dataclass(frozen=True, slots=True)
class Intent:
    """What a mover asks for, before any piece is found to do it.

    ``target`` is the destination (for castling, the king's). ``from_file``/``from_rank`` are the
    0-based SAN disambiguation; ``from_square`` is set by UCI and square-pair moves.
    """

    colour: int
    kind: int
    target: int
    promotion: int = 0
    from_file: int | None = None
    from_rank: int | None = None
    from_square: int | None = None
    castle: str | None = None
    capture: bool = False
    text: str = ""

    def admits(self, origin: int) -> bool:
        """Whether a piece on ``origin`` fits the written disambiguation."""
        if self.from_square is not None:
            return origin == self.from_square
        if self.from_file is not None and origin & 7 != self.from_file:
            return False
        return self.from_rank is None or origin >> 3 == self.from_rank


@dataclass(frozen=True, slots=True)
class CandidateFacts:
    """Everything learnt about one piece that might make the intended move.

    ``traversed`` is None when the piece's move function said no. ``blocker`` is the first occupied
    traversed square (-1 if none). ``exposers`` are the enemy pieces confirmed to reach our king
    once the move is made (for a king move, its target square); ``king_square`` is the square they
    were sought for (-1 when the gatherer did not say).
    """

    origin: int
    code: int
    traversed: tuple[int, ...] | None
    target_rule: str = "any"
    blocker: Sighting | None = None
    target_code: int = 0
    en_passant: bool = False
    exposers: tuple[Sighting, ...] = ()
    king_square: int = -1


@dataclass(frozen=True, slots=True)
class CastlingFacts:
    """What castling needs: the right, empty squares, and a king that is never attacked."""

    king_square: int
    has_right: bool
    blocker: Sighting | None
    checkers: tuple[Sighting, ...]
    attacked: tuple[tuple[int, Sighting], ...]
    """(square the king crosses or lands on, an enemy piece confirmed to reach it)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The verdict: the origins of the pieces that may legally move, or why none may."""

    origins: tuple[int, ...]
    reason: str | None

    @property
    def legal(self) -> bool:
        """Exactly one piece can make the move."""
        return len(self.origins) == 1 and self.reason is None


def name(sighting: Sighting) -> str:
    """'the bishop on c4' for a sighting (colour left out: context makes it plain)."""
    return f"the {KIND_NAMES[sighting[1] & 7]} on {SQUARE_NAMES[sighting[0]]}"


def _failure(
    intent: Intent,
    facts: CandidateFacts,
    king_square: int,
    checkers: tuple[Sighting, ...],
    kings_taken: bool = False,
) -> tuple[int, str | None]:
    """How far a candidate got (higher is further) and why it failed (None if it did not).

    The tests run in the order a move is checked; the reason's words are made only for a failure
    (a legal move is judged on every ply).
    """
    stage, failed = _failed_at(intent, facts, kings_taken)
    if stage == 5:
        return 5, None
    return stage, _reason(failed, intent, facts, king_square, checkers)


def _reason(
    failed: str, intent: Intent, facts: CandidateFacts, king_square: int, checkers: tuple[Sighting, ...]
) -> str:
    """The words for the test a candidate failed (see :func:`_failed_at`)."""
    piece = f"the {KIND_NAMES[facts.code & 7]} on {SQUARE_NAMES[facts.origin]}"
    target = SQUARE_NAMES[intent.target]
    occupant = facts.target_code
    match failed:
        case "no":
            return f"{piece} cannot move to {target}"
        case "blocked":
            assert facts.blocker is not None
            return f"{piece} is blocked by {name(facts.blocker)}"
        case "own":
            return f"{target} is occupied by {describe(occupant).split()[0]}'s own {KIND_NAMES[occupant & 7]}"
        case "king":
            return f"{target} holds the {describe(occupant).split()[0]} king, which is never captured"
        case "push":
            return f"{piece} cannot push onto {target}: {name((intent.target, occupant))} is in the way"
        case "diagonal":
            return f"{piece} captures only diagonally onto an enemy piece, and {target} is empty"
        case "nothing":
            return f"{target} is empty, so there is nothing to capture"
        case "promote":
            return f"a pawn reaching {target} must promote (add =Q, =R, =B or =N)"
        case "no promotion":
            return f"only a pawn reaching the last rank can promote, not {piece} moving to {target}"
    attacker = name(facts.exposers[0])
    if facts.code & 7 == KING:
        return f"the king would be in check on {target} from {attacker}"
    king = f"the king on {SQUARE_NAMES[king_square]}"
    if any(exposer in checkers for exposer in facts.exposers):
        return f"{king} is in check from {attacker}, and this move does not answer it"
    if facts.en_passant:
        return f"en passant would expose {king} to {attacker}"
    return f"{piece} is pinned to {king} by {attacker}"


def _failed_at(intent: Intent, facts: CandidateFacts, kings_taken: bool) -> tuple[int, str]:
    """The first test a candidate fails, as (stage, what failed), or (5, "") when it passes them all."""
    if facts.traversed is None:
        return 0, "no"
    if facts.blocker is not None:
        return 1, "blocked"
    occupant = facts.target_code
    if occupant and occupant >> 3 == intent.colour:
        return 2, "own"
    if occupant & 7 == KING and not kings_taken:  # a game never takes a king (a lesson may offer one)
        return 2, "king"
    rule = facts.target_rule
    if rule == "empty" and occupant:
        return 2, "push"
    if rule == "enemy" and not occupant and not facts.en_passant:
        return 2, "diagonal"
    if intent.capture and not occupant and not facts.en_passant:
        return 2, "nothing"
    pawn = facts.code & 7 == PAWN
    last_rank = intent.target >> 3 == LAST_RANK[intent.colour]  # the pawn's own, whatever it moves like
    if pawn and last_rank and not intent.promotion:
        return 3, "promote"
    if intent.promotion and not (pawn and last_rank):
        return 3, "no promotion"
    if facts.exposers:
        return 4, "exposed"
    return 5, ""


def decide(
    intent: Intent,
    candidates: list[CandidateFacts],
    king_square: int,
    checkers: tuple[Sighting, ...],
    kings_taken: bool = False,
) -> Decision:
    """The verdict on a non-castling move from the facts about every candidate piece.

    ``kings_taken``: a move onto a king is a capture like any other (ChessMoveQ's question, asked of
    any placement); in a game a king is never captured.
    """
    fitting = [facts for facts in candidates if intent.admits(facts.origin)]
    legal = tuple(facts.origin for facts in fitting if _failed_at(intent, facts, kings_taken)[0] == 5)
    if len(legal) == 1:  # the common case, judged without a word of any reason
        return Decision(legal, None)
    kind = KIND_NAMES[intent.kind]
    target = SQUARE_NAMES[intent.target]
    if not fitting:
        return Decision((), f"no {kind} can reach {target}")
    if len(legal) > 1:
        where = " and ".join(SQUARE_NAMES[origin] for origin in legal)
        return Decision(legal, f"ambiguous: the {kind}s on {where} can all go to {target}")
    judged = [(_failure(intent, facts, king_square, checkers, kings_taken), facts) for facts in fitting]
    geometric = [item for item in judged if item[0][0] > 0]
    if not geometric:
        return Decision((), f"no {kind} can reach {target}")
    (_, reason), _ = max(geometric, key=lambda item: item[0][0])
    return Decision((), reason)


def decide_castling(intent: Intent, facts: CastlingFacts) -> str | None:
    """Why castling is illegal, or None when it is legal."""
    assert intent.castle is not None, "a castling verdict needs a castling intent"
    side = castling_for(intent.colour, intent.castle).side_name
    if not facts.has_right:
        return f"no right to castle {side} (the king or that rook has moved)"
    if facts.blocker is not None:
        occupied = SQUARE_NAMES[facts.blocker[0]]
        return f"castling {side} needs {occupied} empty, but {name(facts.blocker)} is there"
    if facts.checkers:
        return f"the king cannot castle out of check ({name(facts.checkers[0])} gives check)"
    for square, attacker in facts.attacked:
        verb = "lands on" if square == intent.target else "passes through"
        return f"the king {verb} {SQUARE_NAMES[square]}, attacked by {name(attacker)}"
    return None
