"""The referee of a position (ChessMoveQ): can a piece of this colour and kind go there, as the board stands?

No turn, no castling, no en passant; a side may have no king (it then has none to keep safe). The facts
come from the same conversation as a game's proposal; board.puzzles.chessmoveq words the answer.

How you talk to me: Setup(entries) -> Ready; CheckMove(colour, kind, target) -> MoveCheck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from actors.kernel.messaging import DEFAULT_TIMEOUT, Directory
from actors.protocol.board import Place, Roster
from actors.protocol.referee import CheckMove, MoveCheck, PositionRefereeRequest, Ready, Setup
from actors.roles.referee.conversation import Conversation
from actors.roles.registered import BOARD
from board.puzzles.chessmoveq import Placement, answer_from_facts, intent_for

if TYPE_CHECKING:
    from actors.tracing.recorder import TraceRecorder


class PositionRefereeActor(Conversation[PositionRefereeRequest]):
    """Answers ChessMoveQ questions about the position the board holds."""

    def __init__(
        self,
        directory: Directory,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        name: str = "referee",
    ) -> None:
        super().__init__(name, directory, recorder, timeout)
        self.init_hints()

    def handle(self, message: PositionRefereeRequest) -> object:
        """What I do on each message."""
        match message:
            case Setup(entries=entries):
                # A piece seated so already keeps its own declaration (its actor answers for it).
                roster: Roster = self.ask_one(BOARD, Place(entries, keep=True))
                self.learn_roster(roster.entries)
                return Ready(0)
            case CheckMove(colour=colour, kind=kind, target=target):
                intent = intent_for(Placement(colour, kind, target))
                gathered = self.gather(intent, -1, check=True)
                report = gathered.report
                king = report.king_square
                confirmed = self.confirm((c, king) for c in report.check)
                checkers = tuple(c for c in report.check if (c[0], king) in confirmed)
                answer = answer_from_facts(intent, gathered.facts, king, checkers)
                return MoveCheck(answer.valid, answer.origins, answer.reasons)
            case _:
                assert_never(message)
