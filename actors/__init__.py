"""chess-actors: piece, board and referee actors (pykka) that judge chess moves by messages.

The pure rules live in :mod:`board`; this package is the actor shell and the command line. Its public
names are importable from here (``from actors import ActorGame, SystemPool, Accepted``). Each is loaded
from its module the first time it is asked for: the command line imports ``actors.cli`` through this
package, and its start-up must not pay for the actors, pykka or structlog before a command needs them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from actors.client.game import (
        ActorGame,
        PieceHandle,
        final_fen,
        replay_moves,
    )
    from actors.client.pool import (
        SystemPool,
    )
    from actors.client.replay import (
        MoveReport,
        replay_with_actors,
        watch_game,
    )
    from actors.client.session import (
        CheckMoveSession,
    )
    from actors.kernel.errors import (
        ActorFailure,
        ActorTimeout,
        ActorUnavailable,
        GameClosed,
        LinkFailure,
        RestartIntensityExceeded,
    )
    from actors.kernel.links import (
        LinkModel,
        parse_network,
    )
    from actors.kernel.network import (
        Network,
    )
    from actors.protocol import (
        Accepted,
        Answer,
        Applied,
        Apply,
        Armed,
        Assessment,
        Begin,
        BoardRequest,
        Captured,
        CastleQuery,
        CastleReport,
        CastleSurvey,
        CastlingLayout,
        Change,
        CheckMove,
        ControlRequest,
        Crash,
        CrashOnNext,
        Declare,
        Declared,
        Describe,
        Description,
        Disarm,
        FenQuery,
        GameState,
        Gather,
        Gathered,
        HangOnNext,
        JournalEntries,
        JournalEntry,
        JournalMove,
        JournalQuery,
        JournalRequest,
        KnightPathQuery,
        KnightTourQuery,
        KnightWalk,
        Learn,
        Learned,
        LegalTargets,
        LegalTargetsQuery,
        Lie,
        MoveCheck,
        Moved,
        MoveQuery,
        No,
        PathEntry,
        PieceReport,
        PieceRequest,
        Ping,
        Place,
        Pong,
        PositionKey,
        PositionRefereeRequest,
        Probe,
        ProbeReport,
        ProbeReports,
        ProbeSurvey,
        Promote,
        ProposeSquares,
        ProposeText,
        Reach,
        Ready,
        Record,
        RecordStart,
        RecordTeaching,
        RefereeRequest,
        Rejected,
        RejectionKind,
        Reset,
        Resync,
        Roster,
        RosterEntry,
        RosterQuery,
        Seat,
        Setup,
        Survey,
        SurveyReport,
        Targets,
        TargetsQuery,
        Teaching,
        Verdict,
        Yes,
    )
    from actors.scenario.runner import (
        run_scenario,
    )
    from actors.scenario.script import parse_scenario
    from actors.scenario.steps import Scenario, ScenarioError
    from actors.studio import (
        page_html,
        write_page,
    )
    from actors.tracing.export import (
        read_jsonl,
        to_jsonl,
        to_perfetto,
    )
    from actors.tracing.mermaid import (
        to_markdown,
        to_mermaid,
    )
    from actors.tracing.recorder import (
        TraceEvent,
        TraceRecorder,
    )
    from board.errors import (
        AmbiguousMoveError,
        ChessActorsError,
        IllegalMoveError,
        InputError,
    )

# Each public name and the module that defines it.
_SOURCES: dict[str, str] = {
    **dict.fromkeys(
        [
            "ActorGame",
            "PieceHandle",
            "final_fen",
            "replay_moves",
        ],
        "actors.client.game",
    ),
    **dict.fromkeys(
        [
            "SystemPool",
        ],
        "actors.client.pool",
    ),
    **dict.fromkeys(
        [
            "CheckMoveSession",
        ],
        "actors.client.session",
    ),
    **dict.fromkeys(
        [
            "MoveReport",
            "replay_with_actors",
            "watch_game",
        ],
        "actors.client.replay",
    ),
    **dict.fromkeys(
        [
            "TraceEvent",
            "TraceRecorder",
        ],
        "actors.tracing.recorder",
    ),
    **dict.fromkeys(
        [
            "read_jsonl",
            "to_jsonl",
            "to_perfetto",
        ],
        "actors.tracing.export",
    ),
    **dict.fromkeys(
        [
            "to_markdown",
            "to_mermaid",
        ],
        "actors.tracing.mermaid",
    ),
    **dict.fromkeys(
        [
            "page_html",
            "write_page",
        ],
        "actors.studio",
    ),
    **dict.fromkeys(
        [
            "ActorFailure",
            "ActorTimeout",
            "ActorUnavailable",
            "GameClosed",
            "LinkFailure",
            "RestartIntensityExceeded",
        ],
        "actors.kernel.errors",
    ),
    **dict.fromkeys(
        [
            "LinkModel",
            "parse_network",
        ],
        "actors.kernel.links",
    ),
    **dict.fromkeys(
        [
            "Network",
        ],
        "actors.kernel.network",
    ),
    **dict.fromkeys(
        [
            "AmbiguousMoveError",
            "ChessActorsError",
            "IllegalMoveError",
            "InputError",
        ],
        "board.errors",
    ),
    **dict.fromkeys(
        [
            "parse_scenario",
        ],
        "actors.scenario.script",
    ),
    **dict.fromkeys(
        [
            "Scenario",
            "ScenarioError",
        ],
        "actors.scenario.steps",
    ),
    **dict.fromkeys(
        [
            "run_scenario",
        ],
        "actors.scenario.runner",
    ),
    **dict.fromkeys(
        [
            "Accepted",
            "Answer",
            "Applied",
            "Apply",
            "Armed",
            "Assessment",
            "Begin",
            "BoardRequest",
            "Captured",
            "CastleQuery",
            "CastleReport",
            "CastlingLayout",
            "CastleSurvey",
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
            "Teaching",
            "Verdict",
            "Yes",
        ],
        "actors.protocol",
    ),
}

__all__ = [
    "Accepted",
    "ActorFailure",
    "ActorGame",
    "ActorTimeout",
    "ActorUnavailable",
    "AmbiguousMoveError",
    "Answer",
    "Applied",
    "Apply",
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
    "CheckMoveSession",
    "ChessActorsError",
    "ControlRequest",
    "Crash",
    "CrashOnNext",
    "Declare",
    "Declared",
    "Describe",
    "Description",
    "Disarm",
    "FenQuery",
    "GameClosed",
    "GameState",
    "Gather",
    "Gathered",
    "HangOnNext",
    "IllegalMoveError",
    "InputError",
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
    "LinkFailure",
    "LinkModel",
    "MoveCheck",
    "MoveQuery",
    "MoveReport",
    "Moved",
    "Network",
    "No",
    "PathEntry",
    "PieceHandle",
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
    "RestartIntensityExceeded",
    "Resync",
    "Roster",
    "RosterEntry",
    "RosterQuery",
    "Scenario",
    "ScenarioError",
    "Seat",
    "Setup",
    "Survey",
    "SurveyReport",
    "SystemPool",
    "Targets",
    "TargetsQuery",
    "Teaching",
    "TraceEvent",
    "TraceRecorder",
    "Verdict",
    "Yes",
    "final_fen",
    "page_html",
    "parse_network",
    "parse_scenario",
    "read_jsonl",
    "replay_moves",
    "replay_with_actors",
    "run_scenario",
    "to_jsonl",
    "to_markdown",
    "to_mermaid",
    "to_perfetto",
    "watch_game",
    "write_page",
]


def __getattr__(name: str) -> Any:
    """Load the public ``name`` from its module on first use (PEP 562).

    Raises:
        AttributeError: ``name`` is not one of this package's public names or submodules.
    """
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module 'actors' has no attribute {name!r}")
    value = getattr(importlib.import_module(source), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
