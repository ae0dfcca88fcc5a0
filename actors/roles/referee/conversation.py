"""What every referee does: gather the facts about a move by asking the pieces and the board.

The one thing a referee remembers of other actors' facts is a hint, ``whereabouts`` (who stood where
when the board last said), used only to choose whom to ask first; the board's report corrects it,
and the trace marks every message a hint chose. Verdicts come from the replies of the ply's
conversation: the pieces' yes or no, the board's report, the exposers' confirmation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from actors.kernel.actor import TracedActor
from actors.protocol.board import ProbeReports, ProbeSurvey, Roster, RosterQuery, Survey, SurveyReport
from actors.protocol.piece import Answer, MoveQuery, Yes
from actors.protocol.values import PieceReport, Probe, ProbeReport, RosterEntry, Sighting
from actors.roles.registered import BOARD
from board.rules.judge import CandidateFacts, Intent
from board.rules.pieces import PAWN

WHEREABOUTS = "whereabouts"
"""The hint's name, as the trace shows it on every message it chose a receiver for."""
CORRECTED = "whereabouts-corrected"
"""How the trace marks a message sent because the board's reply corrected the hint."""

Handled = TypeVar("Handled")


@dataclass(frozen=True, slots=True)
class Gathered:
    """A ply's facts: one per piece of the kind, the pieces' yeses by origin, the board's report.

    A candidate's code is what the piece said it is in its yes: the rules that belong to kinds are
    judged on the piece's own word."""

    facts: list[CandidateFacts]
    yeses: dict[int, Yes]
    report: SurveyReport


