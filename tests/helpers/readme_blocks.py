"""The examples in the project's Markdown files (README, the documentation site's pages), found and checked.

A fenced block is checked when the line before its opening fence is a marker comment:

    <!-- readme-test: console -->        a ```console block: each `$ command` line is run by bash, and
                                         what it prints (stdout and stderr) must be the lines after it;
                                         `# exit N` at the end of a command expects that exit status
    <!-- readme-test: doctest -->        a ```python block of `>>>` lines, run as a doctest
    <!-- readme-test: output of CMD -->  any block: its text is what the bash command CMD prints

A block may be indented, as it is inside a list item or a collapsible answer (``??? note``): its lines
are read without the indentation of its opening fence. In expected output a line `...` stands for any
number of lines, and trailing blanks are ignored.
Commands and doctests run in a temporary directory (commands with this interpreter's scripts first on
PATH). It holds a copy of the scenario scripts (``*.scenario``) kept beside the page, so that a
lesson's page can run its own scenario by name, and nothing else.
"""

from __future__ import annotations

import contextlib
import doctest
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MARKER = re.compile(r"<!--\s*readme-test:\s*(?P<kind>console|doctest|output of)\s*(?P<command>.*?)\s*-->")
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)\s*(?P<language>[\w-]*)")
EXIT = re.compile(r"\s#\s*exit (?P<status>\d+)\s*$")
ANY_LINES = "..."


@dataclass(frozen=True, slots=True)
class Block:
    """One fenced block of a Markdown file: where it is, its language, its text and its marker."""

    path: Path
    line: int  # of the opening fence, 1-based
    language: str
    text: str
    section: str  # the nearest heading above it
    kind: str | None  # "console", "doctest", "output of", or None when unmarked
    command: str = ""  # for "output of"

    @property
    def name(self) -> str:
        """``README.md:123``, for test ids and failure messages."""
        return f"{self.path.name}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of the Markdown file at ``path``, with the marker before it, if any.

    Raises:
        ValueError: a marker is malformed, not followed by a block, or a block is never closed.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    section = ""
    marker: re.Match[str] | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        opening = FENCE.match(line)
        if line.startswith("#") and not opening:
            section = line.lstrip("#").strip()
        if line.lstrip().startswith("<!--") and "readme-test" in line:
            marker = MARKER.fullmatch(line.strip())
            if marker is None:
                raise ValueError(f"{path.name}:{index + 1}: malformed readme-test marker: {line.strip()}")
            if not FENCE.match(lines[index + 1] if index + 1 < len(lines) else ""):
                raise ValueError(
                    f"{path.name}:{index + 1}: a readme-test marker must come just before a block"
                )
            index += 1
            continue
        if opening:
            indent, fence = opening.group("indent"), opening.group("fence")
            closing = indent + fence
            end = next((at for at in range(index + 1, len(lines)) if lines[at].startswith(closing)), None)
            if end is None:
                raise ValueError(f"{path.name}:{index + 1}: the block is never closed")
            kind = marker.group("kind") if marker else None
            command = marker.group("command") if marker else ""
            text = "\n".join(line.removeprefix(indent) for line in lines[index + 1 : end])
            found.append(Block(path, index + 1, opening.group("language"), text, section, kind, command))
            marker = None
            index = end
        index += 1
    return found


def needs_marker(block: Block) -> bool:
    """Whether a block shows something runnable: shell commands with output, or Python prompts."""
    return block.language in ("console", "shell-session") or ">>>" in block.text


# --- running ----------------------------------------------------------------------------------


def environment() -> dict[str, str]:
    """The environment commands run in: this interpreter's scripts first, plain unbuffered output."""
    scripts = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": scripts + os.pathsep + os.environ.get("PATH", "")}
    env.update(PYTHONUNBUFFERED="1", COLUMNS="100", TERM="dumb")
    for name in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"):
        env.pop(name, None)
    return env


def run_command(command: str, directory: Path) -> tuple[int, str]:
    """Run one shell command line; return its exit status and what it printed (stderr merged in order)."""
    done = subprocess.run(
        ["bash", "-c", command], cwd=directory, env=environment(), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, check=False, timeout=300,
    )
    return done.returncode, done.stdout


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether ``got`` has the ``expected`` lines, each ``...`` line standing for any number of lines."""
    expected = [line.rstrip() for line in expected]
    got = [line.rstrip() for line in got]
    if not expected:
        return not got
    head, rest = expected[0], expected[1:]
    if head == ANY_LINES:
        return any(matches(rest, got[skip:]) for skip in range(len(got) + 1))
    return bool(got) and got[0] == head and matches(rest, got[1:])


def console_steps(text: str) -> list[tuple[str, int, list[str]]]:
    """The ``$ command`` lines of a console block, each with its expected exit status and output lines.

    Raises:
        ValueError: the block has output before its first command.
    """
    steps: list[tuple[str, int, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            command = line[2:]
            status = EXIT.search(command)
            steps.append((command, int(status.group("status")) if status else 0, []))
        elif not steps:
            raise ValueError(f"output before the first command: {line!r}")
        else:
            steps[-1][2].append(line)
    return steps


def check(block: Block, directory: Path) -> list[str]:
    """Run a marked block in ``directory``; return how it differs from what the block shows (or nothing)."""
    for scenario in sorted(block.path.parent.glob("*.scenario")):
        shutil.copy(scenario, directory / scenario.name)
    if block.kind == "doctest":
        with contextlib.chdir(directory):  # what an example writes lands there, not in the checkout
            return _doctest(block)
    if block.kind == "output of":
        status, printed = run_command(block.command, directory)
        expected = block.text.splitlines()
        if status != 0 or not matches(expected, printed.splitlines()):
            return [f"{block.command} (exit {status}) printed:\n{printed}"]
        return []
    problems = []
    for command, status, expected in console_steps(block.text):
        got_status, printed = run_command(command, directory)
        if got_status != status or not matches(expected, printed.splitlines()):
            problems.append(f"$ {command}\n(exit {got_status}, expected {status}) printed:\n{printed}")
    return problems


def _doctest(block: Block) -> list[str]:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, {}, block.name, str(block.path), block.line)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append, clear_globs=True)
    return ["".join(report)] if runner.failures else []
