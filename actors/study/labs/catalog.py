"""The labs: for each, the role a student writes, what its README teaches, the starter file, the
worked example every README shows, and the checks ``chess-actors lab check`` runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from actors.kernel.messaging import Directory
from actors.protocol.piece import MoveQuery, No, Yes
from actors.protocol.referee import Accepted
from actors.protocol.values import Probe, ProbeReport
from actors.roles.supervisor import STANDARD_ROLES
from actors.study.labs.bases import LabBoard, LabCastling, LabPiece, LabReferee, LabSupervisor
from board.rules.geometry import reach, standard
from board.rules.judge import CandidateFacts, Decision, Intent
from board.rules.pieces import KNIGHT, PAWN
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES

__all__ = ["LABS", "Lab", "lab_numbered"]

Example = Callable[[type], list[str]]
"""A lab's worked example run on a student's class: what it got wrong (nothing: it passes)."""


@dataclass(frozen=True, slots=True)
class Lab:
    """One lab: its number, the role the student's class plays, its base class and method, what
    its README says, its starter, its worked example and the checks it runs (by name)."""

    number: int
    slug: str
    title: str
    role: str
    base: type
    method: str
    summary: str
    readme: str
    starter: str
    example: Example
    checks: tuple[str, ...]

    @property
    def starter_name(self) -> str:
        """The file name ``lab start`` writes the starter to."""
        return f"lab{self.number}_{self.slug}.py"


def _square(name: str) -> int:
    return SQUARE_INDEX[name]


# -- lab 1: a piece ----------------------------------------------------------------------------------


def _piece_example(piece_class: type) -> list[str]:
    rook = piece_class("white-rook-a1", 4, _square("a1"), False, Directory())
    knight = piece_class("white-knight-g1", KNIGHT, _square("g1"), False, Directory())
    expected = [
        (rook, MoveQuery(_square("a1"), _square("a4"), 0), Yes(0, 24, (8, 16), "any", 4)),
        (rook, MoveQuery(_square("a1"), _square("b2"), 0), None),
        (knight, MoveQuery(_square("g1"), _square("f3"), 0), Yes(6, 21, (), "any", KNIGHT)),
    ]
    problems = []
    for piece, query, wanted in expected:
        answer = piece.answer(query)
        ok = isinstance(answer, No) if wanted is None else (
            isinstance(answer, Yes) and (answer.origin, answer.target, tuple(answer.traversed),
                                         answer.target_rule, answer.code)
            == (wanted.origin, wanted.target, wanted.traversed, wanted.target_rule, wanted.code))
        if not ok:
            problems.append(f"{piece.name} asked {query!r} answered {answer!r}; expected {wanted or 'No'}")
    return problems


_PIECE_README = '''\
# Lab 1: a piece that knows its moves

Every piece of a game is an actor. When the referee judges a move such as `Nf3`, it asks the pieces
of that kind whether they can go there, and the board asks every piece, as it lands, where it can go
from its new square. You write the piece's answer.

## What to build

A class derived from `LabPiece` with one method:

    def answer(self, query: MoveQuery) -> Yes | No

`query.start` and `query.end` are squares (0..63: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63)
and `query.colour` the side asking (0 white, 1 black). You know `self.square`, `self.colour`,
`self.kind` (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king) and `self.code`
(colour * 8 + kind); the project keeps them current as you move, are captured or promote.

Answer `Yes(origin, target, traversed, target_rule, code)` when your move function allows the move:
`traversed` lists the squares strictly between the start and the target, **nearest the start
first** (a knight traverses nothing); `target_rule` is `"empty"` for a pawn's push (it may not
capture), `"enemy"` for a pawn's diagonal step (it must capture, or take en passant) and `"any"`
for every other move; `code` is `self.code`. Answer `No(reason)` for a move your geometry cannot
make, and for any query about another square than yours or another colour. Castling, check and
pins are not yours to judge: the referee does that from your answers.

## The messages involved

- `MoveQuery(start, end, colour)` from the referee, and from the project's code asking you about
  every square to learn your reach: your `answer`.
- `Moved`, `Captured`, `Promote`: the board tells you; the project updates your square and kind.

## What is checked

- **worked example**: the three queries below.
- **move queries**: every kind and colour on every square asked about every square, then again
  for the other colour and from another square: each answer as the rules' move function answers.
- **real games**: every ply of 24 real games proposed to actors made of your pieces: the same SAN
  and position as the direct engine, ply after ply.
- **illegal moves**: moves the rules refuse in positions of those games: refused.
- **invariants**: sampled plies run one delivery at a time, checked after every delivery.
- **messages a ply**: yours beside the project's.

## Worked example

    >>> rook = Piece("white-rook-a1", 4, 0, False, Directory())   # a white rook on a1
    >>> rook.answer(MoveQuery(0, 24, 0))      # a1 -> a4
    Yes(origin='a1', target='a4', traversed=('a2', 'a3'), target_rule='any', code='white rook')
    >>> rook.answer(MoveQuery(0, 9, 0))       # a1 -> b2
    No(reason='a rook cannot move from a1 to b2')
    >>> knight = Piece("white-knight-g1", 2, 6, False, Directory())
    >>> knight.answer(MoveQuery(6, 21, 0))    # g1 -> f3: a knight traverses nothing
    Yes(origin='g1', target='f3', traversed=(), target_rule='any', code='white knight')
'''

_PIECE_STARTER = '''\
"""Lab 1: a piece that knows its moves. Run `chess-actors lab check 1 {file}`."""

from actors.study.labs import LabPiece, MoveQuery, No, Yes


class Piece(LabPiece):
    def answer(self, query: MoveQuery) -> Yes | No:
        # self.square, self.colour, self.kind and self.code are yours to read.
        # Squares are 0..63 (a1 = 0, h1 = 7, a8 = 56); file = square % 8, rank = square // 8.
        raise NotImplementedError("answer is not written yet")
'''


# -- lab 2: the board ----------------------------------------------------------------------------------


def _declared_board(board_class: type) -> LabBoard:
    """The student's board at the start of a game, every piece's reach declared as its own."""
    board: LabBoard = board_class("startpos", [], Directory())
    for square, code in enumerate(board.view.true_squares):
        if code:
            board.view.declare(square, reach(standard(code & 7), code >> 3, square))
    return board


def _board_example(board_class: type) -> list[str]:
    board = _declared_board(board_class)
    e2, e3, e4, a1, a2, a3 = (_square(name) for name in ("e2", "e3", "e4", "a1", "a2", "a3"))
    expected = [
        (Probe(e2, e4, (e3,), False, "empty"), ProbeReport(None, 0, (), _square("e1"))),
        (Probe(a1, a3, (a2,), False, "any"), ProbeReport((a2, PAWN), 0, (), _square("e1"))),
    ]
    problems = []
    for probe, wanted in expected:
        got = board.report(probe, 0)
        if (got.blocker, got.target_code, tuple(got.exposers), got.king_square) != (
                wanted.blocker, wanted.target_code, wanted.exposers, wanted.king_square):
            problems.append(f"report({probe!r}, white) answered {got!r}; expected {wanted!r}")
    return problems


_BOARD_README = '''\
# Lab 2: the board that sees

The board actor alone knows who stands where; each piece alone knows where it can go, and tells the
board its reach whenever it lands. When the referee judges a move, it asks the board what it sees
along each candidate's way. You write that report.

## What to build

A class derived from `LabBoard` with one method:

    def report(self, probe: Probe, colour: int) -> ProbeReport

`probe.origin` and `probe.target` are squares (0..63, a1 = 0, h8 = 63), `probe.traversed` the
squares the piece said it crosses (nearest first), `probe.en_passant` whether the move takes en
passant (the pawn taken then stands beside the target, not on it). `colour` is the mover's side.

Answer `ProbeReport(blocker, target_code, exposers, king_square)`:
- `blocker`: the first traversed square that holds a piece, as `(square, code)`, or `None`;
- `target_code`: what stands on the target (0 for nothing);
- `exposers`: the enemy pieces, as `(square, code)` in ascending squares, that would reach the
  mover's king **once the move is made**: the mover has left its origin, stands on the target, and
  whatever it took is gone; when the mover is the king, the king's target is the square to guard;
- `king_square`: that king's square after the move.
Look exposers up only when the way is clear and the target is not the mover's own piece.

Read the board with `self.occupant(square)` (a code, 0 for empty; code = colour * 8 + kind),
`self.king_of(colour)` and `self.reach_of(square)` (what the piece there declared it can reach:
target -> (target, traversed, target rule); a target rule `"empty"` is a pawn's push, which
attacks nothing).

## The messages involved

`Survey` (every piece of a kind, for a move to a target) and `ProbeSurvey` (moves given in full),
from the referee: each piece report carries your `report`.

## What is checked

- **worked example**: the two reports below.
- **real games**, **illegal moves**, **invariants** and **messages a ply**, as in lab 1: the
  referee's verdicts rest on your reports, so a wrong one shows as a move judged otherwise than by
  the direct engine.

## Worked example

At the start of a game:

    >>> board.report(Probe(12, 28, (20,), False, "empty"), 0)    # e2 -> e4 crossing e3
    ProbeReport(blocker=None, target_code=None, exposers=(), king_square='e1', refused=False)
    >>> board.report(Probe(0, 16, (8,), False, "any"), 0)        # a1 -> a3 crossing a2
    ProbeReport(blocker=('a2', 'white pawn'), target_code=None, exposers=(), king_square='e1', ...)
'''

_BOARD_STARTER = '''\
"""Lab 2: the board that sees. Run `chess-actors lab check 2 {file}`."""

from actors.study.labs import LabBoard, Probe, ProbeReport


class Board(LabBoard):
    def report(self, probe: Probe, colour: int) -> ProbeReport:
        # self.occupant(square), self.king_of(colour) and self.reach_of(square) read the board.
        raise NotImplementedError("report is not written yet")
'''


# -- lab 3: the referee ----------------------------------------------------------------------------------


def _referee_example(referee_class: type) -> list[str]:
    referee = referee_class(Directory())
    e2, e3, e4, e1 = (_square(name) for name in ("e2", "e3", "e4", "e1"))
    g1, b1, f3 = (_square(name) for name in ("g1", "b1", "f3"))
    pawn = CandidateFacts(e2, PAWN, (e3,), "empty", None, 0, False, (), e1)
    knights = [CandidateFacts(b1, KNIGHT, None),
               CandidateFacts(g1, KNIGHT, (), "any", None, 0, False, (), e1)]
    expected = [
        (Intent(0, PAWN, e4, from_file=4), [pawn], Decision((e2,), None)),
        (Intent(0, KNIGHT, f3), knights, Decision((g1,), None)),
    ]
    problems = []
    for intent, candidates, wanted in expected:
        got = referee.decide(intent, candidates, e1, ())
        if (tuple(got.origins), got.reason is None) != (wanted.origins, True):
            problems.append(f"decide({intent!r}, ...) answered {got!r}; expected {wanted!r}")
    return problems


_REFEREE_README = '''\
# Lab 3: the referee's verdict

The referee decides legality from what the pieces and the board tell it, and from nothing else.
For a move such as `Nf3` it asks every white knight whether it can go to f3 (a piece answers from
its geometry alone), and the board what stands along each knight's way, on f3, and which enemy
pieces would reach the king once the move is made. You write the verdict over those replies.

## What to build

A class derived from `LabReferee` with one method:

    def decide(self, intent, candidates, king_square, checkers) -> Decision

- `intent`: the move as written: `colour`, `kind`, `target`, `promotion` (0 or the kind a pawn
  becomes), `capture` (an `x` was written), and what names the origin when written
  (`from_file`, `from_rank`, `from_square`): `intent.admits(origin)` says whether a piece there fits.
- `candidates`: one `CandidateFacts` per piece of that kind and colour: `origin`, `code`,
  `traversed` (None when the piece said it cannot go there), `target_rule` (`"empty"`: a pawn's
  push; `"enemy"`: a pawn's capture; `"any"`), `blocker` (the first piece in the way, or None),
  `target_code` (what stands on the target, 0 for nothing), `en_passant` (the move takes en
  passant), `exposers` (enemy pieces that would reach the king after the move).
- `king_square`: the mover's king; `checkers`: the enemy pieces that reach it now.

Answer `Decision(origins, reason)`: the one origin that may legally make the move and `reason=None`
when it is legal; else no origin (or several, when the move is ambiguous) and the reason. A king is
never captured. A pawn reaching the last rank must promote, and only a pawn may. Castling is judged
by the project.

## What is checked

- **worked example**: the two decisions below.
- **real games**, **illegal moves** (pins, moves into check, blocked paths, own pieces...),
  **invariants** and **messages a ply**, as in lab 1.

## Worked example

    >>> e4 = Intent(colour=0, kind=PAWN, target=28, from_file=4)
    >>> referee.decide(e4, [CandidateFacts(12, PAWN, (20,), "empty", None, 0, False, (), 4)], 4, ())
    Decision(origins=(12,), reason=None)
    >>> nf3 = Intent(colour=0, kind=KNIGHT, target=21)
    >>> referee.decide(nf3, [CandidateFacts(1, KNIGHT, None),
    ...                      CandidateFacts(6, KNIGHT, (), "any", None, 0, False, (), 4)], 4, ())
    Decision(origins=(6,), reason=None)
'''

_REFEREE_STARTER = '''\
"""Lab 3: the referee's verdict. Run `chess-actors lab check 3 {file}`."""

