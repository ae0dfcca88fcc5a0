"""``chess-actors replay``: judge every move of PGN games through the actors (or directly).

Plain output shows the game: a line per judged move, a board, a verdict line per game and a summary of
the messages the actors exchanged; ``--json`` prints one verdict object per game and nothing else.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Generator, Iterator
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO, cast

from actors.cli.help import add_command
from actors.cli.network import add_network_flag, network_line, network_model
from actors.cli.nodes import add_nodes_flags, nodes_option, open_nodes
from actors.cli.output import add_json_flag, add_trace_flags, counted, emit
from actors.cli.streams import SideOutput, open_side_output
from actors.kernel.links import COUNTED
from board.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from actors.client.nodes import Nodes
    from actors.client.pool import SystemPool
    from actors.client.replay import MoveReport
    from actors.tracing.event import TraceEvent
    from actors.tracing.recorder import TraceRecorder
    from actors.tracing.sinks import TraceSink
    from board.games.replay import GameVerdict
    from board.notation.pgn import PgnGame

BOARD_MODES = ("each", "end", "none")


def register(subparsers: Any) -> None:
    """Add the replay subcommand."""
    parser = add_command(
        subparsers, "replay",
        summary="replay PGN games, judging every move (no PGN: an embedded famous game)",
        description="Replay PGN games through the piece, board and referee actors (or directly), judging\n"
                    "every move; each game stops at its first illegal move and the next game still runs.\n"
                    "Exit 0 when every game is legal, 1 when some game has an illegal move.",
        examples=[
            "chess-actors replay                                 # the Opera game, move by move",
            "chess-actors replay games.pgn --engine direct --json",
            "chess-actors replay big.pgn --engine direct --workers 2 --quiet",
            "chess-actors replay --trace t.jsonl --board each",
        ],
    )
    parser.add_argument("pgn", nargs="*", metavar="PGN", help="PGN files; '-' reads stdin")
    parser.add_argument("--engine", choices=("actors", "direct"), default="actors",
                        help="judge through piece/board/referee actors (default) or directly")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="judge games in N worker processes (output stays in input order)")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="judge games on a Ray cluster: 'auto', a cluster address, or 'local' "
                             "to start Ray on this machine (needs the 'cluster' extra)")
    parser.add_argument("--ray-timeout", type=float, default=None, metavar="SECONDS",
                        help="how long --ray ADDRESS may take to reach its cluster (default 15, or "
                             "the CHESS_ACTORS_RAY_TIMEOUT variable); CHESS_ACTORS_RAY_LOGS=1 shows "
                             "Ray's own log lines")
    parser.add_argument("--board", choices=BOARD_MODES, default=None,
                        help="draw the board after each move, at the end of each game, or never "
                             "(default: 'end' for one game through the actors, else 'none')")
    parser.add_argument("--moves", action=argparse.BooleanOptionalAction, default=None,
                        help="print a line per judged move (default: on for one game through the "
                             "actors, and with --board each)")
    parser.add_argument("--teach", action="append", default=[], metavar="SQUARE=PIECE",
                        help="start each game with the piece on SQUARE moving as PIECE (a kind or a fairy "
                             "piece: archbishop, chancellor, amazon, jumping-rook, ...); repeatable")
    add_trace_flags(parser, "replay", " (actor engine)")
    add_network_flag(parser)
    add_nodes_flags(parser, ray_flags=False)
    parser.add_argument("--quiet", action="store_true",
                        help="no progress display on stderr for several games")
    add_json_flag(parser)
    parser.set_defaults(handler=run)


def _sources(paths: list[str]) -> Iterator[tuple[str, Iterator[bytes]]]:
    """(name, byte blocks) of each input in turn: files, stdin, or the embedded game."""
    from actors.cli.inputs import PgnInput, embedded_game_blocks
    from actors.client.replay import EMBEDDED_GAME

    if not paths:
        yield EMBEDDED_GAME, embedded_game_blocks()
        return
    for path in paths:
        source = PgnInput(path)
        yield source.name, source.blocks()


def _games(sources: Iterator[tuple[str, Iterator[bytes]]]) -> Iterator[PgnGame]:
    from board.notation.pgn import read_games

    for name, blocks in sources:
        yield from read_games(blocks, name=name)


def lessons(written: list[str]) -> dict[str, str]:
    """``--teach`` options as square -> geometry name.

    Raises:
        InputError: not SQUARE=PIECE, a square off the board, an unknown piece, a square taught twice.
    """
    from board.rules.geometries import geometry_named
    from board.rules.squares import SQUARE_NAMES, parse_standard_square

    taught: dict[str, str] = {}
    for text in written:
        square, equals, name = text.partition("=")
        if not equals:
            raise InputError(f"--teach {text!r}: write SQUARE=PIECE, e.g. --teach c1=archbishop")
        try:
            square = SQUARE_NAMES[parse_standard_square(square.strip())]
            geometry_named(name)
        except InputError as error:
            raise InputError(f"--teach {text!r}: {error}") from None
        if square in taught:
            raise InputError(f"--teach {text!r}: {square} is taught twice")
        taught[square] = name.strip().lower()
    return taught


def _check_options(args: argparse.Namespace) -> None:
    """Refuse combinations that cannot do what they say (usage errors, exit 2)."""
    from actors.cli.streams import check_writable

    if args.workers < 1:
        raise InputError(f"--workers {args.workers}: needs at least 1 worker")
    args.node_option = nodes_option(args)
    if args.node_option is not None:  # --ray then says where the nodes run: the games are judged here
        if args.engine != "actors":
            raise InputError("--nodes needs the actor engine (the direct engine runs no actors)")
        if args.workers > 1:
            raise InputError("--nodes: one game at a time runs on the nodes (drop --workers)")
        args.ray = args.ray_timeout = None
    if args.workers > 1 and (not args.ray or args.ray == "local"):  # one worker is always allowed
        from actors.client.bulk import worker_limit

        if args.workers > worker_limit():
            raise InputError(f"--workers {args.workers}: at most {worker_limit()} worker processes on this "
                             f"machine (4 per CPU)")
    in_process = args.workers == 1 and not args.ray
    if args.ray:
        from actors.client.cluster import check_address, ray_timeout

        check_address(args.ray)
        args.ray_timeout = ray_timeout(args.ray_timeout)
    elif args.ray_timeout is not None:
        raise InputError("--ray-timeout: only with --ray ADDRESS")
    if args.trace is not None:
        if args.trace == "-":
            raise InputError("--trace -: give a file path (the trace is written beside the normal output)")
        if args.engine != "actors":
            raise InputError("--trace needs the actor engine (the direct engine sends no messages)")
        if not in_process:
            raise InputError("--trace needs the games judged in this process (drop --workers/--ray)")
    args.links = network_model(args)
    if args.links is not None and args.engine != "actors":
        raise InputError("--network needs the actor engine (the direct engine sends no messages)")
    if args.links is not None and not in_process:
        raise InputError("--network needs the games judged in this process (drop --workers/--ray)")
    args.lessons = lessons(args.teach)
    if args.lessons and args.engine != "actors":
        raise InputError("--teach needs the actor engine (only piece actors can learn new moves)")
    if args.lessons and not in_process:
        raise InputError("--teach needs the games judged in this process (drop --workers/--ray)")
    if args.html is not None:
        if args.engine != "actors":
            raise InputError("--html needs the actor engine (the direct engine sends no messages)")
        if not in_process:
            raise InputError("--html needs the games judged in this process (drop --workers/--ray)")
    if args.html is not None:
        check_writable(args.html, "--html")
    if args.trace is not None:
        check_writable(args.trace, "--trace")
    if args.json and args.board in ("each", "end"):
        raise InputError(f"--board {args.board}: --json never prints boards")
    if args.json and args.moves:
        raise InputError("--moves: --json prints one object per game, not move lines")
    if not in_process and (args.board == "each" or args.moves):
        shown = "--board each" if args.board == "each" else "--moves"
        raise InputError(f"{shown} needs the games judged in this process (drop --workers/--ray)")


@dataclass(slots=True)
class _Plan:
    """What this run shows and how it judges."""

    in_process: bool
    board: str
    moves: bool
    summary: bool

    @property
    def watched(self) -> bool:
        """Whether games are judged move by move here (rather than whole, possibly elsewhere)."""
        return self.in_process and (self.moves or self.board == "each" or self.summary)


def _plan(args: argparse.Namespace, several: bool) -> _Plan:
    in_process = args.workers == 1 and not args.ray
    # The face is for one game through the actors; bulk runs and --engine direct keep their one line a game.
    showcase = not args.json and args.engine == "actors" and in_process and not several
    board = args.board or ("end" if showcase else "none")
    moves = args.moves if args.moves is not None else (showcase or board == "each")
    summary = not args.json and args.engine == "actors" and in_process
    return _Plan(in_process, board, moves, summary)


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


class _Watcher:
    """Judges games one by one in this process, printing move lines and boards as moves are judged."""

    def __init__(self, args: argparse.Namespace, plan: _Plan, out: Console | None,
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
            from actors.client.pool import SystemPool, process_pool

            # Games borrow one actor system in turn; a traced replay keeps a pool of its own.
            self.pool = process_pool() if recorder is None else SystemPool(recorder=recorder)

    def close(self) -> None:
        """Stop the actor systems kept for the games (this process's shared pool stays)."""
        if self.pool is not None and self.pool.recorder is not None:
            self.pool.close()

    def verdicts(self, games: Iterator[PgnGame]) -> Iterator[GameVerdict]:
        """Judge each game, yielding its verdict."""
        from actors.client.replay import watch_game

        recorder = self.recorder
        if recorder is not None and self.sink is not None:
            recorder.attach(self.sink)
        try:
            for number, game in enumerate(games, 1):
                self.last = None
                if recorder is not None:
                    recorder.game = number
                if self.faults is not None:
                    self.faults = Counter()
                verdict = watch_game(game, self.args.engine, recorder, self.on_move,
                                     positions=self.plan.board == "each", teach=self.args.lessons,
                                     pool=self.pool, network=self.args.links, faults=self.faults,
                                     nodes=self.nodes)
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

    def on_move(self, report: MoveReport) -> None:
        """Print one judged move (and the board after it, with ``--board each``)."""
        if report.accepted:
            self.last = report
        if self.out is None:
            return
        from actors.cli.display import BoardView, move_line

        if self.plan.moves:
            self.out.print(move_line(report))
        if self.plan.board == "each" and report.accepted and report.fen:
            self.out.print(BoardView(report.fen, report.uci, report.check))


def run(args: argparse.Namespace) -> int:
    """Replay each game; exit 1 if any game has an illegal move."""
    _check_options(args)
    if args.engine == "actors" and args.workers == 1 and not args.ray and args.node_option is None:
        from actors.kernel.affinity import one_core

        one_core()  # the actor threads hand off faster on one core (actors.kernel.affinity)
    from actors.cli.inputs import check_readable

    for path in args.pgn:
        check_readable(path)  # fail before any output if a file is unreadable
    watcher: _Watcher | None = None
    with ExitStack() as stack:
        if args.workers > 1 or args.ray:
            # Bulk: the raw text goes to the workers, which read and judge it.
            plan = _plan(args, several=True)
            # closed by the stack whatever ends the run, so that the workers end with it
            verdicts: Iterator[GameVerdict] = stack.enter_context(
                closing(_judged_elsewhere(args, _sources(args.pgn)))
            )
            progress = _progress(args, several=True, stack=stack)
            totals = _report(args, plan, verdicts, None, None, progress)
        else:
            games = _games(_sources(args.pgn))
            head = list(islice(games, 2))  # one game or several decides what is shown by default
            games = chain(head, games)
            plan = _plan(args, several=len(head) > 1)
            trace_file = _open_trace(args.trace, stack) if args.trace is not None else None
            out: Console | None = None
            if not args.json and (plan.watched or plan.board != "none"):
                from actors.cli.display import console

                out = console()
            nodes = None
            if args.node_option is not None:
                nodes = open_nodes(stack, args.node_option, to_stderr=args.json)
            if plan.watched or trace_file is not None or args.html is not None or args.links is not None \
                    or nodes is not None:
                watcher = _start_watcher(args, plan, out, trace_file, nodes)
                stack.callback(watcher.close)
                verdicts = watcher.verdicts(games)
            else:
                verdicts = _judged_whole(args, games)
            progress = _progress(args, several=len(head) > 1, stack=stack)
            totals = _report(args, plan, verdicts, out, watcher, progress)
            if trace_file is not None:
                trace_file.check()  # a trace that could not be written is an error, after the verdicts
    if watcher is not None and watcher.page_full_at is not None:
        from actors.studio import PAGE_MESSAGES

        _print_totals(args, plan, totals, progress is not None)
        raise InputError(
            f"--html {args.html}: more than {PAGE_MESSAGES:,} messages by game {watcher.page_full_at}, "
            "more than one page shows; replay fewer games, or write --trace PATH and draw chosen games "
            "or plies with 'chess-actors trace PATH --to html --game N --plies A-B'"
        )
    if watcher is not None and watcher.studio is not None:
        shown = ", ".join(args.pgn) or "the Opera game"
        _write_studio(args.html, watcher.studio, f"chess-actors studio: {shown}")
    # After the progress display has gone, so that the totals stay on the terminal.
    _print_totals(args, plan, totals, progress is not None)
    return _status(args, totals)


class _Totals(NamedTuple):
    """What a replay found: games, legal plies, games stopped by an illegal move, inputs with a game."""

    games: int
    plies: int
    illegal: int
    sources: frozenset[str | None]


def _status(args: argparse.Namespace, totals: _Totals) -> int:
    """Exit 1 when some game was illegal or unreadable; 2 when an input held no game at all."""
    empty = list(dict.fromkeys(name for name in map(_input_name, args.pgn) if name not in totals.sources))
    if empty:  # one line however many inputs were empty
        sys.stderr.write(f"chess-actors replay: {', '.join(empty)}: no game found "
                         "(no tag pair, move or result in it)\n")
        return 2
    return 1 if totals.illegal else 0


def _print_totals(args: argparse.Namespace, plan: _Plan, totals: _Totals, progressed: bool) -> None:
    """One summary line for several games, unless the actors' summary (which starts with it) was printed.

    Plain output ends with it; ``--json`` keeps stdout to one object a game, so the line goes to
    stderr, and only where the progress display was (a terminal), to leave the totals in its place.
    """
    games, plies, illegal, _ = totals
    if games < 2 or plan.summary:
        return
    stopped = f"{counted(illegal, 'game')} stopped by an illegal move" if illegal else "no illegal move"
    line = f"summary: {counted(games, 'game')}, {counted(plies, 'ply', 'plies')}, {stopped}\n"
    if not args.json:
        sys.stdout.write(line)
    elif progressed:
        sys.stderr.write(line)


def _write_studio(path: str, events: list[TraceEvent], title: str) -> None:
    from actors.studio import write_page

    if not events:
        raise InputError(f"--html {path}: no game was judged, so there is no message to show")
    try:
        write_page(events, path, title)
    except OSError as error:
        raise InputError(f"--html {path}: cannot write: {error.strerror}") from None


def _open_trace(path: str, stack: ExitStack) -> SideOutput:
    return stack.enter_context(closing(open_side_output(path, "--trace")))


def _start_watcher(args: argparse.Namespace, plan: _Plan, out: Console | None,
                   trace_file: SideOutput | None, nodes: Nodes | None = None) -> _Watcher:
    recorder: TraceRecorder | None = None
    sink: TraceSink | None = None
    if args.engine == "actors" and (plan.summary or trace_file is not None or args.html is not None):
        from actors.tracing.recorder import TraceRecorder
        from actors.tracing.sinks import jsonl_sink

        # Events are kept only for the summary's statistics and the studio, and cleared after every game.
        recorder = TraceRecorder(keep=plan.summary or args.html is not None)
        if trace_file is not None:
            sink = jsonl_sink(cast(TextIO, trace_file))
    return _Watcher(args, plan, out, recorder, sink, nodes)


def _judged_elsewhere(args: argparse.Namespace, sources: Iterator[tuple[str, Iterator[bytes]]]
                      ) -> Generator[GameVerdict, None, None]:
    if args.ray:
        from actors.client.bulk import replay_on_ray

        return replay_on_ray(sources, args.engine, args.workers, args.ray, args.ray_timeout)
    from actors.client.bulk import replay_parallel

    return replay_parallel(sources, args.engine, args.workers)


def _judged_whole(args: argparse.Namespace, games: Iterator[PgnGame]) -> Iterator[GameVerdict]:
    from actors.client.replay import judge_for, watch_game

    if args.lessons:
        return (watch_game(game, args.engine, teach=args.lessons) for game in games)
    return map(judge_for(args.engine), games)


def _progress(args: argparse.Namespace, several: bool, stack: ExitStack) -> tuple[Progress, TaskID] | None:
    if not several or args.quiet or not sys.stderr.isatty():
        return None
    from actors.cli.display import progress_text, replay_progress

    progress = stack.enter_context(replay_progress(sys.stdout.isatty()))
    task = progress.add_task(progress_text(0, 0, 0), total=None)
    return progress, task


def _report(args: argparse.Namespace, plan: _Plan, verdicts: Iterator[GameVerdict], out: Console | None,
            watcher: _Watcher | None, progress: tuple[Progress, TaskID] | None) -> _Totals:
    """Print every verdict (and the boards and summary the plan asks for); return the totals."""
    games = plies = illegal = 0
    found: set[str | None] = set()
    for number, verdict in enumerate(verdicts, 1):
        found.add(verdict.source)
        record = verdict.as_json()
        record["game"] = number
        if watcher is not None and watcher.faults is not None:
            record["network"] = {name: watcher.faults[name] for name in COUNTED}
        games, plies, illegal = number, plies + verdict.plies, illegal + (verdict.error is not None)
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
                               startup))
    if watcher is not None and args.links is not None and not args.json:
        sys.stdout.write(network_line(args.links, watcher.network_total) + "\n")
    return _Totals(games, plies, illegal, frozenset(found))


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


def _plies(count: int) -> str:
    return "ply" if count == 1 else "plies"
