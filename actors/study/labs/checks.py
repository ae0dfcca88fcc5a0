"""The checks a lab runs on a student's class, each against the direct engine or the rules core.

Every check is bounded (it says what it left out when its share of time ran out), and the first
thing it finds wrong comes back as a counterexample: a scenario that ``chess-actors run`` replays
to the same failure, cut down to the ply (or the one message) that shows it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from itertools import groupby
from typing import TypeVar

from actors.game.game import ActorGame
from actors.kernel.errors import ActorFailure, LinkFailure
from actors.kernel.messaging import Directory
from actors.protocol.piece import MoveQuery, No, Yes
from actors.protocol.referee import Accepted
from actors.roles.piece import reach_index
from actors.roles.supervisor import STANDARD_ROLES, Roles
from actors.study.fault_search import EveryDelivery, Point, applies, fault_links, game_invariants
from actors.study.labs.bases import first_problem
from actors.study.labs.corpus import (
    CastlingCase,
    IllegalCase,
    LabGame,
    Ply,
    castling_cases,
    games,
    sampled_illegal_cases,
)
from actors.tracing.recorder import TraceRecorder
from board.errors import ChessActorsError
from board.rules.geometry import standard
from board.rules.pieces import COLOUR_NAMES, KIND_NAMES, KING, PAWN
from board.rules.squares import SQUARE_NAMES

__all__ = [
    "CheckResult",
    "Counterexample",
    "Failure",
    "LabRun",
    "check_budget",
    "check_castling",
    "check_crashes",
    "check_games",
    "check_illegal_moves",
    "check_invariants",
    "check_losses",
    "check_move_queries",
    "check_orders",
    "describe_answer",
    "failed_check",
    "project_messages",
]


@dataclass(frozen=True, slots=True)
class Failure:
    """What a check found wrong, before it is made a counterexample: the position, the steps of the
    scenario that shows it (after its ``start``), and a line saying what went wrong."""

    fen: str
    steps: tuple[str, ...]
    what: str
    schedule: bool = False
    """Whether the scenario runs under ``schedule fifo`` (one delivery at a time, in arrival order)."""
    move: str | None = None
    """The move whose verdict shows the failure, when that is all it takes: the counterexample then
    takes away every piece that the failure does without (see actors.study.labs.counterexample)."""
    fault: tuple[str, str, str] | None = None
    """For a failure a fault shows: (the move played before it, the fault step, the move it befalls):
    the counterexample takes pieces away while both moves stay legal and the failure still shows."""
    history: int = 0
    """How many of the steps only make the history the failure needs (the plies before a fault): a
    counterexample's length is counted from the step after them."""
    game: tuple[str, tuple[str, ...]] | None = None
    """For a move of a real game: the game's start and the moves before it, for a failure that the
    position alone does not show (it needs what the actors learnt on the way there)."""


@dataclass(frozen=True, slots=True)
class Counterexample:
    """A failure as a scenario file, with the deliveries it takes and where the studio opens."""

    what: str
    scenario: str
    deliveries: int
    opening: str | None = None
    """Where the studio page of the scenario's run opens: the first delivery whose reply differs
    from the project's own role's (``ply=N&msg=M``)."""

    def as_json(self) -> dict[str, object]:
        """The counterexample as JSON data."""
        return {"what": self.what, "scenario": self.scenario, "deliveries": self.deliveries,
                "opening": self.opening}


@dataclass
class CheckResult:
    """One check's outcome: passed or not, its figure ('832 plies, 0 differ'), what it skipped."""

    name: str
    passed: bool
    figure: str
    detail: str = ""
    skipped: str = ""
    seconds: float = 0.0
    failure: Failure | None = None
    counterexample: Counterexample | None = None

    def as_json(self) -> dict[str, object]:
        """The result as JSON data (the counterexample apart: the report carries the first one)."""
        return {"check": self.name, "passed": self.passed, "figure": self.figure, "detail": self.detail,
                "skipped": self.skipped, "seconds": round(self.seconds, 3)}


