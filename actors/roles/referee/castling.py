"""Castling judged by messages, once, for proposals and legal targets alike.

The king and the rook say whether they may castle and what they cross; the board says who stands on
their squares, what stands between, and who would reach each square the king crosses and lands on
once the castling is made. The right itself is the referee's fact; every square comes from the
game's castling table (board.rules.castling: standard chess's, or a Chess960 start's, where the king may
stay on its square, or land on its rook's, and the rook on the king's). The referee's whereabouts
hint only chooses whom to ask.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from actors.protocol.board import CastleSurvey
from actors.protocol.piece import CastleQuery, Yes
from actors.protocol.values import CastleReport
from actors.roles.referee.conversation import WHEREABOUTS
from actors.roles.referee.ruling import Ruling
from actors.roles.registered import BOARD
from board.rules.judge import CastlingFacts, Intent, decide_castling
from board.rules.pieces import KIND_NAMES, KING, ROOK
from board.rules.squares import SQUARE_NAMES

if TYPE_CHECKING:
    from actors.protocol.values import GameState
    from actors.roles.referee.conversation import Conversation


def judge_castling(referee: Conversation[Any], state: GameState, intent: Intent) -> Ruling:
    """The ruling on castling to the intent's side, from the king's, the rook's and the board's replies."""
    colour, side = intent.colour, intent.castle
    assert side is not None
    right = state.layout.table.row(colour, side)
    if right is None or not state.castling & right.right:  # no such rook in this game, or the right is gone
        return Ruling(reason=decide_castling(intent, CastlingFacts(-1, False, None, (), ())))
    king, rook = right.king_from, right.rook_from
    refused = Ruling(reason=decide_castling(intent, CastlingFacts(king, False, None, (), ())))
    if referee.name_at(king) is None or referee.name_at(rook) is None:
        referee.refresh_hint()  # whom to ask: the board's roster, when the hint knows nobody there
    king_name, rook_name = referee.name_at(king), referee.name_at(rook)
    if king_name is None or rook_name is None:
        square, what = (king, "king") if king_name is None else (rook, "rook")
        return Ruling(reason=f"castling needs the {what} on {SQUARE_NAMES[square]}, and the board "
                             "reports none there")
    survey = CastleSurvey(colour, king, rook, right.king_to, right.rook_to, right.between, right.king_crossed)
    (king_yes, rook_yes), report = referee.wait_with(
        [
            referee.send(king_name, CastleQuery(side), WHEREABOUTS),
            referee.send(rook_name, CastleQuery(side), WHEREABOUTS),
        ],
        referee.send(BOARD, survey),
    )
    assert isinstance(report, CastleReport)
    missing = _missing(report, colour, king, king_name, rook, rook_name)
    if missing is not None:
        return Ruling(reason=missing)
    if not (isinstance(king_yes, Yes) and isinstance(rook_yes, Yes)):
        return refused
    # Castling's partners are who the actors say they are, whatever the report names them.
    for yes, kind, name in ((king_yes, KING, king_name), (rook_yes, ROOK, rook_name)):
        if yes.code != colour * 8 + kind:
            return Ruling(reason=f"castling needs the {KIND_NAMES[kind]} on {SQUARE_NAMES[yes.origin]}, "
                                 f"and {name} says it is a {KIND_NAMES[yes.code & 7]}")
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
    return Ruling(king, None, "illegal", (), king_yes.traversed, code=king_yes.code)


def _missing(
    report: CastleReport, colour: int, king: int, king_name: str, rook: int, rook_name: str
) -> str | None:
    """Why the board's report does not show the king and the rook that were asked where they must stand."""
    for square, kind, name, (code, seen) in (
        (king, KING, king_name, report.king),
        (rook, ROOK, rook_name, report.rook),
    ):
        if code != colour * 8 + kind or seen != name:
            what = "king" if kind == KING else "rook"
            return f"castling needs the {what} on {SQUARE_NAMES[square]}, and the board reports none there"
    return None
