"""The protocol: every message the actors exchange, grouped by the role that receives it.

Read this package to know the whole conversation without opening an actor: ``referee`` (proposals,
ChessMoveQ), ``board`` (facts about the occupancy), ``piece`` (the move function), ``journal`` (the
record a game keeps), ``values`` (what messages carry); and, re-exported here, the runtime's own
control messages (liveness and injected faults: :mod:`actors.kernel.control`).
"""

from __future__ import annotations

from typing import get_args

from actors.kernel.control import (
    Armed,
    ControlRequest,
    Crash,
    CrashOnNext,
    Disarm,
    HangOnNext,
    Ping,
    Pong,
)
from actors.protocol.board import (
    Applied,
    Apply,
    ApplyRefused,
    BoardRequest,
    CastleSurvey,
    Change,
    Declare,
    Declared,
    Describe,
    Gather,
    Gathered,
    Lie,
    Place,
    ProbeReports,
    ProbeSurvey,
    Roster,
    RosterQuery,
    Survey,
    SurveyReport,
    Teach,
)
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
from actors.protocol.piece import (
    Answer,
    Captured,
    CastleQuery,
    KnightPathQuery,
    KnightTourQuery,
    KnightWalk,
    Learn,
    Learned,
    Moved,
    MoveQuery,
    No,
    PieceRequest,
    Promote,
    Resync,
    Seat,
    Targets,
    TargetsQuery,
    Yes,
)
from actors.protocol.referee import (
    Accepted,
    Begin,
    CheckMove,
    Description,
    FenQuery,
    LegalTargets,
    LegalTargetsQuery,
    MoveCheck,
    PositionRefereeRequest,
    ProposeSquares,
    ProposeText,
    Ready,
    RefereeRequest,
    Rejected,
    Setup,
    Verdict,
)
from actors.protocol.values import (
    Assessment,
    CastleReport,
    CastlingLayout,
    GameState,
    JournalEntry,
    JournalMove,
    PathEntry,
    PieceReport,
    PositionKey,
    Probe,
    ProbeReport,
    Reach,
    RejectionKind,
    RosterEntry,
)

__all__ = [
    "REQUEST_KINDS",
    "Accepted",
    "Answer",
    "Applied",
    "Apply",
    "ApplyRefused",
    "Armed",
    "Assessment",
    "Begin",
    "BoardRequest",
    "Captured",
    "CastleQuery",
    "CastleReport",
    "CastleSurvey",
    "CastlingLayout",
    "Change",
    "CheckMove",
    "ControlRequest",
    "Crash",
    "CrashOnNext",
    "Declare",
    "Declared",
    "Describe",
    "Description",
    "Disarm",
    "FenQuery",
    "GameState",
    "Gather",
    "Gathered",
    "HangOnNext",
    "JournalEntries",
    "JournalEntry",
    "JournalMove",
    "JournalQuery",
    "JournalRequest",
    "KnightPathQuery",
    "KnightTourQuery",
    "KnightWalk",
    "Learn",
    "Learned",
    "LegalTargets",
    "LegalTargetsQuery",
    "Lie",
    "MoveCheck",
    "MoveQuery",
    "Moved",
    "No",
    "PathEntry",
    "PieceReport",
    "PieceRequest",
    "Ping",
    "Place",
    "Pong",
    "PositionKey",
    "PositionRefereeRequest",
    "Probe",
    "ProbeReport",
    "ProbeReports",
    "ProbeSurvey",
    "Promote",
    "ProposeSquares",
    "ProposeText",
    "Reach",
    "Ready",
    "Record",
    "RecordStart",
    "RecordTeaching",
    "RefereeRequest",
    "Rejected",
    "RejectionKind",
    "Reset",
    "Resync",
    "Roster",
    "RosterEntry",
    "RosterQuery",
    "Seat",
    "Setup",
    "Survey",
    "SurveyReport",
    "Targets",
    "TargetsQuery",
    "Teach",
    "Teaching",
    "Verdict",
    "Yes",
]


REQUEST_KINDS: tuple[str, ...] = tuple(
    sorted(
        {
            kind.__name__
            for union in (
                RefereeRequest,
                PositionRefereeRequest,
                BoardRequest,
                PieceRequest,
                JournalRequest,
                ControlRequest,
            )
            for kind in get_args(union)
        }
    )
)
"""The class name of every message an actor receives (requests and tells; replies go to futures)."""


def _finish_classes() -> None:
    """Every message and value prints as the call that makes it, with squares, pieces, kinds and
    colours by name, and its constructor takes those names (:mod:`actors.protocol.names`); it is
    made with the quicker ``__init__`` of :func:`board.frozen.quick_init` (messages are made on
    every ply)."""
    from actors.protocol.names import codecs_of, message_repr
    from board.frozen import quick_init

    for name in __all__:
        kind = globals().get(name)
        if isinstance(kind, type) and hasattr(kind, "__dataclass_fields__"):
            kind.__repr__ = message_repr  # type: ignore[method-assign,assignment]
            codecs = codecs_of(kind)
            quick_init(kind, {field: (codec.ready, codec.take) for field, codec in codecs.items()})


_finish_classes()