@dataclass
class LabRun:
    """What the checks share: the roles with the student's class in, how long each may take, and
    what the games cost in messages."""

    roles: Roles
    quick: bool = False
    seconds: float = 45.0
    """The running check's share of time: past it, the check stops and says what it skipped."""
    messages: float | None = None
    """Messages a ply on the real games (None until they are played)."""

    @contextmanager
    def clock(self) -> Iterator[Callable[[], bool]]:
        """A function telling whether this check's share of time is spent."""
        deadline = time.monotonic() + self.seconds
        yield lambda: time.monotonic() > deadline


# -- describing --------------------------------------------------------------------------------


def describe_answer(answer: object) -> str:
    """'Yes, traversing a2 a3 (empty)' / 'No' / what else it was."""
    if isinstance(answer, Yes):
        crossed = " ".join(SQUARE_NAMES[square] for square in answer.traversed) or "nothing"
        rule = answer.target_rule
        return f"Yes to {SQUARE_NAMES[answer.target]}, traversing {crossed} (target rule {rule})"
    if isinstance(answer, No):
        return "No"
    return repr(answer)


def _piece_words(code: int) -> str:
    return f"{COLOUR_NAMES[code >> 3]} {KIND_NAMES[code & 7]}"


def _lone_piece_fen(code: int, square: int) -> str:
    """A legal position with the piece ``code`` on ``square`` and the kings out of its way (a move
    query asks the piece alone, but a position needs both kings; a king asked is its side's own)."""
    from board.errors import FenError
    from board.notation.fen import parse_fen
    from board.rules.fen_text import format_fen

    corners = (4, 60, 0, 7, 56, 63, 3, 59)
    whites = [square] if code == KING else corners
    blacks = [square] if code == 8 + KING else corners
    for white_king in whites:
        for black_king in blacks:
            apart = max(abs((white_king & 7) - (black_king & 7)), abs((white_king >> 3) - (black_king >> 3)))
            if apart < 2 or (code & 7 != KING and square in (white_king, black_king)):
                continue
            squares = [0] * 64
            squares[square], squares[white_king], squares[black_king] = code, 6, 14
            fen = format_fen(squares, 0, 0, -1, 0, 1)
            try:
                parse_fen(fen)
            except FenError:
                continue
            return fen
    raise AssertionError("no legal position found for the lone piece")


# -- the checks ----------------------------------------------------------------------------------


def check_move_queries(run: LabRun, piece_class: type) -> CheckResult:
    """Lab 1: every move query a piece can be asked, answered as the rules' move function answers:
    each kind and colour on every square (pawns off their first and last ranks) asked about every
    square, then again for the other colour and from another square (both a No)."""
    asked = wrong = 0
    first: Failure | None = None
    detail = ""
    for code in [colour * 8 + kind for colour in (0, 1) for kind in range(1, 7)]:
        kind, colour = code & 7, code >> 3
        for square in range(64):
            if kind == PAWN and square >> 3 in (0, 7):
                continue
            piece = piece_class(f"{COLOUR_NAMES[colour]}-{KIND_NAMES[kind]}-{SQUARE_NAMES[square]}", code,
                                square, False, Directory())
            expected = reach_index(standard(kind), colour, square)
            for end in range(64):
                queries = [(MoveQuery(square, end, colour), expected.get(end))]
                if end in expected:
                    queries.append((MoveQuery(square, end, colour ^ 1), None))
                    other = (square + 9) % 64
                    queries.append((MoveQuery(other, end, colour), None))
                for query, entry in queries:
                    asked += 1
                    answer = piece.answer(query)
                    right = (
                        isinstance(answer, Yes) and (answer.origin, answer.target, tuple(answer.traversed),
                                                     answer.target_rule, answer.code)
                        == (square, end, entry[1], entry[2], code)
                        if entry is not None else isinstance(answer, No)
                    )
                    if right:
                        continue
                    wrong += 1
                    if first is None:
                        should = "No" if entry is None else describe_answer(
                            Yes(square, end, entry[1], entry[2], code))
                        detail = (f"the {_piece_words(code)} on {SQUARE_NAMES[square]}, asked "
                                  f"{SQUARE_NAMES[query.start]} -> {SQUARE_NAMES[end]} for "
                                  f"{COLOUR_NAMES[query.colour]}: answered {describe_answer(answer)}; "
                                  f"the rules say {should}")
                        expect = "expect no"
                        if entry is not None:
                            crossed = " ".join(SQUARE_NAMES[step] for step in entry[1])
                            expect = f"expect yes traversed {crossed} rule {entry[2]}".replace("  ", " ")
                        first = Failure(
                            _lone_piece_fen(code, square),
                            (f"send {SQUARE_NAMES[square]} move {SQUARE_NAMES[query.start]}"
                             f" {SQUARE_NAMES[end]} {COLOUR_NAMES[query.colour]}", expect),
                            detail,
                        )
    figure = f"{asked:,} queries, {wrong:,} answered otherwise than the rules"
    return CheckResult("move queries", wrong == 0, figure, detail, failure=first)


