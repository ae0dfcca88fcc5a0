"""Values carried inside messages: paths, probes, reports, roster entries, journal entries.

Squares are 0..63 (a1 = 0) and pieces are codes ``colour * 8 + kind`` (board.rules.pieces), as in board/.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from actors.protocol.names import Named
from board.rules.castling import RIGHT_LETTERS, STANDARD, CastlingTable, castling_table
from board.rules.declared_facts import Assessment, PathEntry, Probe, ProbeReport, Reach, Sighting

__all__ = [
    "STANDARD_LAYOUT",
    "Assessment",
    "CastleReport",
    "CastlingLayout",
    "GameState",
    "JournalEntry",
    "JournalMove",
    "PathEntry",
    "PieceReport",
    "PositionKey",
    "Probe",
    "ProbeReport",
    "Reach",
    "RejectionKind",
    "RosterEntry",
    "Sighting",
    "layout_of",
]

RejectionKind = Literal["illegal", "ambiguous", "syntax", "over", "stale"]
"""Why a proposal was refused: a move the rules refuse, one that fits several pieces, text that is no
move, a game already over, or a proposal tagged for another ply than the next (not judged at all)."""

PositionKey = tuple[bytes, int, int, int, tuple[tuple[int, str], ...]]
"""What makes two positions the same for repetition: placement, turn, castling rights, legal en passant,
and every piece's move function where it is not its kind's own (square, label)."""


@dataclass(frozen=True, slots=True, repr=False)
class PieceReport(Named):
    """The board's word on one piece of the kind a Survey asks about.

    ``path`` is the move to the target the piece declared (None if its declared reach has none);
    ``report`` is what the board sees along that path (None without a path).
    """

    name: str
    origin: int
    code: int
    path: PathEntry | None
    report: ProbeReport | None
    en_passant: bool = False


@dataclass(frozen=True, slots=True, repr=False)
class CastleReport(Named):
    """Castling's facts: who stands on the king's and the rook's squares (code and actor name; 0 and
    '' for nobody), a piece between them, who might reach the king now, and who might reach each
    square the king crosses on the position after castling."""

    king: tuple[int, str]
    rook: tuple[int, str]
    blocker: Sighting | None
    king_candidates: tuple[Sighting, ...]
    crossed_candidates: tuple[tuple[int, tuple[Sighting, ...]], ...]



@dataclass(frozen=True, slots=True, repr=False)
class RosterEntry(Named):
    """One piece on the board: where it stands, what it is, its actor's name, whether it has moved."""

    square: int
    code: int
    name: str
    has_moved: bool


@dataclass(frozen=True, slots=True, repr=False)
class JournalMove(Named):
    """An accepted move as the board applies it (the half of a journal entry that rebuilds the board)."""

    origin: int
    target: int
    promotion: int
    rook: tuple[int, int] | None
    victim: int
    ply: int


@dataclass(frozen=True, slots=True, repr=False)
class CastlingLayout(Named):
    """Where castling's king and rooks start: a fact of the game, fixed when it starts.

    ``rooks``: the square of each right's rook, in 'KQkq' order (-1: the game has no such right);
    ``kings``: each colour's king square; ``chess960``: castling is written as the king taking its
    own rook (UCI) and the FEN field as X-FEN, or as Shredder-FEN's file letters with ``shredder``.
    Standard chess is the default. :attr:`table` is board.rules.castling's table of the layout, whose rows
    give every castling square.
    """

    rooks: tuple[int, int, int, int] = (7, 0, 63, 56)
    kings: tuple[int, int] = (4, 60)
    chess960: bool = False
    shredder: bool = False

    @property
    def table(self) -> CastlingTable:
        """The castling table of this layout (one per layout, built once)."""
        if self is STANDARD_LAYOUT:  # read on every ply: standard chess skips hashing the layout
            return STANDARD
        return _table_of(self)


STANDARD_LAYOUT: Final = CastlingLayout()
"""Standard chess: kings on e1 and e8, rooks in the corners."""


@lru_cache(maxsize=256)
def _table_of(layout: CastlingLayout) -> CastlingTable:
    if layout == STANDARD_LAYOUT:
        return STANDARD
    rooks = tuple(None if square < 0 else square for square in layout.rooks)
    return castling_table(
        (rooks[0], rooks[1], rooks[2], rooks[3]), layout.kings, layout.chess960, layout.shredder
    )


def layout_of(table: CastlingTable) -> CastlingLayout:
    """The layout a castling table was built from (a position's, as board.notation.fen read it)."""
    if table is STANDARD:
        return STANDARD_LAYOUT
    rooks = [-1, -1, -1, -1]
    kings = [4, 60]
    for row in table.rows:
        rooks[RIGHT_LETTERS.index(row.letter)] = row.rook_from
        kings[row.colour] = row.king_from
    return CastlingLayout((rooks[0], rooks[1], rooks[2], rooks[3]), (kings[0], kings[1]), table.chess960,
                          table.shredder)


@dataclass(frozen=True, slots=True, repr=False)
class GameState(Named):
    """What a judge knows beside the placement: turn, castling rights, en passant, the clocks.

    ``castling`` holds the rights as bits of the ``layout``'s table (the game's castling layout, set
    when it starts: standard chess, or a Chess960 start).
    """

    turn: int
    castling: int
    en_passant: int
    halfmove: int
    fullmove: int
    legal_en_passant: int = -1
    layout: CastlingLayout = STANDARD_LAYOUT


@dataclass(frozen=True, slots=True, repr=False)
class JournalEntry(Named):
    """One accepted move: what was said about it, what the board did, the state and position it left."""

    uci: str
    san: str
    check: bool
    outcome: str | None
    move: JournalMove
    key: PositionKey
    state: GameState
