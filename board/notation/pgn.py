"""A streaming PGN reader: games one at a time, each with its tags, its mainline moves as
written, and the first malformed thing in it named by file, line and column.

Memory stays bounded however large or strange the input: lines are read one by one (a long line
in pieces), comments and variations are skipped as they are lexed, only the game being read is
kept, and every part of a game has a limit (:class:`board.notation.pgn_game.PgnLimits`). Time is linear
in the input.

The grammar, as the PGN standard (section 8) has it: tag pairs ``[Name "value"]`` (``\\`` and
``\"`` escaped), then movetext: move numbers with one or more dots (``10.``, ``10...``), SAN
moves with optional ``!?`` annotations, ``$n`` NAGs, ``{}`` comments (over lines, not nested),
``;`` comments to the end of the line, ``( )`` variations (nested, skipped unchecked), a result
(``1-0``, ``0-1``, ``1/2-1/2``, ``*``), and ``%`` escape lines. Tokens need no space between them
where the standard does not ask for one (``1.e4``, ``10...Nf6``, ``e4{note}(``), and any amount
of whitespace and line breaks may stand between any two tokens.

How a game ends, and how the reader finds the next one after an error (resynchronisation):

* A game ends at its result token outside variations.
* A line whose first non-blank character is ``[`` (outside a comment) begins a new game once
  the current game has left its tag section, i.e. once a line that is not a tag pair has been
  seen; blank lines do not end the tag section.
* After an error the rest of the game is still lexed (so comments and variations stay paired)
  but nothing more is recorded, until one of the two rules above starts the next game.
* A ``{`` comment still open when a whole line is a tag pair (``[Name "value"]``) is taken to
  be unterminated, and that line starts the next game: comments hardly ever hold such a line
  (clock and arrow commands like ``[%clk 0:01:00]`` are not tag pairs), and without this rule
  one missing ``}`` would swallow every later game in the file.

Character sets, for bytes: a game is read as UTF-8 when every line it touches is valid UTF-8,
and as Latin-1 (PGN's own character set, which any byte string is) otherwise; the choice is
made game by game, so one stray Latin-1 game does not change how the others read. Columns count
the characters of a line. Text (``str``) input is taken as it is.

Leniency beyond the standard, each for files real programs write: castling with zeros and
promotion without ``=`` (see :func:`board.notation.san_syntax.parse_san`), move numbers written
``1 .``, a line holding one tag pair whose value has unescaped quotes (python-chess writes
these; the value runs from the first quote to the last), and result tokens inside variations
(ignored). Moves inside variations are not checked at all, since annotators put null moves there.
"""

from __future__ import annotations

import io
import re
from collections import deque
from collections.abc import Generator, Iterable, Iterator
from itertools import chain
from typing import Final, cast

from board.notation.pgn_game import LIMITS, RESULTS, MoveToken, PgnGame, PgnLimits
from board.notation.pgn_lexer import ASCII, LATIN1, TAG_LINE_RE, UTF8, WHITESPACE, Reader

__all__ = ["LIMITS", "RESULTS", "MoveToken", "PgnGame", "PgnLimits", "game_chunks", "line_pieces",
           "parse_game_text", "read_games"]

_BOM: Final = b"\xef\xbb\xbf"
_BLANKS: Final = frozenset(WHITESPACE.encode("ascii"))
_TAG_LINE_BYTES_RE: Final = re.compile(TAG_LINE_RE.pattern.encode("ascii"))


def read_games(source: Iterable[str] | Iterable[bytes], first_line: int = 1, name: str | None = None,
               limits: PgnLimits = LIMITS) -> Iterator[PgnGame]:
    """Read PGN games one by one from ``source``, in bounded memory.

    ``source`` yields either text or bytes. Text items are lines, with or without their line
    endings (a text file, ``io.StringIO``, ``text.splitlines()``); an item holding several lines
    is split at ``\\n``, and a plain ``str`` is read as a whole text. Bytes items are the stream
    itself in blocks of any size (a binary file, ``iter(partial(f.read, 65536), b"")``), decoded
    by the character-set rule of the module docstring; a line longer than
    ``limits.piece_bytes`` is read in pieces. CRLF endings, tabs and a leading byte-order mark
    are fine. ``first_line`` numbers the first line; ``name`` (a file name) is put in every
    error and in :attr:`PgnGame.source`.

    Malformed PGN never raises: each game carries its first error in :attr:`PgnGame.error`,
    and reading goes on with the next game (see the module docstring for how it is found).

    Args:
        source: the PGN, as lines of text or blocks of bytes (see above).
        first_line: the number of the first line, for messages.
        name: the source's name (a path), for messages.
        limits: bounds on games, plies, tags, tokens and comments (see :class:`PgnLimits`).

    Yields:
        Each game in turn, with its tags, its moves and its first error (if any).
    """
    reader = Reader(first_line, name, limits)
    items: Iterable[str] | Iterable[bytes] = io.StringIO(source) if isinstance(source, str) else source
    iterator = iter(items)
    first = next(iterator, None)
    if first is None:
        return
    if isinstance(first, bytes):
        blocks = chain([first], cast(Iterator[bytes], iterator))
        yield from _read_bytes(reader, blocks, first_line == 1)
    else:
        yield from _read_text(reader, chain([cast(str, first)], cast(Iterator[str], iterator)))
    yield from reader.finish()


