"""A piece actor as the client talks to it directly, and the lessons a piece can be taught.

The handle asks through its game (so a closed game refuses at once); see :class:`PieceHandle`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from actors.protocol.piece import (
    Answer,
    KnightPathQuery,
    KnightTourQuery,
    KnightWalk,
    Learned,
    MoveQuery,
    Targets,
    TargetsQuery,
)
from board.errors import InputError
from board.rules.geometries import Geometry, geometry_named, user_geometry
from board.rules.squares import SQUARE_NAMES, parse_size, parse_square, parse_standard_square

if TYPE_CHECKING:
    from actors.client.game import ActorGame

Teachable = Geometry | str | Callable[[tuple[int, int], tuple[int, int]], object]
"""What a piece can learn: a geometry, the name of one ('archbishop', 'knight', ...), or a function
``(start, end) -> None | (target, traversed)`` on (file, rank) pairs (see board.rules.geometries)."""


def as_geometry(lesson: Teachable) -> Geometry:
    """The geometry a lesson stands for.

    Raises:
        InputError: an unknown name, or something that is neither a geometry, a name nor a function.
    """
    if isinstance(lesson, Geometry):
        return lesson
    if isinstance(lesson, str):
        return geometry_named(lesson)
    if callable(lesson):
        return user_geometry(lesson, getattr(lesson, "__name__", "a function"))
    raise InputError(f"cannot learn {lesson!r}: give a geometry, its name, or a move function")


class PieceHandle:
    """A piece actor, to talk to directly (the seed's ``Bishop ! {move, Start, End, Colour}``)."""

    def __init__(self, game: ActorGame, name: str, square: int, code: int) -> None:
        self.game = game
        self.name = name
        self.square = square
        self.code = code

    def __repr__(self) -> str:
        return f"<PieceHandle {self.name} on {SQUARE_NAMES[self.square]}>"

    def move_query(self, start: str, end: str, colour: int | None = None) -> Answer:
        """Ask the piece whether its move function allows start -> end (square names).

        ``colour`` defaults to the piece's own. A piece asked about a square it does not stand on,
        or for the other colour, says no.
        """
        own = self.code >> 3
        message = MoveQuery(
            parse_standard_square(start), parse_standard_square(end), own if colour is None else colour
        )
        reply: Answer = self.game.ask(self.name, message)
        return reply

    def learn(self, lesson: Teachable) -> Learned:
        """Teach the piece another move function; the referee's verdicts follow it from the next move.

        A function that raises or answers nonsense only from a square the piece reaches later
        answers no from there: the piece has no move from that square, and the game goes on.

        Raises:
            InputError: the lesson is unknown, or the function raised or answered nonsense (the piece
                keeps its old move function and the game goes on unchanged).
        """
        return self.game.teach(self.name, as_geometry(lesson))

    def knight_path(self, target: str, size: str = "8") -> KnightWalk:
        """Ask a knight for a shortest path from where it stands to ``target`` (size ``N`` or ``WxH``)."""
        board_size = parse_size(size)
        reply: KnightWalk = self.game.ask(
            self.name, KnightPathQuery(parse_square(target, board_size), board_size)
        )
        return reply

    def knight_tour(self, size: str = "8", closed: bool = False) -> KnightWalk:
        """Ask a knight for a knight's tour of a ``size`` board from where it stands."""
        reply: KnightWalk = self.game.ask(self.name, KnightTourQuery(parse_size(size), closed))
        return reply

    def targets(self) -> Targets:
        """Every move the piece's geometry allows from where it stands."""
        reply: Targets = self.game.ask(self.name, TargetsQuery())
        return reply
