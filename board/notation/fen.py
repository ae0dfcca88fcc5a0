"""Reading and writing FEN, with errors that name the field at fault and why.

A FEN is accepted only if it describes a position that could be on a board: one king each, no
pawn on the first or last rank, castling rights backed by king and rook at home, an en passant
square behind a pawn that just moved two, and the side not to move not in check. A lenient parse
(``strict=False``) takes any placement, as ChessMoveQ's position-only questions need.
"""

from __future__ import annotations

from typing import Final

from board.errors import FenError
from board.numbers import whole_number
from board.rules.bitboards import BIT
from board.rules.castling import BY_LETTER, STANDARD, CastlingTable, castling_table
from board.rules.fen_text import format_fen
from board.rules.movegen import is_attacked, legal_en_passant
from board.rules.pieces import BLACK, KING, PAWN, ROOK, WHITE
from board.rules.position import Position
from board.rules.squares import FILE_LETTERS, SQUARE_INDEX, SQUARE_NAMES

STARTING_FEN: Final = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_LETTERS: Final = {letter: kind for kind, letter in enumerate(" pnbrqk") if kind}
_ALIASES: Final = {"startpos": STARTING_FEN, "start": STARTING_FEN}
_NO_CASTLING_960: Final = castling_table((None, None, None, None), (4, 60), chess960=True)


def parse_fen(text: str, *, strict: bool = True, chess960: bool | None = False) -> Position:
    """Build a position from FEN (``startpos`` names the initial position).

    The halfmove clock and fullmove number may be left out (they default to 0 and 1). With
    ``strict=False`` the placement need not be a chess position: any number of kings (none too),
    pawns on any rank, more than 16 pieces a side, the side not to move in check. The syntax of every
    field, and the castling and en passant fields' agreement with the placement, are still checked.

    The castling field may be standard ('KQkq'), X-FEN or Shredder-FEN. With ``chess960=False``
    (the default) K and Q mean the rooks of standard chess, and file letters (Shredder-FEN, or X-FEN's
    letter for an inner rook) make the position Chess960; with ``chess960=True`` the position is
    Chess960 and K and Q mean the outermost rook on that side of the king (X-FEN); with ``None``
    a field that standard chess refuses is read as X-FEN.

    Args:
        text: the FEN, or ``startpos``.
        strict: refuse placements that no chess game can reach (see above).

    Returns:
        A new position.

    Raises:
        FenError: the FEN is malformed or the position impossible; the message says which field.
    """
    text = _ALIASES.get(text.strip(), text)
    fields = text.split()
    if len(fields) not in (4, 6):
        raise FenError(
            f"FEN {text!r} has {len(fields)} fields; expected 6 (placement, side, castling, "
            "en passant, halfmove clock, fullmove number), or 4 without the clocks"
        )
    position = Position()
    _parse_placement(position, fields[0])
    if strict:
        _check_plausible(position)
    if fields[1] not in ("w", "b"):
        raise FenError(f"FEN side to move {fields[1]!r} is not w or b")
    position.turn = WHITE if fields[1] == "w" else BLACK
    position.castling, position.castling_table = _parse_castling(position, fields[2], chess960)
    position.en_passant = _parse_en_passant(position, fields[3])
    if len(fields) == 6:
        position.halfmove = _parse_counter(fields[4], "halfmove clock", minimum=0)
        position.fullmove = _parse_counter(fields[5], "fullmove number", minimum=1)
    mover = position.turn
    if strict and is_attacked(position, mover, position.kings[mover ^ 1]):
        side = "black" if mover == WHITE else "white"
        raise FenError(f"FEN position is impossible: {side}, not to move, is in check")
    return position


def _parse_placement(position: Position, placement: str) -> None:
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise FenError(f"FEN placement {placement!r} has {len(ranks)} ranks; expected 8")
    for row, rank_text in enumerate(ranks):
        rank = 7 - row
        file = 0
        previous_digit = False
        for char in rank_text:
            if char.isdigit() and char not in "09":
                if previous_digit:
                    raise FenError(f"FEN placement: rank {rank + 1} ({rank_text!r}) has two counts in a row")
                file += int(char)
            elif char.lower() in _LETTERS:
                if file < 8:
                    colour = WHITE if char.isupper() else BLACK
                    position.put(rank * 8 + file, colour * 8 + _LETTERS[char.lower()])
                file += 1
            else:
                raise FenError(f"FEN placement: rank {rank + 1} has {char!r}, not a piece or count")
            previous_digit = char.isdigit()
        if file != 8:
            raise FenError(f"FEN placement: rank {rank + 1} ({rank_text!r}) covers {file} squares, not 8")


def _check_plausible(position: Position) -> None:
    """One king a side, at most 8 pawns and 16 pieces a side, no pawn on the first or last rank."""
    for colour, name in ((WHITE, "white"), (BLACK, "black")):
        kings = position.bitboards[colour * 8 + KING].bit_count()
        if kings != 1:
            raise FenError(f"FEN placement has {kings} {name} kings; expected exactly 1")
        pawns = position.bitboards[colour * 8 + PAWN]
        if pawns.bit_count() > 8:
            raise FenError(f"FEN placement has {pawns.bit_count()} {name} pawns; at most 8")
        if position.occupancy[colour].bit_count() > 16:
            raise FenError(
                f"FEN placement has {position.occupancy[colour].bit_count()} {name} pieces; at most 16"
            )
        stray = pawns & (0xFF | 0xFF << 56)
        if stray:
            square = SQUARE_NAMES[stray.bit_length() - 1]
            raise FenError(f"FEN placement has a {name} pawn on {square}, on the first or last rank")


