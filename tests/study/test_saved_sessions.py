"""A session saved by the shell (auto mode, or deliveries chosen by hand) and run again by
``chess-actors run`` gives the session's trace, event for event (times aside)."""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from actors.kernel.links import LinkModel, parse_network
from actors.study.runner import run_scenario
from actors.study.script import parse_line, parse_scenario
from actors.study.shell import Shell
from actors.study.steps import Reject
from actors.tracing.recorder import TraceRecorder
from tests.helpers.replayed import first_difference, read_trace, run_saved, untimed


def _session(shell: Shell, lines: list[str]) -> None:
    for line in lines:
        shell.execute(line)


def _replays_to_the_same_trace(shell: Shell, tmp_path: Path) -> str:
    """Save the session and its trace, run the saved scenario, and compare; returns the script."""
    script, live, ran = tmp_path / "session.scenario", tmp_path / "live.jsonl", tmp_path / "run.jsonl"
    shell.execute(f"save {script}")
    shell.execute(f"trace {live}")
    done = run_saved(script, ran)
    assert done.returncode == 0, done.stdout + done.stderr
    session, replayed = untimed(read_trace(live)), untimed(read_trace(ran))
    assert session == replayed, first_difference(session, replayed)
    return script.read_text(encoding="utf-8")


def test_an_auto_session_with_a_refusal_a_heal_a_lesson_a_lie_and_questions_replays_to_its_trace(
        tmp_path: Path) -> None:
    with Shell() as shell:
        _session(shell, ["e4", "e5", "Ke3", "crash board", "Nf3", "learn b8 camel", "legal b8",
                         "lie ghost d6 white pawn hide e5", "reject Nxe5", "lie off", "stall black-knight-g8",
                         "Nf6", "board", "restarts 2", "send white-bishop-f1 move f1 c4", "expect yes"])
        phases = {event["phase"] for event in shell.recorder.events()}
        script = _replays_to_the_same_trace(shell, tmp_path)
    # A move's messages serve its ply (a refusal's too), any other step's its number in the script.
    assert {"ply 3", "step 5", "heal", "step 7", "step 8", "ply 4", "step 14"} <= phases
    assert script.splitlines()[1:6] == ["schedule fifo", "play e4", "play e5", "reject Ke3", "crash board"]
    assert "legal b8 a5 c5 e7" in script and "reject Nxe5" in script and "order" not in script


def _choose(shell: Shell, plan: Iterator[str], rng: random.Random | None = None) -> list[str]:
    """Answer a command in flight by hand, a choice from ``plan`` at a time (then ``run``), each on
    the last delivery of the pending list (the one arrival order would run last) or, given ``rng``,
    on one of them at random; returns the commands given."""
    chosen: list[str] = []
    while shell.in_flight:
        numbered = [item.number for item in shell.pending() if item.number is not None]
        action = next(plan, "run")
        if action in ("run", "step") or not numbered:
            line = "run" if action == "run" else "step"
        elif action == "deliver" and len(numbered) < 2:
            line = "step"
        else:
            line = f"{action} {rng.choice(numbered) if rng is not None else numbered[-1]}"
        shell.execute(line)
        chosen.append(line)
    return chosen


def test_a_session_stepped_by_hand_with_a_drop_and_a_duplicate_replays_to_its_trace(tmp_path: Path) -> None:
    with Shell() as shell:
        shell.execute("e4")
        shell.execute("mode step")
        chosen: list[str] = []
        for line, plan in (("e5", ["step", "deliver", "drop", "step", "deliver", "duplicate", "step"]),
                           ("crash board", []), ("Nf3", ["deliver", "deliver", "drop", "deliver"]),
                           ("learn c8 archbishop", ["deliver"]), ("legal c8", ["deliver", "duplicate"]),
                           ("lie hide e5", ["duplicate"]), ("reject Nxe5", ["deliver", "drop", "deliver"]),
                           ("lie off", []), ("stall black-knight-g8", []),
                           ("Nf6", ["deliver", "step", "drop"]), ("reject Ke2", ["deliver"])):
            shell.execute(line)
            chosen += _choose(shell, iter(plan))
        shell.execute("mode auto")
        shell.execute("Nc6")
        script = _replays_to_the_same_trace(shell, tmp_path)
    assert {"drop", "duplicate"} <= {line.split()[0] for line in chosen}
    assert any(line.startswith("deliver ") and line != "deliver 1" for line in chosen), "out of arrival order"
    # Ke2 was legal: the check failed, but the move was made, and is saved as played.
    assert "reject Nxe5" in script and "play Ke2" in script and "reject Ke2" not in script
    orders = [line for line in script.splitlines() if line.startswith("order ")]
    assert len(orders) >= 3 and any(" drop " in line for line in orders)
    assert any(" duplicate " in line for line in orders)


