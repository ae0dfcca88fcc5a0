"""The referee of a game: judges each proposal by asking the pieces and the board, then has it made.

It owns what a judge owns (side to move, castling rights, en passant, the clocks, the repetition
history, the verdict) and nothing else; who stands where it only has as a hint (see conversation).

How you talk to me: see :mod:`actors.protocol.referee`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, assert_never

from actors.kernel.errors import ActorFailure
from actors.kernel.messaging import DEFAULT_TIMEOUT, Directory
from actors.protocol.board import (
    Applied,
    Apply,
    ApplyRefused,
    Describe,
    Gather,
    Gathered,
    ProbeReports,
    ProbeSurvey,
)
from actors.protocol.journal import JournalEntries, JournalQuery, RecordStart, Reset
from actors.protocol.piece import Targets, TargetsQuery
from actors.protocol.referee import (
    Accepted,
    Begin,
    FenQuery,
    LegalTargets,
    LegalTargetsQuery,
    ProposeSquares,
    ProposeText,
    Ready,
    RefereeRequest,
    Rejected,
    Verdict,
)
from actors.protocol.values import (
    Assessment,
    GameState,
    JournalEntry,
    JournalMove,
    PositionKey,
    Probe,
    Sighting,
)
from actors.roles.referee.castling import judge_castling
from actors.roles.referee.conversation import WHEREABOUTS, Conversation
from actors.roles.referee.ruling import Ruling
from actors.roles.registered import BOARD, JOURNAL, REFEREE
from board.errors import IllegalMoveError, MoveSyntaxError
from board.notation.algebraic import format_san, intent_from_squares, san_intent
from board.notation.san_syntax import parse_uci
from board.rules.judge import CandidateFacts, Decision, Intent, decide
from board.rules.outcome import GAME_OVER, claims, decide_outcome, ending
from board.rules.pieces import (
    BISHOP,
    COLOUR_NAMES,
    KIND_BY_LETTER,
    KIND_LETTERS,
    KIND_NAMES,
    KING,
    KNIGHT,
    LAST_RANK,
    PAWN,
    PROMOTION_KINDS,
    QUEEN,
    WHITE,
)
from board.rules.squares import SQUARE_NAMES

if TYPE_CHECKING:
    from actors.tracing.recorder import TraceRecorder



class LostTrack(RuntimeError):
    """The referee failed between asking the board to make a move and learning what it left: it
    stops, and the supervisor rebuilds it (and the board) from the journal, where that move is not."""


def as_material(pieces: Iterable[tuple[int, int]], lessons: dict[int, str]) -> Iterator[tuple[int, int]]:
    """Each piece as the material its move function makes it: a piece taught to move as a standard
    bishop or knight counts as one, any other lesson as a queen (it may mate: nothing says it
    cannot); a pawn stays a pawn (it may still promote). A king stays the king, and one that moves
    by any function but a king's own is also mating material, as a queen beside it."""
    for square, code in pieces:
        label = lessons.get(square)
        if label is None or code & 7 == PAWN:
            yield square, code
        elif code & 7 == KING:
            yield square, code
            yield square, (code & 8) | QUEEN
        else:
            yield square, (code & 8) | (KIND_NAMES.index(label) if label in MINOR_LABELS else QUEEN)


MINOR_LABELS = frozenset({KIND_NAMES[BISHOP], KIND_NAMES[KNIGHT]})
"""The move functions a piece may have and still leave its side short of mating material."""


@functools.lru_cache(maxsize=4096)
def _ignoring_capture(intent: Intent) -> Intent:
    """The intent with its capture mark ignored (finding the piece does not depend on it)."""
    return dataclasses.replace(intent, capture=False) if intent.capture else intent


