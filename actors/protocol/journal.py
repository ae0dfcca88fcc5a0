"""Messages the journal receives: the record of a game that outlives any of its actors.

How you talk to the journal (the client records what the referee accepted; the referee and the
supervisor read it when they rebuild):
    Record(entries)            tell: append accepted moves, in order
    RecordTeaching(teaching)   tell, from the piece itself: its move function changed (a lesson, a
                               promotion)
    RecordStart(key, outcome)  tell: the starting position's key and how the game stood there
    Reset(start_state, key, outcome)  tell: forget the game; a new one starts there (a pooled
                               system's next game, told by its referee as it begins)
    JournalQuery(since)        -> JournalEntries
"""

from __future__ import annotations

from dataclasses import dataclass

from actors.kernel.messaging import Request
from actors.protocol.names import Named
from actors.protocol.values import GameState, JournalEntry, PositionKey
from board.rules.geometry import Geometry


@dataclass(frozen=True, slots=True, repr=False)
class Teaching(Named):
    """The piece called ``name`` moves by ``geometry`` from now on, told after its ``promotions``-th
    promotion (0: a pawn never promoted, or any other piece): a rebuilt piece takes the last of its
    teachings made at the number of promotions the journal's moves give it, so a lesson a promotion
    replaced is not restored, nor a promotion the journal never recorded."""

    name: str
    geometry: Geometry
    promotions: int = 0


@dataclass(frozen=True, slots=True, repr=False)
class Record(Named):
    """Append these accepted moves (a tell); ``first_ply`` is the ply of the first, to drop repeats."""

    first_ply: int
    entries: tuple[JournalEntry, ...]


@dataclass(frozen=True, slots=True, repr=False)
class RecordTeaching(Named):
    """Remember that a piece learnt a move function (a tell)."""

    teaching: Teaching


@dataclass(frozen=True, slots=True, repr=False)
class RecordStart(Named):
    """The starting position's repetition key and outcome, worked out by the first referee (a tell);
    ``again``: worked out afresh once the start-up lessons were taught (they are part of the start),
    replacing the key recorded before them."""

    key: PositionKey
    outcome: str | None
    again: bool = False


@dataclass(frozen=True, slots=True, repr=False)
class Reset(Named):
    """Forget every move and teaching: a new game starts from ``start_state``, whose repetition key
    and outcome are ``key`` and ``outcome`` (a tell)."""

    start_state: GameState
    key: PositionKey
    outcome: str | None


@dataclass(frozen=True, slots=True, repr=False)
class JournalQuery(Request["JournalEntries"], Named):
    """The entries after the first ``since`` ones, and every teaching."""

    since: int = 0


@dataclass(frozen=True, slots=True, repr=False)
class JournalEntries(Named):
    """Entries ``since + 1`` onwards, the total count, the teachings in order, and the start."""

    since: int
    entries: tuple[JournalEntry, ...]
    total: int
    teachings: tuple[Teaching, ...]
    start_state: GameState
    start_key: PositionKey | None
    start_outcome: str | None


JournalRequest = Record | RecordTeaching | RecordStart | Reset | JournalQuery
"""Everything the journal takes or answers."""
