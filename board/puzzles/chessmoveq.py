"""ChessMoveQ: can any piece of a colour and kind legally move to a square of a bare position?

Reads the puzzle's lists ``[colour, kind, x, y]``, builds a position with no castling or en passant,
gathers the judge's facts about each candidate piece and answers, with one reason line per piece.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from board.puzzles.chessmoveq_values import Answer, ChessMoveQError, Placement
from board.rules.facts import candidate_facts, current_checkers
from board.rules.judge import CandidateFacts, Intent, Sighting, decide
from board.rules.pieces import (
    BISHOP,
    BLACK,
    COLOUR_NAMES,
    KIND_BY_LETTER,
    KIND_NAMES,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
    describe,
)
from board.rules.position import Position
from board.rules.squares import SQUARE_NAMES

__all__ = [
    "COLOUR_LETTERS",
    "MAX_PIECES",
    "Answer",
    "ChessMoveQError",
    "Placement",
    "answer",
    "answer_from_facts",
    "build_position",
    "explain",
    "gather_facts",
    "intent_for",
    "is_valid_move",
    "judge_candidate",
    "parse_case",
    "parse_json_case",
    "parse_json_move",
    "parse_json_position",
    "parse_move",
    "parse_position",
]

MAX_PIECES: Final = 32
COLOUR_LETTERS: Final[dict[str, int]] = {"W": WHITE, "B": BLACK}
_SHOWN_LIMIT: Final = 60
_CASE_KEYS: Final = ("position", "move")
_UNREACHABLE: Final = {
    PAWN: "not one of its forward pushes or diagonal captures",
    KNIGHT: "not a knight's jump away",
    BISHOP: "not on its diagonals",
    ROOK: "not on its file or rank",
    QUEEN: "not on its file, rank or diagonals",
    KING: "not next to it",
}


# -- reading the input -------------------------------------------------------------------------


def _shown(value: object) -> str:
    """A value as the user wrote it (JSON where possible), cut short when long."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _SHOWN_LIMIT else text[: _SHOWN_LIMIT - 3] + "..."


