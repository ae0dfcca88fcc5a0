"""The board actor: owns the occupancy (what stands where, under which actor name) and nothing else.

It reports facts (blockers, what stands on a target, which enemy pieces might reach a king) and moves
pieces when told; it never judges a move. What each piece can reach it knows only from the piece's
own word: its answer when seated, gathered, moved or promoted, and what it tells the board itself
when it learns. A piece whose move function is no fixed table says "ask me", and is asked again
before every report its reach could change.

How you talk to me: see :mod:`actors.protocol.board`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, assert_never

from actors.kernel.actor import TracedActor
from actors.kernel.control import Armed
from actors.kernel.messaging import DEFAULT_TIMEOUT, Directory, Pending, ask, wait_one
from actors.protocol.board import (
    Applied,
    Apply,
    ApplyRefused,
    BoardRequest,
    CastleSurvey,
    Change,
    Declare,
    Declared,
    Describe,
    Gather,
    Gathered,
    Lie,
    Place,
    ProbeReports,
    ProbeSurvey,
    Roster,
    RosterQuery,
    Survey,
    SurveyReport,
    Teach,
)
from actors.protocol.piece import Captured, Learn, Learned, Moved, Promote, Seat, Targets, TargetsQuery
from actors.protocol.referee import Description
from actors.protocol.values import (
    STANDARD_LAYOUT,
    Assessment,
    CastleReport,
    CastlingLayout,
    JournalMove,
    PathEntry,
    PieceReport,
    Probe,
    ProbeReport,
    Reach,
    RosterEntry,
    Sighting,
)
from board.notation.fen import parse_fen
from board.rules.declared import View
from board.rules.fen_text import format_fen
from board.rules.pieces import COLOUR_NAMES, KIND_NAMES, KING, PAWN
from board.rules.squares import SQUARE_NAMES

if TYPE_CHECKING:
    from pykka import ActorRef

    from actors.tracing.recorder import TraceRecorder


_REPORTS_FROM_REACH: Final = (Survey, ProbeSurvey, CastleSurvey)
"""Requests answered from the pieces' reach as it stands (the assessment after a move asks again
itself, once the move is made): a piece that said "ask me" is asked before each."""


def birth_name(code: int, square: int) -> str:
    """A piece actor's stable name: colour-kind-birth square ('white-knight-g1')."""
    return f"{COLOUR_NAMES[code >> 3]}-{KIND_NAMES[code & 7]}-{SQUARE_NAMES[square]}"


