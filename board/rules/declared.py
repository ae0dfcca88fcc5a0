"""A position as its pieces declared it: the occupancy, each piece's declared reach, and the facts
read off them (who reaches a square, what a move would expose, whether a side can move).

The board actor reports from this view. Normally it is the truth; an injected lie adds ghosts or
hides pieces in every report while moves are still made on the true board (so tests can prove
verdicts follow it). Compiled with the rest of the rules core: a game's board reads it on every ply.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Final

from board.rules.declared_facts import Assessment, PathEntry, Probe, ProbeReport, Reach, Sighting
from board.rules.pieces import KING, PAWN

__all__ = ["View"]

_NOWHERE: Final[dict[int, PathEntry]] = {}


_INDEXED: dict[int, tuple[Reach, dict[int, PathEntry]]] = {}


def _indexed(declared: Reach) -> dict[int, PathEntry]:
    """A reach by target. Pieces of pure geometries hand over the same cached tuple for the same
    square every time, so the index is kept by the tuple's identity (and the tuple with it)."""
    known = _INDEXED.get(id(declared))
    if known is not None and known[0] is declared:
        return known[1]
    indexed = {entry[0]: entry for entry in declared}
    if len(_INDEXED) < 4096:
        _INDEXED[id(declared)] = (declared, indexed)
    return indexed


