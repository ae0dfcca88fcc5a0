"""Castling judged by messages: the king and the rook say what they cross, the board what it sees.

The right itself is the referee's fact; every square comes from board.castling's one table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from actors.protocol.board import CastleSurvey
from actors.protocol.piece import CastleQuery, Yes
from actors.roles.referee.conversation import BOARD, WHEREABOUTS
from board.castling import castling_for
from board.judge import CastlingFacts, Intent, decide_castling

if TYPE_CHECKING:
    from actors.roles.referee.game import RefereeActor, Ruling


def judge_castling(referee: RefereeActor, intent: Intent) -> Ruling:
    """The ruling on castling to the intent's side, from the king's, the rook's and the board's replies."""
    from actors.roles.referee.game import Ruling

    colour, side = intent.colour, intent.castle
    assert side is not None
    right = castling_for(colour, side)
    king, rook = right.king_from, right.rook_from
    king_name, rook_name = referee.name_at(king), referee.name_at(rook)
    if not referee.state.castling & right.right or king_name is None or rook_name is None:
        return Ruling(reason=decide_castling(intent, CastlingFacts(king, False, None, (), ())))
    replies = referee.wait(
        [
            referee.send(king_name, CastleQuery(side), WHEREABOUTS),
            referee.send(rook_name, CastleQuery(side), WHEREABOUTS),
            referee.send(BOARD, CastleSurvey(colour, king, right.between, right.king_crossed)),
        ]
    )
    king_yes, rook_yes, report = replies
    if not (isinstance(king_yes, Yes) and isinstance(rook_yes, Yes)):
        return Ruling(reason=decide_castling(intent, CastlingFacts(king, False, None, (), ())))
    pairs = [(c, king) for c in report.king_candidates]
    pairs += [(c, square) for square, found in report.crossed_candidates for c in found]
    confirmed = referee.confirm(pairs)
    checkers = tuple(c for c in report.king_candidates if (c[0], king) in confirmed)
    attacked = []
    for square, found in report.crossed_candidates:
        hits = [c for c in found if (c[0], square) in confirmed]
        if hits:
            attacked.append((square, hits[0]))
    facts = CastlingFacts(king, True, report.blocker, checkers, tuple(attacked))
    reason = decide_castling(intent, facts)
    if reason is not None:
        return Ruling(reason=reason)
    return Ruling(king, None, "illegal", (), king_yes.onward, rook_yes.onward)
