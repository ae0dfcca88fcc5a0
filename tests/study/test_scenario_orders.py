"""``schedule fifo`` and ``order`` lines: how a scenario says its deliveries run, parsed and run by
``chess-actors run`` (a wrong order is one error line, never a hang)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from actors.study.runner import run_scenario
from actors.study.script import parse_scenario
from actors.study.shell import Shell
from actors.study.steps import Order, OrderEntry, Play
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError
from tests.helpers.extras import needs
from tests.helpers.replayed import first_difference, read_trace, untimed

ROOT = Path(__file__).resolve().parents[2]


def run(script: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "actors.cli", "run", str(script), *options], cwd=ROOT,
                          capture_output=True, text=True, check=False, timeout=120)


def _arrival_order(*moves: str) -> list[str]:
    """The actors the last of ``moves`` delivers to, in arrival order (the shell's trace says)."""
    with Shell() as shell:
        for move in moves:
            shell.execute(move)
        return str(shell.execute("trace")[-1]).split("order: ")[1].split()


def test_order_lines_belong_to_the_step_after_them_and_ask_for_the_turnstile() -> None:
    scenario = parse_scenario("play e4\norder referee drop black-pawn-e7 black-pawn-e7  # by hand\nplay e5\n")
    assert scenario.schedule == "fifo", "an order runs under the turnstile"
    assert scenario.steps == (Play(1, "play e4", "e4"), Play(3, "play e5", "e5"))
    assert scenario.order_before(0) is None
    assert scenario.order_before(1) == Order(2, "order referee drop black-pawn-e7 black-pawn-e7", (
        OrderEntry("referee"), OrderEntry("black-pawn-e7", "drop"), OrderEntry("black-pawn-e7")))
    assert parse_scenario("start startpos\nschedule fifo\nplay e4\n").schedule == "fifo"
    assert parse_scenario("play e4\n").schedule is None, "without them, free actors as before"


def test_an_order_runs_the_step_as_the_shells_order_does_then_arrival_order() -> None:
    arrival = _arrival_order("e4", "e5", "Nf3")
    # The two knights are asked at once: the b1 knight's question is delivered first this time.
    asked = [name for name in arrival if name.startswith("white-knight")][:2]
    swapped = [*arrival[:arrival.index(asked[0])], asked[1], asked[0]]
    assert swapped != arrival[:len(swapped)]
    traces = []
    for text in ("schedule fifo\ne4\ne5\nNf3\n", f"e4\ne5\norder {' '.join(swapped)}\nNf3\n"):
        recorder = TraceRecorder()
        assert all(result.ok for result in run_scenario(parse_scenario(text), recorder=recorder))
        traces.append(untimed(recorder.events()))
    with Shell() as shell:
        for line in ("e4", "e5", f"order {' '.join(swapped)}", "Nf3"):
            shell.execute(line)
        assert traces[1] == untimed(shell.recorder.events()), first_difference(
            untimed(shell.recorder.events()), traces[1])
    assert traces[0] != traces[1], "the order changed the conversation's course"


def test_an_order_that_does_not_match_is_one_error_line_and_exit_1(tmp_path: Path) -> None:
    script = tmp_path / "wrong.scenario"
    script.write_text("e4\norder referee board white-pawn-e2\ne5\nNf3\n", encoding="utf-8")
    done = run(script)
    assert done.returncode == 1
    assert done.stderr == ("chess-actors run: " + str(script) + ", line 3: e5: expected e5 accepted; got the"
                           " order on line 2 does not match the game: its entry 3 (white-pawn-e2) names"
                           " white-pawn-e2, but the actors with a delivery ready are: black-pawn-e7\n")
    assert "1 passed, the step on line 3 failed; 1 step not run" in done.stdout


def test_an_order_longer_than_its_step_fails_naming_what_was_left(tmp_path: Path) -> None:
    arrival = _arrival_order("e4", "e5")
    script = tmp_path / "long.scenario"
    script.write_text(f"e4\norder {' '.join(arrival)} board referee\ne5\n", encoding="utf-8")
    done = run(script)
    assert done.returncode == 1
    assert done.stderr.endswith("got the step was over before the order's last 2 entries: board referee\n")
    script.write_text(f"e4\norder {' '.join(arrival)}\ne5\n", encoding="utf-8")
    assert run(script).returncode == 0, "exactly the step's deliveries"


def test_a_fault_on_a_delivery_that_is_not_waiting_is_an_error_not_a_hang(tmp_path: Path) -> None:
    script = tmp_path / "fault.scenario"
    script.write_text("order drop board\ne4\n", encoding="utf-8")
    done = run(script)
    assert done.returncode == 1
    assert "names board, but the actors with a delivery ready are: referee" in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_a_scheduled_scenario_runs_over_a_network_model_as_over_its_own_network_line(tmp_path: Path) -> None:
    """``--network SPEC`` and a ``network SPEC`` line are one thing: the same faults on the same messages."""
    spec = "loss=0.2,dup=0.2,delay=0.2:5e-05,reorder=0.1,seed=3"
    moves = "schedule fifo\ne4\ne5\nNf3\nNc6\nBb5\n"
    given, written = tmp_path / "given.scenario", tmp_path / "written.scenario"
    given.write_text(moves, encoding="utf-8")
    written.write_text(f"network {spec}\n{moves}", encoding="utf-8")
    traces = tmp_path / "given.jsonl", tmp_path / "written.jsonl"
    by_option = run(given, "--network", spec, "--trace", str(traces[0]))
    by_line = run(written, "--trace", str(traces[1]))
    assert by_option.returncode == 0 and by_line.returncode == 0, by_option.stderr + by_line.stderr
    counted = by_option.stdout.splitlines()[-1]
    assert counted.startswith(f"network {spec}: dropped ") and "dropped 0," not in counted
    assert by_line.stdout.splitlines()[-1] == counted
    optioned, lined = (untimed(read_trace(path)) for path in traces)
    assert optioned == lined, first_difference(optioned, lined)


def test_a_network_given_twice_or_a_scheduled_script_on_nodes_is_one_line(tmp_path: Path) -> None:
    script = tmp_path / "links.scenario"
    script.write_text("network loss=0.1,seed=3\ne4\n", encoding="utf-8")
    done = run(script, "--network", "dup=0.1,seed=3")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"chess-actors run: --network: {script} has a network line of its own (network"
                           " loss=0.1,seed=3): give the links' model once\n")
    script.write_text("schedule fifo\ne4\n", encoding="utf-8")
    done = run(script, "--nodes", "2")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("chess-actors run: --nodes: ") and len(done.stderr.splitlines()) == 1


