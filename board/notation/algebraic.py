"""Moves as people write them: SAN and UCI read into intents, resolved, and written back as SAN.

Resolution has a fast path (match the intent against the legal moves) and, only when that finds
no single move, asks board.rules.judge for the verdict and its reason over the facts.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from board.errors import AmbiguousMoveError, IllegalMoveError, MoveSyntaxError
from board.notation.san_syntax import parse_san, parse_uci
from board.notation.written_moves import SanMove, UciMove
from board.rules.castling import BY_KING_TARGET, STANDARD, CastlingTable, castling_for
from board.rules.facts import candidate_facts, castling_facts, current_checkers
from board.rules.judge import Intent, decide, decide_castling
from board.rules.movegen import is_check, legal_moves, legal_moves_to
from board.rules.moves import CASTLE
from board.rules.pieces import COLOUR_NAMES, KIND_BY_LETTER, KIND_LETTERS, KING, PAWN, WHITE
from board.rules.position import Position
from board.rules.squares import SQUARE_NAMES


def intent_from_san(move: SanMove, colour: int) -> Intent:
    """The intent of a parsed SAN move for the side ``colour``."""
    if move.castle is not None:
        target = castling_for(colour, move.castle).king_to
        return Intent(colour, KING, target, castle=move.castle, text=move.text)
    assert move.to is not None
    kind = KIND_BY_LETTER[move.piece]
    promotion = KIND_BY_LETTER[move.promotion] if move.promotion else 0
    from_file = move.from_file
    if kind == PAWN and from_file is None:
        from_file = move.to & 7  # a pawn push stays on its file
    return Intent(
        colour, kind, move.to, promotion, from_file, move.from_rank, capture=move.capture, text=move.text
    )


@lru_cache(maxsize=4096)
def san_intent(text: str, colour: int) -> Intent:
    """:func:`intent_from_san` of the SAN ``text`` (kept for the texts seen last: games repeat them).

    Raises:
        MoveSyntaxError: the text is not a SAN move.
    """
    return intent_from_san(parse_san(text), colour)


def intent_from_squares(
    colour: int,
    code: int,
    origin: int,
    target: int,
    promotion: int = 0,
    text: str = "",
    table: CastlingTable = STANDARD,
) -> Intent:
    """The intent of a move given by its squares; ``code`` is the piece on ``origin`` (0: none).

    A king taking its own castling rook is castling (UCI's Chess960 form, taken in standard chess
    too); in standard chess so is a king moving to its castling target (e1g1).

    Raises:
        IllegalMoveError: there is no piece of the mover's colour on ``origin``.
    """
    shown = text or f"{SQUARE_NAMES[origin]}{SQUARE_NAMES[target]}"
    if not code or code >> 3 != colour:
        raise IllegalMoveError(shown, f"there is no {COLOUR_NAMES[colour]} piece on {SQUARE_NAMES[origin]}")
    kind = code & 7
    if kind == KING:
        for castling in table.by_colour[colour]:
            if origin == castling.king_from and (
                target == castling.rook_from or (target == castling.king_to and not table.chess960)
            ):
                return Intent(colour, KING, castling.king_to, castle=castling.side, text=shown)
    return Intent(colour, kind, target, promotion, from_square=origin, text=shown)


def intent_from_uci(move: UciMove, position: Position, text: str = "") -> Intent:
    """The intent of a parsed UCI move in ``position``."""
    promotion = KIND_BY_LETTER[move.promotion] if move.promotion else 0
    return intent_from_squares(
        position.turn,
        position.squares[move.from_square],
        move.from_square,
        move.to_square,
        promotion,
        text,
        position.castling_table,
    )


def parse_move_text(position: Position, text: str) -> Intent:
    """Read SAN or UCI (whichever the text is) into an intent for the side to move.

    Raises:
        MoveSyntaxError: neither SAN nor UCI.
        IllegalMoveError: UCI naming a square without a piece of the side to move.
    """
    try:
        return san_intent(text, position.turn)
    except MoveSyntaxError as san_error:
        try:
            uci = parse_uci(text)
        except MoveSyntaxError:
            raise san_error from None
        return intent_from_uci(uci, position, text)


def matching_moves(position: Position, intent: Intent) -> list[int]:
    """The legal moves that do what the intent asks."""
    if intent.castle is not None:
        return [m for m in legal_moves(position) if m >> 15 == CASTLE and m >> 6 & 63 == intent.target]
    promotion = intent.promotion
    moves = legal_moves_to(position, intent.kind, intent.target)
    if intent.from_square is None and intent.from_file is None and intent.from_rank is None:
        # Most SAN names no origin, and any origin fits: no call into Intent (a Python dataclass) per move.
        return [m for m in moves if m >> 12 & 7 == promotion]
    return [m for m in moves if m >> 12 & 7 == promotion and intent.admits(m & 63)]


def resolve(position: Position, intent: Intent) -> int:
    """The one legal move the intent names.

    Raises:
        IllegalMoveError: no legal move does that; the reason says why.
        AmbiguousMoveError: several pieces could.
    """
    found = matching_moves(position, intent)
    if len(found) == 1:
        return found[0]
    if intent.castle is not None and not found:
        plain = _plain_king_move(position, intent)
        if plain is not None:
            return plain
    reason = explain(position, intent)
    if len(found) > 1 and reason is not None:
        raise AmbiguousMoveError(intent.text, reason)
    raise IllegalMoveError(intent.text, reason or "not a legal move here")


def _plain_king_move(position: Position, castle: Intent) -> int | None:
    """The king's plain move a refused castling given by its squares may be instead, as the actor
    engine's referee reads it: in Chess960 a king next to its rook's home square may step there once
    the rook has gone (g8h8). None for SAN's O-O, and when no such legal move exists."""
    try:
        squares = parse_uci(castle.text)
    except MoveSyntaxError:
        return None
    plain = Intent(castle.colour, KING, squares.to_square, from_square=squares.from_square, text=castle.text)
    found = matching_moves(position, plain)
    return found[0] if len(found) == 1 else None


