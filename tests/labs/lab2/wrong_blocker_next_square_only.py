"""Lab 2, wrong: looks for a blocker only on the square next to the origin"""

from actors.study.labs import KING, LabBoard, Probe, ProbeReport


class Board(LabBoard):
    def report(self, probe: Probe, colour: int) -> ProbeReport:
        origin, target = probe.origin, probe.target
        blocker = None
        for square in probe.traversed[:1]:  # the mistake: a piece further along the way blocks too
            if self.occupant(square):
                blocker = (square, self.occupant(square))
                break
        target_code = self.occupant(target)
        # When the king itself moves, the square to keep safe is where it lands.
        king_square = target if self.occupant(origin) & 7 == KING else self.king_of(colour)
        exposers: tuple[tuple[int, int], ...] = ()
        own_target = target_code != 0 and target_code >> 3 == colour
        if blocker is None and not own_target and king_square >= 0:
            exposers = self._exposers(probe, colour, king_square)
        return ProbeReport(blocker, target_code, exposers, king_square)

    def _exposers(self, probe: Probe, colour: int, king_square: int) -> tuple[tuple[int, int], ...]:
        """The enemy pieces that reach ``king_square`` once the move is made."""
        origin, target = probe.origin, probe.target
        # En passant takes the pawn beside the target: the square behind it, seen from the mover.
        victim = (target - 8 if colour == 0 else target + 8) if probe.en_passant else -1
        found = []
        for square in range(64):
            code = self.occupant(square)
            if not code or code >> 3 == colour or square in (target, victim):
                continue  # empty, one of ours, or captured by the move
            entry = self.reach_of(square).get(king_square)
            if entry is None or entry[2] == "empty":
                continue  # it cannot go there, or only by a pawn's push, which attacks nothing
            if all(self._empty_after(step, origin, target, victim) for step in entry[1]):
                found.append((square, code))
        return tuple(found)  # ascending: the squares were looked at in order

    def _empty_after(self, square: int, origin: int, target: int, victim: int) -> bool:
        """Whether ``square`` is empty once the mover has left ``origin`` for ``target``."""
        if square == target:
            return False
        return square in (origin, victim) or not self.occupant(square)
