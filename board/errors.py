"""The project's error hierarchy: every error chess-actors raises on purpose.

All of them are ``ChessActorsError``s (and ``ValueError``s where the input was at fault), so a
caller can catch the whole family at once, or tell bad syntax from a bad move.
"""

from __future__ import annotations


class ChessActorsError(Exception):
    """Base class of every error this project raises deliberately."""


class InputError(ChessActorsError, ValueError):
    """Text or numbers from a user that cannot be understood (the CLI exits 2)."""


class SquareError(InputError):
    """A square name or coordinate that is malformed or off the board."""


class BoardSizeError(InputError):
    """A board size that is not ``N`` or ``WxH`` with positive whole numbers."""


class FenError(InputError):
    """A FEN string that does not describe a valid position; the message names the field."""


class BetzaError(InputError):
    """A Betza string a lesson cannot read; the message names the letter and its position."""


class MoveSyntaxError(InputError):
    """A move in SAN or UCI that cannot be parsed at all."""


class IllegalMoveError(ChessActorsError, ValueError):
    """A well-formed move that the rules do not allow in the position; ``reason`` says why."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"{move}: {reason}")
        self.move = move
        self.reason = reason

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[str, str]]:
        return type(self), (self.move, self.reason)


class AmbiguousMoveError(IllegalMoveError):
    """A SAN move that more than one piece could make."""


class PgnError(InputError):
    """Malformed or non-standard PGN, or PGN past one of the reader's limits.

    ``detail`` says what is wrong, ``line`` and ``column`` (1-based) where, ``token`` is the
    offending text as written ('' when there is none, e.g. at the end of the input) and
    ``source`` names the file when the reader was given its name. The message reads
    ``FILE:LINE:COL: detail`` with a source, ``line L, column C: detail`` without one.
    """

    def __init__(self, message: str, line: int, column: int, token: str = "",
                 source: str | None = None) -> None:
        where = f"{source}:{line}:{column}" if source is not None else f"line {line}, column {column}"
        super().__init__(f"{where}: {message}")
        self.line = line
        self.column = column
        self.detail = message
        self.token = token
        self.source = source

    @property
    def reason(self) -> str:
        """The detail without the offending token in front of it (the token is shown apart)."""
        prefix = f"{self.token}: "
        return self.detail[len(prefix):] if self.token and self.detail.startswith(prefix) else self.detail

    def __reduce__(self) -> tuple[type[PgnError], tuple[str, int, int, str, str | None]]:
        return type(self), (self.detail, self.line, self.column, self.token, self.source)
