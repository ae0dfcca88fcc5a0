"""The classes a student derives from, one a lab: each is the project's own actor with one part
left for the student to write, speaking the protocol's messages.

Everything else a role does (its mail, its traces, restarts, the rest of the conversation) stays
the project's, so a student's answer is judged exactly where the real one would be used.
"""

from __future__ import annotations

import functools

from actors.kernel.errors import ActorFailure
from actors.protocol.board import Roster
from actors.protocol.journal import JournalEntries
from actors.protocol.piece import Answer, MoveQuery, No, Resync, Yes
from actors.protocol.values import GameState, PathEntry, Probe, ProbeReport, Reach, RosterEntry
from actors.roles.board import BoardActor
from actors.roles.piece import OFF_BOARD, PieceActor
from actors.roles.referee import RefereeActor
from actors.roles.referee.ruling import Ruling
from actors.roles.supervisor import Supervisor, seating
from board.rules.castling import Castling
from board.rules.judge import CandidateFacts, Decision, Intent, Sighting

__all__ = [
    "LabAnswerError", "LabBoard", "LabCastling", "LabPiece", "LabReferee", "LabSupervisor", "first_problem",
]


class LabAnswerError(TypeError):
    """A student's method answered something the protocol has no place for (None, a string...).

    Not one of the project's errors on purpose: the actor that gets one crashes, as any actor
    whose handler breaks, and the checker names the method, what it was asked and what it said.
    """


def _asked(arguments: tuple[object, ...]) -> str:
    shown = ", ".join(repr(argument) for argument in arguments)
    return shown if len(shown) <= 300 else shown[:300] + "..."


def _note(cls: type, problem: str) -> None:
    """Keep the first thing a student's method did wrong, for the checker to say (an actor that
    crashes on it is restarted, and what the game says then is only that it kept failing)."""
    if first_problem(cls) is None:
        cls.lab_problem = problem  # type: ignore[attr-defined]


def first_problem(cls: type) -> str | None:
    """The first call of a student's method that raised or answered the wrong type (None: none yet)."""
    return cls.__dict__.get("lab_problem")


def _checked(cls: type, hook: str, expected: tuple[type, ...]) -> None:
    """Have ``cls``'s own ``hook`` (a student's method) raise LabAnswerError on an answer of
    another type than ``expected``, naming what it was asked."""
    written = cls.__dict__.get(hook)
    if written is None or getattr(written, "checked_hook", False):
        return
    names = " or ".join(kind.__name__ for kind in expected)

    @functools.wraps(written)
    def hook_checked(self: object, *arguments: object) -> object:
        try:
            value = written(self, *arguments)
        except Exception as error:
            _note(cls, f"{cls.__name__}.{hook}({_asked(arguments)}) raised {type(error).__name__}: {error}")
            raise
        if not isinstance(value, expected):
            problem = f"{cls.__name__}.{hook}({_asked(arguments)}) answered {value!r}: {names} was expected"
            _note(cls, problem)
            raise LabAnswerError(problem)
        return value

    hook_checked.checked_hook = True  # type: ignore[attr-defined]
    setattr(cls, hook, hook_checked)


