"""What the PGN reader hands out: games, their mainline move tokens, and the limits it keeps.

Plain value types shared by the lexer (board.notation.pgn_lexer) and the public reader (board.notation.pgn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

from board.errors import PgnError

RESULTS: Final[frozenset[str]] = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
"""The game-termination markers of PGN."""


@dataclass(frozen=True, slots=True)
class PgnLimits:
    """How much of one thing the reader accepts; past a limit the game gets an error naming it.

    Real games are far inside every one of these (the longest games played are under 600 plies,
    annotated ones a few tens of kilobytes), so they only stop input that would otherwise take
    memory or time without bound. Lines have no limit: they are read in pieces of
    ``piece_bytes`` (board.notation.pgn.read_games), so a line of any length costs constant memory.
    """

    game_bytes: int = 1 << 20
    """Bytes (characters, for text input) from a game's first line to its end."""
    plies: int = 8_000
    """Mainline moves in one game."""
    tag_value: int = 1 << 16
    """Characters in one tag value."""
    token: int = 255
    """Characters in one movetext token (a move, a move number, a NAG)."""
    comment: int = 1 << 18
    """Characters in one ``{}`` comment."""
    piece_bytes: int = 1 << 20
    """The longest piece of a line the byte-level readers hand over at once."""


LIMITS: Final = PgnLimits()
"""The limits every reader uses unless given others."""


class MoveToken(NamedTuple):
    """One mainline move as written (annotations such as ``!?`` stripped) and where it stands.

    ``line`` and ``column`` are 1-based; a tab counts as one column, and columns count the
    characters of the line as decoded.
    """

    text: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class PgnGame:
    """One game as read from PGN text: tags, mainline moves, result, and the first error.

    ``number`` counts games from 1 in the stream; ``tags`` keeps the order of appearance (a
    repeated name keeps its first place and its last value); ``result`` is the termination
    marker found in the movetext (None when missing), which may differ from the Result tag;
    ``first_line`` is where the game starts; ``source`` names the file it came from (None when
    the caller gave no name). When ``error`` is set, ``moves`` holds the moves before the error,
    so a replay plays them and reports the error at the next ply.
    """

    number: int
    tags: dict[str, str]
    moves: tuple[MoveToken, ...]
    result: str | None
    first_line: int
    error: PgnError | None
    source: str | None = None