from actors.study.labs import CandidateFacts, Decision, Intent, LabReferee, Sighting


class Referee(LabReferee):
    def decide(
        self,
        intent: Intent,
        candidates: list[CandidateFacts],
        king_square: int,
        checkers: tuple[Sighting, ...],
    ) -> Decision:
        raise NotImplementedError("decide is not written yet")
'''

# -- lab 4: castling, a conversation ----------------------------------------------------------------

_CASTLING_FEN = "r3k2r/pppq1ppp/2n2n2/2b1p1B1/2B1P1b1/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 8"


def _castling_example(referee_class: type) -> list[str]:
    from actors.game.game import ActorGame

    problems = []
    for move in ("O-O", "O-O-O"):
        with ActorGame(_CASTLING_FEN, roles=replace(STANDARD_ROLES, referee=referee_class)) as actors:
            reply = actors.propose(move)
        if not (isinstance(reply, Accepted) and reply.san == move):
            problems.append(f"{move} in {_CASTLING_FEN} was {reply!r}; expected it accepted as {move}")
    return problems


_CASTLING_README = '''\
# Lab 4: castling, a conversation

Castling is the one move three actors must agree on. The king and the rook each say whether they
may castle (neither has moved, each stands where this castling starts) and what they cross; the
board says what stands between them, who checks the king now, and who would reach each square the
king crosses and lands on once the castling is made. The right itself is the referee's own fact.
You write the referee's side of that conversation: whom to ask, all at once, and the verdict.

