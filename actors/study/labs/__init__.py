"""Labs: write your own actor, and the project checks it like a model checker.

A lab runs a student's class in place of one of the project's roles (a piece, the board, the
referee), in one process, speaking the same protocol, and checks it against the direct engine on
real games, illegal moves and every delivery (``chess-actors lab list|start|check``). The names
here are what a student's file imports.
"""

from __future__ import annotations

from actors.kernel.messaging import Directory
from actors.protocol.board import CastleSurvey
from actors.protocol.journal import JournalEntries
from actors.protocol.piece import CastleQuery, MoveQuery, No, Resync, Yes
from actors.protocol.values import CastleReport, GameState, Probe, ProbeReport, RosterEntry
from actors.roles.referee.ruling import Ruling
from actors.study.labs.bases import LabAnswerError, LabBoard, LabCastling, LabPiece, LabReferee, LabSupervisor
from actors.study.labs.catalog import LABS, Lab, lab_numbered
from actors.study.labs.plugin import PluginError, load_role
from board.rules.judge import CandidateFacts, Decision, Intent, Sighting
from board.rules.pieces import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE

__all__ = [
    "BISHOP", "BLACK", "KING", "KNIGHT", "LABS", "PAWN", "QUEEN", "ROOK", "WHITE", "CandidateFacts",
    "CastleQuery", "CastleReport", "CastleSurvey", "Decision", "Directory", "GameState", "Intent",
    "JournalEntries", "Lab", "LabAnswerError", "LabBoard", "LabCastling", "LabPiece", "LabReferee",
    "LabSupervisor", "MoveQuery", "No", "PluginError", "Probe", "ProbeReport", "Resync", "RosterEntry",
    "Ruling", "Sighting", "Yes", "lab_numbered", "load_role",
]
