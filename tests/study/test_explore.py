"""Exploring delivery orders: real plies agree under every order; a racy actor is caught and shrunk."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from actors.kernel.actor import TracedActor
from actors.kernel.affinity import one_core
from actors.kernel.messaging import Directory, ask, post, wait_all, wait_one
from actors.kernel.policies import Fifo, Policy, Script
from actors.kernel.schedule import Turnstile
from actors.study.explore import Outcome, Run, RunOnce, explore, messages_of
from actors.study.orders import OrderedSystem, explore_game, game_plies
from actors.tracing.export import read_jsonl
from actors.tracing.recorder import TraceRecorder
from board.notation.fen import STARTING_FEN
from board.notation.pgn import read_games
from tests.helpers.extras import import_or_skip

ROOT = Path(__file__).resolve().parents[2]


def pgn_games(path: str) -> list[list[str]]:
    with open(path, encoding="utf-8") as file:
        return [[token.text for token in game.moves] for game in read_games(file)]


OPERA = pgn_games("tests/data/opera-game.pgn")[0]


# --- a deliberately racy actor system --------------------------------------------------------


@dataclass(frozen=True)
class Go:
    """Tell the tally who you are."""


@dataclass(frozen=True)
class Report:
    who: str


@dataclass(frozen=True)
class Who:
    """Ask the tally whom it heard first."""


class Reporter(TracedActor[Go]):
    def handle(self, message: Go) -> object:
        self.tell("tally", Report(self.name))
        return "sent"


class Tally(TracedActor[Report | Who]):
    """Keeps the first report it hears: its answer depends on the order of its mail (the bug)."""

    first = "nobody"

    def handle(self, message: Report | Who) -> object:
        match message:
            case Report(who=who):
                if self.first == "nobody":
                    self.first = who
                return None
            case Who():
                return self.first


def racy_run(policy: Policy) -> Run:
    """Two reporters race to the tally; the client then asks the tally who was first."""
    turnstile = Turnstile(policy)
    recorder = TraceRecorder()
    directory = Directory()
    directory.turnstile = turnstile
    names = ("tally", "reporter-a", "reporter-b", "reporter-c")
    refs = [(Tally if name == "tally" else Reporter).start(name, directory, recorder, 2.0) for name in names]
    for name, ref in zip(names, refs, strict=True):
        directory.register(name, ref)
    try:
        goes = [ask(ref, name, post(recorder, "client", name, Go()))
                for name, ref in zip(names, refs, strict=True) if name != "tally"]
        wait_all(goes, 2.0)
        turnstile.drain()
        first = wait_one(*ask(refs[0], "tally", post(recorder, "client", "tally", Who())), 2.0)
        steps = tuple(turnstile.steps)
        events = tuple(recorder.events())
    finally:
        turnstile.close()
        for ref in refs:
            ref.stop()
    return Run(Outcome(f"first: {first}", None, "", messages_of(events)), steps, events)


def test_the_racy_tally_is_caught_with_a_minimal_counterexample() -> None:
    report = explore(racy_run, None)
    assert report.exhaustive
    assert report.reference.outcome.verdict == "first: reporter-a"
    assert report.differing is not None, "the explorer should find an order where another reporter wins"
    assert report.differences == ["verdict", "messages"], "the tally's answer is among the messages too"
    assert report.orders >= 3, "each reporter can be the first heard: three orders that differ"
    shrunk = report.differing.schedule
    # Minimal: the prefix that matters is one choice (let b or c run before a); without the
    # choices that differ from arrival order the outcome is the reference's again.
    pairs = zip(shrunk, report.reference.schedule, strict=False)
    deviation = next(index for index, (mine, fifo) in enumerate(pairs) if mine != fifo)
    assert deviation <= 3
    assert racy_run(Script(shrunk[:deviation])).outcome == report.reference.outcome
    assert racy_run(Script(shrunk)).outcome == report.differing.outcome


def test_random_orders_find_the_race_too() -> None:
    report = explore(racy_run, 30, seed=1)
    assert report.differing is not None
    assert report.orders > 1


def test_the_counterexample_replays_to_the_same_trace() -> None:
    report = explore(racy_run, None)
    assert report.differing is not None
    again = racy_run(Script(report.differing.schedule))

    def timeless(run: Run) -> list[tuple[object, ...]]:
        return [(e["msg_id"], e["parent_id"], e["sender"], e["receiver"], e["kind"], e["reply"])
                for e in run.trace]

    assert timeless(again) == timeless(report.differing)


# --- real plies ------------------------------------------------------------------------------

CHOSEN_PLIES = {7: "a capture (dxe5)", 21: "a check (Bxb5+)", 23: "castling (O-O-O)", 33: "mate (Rd8#)"}


@pytest.fixture
def system() -> Iterator[OrderedSystem]:
    """One actor system for a test's runs (re-seated for each), stopped when the test ends; its
    threads share one core, as the command line's do (actors.kernel.affinity)."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    one_core()
    try:
        with OrderedSystem() as reused:
            yield reused
    finally:
        if allowed is not None:
            os.sched_setaffinity(0, allowed)


