"""The syntax of moves as text: SAN (``Nbd7``, ``exd8=Q+``, ``O-O``) and UCI (``e7e8q``).

Pure text work, no chess rules: which piece could make a move is for the rules core to decide.
"""

from __future__ import annotations

import re
from typing import Final

from board.errors import MoveSyntaxError
from board.notation.written_moves import Castle, CheckMark, Piece, Promotion, SanMove, UciMove
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES

__all__ = [
    "NULL_MOVES",
    "Castle",
    "CheckMark",
    "Piece",
    "Promotion",
    "SanMove",
    "UciMove",
    "parse_san",
    "parse_uci",
    "uci_text",
]

NULL_MOVES: Final[frozenset[str]] = frozenset({"--", "Z0", "0000", "@@@@"})
"""Null-move spellings some programs write; they are not moves of standard chess."""

# One regex for every well-formed SAN move: a compiled fullmatch is the fast path, and the
# slower diagnosis below runs only on text that fails it.
_SAN_RE: Final = re.compile(
    r"(?:(?P<castle>O-O(?:-O)?|0-0(?:-0)?)"
    r"|(?P<piece>[NBRQKP])?(?P<from_file>[a-h])?(?P<from_rank>[1-8])?(?P<capture>x)?"
    r"(?P<to>[a-h][1-8])(?:=?(?P<promotion>[QRBNqrbn]))?)"
    r"(?P<check>[+#])?(?:[!?]{1,2})?"
)
_UCI_RE: Final = re.compile(r"([a-h][1-8])([a-h][1-8])([qrbnQRBN])?")
_CASTLE_LIKE_RE: Final = re.compile(r"[Oo0](?:-[Oo0])+")
_TARGET_RE: Final = re.compile(r"[a-z][0-9]+")
_PREFIX_RE: Final = re.compile(r"[a-h]?[1-8]?x?")
_SAN_ALPHABET: Final = frozenset("NBRQKabcdefgh12345678xO0-=+#!?")
_PIECE_LETTERS: Final = "NBRQK"
_PAWN_LETTER: Final = (
    "a pawn move is written without the letter P (e.g. e4, dxe5), or in full with the square it comes"
    " from (e.g. Pe2d4)"
)
_FILE_LETTERS: Final = "abcdefgh"
_PIECES: Final[dict[str, Piece]] = {"N": "N", "B": "B", "R": "R", "Q": "Q", "K": "K", "P": "P"}
_PROMOTIONS: Final[dict[str, Promotion]] = {
    "Q": "Q", "R": "R", "B": "B", "N": "N", "q": "Q", "r": "R", "b": "B", "n": "N",
}

# Parsed moves are immutable, so they can be shared; a bulk replay sees a few thousand distinct
# SAN strings over and over. The cache stops growing at the limit to keep memory constant.
_CACHE_LIMIT: Final = 16_384
_san_cache: dict[str, SanMove] = {}


def parse_san(text: str) -> SanMove:
    """Parse one move in Standard Algebraic Notation.

    Accepted beyond the strict standard: castling with zeros (``0-0``, ``0-0-0``), promotion
    without ``=`` (``e8Q``), a lower case promotion letter (``e8=q``, ``e8q``: it follows the
    target square, so it cannot be mistaken for the bishop's file), and trailing annotations
    ``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!`` (stripped). Piece letters must be upper case,
    since a lower case ``b`` names a file.

    Raises:
        MoveSyntaxError: the text is not a SAN move; the message is ``"<text>: <why>"``.
    """
    move = _san_cache.get(text)
    if move is None:
        move = _parse_san_uncached(text)
        if len(_san_cache) < _CACHE_LIMIT:
            _san_cache[text] = move
    return move


def _parse_san_uncached(text: str) -> SanMove:
    match = _SAN_RE.fullmatch(text)
    if match is None:
        raise MoveSyntaxError(f"{_shown(text)}: {_diagnose_san(text)}")
    check: CheckMark = "+" if match["check"] == "+" else "#" if match["check"] == "#" else ""
    castle = match["castle"]
    if castle is not None:
        side: Castle = "Q" if len(castle) == 5 else "K"
        return SanMove("K", None, None, False, None, None, side, check, text)
    to = SQUARE_INDEX[match["to"]]
    from_file = None if match["from_file"] is None else _FILE_LETTERS.index(match["from_file"])
    from_rank = None if match["from_rank"] is None else int(match["from_rank"]) - 1
    capture = match["capture"] is not None
    promotion = _promotion_letter(match["promotion"])
    letter = match["piece"]
    piece: Piece = _PIECES[letter] if letter is not None else "P"
    if letter == "P":  # a pawn written in full (Pe2d4): a taught pawn's move no shorter SAN can say
        reason = None if from_file is not None and from_rank is not None else _PAWN_LETTER
    elif piece == "P":
        reason = _pawn_problem(from_file, from_rank, capture, to, promotion)
    else:
        reason = None if promotion is None else "only a pawn promotes"
    if reason is not None:
        raise MoveSyntaxError(f"{_shown(text)}: {reason}")
    return SanMove(piece, from_file, from_rank, capture, to, promotion, None, check, text)


def _promotion_letter(letter: str | None) -> Promotion | None:
    return None if letter is None else _PROMOTIONS[letter]