## What to build

A class derived from `LabCastling` with one method:

    def castle(self, state: GameState, intent: Intent) -> Ruling

`intent.colour` castles to `intent.castle` (`"K"` kingside, `"Q"` queenside). `state.castling`
holds the rights left (bits); `self.castling_row(state, colour, side)` gives this castling's
squares: `right` (its bit in `state.castling`), `king_from`, `king_to`, `rook_from`, `rook_to`,
`between` (squares that must be empty) and `king_crossed` (squares the king crosses and lands on,
none of which may be attacked; nor may the king be in check).

Talk to the actors: `self.name_at(square)` names the piece on a square (None: the referee knows
nobody there; `self.refresh_hint()` asks the board first); `self.send(name, message)` sends a request
without waiting, `self.wait_with([sent, ...], sent_last)` waits for several replies at once,
`self.ask_one(name, message)` asks and waits. The messages: `CastleQuery(side)` to the king and to the
rook (each answers `Yes(..., traversed, ...)` or `No(reason)`); `CastleSurvey(colour, king_square,
rook_square, king_to, rook_to, between, crossed)` to `"board"`, answered by a `CastleReport` whose
`blocker` is the first piece between them (or None), `king_candidates` the enemy pieces that may
reach the king now, and `crossed_candidates` for each crossed square the enemy pieces that may reach
it; `self.confirm(pairs)` asks those candidates, as `(piece, square)` pairs, whether they really
reach the square, and returns the pairs they confirmed.

