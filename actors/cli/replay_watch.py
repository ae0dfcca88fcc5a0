"""Games judged one by one in this process and watched as they are: move lines and boards printed as
moves are judged, the messages counted for the actors' summary, the trace and the studio page fed.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, TextIO, cast

if TYPE_CHECKING:
    from rich.console import Console

    from actors.cli.replay_options import Plan
    from actors.cli.streams import SideOutput
    from actors.clusters.nodes import Nodes
    from actors.game.pool import SystemPool
    from actors.game.replay import MoveReport
    from actors.tracing.event import TraceEvent
    from actors.tracing.recorder import TraceRecorder
    from actors.tracing.sinks import TraceSink
    from board.games.replay import GameVerdict
    from board.notation.pgn import PgnGame


@dataclass(slots=True)
class _Messages:
    """Message counts and handling latencies gathered game by game (the recorder is cleared between)."""

    counts: Counter[str] = field(default_factory=Counter)
    latencies: dict[str, list[int]] = field(default_factory=dict)
    startup_messages: int = 0
    startup_ns: int = 0

    def harvest(self, recorder: TraceRecorder) -> None:
        """Add the recorder's events to the totals and forget them."""
        from actors.kernel.links import FAULT_KINDS
        from actors.tracing.recorder import STARTUP

        self.counts.update({kind: count for kind, count in recorder.counts_by_kind().items()
                            if kind not in FAULT_KINDS})  # marks of what befell messages, not deliveries
        self.startup_messages += recorder.counts_by_phase().get(STARTUP, 0)
        self.startup_ns += recorder.phase_ns[STARTUP]
        for role, samples in recorder.latencies_by_receiver_kind().items():
            self.latencies.setdefault(role, []).extend(samples)
        recorder.clear()


class Watcher:
    """Judges games one by one in this process, printing move lines and boards as moves are judged."""

    def __init__(self, args: argparse.Namespace, plan: Plan, out: Console | None,
                 recorder: TraceRecorder | None, sink: TraceSink | None, nodes: Nodes | None = None) -> None:
        self.args = args
        self.plan = plan
        self.out = out
        self.recorder = recorder
        self.sink = sink
        self.messages = _Messages()
        self.last: MoveReport | None = None
        self.studio: list[TraceEvent] | None = [] if args.html is not None else None
        self.page_full_at: int | None = None
        """The game whose messages took the page past what it shows (then no page is written)."""
        self.faults: Counter[str] | None = None if args.links is None else Counter()
        """The last game's network counts (with --network)."""
        self.network_total: Counter[str] = Counter()
        self.nodes = nodes
        """The node processes each game's actors run on (None: this process)."""
        self.pool: SystemPool | None = None
        if args.engine == "actors" and nodes is None:
            from actors.game.pool import SystemPool, process_pool

            # Games borrow one actor system in turn; a traced replay keeps a pool of its own.
            self.pool = process_pool() if recorder is None else SystemPool(recorder=recorder)

    def close(self) -> None:
        """Stop the actor systems kept for the games (this process's shared pool stays)."""
        if self.pool is not None and self.pool.recorder is not None:
            self.pool.close()

    def verdicts(self, games: Iterator[PgnGame]) -> Iterator[GameVerdict]:
        """Judge each game, yielding its verdict."""
        from actors.game.replay import Pause, watch_game

        recorder = self.recorder
        if recorder is not None and self.sink is not None:
            recorder.attach(self.sink)
        try:
            for number, game in enumerate(games, 1):
                self.last = None
                if recorder is not None:
                    recorder.game = number if getattr(self.args, "game", None) is None else self.args.game
                if self.faults is not None:
                    self.faults = Counter()
                pause = None
                if self.args.pause_after is not None:
                    pause = Pause(self.args.pause_after, partial(self.paused, number))
                verdict = watch_game(game, self.args.engine, recorder, self.on_move,
                                     positions=self.plan.board == "each", teach=self.args.lessons,
                                     pool=self.pool, network=self.args.links, faults=self.faults,
                                     nodes=self.nodes, max_restarts=self.args.max_restarts, pause=pause)
                if self.nodes is not None:
                    self.show_restarts(self.nodes, number)
                if self.faults is not None:
                    self.network_total.update(self.faults)
                if recorder is not None and self.studio is not None:
                    from actors.studio import PAGE_MESSAGES

                    self.studio.extend(recorder.events())
                    if len(self.studio) > PAGE_MESSAGES:  # past what a page shows: keep no more
                        self.studio, self.page_full_at = None, number
                if recorder is not None and self.plan.summary:
                    self.messages.harvest(recorder)
                elif recorder is not None:
                    recorder.clear()
                yield verdict
        finally:
            if recorder is not None and self.sink is not None:
                recorder.detach(self.sink)

    @property
    def shown(self) -> TextIO:
        """Where the lines about the process and its nodes go: stdout, or stderr under --json."""
        return sys.stderr if self.args.json else sys.stdout

    def paused(self, game: int, ply: int) -> None:
        """Stop this process after ``ply`` of game ``game`` (``--pause-after``), until continued."""
        from actors.cli.replay_pause import pause_here

        pause_here(ply, game, self.nodes, self.shown)

    def show_restarts(self, nodes: Nodes, game: int) -> None:
        """After a game on nodes whose actors were restarted: the restarts and where the actors are."""
        from actors.cli.nodes import restart_lines

        lines = restart_lines(nodes, game)
        if lines:
            self.shown.write("\n".join(lines) + "\n")
            self.shown.flush()

    def on_move(self, report: MoveReport) -> None:
        """Print one judged move (and the board after it, with ``--board each``)."""
        if report.accepted:
            self.last = report
        plies = getattr(self.args, "ply_range", None)
        if self.out is None or (plies is not None and report.ply < plies[0]):
            return
        from actors.cli.display import BoardView, move_line

        if self.plan.moves:
            self.out.print(move_line(report))
        if self.plan.board == "each" and report.accepted and report.fen:
            self.out.print(BoardView(report.fen, report.uci, report.check))


def start_watcher(args: argparse.Namespace, plan: Plan, out: Console | None,
                   trace_file: SideOutput | None, nodes: Nodes | None = None) -> Watcher:
    """A watcher for this run, with a recorder when the summary, the trace or the page needs one."""
    recorder: TraceRecorder | None = None
    sink: TraceSink | None = None
    if args.engine == "actors" and (plan.summary or trace_file is not None or args.html is not None):
        from actors.tracing.recorder import TraceRecorder
        from actors.tracing.sinks import jsonl_sink

        # Events are kept only for the summary's statistics and the studio, and cleared after every game.
        recorder = TraceRecorder(keep=plan.summary or args.html is not None)
        if trace_file is not None:
            sink = jsonl_sink(cast(TextIO, trace_file), plies=getattr(args, "ply_range", None))
    return Watcher(args, plan, out, recorder, sink, nodes)