def _random_session(seed: int) -> list[tuple[str, list[str]]]:
    """A short game of random legal moves with a crash, a lesson, a lie or a question between them,
    each command run in arrival order (no choices) or stepped by hand (random choices and faults)."""
    rng = random.Random(seed)
    position = chess.Board()
    lines: list[tuple[str, list[str]]] = []
    for _ in range(rng.randint(1, 5)):
        squares = [chess.square_name(square) for square in position.piece_map()]
        if rng.random() < 0.3:
            # Crashes by name: naming a square asks the board, which may be the actor just crashed.
            crashed = rng.choice(["board", "referee", "white-knight-g1", "black-pawn-e7"])
            line = rng.choice([f"crash {crashed}",
                               f"legal {rng.choice(squares)}", f"learn {rng.choice(squares)} camel",
                               f"lie hide {rng.choice(squares)}", "lie off"])
        else:
            move = rng.choice(list(position.legal_moves))
            line = position.san(move)
            position.push(move)
        stepped = rng.random() < 0.5
        lines.append((line, [rng.choice(["step", "deliver", "deliver", "drop", "duplicate"])
                             for _ in range(rng.randint(1, 8))] if stepped else []))
    return lines


def _random_links(rng: random.Random) -> LinkModel | None:
    """Reliable links half the time; else a seeded model that loses, duplicates, delays or reorders."""
    if rng.random() < 0.5:
        return None
    chances = ",".join(f"{key}={rng.choice([0, 0.05, 0.2])}" for key in ("loss", "dup", "delay", "reorder"))
    return parse_network(f"{chances},seed={rng.randrange(1000)}")


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_sessions_saved_and_run_again_trace_alike(seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder, Shell(network=_random_links(rng)) as shell:
        for line, plan in _random_session(seed):
            shell.execute("mode step" if plan else "mode auto")
            shell.execute(line)
            _choose(shell, iter(plan), rng)
        script = Path(folder) / "session.scenario"
        shell.execute(f"save {script}")
        recorder = TraceRecorder()
        results = run_scenario(parse_scenario(script.read_text(encoding="utf-8")), recorder=recorder)
        assert all(result.ok for result in results), [result for result in results if not result.ok]
        session, replayed = untimed(shell.recorder.events()), untimed(recorder.events())
    assert session == replayed, first_difference(session, replayed)


def test_a_session_over_failing_links_replays_to_its_trace_faults_and_all(tmp_path: Path) -> None:
    links = parse_network("loss=0.1,dup=0.1,delay=0.1,reorder=0.05,seed=4")
    with Shell(network=links) as shell:
        _session(shell, ["e4", "e5", "Nf3", "crash board", "Nc6", "learn c1 archbishop", "Bc4",
                         "partition board 0.3", "legal f8", "Bc5", "c3"])
        befell = Counter(event["kind"] for event in shell.recorder.events())
        script = _replays_to_the_same_trace(shell, tmp_path)
    # The links' model is saved with the session, so run puts the same faults on the same messages.
    assert script.splitlines()[1:3] == [f"network {links.text()}", "schedule fifo"]
    assert all(befell[kind] > 0 for kind in ("Dropped", "Duplicated", "Delayed", "Retried")), befell


def test_save_says_when_a_failed_command_sent_messages_the_scenario_leaves_out(tmp_path: Path) -> None:
    with Shell() as shell:
        _session(shell, ["e4", "square e4 empty", "restarts 1", "e5"])
        [said] = shell.execute(f"save {tmp_path / 'session.scenario'}")
    # The square check asked the board and failed; the restarts check sent nothing.
    assert str(said).endswith("; 1 command that failed is left out, with the messages sent for them")
    saved = (tmp_path / "session.scenario").read_text(encoding="utf-8")
    assert saved.splitlines()[2:] == ["play e4", "play e5"]


def test_the_live_studio_opens_a_session_saved_after_step_mode_with_its_orders(tmp_path: Path) -> None:
    import argparse

    from actors.cli.studio import _opening
    from actors.studio.live import LiveGame

    saved = tmp_path / "stepped.scenario"
    with Shell() as shell:
        _session(shell, ["e4", "mode step", "e5", "step", "deliver 2", "run", f"save {saved}"])
    assert "order referee board" in saved.read_text(encoding="utf-8"), "step mode chose an order"
    opening = _opening(argparse.Namespace(scenario=str(saved), pgn=None))
    assert opening.lines == ["play e4", "order referee board", "play e5"]
    with LiveGame(shell=Shell(opening.fen, chess960=opening.chess960, network=opening.network)) as live:
        assert live.run_lines(opening.lines) == []
        assert [entry.san for entry in live.shell.game.journal] == ["e4", "e5"]


def test_the_live_studio_opens_a_session_saved_after_step_mode_with_drops_and_duplicates(
        tmp_path: Path) -> None:
    """Orders that drop or duplicate a delivery, before a move or another step, are replayed by the
    live studio as chess-actors run replays them: the same journal, the same trace."""
    import argparse

    from actors.cli.studio import _opening
    from actors.studio.live import LiveGame

    saved = tmp_path / "faults.scenario"
    with Shell() as shell:
        shell.execute("e4")
        shell.execute("mode step")
        chosen: list[str] = []
        for line, plan in (("e5", ["step", "drop", "deliver", "duplicate"]),
                           ("learn c8 archbishop", ["deliver"]), ("legal c8", ["duplicate"]),
                           ("Nf3", ["deliver", "drop", "deliver"])):
            shell.execute(line)
            chosen += _choose(shell, iter(plan))
        shell.execute(f"save {saved}")
        journal = [entry.san for entry in shell.game.journal]
        session = untimed(shell.recorder.events())
    assert {"drop", "duplicate"} <= {line.split()[0] for line in chosen}, chosen
    orders = [line for line in saved.read_text(encoding="utf-8").splitlines() if line.startswith("order ")]
    assert any(" drop " in line for line in orders) and any(" duplicate " in line for line in orders), orders
    opening = _opening(argparse.Namespace(scenario=str(saved), pgn=None))
    assert set(orders) <= set(opening.lines)
    with LiveGame(shell=Shell(opening.fen, chess960=opening.chess960, network=opening.network)) as live:
        assert live.run_lines(opening.lines) == []
        assert [entry.san for entry in live.shell.game.journal] == journal == ["e4", "e5", "Nf3"]
        opened = untimed(live.shell.recorder.events())
    assert [event["kind"] for event in opened] == [event["kind"] for event in session]
    assert opened == session, first_difference(session, opened)


def _typed(text: str) -> str:
    """``text`` as a user types it in double quotes: each quote and backslash after a backslash."""
    return '"' + "".join("\\" + character if character in '"\\' else character for character in text) + '"'


@given(st.text(alphabet=st.characters(exclude_characters="\n\r", exclude_categories=("Cs",))))
def test_quoted_text_is_written_back_in_the_grammar_s_quoting_and_reads_back_alike(text: str) -> None:
    typed = parse_line(f"reject Ke2 {_typed(text)}")
    assert isinstance(typed, Reject) and typed.reason == text
    (saved,) = parse_scenario(f"start startpos\n{typed.written}\n", "saved.scenario").steps[1:]
    assert isinstance(saved, Reject) and saved.reason == text and saved.written == typed.written


def test_a_session_with_a_backslash_in_quoted_text_is_saved_so_that_run_reads_it(tmp_path: Path) -> None:
    with Shell() as shell:
        # The move Qh9\\ is refused naming itself, two backslashes, each typed as two when quoted.
        _session(shell, ["e4", r'reject Qh9\\ "Qh9\\\\: h9"', "e5"])
        script = _replays_to_the_same_trace(shell, tmp_path)
    assert r'reject Qh9\\ "Qh9\\\\: h9"' in script.splitlines()