@pytest.mark.parametrize("ply", sorted(CHOSEN_PLIES))
def test_every_order_of_a_chosen_opera_ply_gives_the_same_outcome(ply: int, system: OrderedSystem) -> None:
    number, fen, move = game_plies(STARTING_FEN, OPERA)[ply - 1]
    report = explore(system.ply(fen, move), None)
    assert report.exhaustive, f"the search of ply {number} ({CHOSEN_PLIES[ply]}) did not finish"
    assert report.same, f"ply {number} {move}: {report.differences} changed under {report.differing}"
    assert report.reference.outcome.san == move
    assert report.orders >= 2, "a ply's conversation has at least one race (the journal's record)"


def twenty_games() -> list[list[str]]:
    """Twenty real games, every one played out: the seventeen miniatures of tests/data/miniatures and
    the shortest three of the famous games."""
    games = pgn_games("tests/data/miniatures/short-games.pgn")
    famous = [game for path in sorted(glob.glob("tests/data/*.pgn")) if not path.endswith("famous.pgn")
              for game in pgn_games(path)]
    return games + sorted(famous, key=len)[:3]


ORDERS = 200
"""Random orders each ply of each game runs under (each a run of the whole game, one seed a run)."""


def test_every_ply_of_twenty_real_games_gives_the_same_outcome_under_random_orders(
    system: OrderedSystem,
) -> None:
    games = twenty_games()
    assert len(games) == 20
    plies = 0
    for index, moves in enumerate(games):
        reports = explore_game(system, STARTING_FEN, moves, ORDERS, seed=index * ORDERS)
        assert len(reports) == len(moves), f"game {index + 1} stopped at ply {len(reports)}: not a real game"
        for number, (move, report) in enumerate(zip(moves, reports, strict=True), start=1):
            assert report.same, (f"game {index + 1} ply {number} {move}: {report.differences} changed under"
                                 f" the order {report.differing and report.differing.schedule}")
            assert report.reference.outcome.san == move
        assert max(report.orders for report in reports) > 1, "random orders that never differed: no test"
        plies += len(reports)
    assert plies >= 500


class RacyGame:
    """A 'game' whose every ply is the racy tally's run: what the whole-game explorer must catch."""

    def play(self, fen: str, moves: Sequence[str], policy: Policy, first: int = 1) -> list[Run]:
        return [racy_run(policy) for _ in moves]

    def ply(self, fen: str, move: str, number: int = 1) -> RunOnce:
        return racy_run


def test_the_whole_game_explorer_catches_a_racy_ply_with_a_minimal_counterexample() -> None:
    reports = explore_game(RacyGame(), STARTING_FEN, ["one", "two", "three"], 30, seed=1)
    assert len(reports) == 3
    assert all(not report.same for report in reports), "each ply races: some random order changes each"
    for report in reports:
        assert report.differences == ["verdict", "messages"]
        assert report.differing is not None
        assert racy_run(Script(report.differing.schedule)).outcome == report.differing.outcome
        assert report.orders > 1
def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "actors.cli", *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_explore_command_reports_each_ply_as_json(tmp_path: object) -> None:
    done = run_cli("explore", "tests/data/opera-game.pgn", "--plies", "1-2", "--orders", "all", "--json")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["ply"], r["move"], r["exhaustive"]) for r in records] == [(1, "e4", True), (2, "e5", True)]
    assert all(all(r["same"].values()) and r["counterexample"] is None for r in records)
    assert "2 plies" in done.stderr and "every order gave the same outcome" in done.stderr