class Conversation(TracedActor[Handled]):
    """A referee's asking: candidates from the whereabouts hint, the board's survey, confirmations."""

    whereabouts: dict[int, tuple[int, str]]
    """Hint: square -> (code, actor name), as the board last reported it."""
    by_code: dict[int, dict[int, str]]
    """The same hint by piece code: code -> {square: actor name} (whom to ask about a move)."""

    def init_hints(self) -> None:
        """Start with no hint (the first roster fills it)."""
        self.whereabouts, self.by_code = {}, {}

    def learn_roster(self, entries: Iterable[RosterEntry]) -> None:
        """Take the board's roster (one entry a square) as the whole hint."""
        whereabouts: dict[int, tuple[int, str]] = {}
        by_code: dict[int, dict[int, str]] = {}
        for entry in entries:
            whereabouts[entry.square] = (entry.code, entry.name)
            by_code.setdefault(entry.code, {})[entry.square] = entry.name
        self.whereabouts, self.by_code = whereabouts, by_code

    def set_hint(self, square: int, code: int, name: str) -> None:
        """The board said ``name`` (a piece of ``code``) stands on ``square``."""
        self.drop_hint(square)
        self.whereabouts[square] = (code, name)
        self.by_code.setdefault(code, {})[square] = name

    def drop_hint(self, square: int) -> None:
        """The board said ``square`` is empty."""
        found = self.whereabouts.pop(square, None)
        if found is not None:
            del self.by_code[found[0]][square]

    def refresh_hint(self) -> bytes:
        """Ask the board who stands where (when the hint is found wanting); returns the placement the
        board reports, which is its word on what stands on each square (a lie included).

        The hint keeps the pieces the board reports as themselves only: one hidden, or under a
        ghost, is no one to ask while the lie lasts."""
        roster: Roster = self.ask_one(BOARD, RosterQuery())
        placement, ghosts = roster.placement, roster.ghosts
        entries = roster.entries
        if ghosts or any(placement[entry.square] != entry.code for entry in entries):
            entries = tuple(
                entry
                for entry in entries
                if placement[entry.square] == entry.code and entry.square not in ghosts
            )
        self.learn_roster(entries)
        return placement

    def name_at(self, square: int) -> str | None:
        """The actor the hint places on ``square``."""
        found = self.whereabouts.get(square)
        return found[1] if found is not None else None

    def gather(self, intent: Intent, en_passant: int, check: bool = False) -> Gathered:
        """Ask every piece of the intent's kind (the hint says which) and the board, in one round.

        Pawns are asked only when they fit the intent's file or square (a pawn's SAN names its file);
        other kinds all are, since writing SAN needs to know every piece that could go there too.
        """
        colour, kind, target = intent.colour, intent.kind, intent.target
        pawn = kind == PAWN
        hinted = self.by_code.get(colour * 8 + kind, {})
        asked = [(square, name) for square, name in hinted.items() if intent.admits(square)] if pawn \
            else list(hinted.items())
        pending = [self.send(name, MoveQuery(square, target, colour), WHEREABOUTS) for square, name in asked]
        # A pawn's move names its file (a push its own, a capture the one it leaves, a move by
        # squares its square's): the board reports the pawns of that file only.
        file = -1
        if pawn and intent.from_square is not None:
            file = intent.from_square & 7
        elif pawn and intent.from_file is not None:
            file = intent.from_file
        replies, report = self.wait_with(pending, self.send(BOARD, Survey(colour, kind, target, en_passant,
                                                                           check, file)))
        answers: dict[tuple[int, str], Answer] = dict(zip(asked, replies, strict=True))
        # A pawn the written move rules out (another file) is neither asked nor given facts.
        pieces = [piece for piece in report.pieces if intent.admits(piece.origin)] if pawn else report.pieces
        missed = [piece for piece in pieces if (piece.origin, piece.name) not in answers]
        if missed:  # the board knows a piece the hint did not: ask it too, and mend the hint
            for piece in missed:
                self.set_hint(piece.origin, piece.code, piece.name)
            late = self.wait(
                [self.send(p.name, MoveQuery(p.origin, target, colour), CORRECTED) for p in missed]
            )
            answers.update(((p.origin, p.name), answer) for p, answer in zip(missed, late, strict=True))
        yeses: dict[int, Yes] = {}
        probes: list[tuple[PieceReport, Probe]] = []
        for piece in pieces:
            answer = answers.get((piece.origin, piece.name))
            # A piece that says it is of another kind than the move names is no candidate for it.
            if type(answer) is Yes and answer.code == colour * 8 + kind:
                yeses[piece.origin] = answer
                path = piece.path
                # The piece's word on what it is and how it goes wins over the board's record of
                # it: where they differ, the board is asked about the move the piece gave.
                if path is None or path[1] != answer.traversed or path[2] != answer.target_rule \
                        or answer.code != piece.code:
                    en_passant_move = (answer.code & 7 == PAWN and answer.target_rule == "enemy"
                                       and target == en_passant)
                    probe = Probe(piece.origin, target, answer.traversed, en_passant_move, answer.target_rule)
                    probes.append((piece, probe))
        reports = self._reports_for(colour, probes)
        facts = [self._facts(piece, yeses.get(piece.origin), reports.get(piece.origin)) for piece in pieces]
        return Gathered(self.confirm_facts(facts), yeses, report)

    def _reports_for(
        self, colour: int, probes: Sequence[tuple[PieceReport, Probe]]
    ) -> dict[int, tuple[Probe, ProbeReport]]:
        """Where a piece's own path differs from what it declared, the board is asked about the path
        the piece gave (its word wins over its earlier declaration)."""
        if not probes:
            return {}
        answer: ProbeReports = self.ask_one(BOARD, ProbeSurvey(colour, tuple(probe for _, probe in probes)))
        return {
            piece.origin: (probe, report)
            for (piece, probe), report in zip(probes, answer.reports, strict=True)
        }

    @staticmethod
    def _facts(
        piece: PieceReport, yes: Yes | None, probed: tuple[Probe, ProbeReport] | None
    ) -> CandidateFacts:
        if yes is None:
            return CandidateFacts(piece.origin, piece.code, None)
        # From here on the piece is judged as what it says it is (its yes), not as the board's
        # report names it.
        if probed is not None:
            probe, report = probed
            en_passant = probe.en_passant and not report.target_code
        else:
            assert piece.report is not None
            report, en_passant = piece.report, piece.en_passant
        en_passant = en_passant and not report.refused  # it would take a king, as the board reports
        return CandidateFacts(
            piece.origin,
            yes.code,
            yes.traversed,
            yes.target_rule,
            report.blocker,
            report.target_code,
            en_passant,
            report.exposers,
            report.king_square,
        )

    def confirm_facts(self, facts: list[CandidateFacts]) -> list[CandidateFacts]:
        """Keep only the exposers that confirm, by their own move function, that they reach the king."""
        pairs = [(exposer, f.king_square) for f in facts for exposer in f.exposers]
        if not pairs:
            return facts
        confirmed = self.confirm(pairs)
        return [
            f
            if not f.exposers
            else replace(f, exposers=tuple(e for e in f.exposers if (e[0], f.king_square) in confirmed))
            for f in facts
        ]

    def confirm(self, pairs: Iterable[tuple[Sighting, int]]) -> set[tuple[int, int]]:
        """Ask each piece whether it can go to the square paired with it: the (square, target) pairs
        whose piece says yes. A piece the hint does not know is found by asking the board first."""
        wanted = list(dict.fromkeys((sighting, target) for sighting, target in pairs))
        if not wanted:
            return set()
        hint = WHEREABOUTS
        if any(self.whereabouts.get(square, (0,))[0] != code for (square, code), _ in wanted):
            self.refresh_hint()
            hint = CORRECTED
        questions = []
        for (square, code), target in wanted:
            found = self.whereabouts.get(square)
            # Only the actor standing there as the piece the board reported can confirm: a ghost
            # (a piece the board reports that no actor is) confirms nothing.
            if found is not None and found[0] == code:
                questions.append(((square, target), found[1], MoveQuery(square, target, code >> 3)))
        replies = self.wait([self.send(name, query, hint) for _, name, query in questions])
        return {
            pair for (pair, _, _), reply in zip(questions, replies, strict=True) if isinstance(reply, Yes)
        }


__all__ = ["CORRECTED", "WHEREABOUTS", "Conversation", "Gathered"]