def _read_text(reader: Reader, lines: Iterable[str]) -> Iterator[PgnGame]:
    first = True
    for item in lines:
        if first:
            first = False
            if reader.line_number == 0 and item.startswith("\ufeff"):
                item = item[1:]
        newline = item.find("\n")
        if 0 <= newline < len(item) - 1:
            parts = item.split("\n")
            if not parts[-1]:
                parts.pop()  # the ending of the item's last line, not a line of its own
            for part in parts:
                yield from reader.feed(part.rstrip("\r"))
            continue
        finished = reader.feed(item.rstrip("\r\n"))
        if finished:
            yield from finished


def _read_bytes(reader: Reader, blocks: Iterable[bytes], at_start: bool) -> Iterator[PgnGame]:
    feed = reader.feed
    starts_line = True
    # Blank lines not yet passed to the reader, and their characters: a run of them is passed at
    # once, so that a file of blank lines reads as fast as the lines can be cut.
    blank = characters = 0
    for piece, ends_line in line_pieces(blocks, reader.limits.piece_bytes, at_start):
        if starts_line and ends_line and (not piece or (piece[0] in _BLANKS and not piece.strip())):
            blank += 1
            characters += len(piece.rstrip(b"\r")) + 1
            continue
        if blank:
            reader.blank_lines(blank, characters)
            blank = characters = 0
        text = piece.decode("latin-1")
        if ends_line:
            text = text.rstrip("\r")
        if piece.isascii():
            finished = feed(text, starts_line, ends_line, ASCII)
        else:
            finished = feed(text, starts_line, ends_line, _charset(piece), piece)
        starts_line = ends_line
        if finished:
            yield from finished
    if blank:
        reader.blank_lines(blank, characters)


def _charset(piece: bytes) -> int:
    try:
        piece.decode("utf-8")
    except UnicodeDecodeError:
        return LATIN1
    return UTF8


def line_pieces(blocks: Iterable[bytes], piece_bytes: int = LIMITS.piece_bytes,
                at_start: bool = True) -> Iterator[tuple[bytes, bool]]:
    """Cut a byte stream given in blocks into lines, each ``(bytes without the newline, True)``.

    A line longer than ``piece_bytes`` comes in pieces ``(piece, False)`` then a last ``(piece,
    True)``; each piece is cut after a space or tab in the second half of the window when there
    is one (so no movetext token is split), else at a character boundary. Memory: one block
    plus one piece. A byte order mark at the very start is dropped when ``at_start``.
    """
    parts: list[bytes] = []  # the start of a line not ended yet, in the blocks it came in
    held = 0
    for block in blocks:
        if at_start:
            at_start = False
            if block.startswith(_BOM):
                block = block[3:]
        lines = block.split(b"\n")
        tail = lines.pop()
        if lines:
            if parts:
                parts.append(lines[0])
                lines[0] = b"".join(parts)
                parts, held = [], 0
            for line in lines:
                if len(line) > piece_bytes:
                    rest = yield from _long_line(line, piece_bytes)
                    yield rest, True
                else:
                    yield line, True
        if tail:
            parts.append(tail)
            held += len(tail)
            if held > piece_bytes:
                rest = yield from _long_line(b"".join(parts), piece_bytes)
                parts, held = [rest], len(rest)
    if parts:
        line = b"".join(parts)
        if len(line) > piece_bytes:
            line = yield from _long_line(line, piece_bytes)
        yield line, True


def _long_line(line: bytes, piece_bytes: int) -> Generator[tuple[bytes, bool], None, bytes]:
    """Yield the pieces of ``line`` that fill ``piece_bytes``; return what is left (shorter)."""
    start = 0
    while len(line) - start > piece_bytes:
        end = start + piece_bytes
        # After the last blank of the window's second half, so pieces stay large (a blank near
        # the start of a long tag value must not leave a piece too short to show the problem).
        half = start + piece_bytes // 2
        cut = max(line.rfind(b" ", half, end), line.rfind(b"\t", half, end)) + 1
        if cut <= half:
            cut = end
            while cut > start + 1 and line[cut] & 0xC0 == 0x80:  # inside a UTF-8 character
                cut -= 1
        yield line[start:cut], False
        start = cut
    return line[start:]


def parse_game_text(text: str) -> PgnGame:
    """Read the one game in ``text``; with several, the first. Empty text gives an empty game.

    Like :func:`read_games`, this reports malformed PGN in :attr:`PgnGame.error`, never raises.
    """
    for game in read_games(text):
        return game
    return PgnGame(1, {}, (), None, 1, None)


