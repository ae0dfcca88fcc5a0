"""A check's first failure made a counterexample: a scenario file that ``chess-actors run`` replays
to the same failure, cut down, and the delivery where the student's role first answered otherwise
than the project's (where its studio page opens).

Deliveries run one at a time in arrival order (``schedule fifo``), so the student's run and the
project's can be compared delivery by delivery. A failure that one move's verdict shows is cut down
by taking pieces away, one at a time, for as long as the move still shows it: what is left is the
position that failure needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from actors.study.labs.checks import Counterexample, Failure
from actors.study.runner import run_scenario
from actors.study.script import parse_scenario
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder
from board.errors import ChessActorsError
from board.games.game import Game
from board.notation.fen import parse_fen
from board.rules.fen_text import format_fen
from board.rules.pieces import KING

__all__ = ["counterexample", "first_difference", "scenario_text"]


def scenario_text(failure: Failure, role: str, role_file: str, heading: str) -> str:
    """The failure as a scenario: the student's class in ``role``, one delivery at a time, from the
    failure's position, its steps."""
    lines = [f"# {heading}", f"# {failure.what}",
             "# chess-actors run replays it: the same deliveries, one at a time, in arrival order.",
             f"role {role} {role_file}", "schedule fifo", f"start {failure.fen}", *failure.steps]
    return "\n".join(lines) + "\n"


def _replay(text: str, source: Path) -> tuple[bool, list[TraceEvent]]:
    """Run the scenario ``text`` (as if read from ``source``): whether a step failed, and its trace."""
    recorder = TraceRecorder()
    results = run_scenario(parse_scenario(text, str(source)), recorder=recorder)
    return any(not result.ok for result in results), recorder.events()


def _delivered(trace: Sequence[TraceEvent], leave_out: set[int]) -> list[TraceEvent]:
    """The deliveries of ``trace`` in the order they were delivered, less those in ``leave_out``."""
    kept = [event for event in trace if event["msg_id"] not in leave_out]
    return sorted(kept, key=lambda event: event["t_handled"])


def _what(event: TraceEvent) -> tuple[object, ...]:
    return (event["sender"], event["receiver"], event["kind"], event["payload"], event.get("reply_payload"))


def first_difference(yours: Sequence[TraceEvent], projects: Sequence[TraceEvent],
                     history: int = 0) -> tuple[str | None, int]:
    """Where the studio page of ``yours`` opens, and how many deliveries it takes to get there: the
    first delivery, in the order they were delivered, that differs from the project's run of the same
    scenario (``phase=K&msg=M``, as the page's address names it), or the last one when none differs
    (the difference is then in what a step checked). Start-up and the first ``history`` phases after
    it (the plies that only make the history a fault needs) are left out of the count.
    """
    from actors.studio.model import build_model

    def setup_of(trace: Sequence[TraceEvent]) -> tuple[list[dict[str, Any]], set[int]]:
        phases = build_model(list(trace), "trace")["games"][0]["phases"] if trace else []
        setup: set[int] = set()
        left = history
        for phase in phases:
            if phase["kind"] == "startup" or left > 0:
                setup.update(event["id"] for event in phase["events"])
                left -= phase["kind"] != "startup"
        return phases, setup

    phases, setup = setup_of(yours)
    mine = _delivered(yours, setup)
    theirs = _delivered(projects, setup_of(projects)[1])
    if not mine:
        return None, 0
    count = next((index for index, (one, other) in enumerate(zip(mine, theirs, strict=False), start=1)
                  if _what(one) != _what(other)), min(len(mine), len(theirs) + 1))
    chosen = mine[count - 1]["msg_id"]
    for index, phase in enumerate(phases):
        for position, event in enumerate(phase["events"]):
            if event["id"] == chosen:
                return f"phase={index + 1}&msg={position + 1}", count
    return None, count


