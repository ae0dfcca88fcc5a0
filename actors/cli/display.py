"""What people see in the terminal: boards, move lines, step lines, summary tables and progress, in rich.

Every function returns a rich renderable and prints nothing (the command line prints); plain text
when the output is not a terminal, colours when it is. Imported only by the commands that draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich import box
from rich.console import (
    Console,
    ConsoleOptions,
    ConsoleRenderable,
    Group,
    RenderableType,
    RenderHook,
    RenderResult,
)
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from actors.cli.terminal_text import terminal_safe
from actors.tracing.recorder import median, p99
from board.notation.fen import parse_fen
from board.rules.pieces import KING
from board.rules.squares import SQUARE_NAMES

if TYPE_CHECKING:
    from actors.game.replay import MoveReport
    from actors.study.steps import StepResult

__all__ = [
    "FILES_LINE",
    "BoardView",
    "console",
    "explore_progress",
    "headline",
    "move_line",
    "progress_text",
    "replay_progress",
    "step_line",
    "summary_view",
]

# White pieces in outline, black filled: readable without colour, like a printed diagram.
GLYPHS = {"P": "♙", "N": "♘", "B": "♗", "R": "♖", "Q": "♕", "K": "♔",
          "p": "♟", "n": "♞", "b": "♝", "r": "♜", "q": "♛", "k": "♚"}  # fmt: skip
EMPTY = "·"
FILES_LINE = "    a  b  c  d  e  f  g  h"
"""The line under every board (tests count boards by it)."""

_LIGHT, _DARK = "#f0d9b5", "#b58863"
_MOVED_LIGHT, _MOVED_DARK = "#cdd26a", "#aaa23a"
_CHECKED = "#e8605a"
_PIECE = Style(color="#000000", bold=True)
_FAINT = Style(dim=True)
_STANDOUT = Style(reverse=True)
_PLAIN = Style()


def console(stderr: bool = False) -> Console:
    """A console for the command line: stdout (or stderr), no markup, no guessing highlights.

    The file is looked up at each write, so a progress display may redirect stdout meanwhile.
    Everything it prints is made safe for a terminal (see :class:`_TerminalSafe`), and a reader
    that goes away raises ``BrokenPipeError`` for the command line to handle (rich's own choice
    would be exit status 1, which means "illegal move" here).
    """
    out = _Console(stderr=stderr, markup=False, emoji=False, highlight=False, soft_wrap=True)
    out.push_render_hook(_TerminalSafe())
    return out


class _Console(Console):
    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


class _TerminalSafe(RenderHook):
    """Escapes control characters in the text of everything printed (move texts, names and step
    texts come from input files); rich's own cursor and colour codes are left as they are."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Escaped(renderable) for renderable in renderables]


@dataclass(frozen=True, slots=True)
class _Escaped:
    inner: ConsoleRenderable

    def __rich_console__(self, out: Console, options: ConsoleOptions) -> RenderResult:
        for segment in out.render(self.inner, options):
            if segment.control is None and segment.text:
                yield Segment(terminal_safe(segment.text), segment.style)
            else:
                yield segment