class BoardActor(TracedActor[BoardRequest]):
    """The occupancy: 64 piece codes, the actor name and moved flag of each piece, their declared reach.

    ``strict=False`` takes any placement (board.notation.fen.parse_fen), for position-only mode, where a side
    may have no king (its king square is then -1); ``chess960``: the start is a Chess960 game's.
    """

    def __init__(
        self,
        start_fen: str,
        journal: Sequence[JournalMove],
        directory: Directory,
        recorder: TraceRecorder | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        name: str = "board",
        *,
        strict: bool = True,
        chess960: bool = False,
    ) -> None:
        super().__init__(name, directory, recorder, timeout)
        # Setup: the placement and the rights it grants (``chess960``: the FEN's K and Q are X-FEN).
        position = parse_fen(start_fen, strict=strict, chess960=chess960)
        squares = list(position.squares)
        self.names: list[str] = [birth_name(code, s) if code else "" for s, code in enumerate(squares)]
        table = position.castling_table
        self.moved: list[bool] = [
            not table.home_rights(s, code) & position.castling for s, code in enumerate(squares)
        ]
        self.plies = 0
        self.unfixed: set[int] = set()
        """Squares of pieces that said "ask me": their reach is asked for again before each report."""
        self.labels: dict[int, str] = {}
        """Square -> the label of a piece's move function, where it is not its kind's own."""
        self._roster: tuple[RosterEntry, ...] | None = None
        """Who stands where, as last listed (None once a move changed it)."""
        self.view = View(squares)
        self.fresh = False
        """Whether every piece's declared reach was just given by the piece itself (by Place): then a
        Gather need not ask again."""
        self.seats: dict[str, tuple[ActorRef[Any], RosterEntry, Targets]] = {}
        """Actor name -> (its actor, the seat it answered, its answer): each piece's own last
        declaration made on being seated, while nothing since can have changed it (a Place with
        ``keep`` need not ask it again)."""
        self._seats_checked = -1
        """The directory's count of changes when every seat's actor was last found registered."""
        self._seats_layout = STANDARD_LAYOUT
        """The castling layout the kept seats were made in."""
        for move in journal:
            self._move(move, tell_pieces=False)

    def handle(self, message: BoardRequest) -> object:
        """What I do on each message."""
        view = self.view
        if self.unfixed and isinstance(message, _REPORTS_FROM_REACH):
            self._ask_again()
        match message:
            case Survey(
                colour=colour, kind=kind, target=target, en_passant=en_passant, check=check, file=file
            ):
                # Only pieces with an actor are reported (a ghost a lie made up has none to ask, and
                # hides whatever stands under it).
                pieces = tuple(
                    self._piece_report(origin, colour, target, en_passant)
                    for origin in view.squares_of(colour * 8 + kind)
                    if view.real(origin) and self.names[origin] and (file < 0 or origin & 7 == file)
                )
                king = view.king(colour)
                checkers = view.attackers(king, colour ^ 1) if check else ()
                return SurveyReport(pieces, checkers, king)
            case ProbeSurvey(colour=colour, probes=probes):
                return ProbeReports(tuple(self.report(probe, colour) for probe in probes))
            case CastleSurvey(
                colour=colour, king_square=king, rook_square=rook, king_to=king_to, rook_to=rook_to,
                between=between, crossed=crossed,
            ):
                by = colour ^ 1
                vacated, filled = (king, rook), (king_to, rook_to)
                crossed_candidates = tuple(
                    (square, view.attackers(square, by, vacated, filled)) for square in crossed
                )
                # What the king and the rook cross and land on must be empty as the board holds it
                # too: a piece it hides there stops castling (and is never taken by it).
                return CastleReport(
                    self._occupant(king),
                    self._occupant(rook),
                    view.first_held(square for square in between if square not in vacated),
                    view.attackers(king, by),
                    crossed_candidates,
                )
            case Apply(move=move, en_passant=en_passant):
                refused = self._takes_a_king(move)
                if refused is not None:
                    return ApplyRefused(refused)
                colour = view.true_squares[move.origin] >> 3
                changes, captured = self._move(move, tell_pieces=True)
                if self.unfixed:
                    self._ask_again()
                return Applied(changes, captured, self._assess(colour ^ 1, en_passant))
            case Gather(colour=colour, en_passant=en_passant):
                if not self.fresh:
                    self._gather()
                self.fresh = False
                return Gathered(self._entries(), self._assess(colour, en_passant), self.plies)
            case Declare(name=name, square=square, reach=declared, fixed=fixed, label=label):
                self.seats.pop(name, None)  # it learnt: a Place seats it afresh
                if square < 0 or self.names[square] != name:
                    # The piece is not where it says (a move crossed its word): ask it when it matters.
                    square = self._square_of(name)
                    if square >= 0:
                        self.unfixed.add(square)
                    return Declared(square)
                self._declare(square, Targets(square, declared, fixed, label))
                return Declared(square)
            case Teach(name=name, geometry=geometry):
                self.seats.pop(name, None)
                square = self._square_of(name)
                if square < 0:
                    return Learned(-1, ())
                learned = self.ask_one(name, Learn(geometry))  # its answer to me is its word to me
                assert isinstance(learned, Learned)
                if learned.refused is None and learned.square == square:
                    self._declare(square, Targets(square, learned.reach, learned.fixed, learned.label))
                return learned
            case RosterQuery():
                return Roster(self._entries(), self.plies, view.placement(), view.ghost_squares())
            case Describe(state=state):
                fen = format_fen(
                    view.true_squares,
                    state.turn,
                    state.castling,
                    state.legal_en_passant,
                    state.halfmove,
                    state.fullmove,
                    state.layout.table,
                )
                return Description(fen)
            case Place(entries=entries, layout=layout, keep=keep):
                self._place(entries, layout, keep)
                return Roster(self._entries(), self.plies, self.view.placement())  # the new view
            case Lie(ghosts=ghosts, hidden=hidden):  # report ghosts, hide pieces (an empty Lie: the truth)
                self.view.lie(dict(ghosts), frozenset(hidden))
                return Armed("Lie")
            case _:
                assert_never(message)

    def _assess(self, colour: int, en_passant: int) -> Assessment:
        """The view's assessment of ``colour``, with the lessons the pieces declared, and, while the
        board lies, the position it holds (a game's positions repeat as they stand, not as told)."""
        assessment = self.view.assess(colour, en_passant)
        labels, lying = self.labels, self.view.lying()
        if not labels and not lying:
            return assessment
        view, names = self.view, self.names
        every = tuple(sorted(labels.items()))
        lessons = tuple(  # a piece's lesson where the board reports that piece (not a ghost over it)
            (square, label) for square, label in every if names[square] and view.real(square)
        )
        held = (bytes(view.true_squares), every) if lying else None
        return replace(assessment, lessons=lessons, held=held)

    def _occupant(self, square: int) -> tuple[int, str]:
        """What the board reports on ``square``: its code and its actor's name (a ghost has none)."""
        return (self.view.code(square), self.names[square] if self.view.real(square) else "")

    def _takes_a_king(self, move: JournalMove) -> str | None:
        """Why the board will not make ``move``: it would remove a king it holds, reported or not
        (None: it takes none). Castling's king and rook may land on each other's squares only."""
        truth = self.view.true_squares
        if move.rook is None:
            victim = move.victim if move.victim >= 0 else move.target
            if truth[victim] & 7 == KING:
                return f"the king on {SQUARE_NAMES[victim]} is never captured"
            return None
        movers = (move.origin, move.rook[0])
        for landing in (move.target, move.rook[1]):
            if landing not in movers and truth[landing]:
                what = "king" if truth[landing] & 7 == KING else "piece"
                return f"castling would land on the {what} the board holds on {SQUARE_NAMES[landing]}"
        return None

    # -- who is where

    def _entries(self) -> tuple[RosterEntry, ...]:
        if self._roster is None:
            squares = self.view.true_squares
            self._roster = tuple(
                RosterEntry(square, code, self.names[square], self.moved[square])
                for square, code in enumerate(squares)
                if code
            )
        return self._roster

    def _square_of(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            return -1

    def _piece_report(self, origin: int, colour: int, target: int, en_passant: int) -> PieceReport:
        view = self.view
        code = view.code(origin)
        path = view.declared(origin).get(target)
        name = self.names[origin]
        if path is None:
            return PieceReport(name, origin, code, None, None)
        _, traversed, rule = path
        is_en_passant = (
            code & 7 == PAWN and rule == "enemy" and target == en_passant and not view.code(target)
        )
        probe = Probe(origin, target, traversed, is_en_passant, rule)
        return PieceReport(name, origin, code, path, self.report(probe, colour), is_en_passant)

    def report(self, probe: Probe, colour: int) -> ProbeReport:
        """What I see along a move of ``colour``'s piece: the first blocker, what stands on the
        target, the enemy pieces that would reach the king once it is made (board.rules.declared's
        View, from the reach the pieces declared; a lab's board reports itself)."""
        return self.view.probe(probe, colour)

    # -- asking pieces for their reach

    def _declare(self, square: int, targets: Targets) -> None:
        """Take a piece's word on its reach from ``square``: the reach itself, whether it holds, its rule."""
        self.view.declare(square, targets.reach)
        if targets.fixed:
            if self.unfixed:
                self.unfixed.discard(square)
        else:
            self.unfixed.add(square)
        label = targets.label
        if label and label != KIND_NAMES[self.view.true_squares[square] & 7]:
            self.labels[square] = label
        elif self.labels:
            self.labels.pop(square, None)

    def _gather(self, squares: list[int] | None = None) -> None:
        """Ask pieces (default: every piece) where they can go from where they stand (all at once)."""
        if squares is None:
            squares = [square for square, code in enumerate(self.view.true_squares) if code]
        pending = [self.send(self.names[square], TargetsQuery()) for square in squares]
        for square, reply in zip(squares, self.wait(pending), strict=True):
            assert isinstance(reply, Targets)
            self._declare(square, reply)

    def _ask_again(self) -> None:
        """Ask the pieces that said "ask me" for their reach now, before anything is reported."""
        self._gather(sorted(square for square in self.unfixed if self.names[square]))

    def _place(
        self, entries: Sequence[RosterEntry], layout: CastlingLayout, keep: bool = False
    ) -> None:
        """Clear the board and seat these pieces; each is told where it stands (in a game of that
        castling ``layout``) and declares its reach (with ``keep``, a piece seated so already keeps
        its declaration: see Place).

        Nothing of the board changes until every piece has answered (the last entry on a square wins).
        """
        if layout != self._seats_layout:  # a seat is kept only in the layout it was made in
            self.seats.clear()
            self._seats_layout = layout
        replies: list[Targets | None] = self._kept(entries) if keep else [None] * len(entries)
        asked = [index for index, reply in enumerate(replies) if reply is None]
        if asked:
            # Each seat is remembered with the actor asked, which alone made that declaration.
            refs = [self.directory.ref(entries[index].name) for index in asked]
            pending = []
            for index, ref in zip(asked, refs, strict=True):
                entry = entries[index]
                seat = Seat(entry.square, entry.has_moved, entry.code, layout)
                pending.append(ask(ref, entry.name, self.envelope(entry.name, seat)))
            for index, ref, reply in zip(asked, refs, self.wait(pending), strict=True):
                assert isinstance(reply, Targets) and ref is not None
                replies[index] = reply
                self._record_seat(ref, entries[index], reply)
        squares = [0] * 64
        names, moved = [""] * 64, [False] * 64
        declared: dict[int, Reach] = {}
        seated: dict[int, RosterEntry] = {}
        unfixed: set[int] = set()
        for entry, answer in zip(entries, replies, strict=True):
            assert answer is not None
            square = entry.square
            squares[square], names[square], moved[square] = entry.code, entry.name, entry.has_moved
            declared[square], seated[square] = answer.reach, entry
            if not answer.fixed:
                unfixed.add(square)
        self.names, self.moved, self.plies = names, moved, 0
        self._roster = tuple(seated[square] for square in sorted(seated))  # listed from now on
        # A new view: nothing of the last game's reports (or lies). A placement kept from case to
        # case (ChessMoveQ) is asked about once or twice: it needs no index of who reaches what.
        self.view = View(squares, declared, indexed=not keep)
        self.unfixed, self.labels = unfixed, {}
        self.fresh = True

    def _kept(self, entries: Sequence[RosterEntry]) -> list[Targets | None]:
        """For each entry, its piece's own last declaration if it was made seated as the entry asks,
        by the actor registered under its name now (None: the piece must be asked)."""
        seats = self.seats
        changes = self.directory.changes
        if changes != self._seats_checked:  # a name went to another actor, or away: drop its seat
            registered = self.directory.ref
            for name in [name for name, record in seats.items() if registered(name) is not record[0]]:
                del seats[name]
            self._seats_checked = changes
        kept: list[Targets | None] = []
        for entry in entries:
            record = seats.get(entry.name)
            same = record is not None and (record[1] is entry or record[1] == entry)
            kept.append(record[2] if same and record is not None else None)
        return kept

    def _record_seat(self, ref: ActorRef[Any], entry: RosterEntry, reply: Targets) -> None:
        if reply.fixed and reply.square == entry.square:
            self.seats[entry.name] = (ref, entry, reply)
        else:
            self.seats.pop(entry.name, None)

    # -- moving pieces

    def _move(
        self, move: JournalMove, tell_pieces: bool
    ) -> tuple[tuple[Change, ...], str | None]:
        """Make ``move`` on the board; with ``tell_pieces``, the mover and a castling rook answer their
        reach from where they land (a promoted pawn as its new kind) and a captured piece is told."""
        view, names, moved = self.view, self.names, self.moved
        self._roster = None
        if move.rook is not None:
            return self._castle(move, tell_pieces), None
        origin, target = move.origin, move.target
        code, name = view.true_squares[origin], names[origin]
        captured_square = move.victim if move.victim >= 0 else target
        captured = names[captured_square] if view.code(captured_square) else None
        self.seats.pop(name, None)  # those it moves or takes stand elsewhere than they were seated
        if captured is not None:
            self.seats.pop(captured, None)
        landed: list[tuple[int, Pending[Targets]]] = []
        if tell_pieces:  # told and asked first: the piece works out its answer while the board moves
            if captured is not None:
                self.tell(captured, Captured())
            landing = Promote(move.promotion, target) if move.promotion else Moved(target)
            landed.append((target, self.send(name, landing)))
        view.remove(captured_square)
        names[captured_square] = ""
        view.put(target, view.remove(origin), ())
        names[origin], moved[origin] = "", False
        names[target], moved[target] = name, True
        if self.unfixed or self.labels:
            self._forget(captured_square)
            self._carry(origin, target)
        changes: list[Change] = [(origin, 0, ""), (target, code, name)]
        if move.victim >= 0:
            changes.append((move.victim, 0, ""))
        if move.promotion:
            new_code = (code & 8) | move.promotion
            view.promote(target, new_code)
            changes[1] = (target, new_code, name)
        self.plies += 1
        if landed:
            self._declare_all(landed)
        return tuple(changes), captured

    def _castle(self, move: JournalMove, tell_pieces: bool) -> tuple[Change, ...]:
        """Make a castling: king and rook are lifted together and set down together, since in Chess960
        either may land on the other's square, or the king stay on its own. Squares emptied come
        first in the changes, then the two landings."""
        assert move.rook is not None
        view, names, moved = self.view, self.names, self.moved
        (king_from, king_to), (rook_from, rook_to) = (move.origin, move.target), move.rook
        lifted = [(king_from, king_to, names[king_from], view.remove(king_from), self._lift(king_from)),
                  (rook_from, rook_to, names[rook_from], view.remove(rook_from), self._lift(rook_from))]
        for origin, _, name, _, _ in lifted:
            names[origin], moved[origin] = "", False
            self.seats.pop(name, None)  # it stands elsewhere than it was seated
        changes: list[Change] = [(origin, 0, "") for origin in (king_from, rook_from)
                                 if origin not in (king_to, rook_to)]
        for _, target, name, code, (unfixed, label) in lifted:
            view.put(target, code, ())
            names[target], moved[target] = name, True
            if unfixed:
                self.unfixed.add(target)
            if label is not None:
                self.labels[target] = label
            changes.append((target, code, name))
        self.plies += 1
        if tell_pieces:
            self._landed([(target, name, Moved(target)) for _, target, name, _, _ in lifted])
        return tuple(changes)

    def _lift(self, square: int) -> tuple[bool, str | None]:
        """What the board knows of the move function of the piece lifted from ``square``: whether it
        said "ask me", and its label (both forgotten there)."""
        unfixed, label = square in self.unfixed, self.labels.get(square)
        self._forget(square)
        return unfixed, label

    def _landed(self, landings: list[tuple[int, str, Moved | Promote]]) -> None:
        """Tell the pieces that moved where they landed, all at once; each answers its reach from there."""
        self._declare_all([(square, self.send(name, message)) for square, name, message in landings])

    def _declare_all(self, asked: list[tuple[int, Pending[Targets]]]) -> None:
        """Take each asked piece's answer as its word on its reach from its square."""
        if len(asked) == 1:  # a plain move: one piece asked
            (square, (name, future)), = asked
            replies = [wait_one(name, future, self.timeout)]
        else:
            replies = self.wait([pending for _, pending in asked])
        for (square, _), reply in zip(asked, replies, strict=True):
            assert isinstance(reply, Targets)
            self._declare(square, reply)

    def _carry(self, origin: int, target: int) -> None:
        """What the board knows of a piece's move function goes with it from ``origin`` to ``target``."""
        self._forget(target)
        if origin in self.unfixed:
            self.unfixed.discard(origin)
            self.unfixed.add(target)
        label = self.labels.pop(origin, None)
        if label is not None:
            self.labels[target] = label

    def _forget(self, square: int) -> None:
        self.unfixed.discard(square)
        self.labels.pop(square, None)


__all__ = ["BoardActor", "PathEntry", "Sighting", "birth_name"]