def _verdict_line(reply: object) -> str:
    if isinstance(reply, Accepted):
        return f"accepted as {reply.san}"
    return f"refused: {getattr(reply, 'reason', reply)}"


def _game_failure(ply: Ply, what: str) -> Failure:
    lab_game = games()[ply.game - 1]
    before = tuple(earlier.move for earlier in lab_game.plies[: ply.number - 1])
    return Failure(ply.fen_before, (f"play {ply.move} as {ply.san}", f"fen {ply.fen_after}"), what,
                   move=ply.move, game=(lab_game.start_fen, before))


def check_games(run: LabRun, roles: Roles) -> CheckResult:
    """Every ply of the corpus's real games proposed to the actors: accepted with the engine's SAN,
    leaving the engine's position. A game stops at its first difference."""
    corpus = games()[:8] if run.quick else games()
    plies = differing = played = messages = 0
    first: Failure | None = None
    detail = skipped = ""
    with run.clock() as spent:
        for index, game in enumerate(corpus):
            if spent():
                skipped = f"games {index + 1}-{len(corpus)} (the check's {run.seconds:g} s were spent)"
                break
            plies += len(game.plies)
            found, count, moves = _replay(game, roles)
            messages += count
            played += moves
            if found is not None:
                differing += 1
                if first is None:
                    first, detail = found, f"game {game.number} ({game.title}): {found.what}"
    run.messages = messages / played if played else 0.0
    figure = f"{len(corpus)} games, {plies:,} plies, {differing} games differ"
    return CheckResult("real games", differing == 0, figure, detail, skipped, failure=first)


def _replay(game: LabGame, roles: Roles) -> tuple[Failure | None, int, int]:
    """Play ``game`` through actors made of ``roles``: the first difference from the engine (None),
    the messages its plies took (counted once every actor has stopped, the journal's last record
    in), and the plies played."""
    recorder = TraceRecorder()
    played = 0
    found: Failure | None = None
    with ActorGame(game.start_fen, recorder=recorder, roles=roles) as actors:
        for ply in game.plies:
            found = _play(actors, ply)
            if found is not None:
                break
            played += 1
    messages = sum(1 for event in recorder.events()
                   if event["phase"] != "startup" and event["kind"] not in _LOOKING)
    return found, messages, played


_LOOKING = ("FenQuery", "Describe")
"""The messages of the check's own look at the position after each ply (not the ply's)."""


def _play(actors: ActorGame, ply: Ply) -> Failure | None:
    """Propose ``ply``'s move: a failure when the actors judge it otherwise than the engine."""
    try:
        reply = actors.propose(ply.move)
    except ActorFailure as error:
        return _game_failure(ply, f"ply {ply.number} {ply.move}: the actors failed: {error}")
    if not isinstance(reply, Accepted) or reply.san != ply.san:
        what = f"ply {ply.number} {ply.move}: {_verdict_line(reply)}; the engine plays {ply.san}"
        return _game_failure(ply, what)
    try:
        fen = actors.fen()
    except ActorFailure as error:
        return _game_failure(ply, f"after ply {ply.number} {ply.move}: {error}")
    if fen != ply.fen_after:
        what = f"after ply {ply.number} {ply.move} the actors hold {fen}; the engine {ply.fen_after}"
        return _game_failure(ply, what)
    return None