class RefereeActor(Conversation[RefereeRequest]):
    """The referee of one game."""

    def __init__(
        self, directory: Directory, recorder: TraceRecorder | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        super().__init__(REFEREE, directory, recorder, timeout)
        self.init_hints()
        self.state = GameState(WHITE, 0, -1, 0, 1)
        self.seen: Counter[PositionKey] = Counter()
        self.checkers: tuple[Sighting, ...] = ()
        self.has_move = True
        self.over: str | None = None
        """How the game ended and at which ply ('checkmate at ply 33'), once it has."""
        self.outcome: str | None = None
        self.claimable: tuple[str, ...] = ()
        self.ply = 0
        self.refused = 0
        """The last ply whose proposal was refused: proposals sent for later plies behind it are cancelled."""

    def handle(self, message: RefereeRequest) -> object:
        """What I do on each message."""
        match message:
            case ProposeText() | ProposeSquares():
                return self._propose(message)
            case FenQuery():
                return self.ask_one(BOARD, Describe(self.state))
            case LegalTargetsQuery(square=square):
                return LegalTargets(square, self.legal_targets(square))
            case Begin(start=start, lessons_at_start=lessons_at_start):
                self._begin(start, lessons_at_start)
                return Ready(self.ply, self.outcome, self.claimable)
            case _:
                assert_never(message)

    # -- (re)building from the journal and the board

    def _begin(self, start: GameState | None, lessons_at_start: bool = False) -> None:
        """Rebuild from the journal, or (``start``) begin a new game there and have the journal start
        over; ``lessons_at_start``: the start position's key is taken afresh (see Begin)."""
        new_game = start is not None
        known: PositionKey | None = None
        entries: tuple[JournalEntry, ...] = ()
        if start is None:
            journal: JournalEntries = self.ask_one(JOURNAL, JournalQuery())
            entries, start, known = journal.entries, journal.start_state, journal.start_key
            if lessons_at_start and not entries:
                known = None
        self.ply = len(entries)
        self.state = entries[-1].state if entries else start
        gathered: Gathered = self.ask_one(BOARD, Gather(self.state.turn, self.state.en_passant))
        self.learn_roster(gathered.entries)
        self._absorb(gathered.assessment, self.state.turn)
        start_key = known or self._key(gathered.assessment)
        self.seen = Counter([start_key, *(entry.key for entry in entries)])
        # The position as it stands now, lessons taught since the last move included: a lesson that
        # changed a piece's move function makes it a position the history may not hold at all.
        current = self._key(gathered.assessment) if entries else start_key
        self.outcome = self._outcome(gathered.assessment, self.seen[current])
        if entries and entries[-1].outcome in GAME_OVER:
            self.outcome = entries[-1].outcome  # a game a move ended stays ended, whatever is taught
        self.claimable = claims(self.outcome, self.state.halfmove, self.seen[current])
        self.over = ending(self.outcome, self.ply)
        if new_game:
            self.tell(JOURNAL, Reset(start, start_key, self.outcome))
        elif known is None:
            self.tell(JOURNAL, RecordStart(start_key, self.outcome, again=lessons_at_start))

    def _key(self, assessment: Assessment) -> PositionKey:
        """Positions repeat only when the pieces' move functions are the same too (as they declared);
        a position is the one the board holds, whatever a lie makes it report."""
        state = self.state
        placement, lessons = assessment.held or (assessment.placement, assessment.lessons)
        return (placement, state.turn, state.castling, state.legal_en_passant, lessons)

    # -- judging a proposal

    def _propose(self, message: ProposeText | ProposeSquares) -> Verdict:
        ply = self.ply + 1
        verdict = self._verdict(message, ply)
        if isinstance(verdict, Rejected) and verdict.kind != "stale":
            self.refused = ply
        return verdict

    def _verdict(self, message: ProposeText | ProposeSquares, ply: int) -> Verdict:
        text = message.text if isinstance(message, ProposeText) else self._squares_text(message)
        if message.ply and message.ply > ply and self.refused == ply:
            # Sent for a later ply before the proposal for this one was refused: no such ply was
            # played, so the message served the refused one (and its trace says so, when the
            # instrument is the tracer, whose deliveries can be told: see actors.tracing.recorder.Delivery).
            cancelled = getattr(self.current, "cancelled", None)
            if cancelled is not None:
                cancelled(ply)
            return Rejected(text, f"cancelled: sent behind ply {ply}, which was refused", "stale")
        if message.ply and message.ply != ply:
            return Rejected(text, f"meant for ply {message.ply}, but ply {ply} is next", "stale")
        if self.over is not None:
            return Rejected(text, f"the game is over ({self.over})", "over")
        if (
            isinstance(message, ProposeText)
            and message.colour is not None
            and message.colour != self.state.turn
        ):
            return Rejected(text, f"it is {COLOUR_NAMES[self.state.turn]}'s turn to move")
        if isinstance(message, ProposeSquares) and message.promotion not in (0, *PROMOTION_KINDS):
            return Rejected(text, "a pawn promotes to a knight, bishop, rook or queen only", "syntax")
        try:
            intent = self._intent(message)
        except MoveSyntaxError as error:
            return Rejected(text, str(error), "syntax")
        except IllegalMoveError as error:
            return Rejected(text, error.reason, "illegal")
        if intent.castle is not None:
            ruling = self.castle(self.state, intent)
            plain = self._plain_king_move(message, intent) if ruling.reason is not None else None
            if plain is not None:  # a king that moves two squares by its own rule, castling or not
                other = self._judge(plain)
                if other.reason is None:
                    intent, ruling = plain, other
        else:
            ruling = self._judge(intent)
        if ruling.reason is not None:
            return Rejected(text, ruling.reason, "ambiguous" if ruling.kind == "ambiguous" else "illegal")
        return self._make(text, intent, ruling)

    @staticmethod
    def _plain_king_move(message: ProposeText | ProposeSquares, castle: Intent) -> Intent | None:
        """The plain king move a castling intent given by its squares could also be (e8g8 by a king
        taught to move as a rook; e8h8 where no rook stands), judged when castling is refused; None
        for SAN's O-O (onto its own rook, the plain move is refused anyway)."""
        if isinstance(message, ProposeSquares):
            origin, target = message.origin, message.target
        else:
            try:
                uci = parse_uci(message.text)
            except MoveSyntaxError:
                return None  # O-O or O-O-O: castling, and nothing else
            origin, target = uci.from_square, uci.to_square
        return Intent(castle.colour, castle.kind, target, from_square=origin, text=castle.text)

    @staticmethod
    def _squares_text(message: ProposeSquares) -> str:
        promotion = message.promotion
        suffix = f"={promotion}" if promotion else ""  # a kind no pawn becomes, by its number
        if promotion in PROMOTION_KINDS:
            suffix = KIND_LETTERS[promotion].lower()
        return f"{SQUARE_NAMES[message.origin]}{SQUARE_NAMES[message.target]}{suffix}"

    def _code_at(self, square: int) -> int:
        """What stands on ``square``, as the board says now (a move by squares names no kind)."""
        return self.refresh_hint()[square]

    def _intent(self, message: ProposeText | ProposeSquares) -> Intent:
        turn = self.state.turn
        if isinstance(message, ProposeSquares):
            origin, target = message.origin, message.target
            return intent_from_squares(turn, self._code_at(origin), origin, target, message.promotion,
                                       table=self.state.layout.table)
        try:
            return san_intent(message.text, turn)
        except MoveSyntaxError as san_error:
            try:
                uci = parse_uci(message.text)
            except MoveSyntaxError:
                raise san_error from None
            promotion = KIND_BY_LETTER[uci.promotion] if uci.promotion else 0
            origin = uci.from_square
            return intent_from_squares(
                turn, self._code_at(origin), origin, uci.to_square, promotion, message.text,
                self.state.layout.table,
            )

    def decide(
        self,
        intent: Intent,
        candidates: list[CandidateFacts],
        king_square: int,
        checkers: tuple[Sighting, ...],
    ) -> Decision:
        """The verdict over the facts the pieces and the board gave about every candidate
        (board.rules.judge.decide, which the direct engine uses too; a lab's referee decides itself)."""
        return decide(intent, candidates, king_square, checkers)

    def castle(self, state: GameState, intent: Intent) -> Ruling:
        """The ruling on castling, from the king's, the rook's and the board's replies (see
        actors.roles.referee.castling; a lab's referee holds this conversation itself)."""
        return judge_castling(self, state, intent)

    def _judge(self, intent: Intent) -> Ruling:
        """Gather the facts about every piece of the kind by messages; board.rules.judge decides over them.

        A pawn move given by its squares is gathered as its SAN would be read (every pawn of its
        file), so that the SAN written for it is known to read back to this pawn alone.
        """
        reading = intent
        if intent.kind == PAWN and intent.from_square is not None:
            reading = dataclasses.replace(intent, from_square=None, from_file=intent.from_square & 7)
        gathered = self.gather(reading, self.state.en_passant)
        facts, king = gathered.facts, gathered.report.king_square
        finder = _ignoring_capture(intent)
        found = self.decide(finder, facts, king, self.checkers).origins
        if len(found) == 1:
            origin = found[0]
            rivals: tuple[int, ...] = ()
            if any(f.traversed is not None and f.origin != origin for f in facts):
                anyone = (  # whoever the written SAN would also fit: a pawn's file, or any piece of the kind
                    _ignoring_capture(reading)
                    if intent.kind == PAWN
                    else dataclasses.replace(
                        intent, from_file=None, from_rank=None, from_square=None, capture=False
                    )
                )
                rivals = tuple(o for o in self.decide(anyone, facts, king, ()).origins if o != origin)
            chosen = next(f for f in facts if f.origin == origin)
            yes = gathered.yeses[origin]
            return Ruling(origin, None, "illegal", rivals, yes.traversed, chosen.en_passant, yes.code)
        reason = self.decide(intent, facts, king, self.checkers).reason
        if len(found) > 1 and reason is not None:
            return Ruling(reason=reason, kind="ambiguous")
        return Ruling(reason=reason or "not a legal move here")

    # -- making the move

    def _make(self, text: str, intent: Intent, ruling: Ruling) -> Verdict:
        """Have the board make the move, learn what it left, and say how the game stands."""
        colour, target, origin = intent.colour, intent.target, ruling.origin
        state, ply = self.state, self.ply + 1
        code = ruling.code  # what the mover said it is, not what a hint or report names it
        kind = code & 7
        table = state.layout.table
        castling = table.by_king_target.get(target) if intent.castle is not None else None
        rook = (castling.rook_from, castling.rook_to) if castling is not None else None
        victim = (target - 8 if colour == WHITE else target + 8) if ruling.en_passant else -1
        promotion = intent.promotion if kind == PAWN else 0
        # The square a pawn opens to en passant is the one its own two-step answer said it crossed.
        double_step = kind == PAWN and target - origin == (16 if colour == WHITE else -16)
        opened = ruling.traversed if double_step else ()
        en_passant = opened[0] if opened == ((origin + target) >> 1,) else -1
        move = JournalMove(origin, target, promotion, rook, victim, ply)
        try:
            applied: Applied | ApplyRefused = self.ask_one(BOARD, Apply(move, en_passant))
        except ActorFailure as failure:
            # Unanswered is not undone: a slow board may still make the move after this ask gave up.
            raise LostTrack(f"{self.name} does not know whether ply {ply} was made: {failure}") from failure
        if isinstance(applied, ApplyRefused):
            return Rejected(text, applied.reason, "illegal")
        captured = applied.captured is not None
        new_state = GameState(
            colour ^ 1,
            state.castling & table.keep_rights[origin] & table.keep_rights[target],
            en_passant,
            0 if captured or kind == PAWN else state.halfmove + 1,  # the board said what it captured
            state.fullmove + (1 if colour != WHITE else 0),
            layout=state.layout,
        )
        for square, new_code, name in applied.changes:
            if new_code:
                self.set_hint(square, new_code, name)
            else:
                self.drop_hint(square)
        self.state, self.ply = new_state, ply
        try:
            self._absorb(applied.assessment, colour ^ 1)
        except ActorFailure as failure:
            raise LostTrack(f"{self.name} lost track of the game after ply {ply}: {failure}") from failure
        key = self._key(applied.assessment)
        self.seen[key] += 1
        outcome = self._outcome(applied.assessment, self.seen[key])
        self.outcome = outcome
        self.claimable = claims(outcome, new_state.halfmove, self.seen[key])
        self.over = ending(outcome, ply)
        in_check = bool(self.checkers)
        capture = captured or ruling.en_passant
        san = format_san(
            code,
            origin,
            target,
            capture,
            promotion,
            castling is not None,
            ruling.rivals,
            in_check,
            outcome == "checkmate",
        )
        suffix = KIND_LETTERS[promotion].lower() if promotion else ""
        # Chess960's UCI writes castling as the king taking its own rook.
        written = castling.rook_from if castling is not None and table.chess960 else target
        uci = f"{SQUARE_NAMES[origin]}{SQUARE_NAMES[written]}{suffix}"
        entry = JournalEntry(uci, san, in_check, outcome, move, key, self.state)
        return Accepted(uci, san, in_check, outcome, self.claimable, entry)

    def _outcome(self, assessment: Assessment, repetitions: int) -> str | None:
        placement = assessment.placement
        pieces: Iterable[tuple[int, int]] = ((square, code) for square, code in enumerate(placement) if code)
        if assessment.lessons:
            pieces = as_material(pieces, dict(assessment.lessons))
        return decide_outcome(self.has_move, bool(self.checkers), pieces, self.state.halfmove, repetitions)

    def _absorb(self, assessment: Assessment, colour: int) -> None:
        """Learn from the board's assessment of ``colour``, confirming its candidates with the pieces:
        who gives check, whether en passant is really possible, whether ``colour`` can move at all."""
        king = assessment.king_square
        pairs = [(c, king) for c in assessment.check]
        for _, report in assessment.en_passant:
            pairs += [(c, report.king_square) for c in report.exposers]
        if assessment.open_probe is None:
            for _, report in assessment.unclear:
                pairs += [(c, report.king_square) for c in report.exposers]
        confirmed = self.confirm(pairs)
        self.checkers = tuple(c for c in assessment.check if (c[0], king) in confirmed)
        legal_en_passant = -1
        for _, report in assessment.en_passant:
            # The square taken through must be empty as the board reports it (a ghost there stops it).
            if (
                report.blocker is None
                and not report.target_code
                and not report.refused
                and not any((c[0], report.king_square) in confirmed for c in report.exposers)
            ):
                legal_en_passant = self.state.en_passant
        if legal_en_passant != self.state.legal_en_passant:
            self.state = dataclasses.replace(self.state, legal_en_passant=legal_en_passant)
        self.has_move = (
            assessment.open_probe is not None
            or legal_en_passant >= 0
            or any(
                not any((c[0], report.king_square) in confirmed for c in report.exposers)
                for _, report in assessment.unclear
            )
        )
        if not self.has_move and not self.checkers and self.state.castling:
            self.has_move = self._can_castle()

    def _can_castle(self) -> bool:
        """Whether the side to move may castle, judged as a proposal is (in Chess960 castling can be
        a side's only move: a king that stays on its square, or takes its rook's). Asked only when
        no other move was found, so a game pays for it only where it might be stalemate."""
        state = self.state
        for row in state.layout.table.by_colour[state.turn]:
            if state.castling & row.right:
                intent = Intent(state.turn, KING, row.king_to, castle=row.side)
                if self.castle(state, intent).reason is None:
                    return True
        return False

    def legal_targets(self, square: int) -> tuple[int, ...]:
        """The squares the piece on ``square`` may legally move to now, ascending (none if not its turn).

        Castling is the king's target in standard chess and its own rook's square in Chess960, as UCI
        writes it (and as a move given by those squares is read).

        Who stands there is the board's word in this conversation (its roster), not the referee's hint.
        """
        if self.over is not None:
            return ()
        reported = self.refresh_hint()[square]
        found = self.whereabouts.get(square)
        if found is None or found[0] != reported:
            return ()  # the board reports no such piece there: nothing to move
        code, name = found
        colour, kind = code >> 3, code & 7
        if colour != self.state.turn:
            return ()
        targets: Targets = self.wait([self.send(name, TargetsQuery(), WHEREABOUTS)])[0]
        if targets.code != code:
            return ()  # the piece says it is another than the board reports: no candidate, as in a proposal
        en_passant = self.state.en_passant
        probes = tuple(
            Probe(square, target, traversed, kind == PAWN and rule == "enemy" and target == en_passant, rule)
            for target, traversed, rule in targets.reach
        )
        reports: ProbeReports = self.ask_one(BOARD, ProbeSurvey(colour, probes))
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
        facts = self.confirm_facts(facts)
        legal: set[int] = set()
        for probe, fact, report in zip(probes, facts, reports.reports, strict=True):
            if report.refused:
                continue  # the board would not make it (it would take a king)
            last_rank = kind == PAWN and probe.target >> 3 == LAST_RANK[colour]
            intent = Intent(colour, kind, probe.target, QUEEN if last_rank else 0, from_square=square)
            if self.decide(intent, [fact], fact.king_square, self.checkers).legal:
                legal.add(probe.target)
        if kind == KING:
            table = self.state.layout.table
            for right in table.by_colour[colour]:
                if square == right.king_from:
                    castle = Intent(colour, KING, right.king_to, castle=right.side)
                    if self.castle(self.state, castle).reason is None:
                        # Chess960 names castling by the rook's square (the king may stay, or go where a
                        # plain move could too); standard chess by the king's target.
                        legal.add(right.rook_from if table.chess960 else right.king_to)
        return tuple(sorted(legal))


