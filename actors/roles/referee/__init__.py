"""The referees: the referee of a game (proposals, castling, the game's end) and the referee of a
position (ChessMoveQ), both judging by the same conversation with the pieces and the board."""

from __future__ import annotations

from actors.roles.referee.game import LostTrack, RefereeActor
from actors.roles.referee.position import PositionRefereeActor

__all__ = ["LostTrack", "PositionRefereeActor", "RefereeActor"]
