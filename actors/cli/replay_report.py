"""What a replay prints of its verdicts: the progress line while games are judged, a line (or a JSON
object) a game with the boards and summary the plan asks for, the totals, and the exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, NamedTuple

from actors.cli.network import network_line
from actors.cli.output import counted, emit
from actors.kernel.links import COUNTED
from board.games.verdicts import FAILURE

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from actors.cli.replay_options import Plan
    from actors.cli.replay_watch import Watcher
    from board.games.replay import GameVerdict


class Totals(NamedTuple):
    """What a replay found: games, legal plies, games stopped by an illegal move, inputs with a game,
    and games stopped by a failure of the actors (a link lost for good, restarts past the limit):
    never counted as illegal, since no move was judged."""

    games: int
    plies: int
    illegal: int
    sources: frozenset[str | None]
    failed: int = 0


def status(args: argparse.Namespace, totals: Totals) -> int:
    """Exit 1 when some game was illegal or unreadable; 2 when an input held no game at all."""
    empty = list(dict.fromkeys(name for name in map(_input_name, args.pgn) if name not in totals.sources))
    if empty:  # one line however many inputs were empty
        sys.stderr.write(f"chess-actors replay: {', '.join(empty)}: no game found "
                         "(no tag pair, move or result in it)\n")
        return 2
    return 1 if totals.illegal or totals.failed else 0


def print_totals(args: argparse.Namespace, plan: Plan, totals: Totals, progressed: bool) -> None:
    """One summary line for several games, unless the actors' summary (which starts with it) was printed.

    Plain output ends with it; ``--json`` keeps stdout to one object a game, so the line goes to
    stderr, and only where the progress display was (a terminal), to leave the totals in its place.
    """
    games, plies, illegal, _, failed = totals
    if games < 2 or plan.summary:
        return
    stopped = f"{counted(illegal, 'game')} stopped by an illegal move" if illegal else "no illegal move"
    if failed:
        stopped += f", {counted(failed, 'game')} stopped by a failure of the actors"
    line = f"summary: {counted(games, 'game')}, {counted(plies, 'ply', 'plies')}, {stopped}\n"
    if not args.json:
        sys.stdout.write(line)
    elif progressed:
        sys.stderr.write(line)


def start_progress(args: argparse.Namespace, several: bool, stack: ExitStack
                   ) -> tuple[Progress, TaskID] | None:
    """The progress display on stderr for several games at a terminal (None: none is shown)."""
    if not several or args.quiet or not sys.stderr.isatty():
        return None
    from actors.cli.display import progress_text, replay_progress

    progress = stack.enter_context(replay_progress(sys.stdout.isatty()))
    task = progress.add_task(progress_text(0, 0, 0), total=None)
    return progress, task


def report(args: argparse.Namespace, plan: Plan, verdicts: Iterator[GameVerdict], out: Console | None,
            watcher: Watcher | None, progress: tuple[Progress, TaskID] | None) -> Totals:
    """Print every verdict (and the boards and summary the plan asks for); return the totals."""
    games = plies = illegal = failed = 0
    found: set[str | None] = set()
    for number, verdict in enumerate(verdicts, 1):
        found.add(verdict.source)
        record = verdict.as_json()
        record["game"] = number if getattr(args, "game", None) is None else args.game
        if watcher is not None and watcher.faults is not None:
            record["network"] = {name: watcher.faults[name] for name in COUNTED}
        broke = verdict.error is not None and verdict.error.kind == FAILURE
        games, plies = number, plies + verdict.plies
        illegal, failed = illegal + (verdict.error is not None and not broke), failed + broke
        if out is not None and plan.board == "end" and verdict.fen:
            from actors.cli.display import BoardView

            last = watcher.last if watcher is not None else None
            out.print(BoardView(verdict.fen, last.uci if last else None, bool(last and last.check)))
            out.print(f"FEN {verdict.fen}")
        emit(args, record, _describe(record))
        if progress is not None:
            from actors.cli.display import progress_text

            progress[0].update(progress[1], description=progress_text(games, plies, illegal))
    if out is not None and plan.summary and watcher is not None and games:
        from actors.cli.display import summary_view

        messages = watcher.messages
        latencies = {role: sorted(samples) for role, samples in messages.latencies.items()}
        out.print()
        startup = (messages.startup_messages, messages.startup_ns)
        out.print(summary_view((games, plies, illegal), dict(messages.counts.most_common()), latencies,
                               startup, failed))
    if watcher is not None and args.links is not None and not args.json:
        sys.stdout.write(network_line(args.links, watcher.network_total) + "\n")
    return Totals(games, plies, illegal, frozenset(found), failed)


def _input_name(path: str) -> str:
    from actors.cli.inputs import PgnInput

    return PgnInput(path).name


def _describe(record: dict[str, Any]) -> str:
    plies = counted(record["plies"], "ply", "plies")
    head = f"game {record['game']}: {record['white']} - {record['black']}, {plies}"
    error = record["error"]
    if error:
        where = f"{error.get('file', 'line')}:{error['line']}:{error['column']}: " if "line" in error else ""
        move = f"{error['move']}: " if error["move"] else ""
        return f"{head}; {where}{error['kind']} at ply {error['ply']}: {move}{error['reason']}"
    ending = f", {record['outcome'].replace('_', ' ')}" if record["outcome"] else ""
    return f"{head}{ending}, {record['result']}"
