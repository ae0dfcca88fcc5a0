"""The board actor: owns the occupancy (what stands where, under which actor name) and nothing else.

It reports facts (blockers, targets, which enemy pieces might reach a king) and moves pieces when
told; it never judges a move, and it only ever TELLS pieces (so no two actors wait on each other).

How you talk to me (the referee asks; the board tells pieces Moved / Captured):
    Survey(colour, probes, castle)   -> SurveyReport(reports, castle)
    Assess(colour, pieces, en_passant) -> Assessment(check candidates, en passant, open probe, ...)
    Apply(origin, target, promotion, rook, victim, ply, assess) -> Applied(changes, captured, assessment)
    Apply(..., probe, expect)        -> Applied(..., report) | SurveyReport   (conditional: I survey the
        probe and move only if its path is clear, its target holds ``expect`` and no enemy piece might
        reach the mover's king; otherwise I report the probe and change nothing)
    RosterQuery()                    -> Roster(entries, plies, placement)
    Describe(turn, castling, en passant, clocks) -> Description(fen)
    Setup(entries)                   -> Roster   (position-only mode: clear the board, seat these)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pykka

from actors.kernel.actor import DEFAULT_TIMEOUT, TracedActor, tell
from actors.protocol.messages import (
    Applied,
    Apply,
    Assess,
    Assessment,
    Captured,
    CastleReport,
    Describe,
    Description,
    Moved,
    Probe,
    ProbeReport,
    Roster,
    RosterEntry,
    RosterQuery,
    Setup,
    Survey,
    SurveyReport,
)
from actors.tracing.recorder import TraceRecorder
from board.candidates import reach_candidates, reach_candidates_after
from board.fen import format_fen, parse_fen
from board.judge import Sighting
from board.pieces import COLOUR_NAMES, KIND_NAMES, KING, WHITE
from board.squares import SQUARE_NAMES

# Which castling right keeps a king or rook on its home square unmoved.
_HOME_RIGHTS = {(4, 6): 3, (0, 4): 2, (7, 4): 1, (60, 14): 12, (56, 12): 8, (63, 12): 4}


Change = tuple[int, int, str]
"""A square that changed: (square, the code now there, the actor name now there)."""


class Registry(Protocol):
    """What the board needs from its supervisor: refs by name, and promotions."""

    def ref(self, name: str) -> pykka.ActorRef[Any] | None:
        """The running actor called ``name`` (None if none)."""

    def promote(self, pawn: str, name: str, code: int, square: int) -> None:
        """Retire the pawn actor and start the promoted piece's."""


@dataclass(frozen=True, slots=True)
class JournalMove:
    """An accepted move as the board applies it (the journal's board-facing half)."""

    origin: int
    target: int
    promotion: int
    rook: tuple[int, int] | None
    victim: int
    ply: int


def birth_name(code: int, square: int) -> str:
    """A piece actor's stable name: colour-kind-birth square ('white-knight-g1')."""
    return f"{COLOUR_NAMES[code >> 3]}-{KIND_NAMES[code & 7]}-{SQUARE_NAMES[square]}"


def promoted_name(code: int, square: int, ply: int) -> str:
    """A promoted piece's name: 'white-queen-e8-ply57'."""
    return f"{birth_name(code, square)}-ply{ply}"