def _parse_castling(position: Position, field: str, chess960: bool | None) -> tuple[int, CastlingTable]:
    """The rights and the castling table of a FEN castling field (see :func:`parse_fen`)."""
    if field == "-":
        return 0, _NO_CASTLING_960 if chess960 else STANDARD
    for letter in field:
        if letter not in BY_LETTER and letter.lower() not in FILE_LETTERS:
            raise FenError(
                f"FEN castling field {field!r}: {letter!r} is not one of {', '.join(BY_LETTER)} "
                "(or - alone), nor a Chess960 rook's file letter (A-H, a-h)"
            )
    files = [letter for letter in field if letter not in BY_LETTER]
    if not files:
        _check_order(field)
    if chess960 or files:
        return _parse_chess960_castling(position, field, shredder=len(files) == len(field))
    try:
        return _parse_standard_castling(position, field), STANDARD
    except FenError:
        if chess960 is None:
            try:
                return _parse_chess960_castling(position, field, shredder=False)
            except FenError:
                pass
        raise


def _check_order(field: str) -> None:
    rights = 0
    for letter in field:
        right = BY_LETTER[letter].right
        if right <= rights:
            raise FenError(
                f"FEN castling field {field!r}: {letter!r} is repeated or out of order "
                f"(expected a subset of {''.join(BY_LETTER)} in that order)"
            )
        rights |= right


def _parse_standard_castling(position: Position, field: str) -> int:
    rights = 0
    for letter in field:
        castling = BY_LETTER[letter]
        colour, king_home, rook_square = castling.colour, castling.king_from, castling.rook_from
        if position.squares[king_home] != colour * 8 + KING:
            raise FenError(f"FEN castling right {letter!r} but the king is not on {SQUARE_NAMES[king_home]}")
        if position.squares[rook_square] != colour * 8 + ROOK:
            raise FenError(f"FEN castling right {letter!r} but no rook on {SQUARE_NAMES[rook_square]}")
        rights |= castling.right
    return rights


def _parse_chess960_castling(position: Position, field: str, shredder: bool) -> tuple[int, CastlingTable]:
    """Read X-FEN (K/Q: the outermost rook on that side; a file letter: the rook on that file) or
    Shredder-FEN (file letters only): each right's rook, and the king between the rooks."""
    rooks: list[int | None] = [None, None, None, None]
    kings = [-1, -1]
    for letter in field:
        colour = WHITE if letter.isupper() else BLACK
        colour_name = "white" if colour == WHITE else "black"
        home = 0 if colour == WHITE else 56
        king = position.kings[colour]
        if not home <= king < home + 8:
            raise FenError(
                f"FEN castling right {letter!r} but the {colour_name} king is not on its back rank"
            )
        rook = colour * 8 + ROOK
        if letter in BY_LETTER:
            side = BY_LETTER[letter].side
            files = range(7, king - home, -1) if side == "K" else range(0, king - home)
            square = next((home + file for file in files if position.squares[home + file] == rook), None)
            if square is None:
                raise FenError(
                    f"FEN castling right {letter!r} but no {colour_name} rook on the "
                    f"{'kingside' if side == 'K' else 'queenside'} of the king on {SQUARE_NAMES[king]}"
                )
        else:
            square = home + FILE_LETTERS.index(letter.lower())
            if position.squares[square] != rook:
                raise FenError(
                    f"FEN castling right {letter!r} but no {colour_name} rook on {SQUARE_NAMES[square]}"
                )
            side = "K" if square > king else "Q"
        order = colour * 2 + (0 if side == "K" else 1)
        if rooks[order] is not None:
            raise FenError(
                f"FEN castling field {field!r}: {letter!r} repeats the {colour_name} {side}-side right"
            )
        rooks[order], kings[colour] = square, king
    table = castling_table(
        (rooks[0], rooks[1], rooks[2], rooks[3]),
        (kings[WHITE] if kings[WHITE] >= 0 else 4, kings[BLACK] if kings[BLACK] >= 0 else 60),
        chess960=True,
        shredder=shredder,
    )
    return sum(1 << order for order, rook in enumerate(rooks) if rook is not None), table


def _parse_en_passant(position: Position, field: str) -> int:
    if field == "-":
        return -1
    square = SQUARE_INDEX.get(field)
    expected_rank = 6 if position.turn == WHITE else 3
    if square is None or square // 8 + 1 != expected_rank:
        raise FenError(
            f"FEN en passant square {field!r} must be '-' or a square on rank "
            f"{expected_rank} with {'white' if position.turn == WHITE else 'black'} to move"
        )
    mover = position.turn
    pawn_square = square - 8 if mover == WHITE else square + 8
    origin = square + 8 if mover == WHITE else square - 8
    if position.squares[pawn_square] != (mover ^ 1) * 8 + PAWN or (
        position.occupancy[0] | position.occupancy[1]
    ) & (BIT[square] | BIT[origin]):
        raise FenError(
            f"FEN en passant square {field}: no pawn just moved two squares past it "
            f"(a {'black' if mover == WHITE else 'white'} pawn on {SQUARE_NAMES[pawn_square]}, "
            f"with {field} and {SQUARE_NAMES[origin]} empty)"
        )
    return square


def _parse_counter(field: str, name: str, minimum: int) -> int:
    if not (field.isdigit() and field.isascii()) or whole_number(field, f"FEN {name}", FenError) < minimum:
        raise FenError(f"FEN {name} {field!r} is not a whole number >= {minimum}")
    return int(field)


def write_fen(position: Position) -> str:
    """The FEN of a position; the en passant square appears only when that capture is legal.

    Args:
        position: any position (not changed).

    Returns:
        The six fields, separated by single spaces.
    """
    return format_fen(position.squares, position.turn, position.castling, legal_en_passant(position),
                      position.halfmove, position.fullmove, position.castling_table)
