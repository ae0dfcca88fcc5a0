"""Lab 4's reference solution: castling judged by asking the king, the rook and the board at once."""

from actors.study.labs import (
    CastleQuery,
    CastleReport,
    CastleSurvey,
    GameState,
    Intent,
    LabCastling,
    Ruling,
    Yes,
)


class Referee(LabCastling):
    def castle(self, state: GameState, intent: Intent) -> Ruling:
        side = intent.castle or "K"
        row = self.castling_row(state, intent.colour, side)
        if row is None or not state.castling & row.right:
            return Ruling(reason="no right to castle that way (the king or that rook has moved)")
        if self.name_at(row.king_from) is None or self.name_at(row.rook_from) is None:
            self.refresh_hint()  # the referee's idea of who stands where is only a hint: ask the board
        king, rook = self.name_at(row.king_from), self.name_at(row.rook_from)
        if king is None or rook is None:
            return Ruling(reason="the king or the rook is not where castling starts")
        survey = CastleSurvey(intent.colour, row.king_from, row.rook_from, row.king_to, row.rook_to,
                              row.between, row.king_crossed)
        # All three at once: the king, the rook and the board each answer for their own facts.
        asked = [self.send(king, CastleQuery(side)), self.send(rook, CastleQuery(side))]
        (king_yes, rook_yes), report = self.wait_with(asked, self.send("board", survey))
        assert isinstance(report, CastleReport)
        if not (isinstance(king_yes, Yes) and isinstance(rook_yes, Yes)):
            return Ruling(reason="the king or the rook may not castle (it has moved)")
        if report.blocker is not None:
            return Ruling(reason="a piece stands between the king and the rook")
        # The board names candidates from the pieces' declared reach; each confirms for itself.
        pairs = [(piece, row.king_from) for piece in report.king_candidates]
        pairs += [(piece, square) for square, found in report.crossed_candidates for piece in found]
        confirmed = self.confirm(pairs)
        if any((piece[0], row.king_from) in confirmed for piece in report.king_candidates):
            return Ruling(reason="the king cannot castle out of check")
        for square, found in report.crossed_candidates:
            if any((piece[0], square) in confirmed for piece in found):
                return Ruling(reason="the king would cross or land on an attacked square")
        return Ruling(row.king_from, None, "illegal", (), king_yes.traversed, code=king_yes.code)
