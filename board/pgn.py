"""A streaming PGN reader: games one at a time, each with its tags, its mainline moves as
written, and the first malformed thing in it named by line and column.

Memory stays constant however large the input: lines are read one by one, comments and
variations are skipped as they are lexed, and only the game being read is kept.

How a game ends, and how the reader finds the next one after an error (resynchronisation):

* A game ends at its result token (``1-0``, ``0-1``, ``1/2-1/2``, ``*``) outside variations.
* A line whose first non-blank character is ``[`` (outside a comment) begins a new game once
  the current game has left its tag section, i.e. once a line that is not a tag pair has been
  seen; blank lines do not end the tag section.
* After an error the rest of the game is still lexed (so comments and variations stay paired)
  but nothing more is recorded, until one of the two rules above starts the next game.
* A ``{`` comment still open when a whole line is a tag pair (``[Name "value"]``) is taken to
  be unterminated, and that line starts the next game: comments hardly ever hold such a line
  (clock and arrow commands like ``[%clk 0:01:00]`` are not tag pairs), and without this rule
  one missing ``}`` would swallow every later game in the file.

Leniency beyond the standard, each for files real programs write: castling with zeros and
promotion without ``=`` (see :func:`board.san_syntax.parse_san`), move numbers written
``1 .``, a line holding one tag pair whose value has unescaped quotes (python-chess writes
these; the value runs from the first quote to the last), and result tokens inside variations
(ignored). Moves inside variations are not checked at all, since annotators put null moves there.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final, NamedTuple

from board.errors import MoveSyntaxError, PgnError
from board.san_syntax import parse_san

RESULTS: Final[frozenset[str]] = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
"""The game-termination markers of PGN."""

_WHITESPACE: Final = " \t\r\n\f\v"

# One alternation lexes all movetext; it is matched token by token along each line, and the
# group that matched (``lastgroup``) says what the token is. Every character that is not
# whitespace matches some group, so nothing on a line is skipped unseen.
_TOKEN_RE: Final = re.compile(
    r"[ \t\r\f\v]*(?:"
    r"(?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[\s{}();\[\]$]|\Z))"
    # A move, with the move number before it if there is one: one match instead of two.
    r"|(?:[1-9][0-9]*\.*[ \t]*)?"
    r"(?P<word>(?!0-1(?:[\s{}();\[\]$]|\Z))[^\s{}();\[\]$.!?1-9][^\s{}();\[\]$.]*)"
    r"|(?P<number>[1-9][0-9]*\.*|\.+|\$[0-9]+|[!?]+)"  # numbers, dots, NAGs, annotations
    r"|(?P<comment>\{[^}]*(?P<closed>\})?)"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r"|(?P<nag>\$)"
    r"|(?P<rest>;.*)"
    r"|(?P<bad>\S))",
    re.ASCII,
)
_new_token: Final = tuple.__new__

_TAG_RE: Final = re.compile(r'[ \t]*\[[ \t]*([A-Za-z0-9_]+)[ \t]*"((?:[^"\\]|\\.)*)"[ \t]*\]')
_TAG_LINE_RE: Final = re.compile(_TAG_RE.pattern + r"[ \t\r\n]*\Z")
# Some writers (python-chess among them) leave quotes inside a value unescaped; on a line that
# holds one tag pair the value is still unambiguous: from the first quote to the last.
_LOOSE_TAG_LINE_RE: Final = re.compile(r'[ \t]*\[[ \t]*([A-Za-z0-9_]+)[ \t]*"(.*)"[ \t]*\][ \t]*\Z')
_TAG_START_RE: Final = re.compile(r'\[[ \t]*([A-Za-z0-9_]*)[ \t]*("(?:[^"\\]|\\.)*("?))?')
_ESCAPE_RE: Final = re.compile(r'\\(["\\])')


class MoveToken(NamedTuple):
    """One mainline move as written (annotations such as ``!?`` stripped) and where it stands.

    ``line`` and ``column`` are 1-based; a tab counts as one column.
    """

    text: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class PgnGame:
    """One game as read from PGN text: tags, mainline moves, result, and the first error.

    ``number`` counts games from 1 in the stream; ``tags`` keeps the order of appearance (a
    repeated name keeps its first place and its last value); ``result`` is the termination
    marker found in the movetext (None when missing), which may differ from the Result tag;
    ``first_line`` is where the game starts. When ``error`` is set, ``moves`` holds the moves
    before the error, so a replay plays them and reports the error at the next ply.
    """

    number: int
    tags: dict[str, str]
    moves: tuple[MoveToken, ...]
    result: str | None
    first_line: int
    error: PgnError | None


def read_games(source: Iterable[str], first_line: int = 1) -> Iterator[PgnGame]:
    """Read PGN games one by one from ``source``, in constant memory.

    ``source`` yields lines, with or without their line endings (a text file, ``io.StringIO``,
    or ``text.splitlines()``); an item holding several lines is split at ``\\n``, and a plain
    ``str`` is read as a whole text. CRLF endings, tabs and a leading byte-order mark are fine.

    Malformed PGN never raises: each game carries its first error in :attr:`PgnGame.error`,
    and reading goes on with the next game (see the module docstring for how it is found).
    """
    lines: Iterable[str] = io.StringIO(source) if isinstance(source, str) else source
    reader = _Reader(first_line)
    for item in lines:
        newline = item.find("\n")
        if 0 <= newline < len(item) - 1:
            parts = item.split("\n")
            if not parts[-1]:
                parts.pop()  # the ending of the item's last line, not a line of its own
            for part in parts:
                yield from reader.feed(part)
            continue
        finished = reader.feed(item)
        if finished:
            yield from finished
    yield from reader.finish()


def parse_game_text(text: str) -> PgnGame:
    """Read the one game in ``text``; with several, the first. Empty text gives an empty game.

    Like :func:`read_games`, this reports malformed PGN in :attr:`PgnGame.error`, never raises.
    """
    for game in read_games(text):
        return game
    return PgnGame(1, {}, (), None, 1, None)


def game_chunks(
    source: Iterable[str], games: int, max_chars: int | None = None, refuse_chars: int | None = None
) -> Iterator[tuple[int, list[str]]]:
    """Split a PGN line stream into runs of about ``games`` whole games, without lexing it.

    Yields (number of the run's first line, its lines). A run is cut before a line that is a
    whole tag pair coming after movetext, where :func:`read_games` always starts a new game (inside
    a comment or not), so ``read_games(lines, first_line)`` on each run reads exactly the games,
    errors and line numbers that reading the whole stream would.

    With ``max_chars``, a run of at least that many characters is also cut after a line that
    ends in a result, when nothing since the run began could open a comment, a variation or a
    tag (games without tags have no tag line to cut before); the reader is then between games.

    Raises:
        PgnError: a run has grown past ``refuse_chars`` characters with no place to cut.
    """
    lines: list[str] = []
    first, boundaries, movetext = 1, 0, False
    chars, plain = 0, True
    for number, line in enumerate(source, 1):
        lead = line.lstrip(" \t\ufeff" if number == 1 else " \t")[:1]
        if lead == "[":
            # Any such line may start a game (so what follows is tags again); only a whole tag
            # pair surely does, even inside a comment, so only there is a cut safe.
            if movetext and _TAG_LINE_RE.match(line.rstrip("\r\n")):
                boundaries += 1
                if boundaries >= games and lines:
                    yield first, lines
                    lines, first, boundaries, chars, plain = [], number, 0, 0, True
            movetext = False
        elif lead not in ("", "%", "\n", "\r") and line.strip(_WHITESPACE):
            movetext = True
        lines.append(line)
        if max_chars is not None:
            chars += len(line)
            plain = plain and _OPENS_SOMETHING_RE.search(line) is None
            if chars >= max_chars and plain and _ENDS_IN_RESULT_RE.search(line):
                yield first, lines
                lines, first, boundaries, chars, movetext = [], number + 1, 0, 0, False
            elif refuse_chars is not None and chars > refuse_chars:
                raise PgnError(f"{chars:,} characters since line {first} with no place to cut between "
                               f"games (a tag line, or a result outside comments and variations)",
                               number, 1)
    if lines:
        yield first, lines


_OPENS_SOMETHING_RE: Final = re.compile(r"[{}();%\[\]\\\ufeff]")
"""What could leave the reader inside a comment, a variation or tags at the end of a line."""
_ENDS_IN_RESULT_RE: Final = re.compile(r"(?:\A|[ \t])(?:1-0|0-1|1/2-1/2|\*)[ \t]*\r?\n?\Z")


_NOTHING: Final[tuple[PgnGame, ...]] = ()


class _Reader:
    """The reader's state between lines: the game being read and where the lexer stands."""

    def __init__(self, first_line: int = 1) -> None:
        self.line_number = first_line - 1
        self.games_read = 0
        self.in_comment = False
        self.comment_at = (0, 0)
        self._new_game()

    def _new_game(self) -> None:
        self.started = False
        self.in_tags = False
        self.first_line = 0
        self.tags: dict[str, str] = {}
        self.moves: list[MoveToken] = []
        self.result: str | None = None
        self.error: PgnError | None = None
        self.depth = 0
        self.variation_at = (0, 0)

    def _start(self, in_tags: bool) -> None:
        self.started = True
        self.in_tags = in_tags
        self.first_line = self.line_number

    def _fail(self, message: str, line: int, column: int) -> None:
        # Only the first error counts: what follows a malformed spot is often its echo.
        if self.error is None:
            self.error = PgnError(message, line, column)

    def _finish(self) -> PgnGame | None:
        """Close the current game and return it (None when nothing of a game was seen)."""
        if not self.started:
            self._new_game()
            return None
        if self.depth:
            line, column = self.variation_at
            self._fail("this variation '(' is never closed", line, column)
        self.games_read += 1
        game = PgnGame(
            self.games_read,
            self.tags,
            tuple(self.moves),
            self.result,
            self.first_line,
            self.error,
        )
        self._new_game()
        return game

    def feed(self, line: str) -> tuple[PgnGame, ...]:
        """Read one line; return the games it finished (usually none)."""
        self.line_number += 1
        line = line.rstrip("\r\n")
        if self.line_number == 1 and line.startswith("\ufeff"):
            line = line[1:]
        finished: list[PgnGame] = []
        position = 0
        if self.in_comment:
            end = line.find("}")
            if end >= 0:
                self.in_comment = False
                position = end + 1
            elif _TAG_LINE_RE.match(line):
                self._unterminated_comment(finished)
            else:
                return _NOTHING
        if position == 0:  # a whole line, not the rest of one after a comment closed
            if line[:1] == "%" or not line.strip(_WHITESPACE):
                return tuple(finished)
            if line.lstrip(" \t")[:1] == "[":
                if self.started and not self.in_tags:
                    self._collect(finished)
                if not self.started:
                    self._start(in_tags=True)
                self._read_tags(line)
                return tuple(finished)
            self.in_tags = False
        while (position := self._lex(line, position)) >= 0:
            self._collect(finished)
        return tuple(finished) if finished else _NOTHING

    def finish(self) -> tuple[PgnGame, ...]:
        """End of input: close a comment or game left open and return what it finished."""
        finished: list[PgnGame] = []
        if self.in_comment:
            self._unterminated_comment(finished)
        self._collect(finished)
        return tuple(finished)

    def _collect(self, finished: list[PgnGame]) -> None:
        game = self._finish()
        if game is not None:
            finished.append(game)

    def _unterminated_comment(self, finished: list[PgnGame]) -> None:
        self.in_comment = False
        line, column = self.comment_at
        if not self.started:
            # A comment between games that never ends is still reported, as a game of its own.
            self.started, self.first_line = True, line
        self._fail("this comment '{' is never closed (no matching '}')", line, column)
        self._collect(finished)

    def _read_tags(self, line: str) -> None:
        """Read the tag pairs on one line; anything else on it is an error for this game."""
        tags = self.tags
        position = 0
        while (match := _TAG_RE.match(line, position)) is not None:
            tags[match[1]] = _unescape(match[2])
            position = match.end()
        if position == 0 and (loose := _LOOSE_TAG_LINE_RE.match(line)) is not None:
            tags[loose[1]] = _unescape(loose[2])
            return
        rest = line[position:]
        stripped = rest.lstrip(_WHITESPACE)
        if not stripped or stripped[0] == ";":
            return
        column = position + len(rest) - len(stripped) + 1
        self._fail(_tag_problem(stripped), self.line_number, column)

    def _lex(self, line: str, position: int) -> int:
        """Lex movetext from ``position``: -1 when the line is used up, else the position just
        after a result that ended the game (the caller closes the game and lexes on from there).
        """
        line_number = self.line_number
        moves = self.moves
        # Kept in a local because it is read for every move: mainline, no error yet.
        recording = self.started and not self.depth and self.error is None
        for match in _TOKEN_RE.finditer(line, position):
            kind = match.lastgroup or "bad"  # never None: every alternative is a named group
            if kind == "word":
                if not recording:
                    if self.started:
                        # In a variation (skipped unchecked: annotators put null moves
                        # there) or after the game's error: nothing more is recorded.
                        continue
                    self._start(in_tags=False)
                    recording = True
                text = match.group(kind).rstrip("!?")
                column = match.start(kind) + 1
                try:
                    parse_san(text)
                except MoveSyntaxError as error:
                    self._fail(str(error), line_number, column)
                    recording = False
                    continue
                moves.append(_new_token(MoveToken, (text, line_number, column)))
                continue
            if kind == "comment":
                if match.group("closed") is None:
                    self.in_comment = True
                    self.comment_at = (line_number, match.start(kind) + 1)
                continue
            if kind == "rest":  # a ';' comment runs to the end of the line
                continue
            if not self.started:
                self._start(in_tags=False)
                recording = True
            if kind == "number" or kind == "annotation":
                continue
            column = match.start(kind) + 1
            if kind == "result":
                if not self.depth:
                    self.result = match.group(kind)
                    return match.end()
            elif kind == "open":
                self.depth += 1
                if self.depth == 1:
                    self.variation_at = (line_number, column)
            elif kind == "close":
                if self.depth:
                    self.depth -= 1
                else:
                    self._fail("')' closes no variation", line_number, column)
            elif kind == "nag":
                self._fail("'$' must be followed by a number", line_number, column)
            else:
                char = match.group(kind)
                reason = (
                    "a tag pair '[' inside the moves (tags come before the moves)"
                    if char == "["
                    else f"{char!r} cannot appear in the moves"
                )
                self._fail(reason, line_number, column)
            recording = not self.depth and self.error is None
        return -1


def _unescape(value: str) -> str:
    return _ESCAPE_RE.sub(r"\1", value) if "\\" in value else value


def _tag_problem(text: str) -> str:
    """Say what is wrong with text on a tag line that is not a well-formed tag pair."""
    match = _TAG_START_RE.match(text)
    if match is None:
        return f"unexpected text after a tag pair: {_shown(text)!r}"
    name, quoted, closing = match[1], match[2], match[3]
    if not name:
        return 'a tag pair starts with its name, e.g. [Event "..."]'
    if quoted is None:
        return f'tag {name}: the value must be in double quotes, e.g. [{name} "..."]'
    if not closing:
        return f"tag {name}: the value has no closing '\"' (a tag pair ends on its line)"
    return f"tag {name}: the tag pair has no closing ']'"


def _shown(text: str) -> str:
    return text if len(text) <= 30 else text[:27] + "..."