def _steps_for(fen: str, move: str) -> tuple[str, ...] | None:
    """What the engine says of ``move`` in ``fen``, as scenario steps (None: not a position)."""
    try:
        game = Game(fen)
    except ChessActorsError:
        return None
    try:
        played = game.play(move)
    except ChessActorsError:
        return (f"reject {move}",)
    return (f"play {move} as {played.san}", f"fen {game.fen()}")


def _without(fen: str, square: int) -> str:
    """``fen`` without the piece on ``square`` (and without a castling right it held up).

    Raises:
        FenError: no position is left (the piece gave check that made the position what it is...).
    """
    position = parse_fen(fen)
    squares = list(position.squares)
    squares[square] = 0
    fields = format_fen(squares, position.turn, position.castling, position.en_passant, position.halfmove,
                        position.fullmove, position.castling_table).split()
    for letter in fields[2].replace("-", ""):
        try:
            parse_fen(" ".join(fields))
        except ChessActorsError:
            fields[2] = fields[2].replace(letter, "") or "-"
    return " ".join(fields)


def _restated(failure: Failure, fen: str) -> tuple[str, ...] | None:
    """``failure``'s steps from ``fen`` instead (None: its moves are not legal there)."""
    if failure.move is not None:
        return _steps_for(fen, failure.move)
    if failure.fault is not None:
        from actors.study.labs.checks import fault_steps

        return fault_steps(fen, *failure.fault)
    return None


def shrunk(failure: Failure, shows: Callable[[Failure], bool]) -> Failure:
    """``failure`` with every piece taken away that it does without, one at a time, while its moves
    still show it (``shows(failure)``); the kings stay."""
    if failure.move is None and failure.fault is None:
        return failure
    current = failure
    for square, code in enumerate(parse_fen(failure.fen).squares):
        if not code or code & 7 == KING:
            continue
        try:
            fen = _without(current.fen, square)
        except ChessActorsError:
            continue
        steps = _restated(failure, fen)
        if steps is None:
            continue
        candidate = replace(current, fen=fen, steps=steps)
        if shows(candidate):
            current = candidate
    if current is not failure:
        taken = sum(1 for code in parse_fen(failure.fen).squares if code) - \
            sum(1 for code in parse_fen(current.fen).squares if code)
        current = replace(current, what=f"{failure.what} (cut down from that position: {taken} pieces"
                                        " taken away, the failure still shows)")
    return current


def counterexample(failure: Failure, role: str, role_file: Path, heading: str,
                   folder: Path) -> tuple[Counterexample, list[TraceEvent]]:
    """``failure`` as a counterexample whose scenario names ``role_file`` relative to ``folder``
    (where it will be written), cut down and checked by running it: with the student's class the
    run fails as the check did, with the project's it passes. With it, the trace of the student's
    run (for its studio page)."""
    try:
        named = str(role_file.resolve().relative_to(folder.resolve()))
    except ValueError:
        named = str(role_file.resolve())
    source = folder / "counterexample.scenario"

    def shows(candidate: Failure) -> bool:
        text = scenario_text(candidate, role, named, heading)
        try:
            failed, _ = _replay(text, source)
            if not failed:
                return False
            passed_by_project, _ = _replay(_projects(text), source)
        except ChessActorsError:
            return False
        return not passed_by_project

    failure = shrunk(failure, shows)
    if not shows(failure) and failure.game is not None:
        # The position alone does not show it: the game up to there does (its plies are history).
        start, before = failure.game
        failure = replace(failure, fen=start, steps=(*(f"play {move}" for move in before), *failure.steps),
                          history=len(before))
    text = scenario_text(failure, role, named, heading)
    failed, yours = _replay(text, source)
    if not failed:
        text += "# (run as it is, this scenario passes: the failure needs the game's history before it)\n"
    _, projects = _replay(_projects(text), source)
    opening, deliveries = first_difference(yours, projects, failure.history)
    return Counterexample(failure.what, text, deliveries, opening), yours


def _projects(text: str) -> str:
    """The same scenario with the project's own roles."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("role ")) + "\n"
