"""Lab 3, wrong: lets any piece promote, not only a pawn on the last rank"""

from actors.study.labs import KING, PAWN, CandidateFacts, Decision, Intent, LabReferee, Sighting


class Referee(LabReferee):
    def decide(
        self,
        intent: Intent,
        candidates: list[CandidateFacts],
        king_square: int,
        checkers: tuple[Sighting, ...],
    ) -> Decision:
        # Only the pieces the written move can mean (Nbd7: the knight on the b-file).
        fitting = [facts for facts in candidates if intent.admits(facts.origin)]
        if not fitting:
            return Decision((), "no piece of that kind can be meant")
        reasons = [self._refusal(intent, facts) for facts in fitting]
        legal = tuple(facts.origin for facts, reason in zip(fitting, reasons, strict=True) if reason is None)
        if len(legal) == 1:
            return Decision(legal, None)
        if legal:  # every one of them is handed back, so the project can say which could go
            return Decision(legal, "ambiguous: more than one piece can make this move")
        return Decision((), next(reason for reason in reasons if reason is not None))

    def _refusal(self, intent: Intent, facts: CandidateFacts) -> str | None:
        """Why this candidate may not make the move, or None when it may."""
        if facts.traversed is None:
            return "the piece cannot move there"
        if facts.blocker is not None:
            return "a piece stands in the way"
        occupant = facts.target_code
        if occupant and occupant >> 3 == intent.colour:
            return "the target holds one of our own pieces"
        if occupant & 7 == KING:
            return "a king is never captured"
        if facts.target_rule == "empty" and occupant:
            return "a pawn's push cannot capture"
        # A pawn's diagonal step must take something; en passant takes the pawn beside the target.
        if facts.target_rule == "enemy" and not occupant and not facts.en_passant:
            return "a pawn moves diagonally only to capture"
        if intent.capture and not occupant and not facts.en_passant:
            return "there is nothing to capture"
        pawn = facts.code & 7 == PAWN
        last_rank = intent.target // 8 == (7 if intent.colour == 0 else 0)
        if pawn and last_rank and not intent.promotion:
            return "a pawn reaching the last rank must promote"
        # the mistake: nothing stops a knight (or a pawn mid-board) promoting
        # Exposers are the enemy pieces that would reach our king after the move: a pin, a check
        # left unanswered, or a king stepping into an attack all show up here.
        if facts.exposers:
            return "the move would leave the king in check"
        return None