@dataclass
class _ByPosition:
    """What a check that proposes moves position by position found: moves tried, positions wrong,
    the first failure, and what time left out."""

    positions: int
    tried: int = 0
    wrong: int = 0
    first: Failure | None = None
    skipped: str = ""


Case = TypeVar("Case", IllegalCase, CastlingCase)


def _by_position(run: LabRun, cases: Sequence[Case],
                 propose: Callable[[str, list[Case]], tuple[Failure | None, int]]) -> _ByPosition:
    """``propose(fen, cases)`` for the cases of each position in turn, until the check's time is spent."""
    by_position = [(fen, list(group)) for fen, group in groupby(cases, key=lambda case: case.fen)]
    found = _ByPosition(len(by_position))
    with run.clock() as spent:
        for index, (fen, group) in enumerate(by_position):
            if spent():
                found.skipped = f"{len(by_position) - index} of {len(by_position)} positions (time was spent)"
                break
            failure, count = propose(fen, group)
            found.tried += count
            if failure is not None:
                found.wrong += 1
                found.first = found.first or failure
    return found


def check_illegal_moves(run: LabRun, roles: Roles) -> CheckResult:
    """Moves the rules refuse, in positions of the real games: each refused by the actors too."""
    cases = sampled_illegal_cases(3, 12) if run.quick else sampled_illegal_cases(12, 3)
    found = _by_position(run, cases, lambda fen, group: _refuse_all(fen, group, roles))
    figure = f"{found.tried:,} illegal moves in {found.positions} positions, {found.wrong} accepted"
    detail = found.first.what if found.first is not None else ""
    return CheckResult("illegal moves", found.wrong == 0, figure, detail, found.skipped, failure=found.first)


def _refuse_all(fen: str, cases: list[IllegalCase], roles: Roles) -> tuple[Failure | None, int]:
    tried = 0
    with ActorGame(fen, roles=roles) as actors:
        for case in cases:
            tried += 1
            try:
                reply = actors.propose(case.move)
            except ActorFailure as error:
                what = f"{case.move}: the actors failed: {error}"
                return Failure(fen, (f"reject {case.move}",), what, move=case.move), tried
            if isinstance(reply, Accepted):
                what = f"{case.move} in {fen}: accepted as {reply.san}; the rules refuse it ({case.reason})"
                return Failure(fen, (f"reject {case.move}",), what, move=case.move), tried
    return None, tried


def check_castling(run: LabRun, roles: Roles) -> CheckResult:
    """Castling proposed wherever the side to move holds the right in the real games (and where a
    castling they play is legal, again without that right): accepted with the engine's SAN and
    position where the rules allow it, refused where they do not."""
    cases = castling_cases(4 if run.quick else 1)
    found = _by_position(run, cases, lambda fen, group: _castle_all(fen, group, roles))
    legal = sum(case.san is not None for case in cases)
    figure = (f"{found.tried:,} castlings ({legal} legal) in {found.positions} positions,"
              f" {found.wrong} judged otherwise")
    detail = found.first.what if found.first is not None else ""
    return CheckResult("castling", found.wrong == 0, figure, detail, found.skipped, failure=found.first)


def _castle_all(fen: str, cases: list[CastlingCase], roles: Roles) -> tuple[Failure | None, int]:
    """Propose each case in ``fen``: the refused ones in one game (a refusal changes nothing), each
    legal one in a game of its own."""
    refused = [case for case in cases if case.san is None]
    batches = [refused] if refused else []
    batches += [[case] for case in cases if case.san is not None]
    tried = 0
    for batch in batches:
        with ActorGame(fen, roles=roles) as actors:
            for case in batch:
                tried += 1
                found = _castled(actors, fen, case)
                if found is not None:
                    return found, tried
    return None, tried


