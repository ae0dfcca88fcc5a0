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

from actors.scenario.runner import run_scenario
from actors.scenario.script import parse_scenario
from actors.study.labs.checks import Counterexample, Failure
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


def first_difference(yours: Sequence[TraceEvent], projects: Sequence[TraceEvent]) -> tuple[str | None, int]:
    """Where the studio page of ``yours`` opens, and how many deliveries after start-up it takes to
    get there: the first delivery that differs from the project's run of the same scenario
    (``phase=K&msg=M``, as the page's address names it), or the last delivery when none differs
    (the difference is then in what a step checked)."""
    from actors.studio.model import build_model

    phases = build_model(list(yours), "yours")["games"][0]["phases"]
    theirs = build_model(list(projects), "the project's")["games"][0]["phases"] if projects else []
    last: str | None = None
    count = 0
    for index, phase in enumerate(phases):
        if phase["kind"] == "startup":
            continue
        other = theirs[index]["events"] if index < len(theirs) else []
        for position, event in enumerate(phase["events"]):
            count += 1
            last = f"phase={index + 1}&msg={position + 1}"
            if position >= len(other):
                return last, count
            found = other[position]
            mine = (event["from"], event["to"], event["kind"], event["payload"], event["reply_payload"])
            if mine != (found["from"], found["to"], found["kind"], found["payload"], found["reply_payload"]):
                return last, count
    return last, count


def _steps_for(fen: str, move: str) -> tuple[str, ...] | None:
    """What the engine says of ``move`` in ``fen``, as scenario steps (None: not a position)."""
    try:
        game = Game(fen)
    except ChessActorsError:
        return None
    try:
        game.play(move, want_san=False)
    except ChessActorsError:
        return (f"reject {move}",)
    return (f"play {move}", f"fen {game.fen()}")


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


def shrunk(failure: Failure, shows: Callable[[Failure], bool]) -> Failure:
    """``failure`` with every piece taken away that it does without, one at a time, while the move
    still shows it (``shows(failure)``); the kings stay."""
    if failure.move is None:
        return failure
    current = failure
    for square, code in enumerate(parse_fen(failure.fen).squares):
        if not code or code & 7 == KING:
            continue
        try:
            fen = _without(current.fen, square)
        except ChessActorsError:
            continue
        steps = _steps_for(fen, failure.move)
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
    text = scenario_text(failure, role, named, heading)
    failed, yours = _replay(text, source)
    if not failed:
        text += "# (run as it is, this scenario passes: the failure needs the game's history before it)\n"
    _, projects = _replay(_projects(text), source)
    opening, deliveries = first_difference(yours, projects)
    return Counterexample(failure.what, text, deliveries, opening), yours


def _projects(text: str) -> str:
    """The same scenario with the project's own roles."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("role ")) + "\n"