def _pawn_problem(
    from_file: int | None,
    from_rank: int | None,
    capture: bool,
    to: int,
    promotion: Promotion | None,
) -> str | None:
    """Say what is wrong with a pawn move's shape, or None when it is well formed."""
    to_file, to_rank = to % 8, to // 8
    if from_rank is not None:
        return "a pawn move names only the file it comes from, never its rank"
    if capture and from_file is None:
        return "a pawn capture names the file the pawn comes from (e.g. dxe5)"
    if not capture and from_file is not None:
        return "a pawn names the file it comes from only when it captures (e.g. dxe5)"
    if from_file is not None and abs(from_file - to_file) != 1:
        return "a pawn captures diagonally, from a neighbouring file"
    # A pawn reaching its last rank must promote, but which rank is last is the mover's colour's
    # (and a taught pawn may reach its own first rank): the rules say so, not the syntax.
    last_rank = to_rank in (0, 7)
    if promotion is not None and not last_rank:
        return "a pawn promotes only on the first or eighth rank"
    return None


def _diagnose_san(text: str) -> str:
    """Explain why ``text`` failed the SAN regex (the slow path, only for errors)."""
    if not text:
        return "empty text is not a move"
    if text.upper() in NULL_MOVES:
        return "null moves are not standard chess"
    if "@" in text:
        return "piece drops are not standard chess"
    body = text.rstrip("!?")
    if len(text) - len(body) > 2:
        return "an annotation is at most two of ! and ? (e.g. !?)"
    if body.endswith(("++", "##", "+#", "#+")):
        return "a move ends with one check mark: + for check, # for mate"
    body = body.rstrip("+#")
    if _CASTLE_LIKE_RE.fullmatch(body):
        if "o" in body:
            return "castling is written with capital letters O (O-O, O-O-O)"
        return "not a castling move (write O-O or O-O-O)"
    rest, pawn = body, True
    if rest and rest[0].isupper():
        letter, rest, pawn = rest[0], rest[1:], False
        if letter == "P":
            return _PAWN_LETTER
        if letter not in _PIECE_LETTERS:
            return f"{letter} is not a piece letter (K, Q, R, B, N)"
    elif rest and rest[0] in "nrqk" and rest[0].upper() in _PIECE_LETTERS:
        return "piece letters are written in upper case (N, B, R, Q, K)"
    targets = list(_TARGET_RE.finditer(rest))
    if not targets:
        if set(body) <= _SAN_ALPHABET:
            return "the move has no target square"
        return "not a move in SAN (expected e.g. e4, Nf3, exd5, O-O, e8=Q)"
    target = targets[-1]
    if target.group() not in SQUARE_INDEX:
        return f"{target.group()} is not a square"
    prefix, suffix = rest[: target.start()], rest[target.end() :]
    if not _PREFIX_RE.fullmatch(prefix):
        return f"cannot read {prefix!r} before the target square {target.group()}"
    if suffix.startswith("="):
        suffix = suffix[1:]
        if not pawn:
            return "only a pawn promotes"
        if not suffix:
            return "'=' must be followed by the piece the pawn promotes to (e.g. e8=Q)"
    if pawn and len(suffix) == 1 and suffix.isalpha():
        if suffix.upper() in "KP":
            return f"a pawn cannot promote to a {'king' if suffix.upper() == 'K' else 'pawn'}"
        return f"{suffix} is not a piece a pawn promotes to (Q, R, B, N)"
    return f"cannot read {suffix!r} after the target square {target.group()}"


def _shown(text: str) -> str:
    """Keep error messages one readable line even when the bad text is long."""
    return text if len(text) <= 40 else text[:37] + "..."


def parse_uci(text: str) -> UciMove:
    """Parse a move in UCI form: ``e2e4``, ``e7e8q`` (promotion letter in either case).

    Raises:
        MoveSyntaxError: not a UCI move (null moves ``0000`` included), a move that stays on
            its square, or a promotion that does not land on the first or eighth rank.
    """
    match = _UCI_RE.fullmatch(text)
    if match is None:
        if text in NULL_MOVES:
            raise MoveSyntaxError(f"{_shown(text)}: null moves are not standard chess")
        raise MoveSyntaxError(
            f"{_shown(text)}: not a move in UCI form (expected e.g. e2e4 or e7e8q)"
        )
    from_square, to_square = SQUARE_INDEX[match[1]], SQUARE_INDEX[match[2]]
    if from_square == to_square:
        raise MoveSyntaxError(f"{text}: a move must leave its square")
    promotion = _promotion_letter(match[3])
    if promotion is not None and to_square // 8 not in (0, 7):
        raise MoveSyntaxError(f"{text}: a pawn promotes only on the first or eighth rank")
    return UciMove(from_square, to_square, promotion)


def uci_text(from_square: int, to_square: int, promotion: str | None = None) -> str:
    """Write a move in UCI form: ``uci_text(12, 28) == 'e2e4'``, ``(52, 60, 'Q') -> 'e7e8q'``.

    Raises:
        MoveSyntaxError: a square outside 0..63 or a promotion letter other than Q, R, B, N.
    """
    if not (0 <= from_square < 64 and 0 <= to_square < 64):
        raise MoveSyntaxError(f"squares {from_square}, {to_square}: squares run from 0 to 63")
    text = SQUARE_NAMES[from_square] + SQUARE_NAMES[to_square]
    if promotion is None:
        return text
    if promotion not in _PROMOTIONS:
        raise MoveSyntaxError(f"{text}: {promotion!r} is not a piece a pawn promotes to")
    return text + promotion.lower()