def test_explore_command_reads_a_scenario() -> None:
    done = run_cli("explore", "actors/examples/checkmate.scenario", "--orders", "2")
    assert done.returncode == 0, done.stderr
    assert "same verdict, SAN, position and messages" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--orders", "0"), "--orders '0': give a number of random orders from 1 to 1,000,000"),
        (("--plies", "40-41"), "--plies 40-41: the game has 33 plies"),
        (("--game", "2"), "there is no game 2"),
    ],
)
def test_explore_command_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run_cli("explore", "tests/data/opera-game.pgn", *args)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_counterexample_trace_is_readable_by_the_trace_command(tmp_path: object) -> None:
    from pathlib import Path

    from actors.cli.explore import _write_trace

    report = explore(racy_run, None)
    assert report.differing is not None
    path = Path(str(tmp_path)) / "race.jsonl"
    _write_trace(report.differing, str(path))
    with path.open("rb") as file:
        events = read_jsonl(file, source=str(path))
    assert [event["kind"] for event in events] == [event["kind"] for event in report.differing.trace]
    done = run_cli("trace", str(path), "--to", "mermaid")
    assert done.returncode == 0 and "sequenceDiagram" in done.stdout


def test_a_scripted_ply_follows_arrival_order_after_its_script(system: OrderedSystem) -> None:
    _, fen, move = game_plies(STARTING_FEN, OPERA)[32]
    run = system.ply(fen, move)
    fifo = run(Fifo())
    scripted = run(Script(fifo.schedule[:3]))
    assert scripted.schedule == fifo.schedule and scripted.outcome == fifo.outcome


def test_an_illegal_ply_is_explored_too_and_refused_alike_under_every_order(system: OrderedSystem) -> None:
    plies = game_plies(STARTING_FEN, ["e4", "e5", "Ke3", "Nf3"])
    assert [move for _, _, move in plies] == ["e4", "e5", "Ke3"], "it stops after the first illegal ply"
    _, fen, move = plies[-1]
    report = explore(system.ply(fen, move), None)
    assert report.exhaustive and report.same
    assert report.reference.outcome.verdict.startswith("rejected: ")
    assert report.reference.outcome.fen == fen, "a refused move leaves the position as it was"