def _castled(actors: ActorGame, fen: str, case: CastlingCase) -> Failure | None:
    steps = (f"reject {case.move}",) if case.san is None else (
        f"play {case.move} as {case.san}", f"fen {case.fen_after}")
    try:
        reply = actors.propose(case.move)
    except ActorFailure as error:
        return Failure(fen, steps, f"{case.move} in {fen}: the actors failed: {error}", move=case.move)
    if case.san is None:
        if isinstance(reply, Accepted):
            what = f"{case.move} in {fen}: accepted; the rules refuse it ({case.reason})"
            return Failure(fen, steps, what, move=case.move)
        return None
    if not (isinstance(reply, Accepted) and reply.san == case.san):
        what = f"{case.move} in {fen}: {_verdict_line(reply)}; the engine plays {case.san}"
        return Failure(fen, steps, what, move=case.move)
    held = actors.fen()
    if held != case.fen_after:
        what = f"{case.move} in {fen}: the actors hold {held}; the engine {case.fen_after}"
        return Failure(fen, steps, what, move=case.move)
    return None


def _after_history(corpus: tuple[LabGame, ...], every: int) -> list[tuple[Ply, Ply]]:
    """Pairs of plies (a move that leaves something to rebuild, the move after it): every castling,
    promotion and en passant of the games first, then one capture in ``every``."""
    rare: list[tuple[Ply, Ply]] = []
    captures: list[tuple[Ply, Ply]] = []
    plies = [pair for lab_game in corpus for pair in zip(lab_game.plies, lab_game.plies[1:], strict=False)]
    for before, after in plies:
        en_passant = before.san[0].islower() and "x" in before.san and before.fen_before.split()[3] != "-" \
            and before.san.split("x")[1][:2] == before.fen_before.split()[3]
        if "=" in before.san or en_passant:
            rare.insert(0, (before, after))  # the rarest first: a promotion, en passant
        elif before.san.startswith("O-O"):
            rare.append((before, after))
        elif "x" in before.san:
            captures.append((before, after))
    return [*rare, *captures[::every]]


def check_crashes(run: LabRun, roles: Roles) -> CheckResult:
    """After a castling, a promotion or a capture in a real game, the next ply run once for each of
    its deliveries with the receiver crashing on it: the supervisor heals, and the ply's verdict, the
    position and every invariant after every delivery stay what they are without the crash."""
    return _check_faults(run, roles, "crash", "crashes")


def check_losses(run: LabRun, roles: Roles) -> CheckResult:
    """The same plies, run once for each of their messages with that message lost for good (the
    link gives up on it): the game heals and goes on with the same verdicts, or ends with a
    LinkFailure that says so; never a verdict changed or an invariant broken."""
    return _check_faults(run, roles, "lose", "lost messages")


def _check_faults(run: LabRun, roles: Roles, fault: str, name: str) -> CheckResult:
    pairs = _after_history(games(), 24 if run.quick else 3)
    runs = broken = 0
    first: Failure | None = None
    detail = skipped = ""
    with run.clock() as spent:
        for index, (before, after) in enumerate(pairs):
            if spent():
                skipped = f"{len(pairs) - index} of {len(pairs)} plies (time was spent)"
                break
            for point in _fault_points(before, after, roles, fault):
                runs += 1
                problem = _faulted_run(before, after, point, fault, roles)
                if problem is None:
                    continue
                broken += 1
                if first is None:
                    verb = "drop" if fault == "lose" else fault
                    faulted = f"{point.text()} {'crashing' if fault == 'crash' else 'lost for good'}"
                    what = f"game {after.game}, ply {after.number} {after.move}, {faulted}: {problem}"
                    step = f"{verb} {point.text()}"
                    steps = fault_steps(before.fen_before, before.move, step, after.move)
                    assert steps is not None
                    first = Failure(before.fen_before, steps, what, schedule=True,
                                    fault=(before.move, step, after.move), history=1)
                    detail = what
                break  # one failing run a ply is enough to show it
    figure = f"{len(pairs)} plies, {runs} runs, {broken} plies went wrong"
    return CheckResult(name, broken == 0, figure, detail, skipped, failure=first)


