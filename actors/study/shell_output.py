"""What the shell's engine returns for the command line or the live studio to show: verdicts, legal
targets, boards, the deliveries waiting, order comparisons, each also as the fields of a JSON object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from actors.game.replay import MoveReport
from actors.study.steps import StepResult
from actors.tracing.compare import OrderComparison


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """Where the piece on ``square`` may legally go now (no targets: it cannot move, or no piece is there)."""

    square: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        if not self.targets:
            return f"legal from {self.square}: none"
        return f"legal from {self.square}: {' '.join(self.targets)}"


@dataclass(frozen=True, slots=True)
class Shown:
    """A board to draw: the position, the last move (UCI) and whether the side to move is in check."""

    fen: str
    last_move: str | None
    check: bool


Output = str | StepResult | Shown | MoveReport | LegalMoves | OrderComparison


@dataclass(frozen=True, slots=True)
class Pending:
    """A delivery waiting in step mode: ``number`` is what ``deliver N`` takes (None: it cannot run yet,
    queued behind its mailbox's head or a stalled actor); ``summary`` is the message in one line."""

    number: int | None
    actor: str
    sender: str
    kind: str
    summary: str
    waits: str
    text: str


def output_record(item: Output) -> dict[str, Any]:
    """What one thing shown is, as the fields of a JSON object (``shell --json``, the live studio)."""
    if isinstance(item, StepResult):
        return item.as_json()
    if isinstance(item, MoveReport):
        return {"ply": item.ply, "move": item.text, "accepted": item.accepted, "san": item.san,
                "uci": item.uci, "check": item.check, "outcome": item.outcome, "reason": item.reason,
                "kind": item.kind}
    if isinstance(item, LegalMoves):
        return {"square": item.square, "targets": list(item.targets)}
    if isinstance(item, Shown):
        return {"fen": item.fen, "last_move": item.last_move, "check": item.check}
    if isinstance(item, OrderComparison):
        return {"compare": item.as_json()}
    return {"text": item.strip()}
