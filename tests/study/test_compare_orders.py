"""Two delivery orders of one ply side by side: the shell's compare, and explore's counterexample pages.

Every run compared here is under a delivery turnstile (the order is the schedule's) or reads a
trace already made, so the first delivery where two orders part is decided by the inputs alone.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from actors.cli import main
from actors.study import fault_search
from actors.study.fault_search import PlySearch, run_ply
from actors.study.shell import Shell
from actors.study.shell_output import output_record
from actors.tracing.compare import OrderComparison, compare_orders
from board.errors import InputError

EXPLORE = [sys.executable, "-m", "actors.cli", "explore"]
AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def _compared(shell: Shell) -> OrderComparison:
    shown = shell.execute("compare")
    assert len(shown) == 1 and isinstance(shown[0], OrderComparison)
    return shown[0]


def test_a_move_played_in_arrival_order_compares_equal_to_arrival_order() -> None:
    with Shell() as shell:
        for move in ("e4", "e5", "Nf3"):
            shell.execute(move)
        comparison = _compared(shell)
    assert comparison.first is None and comparison.left == comparison.right
    assert comparison.left[0] == "referee ← client: Propose Nf3"
    assert comparison.left[-1] == "journal ← client: Record first_ply=3"
    assert str(comparison).startswith("ply 3 Nf3: the same 7 deliveries in the same order")


def test_a_move_stepped_in_another_order_parts_from_arrival_order_at_the_first_other_choice() -> None:
    with Shell() as shell:
        for command in ("e4", "e5", "mode step", "Nf3", "step", "deliver 3", "run"):
            shell.execute(command)
        comparison = _compared(shell)
        record = output_record(comparison)
    assert comparison.first == 1, "the Survey was delivered second, before either knight's question"
    assert comparison.left[1] == "white-knight-b1 ← referee: MoveQuery b1→f3"
    assert comparison.right[1] == "board ← referee: Survey white knights → f3"
    assert sorted(comparison.left) == sorted(comparison.right), "the same deliveries, in another order"
    assert record["compare"]["first"] == 1 and record["compare"]["right"]["label"] == "as it ran here"
    assert "≠  2 white-knight-b1 ← referee: MoveQuery b1→f3" in str(comparison)


def test_compare_before_any_move_or_while_one_waits_is_one_clear_error() -> None:
    with Shell() as shell:
        with pytest.raises(InputError, match="no move has been played yet"):
            shell.execute("compare")
        shell.execute("mode step")
        shell.execute("e4")
        with pytest.raises(InputError, match="waiting for its deliveries"):
            shell.execute("compare")
        shell.execute("run")
        with pytest.raises(InputError, match="compare takes nothing more"):
            shell.execute("compare e4")


def test_orders_of_different_lengths_part_where_the_shorter_ends() -> None:
    with Shell() as shell:
        shell.execute("e4")
        events = shell.recorder.events()
    moved = [event for event in events if event["phase"] == "ply 1"]
    comparison = compare_orders(moved, moved[:-1], "whole", "cut", "ply 1 e4")
    assert comparison.first == len(moved) - 1


def test_explore_writes_a_counterexample_over_failing_links_as_a_page_of_both_orders(tmp_path: Path) -> None:
    page, trace = tmp_path / "lost.html", tmp_path / "lost.jsonl"
    done = subprocess.run([*EXPLORE, "--network", "loss=0.3,retries=0,seed=1", "--plies", "3",
                           "--orders", "5", "--counterexample", str(trace), "--html", str(page), "--json"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    record = json.loads(done.stdout.splitlines()[0])
    assert record["counterexample"]["html"] == str(page) and record["counterexample"]["trace"] == str(trace)
    text = page.read_text(encoding="utf-8")
    data = json.loads(text.split('<script id="trace-data" type="application/json">')[1].split("</script>")[0])
    compare = data["compare"]
    assert compare["title"] == "ply 3 Nf3"
    assert compare["left"]["label"] == "arrival order over reliable links"
    assert compare["right"]["label"] == "the order found over links loss=0.3,seed=1,retries=0"
    first = compare["first"]
    assert compare["left"]["rows"][:first] == compare["right"]["rows"][:first]
    assert "Dropped" in compare["right"]["rows"][first]


def test_a_single_loss_counterexample_is_written_as_a_trace_and_a_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The protocol survives every single loss, so the explorer is handed a search whose faulted run
    # is said to differ: what is tested is how a counterexample is written, from two real runs.
    reference = run_ply(AFTER_E4_E5, "Nf3", {})
    point = reference.points[3]
    lost = run_ply(AFTER_E4_E5, "Nf3", {point: "drop"})
    lost = dataclasses.replace(lost, verdict="rejected: said to differ")

    def searched(fen: str, move: str, fault: str, faults: int = 1, chess960: bool = False,
                 **_: object) -> PlySearch:
        return PlySearch(fault, faults, reference, [lost], states={reference.state})

    monkeypatch.setattr(fault_search, "search_ply", searched)
    monkeypatch.setenv("CHESS_ACTORS_ONE_CORE", "0")  # in this process: leave the test run's threads alone
    page, trace = tmp_path / "single.html", tmp_path / "single.jsonl"
    scenario = tmp_path / "single.scenario"
    status = main(["explore", "--network", "single-loss", "--plies", "3", "--counterexample", str(trace),
                   "--scenario", str(scenario), "--html", str(page), "--json"])
    assert status == 1
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["counterexample"]["html"] == str(page)
    kinds = [json.loads(line)["kind"] for line in trace.read_text().splitlines()]
    assert kinds.count("Dropped") == 1 and kinds.count("Retried") == 1
    text = page.read_text(encoding="utf-8")
    data = json.loads(text.split('<script id="trace-data" type="application/json">')[1].split("</script>")[0])
    compare = data["compare"]
    assert compare["left"]["label"] == "without a fault"
    assert compare["right"]["label"] == f"{point.text()} lost"
    assert record["counterexample"]["messages"] == [point.text()]
    assert f"drop {point.text()}" in scenario.read_text()
    assert sum("Dropped" in row for row in compare["right"]["rows"]) == 1
    assert compare["first"] is not None