@needs("websockets")
def test_the_studio_opens_a_scenario_whose_order_drops_a_delivery_in_one_line(tmp_path: Path) -> None:
    """An order that drops or duplicates a delivery is replayed by the live studio as by chess-actors
    run: the studio opens past it (no line on stderr: the game did not stop short) and serves."""
    script = tmp_path / "stepped.scenario"
    script.write_text("schedule fifo\ne4\norder referee drop board black-pawn-e7 duplicate referee\ne5\n",
                      encoding="utf-8")
    assert run(script).returncode == 0
    process = subprocess.Popen([sys.executable, "-m", "actors.cli", "studio", "--scenario", str(script)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        url = process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert url.startswith("http://127.0.0.1:") and "?token=" in url, url + err
    assert process.returncode == 0 and err == "" and out == ""


def test_the_shells_order_after_a_fairy_move_is_refused_and_changes_nothing() -> None:
    with Shell() as shell:
        for line in ("learn g1 camel", "Nh4", "e5"):  # the camel leaps g1-h4, no knight's move
            shell.execute(line)
        shell.execute("order referee")
        with pytest.raises(InputError, match="not standard chess's"):
            shell.execute("d4")
        assert shell.saved[1:] == ["learn g1 camel", "play Nh4", "play e5"]


def test_the_shells_order_with_a_drop_and_a_duplicate_is_tried_first_then_runs_as_run_runs_it(
        tmp_path: Path) -> None:
    script, live, ran = tmp_path / "typed.scenario", tmp_path / "live.jsonl", tmp_path / "run.jsonl"
    with Shell() as shell:
        shell.execute("e4")
        sent = len(shell.recorder)
        assert shell.execute("order drop white-knight-g1") == [
            "the next command delivers in this order: drop white-knight-g1"]
        with pytest.raises(InputError, match=r"entry 1 .* names white-knight-g1.*; the game is unchanged"):
            shell.execute("e5")
        assert [entry.san for entry in shell.game.journal] == ["e4"] and len(shell.recorder) == sent
        shell.execute("order referee drop board black-pawn-e7 duplicate referee")
        shell.execute("e5")
        shell.execute("Nf3")  # the order was for one command: this one runs in arrival order
        assert [entry.san for entry in shell.game.journal] == ["e4", "e5", "Nf3"]
        shell.execute(f"save {script}")
        shell.execute(f"trace {live}")
    assert script.read_text(encoding="utf-8").splitlines()[2:] == [
        "play e4", "order referee drop board black-pawn-e7 duplicate referee", "play e5", "play Nf3"]
    done = run(script, "--trace", str(ran))
    assert done.returncode == 0, done.stdout + done.stderr
    session, replayed = untimed(read_trace(live)), untimed(read_trace(ran))
    assert session == replayed, first_difference(session, replayed)
