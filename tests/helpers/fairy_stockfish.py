"""Fairy-Stockfish (pyffish) as an oracle for pieces taught in Betza notation, for tests and benchmarks.

Each variant is standard chess with one kind of piece replaced by a piece written in Betza notation,
declared in Fairy-Stockfish's variant configuration; the engines here play the same game by teaching
every piece of that kind the same Betza string. pyffish is a test-only dependency: nothing in board/ or
actors/ imports it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pyffish

from board.games.game import Game
from board.notation.fen import STARTING_FEN


@dataclass(frozen=True)
class Variant:
    """Standard chess whose pieces of one kind (by FEN letter) move as ``betza``."""

    name: str
    letter: str
    betza: str

    @property
    def config(self) -> str:
        """The variant in Fairy-Stockfish's configuration format."""
        kind = {"n": "knight", "b": "bishop", "r": "rook", "q": "queen"}[self.letter]
        return f"[{self.name}:chess]\n{kind} = -\ncustomPiece1 = {self.letter}:{self.betza}\n"

    def lessons(self, fen: str = STARTING_FEN) -> dict[str, str]:
        """Every piece of the replaced kind in ``fen``, taught the Betza string."""
        lessons = {}
        for row, text in enumerate(fen.split()[0].split("/")):
            file = 0
            for char in text:
                if char.isdigit():
                    file += int(char)
                    continue
                if char.lower() == self.letter:
                    lessons[f"{'abcdefgh'[file]}{8 - row}"] = self.betza
                file += 1
        return lessons


VARIANTS = (
    Variant("betza-unicorn", "n", "NC"),  # a leaper of two atoms
    Variant("betza-zebra", "n", "Z"),
    Variant("betza-hawk", "n", "ADGH"),  # the far leapers, H and G included
    Variant("betza-nightrider", "n", "NN"),  # a rider by doubling
    Variant("betza-horse", "n", "nN"),  # lame leapers: the xiangqi horse
    Variant("betza-elephant", "b", "nA"),  # ... and the lame elephant
    Variant("betza-knibis", "n", "mNcB"),  # moves as a knight, captures as a bishop
    Variant("betza-moving-bishop", "b", "mBcF"),  # moves as a bishop, captures as a ferz
    Variant("betza-shogi-knight", "n", "fNbW"),  # directional: relative to the mover's colour
    Variant("betza-lance", "b", "fBbsW"),  # a forward-only rider with sideways and backward steps
    Variant("betza-wide-knight", "n", "fsNbF"),  # the two wide forward knight leaps
    Variant("betza-short-queen", "q", "W4B2"),  # riders with a range
)

_LOADED: set[str] = set()


def load() -> None:
    """Declare every variant to Fairy-Stockfish (once a process)."""
    missing = [variant for variant in VARIANTS if variant.name not in _LOADED]
    if missing:
        pyffish.load_variant_config("\n".join(variant.config for variant in missing))
        _LOADED.update(variant.name for variant in missing)


def oracle_moves(variant: Variant, moves: list[str], fen: str = STARTING_FEN) -> list[str]:
    """Fairy-Stockfish's legal moves (UCI) after ``moves`` from ``fen``."""
    found: list[str] = pyffish.legal_moves(variant.name, fen, moves)
    return found


def pairs(moves: list[str]) -> set[tuple[str, str]]:
    """The (from, to) squares of UCI moves."""
    return {(move[:2], move[2:4]) for move in moves}


@dataclass
class Ply:
    """One position of a random game: its FEN, the lessons standing then, both engines' moves."""

    fen: str
    lessons: dict[str, str]
    ours: set[tuple[str, str]]
    oracle: set[tuple[str, str]]


def random_game(variant: Variant, seed: int, plies: int) -> Iterator[Ply]:
    """A seeded random game of ``variant``, played on the direct engine and Fairy-Stockfish side by
    side, one :class:`Ply` a position (the position before each move, and the last one). Moves are
    drawn from Fairy-Stockfish's list, promotions to the replaced kind left out (a promoted pawn
    takes a standard kind here and the Betza piece there)."""
    rng = random.Random(seed)
    game = Game(STARTING_FEN, teach=variant.lessons())
    played: list[str] = []
    for _ in range(plies + 1):
        oracle = oracle_moves(variant, played)
        yield Ply(game.fen(), game.taught, pairs(game.legal_moves()), pairs(oracle))
        choices = [move for move in oracle if len(move) == 4 or move[4] != variant.letter]
        if not choices or game.ended() is not None:
            return
        move = rng.choice(choices)
        game.step(move)
        played.append(move)


def oracle_perft(variant: Variant, depth: int, moves: list[str] | None = None) -> int:
    """The leaf count of Fairy-Stockfish's legal move tree ``depth`` plies deep from the start."""
    moves = moves or []
    found = oracle_moves(variant, moves)
    if depth == 1:
        return len(found)
    return sum(oracle_perft(variant, depth - 1, [*moves, move]) for move in found)
