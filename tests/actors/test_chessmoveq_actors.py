"""ChessMoveQ through the actors: the referee asks the pieces and the board, and answers as the direct engine.

The seed's seven cases, the rules one by one, a few thousand random cases on one reused session, the
board's position-only setup (no king: nobody to reach), and ``check-move --batch`` with either engine.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pykka
import pytest

from actors.game.session import EMPTY_FEN, CheckMoveSession
from actors.kernel.messaging import Directory, Envelope
from actors.protocol import (
    Crash,
    Learn,
    Place,
    Probe,
    ProbeReports,
    ProbeSurvey,
    RosterEntry,
    Survey,
    SurveyReport,
)
from actors.roles.board import BoardActor
from actors.roles.piece import PieceActor
from actors.tracing.recorder import TraceRecorder
from board.puzzles.chessmoveq import Answer, answer, parse_move, parse_position
from board.rules.geometry import geometry_named
from tests.helpers.chessmoveq_cases import SEED_CASES, SMALLEST_MATE, Piece, pieces, square
from tests.helpers.chessmoveq_positions import played_position, random_move, sparse_position

ROOT = Path(__file__).resolve().parents[2]


def both(session: CheckMoveSession, position: list[Piece], move: Piece) -> tuple[Answer, Answer]:
    """(the actors' answer, the direct engine's answer) for one case."""
    placed, moving = parse_position(position), parse_move(move)
    return session.answer(placed, moving), answer(placed, moving)


# -- the seed's cases and the rules ----------------------------------------------------------------


@pytest.mark.parametrize(("position", "move", "expected", "needles"), SEED_CASES)
def test_the_seed_cases_answer_and_explain_as_the_direct_engine(
    position: list[Piece], move: Piece, expected: bool, needles: list[str]
) -> None:
    with CheckMoveSession() as session:
        actors, direct = both(session, position, move)
    assert actors == direct, f"actors {actors} != direct {direct}"
    assert actors.valid is expected
    deciding = [line for line in actors.reasons if line.startswith(needles[0].split(":")[0] + ":")]
    assert deciding and all(needle in deciding[0] for needle in needles), f"{needles} not in {actors.reasons}"


RULE_CASES = [
    # (FEN placement, colour, kind, target square): each pins one rule of position-only mode
    ("4k3/4r3/8/8/8/8/4N3/4K3", "W", "N", "c3"),  # pinned: it would expose the king
    ("4r1k1/8/8/8/Rb6/8/8/4K3", "W", "R", "b4"),  # double check: taking one checker is not enough
    ("4r1k1/8/8/8/Rb6/8/8/4K3", "W", "K", "f2"),
    ("6k1/6b1/8/4K3/8/8/8/6R1", "W", "K", "f6"),  # a pinned enemy piece still guards
    ("8/8/8/3k4/8/3K4/8/8", "W", "K", "d4"),  # kings never stand side by side
    ("4r3/8/8/8/8/8/4N3/8", "W", "N", "c3"),  # no king: nothing to keep safe
    ("4k3/8/8/8/8/8/8/R3r3", "W", "R", "a8"),
    ("4k3/8/8/8/8/8/8/K3R3", "W", "R", "e8"),  # the enemy king is taken like any piece
    ("4k3/8/8/8/8/8/8/4K2R", "W", "K", "g1"),  # never castling
    ("4k3/8/8/3Pp3/8/8/8/4K3", "W", "P", "e6"),  # never en passant
    ("3rk3/4P3/8/8/8/8/8/4K3", "W", "P", "d8"),  # reaching the last rank is a move
    ("4k3/8/8/8/8/8/p7/4K3", "B", "P", "a1"),
    ("K7/8/8/8/8/8/8/P6k", "W", "P", "a2"),  # a pawn on its first rank still steps forward
    ("4k3/8/8/8/8/4n3/4P3/4K3", "W", "P", "e4"),  # a double push needs both squares empty
    ("4k3/8/8/8/8/8/8/R3K3", "W", "R", "a1"),  # already there
    ("4k3/8/8/8/8/8/4K3/R6R", "W", "R", "d1"),  # two rooks can: valid, with both named
    ("7k/8/8/8/8/8/8/K6Q", "W", "Q", "h7"),  # the side not moving may stand in check
    ("k7/8/8/8/8/8/8/7K", "W", "N", "a1"),  # no such piece
]


@pytest.mark.parametrize(("placement", "colour", "kind", "target"), RULE_CASES)
def test_each_rule_reads_the_same_through_the_actors(
    placement: str, colour: str, kind: str, target: str
) -> None:
    move = [colour, kind, *square(target)]
    with CheckMoveSession() as session:
        actors, direct = both(session, pieces(placement), move)
    assert actors == direct, f"{placement} {move}: actors {actors} != direct {direct}"


# -- many cases, one session -----------------------------------------------------------------------


def test_thousands_of_random_cases_agree_on_one_reused_session() -> None:
    rng = random.Random(31)
    cases: list[tuple[list[Piece], Piece]] = []
    for _ in range(1200):
        position = sparse_position(rng)
        cases += [(position, random_move(rng, position)) for _ in range(2)]
    for _ in range(200):
        position = played_position(rng)
        cases += [(position, random_move(rng, position)) for _ in range(3)]
    kingless = sum(1 for position, move in cases if [move[0], "K"] not in [p[:2] for p in position])
    assert kingless > 300, "too few cases whose mover has no king"
    differ: list[str] = []
    valid = 0
    with CheckMoveSession() as session:
        board = session.supervisor.ref("board") if session.supervisor else None
        for position, move in cases:
            actors, direct = both(session, position, move)
            valid += direct.valid
            if actors != direct:
                differ.append(f"{position} {move}: actors {actors} != direct {direct}")
        assert session.supervisor is not None and session.supervisor.ref("board") is board, "one board"
        assert session.restarts == 0
        assert session.piece_actors <= 12 * 64, "at most one actor for each piece code and square"
    assert not differ, f"{len(differ)} of {len(cases)} cases differ, e.g.:\n" + "\n".join(differ[:3])
    assert valid > 600, "too few valid moves sampled for the comparison to mean much"


def test_a_piece_seen_again_on_its_square_is_the_same_actor_and_is_not_seated_again() -> None:
    recorder = TraceRecorder()
    with CheckMoveSession(recorder=recorder) as session:
        placed = parse_position(SMALLEST_MATE)  # black king f1, black queen f2, white king h1
        for move in (["B", "Q", 7, 1], ["B", "Q", 6, 8], ["W", "K", 8, 2]):
            session.answer(placed, parse_move(move))
        assert session.piece_actors == 3
        queen_on_g2 = [["B", "K", 6, 1], ["B", "Q", 7, 2], ["W", "K", 8, 1]]
        session.answer(parse_position(queen_on_g2), parse_move(["W", "K", 8, 2]))
        assert session.piece_actors == 4, "a queen on g2 is a new actor; both kings are the same ones"
        session.answer(placed, parse_move(["B", "Q", 7, 1]))
        assert session.piece_actors == 4, "the queen on f2 again is the actor that stood there"
    counts = recorder.counts_by_kind()
    assert (counts["Setup"], counts["Place"]) == (3, 3), "client -> referee -> board, once a new placement"
    assert counts["Seat"] == 4, "each actor seated once: the board keeps what a piece seated so declared"
    assert counts["CheckMove"] == 5


def test_the_conversation_of_one_check_asks_pieces_board_and_attackers() -> None:
    recorder = TraceRecorder()
    placed = parse_position(pieces("4k3/4r3/8/8/8/8/4N3/4K3"))
    with CheckMoveSession(recorder=recorder) as session:
        session.answer(placed, parse_move(["W", "K", 4, 1]))
        recorder.clear()  # the placement is seated now: the next case on it is the check alone
        session.answer(placed, parse_move(["W", "N", 3, 3]))
    events = sorted(recorder.events(), key=lambda event: event["msg_id"])
    path = [(event["sender"], event["receiver"], event["kind"]) for event in events]
    assert path == [
        ("client", "referee", "CheckMove"),
        ("referee", "white-knight-e2", "MoveQuery"),  # can the knight go e2 -> c3?
        ("referee", "board", "Survey"),  # what is in the way, who might reach the king after it
        ("referee", "black-rook-e7", "MoveQuery"),  # the rook confirms it would reach e1
    ], path


def test_a_crashed_piece_actor_costs_one_restart_not_a_wrong_answer() -> None:
    with CheckMoveSession() as session:
        placed = parse_position(SMALLEST_MATE)
        session.answer(placed, parse_move(["B", "Q", 7, 1]))
        assert session.supervisor is not None
        queen = session.supervisor.ref("black-queen-f2")
        assert queen is not None
        queen.tell(Envelope(Crash(), "test", None, None))
        queen.actor_stopped.wait(5.0)
        actors = session.answer(placed, parse_move(["B", "Q", 7, 1]))
        assert actors == answer(placed, parse_move(["B", "Q", 7, 1]))
        assert session.restarts == 1


# -- the board in position-only mode ---------------------------------------------------------------


def test_a_board_without_the_movers_king_reports_no_one_to_reach_it() -> None:
    # A white knight pinned, were there a white king on e1; there is none, so nobody reaches it.
    directory = Directory()
    entries = (
        RosterEntry(12, 2, "white-knight-1", True),  # Ne2
        RosterEntry(52, 12, "black-rook-1", True),  # re7
        RosterEntry(60, 14, "black-king-1", True),  # ke8
    )
    started = [BoardActor.start(EMPTY_FEN, (), directory, strict=False)]
    directory.register("board", started[0])
    for entry in entries:
        ref = PieceActor.start(entry.name, entry.code, 0, True, directory)
        directory.register(entry.name, ref)
        started.append(ref)
    board = started[0]
    try:
        roster = board.ask(Envelope(Place(entries), "test", None, None))
        assert [entry.name for entry in roster.entries] == ["white-knight-1", "black-rook-1", "black-king-1"]
        probes: ProbeReports = board.ask(
            Envelope(ProbeSurvey(0, (Probe(12, 18, (), False, "any"),)), "test", None, None)
        )
        assert probes.reports[0].exposers == () and probes.reports[0].king_square == -1
        white: SurveyReport = board.ask(Envelope(Survey(0, 2, 18, check=True), "test", None, None))
        assert white.check == () and white.king_square == -1
        black: SurveyReport = board.ask(Envelope(Survey(1, 6, 61, check=True), "test", None, None))
        assert black.check == (), "the black king on e8 is not attacked"
    finally:
        for ref in started:
            ref.stop()
    assert not pykka.ActorRegistry.get_all()


def test_a_kept_seat_holds_only_while_the_piece_has_declared_nothing_since() -> None:
    recorder = TraceRecorder()
    directory = Directory()
    entries = (RosterEntry(12, 2, "white-knight-e2", True), RosterEntry(60, 14, "black-king-e8", True))
    board = BoardActor.start(EMPTY_FEN, (), directory, recorder, strict=False)
    directory.register("board", board)
    started = [board]
    for entry in entries:
        started.append(PieceActor.start(entry.name, entry.code, entry.square, True, directory, recorder))
        directory.register(entry.name, started[-1])

    def seated_by(keep: bool) -> list[str]:
        recorder.clear()
        board.ask(Envelope(Place(entries, keep=keep), "test", None, None))
        return sorted(event["receiver"] for event in recorder.events() if event["kind"] == "Seat")

    def knight_reaches_c3() -> bool:
        report: SurveyReport = board.ask(Envelope(Survey(0, 2, 18), "test", None, None))
        return report.pieces[0].path is not None

    try:
        assert seated_by(keep=True) == ["black-king-e8", "white-knight-e2"]
        assert seated_by(keep=True) == [], "seated as asked already: each piece's declaration stands"
        assert seated_by(keep=False) == ["black-king-e8", "white-knight-e2"]
        started[1].ask(Envelope(Learn(geometry_named("camel")), "test", None, None))
        assert not knight_reaches_c3(), "the knight declared its lesson itself: it moves as a camel"
        assert seated_by(keep=True) == ["white-knight-e2"], "a piece that declared since is seated afresh"
        assert knight_reaches_c3(), "seated afresh, it is a plain knight again"
        started[1].stop()
        started.append(PieceActor.start("white-knight-e2", 2, 12, True, directory, recorder))
        directory.register("white-knight-e2", started[-1])
        assert seated_by(keep=True) == ["white-knight-e2"], "another actor of that name declared nothing"
    finally:
        for ref in started:
            ref.stop()
    assert not pykka.ActorRegistry.get_all()


# -- the command line ------------------------------------------------------------------------------


def check_move(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", "check-move", *arguments],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )


def test_batch_through_the_actors_prints_what_the_direct_engine_prints(tmp_path: Path) -> None:
    rng = random.Random(5)
    lines: list[dict[str, Any]] = []
    for index in range(400):
        position = sparse_position(rng) if index % 4 else played_position(rng)
        lines.append({"position": position, "move": random_move(rng, position)})
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    for extra in ([], ["--json"]):
        default = check_move("--batch", str(cases), *extra)
        actors = check_move("--batch", str(cases), "--engine", "actors", *extra)
        direct = check_move("--batch", str(cases), "--engine", "direct", *extra)
        for result in (default, actors, direct):
            assert (result.returncode, result.stderr) == (0, ""), result.stderr
        assert len(direct.stdout.splitlines()) == len(lines)
        assert default.stdout == direct.stdout, f"default (actors) and direct differ with {extra}"
        assert actors.stdout == direct.stdout, f"actors and direct differ with {extra}"
        if not extra:
            assert set(direct.stdout.splitlines()) == {"true", "false"}, "both answers sampled"


def test_one_case_explains_alike_with_either_engine() -> None:
    position = json.dumps(pieces("4r1k1/8/8/8/Rb6/8/8/4K3"))
    for move in ('["W","R",2,4]', '["W","K",6,2]'):
        actors = check_move(position, move, "--explain")
        direct = check_move(position, move, "--explain", "--engine", "direct")
        assert (actors.returncode, actors.stderr) == (0, "")
        assert actors.stdout == direct.stdout


def test_an_unknown_engine_is_a_usage_error() -> None:
    result = check_move("[]", '["W","K",1,1]', "--engine", "ray")
    assert result.returncode == 2 and "invalid choice: 'ray'" in result.stderr
    assert "Traceback" not in result.stderr


def _random_cases(seed: int, count: int) -> list[tuple[Any, Any]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        position = sparse_position(rng) if rng.random() < 0.5 else played_position(rng)
        cases.append((parse_position(position), parse_move(random_move(rng, position))))
    return cases


def test_pipelined_answers_come_in_order_and_equal_the_direct_engine() -> None:
    cases = _random_cases(31, 300)
    with CheckMoveSession() as session:
        got = list(session.answer_many(cases, window=16))
        assert session.restarts == 0
    assert got == [answer(pieces_, move) for pieces_, move in cases]


def test_a_crash_while_cases_are_in_flight_costs_a_restart_not_an_answer() -> None:
    cases = _random_cases(32, 120)
    with CheckMoveSession() as session:

        def crashing() -> Any:
            for number, case in enumerate(cases):
                if number == 40:
                    assert session.supervisor is not None
                    board = session.supervisor.ref("board")
                    assert board is not None
                    board.tell(Envelope(Crash(), "test", None, None))
                yield case

        got = list(session.answer_many(crashing(), window=16))
        assert session.restarts >= 1
    assert got == [answer(pieces_, move) for pieces_, move in cases]
