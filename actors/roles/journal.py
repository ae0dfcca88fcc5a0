"""The journal actor: the record of a game (accepted moves, teachings, the start) that outlives the others.

The supervisor starts it first and never restarts it from scratch; the board and a new referee are
rebuilt from what it holds. The client writes what the referee accepted; everyone reads by asking.

How you talk to me: see :mod:`actors.protocol.journal`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from actors.kernel.actor import TracedActor
from actors.kernel.messaging import DEFAULT_TIMEOUT, Directory
from actors.protocol.journal import (
    JournalEntries,
    JournalQuery,
    JournalRequest,
    Record,
    RecordStart,
    RecordTeaching,
    Reset,
    Teaching,
)
from actors.protocol.values import GameState, JournalEntry, PositionKey
from actors.roles.registered import JOURNAL

if TYPE_CHECKING:
    from actors.tracing.recorder import TraceRecorder



class JournalActor(TracedActor[JournalRequest]):
    """Accepted moves in order, the pieces' teachings, and the starting state."""

    def __init__(
        self,
        start_state: GameState,
        directory: Directory,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        super().__init__(JOURNAL, directory, recorder, timeout)
        self.start_state = start_state
        self.start_key: PositionKey | None = None
        self.start_outcome: str | None = None
        self.entries: list[JournalEntry] = []
        self.teachings: list[Teaching] = []

    def handle(self, message: JournalRequest) -> object:
        """What I do on each message."""
        match message:
            case Record(first_ply=first_ply, entries=entries):
                # A record may repeat moves already written (asked again after a failure): skip those.
                skip = len(self.entries) - (first_ply - 1)
                self.entries.extend(entries[max(0, skip) :])
                return None
            case RecordTeaching(teaching=teaching):
                self.teachings.append(teaching)
                return None
            case Reset(start_state=start_state, key=key, outcome=outcome):
                self.start_state, self.start_key, self.start_outcome = start_state, key, outcome
                self.entries, self.teachings = [], []
                return None
            case RecordStart(key=key, outcome=outcome, again=again):
                if self.start_key is None or (again and not self.entries):
                    self.start_key, self.start_outcome = key, outcome
                return None
            case JournalQuery(since=since):
                return JournalEntries(
                    since,
                    tuple(self.entries[since:]),
                    len(self.entries),
                    tuple(self.teachings),
                    self.start_state,
                    self.start_key,
                    self.start_outcome,
                )
            case _:
                assert_never(message)
