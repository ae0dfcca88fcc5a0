"""A brute-force judge of legal moves when pieces have learnt other geometries, for tests.

Written from the rules of chess, apart from the engine's move generator and judge: every move each
piece's geometry allows, then the king's safety tried by making the move and looking again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from board.rules.geometry import Geometry, standard
from board.rules.pieces import KIND_BY_LETTER
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES, coord_of

PROMOTION_LETTERS = "qrbn"


@dataclass(frozen=True)
class Man:
    """A piece on the board: its colour (0 white, 1 black), its FEN letter in lower case, its geometry."""

    colour: int
    letter: str
    geometry: Geometry


@dataclass(frozen=True)
class Setup:
    """What a FEN says, with each piece's geometry attached."""

    men: dict[int, Man]
    turn: int
    castling: str
    en_passant: int


# Castling, spelled out here from the rules rather than taken from the engine's table:
# FEN letter -> king from, king to, rook from, rook to (all on the mover's first rank).
CASTLES = {
    "K": ("e1", "g1", "h1", "f1"),
    "Q": ("e1", "c1", "a1", "d1"),
    "k": ("e8", "g8", "h8", "f8"),
    "q": ("e8", "c8", "a8", "d8"),
}


def read_setup(fen: str, taught: Mapping[str, Geometry]) -> Setup:
    """The pieces of ``fen`` with their geometries: taught ones from ``taught``, the rest standard."""
    placement, side, castling, passant = fen.split()[:4]
    men: dict[int, Man] = {}
    for row, text in enumerate(placement.split("/")):
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
                continue
            square = (7 - row) * 8 + file
            name = SQUARE_NAMES[square]
            geometry = taught.get(name) or standard(KIND_BY_LETTER[char.upper()])
            men[square] = Man(0 if char.isupper() else 1, char.lower(), geometry)
            file += 1
    unknown = set(taught) - {SQUARE_NAMES[square] for square in men}
    if unknown:
        raise ValueError(f"taught squares {sorted(unknown)} hold no piece in {fen}")
    en_passant = SQUARE_INDEX[passant] if passant != "-" else -1
    return Setup(men, 0 if side == "w" else 1, castling if castling != "-" else "", en_passant)


def captures(man: Man, origin: int, target: int, men: Mapping[int, Man]) -> bool:
    """Whether ``man`` on ``origin`` could capture on ``target`` (the squares between empty)."""
    path = man.geometry.moves(man.colour, coord_of(origin), coord_of(target))
    if path is None or path.target_rule == "empty":
        return False
    return all(SQUARE_INDEX[_name(step)] not in men for step in path.traversed)


def _name(coord: tuple[int, int]) -> str:
    return SQUARE_NAMES[(coord[1] - 1) * 8 + coord[0] - 1]


def attacked(square: int, by: int, men: Mapping[int, Man]) -> bool:
    """Whether any piece of colour ``by`` could capture on ``square``."""
    return any(
        man.colour == by and captures(man, origin, square, men)
        for origin, man in men.items()
        if origin != square
    )


def king_square(colour: int, men: Mapping[int, Man]) -> int:
    """Where ``colour``'s king stands (-1: it has none)."""
    return next((square for square, man in men.items() if man.colour == colour and man.letter == "k"), -1)


def in_check(colour: int, men: Mapping[int, Man]) -> bool:
    """Whether ``colour``'s king is attacked."""
    king = king_square(colour, men)
    return king >= 0 and attacked(king, colour ^ 1, men)


def _pseudo_moves(setup: Setup) -> list[tuple[int, int, str, bool]]:
    """(origin, target, promotion letter, en passant) for every move geometry and occupancy allow."""
    men, us = setup.men, setup.turn
    found: list[tuple[int, int, str, bool]] = []
    for origin, man in men.items():
        if man.colour != us:
            continue
        for target in range(64):
            if target == origin:
                continue
            path = man.geometry.moves(us, coord_of(origin), coord_of(target))
            if path is None or any(SQUARE_INDEX[_name(step)] in men for step in path.traversed):
                continue
            victim = men.get(target)
            if victim is not None and (victim.colour == us or victim.letter == "k"):
                continue  # one's own piece, or a king: a king is never captured
            en_passant = False
            if path.target_rule == "empty" and victim is not None:
                continue
            if path.target_rule == "enemy" and victim is None:
                if not (man.letter == "p" and target == setup.en_passant):
                    continue
                en_passant = True
            last_rank = 7 if us == 0 else 0
            if man.letter == "p" and target // 8 == last_rank:
                found.extend((origin, target, letter, False) for letter in PROMOTION_LETTERS)
            else:
                found.append((origin, target, "", en_passant))
    return found


def after(setup: Setup, origin: int, target: int, promotion: str, en_passant: bool) -> dict[int, Man]:
    """The men once origin -> target is made (a castling king's rook moves too)."""
    men = dict(setup.men)
    man = men.pop(origin)
    if en_passant:
        del men[target - 8 if man.colour == 0 else target + 8]
    if promotion:
        # A promoted piece moves as its new kind, whatever the pawn had learnt.
        man = Man(man.colour, promotion, standard(KIND_BY_LETTER[promotion.upper()]))
    men[target] = man
    return men


def _castlings(setup: Setup) -> list[tuple[int, int, int, int]]:
    """(king from, king to, rook from, rook to) of each castling the rules allow now."""
    men, us = setup.men, setup.turn
    allowed = []
    for letter in setup.castling:
        if (letter.isupper()) != (us == 0):
            continue
        king_from, king_to, rook_from, rook_to = (SQUARE_INDEX[name] for name in CASTLES[letter])
        king, rook = men.get(king_from), men.get(rook_from)
        if king is None or rook is None or king.letter != "k" or rook.letter != "r":
            continue  # the FEN promised them; a position that breaks the promise grants nothing
        low, high = sorted((king_from, rook_from))
        if any(square in men for square in range(low + 1, high)):
            continue
        step = 1 if king_to > king_from else -1
        path = [king_from, *range(king_from + step, king_to + step, step)]
        if any(attacked(square, us ^ 1, men) for square in path):
            continue
        allowed.append((king_from, king_to, rook_from, rook_to))
    return allowed


def legal_moves(fen: str, taught: Mapping[str, Geometry] | None = None) -> set[str]:
    """Every legal move in ``fen`` as UCI, when the pieces on ``taught``'s squares move as taught."""
    setup = read_setup(fen, taught or {})
    us = setup.turn
    moves = set()
    for origin, target, promotion, en_passant in _pseudo_moves(setup):
        if not in_check(us, after(setup, origin, target, promotion, en_passant)):
            moves.add(SQUARE_NAMES[origin] + SQUARE_NAMES[target] + promotion)
    for king_from, king_to, rook_from, rook_to in _castlings(setup):
        men = after(setup, king_from, king_to, "", False)
        men[rook_to] = men.pop(rook_from)
        if not in_check(us, men):  # the rook's move could in principle open a line to the king
            moves.add(SQUARE_NAMES[king_from] + SQUARE_NAMES[king_to])
    return moves