def fault_steps(fen: str, before: str, fault: str, after: str) -> tuple[str, ...] | None:
    """The scenario's steps for ``fault`` befalling ``after``, played after ``before`` from ``fen``
    (the position the engine gives after it checked; None: a move is not legal there)."""
    from board.games.game import Game

    try:
        game = Game(fen)
        game.play(before, want_san=False)
        game.play(after, want_san=False)
    except ChessActorsError:
        return None
    network = ("network retries=0",) if fault.startswith("drop") else ()
    return (*network, f"play {before}", fault, f"play {after}", f"fen {game.fen()}", "invariants")


def _fault_points(before: Ply, after: Ply, roles: Roles, fault: str) -> list[Point]:
    """Every message of ``after`` (played after ``before``) ``fault`` can befall, named as a fault
    step names it."""
    with ActorGame(before.fen_before, schedule="fifo", roles=roles) as actors:
        actors.propose(before.move)
        links = fault_links({})
        assert actors.turnstile is not None
        actors.turnstile.attach(links)
        actors.propose(after.move)
        # A journal that dies takes the game's record with it: no heal rebuilds that, and the game
        # ends saying so. Every other actor's crash is the supervisor's to heal.
        return [point for point in links.sent or ()
                if applies(fault, point) and not (fault == "crash" and point.receiver == "journal")]


def _faulted_run(before: Ply, after: Ply, point: Point, fault: str, roles: Roles) -> str | None:
    """Play ``before``, then ``after`` with ``fault`` befalling ``point``: what went wrong (None)."""
    with ActorGame(before.fen_before, schedule="fifo", roles=roles) as actors:
        actors.propose(before.move)
        assert actors.turnstile is not None
        actors.turnstile.attach(fault_links({point: fault}))
        watch = EveryDelivery(actors)
        actors.turnstile.watchers.append(watch)
        try:
            reply = actors.propose(after.move)
        except LinkFailure:
            return watch.broken[0] if watch.broken else None  # the game ended, and said why
        except ActorFailure as error:
            return f"the game failed: {error}"
        except Exception as error:  # the student's method raised while the supervisor healed
            return _raised(actors, error)
        if watch.broken:
            return watch.broken[0]
        if not isinstance(reply, Accepted) or reply.san != after.san:
            return f"{_verdict_line(reply)}; the engine plays {after.san}"
        try:
            problems = [problem for problem in game_invariants(actors) if "LinkFailure" not in problem]
        except Exception as error:  # the heal the check asked for raised in the student's method
            return _raised(actors, error)
        if problems:
            return problems[0]
        if actors.fen() != after.fen_after:
            return f"the actors hold {actors.fen()}; the engine {after.fen_after}"
    return None


def check_orders(run: LabRun, roles: Roles) -> CheckResult:
    """Every castling of the real games (and some other plies), run under every order of its
    deliveries that can differ (messages racing to one receiver, replies racing to one waiter): the
    same verdict, SAN and position under all, and the engine's."""
    from actors.kernel.policies import Script
    from actors.study.explore import explore
    from actors.study.orders import OrderedSystem

    plies = [ply for game in games() for ply in game.plies
             if ply.san.startswith("O-O") or (not run.quick and ply.number % 25 == 0)]
    plies = plies[:: 4 if run.quick else 1]
    orders = differing = 0
    first: Failure | None = None
    detail = skipped = ""
    with run.clock() as spent, OrderedSystem(roles=roles) as system:
        for index, ply in enumerate(plies):
            if spent():
                skipped = f"{len(plies) - index} of {len(plies)} plies (time was spent)"
                break
            run_once = system.ply(ply.fen_before, ply.move)
            reference = run_once(Script(()))
            report = explore(run_once, None, limit=200, reference=reference)
            orders += report.orders
            wrong: str | None = None
            schedule: list[str] = []
            if reference.outcome.san != ply.san:
                said = reference.outcome.verdict
                wrong = f"in arrival order the actors say {said}; the engine plays {ply.san}"
            elif report.differing is not None:
                schedule = report.differing.schedule
                wrong = (f"delivered in the order {' '.join(schedule)}, the {', '.join(report.differences)}"
                         " differ from arrival order's")
            if wrong is not None:
                differing += 1
                if first is None:
                    what = f"game {ply.game}, ply {ply.number} {ply.move}: {wrong}"
                    order = (f"order {' '.join(schedule)}",) if schedule else ()
                    steps = (*order, f"play {ply.move} as {ply.san}", f"fen {ply.fen_after}")
                    first = Failure(ply.fen_before, steps, what, schedule=True)
                    detail = what
    figure = f"{len(plies)} plies, {orders:,} delivery orders, {differing} plies judged otherwise"
    return CheckResult("delivery orders", differing == 0, figure, detail, skipped, failure=first)


