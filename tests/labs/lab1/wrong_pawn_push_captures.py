"""Lab 1, wrong: a pawn's push has target rule 'any', so it may capture straight ahead"""

from actors.study.labs import KING, KNIGHT, PAWN, LabPiece, MoveQuery, No, Yes

SLIDES = {3: ((1, 1), (1, -1), (-1, 1), (-1, -1)), 4: ((1, 0), (-1, 0), (0, 1), (0, -1))}
SLIDES[5] = SLIDES[3] + SLIDES[4]


class Piece(LabPiece):
    def answer(self, query: MoveQuery) -> Yes | No:
        if query.start != self.square or query.colour != self.colour:
            return No("I answer only for my own square and colour")
        file, rank = self.square % 8, self.square // 8
        to_file, to_rank = query.end % 8, query.end // 8
        across, up = to_file - file, to_rank - rank
        if (across, up) == (0, 0):
            return No("a piece does not move to its own square")
        if self.kind == KNIGHT:
            return self._yes(query, ()) if {abs(across), abs(up)} == {1, 2} else No("not a knight's jump")
        if self.kind == KING:
            return self._yes(query, ()) if max(abs(across), abs(up)) == 1 else No("a king steps one square")
        if self.kind == PAWN:
            return self._pawn(query, across, up)
        for step_file, step_rank in SLIDES[self.kind]:
            for distance in range(1, 8):
                if (step_file * distance, step_rank * distance) == (across, up):
                    crossed = tuple(self.square + (step_rank * 8 + step_file) * n for n in range(1, distance))
                    return self._yes(query, crossed)
        return No("not along my lines")

    def _pawn(self, query: MoveQuery, across: int, up: int) -> Yes | No:
        forward = 1 if self.colour == 0 else -1
        home = 1 if self.colour == 0 else 6
        if across == 0 and up == forward:
            return self._yes(query, ())  # the mistake: no "empty" rule, so the push may capture
        if across == 0 and up == 2 * forward and self.square // 8 == home:
            return self._yes(query, (self.square + 8 * forward,), "empty")
        if abs(across) == 1 and up == forward:
            return self._yes(query, (), "enemy")
        return No("not a pawn's move")

    def _yes(self, query: MoveQuery, crossed: tuple[int, ...], rule: str = "any") -> Yes:
        return Yes(self.square, query.end, crossed, rule, self.code)
