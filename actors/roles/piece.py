"""The piece actor: one per piece, owning its move function (board.geometry), as in the Erlang seed.

It answers from its geometry alone, never from the board: it knows its kind, colour, square and
whether it has moved (castling), and nothing else.

How you talk to me:
    MoveQuery(start, end, colour) -> Yes(kind, start, end, traversed, target_rule, onward) | No(reason)
    CastleQuery(side, square)     -> Yes(crossed squares) | No(reason)
    TargetsQuery(square)          -> Targets(square, paths)
    Moved(to), Resync(square, has_moved), Captured()   (tells, from the board / the supervisor)
"""

from __future__ import annotations

from functools import cache

from actors.kernel.actor import DEFAULT_TIMEOUT, TracedActor
from actors.protocol.messages import (
    Captured,
    CastleQuery,
    KnightPathQuery,
    KnightTourQuery,
    KnightWalk,
    Moved,
    MoveQuery,
    No,
    PathEntry,
    Resync,
    Targets,
    TargetsQuery,
    Yes,
)
from actors.tracing.recorder import TraceRecorder
from board.errors import ChessActorsError
from board.geometry import move_function
from board.pieces import COLOUR_NAMES, KIND_NAMES, KING, KNIGHT, ROOK
from board.squares import SQUARE_NAMES, coord_of, index_of


@cache
def geometric_paths(kind: int, colour: int, square: int) -> tuple[PathEntry, ...]:
    """Every move the move function allows from ``square`` on the 8x8 board (a piece's memory)."""
    start = coord_of(square)
    paths: list[PathEntry] = []
    for target in range(64):
        path = move_function(kind, colour, start, coord_of(target))
        if path is not None:
            paths.append((target, tuple(index_of(coord) for coord in path.traversed), path.target_rule))
    return tuple(paths)


@cache
def _path_index(kind: int, colour: int, square: int) -> dict[int, PathEntry]:
    return {entry[0]: entry for entry in geometric_paths(kind, colour, square)}


def castle_crossing(kind: int, side: str, square: int) -> tuple[int, ...]:
    """The squares a castling king or rook crosses (and lands on), nearest first."""
    if kind == KING:
        step = 1 if side == "K" else -1
        return (square + step, square + 2 * step)
    if side == "K":
        return (square - 1, square - 2)
    return (square + 1, square + 2, square + 3)


class PieceActor(TracedActor):
    """One chess piece. ``name`` is stable (colour-kind-birth square), the square changes."""

    def __init__(
        self,
        name: str,
        code: int,
        square: int,
        has_moved: bool,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        super().__init__(name, recorder, timeout)
        self.code = code
        self.kind = code & 7
        self.colour = code >> 3
        self.square = square
        self.has_moved = has_moved

    def handle(self, message: object) -> object:
        """What I do on each message."""
        match message:
            case MoveQuery(start=start, end=end, colour=colour):
                entry = _path_index(self.kind, colour, start).get(end)
                if entry is None:
                    reason = (
                        f"a {KIND_NAMES[self.kind]} cannot move from {SQUARE_NAMES[start]} "
                        f"to {SQUARE_NAMES[end]}"
                    )
                    return No(self.name, message.corr, reason)
                onward = geometric_paths(self.kind, colour, end)
                return Yes(self.name, message.corr, self.kind, start, end, entry[1], entry[2], onward)
            case CastleQuery(side=side, square=square):
                if self.kind not in (KING, ROOK):
                    return No(self.name, message.corr, f"a {KIND_NAMES[self.kind]} does not castle")
                if self.has_moved:
                    return No(self.name, message.corr, f"the {self.describe()} has moved")
                crossed = castle_crossing(self.kind, side, square)
                return Yes(
                    self.name, message.corr, self.kind, square, crossed[-1], crossed, "empty",
                    geometric_paths(self.kind, self.colour, crossed[-1]),
                )
            case TargetsQuery(square=square):
                paths = geometric_paths(self.kind, self.colour, square)
                return Targets(self.name, message.corr, square, paths)
            case Moved(to=to):
                self.square = to
                self.has_moved = True
                return None
            case Resync(square=square, has_moved=has_moved):
                self.square, self.has_moved = square, has_moved
                return None
            case Captured():
                self.stop()
                return None
            case KnightPathQuery() | KnightTourQuery():
                return self._knight_walk(message)
            case _:
                raise TypeError(f"{self.name} cannot handle {type(message).__name__}")

    def _knight_walk(self, message: KnightPathQuery | KnightTourQuery) -> KnightWalk | No:
        """The knight puzzles, answered from where this knight stands (board.knights does the work)."""
        if self.kind != KNIGHT:
            return No(self.name, message.corr, f"a {KIND_NAMES[self.kind]} answers no knight puzzles")
        from board.knights import index_names, knight_tour, shortest_path
        from board.squares import square_name

        start = coord_of(self.square)
        try:
            if isinstance(message, KnightPathQuery):
                walk = shortest_path(start, message.target, message.size)
            else:
                walk = knight_tour(message.size, start, closed=message.closed)
        except ChessActorsError as error:
            return KnightWalk(self.name, message.corr, None, None, str(error))
        if walk is None:
            target = square_name(message.target) if isinstance(message, KnightPathQuery) else ""
            return KnightWalk(self.name, message.corr, None, None, f"{target} is unreachable from here")
        width = message.size[0]
        names = index_names(((rank - 1) * width + file - 1 for file, rank in walk), *message.size)
        return KnightWalk(self.name, message.corr, len(walk) - 1, tuple(names))

    def describe(self) -> str:
        """'white king on e1'."""
        return f"{COLOUR_NAMES[self.colour]} {KIND_NAMES[self.kind]} on {SQUARE_NAMES[self.square]}"
