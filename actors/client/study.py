"""What a game offers for study: lessons that change how a piece moves, injected faults, a lying board.

The part of :class:`~actors.client.game.ActorGame` that changes the actors on purpose, to show that
the verdicts follow what they say.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, TypeVar

from actors.kernel.control import Armed, Crash, CrashOnNext
from actors.kernel.errors import ActorUnavailable
from actors.kernel.messaging import Pending, Request, post, tell
from actors.protocol.board import Lie, Teach
from actors.protocol.piece import Learned
from actors.protocol.referee import Begin, Ready
from actors.protocol.values import JournalEntry
from actors.roles.registered import BOARD, CLIENT
from board.errors import InputError
from board.rules.geometries import Geometry
from board.rules.pieces import KIND_BY_LETTER
from board.rules.squares import parse_standard_square

if TYPE_CHECKING:
    from actors.roles.supervisor import Supervisor
    from actors.tracing.recorder import TraceRecorder

R = TypeVar("R")


class StudyTools:
    """Lessons, faults and lies, asked of the actors as the game's client."""

    supervisor: Supervisor
    recorder: TraceRecorder | None
    _outcome: str | None
    _claimable: tuple[str, ...]
    _check_open: Callable[[], None]
    _entries: list[JournalEntry]

    if TYPE_CHECKING:  # the game's (see actors.client.game.ActorGame)
        def ask(self, name: str, message: Request[R]) -> R: ...

        def _request(self, message: Request[R], made: Callable[[], R | None] | None = None,
                     attempts: list[Pending[R]] | None = None, receiver: str = ...) -> R: ...

    # -- teaching

    def teach(self, name: str, geometry: Geometry, reassess: bool = True) -> Learned:
        """Teach the piece actor ``name`` a move function (it tells the journal itself) and
        (``reassess``) have the referee look at the position afresh: who gives check now, whether
        the side to move can move.

        The lesson goes through the board (``Teach``): the board asks the piece and takes its answer
        as the piece's word, so nothing the board reports after it can miss the lesson.

        Raises:
            InputError: the piece refused the geometry (it raised or answered nonsense); nothing changed.
            ActorUnavailable: the board has no piece called ``name`` (it was captured).
            ActorFailure: the actors failed past healing (the game is over, as for a proposal).
        """
        # A lesson sets, it does not add: one whose reply never came is asked again after the heal
        # (which gives the piece the lesson the journal holds), never left half taught.
        learned: Learned = self._request(Teach(name, geometry), receiver=BOARD)
        if learned.refused is not None:
            raise InputError(f"{name} cannot learn {geometry.name!r}: {learned.refused}")
        if learned.square < 0:
            raise ActorUnavailable(f"the board has no piece called {name}")
        if reassess:
            self._reassess()
        return learned

    def _reassess(self, lessons_at_start: bool = False) -> None:
        """Have the referee look at the position afresh (its facts may have changed under it);
        ``lessons_at_start``: the start-up lessons were just taught (they are part of the start)."""
        ready: Ready = self._request(Begin(lessons_at_start=lessons_at_start))
        self._outcome, self._claimable = ready.outcome, ready.claimable

    # -- fault injection (for tests and demonstrations)

    def crash(self, name: str) -> None:
        """Make the actor ``name`` crash now."""
        self._check_open()
        ply = len(self._entries) + 1
        tell(self.supervisor.ref(name), post(self.recorder, CLIENT, name, Crash(), None, ply))

    def crash_on_next(self, name: str, kind: str) -> None:
        """Make the actor ``name`` raise on the next message of class ``kind`` it receives."""
        self.ask(name, CrashOnNext(kind))

    def board_lies(self, ghosts: Mapping[str, str] | None = None, hidden: Iterable[str] = ()) -> Armed:
        """Make the board report ``ghosts`` (square -> FEN letter: 'P' a white pawn, 'q' a black queen)
        that are not there and hide the pieces on ``hidden``, until called again with neither.

        Raises:
            InputError: a square or a letter is not one.
        """
        placed = []
        for square, letter in (ghosts or {}).items():
            kind = KIND_BY_LETTER.get(letter.upper())
            if kind is None or len(letter) != 1:
                raise InputError(
                    f"ghost on {square}: {letter!r} is not a piece letter (one of PNBRQK pnbrqk)"
                )
            placed.append((parse_standard_square(square), (0 if letter.isupper() else 8) | kind))
        armed: Armed = self.ask(BOARD, Lie(tuple(placed), tuple(parse_standard_square(s) for s in hidden)))
        return armed
