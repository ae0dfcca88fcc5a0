"""``chess-actors run``: run a scenario script against the actors, a ✓ or ✗ line per step.

Exit 0 when every step passes, 1 at the first that fails (named on stderr), 2 for a malformed script.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, TextIO, cast

from actors.cli.help import add_command
from actors.cli.network import add_max_restarts_flag, add_network_flag, network_line, network_model
from actors.cli.nodes import add_nodes_flags, open_nodes, own_nodes_option
from actors.cli.output import add_json_flag, add_trace_flags, emit, fail
from actors.cli.streams import (
    SideOutput,
    check_writable,
    refuse_inputs_as_outputs,
    replaced_file,
    side_output,
)

if TYPE_CHECKING:
    from actors.study.steps import Scenario, StepResult


def register(subparsers: Any) -> None:
    """Add the ``run`` subcommand."""
    parser = add_command(
        subparsers, "run",
        summary="run a scenario script: play moves, message actors, crash them, check what they say",
        description="Run a scenario script step by step, a line with ✓ or ✗ per step; the first failing\n"
                    "step stops the run (exit 1). The format: actors/examples/README.md.",
        examples=[
            "chess-actors run --example pin                      # an example shipped with the package",
            "chess-actors run --list-examples",
            "chess-actors run my.scenario --trace t.jsonl",
        ],
    )
    parser.add_argument("scenario", nargs="?", metavar="SCENARIO", help="a scenario file; '-' reads stdin")
    parser.add_argument("--example", nargs="?", const="", metavar="NAME",
                        help="run the example scenario NAME shipped with the package (no NAME: list them)")
    parser.add_argument("--list-examples", action="store_true",
                        help="list the example scenarios shipped with the package, and what each teaches")
    add_trace_flags(parser, "run")
    parser.add_argument("--teach", action="append", default=[], metavar="SQUARE=PIECE",
                        help="start the game with the piece on SQUARE moving as PIECE: Betza notation "
                             "(b1=NC, g8=nN, c1=mBcF) or a name (a kind or a fairy piece: archbishop, "
                             "chancellor, amazon, jumping-rook, ...); repeatable")
    add_network_flag(parser)
    add_max_restarts_flag(parser)
    add_nodes_flags(parser, ray_flags=True)
    add_json_flag(parser)
    parser.set_defaults(handler=run_scenario_command)


def run_scenario_command(args: argparse.Namespace) -> int:
    """Run the scenario at ``args.scenario``; return 0 if every step passed, 1 if one failed."""
    from actors.cli.replay_options import lessons
    from actors.kernel.affinity import one_core
    from actors.study.runner import NODES_PLAN_ONE_FAULT, SCHEDULED_RUNS_HERE, run_scenario
    from actors.study.steps import LinkFault
    from board.errors import InputError

    if sum((args.scenario is not None, args.example is not None, args.list_examples)) != 1:
        raise InputError("give one of SCENARIO, --example NAME or --list-examples")
    listing = args.list_examples or args.example == ""
    if listing:
        if args.trace is not None:
            raise InputError("--trace: listing the examples runs nothing to trace")
        return _list_examples(args)
    taught = lessons(args.teach)
    model = network_model(args)
    on_nodes = own_nodes_option(args)
    for option, path in (("--html", args.html), ("--trace", args.trace)):
        if path is not None and path != "-":
            check_writable(path, option)
    refuse_inputs_as_outputs([("--html", args.html), ("--trace", args.trace)],
                             [args.scenario] if args.scenario is not None else [])
    scenario = _load_scenario(args)
    if on_nodes is not None and any(isinstance(step, LinkFault) for step in scenario.steps):
        raise InputError(f"{scenario.source}: {NODES_PLAN_ONE_FAULT}")
    if model is not None and scenario.network is not None:
        raise InputError(f"--network: {scenario.source} has a network line of its own (network"
                         f" {scenario.network.text()}): give the links' model once")
    model = model or scenario.network
    if scenario.schedule is not None and on_nodes is not None:
        raise InputError(f"--nodes: {scenario.source}: {SCHEDULED_RUNS_HERE}")
    if on_nodes is None:
        one_core()  # the actor threads hand off faster on one core (actors.kernel.affinity)
    with ExitStack() as stack:
        nodes = None
        if on_nodes is not None:
            nodes = open_nodes(stack, on_nodes, scenario.start_fen, to_stderr=args.json)
        recorder = None
        trace_file: SideOutput | None = None
        if args.html is not None:
            from actors.tracing.recorder import TraceRecorder

            recorder = TraceRecorder()
        if args.trace is not None:
            from actors.tracing.recorder import TraceRecorder
            from actors.tracing.sinks import jsonl_sink

            if args.trace == "-":
                raise InputError("--trace -: give a file path (the trace is written beside the step lines)")

            trace_file = stack.enter_context(side_output(args.trace, "--trace"))
            if recorder is None:
                recorder = TraceRecorder(keep=False)
            recorder.attach(jsonl_sink(cast(TextIO, trace_file)))
        show = _printer(args)
        counts: Counter[str] = Counter()
        results = run_scenario(scenario, show, recorder, teach=taught, network=model, nodes=nodes,
                               counts=counts, max_restarts=args.max_restarts)
    if args.html is not None and recorder is not None:
        from actors.studio import write_page

        with replaced_file(args.html, "--html") as written:
            write_page(recorder.events(), written, f"chess-actors studio: {scenario.source}")
    failed = next((result for result in results if not result.ok), None)
    if not args.json:
        from actors.cli.display import console

        console().print(_closing_line(len(scenario.steps), results, failed))
        if model is not None:
            console().print(network_line(model, counts))
    if failed is not None:
        fail(f"chess-actors run: {scenario.source}, line {failed.line}: {failed.step}: "
             f"expected {failed.expected}; got {failed.got}")
    if trace_file is not None:
        trace_file.check()  # the steps have been shown; a trace that failed is still an error
    return 1 if failed is not None else 0


def _load_scenario(args: argparse.Namespace) -> Scenario:
    """The script to run: a shipped example, stdin, or a file."""
    from actors.study.script import parse_scenario

    if args.example is not None:
        from actors.examples import example

        chosen = example(args.example)
        return parse_scenario(chosen.text, source=chosen.source)
    return read_scenario_input(args.scenario)


def _list_examples(args: argparse.Namespace) -> int:
    from actors.examples import examples

    shipped = examples()
    width = max(len(item.name) for item in shipped)
    for item in shipped:
        emit(args, {"name": item.name, "summary": item.summary}, f"{item.name:<{width}}  {item.summary}")
    return 0


def _printer(args: argparse.Namespace) -> Callable[[StepResult], None]:
    if args.json:
        def show_json(result: StepResult) -> None:
            emit(args, result.as_json(), "")
        return show_json
    from actors.cli.display import console, step_line

    out = console()

    def show(result: StepResult) -> None:
        out.print(step_line(result))
    return show


def _closing_line(total: int, results: list[StepResult], failed: StepResult | None) -> str:
    if failed is None:
        return f"{total} step{'s' if total != 1 else ''} passed"
    not_run = total - len(results)
    tail = f"; {not_run} step{'s' if not_run != 1 else ''} not run" if not_run else ""
    return f"{len(results) - 1} passed, the step on line {failed.line} failed{tail}"


def read_scenario_input(path: str) -> Scenario:
    """Read and parse the scenario at ``path`` ('-': stdin) through the bounded reader (plain or
    compressed, at most :data:`SCENARIO_BYTES`, no binary data).

    Raises:
        InputError: the script is too long, not UTF-8 text, or malformed.
        OSError: the file cannot be read.
    """
    from actors.cli.inputs import UserInput
    from actors.study.script import parse_scenario
    from board.errors import InputError

    scenario = UserInput(path, "scenario")
    text = scenario.text(SCENARIO_BYTES, "scenario")
    # Checked before parsing: the parser holds a line many times over while it reads it.
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > SCENARIO_LINE:
            raise InputError(f"{scenario.name}:{number}: a line longer than {SCENARIO_LINE:,} characters "
                             "(the limit for a scenario line)")
    return parse_scenario(text, source=scenario.name)


SCENARIO_BYTES = 4_000_000
"""The longest scenario script read (the examples are under 2 KB): a script is read whole, so a
larger one, or a device that never ends, is refused before it can fill the memory."""
SCENARIO_LINE = 10_000
"""The longest line of a scenario (a step with a FEN is under 100 characters)."""