Answer `Ruling(king_from, traversed=the king's yes's traversed, code=the king's yes's code)` when
castling is legal, `Ruling(reason="...")` when it is not.

## What is checked

- **worked example**: castling both ways in the position below, accepted.
- **castling**: O-O and O-O-O wherever the side to move holds the right in 24 real games (and,
  where castling is legal, again without the right): accepted with the engine's SAN where the rules
  allow it, refused where they do not (no right, a piece between, out of check, through or onto an
  attacked square).
- **real games**, **invariants** and **messages a ply**, as in lab 1: your conversation's messages
  are counted, and the ladder shows yours beside the project's.

## Worked example

In `{fen}` (white to move, both castlings legal):

    >>> with ActorGame(fen, roles=Roles(referee=Referee)) as game:
    ...     game.propose("O-O")
    Accepted(uci='e1g1', san='O-O', check=False, outcome=None, claimable=())
'''.replace("{fen}", _CASTLING_FEN)

_CASTLING_STARTER = '''\
"""Lab 4: castling, a conversation. Run `chess-actors lab check 4 {file}`."""

from actors.study.labs import (
    CastleQuery, CastleReport, CastleSurvey, GameState, Intent, LabCastling, Ruling, Yes,
)


class Referee(LabCastling):
    def castle(self, state: GameState, intent: Intent) -> Ruling:
        row = self.castling_row(state, intent.colour, intent.castle)
        # Ask the king, the rook and the board at once (self.send, self.wait_with), then decide.
        raise NotImplementedError("castle is not written yet")