# --- boards ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardView:
    """A position drawn as an 8x8 grid of Unicode pieces, white at the bottom.

    ``last_move`` (UCI, e.g. ``"e2e4"``) tints its two squares; when the side to move is in
    ``check`` its king's square is red. In colour the squares are shaded; in plain text empty
    squares are dots.
    """

    fen: str
    last_move: str | None = None
    check: bool = False

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Yield the board as rich text, one line per rank, then the files."""
        position = parse_fen(self.fen, chess960=None)  # a Chess960 game's X-FEN too
        marked = set()
        if self.last_move:
            marked = {SQUARE_NAMES.index(self.last_move[:2]), SQUARE_NAMES.index(self.last_move[2:4])}
        checked = -1
        if self.check:
            king = position.turn * 8 + KING
            checked = next((square for square in range(64) if position.squares[square] == king), -1)
        # NO_COLOR (or no colour system) strips the shading, so empty squares need their dots back.
        coloured = console.color_system is not None and not console.no_color
        text = Text()
        for rank in range(7, -1, -1):
            text.append(f"{rank + 1:>2} ")
            for file in range(8):
                square = rank * 8 + file
                text.append(*_cell(position.squares[square], square, square in marked, square == checked,
                                   coloured))
            text.append("\n")
        text.append(FILES_LINE, _FAINT)
        yield text


def _cell(code: int, square: int, marked: bool, checked: bool, coloured: bool) -> tuple[str, Style]:
    dark = (square // 8 + square % 8) % 2 == 0
    if checked:
        background = _CHECKED
    elif marked:
        background = _MOVED_DARK if dark else _MOVED_LIGHT
    else:
        background = _DARK if dark else _LIGHT
    # Without colour (NO_COLOR on a terminal) the last move and a checked king are shown in reverse video.
    standout = _STANDOUT if not coloured and (marked or checked) else _PLAIN
    if code:
        letter = " PNBRQK"[code & 7]
        glyph = GLYPHS[letter if code < 8 else letter.lower()]
        return f" {glyph} ", _PIECE + Style(bgcolor=background) + standout
    if coloured:
        return "   ", Style(bgcolor=background)
    return f" {EMPTY} ", _FAINT + standout


# --- move lines -----------------------------------------------------------------------------

_OK = Style(color="green", bold=True)
_BAD = Style(color="red", bold=True)
_NOTE = Style(color="yellow")


def move_line(report: MoveReport) -> Text:
    """One judged move: ``✓ ply  33  17. Rd8#     checkmate`` or ``✗ ply   7   4. Nf7  illegal: why``."""
    numbered = f"{report.number}." if report.colour == 0 else f"{report.number}..."
    text = Text()
    text.append("✓" if report.accepted else "✗", _OK if report.accepted else _BAD)
    text.append(f" ply {report.ply:>3}  {numbered:<6} ")
    if report.accepted:
        text.append(f"{report.san or report.text:<8}", Style(bold=True))
        note = _outcome_text(report.outcome) if report.outcome else ("check" if report.check else "")
        if note:
            text.append(" " + note, _BAD if report.outcome == "checkmate" else _NOTE)
        text.rstrip()
        return text
    text.append(f"{report.text:<8}", Style(bold=True))
    text.append(f" {report.kind or 'illegal'}: ", _BAD)
    text.append(report.reason or "")
    return text


def _outcome_text(outcome: str) -> str:
    return outcome.replace("_", " ")


# --- scenario steps -------------------------------------------------------------------------


STEP_WIDTH = 32
"""The column the answers of scenario steps line up at, after the step's text."""


def step_line(result: StepResult) -> Text:
    """One scenario step: ``✓ line  4  play e4   accepted e4``, or ✗ with what was expected and got.

    A step text too long for its column ends the line, and the answer goes on the next line in the
    answers' column, so the two never run together.
    """
    text = Text()
    text.append("✓" if result.ok else "✗", _OK if result.ok else _BAD)
    lead = f" line {result.line:>3}  "
    text.append(lead)
    if len(result.step) < STEP_WIDTH:
        text.append(f"{result.step:<{STEP_WIDTH}}", Style(bold=True))
    else:
        text.append(result.step, Style(bold=True))
        text.append("\n" + " " * (1 + len(lead) + STEP_WIDTH))
    if result.ok:
        text.append(" " + result.got, _FAINT)
    else:
        text.append(f" expected {result.expected}; got {result.got}", _BAD)
    return text


# --- summary --------------------------------------------------------------------------------