def test_a_ply_after_a_lesson_has_one_verdict_under_every_order() -> None:
    # The lesson's messages and the next move's share the ply's schedule: whatever the order, the
    # board takes the bishop's new word before it answers anything that comes after the lesson.
    done = run_cli("explore", "tests/data/scenarios/lesson-then-move.scenario", "--orders", "all", "--json")
    assert done.returncode == 0, done.stderr
    records = {r["ply"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert all(r["exhaustive"] and all(r["same"].values()) for r in records.values()), records
    # Bc6 is a rook's move, legal only by the lesson, and a bishop that moves as a rook is material.
    assert (records[3]["san"], records[3]["verdict"]) == ("Bc6", "accepted")
    assert records[3]["fen"] == "8/3k4/2B5/8/8/8/5K2/8 b - - 3 2"


def test_explore_runs_the_lesson_inside_the_ply_it_precedes(system: OrderedSystem) -> None:
    from board.rules.geometry import geometry_named
    from board.rules.squares import SQUARE_INDEX

    lesson = (SQUARE_INDEX["c1"], geometry_named("rook"))
    start = "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"
    taught = system.ply_after(start, ["Kf2", "Kd7"], [lesson], "Bc6")(Fifo())
    kinds = [event["kind"] for event in taught.trace]
    assert kinds.index("Teach") < kinds.index("ProposeText"), kinds
    assert taught.outcome.verdict == "accepted"
    untaught = system.ply_after(start, ["Kf2", "Kd7"], [], "Bc6")(Fifo())
    assert untaught.outcome.verdict.startswith("rejected")


def test_explore_with_no_source_explores_the_game_replay_plays() -> None:
    done = run_cli("explore", "--plies", "33", "--orders", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("ply 33 Rd8#: 2 seeded random orders in ")


def test_explore_reads_pgn_from_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "actors.cli", "explore", "-", "--orders", "all", "--json"],
        input="1. e4 e5 2. Nf3 *\n", capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["san"] for line in done.stdout.splitlines()] == ["e4", "e5", "Nf3"]


def test_explore_reads_a_shipped_example_by_name() -> None:
    done = run_cli("explore", "--example", "checkmate", "--plies", "1", "--orders", "all")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ply 1 f3: ")
    assert "(every order that can differ)" in done.stdout.splitlines()[0]


def test_explore_help_names_no_file_an_installed_package_lacks() -> None:
    done = run_cli("explore", "--help")
    examples = done.stdout.split("examples:")[1]
    commands = [line.strip() for line in examples.splitlines() if line.strip().startswith("chess-actors")]
    assert len(commands) == 3
    for command in commands:
        words = command.split("#")[0].split()
        assert not [word for word in words if word.endswith((".pgn", ".scenario", ".jsonl"))], command


def test_a_spent_budget_stops_exploring_with_one_line_saying_where() -> None:
    result = run_cli("explore", "tests/data/opera-game.pgn", "--plies", "1-3", "--budget", "1e-9")
    assert result.returncode == 1
    assert result.stderr == (
        "chess-actors explore: the budget of 1e-09 s ran out before ply 1, after 0 orders, with plies 1-3 "
        "not all explored (no order changed an outcome before it); raise --budget, or choose fewer "
        "--plies or --orders\n"
    )
    assert result.stdout == "", "the budget's line is the only one: no summary says it again"


def test_a_budget_spent_inside_a_ply_reports_that_ply_then_the_one_line() -> None:
    result = run_cli("explore", "tests/data/opera-game.pgn", "--plies", "33", "--orders", "1000000",
                     "--budget", "1")
    assert result.returncode == 1
    [ply_line] = result.stdout.splitlines()
    assert ply_line.startswith("ply 33 Rd8#: ") and "budget" not in ply_line
    [stop_line] = result.stderr.splitlines()
    assert stop_line.startswith("chess-actors explore: the budget of 1 s ran out in ply 33, after ")
    assert stop_line.endswith("with plies 33-33 not all explored (no order changed an outcome before it); "
                              "raise --budget, or choose fewer --plies or --orders")


def test_exploring_for_longer_than_a_second_shows_a_progress_bar_on_a_terminal() -> None:
    pexpect = import_or_skip("pexpect")

    # The budget keeps the run going for three seconds, past the second after which the bar shows.
    child = pexpect.spawn(sys.executable, ["-m", "actors.cli", "explore", "tests/data/opera-game.pgn",
                                           "--plies", "32-33", "--orders", "1000000", "--budget", "3"],
                          cwd=str(ROOT), encoding="utf-8", timeout=60, dimensions=(24, 120),
                          env={**os.environ, "NO_COLOR": "1"})
    child.expect(r"explore: ply 32 Nxb8, \d+ runs")
    child.expect(r"0/2 plies")
    child.expect(r"the budget of 3 s ran out in ply 32")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


def test_explore_shows_no_progress_bar_when_stderr_is_no_terminal() -> None:
    result = run_cli("explore", "tests/data/opera-game.pgn", "--plies", "33", "--orders", "1000000",
                     "--budget", "2")
    assert "explore: ply" not in result.stderr and "\x1b" not in result.stderr + result.stdout


@pytest.mark.parametrize("orders", ["0", "1000001", "999999999999999999", "-3", "lots"])
def test_orders_past_the_cap_are_refused(orders: str) -> None:
    from actors.cli.explore import parse_orders
    from board.errors import InputError

    with pytest.raises(InputError, match="from 1 to 1,000,000, or all"):
        parse_orders(orders)


def test_explore_trace_writes_each_explored_ply_in_arrival_order_numbered_as_the_game(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    done = run_cli("explore", "tests/data/opera-game.pgn", "--plies", "2-3", "--orders", "all",
                   "--trace", str(trace))
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    assert {(event["ply"], event["phase"]) for event in events} == {(2, "ply 2"), (3, "ply 3")}
    drawn = run_cli("trace", str(trace), "--to", "mermaid", "--plies", "3-3")
    assert drawn.returncode == 0 and "Note over client,referee: ply 3: Nf3" in drawn.stdout, drawn.stderr


def test_explore_says_when_a_ply_is_illegal(tmp_path: Path) -> None:
    pgn = tmp_path / "illegal.pgn"
    pgn.write_text("1. e4 e5 2. Ke3 Nc6 *\n", encoding="utf-8")
    done = run_cli("explore", str(pgn), "--orders", "all")
    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("ply 3 ")]
    assert line.startswith("ply 3 Ke3 (illegal: no king can reach e3): 2 orders"), line
    assert not any(line.startswith("ply 4 ") for line in done.stdout.splitlines()), "the game stops there"
