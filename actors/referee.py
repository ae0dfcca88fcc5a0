"""The referee actor: judges each proposed move by asking the pieces and the board, never a position.

Legality emerges from the conversation: pieces say which squares a move traverses, the board says what
stands there and who might reach a king, those pieces confirm; board.judge decides over the facts.

How you talk to me (only the client and the supervisor ask me; I ask pieces and the board):
    Propose(text | origin, target, promotion, ply) -> Accepted(uci, san, check, outcome)
                                                   | Rejected(text, reason, kind)
    FenQuery()                 -> Description(fen)
    LegalTargetsQuery(square)  -> LegalTargets(square, targets)
    Begin()                    -> Ready(plies)       (rebuild from the heir's journal and the board)
  position-only mode (ChessMoveQ: no turn, no castling, no en passant; a side may have no king)
    Setup(entries)             -> Ready(0)           (the board seats them; I re-read its roster)
    CheckMove(colour, kind, target) -> MoveCheck(valid, origins, reasons)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pykka

from actors.actor_base import DEFAULT_TIMEOUT, ActorFailure, TracedActor, ask, wait_all
from actors.journal import GameState, Heir, JournalEntry, PositionKey
from actors.messages import (
    Accepted,
    Applied,
    Apply,
    Assess,
    Assessment,
    Begin,
    CastleQuery,
    CastleSurvey,
    CheckMove,
    Describe,
    Description,
    FenQuery,
    LegalTargets,
    LegalTargetsQuery,
    MoveCheck,
    MoveQuery,
    PathEntry,
    Probe,
    ProbeReport,
    Propose,
    Ready,
    Rejected,
    Roster,
    RosterQuery,
    Setup,
    Survey,
    SurveyReport,
    Targets,
    TargetsQuery,
    Yes,
)
from actors.occupancy import JournalMove
from actors.tracing import TraceRecorder
from board.bitboards import BETWEEN_SQUARES
from board.chessmoveq import Placement, answer_from_facts, intent_for
from board.errors import IllegalMoveError, MoveSyntaxError
from board.judge import CandidateFacts, CastlingFacts, Intent, Sighting, decide, decide_castling
from board.notation import format_san, intent_from_san, intent_from_squares
from board.outcome import decide_outcome, ending
from board.pieces import (
    BISHOP,
    COLOUR_NAMES,
    KIND_BY_LETTER,
    KIND_LETTERS,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    WHITE,
)
from board.position import KEEP_RIGHTS
from board.san_syntax import parse_san, parse_uci
from board.squares import SQUARE_NAMES

CASTLE_ROOK = {6: (7, 5), 2: (0, 3), 62: (63, 61), 58: (56, 59)}
"""For each castling king target: the rook's from and to squares."""
_KING_HOMES = (4, 60)
# Mobility is proved soonest by pieces with few, short moves; the king's moves cost most.
_MOBILITY_ORDER = (KNIGHT, BISHOP, ROOK, QUEEN, PAWN, KING)

class RefereeRegistry(Protocol):
    """What the referee needs from its supervisor."""

    heir: Heir

    def ref(self, name: str) -> pykka.ActorRef[Any] | None:
        """The running actor called ``name``."""

    def retire(self, name: str) -> None:
        """Stop supervising a captured piece (it is not to be restarted)."""


class LostTrack(RuntimeError):
    """The referee failed between the board making a move and the journal recording it: it stops."""


@dataclass(slots=True)
class _Verdict:
    """What judging a move found: the legal origin, or the reason and kind of refusal."""

    origin: int = -1
    reason: str | None = None
    kind: str = "illegal"
    facts: list[CandidateFacts] = dataclasses.field(default_factory=list)
    onward: dict[int, tuple[PathEntry, ...]] = dataclasses.field(default_factory=dict)