def explain(position: Position, intent: Intent) -> str | None:
    """Why the intended move is not legal (None when it is): board.rules.judge over direct facts."""
    if intent.castle is not None:
        return decide_castling(intent, castling_facts(position, intent))
    checkers = current_checkers(position, intent.colour)
    decision = decide(intent, candidate_facts(position, intent), position.kings[intent.colour], checkers)
    return decision.reason


def format_san(
    code: int,
    origin: int,
    target: int,
    capture: bool,
    promotion: int = 0,
    castle: bool = False,
    rivals: Iterable[int] = (),
    check: bool = False,
    mate: bool = False,
) -> str:
    """Write SAN from what is known about a legal move.

    ``rivals`` are the origins of other pieces of the same kind that could legally go to
    ``target``; they decide the disambiguation. A pawn whose move standard SAN cannot say (a
    taught pawn moving as no pawn does, or another pawn of its file able to go there too) is
    written in full: ``P``, its square, ``x`` for a capture, the target (``Pe2d4``).
    """
    suffix = "#" if mate else "+" if check else ""
    if castle:
        return BY_KING_TARGET[target].san + suffix
    kind = code & 7
    destination = SQUARE_NAMES[target]
    if kind == PAWN:
        said = pawn_shaped(code >> 3, origin, target, capture) and not any(
            r != origin and r & 7 == origin & 7 for r in rivals
        )
        if said:
            text = f"{SQUARE_NAMES[origin][0]}x{destination}" if capture else destination
        else:
            text = f"P{SQUARE_NAMES[origin]}{'x' if capture else ''}{destination}"
        if promotion:
            text += "=" + KIND_LETTERS[promotion]
        return text + suffix
    others = [r for r in rivals if r != origin]
    qualifier = ""
    if others:
        if all(r & 7 != origin & 7 for r in others):
            qualifier = SQUARE_NAMES[origin][0]
        elif all(r >> 3 != origin >> 3 for r in others):
            qualifier = SQUARE_NAMES[origin][1]
        else:
            qualifier = SQUARE_NAMES[origin]
    return f"{KIND_LETTERS[kind]}{qualifier}{'x' if capture else ''}{destination}{suffix}"


def pawn_shaped(colour: int, origin: int, target: int, capture: bool) -> bool:
    """Whether origin -> target is a move of a pawn's own shape, which standard SAN can write: a step
    or first two-step straight ahead, or a capture one step diagonally ahead."""
    ahead = 8 if colour == WHITE else -8
    if capture:
        return target - origin in (ahead - 1, ahead + 1) and abs((target & 7) - (origin & 7)) == 1
    start_rank = 1 if colour == WHITE else 6
    return target - origin == ahead or (target - origin == 2 * ahead and origin >> 3 == start_rank)


def san(position: Position, move: int) -> str:
    """The SAN of a legal encoded move in ``position``, with + or # when it gives check or mate."""
    origin, target = move & 63, move >> 6 & 63
    code = position.squares[origin]
    moves = legal_moves(position)
    rivals = [
        m & 63
        for m in moves
        if m >> 6 & 63 == target and position.squares[m & 63] == code and m & 63 != origin
    ]
    capture = bool(position.squares[target]) or (code & 7 == PAWN and origin & 7 != target & 7)
    position.push(move)
    check = is_check(position)
    mate = check and not legal_moves(position)
    position.pop()
    return format_san(
        code, origin, target, capture, move >> 12 & 7, move >> 15 == CASTLE, rivals, check, mate
    )


def uci(move: int, table: CastlingTable = STANDARD) -> str:
    """The UCI text of an encoded move; ``table`` is the position's castling layout (Chess960
    castling is written as the king taking its own rook)."""
    promotion = move >> 12 & 7
    suffix = KIND_LETTERS[promotion].lower() if promotion else ""
    return f"{SQUARE_NAMES[move & 63]}{SQUARE_NAMES[table.uci_target(move)]}{suffix}"


__all__ = [
    "explain",
    "format_san",
    "intent_from_san",
    "intent_from_squares",
    "intent_from_uci",
    "matching_moves",
    "parse_move_text",
    "resolve",
    "san",
    "san_intent",
    "uci",
]