class LabPiece(PieceActor):
    """Lab 1: a piece whose every answer about its moves comes from :meth:`answer`.

    You know ``self.square`` (0..63, a1 = 0, b1 = 1, ..., h8 = 63), ``self.colour`` (0 white,
    1 black), ``self.kind`` (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king) and
    ``self.code`` (colour * 8 + kind); the project keeps them current as the game goes on (a
    move, a capture, a promotion). The board learns your reach by asking you about every square.
    """

    def answer(self, query: MoveQuery) -> Yes | No:
        """Can I go from ``query.start`` to ``query.end``, playing ``query.colour``?

        Yes(origin, target, traversed, target_rule, code): ``traversed`` the squares strictly
        between, nearest the start first; ``target_rule`` 'any', 'empty' (a pawn's push) or
        'enemy' (a pawn's capture); ``code`` what I am. No(reason) otherwise, and always when the
        query is about another square than mine or another colour.
        """
        raise NotImplementedError(f"{type(self).__name__}.answer is not written yet")

    def __init_subclass__(cls, **keywords: object) -> None:
        super().__init_subclass__(**keywords)
        _checked(cls, "answer", (Yes, No))

    def _move(self, message: MoveQuery) -> Answer:
        return self.answer(message)

    def reach(self, square: int | None = None) -> Reach:
        """Every Yes of :meth:`answer` from where I stand (the project asks about each square)."""
        origin = self.square if square is None else square
        if origin == OFF_BOARD:
            return ()
        found: list[PathEntry] = []
        for end in range(64):
            if end == origin:
                continue
            reply = self._move(MoveQuery(origin, end, self.colour))
            if isinstance(reply, Yes):
                found.append((end, tuple(reply.traversed), reply.target_rule))
        return tuple(found)


class LabBoard(BoardActor):
    """Lab 2: a board whose report on a move comes from :meth:`report`.

    The referee asks the board about each piece that could make a move (a Survey) or about moves
    given in full (a ProbeSurvey); for each, the board says what it sees along the move. Read the
    board with :meth:`occupant`, :meth:`king_of` and :meth:`reach_of`.
    """

    def __init_subclass__(cls, **keywords: object) -> None:
        super().__init_subclass__(**keywords)
        _checked(cls, "report", (ProbeReport,))

    def report(self, probe: Probe, colour: int) -> ProbeReport:
        """What stands along the move of ``colour``'s piece from ``probe.origin`` to
        ``probe.target`` crossing ``probe.traversed`` (``probe.en_passant``: it takes en passant).

        ProbeReport(blocker, target_code, exposers, king_square): ``blocker`` the first traversed
        square that is occupied, as (square, code), or None; ``target_code`` what stands on the
        target (0: nothing); ``exposers`` the enemy pieces, as (square, code) ascending, that would
        reach the mover's king once the move is made (the king's target when the king moves);
        ``king_square`` that king's square after the move.
        """
        raise NotImplementedError(f"{type(self).__name__}.report is not written yet")

    def occupant(self, square: int) -> int:
        """What stands on ``square`` as code (colour * 8 + kind), 0 for nothing."""
        return self.view.code(square)

    def king_of(self, colour: int) -> int:
        """The square of ``colour``'s king (-1 when it has none)."""
        return self.view.king(colour)

    def reach_of(self, square: int) -> dict[int, PathEntry]:
        """The moves the piece on ``square`` declared it can make, by target:
        (target, traversed squares nearest first, target rule). Empty for an empty square."""
        return self.view.declared(square)


class LabReferee(RefereeActor):
    """Lab 3: a referee whose verdict on a move comes from :meth:`decide`.

    For a move such as ``Nf3`` the project's referee asks every white knight whether it can go to
    f3 and the board what it sees along each knight's way, then hands you the facts about every
    candidate. Castling is judged by the project; every other move by you.
    """

    def __init_subclass__(cls, **keywords: object) -> None:
        super().__init_subclass__(**keywords)
        _checked(cls, "decide", (Decision,))

    def decide(
        self,
        intent: Intent,
        candidates: list[CandidateFacts],
        king_square: int,
        checkers: tuple[Sighting, ...],
    ) -> Decision:
        """Which candidates may legally make the move: Decision(origins, reason).

        ``intent``: what was written (colour, kind, target, promotion, capture, and the origin's
        file, rank or square when given: ``intent.admits(origin)`` says whether a candidate fits).
        ``candidates``: one CandidateFacts a piece of that kind: ``traversed`` None when the piece
        said no, ``blocker``, ``target_code``, ``target_rule``, ``en_passant`` and ``exposers``
        (enemy pieces that would reach the king after the move). ``checkers``: who checks the
        king now. Legal when exactly one origin and no reason; else a reason for the refusal.
        """
        raise NotImplementedError(f"{type(self).__name__}.decide is not written yet")