def _placement(item: object, what: str, low: int) -> Placement:
    """One ``[colour, kind, x, y]`` list, checked; ``low`` is the first coordinate (0 or 1)."""
    if not isinstance(item, list | tuple) or len(item) != 4:
        raise ChessMoveQError(f"{what} must be a list [colour, kind, x, y], got {_shown(item)}")
    colour_letter, kind_letter, x, y = item
    colour = COLOUR_LETTERS.get(colour_letter) if isinstance(colour_letter, str) else None
    if colour is None:
        raise ChessMoveQError(f'{what} {_shown(item)}: colour {_shown(colour_letter)} is not "W" or "B"')
    kind = KIND_BY_LETTER.get(kind_letter) if isinstance(kind_letter, str) else None
    if kind is None:
        raise ChessMoveQError(
            f'{what} {_shown(item)}: kind {_shown(kind_letter)} is not one of "K", "Q", "R", "B", "N", "P"'
        )
    for axis, value in (("x", x), ("y", y)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ChessMoveQError(f"{what} {_shown(item)}: {axis} {_shown(value)} is not a whole number")
        if not low <= value <= low + 7:
            raise ChessMoveQError(
                f"{what} {_shown(item)}: {axis} = {value} is off the board ({low}..{low + 7})"
            )
    return Placement(colour, kind, (y - low) * 8 + (x - low))


def _placement_table(low: int) -> dict[tuple[str, str, int, int], Placement]:
    """Every well-formed ``[colour, kind, x, y]`` with coordinates from ``low``, as a tuple -> Placement."""
    return {
        (colour_letter, kind_letter, file + low, rank + low): Placement(colour, kind, rank * 8 + file)
        for colour_letter, colour in COLOUR_LETTERS.items()
        for kind_letter, kind in KIND_BY_LETTER.items()
        for rank in range(8)
        for file in range(8)
    }


# Looking a piece up is several times faster than checking it field by field, which only the
# ill-formed need (to say what is wrong). Keys hold exact ints: True == 1 and 1.0 == 1 must not match.
_PLACEMENTS: Final = (_placement_table(0), _placement_table(1))


def _known(item: object, low: int) -> Placement | None:
    """The Placement of a well-formed piece list, or None for anything that needs a closer look."""
    if (type(item) is list or type(item) is tuple) and len(item) == 4:
        colour_letter, kind_letter, x, y = item
        if type(x) is int and type(y) is int and type(colour_letter) is str and type(kind_letter) is str:
            return _PLACEMENTS[low].get((colour_letter, kind_letter, x, y))
    return None


def parse_position(data: object, zero_based: bool = False) -> tuple[Placement, ...]:
    """Check a decoded ChessMoveQ position (a list of ``[colour, kind, x, y]``) and return its pieces.

    Coordinates run 1..8 (``zero_based``: 0..7), x the file and y the rank.

    Raises:
        ChessMoveQError: not a list, more than 32 pieces, a malformed piece, two pieces on one
            square, or two kings of one colour; the message names the piece(s) by their place.
    """
    if not isinstance(data, list | tuple):
        raise ChessMoveQError(f"position must be a list of pieces [colour, kind, x, y], got {_shown(data)}")
    if len(data) > MAX_PIECES:
        raise ChessMoveQError(f"position has {len(data)} pieces; ChessMoveQ allows at most {MAX_PIECES}")
    low = 0 if zero_based else 1
    pieces: list[Placement] = []
    occupied = 0
    for number, item in enumerate(data, 1):
        piece = _known(item, low) or _placement(item, f"position piece {number}", low)
        if occupied >> piece.square & 1:
            other = next(index for index, seen in enumerate(pieces, 1) if seen.square == piece.square)
            raise ChessMoveQError(
                f"position pieces {other} {_shown(data[other - 1])} and {number} {_shown(item)}"
                f" are both on {SQUARE_NAMES[piece.square]}"
            )
        occupied |= 1 << piece.square
        if piece.kind == KING:
            for first, seen in enumerate(pieces, 1):
                if seen.kind == KING and seen.colour == piece.colour:
                    raise ChessMoveQError(
                        f"position has two {COLOUR_NAMES[piece.colour]} kings (piece {first} on"
                        f" {SQUARE_NAMES[seen.square]} and piece {number} on {SQUARE_NAMES[piece.square]});"
                        " at most one king per colour"
                    )
        pieces.append(piece)
    return tuple(pieces)


def parse_move(data: object, zero_based: bool = False) -> Placement:
    """Check a decoded ChessMoveQ move ``[colour, kind, x, y]`` (x, y: the destination) and return it.

    Raises:
        ChessMoveQError: not a 4-item list, an unknown colour or kind, or a square off the board.
    """
    low = 0 if zero_based else 1
    return _known(data, low) or _placement(data, "move", low)


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object's members, refusing a key given twice (JSON would keep only the last)."""
    members: dict[str, object] = {}
    for key, value in pairs:
        if key in members:
            raise ChessMoveQError(f"key {_shown(key)} appears twice")
        members[key] = value
    return members


def _decode(text: str, what: str) -> object:
    """JSON text decoded, or an error naming ``what`` and where the JSON went wrong."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as error:
        where = f"column {error.colno}" if error.lineno == 1 else f"line {error.lineno}, column {error.colno}"
        raise ChessMoveQError(f"{what} is not JSON: {error.msg} at {where}") from None
    except RecursionError:
        raise ChessMoveQError(f"{what} is nested too deeply to be a ChessMoveQ {what}") from None
    except ValueError as unusable:  # e.g. a number past Python's digit limit for int(); compiled, a
        # name holds one type, and the name above holds a JSONDecodeError
        raise ChessMoveQError(f"{what} is not usable JSON: {unusable}") from None


def parse_json_position(text: str, zero_based: bool = False) -> tuple[Placement, ...]:
    """:func:`parse_position` over JSON text. Raises ChessMoveQError (also for text that is not JSON)."""
    return parse_position(_decode(text, "position"), zero_based)


def parse_json_move(text: str, zero_based: bool = False) -> Placement:
    """:func:`parse_move` over JSON text. Raises ChessMoveQError (also for text that is not JSON)."""
    return parse_move(_decode(text, "move"), zero_based)


def parse_case(data: object, zero_based: bool = False) -> tuple[tuple[Placement, ...], Placement]:
    """Check a decoded case ``{"position": [...], "move": [...]}``; return (pieces, move).

    Raises:
        ChessMoveQError: not an object, a key missing or unknown, or a bad position or move.
    """
    if not isinstance(data, dict):
        raise ChessMoveQError(f'expected an object {{"position": [...], "move": [...]}}, got {_shown(data)}')
    unknown = [key for key in data if key not in _CASE_KEYS]
    if unknown:
        raise ChessMoveQError(f'unknown key {_shown(unknown[0])} (a case has only "position" and "move")')
    for key in _CASE_KEYS:
        if key not in data:
            raise ChessMoveQError(f'the case has no "{key}"')
    return parse_position(data["position"], zero_based), parse_move(data["move"], zero_based)


def parse_json_case(text: str, zero_based: bool = False) -> tuple[tuple[Placement, ...], Placement]:
    """:func:`parse_case` over one line of JSON text; an empty (or blank) text is an error too."""
    if not text.strip():
        raise ChessMoveQError('empty; expected {"position": [...], "move": [...]}')
    return parse_case(_decode(text, "case"), zero_based)


# -- gathering the facts -----------------------------------------------------------------------


def build_position(pieces: Sequence[Placement], mover: int = WHITE) -> Position:
    """The pieces on a board with ``mover`` to move, no castling rights and no en passant square."""
    position = Position()
    for piece in pieces:
        position.put(piece.square, piece.colour * 8 + piece.kind)
    position.turn = mover
    position.castling = 0
    position.en_passant = -1
    return position


def intent_for(move: Placement) -> Intent:
    """The judge's intent for a ChessMoveQ move.

    The puzzle cannot name a promotion piece and counts every promoting move as valid, while the
    judge insists that a pawn reaching the last rank names one: a queen stands for all four.
    """
    promotes = move.kind == PAWN and move.square >> 3 in (0, 7)
    return Intent(move.colour, move.kind, move.square, promotion=QUEEN if promotes else 0)


def gather_facts(
    position: Position, intent: Intent
) -> tuple[list[CandidateFacts], int, tuple[Sighting, ...]]:
    """The direct engine's facts: (every candidate's facts, the mover's king square or -1, its checkers).

    Without a king the mover has nothing to keep safe, so no move exposes anything.
    """
    candidates = candidate_facts(position, intent)
    king_square = position.kings[intent.colour]
    if king_square < 0:
        # candidate_facts assumes a king: it asked who attacks square -1; those answers mean nothing.
        return [replace(facts, exposers=()) for facts in candidates], -1, ()
    return candidates, king_square, current_checkers(position, intent.colour)


# -- deciding and explaining -------------------------------------------------------------------


def _names(sightings: Sequence[Sighting]) -> str:
    """'the white queen on f1 and the white bishop on f5'."""
    named = [f"the {describe(code)} on {SQUARE_NAMES[square]}" for square, code in sightings]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _why_not(
    intent: Intent, facts: CandidateFacts, king_square: int, checkers: tuple[Sighting, ...]
) -> str | None:
    """The first rule the candidate breaks, in the judge's order of checks (None: it breaks none)."""
    target = SQUARE_NAMES[intent.target]
    occupant = facts.target_code
    if facts.origin == intent.target:
        return f"already stands on {target}"
    if facts.traversed is None:
        return f"cannot reach {target}: {_UNREACHABLE[facts.code & 7]}"
    if facts.blocker is not None:
        return f"blocked by {_names([facts.blocker])}"
    if occupant and occupant >> 3 == intent.colour:
        return f"cannot land on {target}: its own side's {KIND_NAMES[occupant & 7]} stands there"
    if facts.target_rule == "empty" and occupant:
        return f"cannot push onto {target}: {_names([(intent.target, occupant)])} is in the way"
    if facts.target_rule == "enemy" and not occupant:
        return f"moves diagonally only to capture, and {target} is empty"
    if not facts.exposers:
        return None
    if facts.code & 7 == KING:
        return f"{target} is attacked by {_names(facts.exposers)}"
    king = f"the king on {SQUARE_NAMES[king_square]}"
    checking = [exposer for exposer in facts.exposers if exposer in checkers]
    exposed = [exposer for exposer in facts.exposers if exposer not in checkers]
    if not checking:
        return f"pinned: moving would expose {king} to {_names(exposed)}"
    text = f"{king} is in check from {_names(checking)}, and this move does not answer it"
    return text + (f"; it would also expose the king to {_names(exposed)}" if exposed else "")


def _how(intent: Intent, facts: CandidateFacts, checkers: tuple[Sighting, ...]) -> str:
    """How a legal candidate makes the move."""
    if facts.target_code:
        text = f"can take {_names([(intent.target, facts.target_code)])}"
    else:
        text = f"can go to {SQUARE_NAMES[intent.target]}"
    if intent.promotion:
        text += ", promoting"
    if checkers and facts.code & 7 == KING:
        text += ", out of check"
    elif checkers:
        text += f", answering the check from {_names(checkers)}"
    return text


def judge_candidate(
    intent: Intent, facts: CandidateFacts, king_square: int, checkers: tuple[Sighting, ...]
) -> tuple[bool, str]:
    """Whether this one piece can make the move (the judge's decision) and a line saying why.

    A pure function of the facts: either engine may call it with facts however they were learnt.
    """
    decision = decide(intent, [facts], king_square, checkers, kings_taken=True)
    legal = bool(decision.origins)
    if legal:
        detail = _how(intent, facts, checkers)
    else:
        detail = _why_not(intent, facts, king_square, checkers) or decision.reason or "cannot move there"
    return legal, f"{KIND_NAMES[facts.code & 7]} on {SQUARE_NAMES[facts.origin]}: {detail}"


def answer_from_facts(
    intent: Intent, candidates: Sequence[CandidateFacts], king_square: int, checkers: tuple[Sighting, ...]
) -> Answer:
    """The ChessMoveQ answer from the facts about every candidate piece (valid if any can move).

    ``king_square`` is the mover's king (-1 if it has none, and then no facts name exposers);
    ``checkers`` are the enemy pieces attacking it now. No position is needed, so the actor engine
    can call this with facts learnt from messages and give the direct engine's answer.
    """
    if not candidates:
        colour = COLOUR_NAMES[intent.colour]
        return Answer(False, (), (f"no {colour} {KIND_NAMES[intent.kind]} on the board",))
    origins: list[int] = []
    reasons: list[str] = []
    for facts in candidates:
        legal, reason = judge_candidate(intent, facts, king_square, checkers)
        if legal:
            origins.append(facts.origin)
        reasons.append(reason)
    return Answer(bool(origins), tuple(origins), tuple(reasons))


def answer(pieces: Sequence[Placement], move: Placement) -> Answer:
    """The answer for checked pieces and move (see :func:`parse_position`, :func:`parse_move`)."""
    intent = intent_for(move)
    candidates, king_square, checkers = gather_facts(build_position(pieces, move.colour), intent)
    return answer_from_facts(intent, candidates, king_square, checkers)


def is_valid_move(position_pieces: object, move: object, zero_based: bool = False) -> bool:
    """Whether ``move`` is valid in the position, both given as decoded JSON (lists of lists).

    Args:
        position_pieces: the pieces, ``[colour, kind, x, y]`` each.
        move: ``[colour, kind, x, y]``: the destination.
        zero_based: coordinates run 0..7 instead of 1..8.

    Returns:
        True if some piece of that colour and kind may legally go there.

    Raises:
        ChessMoveQError: the position or the move is not well formed.
    """
    return answer(parse_position(position_pieces, zero_based), parse_move(move, zero_based)).valid


def explain(position_pieces: object, move: object, zero_based: bool = False) -> list[str]:
    """One line per candidate piece saying whether and why it can or cannot make ``move``.

    Raises:
        ChessMoveQError: the position or the move is not well formed.
    """
    return list(answer(parse_position(position_pieces, zero_based), parse_move(move, zero_based)).reasons)
