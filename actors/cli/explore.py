"""``chess-actors explore``: run each chosen ply of a game under many delivery orders and compare them.

A line per ply (or a JSON object with ``--json``): the orders run and whether the verdict, the SAN, the
position and the messages sent were the same under all; a differing order is shrunk and its trace written.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.output import add_json_flag, counted, emit, fail

if TYPE_CHECKING:
    from collections.abc import Sequence

    from actors.study.explore import Report, Run
    from actors.study.fault_search import FaultRun
    from actors.study.orders import Lesson
    from actors.tracing.event import TraceEvent

DEFAULT_ORDERS = "20"
MOST_ORDERS = 1_000_000
"""The most random orders asked for one ply (a run takes milliseconds: a million is hours)."""
DEFAULT_BUDGET = 600.0
"""Seconds of exploring before it stops with a line saying how far it got (``--budget``)."""


def register(subparsers: Any) -> None:
    """Add the ``explore`` subcommand."""
    parser = add_command(
        subparsers, "explore",
        summary="run each ply under many delivery orders: does any order change what the actors decide?",
        description="Replay a game (PGN, the first game unless --game; no PGN: the Opera game, as replay\n"
                    "plays it) or a scenario's moves, and run each chosen ply (on one actor system,\n"
                    "re-seated for every run) under N seeded random delivery orders, or under every\n"
                    "order that can differ (--orders all: only messages racing to the same receiver, or\n"
                    "replies racing to the same waiter, are reordered). When an order changes the verdict,\n"
                    "the SAN, the position or the messages sent, the shortest such schedule is printed\n"
                    "and its trace written (exit 1).",
        examples=[
            "chess-actors explore                                # every ply of the Opera game",
            "chess-actors explore --plies 33 --orders all        # its mate, under every order",
            "chess-actors explore --example checkmate --orders all --json",
        ],
    )
    parser.add_argument("source", nargs="?", metavar="PGN|SCENARIO",
                        help="a PGN file ('-' reads stdin), or a scenario script (.scenario) whose play "
                             "steps are the moves; none: the Opera game")
    parser.add_argument("--example", metavar="NAME",
                        help="explore the moves of the example scenario NAME shipped with the package "
                             "(chess-actors run --list-examples lists them)")
    parser.add_argument("--plies", metavar="A-B", help="explore only plies A to B (1-based, inclusive)")
    parser.add_argument("--orders", default=DEFAULT_ORDERS, metavar="N|all",
                        help=f"random orders per ply, or 'all' (default {DEFAULT_ORDERS})")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                        help="stop exploring after this many seconds, saying how far it got "
                             f"(default {DEFAULT_BUDGET:g})")
    parser.add_argument("--seed", type=int, default=0, help="the first random order's seed (default 0)")
    parser.add_argument("--game", type=int, default=1, metavar="N",
                        help="which game of the PGN (1-based, default 1)")
    parser.add_argument("--counterexample", metavar="PATH", default="explore-ply-{ply}.jsonl",
                        help="where a differing order's trace goes ({ply} is the ply; default %(default)s)")
    parser.add_argument("--html", metavar="PATH", default=None,
                        help="write the first counterexample's studio page, its delivery order side by side "
                             "with the one it differs from")
    parser.add_argument("--network", metavar="single-loss|single-dup|lost-for-good|crash|SPEC",
                        help="a fault search instead of orders: each ply run once for every message of it "
                             "lost (single-loss), duplicated (single-dup), never delivered (lost-for-good) "
                             "or, for every delivery, its receiver crashed on it (crash), each message named "
                             "by its place in the ply; a link model (loss=0.05,dup=0.05,seed=1): explore the "
                             "orders over links that fail as it decides, against arrival order over "
                             "reliable links")
    parser.add_argument("--faults", type=int, default=1, choices=(1, 2),
                        help="with a fault search: 2 runs every pair of faults too (default 1)")
    parser.add_argument("--trace", metavar="PATH", default=None,
                        help="write the explored plies' messages as JSON lines to PATH (what chess-actors "
                             "trace reads): every delivered message of each explored ply, in arrival order; "
                             "with a fault search, each ply's fault-free run (what its fault points are "
                             "counted against)")
    parser.add_argument("--scenario", metavar="PATH", default="explore-ply-{ply}.scenario",
                        help="with a fault search: where the first failing run goes as a scenario that "
                             "chess-actors run replays ({ply} is the ply; default %(default)s)")
    add_json_flag(parser)
    parser.set_defaults(handler=run_explore)


def parse_orders(text: str) -> int | None:
    """``all`` (None) or a positive count of random orders.

    Raises:
        InputError: anything else.
    """
    from board.errors import InputError

    if text == "all":
        return None
    if text.isdigit() and 0 < int(text) <= MOST_ORDERS:
        return int(text)
    raise InputError(f"--orders {text!r}: give a number of random orders from 1 to {MOST_ORDERS:,}, or all")


def load_script(
    source: str | None, game_number: int, example: str | None = None
) -> tuple[str, bool, list[Lesson | str]]:
    """The start position, whether the game is Chess960 (a PGN game's Variant tag or FEN, a
    scenario's start step), and the moves (SAN or UCI) and lessons of a game or scenario, in order.

    Args:
        source: a PGN file, ``-`` for PGN on stdin, a ``.scenario`` file, or None for the embedded game.
        game_number: which game of the PGN (1-based).
        example: the name of a shipped example scenario, read instead of ``source``.

    Raises:
        InputError: the file has no such game, the PGN or the scenario is malformed (a FEN tag
            included), both a source and an example are given, or a lesson names an unknown move
            function.
    """
    from actors.cli.inputs import UserInput, check_readable, embedded_game_blocks
    from actors.cli.run import read_scenario_input
    from actors.game.replay import EMBEDDED_GAME
    from actors.study.script import parse_scenario
    from actors.study.steps import Learn, Play, Scenario
    from board.errors import InputError
    from board.games.replay import start_game
    from board.notation.pgn import read_games
    from board.rules.geometry import geometry_named
    from board.rules.squares import parse_standard_square

    scenario: Scenario | None = None
    if example is not None:
        if source is not None:
            raise InputError(f"give a PGN or scenario, or --example {example}, not both")
        from actors.examples import example as shipped

        chosen = shipped(example)
        scenario = parse_scenario(chosen.text, source=chosen.source)
    elif source is not None and source.endswith(".scenario"):
        check_readable(source)
        scenario = read_scenario_input(source)
    if scenario is not None:
        script: list[Lesson | str] = []
        for step in scenario.steps:
            if isinstance(step, Play):
                script.append(step.move)
            elif isinstance(step, Learn):
                script.append((parse_standard_square(step.square), geometry_named(step.geometry)))
        return scenario.start_fen, scenario.chess960, script
    if source is None:
        name, blocks = EMBEDDED_GAME, embedded_game_blocks()
    else:
        check_readable(source)
        pgn = UserInput(source)
        name, blocks = pgn.name, pgn.blocks()
    for game in read_games(blocks, name=name):
        if game.number == game_number:
            if game.error is not None and not game.moves:
                raise InputError(f"game {game_number}: {game.error}")  # the error names file and line
            start = start_game(game)  # its FEN tag read, Chess960 when the Variant tag says so
            return start.start_fen, start.chess960, [token.text for token in game.moves]
    raise InputError(f"{name}: there is no game {game_number}")


def run_explore(args: argparse.Namespace) -> int:
    """Explore the chosen plies; 0 if every order agreed on every ply, 1 if some order changed one."""
    from actors.cli.streams import check_writable, refuse_inputs_as_outputs
    from actors.kernel.links import COUNTED, parse_network
    from actors.kernel.policies import Fifo
    from actors.study.explore import explore
    from actors.study.fault_search import fault_mode
    from actors.study.orders import OrderedSystem, game_plies
    from actors.tracing.export import parse_ply_range
    from board.errors import InputError

    orders = parse_orders(args.orders)
    if not 0 < args.budget <= 10**7:  # NaN fails too
        raise InputError(f"--budget {args.budget:g}: give a positive number of seconds, at most 10,000,000")
    deadline = time.monotonic() + args.budget
    chosen = parse_ply_range(args.plies) if args.plies is not None else None
    # Where a counterexample would go, checked for the first ply before hours of exploring.
    check_writable(args.counterexample.replace("{ply}", "1"), "--counterexample")
    if args.html is not None:
        check_writable(args.html, "--html")
    if args.trace is not None:
        check_writable(args.trace, "--trace")
    refuse_inputs_as_outputs([("--html", args.html), ("--trace", args.trace),
                              ("--counterexample", args.counterexample.replace("{ply}", "1"))],
                             [args.source] if args.source is not None else [])
    start, chess960, script = load_script(args.source, args.game, args.example)
    moves = [item for item in script if isinstance(item, str)]
    taught = len(moves) < len(script)
    # With lessons, each ply is run after its whole history (the lessons re-taught on the way) and
    # the lessons just before it are taught inside its run; without, from its position alone.
    plies = _taught_plies(start, script) if taught else game_plies(start, moves, chess960)
    if chosen is not None:
        plies = [ply for ply in plies if chosen[0] <= ply[0] <= chosen[1]]
        if not plies:
            raise InputError(f"--plies {args.plies}: the game has {counted(len(moves), 'ply', 'plies')}")
    links = None
    if args.network is not None:
        if taught:
            raise InputError(f"--network {args.network}: explores the moves of a game, and this script"
                             " teaches pieces")
        if "=" in args.network:
            links = parse_network(args.network)
        else:
            fault_mode(args.network)  # a name it does not know is an error here, before any run
            check_writable(args.scenario.replace("{ply}", "1"), "--scenario")
            if args.trace is not None:
                check_writable(args.trace, "--trace")
    if args.network is not None and links is None:
        return _search_faults(args, plies, deadline, chess960)
    if args.faults != 1:
        raise InputError(f"--faults {args.faults}: pairs of faults are searched with --network single-loss,"
                         " single-dup, lost-for-good or crash")
    traced: list[str] = []
    total_orders, total_seconds, changed = 0, 0.0, 0
    cut_at: int | None = None
    cut_inside = False
    with OrderedSystem(chess960=chess960) as system, _Progress(len(plies)) as progress:  # re-seated each run
        for done, (number, fen, move) in enumerate(plies):
            if time.monotonic() >= deadline:
                cut_at = number
                break
            reference = None
            if taught:
                history, lessons = _history(script, number)
                run_once = system.ply_after(start, history, lessons, move)
            else:
                run_once = system.ply(fen, move, links=links)
                if links is not None:  # the orders over failing links against arrival order over none
                    reference = system.ply(fen, move)(Fifo())
                    system.link_counts.clear()
            progress.show(done, number, move, 0)
            report = explore(run_once, orders, seed=args.seed, deadline=deadline, reference=reference,
                             on_run=lambda runs: progress.show(done, number, move, runs))  # noqa: B023
            total_orders += report.orders
            total_seconds += report.seconds
            if args.trace is not None:  # each ply runs from its position alone: number it as the game's
                from actors.tracing.event import event_to_json

                traced += [event_to_json({**event, "ply": number, "phase": f"ply {number}"})
                           for event in report.reference.trace]
            path = page = None
            if report.differing is not None:
                changed += 1
                path = args.counterexample.replace("{ply}", str(number))
                _write_trace(report.differing, path)
                if args.html is not None and changed == 1:
                    page = args.html
                    plain = "arrival order" + (" over reliable links" if links is not None else "")
                    found = "the order found" + (f" over links {links.text()}" if links is not None else "")
                    _write_page(page, report.reference.trace, report.differing.trace, plain, found,
                                f"ply {number} {move}")
            record, text = _record(number, move, report, path), _text(number, move, report, path)
            if page is not None:
                record["counterexample"]["html"] = page
                text += f"\n  studio page: {page} (the two orders side by side)"
            if links is not None:
                record["network"] = {"model": links.text(),
                                     **{name: system.link_counts[name] for name in COUNTED}}
                befell = ", ".join(f"{name} {system.link_counts[name]}" for name in COUNTED)
                text = text.replace(": ", f" over links {links.text()} ({befell}): ", 1).replace(
                    "changed under this order", "changed over these links under this order")
            emit(args, record, text)
            if report.cut_short:
                cut_at, cut_inside = number, True
                break
    if args.trace is not None:
        _write_lines(args.trace, traced, "--trace")
    if cut_at is not None:  # the one line of a spent budget, in place of the summary
        sys.stdout.flush()
        where = "in" if cut_inside else "before"
        found = (f"{counted(changed, 'ply', 'plies')} changed by the order" if changed
                 else "no order changed an outcome")
        fail(f"chess-actors explore: the budget of {args.budget:g} s ran out {where} ply {cut_at}, "
             f"after {counted(total_orders, 'order')}, with plies {cut_at}-{plies[-1][0]} not all explored "
             f"({found} before it); raise --budget, or choose fewer --plies or --orders")
        return 1
    rate = total_orders / total_seconds if total_seconds else 0.0
    summary = (f"{counted(len(plies), 'ply', 'plies')}, {counted(total_orders, 'order')}"
               f" in {total_seconds:.1f} s ({rate:.1f} orders/s): ")
    if changed:
        summary += f"{counted(changed, 'ply', 'plies')} changed by the order"
    else:
        summary += "every order gave the same outcome"
    if links is not None:
        summary += " (over failing links, against arrival order over reliable ones)"
    (sys.stderr if args.json else sys.stdout).write(summary + "\n")
    return 1 if changed else 0


PROGRESS_AFTER = 1.0
"""Seconds of exploring before a progress bar appears (on a terminal only), as for ``perft``."""


PLAIN_EVERY = 10.0
"""Seconds between two plain progress lines on stderr when it is not a terminal (text output only)."""


class _Progress:
    """Progress on stderr once exploring has taken a second: on a terminal a bar (the plies done of
    those chosen, the ply under way with its runs so far, and for a fault search the runs so far of
    an estimated total); elsewhere, for a fault search's text output, a plain line every ten seconds.
    A random order that repeats an earlier one is a run, not another order."""

    def __init__(self, plies: int, quiet: bool = False) -> None:
        self.plies = plies
        self.started = time.monotonic()
        self.wanted = sys.stderr.isatty()
        self.plain = not self.wanted and not quiet
        self.said = self.started
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exception: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def show(self, done: int, number: int, move: str, runs: int, total: int | None = None,
             estimate: int | None = None) -> None:
        """``done`` plies are finished; ply ``number`` (``move``) has had ``runs`` runs; a fault search
        has had ``total`` runs of about ``estimate``."""
        now = time.monotonic()
        text = f"explore: ply {number} {move}, {counted(runs, 'run')}"
        if total is not None and estimate is not None:
            text += f"; {total:,} runs of about {estimate:,}"
        if self.plain and total is not None:
            if now - self.said >= PLAIN_EVERY:
                self.said = now
                sys.stderr.write(text + "\n")
                sys.stderr.flush()
            return
        if not self.wanted or (self.bar is None and now - self.started <= PROGRESS_AFTER):
            return
        if self.bar is None:
            from actors.cli.display import explore_progress

            self.bar = explore_progress(sys.stdout.isatty())
            self.bar.start()
            self.task = self.bar.add_task(text, total=self.plies)
        self.bar.update(self.task, completed=done, description=text)


def _search_faults(
    args: argparse.Namespace, plies: list[tuple[int, str, str]], deadline: float, chess960: bool
) -> int:
    """``--network single-loss|single-dup|lost-for-good|crash``: every message of each ply faulted in
    turn (with ``--faults 2``, every pair too), each run checked."""
    from actors.study.fault_search import describe, fault_mode, scenario_text, search_ply
    from actors.tracing.event import event_to_json

    fault = fault_mode(args.network)
    mode = args.network.strip().lower()
    runs = pruned = failing_plies = 0
    seconds = 0.0
    states: set[str] = set()
    results: Counter[str] = Counter()
    first_failure = True
    cut_at: int | None = None
    fault_free: list[str] = []
    with _Progress(len(plies), quiet=args.json) as progress:
        for done, (number, fen, move) in enumerate(plies):
            if time.monotonic() >= deadline:
                cut_at = number
                break

            def shown(ply_runs: int, ply_estimate: int, done: int = done, number: int = number,
                      move: str = move, before: int = runs) -> None:
                # the plies to come as many runs each as the plies so far (this one by its estimate)
                rate = (before + ply_estimate) / (done + 1)
                total = before + ply_estimate + round(rate * (len(plies) - done - 1))
                progress.show(done, number, move, ply_runs, before + ply_runs, total)

            search = search_ply(fen, move, fault, args.faults, chess960, on_run=shown, deadline=deadline)
            if args.trace is not None:
                fault_free.extend(event_to_json({**event, "ply": number}) for event in search.reference.trace)
            runs += len(search.runs)
            pruned += search.pruned
            seconds += search.seconds
            states |= search.states
            ply_results = search.results()
            results.update(ply_results)
            failing = search.failing
            record: dict[str, Any] = {
                "ply": number, "move": move, "network": mode, "faults": args.faults,
                "fault_points": len(search.points), "runs": len(search.runs), "pruned": search.pruned,
                "distinct_states": len(search.states), "changed": len(failing),
                "results": dict(sorted(ply_results.items())), "verdict": search.reference.verdict_text,
                "seconds": round(search.seconds, 3),
                "faulted": [_faulted(run, search.reference) for run in search.runs],
                "counterexample": None,
            }
            head = (f"ply {number} {move}: {counted(len(search.points), 'fault point')},"
                    f" {counted(len(search.runs), 'run')}, {counted(len(search.states), 'distinct state')},"
                    f" {search.pruned} pruned in {search.seconds:.2f} s: ")
            text = head + ", ".join(f"{count} {RESULT_WORDS[name]}"
                                    for name, count in sorted(ply_results.items()))
            if failing:
                failing_plies += 1
                run = failing[0]
                path = args.counterexample.replace("{ply}", str(number))
                _write_lines(path, [event_to_json(event) for event in run.trace], "--counterexample")
                scenario = args.scenario.replace("{ply}", str(number))
                _write_lines(scenario, scenario_text(run, search.reference, fen, move, chess960,
                                                     _command(args, number)).splitlines(), "--scenario")
                page = None
                if args.html is not None and first_failure:
                    page = args.html
                    _write_page(page, search.reference.trace, run.trace, "without a fault",
                                f"{' and '.join(run.faulted)} {FAULT_WORDS[fault]}", f"ply {number} {move}")
                first_failure = False
                record["counterexample"] = {
                    "messages": run.faulted, "result": run.result(search.reference), "verdict": run.verdict,
                    "broken": list(run.broken), "trace": path, "scenario": scenario, "html": page,
                }
                text += f"\n  {describe(run, search.reference)}\n  trace: {path}, scenario: {scenario}"
                if page is not None:
                    text += f", studio page: {page}"
            emit(args, record, text)
            if search.cut_short:
                cut_at = number
                break
    if args.trace is not None:
        _write_lines(args.trace, fault_free, "--trace")
    if cut_at is not None:
        sys.stdout.flush()
        fail(f"chess-actors explore: the budget of {args.budget:g} s was spent at ply {cut_at}; the plies"
             " from there were not all searched (raise --budget, or choose fewer --plies)")
    summary = (f"{counted(len(plies), 'ply', 'plies')}, {counted(runs, 'run')} ({mode}, "
               f"{counted(args.faults, 'fault')} a run), {counted(len(states), 'distinct state')},"
               f" {pruned} pruned, in {seconds:.1f} s: ")
    if failing_plies:
        summary += (f"{counted(failing_plies, 'ply', 'plies')} with a run that changed an outcome or broke"
                    " an invariant")
    else:
        summary += "no fault changed a verdict, a position or an invariant"
    clean = results["failed"] + results["failed otherwise"]
    if clean:
        summary += f" ({counted(clean, 'run')} ended in a named failure)"
    (sys.stderr if args.json else sys.stdout).write(summary + "\n")
    return 1 if failing_plies or cut_at is not None else 0


RESULT_WORDS = {"same": "same", "failed": "failed with LinkFailure", "failed otherwise": "failed otherwise",
                "changed": "CHANGED", "broken": "BROKE AN INVARIANT"}
FAULT_WORDS = {"drop": "lost", "duplicate": "duplicated", "lose": "lost for good", "crash": "crashed on"}


def _command(args: argparse.Namespace, number: int) -> str:
    """The explore command that searches ply ``number`` as this one did."""
    words = ["chess-actors", "explore"]
    if args.example is not None:
        words += ["--example", args.example]
    elif args.source is not None:
        words.append(args.source)
    if args.game != 1:
        words += ["--game", str(args.game)]
    words += ["--plies", f"{number}-{number}", "--network", args.network.strip().lower(),
              "--faults", str(args.faults)]
    return shlex.join(words)


def _faulted(run: FaultRun, reference: FaultRun) -> dict[str, Any]:
    """A run as its ``--json`` row names it: the faulted messages and what came of them."""
    result = run.result(reference)
    row: dict[str, Any] = {"messages": run.faulted, "result": result}
    if result != "same":
        row["verdict"] = run.verdict
    if run.broken:
        row["broken"] = list(run.broken)
    return row


def _write_page(path: str, reference: Sequence[TraceEvent], differing: Sequence[TraceEvent], plain: str,
                found: str, title: str) -> None:
    """The counterexample's studio page, with its delivery order beside the reference's."""
    from actors.cli.streams import replaced_file
    from actors.studio import write_page
    from actors.tracing.compare import compare_orders

    comparison = compare_orders(reference, differing, plain, found, title)
    with replaced_file(path, "--html") as written:
        write_page(differing, written, f"chess-actors explore: {title}, a counterexample", compare=comparison)


def _write_lines(path: str, lines: list[str], option: str = "--counterexample") -> None:
    from actors.cli.streams import replaced_file

    with replaced_file(path, option) as written, open(written, "w", encoding="utf-8") as file:
        file.writelines(line + "\n" for line in lines)


def _taught_plies(start: str, script: list[Lesson | str]) -> list[tuple[int, str, str]]:
    """(ply number, start FEN, move) for each move of a script with lessons (each ply is run from
    the start, so the FEN is the start's; how far the game is legal the runs themselves find out)."""
    moves = [item for item in script if isinstance(item, str)]
    return [(number, start, move) for number, move in enumerate(moves, start=1)]


def _history(script: list[Lesson | str], number: int) -> tuple[list[Lesson | str], list[Lesson]]:
    """What comes before the ``number``-th move of ``script``: everything up to the move before it,
    and the lessons between that move and this one (taught inside this ply's run)."""
    seen, cut = 0, 0
    for index, item in enumerate(script):
        if isinstance(item, str):
            seen += 1
            if seen == number - 1:
                cut = index + 1
            if seen == number:
                lessons = [step for step in script[cut:index] if not isinstance(step, str)]
                return script[:cut], lessons
    raise AssertionError(f"the script has no move {number}")


def _write_trace(run: Run, path: str) -> None:
    from actors.study.explore import trace_lines

    _write_lines(path, trace_lines(run), "--trace")


def _record(number: int, move: str, report: Report, path: str | None) -> dict[str, Any]:
    reference = report.reference.outcome
    record: dict[str, Any] = {
        "ply": number, "move": move, "orders": report.orders, "exhaustive": report.exhaustive,
        "same": {name: name not in report.differences for name in ("verdict", "san", "fen", "messages")},
        "verdict": reference.verdict, "san": reference.san, "fen": reference.fen,
        "seconds": round(report.seconds, 3), "counterexample": None, "cut_short": report.cut_short,
    }
    if report.differing is not None:
        record["counterexample"] = {
            "schedule": report.differing.schedule,
            "steps": [step.what for step in report.differing.steps],
            "verdict": report.differing.outcome.verdict, "san": report.differing.outcome.san,
            "fen": report.differing.outcome.fen, "trace": path,
        }
    return record


def _text(number: int, move: str, report: Report, path: str | None) -> str:
    orders = (f"{counted(report.orders, 'order')} (every order that can differ)" if report.exhaustive
              else counted(report.orders, "seeded random order"))
    verdict = report.reference.outcome.verdict
    if verdict.startswith("rejected"):  # the game stops at its first illegal move: say so
        move += f" (illegal: {verdict.removeprefix('rejected: ')})"
    head = f"ply {number} {move}: {orders} in {report.seconds:.2f} s: "
    if report.differing is None:
        return head + "same verdict, SAN, position and messages under every order"
    lines = [head + f"the {', '.join(report.differences)} changed under this order (trace: {path}):"]
    lines += [f"  {index}. {step.what}" for index, step in enumerate(report.differing.steps, start=1)]
    lines.append(f"  gives {report.differing.outcome.verdict} instead of {report.reference.outcome.verdict}")
    return "\n".join(lines)
