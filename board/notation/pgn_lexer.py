"""The PGN lexer's state machine: lines (or pieces of long lines) in, whole games out.

Used through board.notation.pgn, whose docstring gives the grammar, how games end, how the reader finds
the next game after an error, the character-set rule and the limits.
"""

from __future__ import annotations

import re
from typing import Final

from board.errors import MoveSyntaxError, PgnError
from board.notation.pgn_game import LIMITS, MoveToken, PgnGame, PgnLimits
from board.notation.san_syntax import parse_san

WHITESPACE: Final = " \t\r\n\f\v"

# How the text of a piece was decoded (board.notation.pgn.read_games): already text, pure ASCII, UTF-8
# with other characters (read as Latin-1 first and turned into UTF-8 when the whole game is
# valid UTF-8), or bytes that are not UTF-8 (the game stays Latin-1).
TEXT, ASCII, UTF8, LATIN1 = 0, 1, 2, 3

# One alternation lexes all movetext; it is matched token by token along each piece, and the
# group that matched (``lastgroup``) says what the token is. Every character that is not
# whitespace matches some group, so nothing is skipped unseen.
_TOKEN_RE: Final = re.compile(
    r"[ \t\r\f\v]*(?:"
    r"(?P<result>(?:1-0|0-1|1/2-1/2|\*)(?=[\s{}();\[\]$]|\Z))"
    # A move, with its move number in front when it has one: one match instead of two. The
    # number is atomic: ``10.`` at the end of a line never gives back its ``0`` to be read as a
    # move, and a word never starts with a digit 1-9 or ``*``, so ``2. *`` is a number and a result.
    r"|(?>[1-9][0-9]*\.*[ \t]*)?"
    r"(?P<word>(?!0-1(?:[\s{}();\[\]$]|\Z))[^\s{}();\[\]$.!?*1-9][^\s{}();\[\]$]*)"
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
TAG_LINE_RE: Final = re.compile(_TAG_RE.pattern + r"[ \t\r\n]*\Z")
# Some writers (python-chess among them) leave quotes inside a value unescaped; on a line that
# holds one tag pair the value is still unambiguous: from the first quote to the last.
_LOOSE_TAG_LINE_RE: Final = re.compile(r'[ \t]*\[[ \t]*([A-Za-z0-9_]+)[ \t]*"(.*)"[ \t]*\][ \t]*\Z')
_TAG_START_RE: Final = re.compile(r'\[[ \t]*([A-Za-z0-9_]*)[ \t]*("(?:[^"\\]|\\.)*("?))?')
_ESCAPE_RE: Final = re.compile(r'\\(["\\])')
_NOTHING: Final[tuple[PgnGame, ...]] = ()


class Reader:
    """The reader's state between pieces: the game being read and where the lexer stands."""

    def __init__(self, first_line: int = 1, source: str | None = None, limits: PgnLimits = LIMITS) -> None:
        self.line_number = first_line - 1
        self.source = source
        self.limits = limits
        self.games_read = 0
        self.column_offset = 0  # characters of the current line in earlier pieces
        self.consumed = 0  # characters fed before the current piece (for the game-size limit)
        self.skip_line = False  # the rest of the current line is a ';' comment, escape or bad tag line
        self.in_tag_line = False
        self.charset = TEXT
        self.raw = b""
        self.counted = (0, 0)  # (position, characters before it) in the current UTF-8 piece
        self.in_comment = False
        self.comment_at = (0, 0)
        self.comment_start = 0
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
        self.game_start = 0
        self.full = False  # past the game-size limit: nothing more is kept
        self.game_charset = TEXT

    def _start(self, in_tags: bool, position: int) -> None:
        self.started = True
        self.in_tags = in_tags
        self.first_line = self.line_number
        self.game_start = self.consumed + position
        self.game_charset = self.charset

    def _fail(self, message: str, line: int, column: int, token: str = "") -> None:
        # Only the first error counts: what follows a malformed spot is often its echo.
        if self.error is None:
            self.error = PgnError(message, line, column, token, self.source)

    def _column(self, position: int) -> int:
        """The 1-based column of ``position`` in the current piece, in characters of the line.

        In a UTF-8 piece the characters are counted from the last position asked (positions come
        in order along a piece), so a piece costs one pass however many columns it reports.
        """
        if self.charset == UTF8:
            counted_to, characters = self.counted
            if position < counted_to:
                counted_to, characters = 0, 0
            characters += len(self.raw[counted_to:position].decode("utf-8", "replace"))
            self.counted = (position, characters)
            position = characters
        return self.column_offset + position + 1

    def _finish(self) -> PgnGame | None:
        """Close the current game and return it (None when nothing of a game was seen)."""
        if not self.started:
            self._new_game()
            return None
        if self.depth:
            line, column = self.variation_at
            self._fail("this variation '(' is never closed", line, column, "(")
        self.games_read += 1
        tags, error = self.tags, self.error
        if self.game_charset == UTF8:  # valid UTF-8 throughout, read as Latin-1 until now
            tags = {name: _as_utf8(value) for name, value in tags.items()}
            if error is not None:
                error = PgnError(_as_utf8(error.detail), error.line, error.column, _as_utf8(error.token),
                                 error.source)
        game = PgnGame(self.games_read, tags, tuple(self.moves), self.result, self.first_line, error,
                       self.source)
        self._new_game()
        return game

    def feed(self, text: str, starts_line: bool = True, ends_line: bool = True,
             charset: int = TEXT, raw: bytes = b"") -> tuple[PgnGame, ...]:
        """Read one line, or one piece of a long line; return the games it finished (usually none).

        ``text`` carries no line ending. A piece that does not start a line continues the one
        before it; ``charset`` and ``raw`` (the piece's bytes) say how it was decoded.
        """
        if starts_line:
            self.line_number += 1
            self.column_offset = 0
            self.skip_line = self.in_tag_line = False
        self.charset, self.raw = charset, raw
        self.counted = (0, 0)
        if self.started and charset > self.game_charset:
            self.game_charset = charset
        finished: list[PgnGame] = []
        try:
            self._feed(text, starts_line, ends_line, finished)
        finally:
            if charset == UTF8:
                self.column_offset += len(raw.decode("utf-8", "replace"))
            else:
                self.column_offset += len(text)
            self.consumed += len(text) + ends_line
        self._check_game_size()
        return tuple(finished) if finished else _NOTHING

    def blank_lines(self, count: int, characters: int) -> None:
        """Read ``count`` whole lines of nothing but whitespace, ``characters`` long with their
        endings, at once: what :meth:`feed` does with each of them, in constant time."""
        self.line_number += count
        self.column_offset = 0
        self.skip_line = self.in_tag_line = False
        self.consumed += characters
        if self.in_comment:
            self._check_comment(self.consumed - 1)  # as feed: up to the last line, not its ending
        # A game that grows past its limit in the run is named at the run's last line.
        self._check_game_size()

    def _check_game_size(self) -> None:
        if self.started and not self.full and self.consumed - self.game_start > self.limits.game_bytes:
            self.full = True
            self._fail(f"the game is longer than {self.limits.game_bytes:,} bytes (the limit)",
                       self.line_number, self.column_offset)

    def _feed(self, text: str, starts_line: bool, ends_line: bool, finished: list[PgnGame]) -> None:
        if self.skip_line:
            return
        if self.in_tag_line:  # a tag line too long for one piece goes on
            self._read_tags(text, ends_line)
            return
        position = 0
        if self.in_comment:
            end = text.find("}")
            if end >= 0:
                self.in_comment = False
                self._check_comment(self.consumed + end + 1)
                position = end + 1
            elif starts_line and ends_line and TAG_LINE_RE.match(text):
                self._unterminated_comment(finished)
            else:
                self._check_comment(self.consumed + len(text))  # said once it is past, not at its end
                return
        if position == 0 and starts_line:  # a whole line, not what follows a comment's end
            if text[:1] == "%":
                self.skip_line = not ends_line
                return
            if not text.strip(WHITESPACE):
                return
            if text.lstrip(" \t")[:1] == "[":
                if self.started and not self.in_tags:
                    self._collect(finished)
                if not self.started:
                    self._start(in_tags=True, position=0)
                self.in_tag_line = True
                self._read_tags(text, ends_line)
                return
            self.in_tags = False
        # Trailing blanks are left out: where the text ends every token fails, and the search would
        # start again from each blank, scanning the rest each time (quadratic in the blanks).
        end = len(text.rstrip(_NOT_NEWLINE_SPACE))
        while (position := self._lex(text, position, end, ends_line)) >= 0:
            self._collect(finished)

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
        self._fail("this comment '{' is never closed (no matching '}')", line, column, "{")
        self._collect(finished)

    def _check_comment(self, end: int) -> None:
        """The comment that began at ``comment_start`` ends at ``end``: within the limit?"""
        if end - self.comment_start > self.limits.comment:
            line, column = self.comment_at
            self._fail(f"a comment longer than {self.limits.comment:,} characters (the limit)",
                       line, column, "{")

    def _read_tags(self, line: str, ends_line: bool) -> None:
        """Read the tag pairs on one line; anything else on it is an error for this game."""
        tags = self.tags
        keep = not self.full
        position = 0
        while (match := _TAG_RE.match(line, position)) is not None:
            if len(match[2]) > self.limits.tag_value:
                self._tag_too_long(match[1], match.start())
            elif keep:
                tags[match[1]] = _unescape(match[2])
            position = match.end()
        if position == 0 and ends_line and (loose := _LOOSE_TAG_LINE_RE.match(line)) is not None:
            if len(loose[2]) > self.limits.tag_value:
                self._tag_too_long(loose[1], 0)
            elif keep:
                tags[loose[1]] = _unescape(loose[2])
            return
        rest = line[position:]
        stripped = rest.lstrip(_NOT_NEWLINE_SPACE)
        if not stripped:
            return
        if stripped[0] == ";":
            self.skip_line = not ends_line
            return
        column = self._column(position + len(rest) - len(stripped))
        start = _TAG_START_RE.match(stripped)
        if not ends_line and start is not None and start[2] is not None and not start[3]:
            # A value still open where the piece ends: it runs past the longest piece there is.
            self._tag_too_long(start[1], position + len(rest) - len(stripped))
        else:
            self._fail(_tag_problem(stripped), self.line_number, column, _first_word(stripped))
        self.skip_line = not ends_line  # the rest of a broken tag line cannot be read

    def _tag_too_long(self, name: str, position: int) -> None:
        self._fail(f"tag {name}: the value is longer than {self.limits.tag_value:,} characters (the limit)",
                   self.line_number, self._column(position), "[")

    def _lex(self, line: str, position: int, end: int, ends_line: bool) -> int:
        """Lex movetext from ``position`` to ``end``: -1 when the piece is used up, else the position
        just after a result that ended the game (the caller closes the game and lexes on from there).
        """
        line_number = self.line_number
        moves = self.moves
        plain = self.charset != UTF8  # columns are positions plus the offset
        offset = self.column_offset + 1
        token_limit = self.limits.token
        # Kept in a local because it is read for every move: mainline, no error yet.
        recording = self.started and not self.depth and self.error is None
        for match in _TOKEN_RE.finditer(line, position, end):
            kind = match.lastgroup or "bad"  # never None: every alternative is a named group
            if kind == "word":
                if not recording:
                    if self.started:
                        # In a variation (skipped unchecked: annotators put null moves
                        # there) or after the game's error: nothing more is recorded.
                        continue
                    self._start(in_tags=False, position=match.start())
                    recording = True
                text = match.group(kind)
                column = match.start(kind) + offset if plain else self._column(match.start(kind))
                if len(text) > token_limit:
                    self._token_too_long(text, column)
                    recording = False
                    continue
                text = text.rstrip("!?")
                try:
                    parse_san(text)
                except MoveSyntaxError as error:
                    self._fail(str(error), line_number, column, text)
                    recording = False
                    continue
                if len(moves) >= self.limits.plies:
                    self._fail(f"more than {self.limits.plies:,} plies in one game (the limit)",
                               line_number, column, text)
                    recording = False
                    continue
                moves.append(_new_token(MoveToken, (text, line_number, column)))
                continue
            if kind == "comment":
                if match.group("closed") is None:
                    self.in_comment = True
                    self.comment_at = (line_number, self._column(match.start(kind)))
                    self.comment_start = self.consumed + match.start(kind)
                elif match.end() - match.start(kind) > self.limits.comment:
                    self.comment_at = (line_number, self._column(match.start(kind)))
                    self.comment_start = self.consumed + match.start(kind)
                    self._check_comment(self.consumed + match.end())
                    recording = recording and self.error is None
                continue
            if kind == "rest":  # a ';' comment runs to the end of the line
                self.skip_line = not ends_line
                continue
            if not self.started:
                self._start(in_tags=False, position=match.start())
                recording = True
            if kind == "number":
                if match.end() - match.start(kind) > token_limit:
                    self._token_too_long(match.group(kind), self._column(match.start(kind)))
                continue
            column = self._column(match.start(kind))
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
                    self._fail("')' closes no variation", line_number, column, ")")
            elif kind == "nag":
                self._fail("'$' must be followed by a number", line_number, column, "$")
            else:
                char = match.group(kind)
                reason = (
                    "a tag pair '[' inside the moves (tags come before the moves)"
                    if char == "["
                    else f"{char!r} cannot appear in the moves"
                )
                self._fail(reason, line_number, column, char)
            recording = not self.depth and self.error is None
        return -1

    def _token_too_long(self, text: str, column: int) -> None:
        self._fail(f"{_shown(text)}: a token longer than {self.limits.token:,} characters (the limit)",
                   self.line_number, column, _shown(text))


_NOT_NEWLINE_SPACE: Final = " \t\r\f\v"


def _unescape(value: str) -> str:
    return _ESCAPE_RE.sub(r"\1", value) if "\\" in value else value


def _as_utf8(text: str) -> str:
    """Text read as Latin-1 from bytes that are valid UTF-8, as the UTF-8 it was."""
    if text.isascii():
        return text
    try:
        return text.encode("latin-1").decode("utf-8")
    except UnicodeError:  # not from the bytes (e.g. a message of ours): leave it as it is
        return text


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


def _first_word(text: str) -> str:
    """The offending text on a tag line as written, up to the first blank (shortened if long)."""
    return _shown(text.split(None, 1)[0] if text.split() else text)


def _shown(text: str) -> str:
    return text if len(text) <= 30 else text[:27] + "..."
