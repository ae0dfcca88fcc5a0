"""What a lab is checked on: real games, played by the direct engine ply by ply, and the moves the
rules refuse in positions taken from them.

The games are the package's own (``actors/data/labs.pgn``: 24 real games, with castling both ways,
en passant, promotion, checks and mates); the direct engine, which shares the rules core with the
actors, says what every ply must give.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from importlib import resources

from board.errors import IllegalMoveError, MoveSyntaxError
from board.games.game import Game
from board.notation.pgn import read_games
from board.rules.geometry import reach, standard
from board.rules.pieces import KIND_LETTERS, LAST_RANK, PAWN
from board.rules.squares import SQUARE_NAMES

__all__ = [
    "CastlingCase", "IllegalCase", "LabGame", "Ply", "castling_cases", "games", "illegal_cases",
    "sampled_illegal_cases",
]


@dataclass(frozen=True, slots=True)
class Ply:
    """One ply of a real game as the direct engine plays it: the position before, the move as
    written, its SAN, and the position after (FEN)."""

    game: int
    number: int
    fen_before: str
    move: str
    san: str
    fen_after: str


@dataclass(frozen=True, slots=True)
class LabGame:
    """A real game: its number in the corpus, its players, and its plies."""

    number: int
    title: str
    plies: tuple[Ply, ...]

    @property
    def start_fen(self) -> str:
        """The position the game starts from."""
        return self.plies[0].fen_before


@dataclass(frozen=True, slots=True)
class IllegalCase:
    """A move the rules refuse in a position of a real game (UCI), and the engine's reason."""

    fen: str
    move: str
    reason: str


@dataclass(frozen=True, slots=True)
class CastlingCase:
    """Castling proposed in a position of a real game where the side to move still holds that right:
    the SAN and position the engine gives when it is legal, else its reason."""

    fen: str
    move: str
    san: str | None
    fen_after: str | None
    reason: str | None


@functools.cache
def games() -> tuple[LabGame, ...]:
    """The corpus's games, each played by the direct engine (a game stops at its end)."""
    text = resources.files("actors").joinpath("data", "labs.pgn").read_text(encoding="utf-8")
    found = []
    for number, pgn in enumerate(read_games(text.splitlines(), name="labs.pgn"), start=1):
        game = Game(pgn.tags.get("FEN", "startpos"))
        plies = []
        for index, token in enumerate(pgn.moves, start=1):
            before = game.fen()
            played = game.play(token.text)
            plies.append(Ply(number, index, before, token.text, played.san, game.fen()))
        tags = pgn.tags
        title = f"{tags.get('White', '?')} - {tags.get('Black', '?')}, {tags.get('Date', '?')[:4]}"
        found.append(LabGame(number, title, tuple(plies)))
    return tuple(found)


def _refused(game: Game, move: str) -> str | None:
    try:
        game.play(move, want_san=False)
    except (IllegalMoveError, MoveSyntaxError) as error:
        return str(error)
    return None


@functools.cache
def illegal_cases(every: int) -> tuple[IllegalCase, ...]:
    """Moves the rules refuse: in the position before every ``every``-th ply of each game, each move
    a piece of the side to move could make by its geometry alone that is not legal (a pawn reaching
    the last rank promotes to a queen), and the promotions written wrong: a pawn's move to the last
    rank with no promotion, another piece's move to that rank with one."""
    cases = []
    for lab_game in games():
        for ply in lab_game.plies[::every]:
            position = Game(ply.fen_before)
            legal = set(position.legal_moves())
            squares = position.position.squares
            colour = position.position.turn
            for square, code in enumerate(squares):
                if not code or code >> 3 != colour:
                    continue
                for target, _, _ in reach(standard(code & 7), colour, square):
                    move = SQUARE_NAMES[square] + SQUARE_NAMES[target]
                    moves = [move]
                    if target >> 3 == LAST_RANK[colour]:
                        queen = move + KIND_LETTERS[5].lower()
                        moves = [queen, move] if code & 7 == PAWN else [move, queen]
                    for written in moves:
                        if written in legal:
                            continue
                        reason = _refused(Game(ply.fen_before), written)
                        if reason is not None:
                            cases.append(IllegalCase(ply.fen_before, written, reason))
    return tuple(cases)


_SQUARES_AND_SIDES = re.compile(r"\b[a-h][1-8]\b|\bwhite\b|\bblack\b")


def _kind_of_refusal(reason: str) -> str:
    """A refusal's reason without its squares and sides: 'the rook on  is blocked by the pawn on '."""
    return _SQUARES_AND_SIDES.sub("", reason.split(": ", 1)[-1])


@functools.cache
def sampled_illegal_cases(per_kind: int, every: int) -> tuple[IllegalCase, ...]:
    """Illegal moves from the position before every ``every``-th ply, at most ``per_kind`` of each
    kind of refusal (a blocked rook, an own piece on the target, a pin, a king walking into
    check...), so that the rare refusals weigh as much as the common ones."""
    taken: Counter[str] = Counter()
    chosen = []
    for case in illegal_cases(every):
        kind = _kind_of_refusal(case.reason)
        if taken[kind] < per_kind:
            taken[kind] += 1
            chosen.append(case)
    return tuple(chosen)


@functools.cache
def castling_cases(every: int) -> tuple[CastlingCase, ...]:
    """O-O and O-O-O in the position before every ``every``-th ply of each game where the side to
    move still holds that right (and before every castling the games play, and wherever castling is
    refused for an attacked king or square), refused ones first in each position."""
    cases = []
    for lab_game in games():
        for ply in lab_game.plies:
            if ply.number % every and not ply.san.startswith("O-O") and not _attacked(ply.fen_before):
                continue
            rights = ply.fen_before.split()[2]
            white = ply.fen_before.split()[1] == "w"
            found = []
            for move, letter in (("O-O", "K"), ("O-O-O", "Q")):
                if (letter if white else letter.lower()) not in rights:
                    continue
                legal = _castling(ply.fen_before, move)
                found.append(legal)
                if legal.san is not None:  # the same position without that right: refused for want of it
                    fields = ply.fen_before.split()
                    fields[2] = rights.replace(letter if white else letter.lower(), "") or "-"
                    cases.append(_castling(" ".join(fields), move))
            cases.extend(sorted(found, key=lambda case: case.san is not None))
    return tuple(dict.fromkeys(cases))


@functools.cache
def _attacked(fen: str) -> bool:
    """Whether the side to move holds a castling right that an attacked king or square refuses."""
    return any(case.reason is not None and ("check" in case.reason or "attacked" in case.reason)
               for case in (_castling(fen, move) for move in ("O-O", "O-O-O")))


def _castling(fen: str, move: str) -> CastlingCase:
    game = Game(fen)
    try:
        played = game.play(move)
    except IllegalMoveError as error:
        return CastlingCase(fen, move, None, None, str(error))
    return CastlingCase(fen, move, played.san, game.fen(), None)