def headline(games: int, plies: int, illegal: int, failed: int = 0) -> str:
    """``"1 game, 33 plies, no illegal move"`` (and how many games a failure of the actors stopped)."""
    counted = f"{games} game{'s' if games != 1 else ''}, {plies} pl{'ies' if plies != 1 else 'y'}"
    if not illegal:
        line = f"{counted}, no illegal move"
    else:
        line = f"{counted}, {illegal} game{'s' if illegal != 1 else ''} stopped by an illegal move"
    if failed:
        line += f", {failed} game{'s' if failed != 1 else ''} stopped by a failure of the actors"
    return line


def summary_view(
    totals: tuple[int, int, int],
    counts: Mapping[str, int],
    latencies: Mapping[str, Sequence[int]],
    startup: tuple[int, int] = (0, 0),
    failed: int = 0,
) -> RenderableType:
    """The end of an actor replay: totals, messages delivered by kind, handling latency per actor kind.

    ``totals`` is (games, legal plies, games stopped by an illegal move); ``counts`` maps message
    kind to deliveries (most frequent first); ``latencies`` maps an actor role ('referee', 'board',
    'knight', ...) to its sorted handling times in ns; ``startup`` is (messages, ns) spent setting
    the games up before their first moves (shown apart, and counted in the totals too); ``failed``
    counts the games a failure of the actors stopped (not illegal: no move was judged).
    """
    delivered = sum(counts.values())
    messages = f"{delivered} message{'s' if delivered != 1 else ''} delivered"
    title = Text(f"summary: {headline(*totals, failed)}; {messages}", Style(bold=True))
    games = max(1, totals[0])
    setup = Text(
        f"start-up: {startup[0]} of those messages ({startup[0] / games:.0f} a game),"
        f" {startup[1] / 1e6:.1f} ms ({startup[1] / 1e6 / games:.2f} ms a game)"
    )
    kinds = Table(title="messages by kind", title_justify="left", box=box.SIMPLE_HEAD,
                  show_edge=False, padding=(0, 1))
    kinds.add_column("kind")
    kinds.add_column("count", justify="right")
    kinds.add_column("share", justify="right")
    for kind, count in counts.items():
        kinds.add_row(kind, str(count), f"{100 * count / delivered:.1f}%" if delivered else "-")
    timing = Table(title="handling latency by actor kind (µs)", title_justify="left", box=box.SIMPLE_HEAD,
                   show_edge=False, padding=(0, 1))
    timing.add_column("actor")
    timing.add_column("asks", justify="right")
    timing.add_column("median", justify="right")
    timing.add_column("p99", justify="right")
    # Busiest actor kinds first: where the messages go is where the time goes.
    for role, samples in sorted(latencies.items(), key=lambda item: (-len(item[1]), item[0])):
        if not samples:
            continue
        timing.add_row(role, str(len(samples)), f"{median(samples) / 1000:.1f}", f"{p99(samples) / 1000:.1f}")
    return Group(title, setup, kinds, timing)


# --- progress -------------------------------------------------------------------------------


def replay_progress(stdout_is_terminal: bool) -> Progress:
    """A progress display on stderr for many games: games, plies and illegal games so far.

    Lines printed to stdout meanwhile go above it when stdout is the same terminal; when stdout
    is redirected they are left alone (they must not end up on stderr).
    """
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console(stderr=True),
        transient=True,
        redirect_stdout=stdout_is_terminal,
        redirect_stderr=False,
    )


def explore_progress(stdout_is_terminal: bool) -> Progress:
    """A progress bar on stderr for ``explore``: the plies done of those chosen, the ply under way
    and its runs so far (stdout's lines go above it as for :func:`replay_progress`)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("plies"),
        TimeElapsedColumn(),
        console=console(stderr=True),
        transient=True,
        redirect_stdout=stdout_is_terminal,
        redirect_stderr=False,
    )


def progress_text(games: int, plies: int, illegal: int) -> str:
    """The progress line: ``games 12  plies 834  illegal 1``."""
    return f"games {games}  plies {plies}  illegal {illegal}"
