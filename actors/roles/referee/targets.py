"""Where one piece may legally go: its own reach, the board's report on each move, the judge's decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from actors.protocol.board import ProbeReports, ProbeSurvey
from actors.protocol.piece import Targets, TargetsQuery
from actors.protocol.values import Probe
from actors.roles.referee.castling import judge_castling
from actors.roles.referee.conversation import WHEREABOUTS
from actors.roles.registered import BOARD
from board.rules.judge import CandidateFacts, Intent, decide
from board.rules.pieces import KING, LAST_RANK, PAWN, QUEEN

if TYPE_CHECKING:
    from actors.roles.referee.game import RefereeActor


def legal_targets(referee: RefereeActor, square: int) -> tuple[int, ...]:
    """The squares the piece on ``square`` may legally move to now, ascending (none if not its turn).

    Castling is the king's target in standard chess and its own rook's square in Chess960, as UCI
    writes it (and as a move given by those squares is read).

    Who stands there is the board's word in this conversation (its roster), not the referee's hint.
    """
    if referee.over is not None:
        return ()
    reported = referee.refresh_hint()[square]
    found = referee.whereabouts.get(square)
    if found is None or found[0] != reported:
        return ()  # the board reports no such piece there: nothing to move
    code, name = found
    colour, kind = code >> 3, code & 7
    if colour != referee.state.turn:
        return ()
    targets: Targets = referee.wait([referee.send(name, TargetsQuery(), WHEREABOUTS)])[0]
    if targets.code != code:
        return ()  # the piece says it is another than the board reports: no candidate, as in a proposal
    en_passant = referee.state.en_passant
    probes = tuple(
        Probe(square, target, traversed, kind == PAWN and rule == "enemy" and target == en_passant, rule)
        for target, traversed, rule in targets.reach
    )
    reports: ProbeReports = referee.ask_one(BOARD, ProbeSurvey(colour, probes))
    facts = [
        CandidateFacts(
            square,
            code,
            probe.traversed,
            probe.target_rule,
            report.blocker,
            report.target_code,
            probe.en_passant and not report.target_code and not report.refused,
            report.exposers,
            report.king_square,
        )
        for probe, report in zip(probes, reports.reports, strict=True)
    ]
    facts = referee.confirm_facts(facts)
    legal: set[int] = set()
    for probe, fact, report in zip(probes, facts, reports.reports, strict=True):
        if report.refused:
            continue  # the board would not make it (it would take a king)
        last_rank = kind == PAWN and probe.target >> 3 == LAST_RANK[colour]
        intent = Intent(colour, kind, probe.target, QUEEN if last_rank else 0, from_square=square)
        if decide(intent, [fact], fact.king_square, referee.checkers).legal:
            legal.add(probe.target)
    if kind == KING:
        table = referee.state.layout.table
        for right in table.by_colour[colour]:
            if square == right.king_from:
                castle = Intent(colour, KING, right.king_to, castle=right.side)
                if judge_castling(referee, referee.state, castle).reason is None:
                    # Chess960 names castling by the rook's square (the king may stay, or go where a
                    # plain move could too); standard chess by the king's target.
                    legal.add(right.rook_from if table.chess960 else right.king_to)
    return tuple(sorted(legal))
