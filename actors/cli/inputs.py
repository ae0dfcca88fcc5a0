"""The one reader of user text for the command line: PGN, scenarios, traces and check-move batches,
from files and stdin, plain or compressed, as byte blocks, as bounded lines or as bounded text.

Compression is found by its magic bytes, so stdin works like a file; everything streams in blocks
of 64 KB; a NUL byte is binary data, named by its line. Decompression is bounded in memory (the
xz dictionary, the zstd window) and in expansion (output against compressed input), each limit
named in its error with the variable that raises it (:class:`DecompressionLimits`).
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import IO, Final, Protocol

from board.errors import InputError

BLOCK_BYTES: Final = 1 << 16
"""How much is read (and decompressed) at a time."""

COMPRESSED_BYTES: Final = 1 << 13
"""How much compressed input is read at a time: small, so that the expansion is measured against
what the decoder was actually given (a bomb expands thousands of times per block read)."""

STDIN_NAME: Final = "<stdin>"

# The first bytes of each compressed format (RFC 1952, bzip2, the xz format, RFC 8878).
_MAGIC: Final = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)
_LONGEST_MAGIC: Final = max(len(magic) for magic, _ in _MAGIC)
_ZSTD_SKIPPABLE: Final = b"\x2a\x4d\x18"
"""The last three bytes of a zstd skippable frame's magic (its first is 0x50 to 0x5f): pzstd opens
each file with one, to say where its frames are, so a multi-frame file starts so."""
_UTF16_MARKS: Final = (b"\xff\xfe", b"\xfe\xff")


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class UnreadableInput(InputError):
    """Input that is not text at all: binary data, a broken compressed stream, or one that
    decompresses past a limit."""


class CutShortInput(UnreadableInput):
    """A compressed input that ends before its stream (or one of its frames) does: a file cut
    short by a full disk or an interrupted copy. The text before the cut was read and judged;
    what the cut lost cannot be, so the command fails once it has said what it could."""


RATIO_VARIABLE: Final = "CHESS_ACTORS_MAX_RATIO"
MEMORY_VARIABLE: Final = "CHESS_ACTORS_DECOMPRESSION_MB"


@dataclass(frozen=True, slots=True)
class DecompressionLimits:
    """How far a compressed input may take the reader.

    ``memory``: the most a decoder may allocate (an xz dictionary, a zstd window; ``xz -9`` needs
    65 MB, and a header asking for more is refused before anything is allocated). ``ratio``: past
    the first ``free`` bytes, the output may be at most this many times the compressed bytes read
    (PGN compresses 5-20 times; a file of one repeated byte, a few thousand times). The ratio bounds
    time as well as memory: what is read is judged, and at 1,000 a 2.6 MB file of one game repeated
    read for ten minutes; at 100 it is a tenth of that, five times what real files need.
    """

    memory: int = 128 << 20
    ratio: int = 100
    free: int = 16 << 20

    @classmethod
    def from_environment(cls) -> DecompressionLimits:
        """The limits, with ``CHESS_ACTORS_MAX_RATIO`` and ``CHESS_ACTORS_DECOMPRESSION_MB`` when set.

        Raises:
            InputError: a variable is set to something other than a positive whole number.
        """
        default = cls()
        ratio = _positive(RATIO_VARIABLE, default.ratio)
        megabytes = _positive(MEMORY_VARIABLE, default.memory >> 20)
        return cls(memory=megabytes << 20, ratio=ratio)


def _positive(variable: str, default: int) -> int:
    text = os.environ.get(variable)
    if text is None or text == "":
        return default
    if not text.isdigit() or int(text) < 1 or len(text) > 12:
        raise InputError(f"{variable}={text!r}: give a positive whole number")
    return int(text)


@dataclass(frozen=True, slots=True)
class UserInput:
    """One input as the user named it: a path, or '-' for stdin; ``kind`` names its format in
    messages (``PGN``, ``scenario``, ``trace``, ``batch``)."""

    path: str
    kind: str = "PGN"

    @property
    def name(self) -> str:
        """How messages name it: the path, or ``<stdin>``."""
        return STDIN_NAME if self.path == "-" else self.path

    def blocks(self) -> Iterator[bytes]:
        """The input's bytes, decompressed when compressed, in blocks; closes what it opened.

        Raises:
            UnreadableInput: binary data (a NUL byte), a compressed stream that is broken or
                that decompresses past a limit.
            OSError: the file cannot be opened or read (naming it, even when the failure comes
                from a read, which names no file of its own).
        """
        limits = DecompressionLimits.from_environment()
        try:
            if self.path == "-":
                yield from decoded_blocks(sys.stdin.buffer, self.name, limits, self.kind)
                return
            with open(self.path, "rb") as handle:
                yield from decoded_blocks(handle, self.name, limits, self.kind)
        except OSError as error:
            if error.filename is not None or error.errno is None:
                raise
            raise OSError(error.errno, error.strerror, self.name) from None

    def lines(self, limit: int, too_long: Callable[[int], Exception]) -> Iterator[bytes]:
        """The input's lines (with their line feed), none longer than ``limit`` bytes.

        Raises:
            Exception: ``too_long(line_number)``, for the first line past ``limit``.
            UnreadableInput, OSError: as :meth:`blocks`.
        """
        return bounded_lines(self.blocks(), limit, too_long)

    def text(self, limit: int, what: str) -> str:
        """The whole input as UTF-8 text (a byte-order mark dropped), at most ``limit`` bytes.

        Raises:
            InputError: longer than ``limit`` (naming ``what`` the limit is for), or not UTF-8.
            UnreadableInput, OSError: as :meth:`blocks`.
        """
        held: list[bytes] = []
        size = 0
        for block in self.blocks():
            size += len(block)
            if size > limit:
                raise InputError(f"{self.name}: longer than the {what} limit of {limit:,} bytes")
            held.append(block)
        data = b"".join(held)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise InputError(f"{self.name}:{line}: not UTF-8 text (byte {error.start + 1})") from None

    def is_terminal(self) -> bool:
        """Whether the input is a terminal (someone typing), checked without reading it."""
        if self.path == "-":
            return sys.stdin.isatty()
        try:
            return stat.S_ISCHR(os.stat(self.path).st_mode) and self.path.startswith("/dev/tty")
        except OSError:
            return False


PgnInput = UserInput
"""The name PGN readers know it by."""


def bounded_lines(blocks: Iterable[bytes], limit: int,
                  too_long: Callable[[int], Exception]) -> Iterator[bytes]:
    """The lines of a stream given in blocks (each with its line feed, the last maybe without),
    none longer than ``limit`` bytes: memory is one block and one line however long a line is.

    Raises:
        Exception: ``too_long(line_number)``, as soon as a line grows past ``limit``.
    """
    held: list[bytes] = []
    size = number = 0
    for block in blocks:
        start = 0
        while (end := block.find(b"\n", start)) >= 0:
            number += 1
            if held:
                held.append(block[start : end + 1])
                line, held = b"".join(held), []
                size = 0
            else:
                line = block[start : end + 1]
            if len(line) > limit:
                raise too_long(number)
            yield line
            start = end + 1
        if start < len(block):
            held.append(block[start:])
            size += len(block) - start
            if size > limit:
                raise too_long(number + 1)
    if held:
        yield b"".join(held)


def embedded_game_blocks() -> Iterator[bytes]:
    """The famous game replayed when no PGN is given, as bytes."""
    from actors.game.replay import EMBEDDED_GAME

    yield resources.files("actors").joinpath("data", EMBEDDED_GAME).read_bytes()


def check_readable(path: str) -> None:
    """Fail before any output when a named input cannot be read (without opening it: a FIFO
    would lose its writer's data to the check).

    Raises:
        OSError: the path does not exist or cannot be read.
        InputError: the path is a directory.
    """
    if path == "-":
        return
    status = os.stat(path)
    if stat.S_ISDIR(status.st_mode):
        raise InputError(f"{path}: is a directory, not a PGN file")
    if not os.access(path, os.R_OK):
        raise PermissionError(13, os.strerror(13), path)


def decoded_blocks(stream: IO[bytes], name: str, limits: DecompressionLimits = DecompressionLimits(),
                   kind_of_text: str = "PGN") -> Iterator[bytes]:
    """Blocks of ``stream``, decompressed when its first bytes say it is compressed.

    A plain stream is handed on as it arrives (a pipe's lines are not held back to fill a block).

    Raises:
        UnreadableInput: binary data, a compressed stream that is broken, or one past a limit.
    """
    head = _read_at_least(stream, _LONGEST_MAGIC)
    replayed = io.BufferedReader(_Replayed(head, stream), BLOCK_BYTES)
    kind = _compression_of(head)
    counted = None
    if kind is not None:
        counted = _Counted(replayed, _ZstdFrames() if kind == "zstd" else None)
        compressed = io.BufferedReader(counted, COMPRESSED_BYTES)
        blocks = _bounded_expansion(_decompressed(kind, compressed, limits), counted, name, kind, limits)
    elif head.startswith(_UTF16_MARKS):
        charsets = "UTF-8 or Latin-1" if kind_of_text == "PGN" else "UTF-8"
        raise UnreadableInput(f"{name}: UTF-16 text; {kind_of_text} is read as {charsets} (convert it first)")
    else:
        blocks = iter(lambda: replayed.read1(BLOCK_BYTES), b"")
    lines = produced = 0
    try:
        for block in blocks:
            nul = block.find(b"\0")
            if nul >= 0:
                line = lines + block.count(b"\n", 0, nul) + 1
                raise UnreadableInput(f"{name}:{line}: binary data (a NUL byte), not {kind_of_text} text")
            lines += block.count(b"\n")
            produced += len(block)
            yield block
        if counted is not None and counted.frames is not None and not counted.frames.complete:
            raise EOFError(counted.frames.where)
    except EOFError as error:
        if kind is None or counted is None:
            raise
        inside = f" ({error})" if counted.frames is not None else ""
        raise CutShortInput(
            f"{name}: cut short: the {kind} data ends at byte {counted.count:,}{inside}, before the end "
            f"of its stream (after {produced:,} bytes of text, {lines:,} lines)"
        ) from None
    except (OSError, lzma.LZMAError, _ZstdError) as error:
        if kind is None:
            raise
        raise UnreadableInput(f"{name}: {_broken(kind, error, limits)}") from None


def _compression_of(head: bytes) -> str | None:
    """The compressed format ``head`` (a stream's first bytes) opens, if any."""
    kind = next((kind for magic, kind in _MAGIC if head.startswith(magic)), None)
    if kind is None and len(head) >= 4 and 0x50 <= head[0] <= 0x5F and head[1:4] == _ZSTD_SKIPPABLE:
        return "zstd"
    return kind


def _broken(kind: str, error: BaseException, limits: DecompressionLimits) -> str:
    """Say why compressed data could not be read: past the memory limit, or broken."""
    text = str(error)
    if "memory" in text.lower() or "window" in text.lower():
        needs = "a dictionary" if kind == "xz" else "a window"
        return (f"the {kind} data needs {needs} of more than {limits.memory >> 20:,} MB to decompress "
                f"(the limit; set {MEMORY_VARIABLE}=MB to raise it)")
    return f"broken {kind} data: {text}"


class _Counted(io.RawIOBase):
    """A stream that counts the bytes read through it (the compressed side of a decoder), and
    hands them to ``frames`` (a zstd stream's frame walker) when there is one."""

    def __init__(self, source: io.BufferedReader[_Replayed], frames: _ZstdFrames | None = None) -> None:
        super().__init__()
        self.source = source
        self.count = 0
        self.frames = frames

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self.source.read1(len(buffer))
        buffer[: len(data)] = data
        self.count += len(data)
        if self.frames is not None:
            self.frames.feed(data)
        return len(data)


class _ZstdFrames:
    """Follows the frames of a zstd stream (RFC 8878: frame headers, block headers, checksums,
    skippable frames) as its bytes pass, without decompressing: the decoder ends quietly where its
    input ends, even inside a frame, and this says whether the input ended between frames."""

    def __init__(self) -> None:
        self.frames = 0
        """The frames begun so far (skippable ones not counted)."""
        self.skipping = False
        self._held = b""
        self._need = 4
        self._skip = 0
        self._step: Callable[[bytes], None] = self._magic
        self._checksum = False

    @property
    def complete(self) -> bool:
        """Whether everything seen so far ends exactly where a frame does."""
        return self._step == self._magic and not self._held and not self._skip

    def feed(self, data: bytes) -> None:
        """Follow ``data``, the stream's next bytes."""
        view = memoryview(data)
        while view:
            if self._skip:
                skipped = min(self._skip, len(view))
                self._skip -= skipped
                view = view[skipped:]
                continue
            taken = self._need - len(self._held)
            self._held += bytes(view[:taken])
            view = view[taken:]
            if len(self._held) == self._need:
                held, self._held = self._held, b""
                self._step(held)

    def _expect(self, size: int, step: Callable[[bytes], None]) -> None:
        self._need, self._step = size, step

    @property
    def where(self) -> str:
        """Where in the stream the bytes seen so far end, in words."""
        if self.skipping:
            return f"in the skippable frame after frame {self.frames:,}"
        return f"inside frame {self.frames:,}"

    def _magic(self, data: bytes) -> None:
        self.skipping = data[1:] == _ZSTD_SKIPPABLE and 0x50 <= data[0] <= 0x5F
        if self.skipping:
            self._expect(4, self._skippable)
        else:  # a frame (any other magic is the decoder's to refuse)
            self.frames += 1
            self._expect(1, self._descriptor)

    def _skippable(self, data: bytes) -> None:
        self._skip = int.from_bytes(data, "little")
        self._expect(4, self._magic)

    def _descriptor(self, data: bytes) -> None:
        flags = data[0]
        single_segment = bool(flags & 0x20)
        self._checksum = bool(flags & 0x04)
        content_size = (1 if single_segment else 0, 2, 4, 8)[flags >> 6]
        header = (0 if single_segment else 1) + (0, 1, 2, 4)[flags & 0x03] + content_size
        if header:
            self._expect(header, lambda _: self._expect(3, self._block))
        else:
            self._expect(3, self._block)

    def _block(self, data: bytes) -> None:
        header = int.from_bytes(data, "little")
        size = header >> 3
        self._skip = 1 if (header >> 1) & 0x03 == 1 else size  # an RLE block holds its one byte
        if not header & 0x01:
            self._expect(3, self._block)
        elif self._checksum:
            self._expect(4, lambda _: self._expect(4, self._magic))
        else:
            self._expect(4, self._magic)


def _bounded_expansion(blocks: Iterator[bytes], counted: _Counted, name: str, kind: str,
                       limits: DecompressionLimits) -> Iterator[bytes]:
    """``blocks`` (decompressed), stopped when they outgrow the compressed bytes read by the ratio."""
    produced = 0
    for block in blocks:
        produced += len(block)
        if produced > limits.free and produced > limits.ratio * counted.count:
            raise UnreadableInput(
                f"{name}: the {kind} data expands more than {limits.ratio:,} times "
                f"({counted.count:,} bytes gave {produced:,}; the limit against decompression bombs; "
                f"set {RATIO_VARIABLE}=N to raise it)"
            )
        yield block


def _read_at_least(stream: IO[bytes], size: int) -> bytes:
    """Up to ``size`` bytes (fewer only at the end): a pipe may hand them over a few at a time."""
    head = b""
    while len(head) < size and (more := stream.read(size - len(head))):
        head += more
    return head


class _Replayed(io.RawIOBase):
    """A stream that gives back the bytes already read from its start, then the rest of it."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        super().__init__()
        self._head = head
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._head:
            count = min(len(buffer), len(self._head))
            buffer[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        # What is there, without waiting to fill the buffer: a pipe fed a line at a time is read so.
        read = getattr(self._rest, "read1", self._rest.read)
        data = read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def read(self, size: int = -1) -> bytes:
        if self._head:
            if size < 0:
                data, self._head = self._head + self._rest.read(), b""
                return data
            data, self._head = self._head[:size], self._head[size:]
            return data
        return self._rest.read(size)


try:
    from zstandard import ZstdError as _ZstdError
except ImportError:  # pragma: no cover - zstandard is a dependency; this keeps the except valid
    class _ZstdError(Exception):  # type: ignore[no-redef]
        """Stands in when zstandard is missing."""


def _decompressed(kind: str, source: io.BufferedReader[_Counted],
                  limits: DecompressionLimits) -> Iterator[bytes]:
    """The decompressed blocks of ``source`` (gzip and bzip2 need little memory whatever the file
    says: a 32 KB window, 900 KB blocks; xz and zstd are held to ``limits.memory``)."""
    if kind == "xz":
        yield from _xz_blocks(source, limits.memory)
        return
    reader: _Readable
    if kind == "gzip":
        reader = gzip.GzipFile(fileobj=source, mode="rb")
    elif kind == "bzip2":
        reader = bz2.BZ2File(source, mode="rb")
    else:
        import zstandard

        decompressor = zstandard.ZstdDecompressor(max_window_size=limits.memory)
        reader = io.BufferedReader(decompressor.stream_reader(source, read_across_frames=True), BLOCK_BYTES)
    while block := reader.read(BLOCK_BYTES):
        yield block


def _xz_blocks(source: io.BufferedReader[_Counted], memory: int) -> Iterator[bytes]:
    """Decompress xz (one stream or several, with their padding), the decoder held to ``memory``:
    lzma.LZMAFile takes no memory limit, so a header asking for a 2 GB dictionary would get it."""
    decompressor = lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=memory)
    data = b""
    while True:
        if decompressor.eof:
            data = decompressor.unused_data.lstrip(b"\0")
            while not data:  # stream padding, then another stream or the end
                more = source.read(BLOCK_BYTES)
                if not more:
                    return
                data = more.lstrip(b"\0")
            decompressor = lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=memory)
        elif decompressor.needs_input:
            data = source.read(COMPRESSED_BYTES)
            if not data:
                raise EOFError("the data ends before the end of the stream")
        else:
            data = b""
        block = decompressor.decompress(data, BLOCK_BYTES)
        if block:
            yield block