class LabCastling(RefereeActor):
    """Lab 4: a referee whose ruling on castling comes from :meth:`castle`: a conversation of your own
    with the king, the rook and the board.

    Talk with :meth:`send` (a request to an actor by name, not waited for) and :meth:`wait_with`
    (the replies of several sends and one more, all at once); :meth:`name_at` names the piece
    standing on a square, :meth:`castling_row` gives the squares of a castling, and
    :meth:`confirm` asks pieces whether they really reach squares (a report names candidates).
    """

    def __init_subclass__(cls, **keywords: object) -> None:
        super().__init_subclass__(**keywords)
        _checked(cls, "castle", (Ruling,))

    def castle(self, state: GameState, intent: Intent) -> Ruling:
        """The ruling on castling to ``intent.castle`` ('K' or 'Q') for ``intent.colour``:
        ``Ruling(king_square, traversed=the king's traversed squares, code=the king's code)`` when it
        is legal, ``Ruling(reason=...)`` when it is not. ``state.castling`` holds the rights left."""
        raise NotImplementedError(f"{type(self).__name__}.castle is not written yet")

    def castling_row(self, state: GameState, colour: int, side: str) -> Castling | None:
        """Castling ``side`` ('K' or 'Q') for ``colour`` in this game: its right bit, the king's and
        the rook's squares before and after, the squares between them and those the king crosses
        (None: the game has no such castling)."""
        return state.layout.table.row(colour, side)


class LabSupervisor(Supervisor):
    """Lab 5: a supervisor whose heals rebuild every piece from the journal, by :meth:`rebuild`.

    When an actor crashes, the supervisor restarts it (one_for_one) and then tells every piece on
    the board what it must be: where it stands, whether it has moved, what it is. The board's own
    roster is not yours to read here: rebuild each piece from the journal's moves, as the board is.
    """

    def records(self, roster: Roster, journal: JournalEntries | None) -> dict[str, Resync]:
        """Your :meth:`rebuild`, checked: a heal it breaks fails the game, saying why (as a supervisor
        that cannot restart its children fails, in OTP)."""
        try:
            rebuilt = self.rebuild(journal) if journal is not None else super().records(roster, None)
            missing = [entry.name for entry in roster.entries if entry.name not in rebuilt]
            if missing:
                left_out = ", ".join(missing)
                raise LabAnswerError(f"{type(self).__name__}.rebuild left out {left_out}, which the board"
                                     " holds")
        except Exception as error:
            problem = first_problem(type(self)) or f"{type(error).__name__}: {error}"
            self.failed = ActorFailure(f"the supervisor could not rebuild the pieces: {problem}")
            raise self.failed from error
        return rebuilt

    def __init_subclass__(cls, **keywords: object) -> None:
        super().__init_subclass__(**keywords)
        _checked(cls, "rebuild", (dict,))

    def rebuild(self, journal: JournalEntries) -> dict[str, Resync]:
        """Every piece on the board after the journal's moves, by its actor's name:
        ``Resync(square, has_moved, code)``. Start from :meth:`start_seats` and play
        ``journal.entries`` (each ``entry.move``: ``origin``, ``target``, ``promotion`` (0 or the kind
        a pawn becomes), ``rook`` (castling: the rook's (from, to), else None), ``victim`` (en passant:
        the square of the pawn taken, else -1))."""
        raise NotImplementedError(f"{type(self).__name__}.rebuild is not written yet")

    def start_seats(self) -> tuple[RosterEntry, ...]:
        """Every piece of the game's start: square, code, actor name ('white-knight-g1', by its kind
        and square at the start, kept all game long), and whether it counts as moved."""
        return seating(self.start_fen, self.chess960)[2]
