"""Seeded positions in which pieces of both colours have learnt fairy geometries, for tests.

Each position is a valid FEN plus the squares whose pieces move as a named fairy piece; the set is
chosen so taught pieces give check, pin, attack the squares a castling king crosses, and are pinned.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from board.errors import FenError
from board.notation.fen import parse_fen
from board.rules.geometry import Geometry, geometry_named
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES
from tests.helpers.fairy_judge import CASTLES, Man, captures, in_check, king_square, read_setup

FAIRIES = ("archbishop", "chancellor", "amazon", "jumping-rook", "camel", "zebra", "nightrider", "mann")
THEMES = ("taught-check", "taught-pin", "castling-attacked", "taught-pinned", "any")
"""What a position shows: a taught piece gives check, pins a piece to its king, attacks a square
the castling king must cross, or is itself pinned ('any': none required)."""


@dataclass(frozen=True)
class TaughtPosition:
    """A FEN and, for each taught square, the name of the geometry its piece has learnt."""

    fen: str
    taught_names: dict[str, str]
    themes: frozenset[str]

    @property
    def taught(self) -> dict[str, Geometry]:
        """Square name -> the geometry the piece there moves by."""
        return {square: geometry_named(name) for square, name in self.taught_names.items()}


def _random_placement(rng: random.Random) -> tuple[dict[int, str], str, str, str]:
    """A placement (square -> FEN letter), the side to move, castling rights and en passant field."""
    men: dict[int, str] = {}
    rights = ""
    for colour, letters in ((0, "KQ"), (1, "kq")):
        home = 4 if colour == 0 else 60
        if rng.random() < 0.55:
            men[home] = "K" if colour == 0 else "k"
            for letter in letters:
                rook = SQUARE_INDEX[CASTLES[letter][2]]
                if rng.random() < 0.7:
                    men[rook] = "R" if colour == 0 else "r"
                    rights += letter
        else:
            men[rng.choice([s for s in range(64) if s not in men])] = "K" if colour == 0 else "k"
    turn = rng.choice("wb")
    passant = "-"
    if rng.random() < 0.2:
        passant = _place_en_passant(rng, men, turn)
    for colour in (0, 1):
        for _ in range(rng.randint(2, 6)):
            letter = rng.choice("qrrbbnnppp")
            low, high = (8, 56) if letter == "p" else (0, 64)
            free = [s for s in range(low, high) if s not in men]
            men[rng.choice(free)] = letter.upper() if colour == 0 else letter
    return men, turn, rights or "-", passant


def _place_en_passant(rng: random.Random, men: dict[int, str], turn: str) -> str:
    """A pawn that has just moved two, next to an enemy pawn that may take it in passing."""
    file = rng.randrange(8)
    rank, step = (4, 1) if turn == "w" else (3, -1)  # 0-based rank the moved pawn stands on
    pawn, skipped, origin = rank * 8 + file, (rank + step) * 8 + file, (rank + 2 * step) * 8 + file
    neighbours = [rank * 8 + f for f in (file - 1, file + 1) if 0 <= f < 8]
    if any(square in men for square in (pawn, skipped, origin, *neighbours)):
        return "-"
    men[pawn] = "p" if turn == "w" else "P"
    men[rng.choice(neighbours)] = "P" if turn == "w" else "p"
    return SQUARE_NAMES[skipped]


def _fen(men: dict[int, str], turn: str, rights: str, passant: str) -> str:
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            letter = men.get(rank * 8 + file)
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {turn} {rights} {passant} 0 1"


def _exposes(men: dict[int, Man], colour: int, lifted: int, attackers: set[int] | None) -> bool:
    """Whether lifting the piece on ``lifted`` lets an enemy (on ``attackers``, if given) reach the king."""
    king = king_square(colour, men)
    rest = {square: man for square, man in men.items() if square != lifted}
    return any(
        captures(man, origin, king, rest) and not captures(man, origin, king, men)
        for origin, man in rest.items()
        if man.colour != colour and (attackers is None or origin in attackers)
    )


def themes_of(fen: str, taught: dict[str, Geometry]) -> frozenset[str]:
    """Which of :data:`THEMES` the position shows for the side to move."""
    setup = read_setup(fen, taught)
    men, us = setup.men, setup.turn
    taught_squares = {SQUARE_INDEX[name] for name in taught}
    enemy_taught = {s for s in taught_squares if men[s].colour != us}
    found = {"any"}
    king = king_square(us, men)
    if any(captures(men[square], square, king, men) for square in enemy_taught):
        found.add("taught-check")
    for square, man in men.items():
        if man.colour != us or man.letter == "k":
            continue
        if _exposes(men, us, square, enemy_taught):
            found.add("taught-pin")
        if square in taught_squares and _exposes(men, us, square, None):
            found.add("taught-pinned")
    for letter in setup.castling:
        if letter.isupper() != (us == 0):
            continue
        king_from, king_to = (SQUARE_INDEX[name] for name in CASTLES[letter][:2])
        step = 1 if king_to > king_from else -1
        path = range(king_from, king_to + step, step)
        if any(captures(men[origin], origin, square, men) for origin in enemy_taught for square in path):
            found.add("castling-attacked")
    return frozenset(found)


def _candidate(rng: random.Random) -> TaughtPosition | None:
    men, turn, rights, passant = _random_placement(rng)
    fen = _fen(men, turn, rights, passant)
    try:
        parse_fen(fen)  # one king each, pawns off the edge ranks, rights backed, no check to the idle side
    except FenError:
        return None
    names: dict[str, str] = {}
    for colour in (0, 1):
        pieces = [s for s, letter in men.items() if letter.isupper() == (colour == 0) and letter not in "Kk"]
        for square in rng.sample(pieces, k=min(len(pieces), rng.randint(1, 2))):
            names[SQUARE_NAMES[square]] = rng.choice(FAIRIES)
    taught = {square: geometry_named(name) for square, name in names.items()}
    idle = 1 if turn == "w" else 0
    if in_check(idle, read_setup(fen, taught).men):
        return None  # the side that just moved cannot have left its king to a taught piece
    return TaughtPosition(fen, names, themes_of(fen, taught))


def taught_positions(seed: int, count: int = 200) -> list[TaughtPosition]:
    """``count`` varied positions with taught pieces of both colours, the same for the same seed.

    The positions cycle through :data:`THEMES`, each wanted theme searched for among up to a few
    hundred random candidates (falling back to any valid one if none shows it).
    """
    rng = random.Random(seed)
    found: list[TaughtPosition] = []
    for index in range(count):
        wanted = THEMES[index % len(THEMES)]
        fallback = None
        for candidate in _candidates(rng, 600):
            fallback = fallback or candidate
            if wanted in candidate.themes:
                found.append(candidate)
                break
        else:
            assert fallback is not None, "no valid candidate position in 600 tries"
            found.append(fallback)
    return found


def _candidates(rng: random.Random, tries: int) -> Iterator[TaughtPosition]:
    for _ in range(tries):
        candidate = _candidate(rng)
        if candidate is not None:
            yield candidate