def game_chunks(
    source: Iterable[bytes],
    games: int,
    piece_bytes: int = LIMITS.piece_bytes,
    max_bytes: int | None = None,
    refuse_bytes: int | None = None,
) -> Iterator[tuple[int, list[bytes] | Iterator[bytes]]]:
    """Split a PGN byte stream into runs of about ``games`` whole games, without lexing it.

    Yields (number of the run's first line, its bytes). A run is cut only before a line that is
    a whole tag pair coming after movetext, where :func:`read_games` always starts a new game
    (inside a comment or not), so ``read_games(run, first_line)`` on each run reads exactly the
    games, errors and line numbers that reading the whole stream would.

    With ``max_bytes``, a run of at least that many bytes is also cut at the end of a line where
    the reader is between games (games without tags have no tag line to cut before): after a line
    that ends in a result when nothing since the run began could open a comment, a variation or a
    tag, and otherwise (comments, variations) where the lexer itself, fed the run's lines, stands
    between games outside any comment. So games that open with a comment are cut like any others,
    and games without tags are counted at those places too: a run is cut there once it holds
    ``games`` ends of games (a file of tiny tagless games made runs of millions of games before).

    With ``refuse_bytes``, a run that grows past that many bytes with no place to cut (one game of
    more than that, a comment never closed) is not held whole: it is yielded, last, as an iterator
    over the rest of the stream (the run's bytes so far, then every byte after them), to be read
    where it is, as a reader of the whole stream would read it from the run's first line.
    """
    run: list[bytes] = []
    first = number = 1
    boundaries, movetext, starts_line = 0, False, True
    size, plain, ended = 0, True, 0
    lexer: _RunLexer | None = None  # where the plain test cannot tell, the lexer follows the run
    pieces = iter(line_pieces(source, piece_bytes))
    for piece, ends_line in pieces:
        if starts_line:
            lead = piece.lstrip(b" \t")[:1]
            if lead == b"[":
                # Any such line may start a game (so what follows is tags again); only a whole
                # tag pair surely does, even inside a comment, so only there is a cut safe.
                if movetext and ends_line and _TAG_LINE_BYTES_RE.match(piece.rstrip(b"\r")):
                    boundaries += 1
                    if boundaries >= games and run:
                        yield first, run
                        run, first, boundaries, size, plain, lexer, ended = [], number, 0, 0, True, None, 0
                movetext = False
            elif lead not in (b"", b"%", b"\r") and piece.strip(WHITESPACE.encode()):
                movetext = True
        run.append(piece + b"\n" if ends_line else piece)
        if ends_line:
            number += 1
        starts_line = ends_line
        if max_bytes is None:
            continue
        size += len(piece) + ends_line
        if plain and _OPENS_SOMETHING_RE.search(piece) is not None:
            plain = False
            lexer = _RunLexer(piece_bytes)
            lexer.feed_all(run[:-1])  # the run so far, this line's start included
        if lexer is not None:
            lexer.feed(piece, starts_line=len(run) == 1 or run[-2].endswith(b"\n"), ends_line=ends_line)
        between = lexer.between_games() if lexer is not None else bool(_ENDS_IN_RESULT_RE.search(piece))
        ended += ends_line and between
        if ends_line and between and (size >= max_bytes or ended >= games):
            yield first, run
            run, first, boundaries, size, movetext, plain, lexer = [], number, 0, 0, False, True, None
            ended = 0
        elif refuse_bytes is not None and size > refuse_bytes:
            yield first, _rest_of_stream(run, pieces)
            return
    if run:
        yield first, run


def _rest_of_stream(held: list[bytes], pieces: Iterator[tuple[bytes, bool]]) -> Iterator[bytes]:
    """The pieces ``held``, each let go once read, then the rest of ``pieces`` as lines."""
    queue = deque(held)
    held.clear()
    while queue:
        yield queue.popleft()
    for piece, ends_line in pieces:
        yield piece + b"\n" if ends_line else piece


class _RunLexer:
    """The PGN lexer following a run's lines, to tell where it stands between games."""

    def __init__(self, piece_bytes: int) -> None:
        self.reader = Reader(limits=PgnLimits(piece_bytes=piece_bytes))

    def feed_all(self, pieces: list[bytes]) -> None:
        starts_line = True
        for piece in pieces:
            ends_line = piece.endswith(b"\n")
            self.feed(piece[:-1] if ends_line else piece, starts_line, ends_line)
            starts_line = ends_line

    def feed(self, piece: bytes, starts_line: bool, ends_line: bool) -> None:
        text = piece.decode("latin-1")
        self.reader.feed(text.rstrip("\r") if ends_line else text, starts_line, ends_line, ASCII)

    def between_games(self) -> bool:
        """Whether the lexer is between games: no game begun, no comment open."""
        return not self.reader.started and not self.reader.in_comment


_OPENS_SOMETHING_RE: Final = re.compile(rb"[{}();%\[\]\\]|\xef\xbb\xbf")
"""What could leave the reader inside a comment, a variation or tags at the end of a line."""
_ENDS_IN_RESULT_RE: Final = re.compile(rb"(?:\A|[ \t])(?:1-0|0-1|1/2-1/2|\*)[ \t]*\r?\Z")