class BoardActor(TracedActor):
    """The occupancy: 64 piece codes, the actor name and the moved flag of each piece.

    ``strict=False`` takes any placement (see board.fen.parse_fen), for position-only mode, where a
    side may have no king (its king square is then -1).
    """

    def __init__(
        self,
        start_fen: str,
        journal: Sequence[JournalMove] = (),
        registry: Registry | None = None,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        name: str = "board",
        *,
        strict: bool = True,
    ) -> None:
        super().__init__(name, recorder, timeout)
        self.registry = registry
        position = parse_fen(start_fen, strict=strict)  # setup: the placement and the rights it grants
        self.squares: list[int] = list(position.squares)
        self.names: list[str] = [birth_name(code, s) if code else "" for s, code in enumerate(self.squares)]
        self.moved: list[bool] = [
            not (position.castling & _HOME_RIGHTS.get((s, code), 0)) for s, code in enumerate(self.squares)
        ]
        self.kings = list(position.kings)
        self.plies = 0
        for move in journal:
            self._move(move, tell_pieces=False)

    def handle(self, message: object) -> object:
        """What I do on each message."""
        match message:
            case Survey():
                return self._survey(message)
            case Assess():
                return self._assess(message)
            case Apply():
                report: ProbeReport | None = None
                if message.probe is not None:
                    report = self._probe_report(message.probe, message.assess.colour ^ 1)
                    expected = report.blocker is None and report.target_code == message.expect
                    if not expected or report.candidates:
                        return SurveyReport(self.name, message.corr, (report,))
                move = JournalMove(
                    message.origin, message.target, message.promotion, message.rook, message.victim,
                    message.ply,
                )
                changes, captured = self._move(move, tell_pieces=True)
                assessment = self._assess(message.assess)
                return Applied(self.name, message.corr, changes, captured, assessment, report)
            case RosterQuery():
                return self._roster(message.corr)
            case Describe():
                return Description(self.name, message.corr, self._fen(message))
            case Setup():
                self._seat(message)
                return self._roster(message.corr)
            case _:
                raise TypeError(f"{self.name} cannot handle {type(message).__name__}")

    def _roster(self, corr: int) -> Roster:
        entries = tuple(
            RosterEntry(square, code, self.names[square], self.moved[square])
            for square, code in enumerate(self.squares)
            if code
        )
        return Roster(self.name, corr, entries, self.plies, bytes(self.squares))

    # -- moving pieces

    def _seat(self, message: Setup) -> None:
        """Clear the board and seat the pieces named (position-only mode).

        The pieces are not told: there a piece actor stands for its colour and kind wherever it is
        seated, and every question names the square it asks about. Telling some twenty pieces a case
        would cost more than half the throughput of a batch (measured: about 1,000 against 2,500 cases/s).
        """
        squares, names, moved = [0] * 64, [""] * 64, [False] * 64
        kings = [-1, -1]
        for entry in message.entries:
            square = entry.square
            squares[square], names[square], moved[square] = entry.code, entry.name, entry.has_moved
            if entry.code & 7 == KING:
                kings[entry.code >> 3] = square
        self.squares, self.names, self.moved, self.kings, self.plies = squares, names, moved, kings, 0

    def _move(self, move: JournalMove, tell_pieces: bool) -> tuple[tuple[Change, ...], str | None]:
        squares, names, moved = self.squares, self.names, self.moved
        origin, target = move.origin, move.target
        code, name = squares[origin], names[origin]
        captured_square = move.victim if move.victim >= 0 else target
        captured = names[captured_square] if squares[captured_square] else None
        squares[captured_square], names[captured_square] = 0, ""
        squares[origin], names[origin], moved[origin] = 0, "", False
        squares[target], names[target], moved[target] = code, name, True
        changes = [(origin, 0, ""), (target, code, name)]
        if move.victim >= 0:
            changes.append((move.victim, 0, ""))
        rook_name = ""
        if move.rook is not None:
            rook_from, rook_to = move.rook
            rook_name = names[rook_from]
            squares[rook_to], names[rook_to], moved[rook_to] = squares[rook_from], rook_name, True
            squares[rook_from], names[rook_from], moved[rook_from] = 0, "", False
            changes += [(rook_from, 0, ""), (rook_to, squares[rook_to], rook_name)]
        if code & 7 == KING:
            self.kings[code >> 3] = target
        promoted = ""
        if move.promotion:
            new_code = (code & 8) | move.promotion
            promoted = promoted_name(new_code, target, move.ply)
            squares[target], names[target] = new_code, promoted
            changes[1] = (target, new_code, promoted)
        self.plies += 1
        if tell_pieces:
            self._tell_pieces(name, target, rook_name, move, captured, promoted, squares[target])
        return tuple(changes), captured

    def _tell_pieces(
        self, name: str, target: int, rook_name: str, move: JournalMove, captured: str | None,
        promoted: str, new_code: int,
    ) -> None:
        registry = self.registry
        if registry is None:
            return
        if captured is not None:
            tell(registry.ref(captured), self.envelope(captured, Captured(self.name, move.ply)))
        if promoted:
            registry.promote(name, promoted, new_code, target)
        else:
            tell(registry.ref(name), self.envelope(name, Moved(self.name, move.ply, target)))
        if move.rook is not None:
            tell(registry.ref(rook_name), self.envelope(rook_name, Moved(self.name, move.ply, move.rook[1])))

    # -- reporting facts

    def _sightings(self, found: tuple[int, ...]) -> tuple[Sighting, ...]:
        squares = self.squares
        return tuple((square, squares[square]) for square in found)

    def _survey(self, message: Survey) -> SurveyReport:
        squares = self.squares
        colour, by = message.colour, message.colour ^ 1
        reports = []
        for probe in message.probes:
            reports.append(self._probe_report(probe, colour))
        castle = None
        if message.castle is not None:
            survey = message.castle
            blocker = next(((s, squares[s]) for s in survey.between if squares[s]), None)
            king_candidates = self._sightings(reach_candidates(squares, survey.king_square, by))
            crossed = tuple(
                (square, self._sightings(reach_candidates(squares, square, by))) for square in survey.crossed
            )
            castle = CastleReport(blocker, king_candidates, crossed)
        check: tuple[Sighting, ...] = ()
        if message.check:
            check = self._sightings(reach_candidates(squares, self.kings[colour], by))
        return SurveyReport(self.name, message.corr, tuple(reports), castle, check)

    def _probe_report(self, probe: Probe, colour: int) -> ProbeReport:
        squares = self.squares
        origin, target = probe.origin, probe.target
        blocker = next(((s, squares[s]) for s in probe.traversed if squares[s]), None)
        target_code = squares[target]
        king_square = target if squares[origin] & 7 == KING else self.kings[colour]
        candidates: tuple[Sighting, ...] = ()
        if blocker is None and not (target_code and target_code >> 3 == colour):
            victim = (target - 8 if colour == WHITE else target + 8) if probe.en_passant else -1
            found = reach_candidates_after(squares, origin, target, king_square, colour ^ 1, victim)
            candidates = self._sightings(found)
        return ProbeReport(blocker, target_code, candidates, king_square)

    def _assess(self, message: Assess) -> Assessment:
        squares = self.squares
        colour = message.colour
        by = colour ^ 1
        king = self.kings[colour]
        check = self._sightings(reach_candidates(squares, king, by))
        en_passant = tuple(self._probe_report(probe, colour) for probe in message.en_passant)
        open_probe: Probe | None = None
        unclear: list[tuple[Probe, ProbeReport]] = []
        for origin, paths in message.pieces:
            code = squares[origin]
            if not code or code >> 3 != colour:
                continue
            is_king = code & 7 == KING
            for target, traversed, rule in paths:
                if traversed and any(squares[s] for s in traversed):
                    continue
                target_code = squares[target]
                if target_code:
                    if target_code >> 3 == colour or rule == "empty":
                        continue
                elif rule == "enemy":
                    continue  # en passant comes as its own probe
                king_square = target if is_king else king
                found = reach_candidates_after(squares, origin, target, king_square, by)
                probe = Probe(origin, target, traversed, False, rule)
                if not found:
                    open_probe = probe
                    break
                unclear.append((probe, ProbeReport(None, target_code, self._sightings(found), king_square)))
            if open_probe is not None:
                break
        return Assessment(
            self.name, message.corr, king, check, en_passant, open_probe,
            () if open_probe is not None else tuple(unclear), bytes(squares),
        )

    def _fen(self, message: Describe) -> str:
        return format_fen(self.squares, message.turn, message.castling, message.en_passant,
                          message.halfmove, message.fullmove)

