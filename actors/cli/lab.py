"""``chess-actors lab``: the labs, a lab's starter, and the checks of a student's file.

``lab list`` a line a lab; ``lab start N [DIR]`` writes the lab's README and starter; ``lab check N
FILE`` runs the lab's checks on the class in FILE: a table (check, passed, figure), exit 0 when every
check passes, 1 when one fails, 2 on a usage error; the first failure is written as a scenario and
its studio page.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from actors.cli.help import add_command
from actors.cli.output import add_json_flag, emit
from actors.cli.streams import EXIT_FAILED, EXIT_OK, replaced_file

if TYPE_CHECKING:
    from actors.study.labs.checks import CheckResult
    from actors.study.labs.grader import LabReport

FORMATS = ("table", "gradescope")


def register(subparsers: Any) -> None:
    """Add the ``lab`` subcommand and its three commands."""
    parser = add_command(
        subparsers, "lab",
        summary="write your own actor: the labs, their starters, and the checks of your file",
        description="Labs: write a piece, a board or a referee of your own; the project runs it in place of\n"
                    "its own role, speaking the same messages, and checks it against the direct engine on\n"
                    "real games, illegal moves and every delivery. The first failure is written as a\n"
                    "scenario that 'chess-actors run' replays, and as a studio page open at the delivery\n"
                    "where your actor first answered otherwise than the project's.",
        examples=[
            "chess-actors lab list",
            "chess-actors lab start 1                      # writes lab1/README.md and lab1/lab1_piece.py",
            "chess-actors lab check 1 lab1/lab1_piece.py",
            "chess-actors lab check 3 referee.py --quick --json",
            "chess-actors lab check 3 referee.py --format gradescope --output results.json",
        ],
    )
    labs = parser.add_subparsers(dest="lab_command", required=True, metavar="COMMAND")
    listing = add_command(labs, "list", summary="the labs, one a line, each starting with its number",
                          description="The labs, one a line, each starting with its number: what you write\n"
                                      "in each, and what it is about.",
                          examples=["chess-actors lab list", "chess-actors lab list --json"])
    add_json_flag(listing)
    listing.set_defaults(handler=list_labs)
    start = add_command(labs, "start", summary="write a lab's README and starter file",
                        description="Write lab N's README (what to build, the messages involved, what\n"
                                    "is checked, a worked example) and its starter file into DIR\n"
                                    "(default: labN).",
                        examples=["chess-actors lab start 1", "chess-actors lab start 3 ~/course/referee"])
    start.add_argument("number", type=_lab_number, metavar="N", help="the lab's number (see lab list)")
    start.add_argument("folder", nargs="?", metavar="DIR", help="where to write them (default: labN)")
    start.add_argument("--force", action="store_true", help="overwrite files already there")
    add_json_flag(start)
    start.set_defaults(handler=start_lab)
    check = add_command(labs, "check", summary="run a lab's checks on your file",
                        description="Run lab N's checks on the class in FILE: a line per check (passed,\n"
                                    "its figure); exit 0 when every check passes, 1 when one fails, 2 on\n"
                                    "a usage error. The first failure is written as a scenario and a\n"
                                    "studio page.",
                        examples=["chess-actors lab check 1 lab1/lab1_piece.py",
                                  "chess-actors lab check 2 board.py --quick --json",
                                  "chess-actors lab check 3 referee.py --format gradescope"
                                  " --output results.json"])
    check.add_argument("number", type=_lab_number, metavar="N", help="the lab's number")
    check.add_argument("file", metavar="FILE",
                       help="your Python file (its class derived from the lab's base)")
    check.add_argument("--quick", action="store_true",
                       help="fewer games and positions: each check within about 15 s")
    check.add_argument("--fail-fast", action="store_true",
                       help="stop at the first check that fails (its counterexample is still written)")
    check.add_argument("--format", choices=FORMATS, default="table",
                       help="table (default) or gradescope: Gradescope's results.json, to --output")
    check.add_argument("--output", metavar="PATH", help="where --format gradescope writes results.json")
    check.add_argument("--counterexample", metavar="DIR", default=".",
                       help="where the first failure's scenario and studio page go (default: here)")
    add_json_flag(check)
    check.set_defaults(handler=check_lab)


def _lab_number(text: str) -> int:
    from actors.study.labs.catalog import lab_numbered

    try:
        number = int(text)
        lab_numbered(number)
    except (ValueError, LookupError) as error:
        problem = str(error) if isinstance(error, LookupError) else f"not a lab number: {text!r}"
        raise argparse.ArgumentTypeError(problem.strip("'\"")) from None
    return number


def list_labs(args: argparse.Namespace) -> int:
    """Print the labs, one a line."""
    from actors.study.labs.catalog import LABS

    for lab in LABS:
        emit(args, {"lab": lab.number, "name": lab.slug, "title": lab.title, "role": lab.role,
                    "summary": lab.summary},
             f"{lab.number}  {lab.title}: you write {lab.base.__name__}.{lab.method}, {lab.summary}")
    return EXIT_OK


def start_lab(args: argparse.Namespace) -> int:
    """Write lab N's README and starter into DIR."""
    from actors.study.labs.catalog import lab_numbered
    from board.errors import InputError

    lab = lab_numbered(args.number)
    folder = Path(args.folder or f"lab{lab.number}")
    readme, starter = folder / "README.md", folder / lab.starter_name
    if not args.force:
        for path in (readme, starter):
            if path.exists():
                raise InputError(f"{path} is already there (--force overwrites it)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        readme.write_text(lab.readme, encoding="utf-8")
        starter.write_text(lab.starter.format(file=starter), encoding="utf-8")
    except OSError as error:
        raise InputError(f"{folder}: cannot write the lab there: {error.strerror or error}") from None
    emit(args, {"lab": lab.number, "readme": str(readme), "starter": str(starter)},
         f"lab {lab.number} ({lab.title}): wrote {readme} and {starter}\n"
         f"next: write {lab.base.__name__}.{lab.method} in {starter}, then: "
         f"chess-actors lab check {lab.number} {starter}")
    return EXIT_OK


def check_lab(args: argparse.Namespace) -> int:
    """Run lab N's checks on FILE; exit 0 when all pass, 1 when one fails."""
    from actors.study.labs.grader import check_file, gradescope_results
    from board.errors import InputError

    if args.format == "gradescope" and args.output is None:
        raise InputError("--format gradescope needs --output PATH (where results.json goes)")
    if args.output is not None and args.format != "gradescope":
        raise InputError("--output goes with --format gradescope")
    folder = Path(args.counterexample)
    if not folder.is_dir():
        raise InputError(f"--counterexample {folder}: not a folder")
    shown = not args.json and args.format == "table"
    report = check_file(args.number, args.file, quick=args.quick, folder=folder,
                        on_check=_show_check if shown else None, fail_fast=args.fail_fast)
    written = _write_counterexample(report, folder)
    if args.format == "gradescope":
        with replaced_file(args.output, "--output") as path:
            Path(path).write_text(json.dumps(gradescope_results(report), indent=2) + "\n", encoding="utf-8")
    if args.json:
        record = report.as_json()
        record["written"] = [str(path) for path in written]
        sys.stdout.write(json.dumps(record) + "\n")
    elif shown:
        _show_summary(report, written)
    return EXIT_OK if report.passed else EXIT_FAILED


def _write_counterexample(report: LabReport, folder: Path) -> list[Path]:
    """Write the first failure's scenario and studio page into ``folder``; the paths written."""
    found = report.counterexample
    if found is None:
        return []
    from actors.studio import write_page

    stem = folder / f"lab{report.lab.number}-counterexample"
    scenario, page = stem.with_suffix(".scenario"), stem.with_suffix(".html")
    with replaced_file(str(scenario), "the counterexample") as path:
        Path(path).write_text(found.scenario, encoding="utf-8")
    if report.trace:
        with replaced_file(str(page), "the counterexample's page") as path:
            write_page(report.trace, path, f"lab {report.lab.number}: counterexample", opening=found.opening)
        return [scenario, page]
    return [scenario]


def _show_check(result: CheckResult) -> None:
    from rich.markup import escape

    from actors.cli.display import console
    from actors.cli.terminal_text import terminal_safe

    mark = "[green]✓[/green]" if result.passed else "[red]✗[/red]"
    line = f"{result.name:<16} {result.figure}"
    if result.detail:
        line += f"\n    {result.detail}"
    if result.skipped:
        line += f"\n    skipped: {result.skipped}"
    console().print(f"{mark} {escape(terminal_safe(line))}", highlight=False, markup=True)


def _show_summary(report: LabReport, written: list[Path]) -> None:
    from actors.cli.display import console
    from actors.cli.terminal_text import terminal_safe

    passed = sum(result.passed for result in report.results)
    lines = [f"lab {report.lab.number}: {passed} of {len(report.results)} checks passed"
             f" in {report.seconds:.1f} s"]
    found = report.counterexample
    if found is not None:
        deliveries = "1 delivery" if found.deliveries == 1 else f"{found.deliveries} deliveries"
        lines.append(f"first counterexample, {deliveries}: {found.what}")
        for path in written:
            lines.append(f"  wrote {path}")
        if written:
            lines.append(f"  replay it: chess-actors run {written[0]}")
            if len(written) > 1 and found.opening:
                lines.append(f"  see it: open {written[1]}#{found.opening}")
    console().print(terminal_safe("\n".join(lines)), highlight=False, markup=False)