class RefereeActor(TracedActor):
    """The referee of one game: a roster learnt from the board, the game state, memoised targets."""

    def __init__(
        self,
        registry: RefereeRegistry,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        name: str = "referee",
        board: str = "board",
    ) -> None:
        super().__init__(name, recorder, timeout)
        self.registry = registry
        self.board = board
        self.codes: list[int] = [0] * 64
        self.names: list[str] = [""] * 64
        self.by_code: list[set[int]] = [set() for _ in range(16)]
        self.memo: dict[int, tuple[PathEntry, ...]] = {}
        self.state = registry.heir.start_state
        self.seen: Counter[PositionKey] = Counter()
        self.checkers: tuple[Sighting, ...] = ()
        self.has_move = True
        self.over: str | None = None
        self.ply = 0

    def handle(self, message: object) -> object:
        """What I do on each message."""
        match message:
            case Propose():
                return self._propose(message)
            case FenQuery():
                state = self.state
                describe = Describe(
                    self.name, message.corr, state.turn, state.castling, state.legal_en_passant,
                    state.halfmove, state.fullmove,
                )
                description: Description = self._ask_board(describe)
                return description
            case LegalTargetsQuery(square=square):
                return LegalTargets(self.name, message.corr, square, self._legal_targets(square))
            case Begin():
                self._begin()
                return Ready(self.name, message.corr, self.ply)
            case Setup():
                self._setup(message)
                return Ready(self.name, message.corr, 0)
            case CheckMove():
                return self._check_move(message)
            case _:
                raise TypeError(f"{self.name} cannot handle {type(message).__name__}")

    # -- asking others

    def _ask_many(self, questions: Sequence[tuple[str, object]]) -> list[Any]:
        """Ask several actors at once and wait for every reply (one round)."""
        registry = self.registry
        futures = [ask(registry.ref(name), name, self.envelope(name, message)) for name, message in questions]
        return wait_all(futures, self.timeout)

    def _ask_board(self, message: object) -> Any:
        return self._ask_many([(self.board, message)])[0]

    def _confirm(self, pairs: Iterable[tuple[Sighting, int]]) -> set[tuple[int, int]]:
        """Ask each candidate piece whether it can move to the king square: the confirmed pairs."""
        wanted = list(dict.fromkeys((sighting[0], king) for sighting, king in pairs))
        if not wanted:
            return set()
        questions = [
            (self.names[square], MoveQuery(self.name, self.ply, square, king, self.codes[square] >> 3))
            for square, king in wanted
        ]
        replies = self._ask_many(questions)
        return {pair for pair, reply in zip(wanted, replies, strict=True) if isinstance(reply, Yes)}

    # -- (re)building

    def _begin(self) -> None:
        heir = self.registry.heir
        entries = heir.entries()
        roster: Roster = self._ask_board(RosterQuery(self.name, len(entries)))
        self._learn_roster(roster)
        self.ply = len(entries)
        self.state = entries[-1].state if entries else heir.start_state
        self.over = ending(entries[-1].outcome, len(entries)) if entries else None
        self.memo = {}
        self._fetch_targets([square for square, code in enumerate(self.codes) if code])
        colour = self.state.turn
        assessment: Assessment = self._ask_board(
            Assess(
                self.name, self.ply, colour, self._mobility_pieces(colour), self._en_passant_probes(colour)
            )
        )
        self._absorb(assessment, colour)
        if heir.initial_key is None:
            heir.initial_key = self._key(roster.placement)
        self.seen = Counter([heir.initial_key, *(entry.key for entry in entries)])
        if not entries:
            pieces = [(square, code) for square, code in enumerate(self.codes) if code]
            heir.start_outcome = decide_outcome(
                self.has_move, bool(self.checkers), pieces, self.state.halfmove, self.seen[heir.initial_key]
            )
            self.over = ending(heir.start_outcome, 0)

    def _learn_roster(self, roster: Roster) -> None:
        self.codes, self.names = [0] * 64, [""] * 64
        self.by_code = [set() for _ in range(16)]
        for entry in roster.entries:
            self.codes[entry.square], self.names[entry.square] = entry.code, entry.name
            self.by_code[entry.code].add(entry.square)

    def _fetch_targets(self, squares: Sequence[int]) -> None:
        questions = [(self.names[s], TargetsQuery(self.name, self.ply, s)) for s in squares]
        for reply in self._ask_many(questions):
            assert isinstance(reply, Targets)
            self.memo[reply.square] = reply.paths

    def _key(self, placement: bytes) -> PositionKey:
        state = self.state
        return (placement, state.turn, state.castling, state.legal_en_passant)

    # -- judging a proposal

    def _propose(self, message: Propose) -> Accepted | Rejected:
        corr = self.ply + 1
        text = message.text or self._squares_text(message)
        if message.ply and message.ply != corr:
            reason = f"meant for ply {message.ply}, but ply {corr} is next"
            return Rejected(self.name, corr, text, reason, "stale")
        if self.over is not None:
            return Rejected(self.name, corr, text, f"the game is over ({self.over})", "over")
        try:
            intent = self._intent(message)
        except MoveSyntaxError as error:
            return Rejected(self.name, corr, text, str(error), "syntax")
        except IllegalMoveError as error:
            return Rejected(self.name, corr, text, error.reason, "illegal")
        if message.colour is not None and message.colour != self.state.turn:
            return Rejected(self.name, corr, text, f"it is {COLOUR_NAMES[self.state.turn]}'s turn to move")
        verdict = self._judge_castling(intent) if intent.castle is not None else self._judge(intent)
        if isinstance(verdict, Accepted):
            return verdict  # the conditional Apply found the facts as expected: the move is made
        if verdict.reason is not None:
            if not self.has_move:
                self.over = ending("checkmate" if self.checkers else "stalemate", self.ply)
                return Rejected(self.name, corr, text, f"the game is over ({self.over})", "over")
            return Rejected(self.name, corr, text, verdict.reason, verdict.kind)
        accepted = self._apply(intent, verdict)
        assert isinstance(accepted, Accepted), "a plain Apply is always carried out"
        return accepted

    @staticmethod
    def _squares_text(message: Propose) -> str:
        if message.origin < 0 or message.target < 0:
            return ""
        suffix = KIND_LETTERS[message.promotion].lower() if message.promotion else ""
        return f"{SQUARE_NAMES[message.origin]}{SQUARE_NAMES[message.target]}{suffix}"

    def _intent(self, message: Propose) -> Intent:
        turn = self.state.turn
        if not message.text:
            if not (0 <= message.origin < 64 and 0 <= message.target < 64):
                raise MoveSyntaxError("a move needs a text or two squares")
            origin, target = message.origin, message.target
            return intent_from_squares(turn, self.codes[origin], origin, target, message.promotion)
        try:
            return intent_from_san(parse_san(message.text), turn)
        except MoveSyntaxError as san_error:
            try:
                uci = parse_uci(message.text)
            except MoveSyntaxError:
                raise san_error from None
            promotion = KIND_BY_LETTER[uci.promotion] if uci.promotion else 0
            origin = uci.from_square
            code = self.codes[origin]
            return intent_from_squares(turn, code, origin, uci.to_square, promotion, message.text)

    def _king_square(self, colour: int) -> int:
        return next(iter(self.by_code[colour * 8 + KING]))

    def _judge(self, intent: Intent) -> _Verdict | Accepted:
        """Gather the facts about every candidate piece by messages, then board.judge decides.

        When exactly one piece says yes, the referee decides before the board has spoken, over the
        facts it expects (a clear path, the target as its roster has it, nobody reaching the king):
        if those facts make the move legal, it sends a conditional Apply, which the board carries out
        only if its facts are exactly those. Otherwise, or when the board's facts differ, the facts
        it reports are confirmed and decided upon as usual, and a plain Apply follows."""
        colour, kind, target = intent.colour, intent.kind, intent.target
        code = colour * 8 + kind
        origins = sorted(self.by_code[code])
        if kind == PAWN:
            origins = [origin for origin in origins if intent.admits(origin)]
        king = self._king_square(colour)
        finder = dataclasses.replace(intent, capture=False) if intent.capture else intent
        probes, yeses = self._ask_candidates(colour, code, origins, target)
        report: SurveyReport | None = None
        if len(probes) == 1:
            probe, yes = probes[0], yeses[0]
            expect = self.codes[target]
            expected = [
                CandidateFacts(
                    origin, code, probe.traversed, probe.target_rule, None, expect, probe.en_passant, ()
                )
                if origin == probe.origin
                else CandidateFacts(origin, code, None)
                for origin in origins
            ]
            if len(decide(finder, expected, king, self.checkers).origins) == 1:
                verdict = _Verdict(probe.origin, None, "illegal", expected, {probe.origin: yes.onward})
                outcome = self._apply(intent, verdict, (probe, expect))
                if isinstance(outcome, Accepted):
                    return outcome
                report = outcome
        facts, onward, _ = self._facts_from(colour, code, origins, probes, yeses, report)
        found = decide(finder, facts, king, self.checkers).origins
        if len(found) == 1:
            return _Verdict(found[0], None, "illegal", facts, onward)
        reason = decide(intent, facts, king, self.checkers).reason
        if len(found) > 1 and reason is not None:
            return _Verdict(-1, reason, "ambiguous", facts)
        return _Verdict(-1, reason or "not a legal move here", "illegal", facts)

    def _candidate_facts(
        self, colour: int, code: int, origins: Sequence[int], target: int, with_checkers: bool = False
    ) -> tuple[list[CandidateFacts], dict[int, tuple[PathEntry, ...]], tuple[Sighting, ...]]:
        """The facts about each candidate, their onward targets, and (``with_checkers``) who checks
        ``colour``'s king now: asked in the same Survey, confirmed in the same round."""
        if not origins:
            return [], {}, ()
        probes, yeses = self._ask_candidates(colour, code, origins, target)
        return self._facts_from(colour, code, origins, probes, yeses, None, with_checkers)

    def _ask_candidates(
        self, colour: int, code: int, origins: Sequence[int], target: int
    ) -> tuple[list[Probe], list[Yes]]:
        """Ask every candidate piece at once whether its geometry allows the move: a probe per yes.

        A piece that has told me its targets from where it stands (TargetsQuery, or the onward
        targets of its last Yes) and did not name this one would say no: it is not asked."""
        memo = self.memo
        asked = [o for o in origins if o not in memo or any(path[0] == target for path in memo[o])]
        if not asked:
            return [], []
        corr = self.ply + 1
        replies = self._ask_many(
            [(self.names[origin], MoveQuery(self.name, corr, origin, target, colour)) for origin in asked]
        )
        probes: list[Probe] = []
        yeses: list[Yes] = []
        for reply in replies:
            if isinstance(reply, Yes):
                en_passant = self._is_en_passant(code, target, reply.target_rule)
                probes.append(Probe(reply.start, target, reply.traversed, en_passant, reply.target_rule))
                yeses.append(reply)
        return probes, yeses

    def _facts_from(
        self, colour: int, code: int, origins: Sequence[int], probes: list[Probe], yeses: list[Yes],
        survey: SurveyReport | None, with_checkers: bool = False,
    ) -> tuple[list[CandidateFacts], dict[int, tuple[PathEntry, ...]], tuple[Sighting, ...]]:
        """The board's facts about the probes (``survey`` if already told, else a Survey), with the
        candidates that might reach a king confirmed by those pieces."""
        if not origins:
            return [], {}, ()
        corr = self.ply + 1
        reports: tuple[ProbeReport, ...] = ()
        check_candidates: tuple[Sighting, ...] = ()
        if survey is None and probes:
            survey = self._ask_board(Survey(self.name, corr, colour, tuple(probes), check=with_checkers))
        if survey is not None:
            reports, check_candidates = survey.reports, survey.check_candidates
        king = self._king_or_none(colour)
        confirmed = self._confirm(
            [(candidate, report.king_square) for report in reports for candidate in report.candidates]
            + [(candidate, king) for candidate in check_candidates]
        )
        by_origin = {
            probe.origin: (probe, report, yes)
            for probe, report, yes in zip(probes, reports, yeses, strict=True)
        }
        facts: list[CandidateFacts] = []
        onward: dict[int, tuple[PathEntry, ...]] = {}
        for origin in origins:
            found = by_origin.get(origin)
            if found is None:
                facts.append(CandidateFacts(origin, code, None))
                continue
            probe, report, yes = found
            onward[origin] = yes.onward
            exposers = tuple(c for c in report.candidates if (c[0], report.king_square) in confirmed)
            facts.append(
                CandidateFacts(
                    origin, code, probe.traversed, probe.target_rule, report.blocker, report.target_code,
                    probe.en_passant, exposers,
                )
            )
        checkers = tuple(c for c in check_candidates if (c[0], king) in confirmed)
        return facts, onward, checkers

    # -- position-only mode (ChessMoveQ)

    def _setup(self, message: Setup) -> None:
        """Have the board seat the pieces, learn its roster, and drop every game state: nobody is
        to move, there are no castling rights, no en passant square, no remembered targets."""
        self.ply = message.corr - 1  # no game here: the case number stands in for the ply in corr ids
        roster: Roster = self._ask_board(Setup(self.name, message.corr, message.entries))
        self._learn_roster(roster)
        self.state = GameState(WHITE, 0, -1, 0, 1)
        self.memo, self.seen = {}, Counter()
        self.checkers, self.has_move, self.over = (), True, None

    def _check_move(self, message: CheckMove) -> MoveCheck:
        """Can any piece of that colour and kind go there? The facts come from the same conversation
        as a proposal's (pieces, board, confirmations); board.chessmoveq words the answer."""
        self.ply = message.corr - 1
        colour, kind, target = message.colour, message.kind, message.target
        code = colour * 8 + kind
        facts, _, checkers = self._candidate_facts(
            colour, code, sorted(self.by_code[code]), target, with_checkers=True
        )
        intent = intent_for(Placement(colour, kind, target))
        answer = answer_from_facts(intent, facts, self._king_or_none(colour), checkers)
        return MoveCheck(self.name, message.corr, answer.valid, answer.origins, answer.reasons)

    def _king_or_none(self, colour: int) -> int:
        """The square of ``colour``'s king, -1 if it has none (position-only mode allows that)."""
        return min(self.by_code[colour * 8 + KING], default=-1)

    def _judge_castling(self, intent: Intent) -> _Verdict:
        colour, side = intent.colour, intent.castle
        assert side is not None
        king = _KING_HOMES[colour]
        rook = king + 3 if side == "K" else king - 4
        codes, corr = self.codes, self.ply + 1
        has_right = codes[king] == colour * 8 + KING and codes[rook] == colour * 8 + ROOK
        replies: list[Any] = []
        if has_right:
            replies = self._ask_many(
                [
                    (self.names[king], CastleQuery(self.name, corr, side, king)),
                    (self.names[rook], CastleQuery(self.name, corr, side, rook)),
                ]
            )
            has_right = all(isinstance(reply, Yes) for reply in replies)
        if not has_right:
            return _Verdict(-1, decide_castling(intent, CastlingFacts(king, False, None, (), ())))
        king_yes, rook_yes = replies
        crossed = king_yes.traversed
        survey = CastleSurvey(king, BETWEEN_SQUARES[king][rook], crossed)
        report = self._ask_board(Survey(self.name, corr, colour, (), survey)).castle
        pairs = [(c, king) for c in report.king_candidates]
        pairs += [(c, square) for square, found in report.crossed_candidates for c in found]
        confirmed = self._confirm(pairs)
        checkers = tuple(c for c in report.king_candidates if (c[0], king) in confirmed)
        attacked = []
        for square, found in report.crossed_candidates:
            hits = [c for c in found if (c[0], square) in confirmed]
            if hits:
                attacked.append((square, hits[0]))
        facts = CastlingFacts(king, True, report.blocker, checkers, tuple(attacked))
        reason = decide_castling(intent, facts)
        onward = {king: king_yes.onward, rook: rook_yes.onward}
        return _Verdict(king if reason is None else -1, reason, "illegal", [], onward)

    # -- making the move

    def _apply(
        self, intent: Intent, verdict: _Verdict, condition: tuple[Probe, int] | None = None
    ) -> Accepted | SurveyReport:
        """Have the board make the move, then learn the new position and journal the move.

        ``condition`` (probe, expected target code) makes the Apply conditional: the board surveys the
        probe first and makes the move only if the path is clear, the target holds the expected code
        and no enemy piece might reach the mover's king; otherwise it answers the SurveyReport and
        nothing changes, here or there.
        """
        colour, target, origin = intent.colour, intent.target, verdict.origin
        codes, state = self.codes, self.state
        code = codes[origin]
        kind = code & 7
        castle = intent.castle is not None
        rook = CASTLE_ROOK[target] if castle else None
        en_passant = any(f.origin == origin and f.en_passant for f in verdict.facts)
        victim = (target - 8 if colour == WHITE else target + 8) if en_passant else -1
        captured_code = codes[victim] if en_passant else codes[target]
        promotion = intent.promotion if kind == PAWN else 0
        ply = self.ply + 1
        double_push = kind == PAWN and abs(target - origin) == 16
        new_state = GameState(
            colour ^ 1,
            state.castling & KEEP_RIGHTS[origin] & KEEP_RIGHTS[target],
            (origin + target) >> 1 if double_push else -1,
            0 if captured_code or kind == PAWN else state.halfmove + 1,
            state.fullmove + (1 if colour != WHITE else 0),
        )
        move = JournalMove(origin, target, promotion, rook, victim, ply)
        rivals: tuple[int, ...] = ()
        contested = any(f.traversed is not None and f.origin != origin for f in verdict.facts)
        if kind != PAWN and not castle and contested:  # another piece said yes: SAN may need to tell
            anyone = dataclasses.replace(
                intent, from_file=None, from_rank=None, from_square=None, capture=False
            )
            rivals = decide(anyone, verdict.facts, self._king_square(colour), ()).origins
        # What the opponent may answer with, from its pieces' memoised targets on the new board
        # (its piece on the captured square, if any, is gone).
        opponent = colour ^ 1
        gone = (victim if en_passant else target) if captured_code else -1
        assess = Assess(
            self.name, ply, opponent, self._mobility_pieces(opponent, gone),
            self._en_passant_probes(opponent, new_state.en_passant, gone),
        )
        probe, expect = condition if condition is not None else (None, -1)
        reply: Applied | SurveyReport = self._ask_board(
            Apply(self.name, ply, origin, target, promotion, rook, victim, ply, assess, probe, expect)
        )
        if not isinstance(reply, Applied):
            return reply
        applied = reply
        memo = self.memo
        memo.pop(origin, None)
        memo.pop(victim, None)
        if promotion:
            memo.pop(target, None)
        else:
            memo[target] = verdict.onward[origin]
        if rook is not None:
            memo.pop(rook[0], None)
            memo[rook[1]] = verdict.onward[rook[0]]
        self._move_roster(origin, target, code, rook, victim, promotion)
        self.state = new_state
        for square, new_code, name in applied.changes:
            self.codes[square], self.names[square] = new_code, name
        if applied.captured is not None:
            self.registry.retire(applied.captured)
        self.ply = ply
        try:
            self._absorb(applied.assessment, opponent)
        except ActorFailure as failure:
            # The board has made the move, but I cannot learn what it left: rather than judge on
            # from a half-changed state, I stop, and the supervisor rebuilds me (and the board) from
            # the journal, where this move is not.
            raise LostTrack(f"{self.name} lost track of the game after ply {ply}: {failure}") from failure
        key = self._key(applied.assessment.placement)
        self.seen[key] += 1
        in_check = bool(self.checkers)
        pieces = ((square, piece) for square, piece in enumerate(self.codes) if piece)
        outcome = decide_outcome(self.has_move, in_check, pieces, new_state.halfmove, self.seen[key])
        capture = bool(captured_code) or (kind == PAWN and origin & 7 != target & 7)
        mate = outcome == "checkmate"
        san = format_san(code, origin, target, capture, promotion, castle, rivals, in_check, mate)
        suffix = KIND_LETTERS[promotion].lower() if promotion else ""
        uci = f"{SQUARE_NAMES[origin]}{SQUARE_NAMES[target]}{suffix}"
        self.registry.heir.append(JournalEntry(uci, san, in_check, outcome, move, key, self.state))
        self.over = ending(outcome, ply)
        return Accepted(self.name, ply, uci, san, in_check, outcome)

    def _move_roster(
        self, origin: int, target: int, code: int, rook: tuple[int, int] | None, victim: int, promotion: int
    ) -> None:
        """Keep the per-code squares in step with the move (codes and names come from the board)."""
        by_code, codes = self.by_code, self.codes
        by_code[code].discard(origin)
        for square in (target, victim):
            if square >= 0 and codes[square]:
                by_code[codes[square]].discard(square)
        by_code[(code & 8) | promotion if promotion else code].add(target)
        if rook is not None:
            rook_code = codes[rook[0]]
            by_code[rook_code].discard(rook[0])
            by_code[rook_code].add(rook[1])

    def _mobility_pieces(self, colour: int, gone: int = -1) -> tuple[tuple[int, tuple[PathEntry, ...]], ...]:
        """``colour``'s pieces with their memoised targets, leaving out the square ``gone`` (a piece
        about to be captured)."""
        memo = self.memo
        base = colour * 8
        return tuple(
            (square, memo[square])
            for kind in _MOBILITY_ORDER
            for square in self.by_code[base + kind]
            if square in memo and square != gone
        )

    def _en_passant_probes(self, colour: int, square: int | None = None, gone: int = -1) -> tuple[Probe, ...]:
        """``colour``'s en passant captures onto ``square`` (default: the game state's), by the pawns
        whose memoised targets include it (leaving out the square ``gone``)."""
        if square is None:
            square = self.state.en_passant
        if square < 0:
            return ()
        return tuple(
            Probe(pawn, square, (), True, "enemy")
            for pawn in sorted(self.by_code[colour * 8 + PAWN])
            if pawn != gone
            and any(entry[0] == square and entry[2] == "enemy" for entry in self.memo.get(pawn, ()))
        )

    def _absorb(self, assessment: Assessment, colour: int) -> None:
        """Learn from the board's assessment (confirming candidates with pieces): check, en passant,
        whether ``colour`` has a legal move."""
        king = assessment.king_square
        pairs = [(c, king) for c in assessment.check_candidates]
        for report in assessment.en_passant:
            pairs += [(c, report.king_square) for c in report.candidates]
        missing = self._unmemoised(colour)
        own_missing = self._unmemoised(colour ^ 1)
        confirmed = self._confirm(pairs)
        if own_missing:
            self._fetch_targets(own_missing)
        self.checkers = tuple(c for c in assessment.check_candidates if (c[0], king) in confirmed)
        legal_en_passant = -1
        for report in assessment.en_passant:
            exposers = [c for c in report.candidates if (c[0], report.king_square) in confirmed]
            if report.blocker is None and not exposers:
                legal_en_passant = self.state.en_passant
        if legal_en_passant != self.state.legal_en_passant:
            self.state = dataclasses.replace(self.state, legal_en_passant=legal_en_passant)
        self.has_move = (
            assessment.open_probe is not None
            or legal_en_passant >= 0
            or self._some_move_survives(assessment, colour, missing)
        )

    def _unmemoised(self, colour: int) -> list[int]:
        """The squares of ``colour``'s pieces whose targets the referee has not yet been told."""
        memo, base = self.memo, colour * 8
        by_code = self.by_code
        return [square for kind in _MOBILITY_ORDER for square in by_code[base + kind] if square not in memo]

    def _some_move_survives(self, assessment: Assessment, colour: int, missing: list[int]) -> bool:
        """The rare path: no plainly open move was found among the memoised ones."""
        pairs = [(c, report.king_square) for _, report in assessment.unclear for c in report.candidates]
        confirmed = self._confirm(pairs)
        for _, report in assessment.unclear:
            if not any((c[0], report.king_square) in confirmed for c in report.candidates):
                return True
        if not missing:
            return False
        self._fetch_targets(missing)
        pieces = tuple((square, self.memo[square]) for square in missing)
        second: Assessment = self._ask_board(Assess(self.name, self.ply, colour, pieces))
        if second.open_probe is not None:
            return True
        return self._some_move_survives(second, colour, [])

    # -- legal targets of one piece

    def _legal_targets(self, square: int) -> tuple[int, ...]:
        code = self.codes[square]
        colour = code >> 3
        if not code or colour != self.state.turn or self.over is not None:
            return ()
        kind = code & 7
        if square not in self.memo:
            self._fetch_targets([square])
        codes, corr = self.codes, self.ply + 1
        probes = tuple(
            Probe(square, target, traversed, self._is_en_passant(code, target, rule), rule)
            for target, traversed, rule in self.memo[square]
            if not (codes[target] and codes[target] >> 3 == colour)
        )
        survey: SurveyReport = self._ask_board(Survey(self.name, corr, colour, probes))
        confirmed = self._confirm(
            (candidate, report.king_square) for report in survey.reports for candidate in report.candidates
        )
        king = self._king_square(colour)
        legal: set[int] = set()
        for probe, report in zip(probes, survey.reports, strict=True):
            target = probe.target
            exposers = tuple(c for c in report.candidates if (c[0], report.king_square) in confirmed)
            facts = CandidateFacts(
                square, code, probe.traversed, probe.target_rule, report.blocker, report.target_code,
                probe.en_passant, exposers,
            )
            last_rank = kind == PAWN and target >> 3 in (0, 7)
            intent = Intent(colour, kind, target, QUEEN if last_rank else 0, from_square=square)
            if decide(intent, [facts], king, self.checkers).legal:
                legal.add(target)
        if kind == KING and square == _KING_HOMES[colour]:
            for side, target in (("K", square + 2), ("Q", square - 2)):
                castle = Intent(colour, KING, target, castle=side)
                if self._judge_castling(castle).reason is None:
                    legal.add(target)
        return tuple(sorted(legal))

    def _is_en_passant(self, code: int, target: int, rule: str) -> bool:
        """A pawn's diagonal step onto the empty square a pawn just skipped."""
        if code & 7 != PAWN or rule != "enemy" or self.codes[target]:
            return False
        return target == self.state.en_passant