'''


# -- lab 5: a supervisor that rebuilds -----------------------------------------------------------------


def _supervisor_example(supervisor_class: type) -> list[str]:
    from actors.game.game import ActorGame

    with ActorGame(roles=replace(STANDARD_ROLES, supervisor=supervisor_class)) as actors:
        for move in ("e4", "e5", "Nf3"):
            actors.propose(move)
        supervisor = actors.supervisor
        assert isinstance(supervisor, LabSupervisor)
        records = supervisor.rebuild(supervisor.journal())
    expected = {"white-pawn-e2": ("e4", True), "black-pawn-e7": ("e5", True), "white-knight-g1": ("f3", True),
                "white-rook-a1": ("a1", False), "black-king-e8": ("e8", False)}
    problems = []
    for name, (square, moved) in expected.items():
        record = records.get(name)
        if record is None or (SQUARE_NAMES[record.square], record.has_moved) != (square, moved):
            problems.append(f"{name}: rebuilt as {record!r}; expected it on {square}, moved {moved}")
    return problems


_SUPERVISOR_README = '''\
# Lab 5: a supervisor that rebuilds

Let it crash: when an actor dies, its supervisor starts it again and rebuilds what it knew. The
journal of accepted moves outlives every other actor; the board is rebuilt from it, and then every
piece is told what it must be. You write that last part: every piece, from the journal alone.

## What to build

A class derived from `LabSupervisor` with one method:

    def rebuild(self, journal: JournalEntries) -> dict[str, Resync]