def _raised(actors: ActorGame, error: Exception) -> str:
    """What a heal that raised says: the student's method's first problem, or the error."""
    return first_problem(type(actors.supervisor)) or f"the heal raised {type(error).__name__}: {error}"


def check_invariants(run: LabRun, roles: Roles) -> CheckResult:
    """Sampled plies of the real games, one delivery at a time, the invariants checked after every
    delivery: one king of each colour on the board, every piece told of a move standing where the
    board holds it."""
    plies = [ply for game in games() for ply in game.plies[:: 40 if run.quick else 10]]
    deliveries = broken = 0
    first: Failure | None = None
    detail = skipped = ""
    with run.clock() as spent:
        for index, ply in enumerate(plies):
            if spent():
                skipped = f"{len(plies) - index} of {len(plies)} plies (time was spent)"
                break
            with ActorGame(ply.fen_before, schedule="fifo", roles=roles) as actors:
                watch = EveryDelivery(actors)
                assert actors.turnstile is not None
                actors.turnstile.watchers.append(watch)
                try:
                    actors.propose(ply.move)
                except ActorFailure as error:
                    watch.broken.append(f"the actors failed: {error}")
                deliveries += watch.deliveries
            if watch.broken:
                broken += 1
                if first is None:
                    what = f"ply {ply.number} {ply.move} of game {ply.game}: {watch.broken[0]}"
                    first = Failure(ply.fen_before, (f"play {ply.move}", "invariants"), what, schedule=True)
                    detail = what
    figure = f"{len(plies)} plies, {deliveries:,} deliveries checked, {broken} broke an invariant"
    return CheckResult("invariants", broken == 0, figure, detail, skipped, failure=first)


@cache
def project_messages(quick: bool) -> float:
    """Messages a ply the project's own roles take on the games the lab plays (``quick``: the quick
    corpus), measured once a process."""
    measured = LabRun(STANDARD_ROLES, quick, seconds=float("inf"))
    check_games(measured, STANDARD_ROLES)
    return measured.messages or 0.0


def check_budget(run: LabRun, best: float | None, allowance: float = 1.0) -> CheckResult:
    """Messages a ply on the real games, yours against the project's: within ``allowance`` times
    the project's (the ladder shows the best known beside them)."""
    yours = run.messages
    if yours is None:
        return CheckResult("messages a ply", False, "not measured", "the real games were not played")
    projects = project_messages(run.quick)
    ladder = f"yours {yours:.2f}; the project's {projects:.2f}"
    if best is not None:
        ladder += f"; the best known {best:.2f}"
    passed = yours <= projects * allowance + 1e-9
    detail = "" if passed else ("more messages a ply than the project's" if allowance == 1.0
                                else f"more than {allowance:g} times the project's messages a ply")
    return CheckResult("messages a ply", passed, ladder, detail)


def failed_check(name: str, error: BaseException) -> CheckResult:
    """A check that could not run to its end: the student's code raised."""
    what = f"{type(error).__name__}: {error}"
    return CheckResult(name, False, "raised", what)