class View:
    """The occupancy (64 codes, a1 first) with every piece's declared reach, and the board's reports."""

    def __init__(
        self, squares: list[int], declared: Mapping[int, Reach] | None = None, *, indexed: bool = True
    ) -> None:
        """``declared``: the reach each piece declared from its square, when the pieces have said.

        ``indexed``: keep, for every square, who declared it reachable, up to date move by move (a
        game asks that of many squares for each placement). Without, who reaches a square is found
        by looking through the declarations when it is asked, and kept until one changes (a
        placement asked about once or twice, as ChessMoveQ's, then costs far less to set up).
        """
        self.true_squares = squares
        self._reach: list[dict[int, PathEntry]] = [_NOWHERE] * 64
        self._ghosts: dict[int, int] = {}
        self._hidden: frozenset[int] = frozenset()
        # The truth, kept up to date move by move; what is reported aliases it unless lies are told.
        self._true_by_colour: tuple[set[int], set[int]] = (set(), set())
        self._true_kings = [-1, -1]
        pieces = 64 - squares.count(0)
        # Where every piece has declared (as a Place gives), only the declared squares are looked
        # at; should they not be every occupied one, all 64 are.
        if not declared or self._take_pieces(declared, squares) != pieces:
            self._true_by_colour[0].clear()
            self._true_by_colour[1].clear()
            self._take_pieces(range(64), squares)
        # Who declared each square reachable: the board looks only at those when asked who reaches it.
        self._true_reached_by: list[set[int]] | None = [set() for _ in range(64)] if indexed else None
        self._declarers: set[int] = set()
        """Without the index: the squares whose piece declared a reach."""
        self._found: dict[int, list[int]] = {}
        """Without the index: who reaches a square, as found since the declarations last changed."""
        if declared:
            reach, reached_by = self._reach, self._true_reached_by
            for square, entries in declared.items():
                known = _INDEXED.get(id(entries))  # _indexed's own first step, without the call
                targets = known[1] if known is not None and known[0] is entries else _indexed(entries)
                reach[square] = targets
                if reached_by is None:
                    self._declarers.add(square)
                    continue
                for target in targets:
                    reached_by[target].add(square)
        self._refresh()

    def _take_pieces(self, where: Iterable[int], squares: list[int]) -> int:
        """Note the side and the king of each piece on the squares ``where``; returns how many."""
        by_colour, kings = self._true_by_colour, self._true_kings
        found = 0
        for square in where:
            code = squares[square]
            if code:
                found += 1
                by_colour[code >> 3].add(square)
                if code & 7 == KING:
                    kings[code >> 3] = square
        return found

    # -- changing it

    def declare(self, square: int, declared: Reach) -> None:
        """The piece on ``square`` says it reaches this far."""
        self._forget(square)
        targets = self._reach[square] = _indexed(declared)
        reached_by = self._true_reached_by
        if reached_by is None:
            self._declarers.add(square)
        else:
            for target in targets:
                reached_by[target].add(square)
        self._changed()

    def _forget(self, square: int) -> None:
        reached_by = self._true_reached_by
        if reached_by is None:
            self._declarers.discard(square)
            self._found.clear()
        else:
            for target in self._reach[square]:
                reached_by[target].discard(square)
        self._reach[square] = _NOWHERE

    def remove(self, square: int) -> int:
        """Empty ``square``; returns the code that stood there."""
        code = self.true_squares[square]
        if code:
            self.true_squares[square] = 0
            self._forget(square)
            self._true_by_colour[code >> 3].discard(square)
            self._changed()
        return code

    def put(self, square: int, code: int, declared: Reach) -> None:
        """Stand ``code`` on ``square`` (empty) with its declared reach from there."""
        self.true_squares[square] = code
        self._true_by_colour[code >> 3].add(square)
        if code & 7 == KING:
            self._true_kings[code >> 3] = square
        self.declare(square, declared)

    def promote(self, square: int, code: int) -> None:
        """The piece on ``square`` is now ``code`` (its reach comes with its declaration)."""
        self.true_squares[square] = code
        self._changed()

    def lie(self, ghosts: Mapping[int, int], hidden: frozenset[int]) -> None:
        """Report ``ghosts`` (square -> code) that are not there and hide the pieces on ``hidden``.

        A ghost has no actor: it blocks and can be taken, but reaches nothing (so it neither moves nor
        attacks), and is no side's king. A ghost told over a piece hides that piece while it lasts.
        """
        self._ghosts = dict(ghosts)
        self._hidden = hidden
        self._refresh()

    def _changed(self) -> None:
        if self._ghosts or self._hidden:
            self._refresh()

    def _refresh(self) -> None:
        """Recompute what is reported: the truth itself, or the truth with the lies told."""
        if not (self._ghosts or self._hidden):
            self._shown = self.true_squares
            self._by_colour = self._true_by_colour
            self._kings = self._true_kings
            self._shown_reach = self._reach
            self._reached_by = self._true_reached_by
            self._found.clear()
            return
        shown = list(self.true_squares)
        for square in self._hidden:
            shown[square] = 0
        for square, code in self._ghosts.items():
            shown[square] = code
        self._shown = shown
        self._by_colour = (
            {s for s, code in enumerate(shown) if code and not code & 8},
            {s for s, code in enumerate(shown) if code & 8},
        )
        self._kings = [-1, -1]
        for square, code in enumerate(shown):
            if code & 7 == KING and square not in self._ghosts:  # royalty is an actor's, never a ghost's
                self._kings[code >> 3] = square
        reach = list(self._reach)
        for square in self._hidden:
            reach[square] = _NOWHERE
        for square in self._ghosts:
            reach[square] = _NOWHERE
        self._shown_reach = reach
        reached_by: list[set[int]] = [set() for _ in range(64)]
        for square, targets in enumerate(reach):
            for target in targets:
                reached_by[target].add(square)
        self._reached_by = reached_by

    # -- reading it

    def _reaching(self, square: int) -> Collection[int]:
        """The squares whose piece declared ``square`` reachable, as reported."""
        reached_by = self._reached_by
        if reached_by is not None:
            return reached_by[square]
        found = self._found.get(square)
        if found is None:
            reach = self._shown_reach
            found = self._found[square] = [origin for origin in self._declarers if square in reach[origin]]
        return found

    def code(self, square: int) -> int:
        """What stands on ``square`` (0: nothing), as reported."""
        return self._shown[square]

    def declared(self, square: int) -> dict[int, PathEntry]:
        """The reach the piece on ``square`` declared, by target (a ghost reaches nothing)."""
        return self._shown_reach[square]

    def squares_of(self, code: int) -> list[int]:
        """The squares of every ``code`` piece, ascending."""
        shown = self._shown
        return sorted(square for square in self._by_colour[code >> 3] if shown[square] == code)

    def king(self, colour: int) -> int:
        """``colour``'s king square (-1 if it has none)."""
        return self._kings[colour]

    def real(self, square: int) -> bool:
        """Whether a piece is reported on ``square`` and it is the one held there (not a ghost)."""
        if not (self._ghosts or self._hidden):
            return bool(self.true_squares[square])
        return bool(self._shown[square]) and square not in self._ghosts and square not in self._hidden

    def ghost_squares(self) -> tuple[int, ...]:
        """The squares where a ghost is reported, ascending."""
        return tuple(sorted(self._ghosts))

    def first_held(self, squares: Iterable[int]) -> Sighting | None:
        """The first of ``squares`` that is reported occupied or holds a piece (a hidden one
        included), with what is reported there, or else what is held."""
        shown, truth = self._shown, self.true_squares
        for square in squares:
            if shown[square] or truth[square]:
                return (square, shown[square] or truth[square])
        return None

    def lying(self) -> bool:
        """Whether what is reported differs from the truth (ghosts told, pieces hidden)."""
        return bool(self._ghosts or self._hidden)

    def placement(self) -> bytes:
        """The 64 codes, as reported."""
        return bytes(self._shown)

    def first_occupied(self, squares: Iterable[int]) -> Sighting | None:
        """The first occupied square of ``squares`` and what stands there."""
        shown = self._shown
        for square in squares:
            if shown[square]:
                return (square, shown[square])
        return None

    def attackers(
        self, square: int, by: int, vacated: tuple[int, ...] = (), filled: tuple[int, ...] = ()
    ) -> tuple[Sighting, ...]:
        """``by``'s pieces whose declared reach takes them to ``square`` along empty squares.

        ``vacated`` and ``filled``: squares emptied and occupied by a move not yet made (castling's
        king and rook), so that the answer is for the position that move would make.
        """
        if square < 0:
            return ()
        shown, reach = self._shown, self._shown_reach
        found = []
        for origin in self._reaching(square):
            code = shown[origin]
            if code >> 3 != by or not code or origin in vacated or origin in filled:
                continue
            entry = reach[origin][square]
            if entry[2] == "empty":
                continue
            if vacated or filled:
                if any(step in filled or (shown[step] and step not in vacated) for step in entry[1]):
                    continue
            elif any(shown[s] for s in entry[1]):
                continue
            found.append((origin, code))
        found.sort()
        return tuple(found)

    def exposers(
        self, origin: int, target: int, king_square: int, by: int, victim: int = -1
    ) -> tuple[Sighting, ...]:
        """``by``'s pieces that would reach ``king_square`` once origin -> target is made.

        A piece on the target (or on ``victim``, en passant) is captured, so it reaches nothing.
        """
        if king_square < 0:
            return ()
        shown, reach = self._shown, self._shown_reach
        found = []
        for square in self._reaching(king_square):
            code = shown[square]
            if code >> 3 != by or square in (target, victim) or not code:
                continue
            entry = reach[square][king_square]
            if entry[2] == "empty":
                continue
            for step in entry[1]:
                if step == target or (shown[step] and step != origin and step != victim):
                    break
            else:
                found.append((square, code))
        found.sort()
        return tuple(found)

    def probe(self, probe: Probe, colour: int) -> ProbeReport:
        """What the board sees for a move of ``colour``'s piece on ``probe.origin``."""
        shown = self._shown
        origin, target = probe.origin, probe.target
        blocker = self.first_occupied(probe.traversed)
        target_code = shown[target]
        king_square = target if shown[origin] & 7 == KING else self._kings[colour]
        exposers: tuple[Sighting, ...] = ()
        if blocker is None and not (target_code and target_code >> 3 == colour):
            victim = (target - 8 if colour == 0 else target + 8) if probe.en_passant else -1
            exposers = self.exposers(origin, target, king_square, colour ^ 1, victim)
        victim = (target - 8 if colour == 0 else target + 8) if probe.en_passant else target
        # The board never takes a king, seen or not; nor en passant one it reports (a ghost king
        # told over the pawn): what a move takes there is a king as far as anyone can tell.
        refused = self.true_squares[victim] & 7 == KING or (probe.en_passant and shown[victim] & 7 == KING)
        return ProbeReport(blocker, target_code, exposers, king_square, refused)

    def assess(self, colour: int, en_passant: int) -> Assessment:
        """``colour`` to move: who checks its king, its en passant captures, and a move it can make."""
        shown = self._shown
        by = colour ^ 1
        king = self._kings[colour]
        check = self.attackers(king, by)
        pawn = colour * 8 + PAWN
        ghosts = self._ghosts  # reported, but no actor stands there to move
        captures = (
            tuple(
                Probe(square, en_passant, (), True, "enemy")
                for square in self.squares_of(pawn)
                if square not in ghosts
                and (entry := self.declared(square).get(en_passant)) is not None
                and entry[2] == "enemy"
            )
            if en_passant >= 0
            else ()
        )
        en_passant_reports = tuple((probe, self.probe(probe, colour)) for probe in captures)
        unclear: list[tuple[Probe, ProbeReport]] = []
        # The king's moves cost most to prove safe, so it is tried last; the rest in any order.
        pieces = [
            square for square in self._by_colour[colour] if shown[square] & 7 != KING and square not in ghosts
        ]
        if king >= 0 and king not in ghosts:
            pieces.append(king)
        truth = self.true_squares
        for origin in pieces:
            is_king = shown[origin] & 7 == KING
            for target, traversed, rule in self.declared(origin).values():
                if traversed and any(shown[s] for s in traversed):
                    continue
                occupant = shown[target]
                if occupant & 7 == KING or truth[target] & 7 == KING:
                    continue  # no move takes a king, a hidden one included: it is no way out
                if occupant:
                    if occupant >> 3 == colour or rule == "empty":
                        continue
                elif rule == "enemy":
                    continue  # en passant comes as its own probe
                king_square = target if is_king else king
                exposers = self.exposers(origin, target, king_square, by)
                probe = Probe(origin, target, traversed, False, rule)
                if not exposers:
                    return Assessment(king, check, en_passant_reports, probe, (), self.placement())
                unclear.append((probe, ProbeReport(None, occupant, exposers, king_square)))
        return Assessment(king, check, en_passant_reports, None, tuple(unclear), self.placement())