For every piece on the board after the journal's moves, by its actor's name, a
`Resync(square, has_moved, code, promotions=...)`: where it stands (0..63), whether it has moved
(a king or rook that has moved may not castle), what it is (colour * 8 + kind: a promoted pawn is
a queen now, under its pawn's name) and how many times it was promoted (0 or 1).

`self.start_seats()` lists the game's start: each piece's `square`, `code`, `name` (its kind and
square at the start: `"white-knight-g1"`, kept all game long) and `has_moved`. `journal.entries`
are the accepted moves in order; each `entry.move` has `origin`, `target`, `promotion` (0, or the
kind the pawn becomes), `rook` (castling: the rook's `(from, to)`, else None) and `victim` (en
passant: the square of the pawn taken, else -1). A piece captured is no longer on the board.

## What is checked

- **worked example**: the pieces after 1. e4 e5 2. Nf3, as below.
- **crashes**: after a castling, a promotion or a capture in a real game, the next ply is run once
  for every delivery of it with the receiver crashing there; the supervisor heals with your
  records, and the ply's verdict, the position and every invariant after every delivery (each
  piece stands where the board holds it, as what the board holds it) must stay as without the crash.
- **real games**, **invariants** and **messages a ply**, as in lab 1.

## Worked example

After 1. e4 e5 2. Nf3:

    >>> records = supervisor.rebuild(journal)
    >>> records["white-pawn-e2"], records["white-knight-g1"], records["white-rook-a1"]
    (Resync(square='e4', has_moved=True, code='white pawn', ...),
     Resync(square='f3', has_moved=True, code='white knight', ...),
     Resync(square='a1', has_moved=False, code='white rook', ...))
'''

_SUPERVISOR_STARTER = '''\
"""Lab 5: a supervisor that rebuilds. Run `chess-actors lab check 5 {file}`."""

from actors.study.labs import JournalEntries, LabSupervisor, Resync


class Supervisor(LabSupervisor):
    def rebuild(self, journal: JournalEntries) -> dict[str, Resync]:
        # self.start_seats(): every piece at the start; journal.entries: the moves since.
        raise NotImplementedError("rebuild is not written yet")
'''

_GAME_CHECKS = ("worked example", "real games", "illegal moves", "invariants", "messages a ply")

LABS: tuple[Lab, ...] = (
    Lab(1, "piece", "a piece that knows its moves", "piece", LabPiece, "answer",
        "the move function: yes with the squares it crosses, or no",
        _PIECE_README, _PIECE_STARTER, _piece_example, ("worked example", "move queries", *_GAME_CHECKS[1:])),
    Lab(2, "board", "the board that sees", "board", LabBoard, "report",
        "what it sees along a move: the first blocker, the target, who would reach the king",
        _BOARD_README, _BOARD_STARTER, _board_example, _GAME_CHECKS),
    Lab(3, "referee", "the referee's verdict", "referee", LabReferee, "decide",
        "legality from the replies: blockers, own pieces, pawns, promotion, check, pins",
        _REFEREE_README, _REFEREE_STARTER, _referee_example, _GAME_CHECKS),
    Lab(4, "castling", "castling, a conversation", "referee", LabCastling, "castle",
        "asking the king, the rook and the board at once, and the verdict on their replies",
        _CASTLING_README, _CASTLING_STARTER, _castling_example,
        ("worked example", "castling", "delivery orders", *_GAME_CHECKS[1:2], *_GAME_CHECKS[3:])),
    Lab(5, "supervisor", "a supervisor that rebuilds", "supervisor", LabSupervisor, "rebuild",
        "every piece after a crash, rebuilt from the journal of moves",
        _SUPERVISOR_README, _SUPERVISOR_STARTER, _supervisor_example,
        ("worked example", "crashes", "lost messages", *_GAME_CHECKS[1:2], *_GAME_CHECKS[3:])),
)
"""Every lab, by number."""


def lab_numbered(number: int) -> Lab:
    """The lab called ``number``.

    Raises:
        LookupError: there is no such lab (the message lists those there are).
    """
    for lab in LABS:
        if lab.number == number:
            return lab
    raise LookupError(f"there is no lab {number}: the labs are {', '.join(str(lab.number) for lab in LABS)}")
