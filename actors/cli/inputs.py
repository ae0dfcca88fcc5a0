"""Opening PGN input for the command line: files and stdin, plain or compressed, as byte blocks.

The byte-level half of reading PGN (board.pgn reads the bytes): compression is found by its
magic bytes, so stdin works like a file, and everything streams in blocks of 64 KB.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import IO, Final, Protocol

from board.errors import InputError

BLOCK_BYTES: Final = 1 << 16
"""How much is read (and decompressed) at a time."""

STDIN_NAME: Final = "<stdin>"

# The first bytes of each compressed format (RFC 1952, bzip2, the xz format, RFC 8878).
_MAGIC: Final = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)
_LONGEST_MAGIC: Final = max(len(magic) for magic, _ in _MAGIC)
_UTF16_MARKS: Final = (b"\xff\xfe", b"\xfe\xff")


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class UnreadableInput(InputError):
    """Input that is not PGN text at all: binary data, a broken compressed stream."""


@dataclass(frozen=True, slots=True)
class PgnInput:
    """One PGN input as the user named it: a path, or '-' for stdin."""

    path: str

    @property
    def name(self) -> str:
        """How messages name it: the path, or ``<stdin>``."""
        return STDIN_NAME if self.path == "-" else self.path

    def blocks(self) -> Iterator[bytes]:
        """The input's bytes, decompressed when compressed, in blocks; closes what it opened.

        Raises:
            UnreadableInput: binary data (a NUL byte), or a compressed stream that is broken.
            OSError: the file cannot be read.
        """
        if self.path == "-":
            yield from decoded_blocks(sys.stdin.buffer, self.name)
            return
        with open(self.path, "rb") as handle:
            yield from decoded_blocks(handle, self.name)


def embedded_game_blocks() -> Iterator[bytes]:
    """The famous game replayed when no PGN is given, as bytes."""
    from actors.client.replay import EMBEDDED_GAME

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


def decoded_blocks(stream: IO[bytes], name: str) -> Iterator[bytes]:
    """Blocks of ``stream``, decompressed when its first bytes say it is compressed.

    Raises:
        UnreadableInput: binary data, or a compressed stream that is broken.
    """
    head = _read_at_least(stream, _LONGEST_MAGIC)
    replayed = io.BufferedReader(_Replayed(head, stream), BLOCK_BYTES)
    source: _Readable = replayed
    kind = next((kind for magic, kind in _MAGIC if head.startswith(magic)), None)
    if kind is not None:
        source = _decompressor(kind, replayed)
    elif head.startswith(_UTF16_MARKS):
        raise UnreadableInput(f"{name}: UTF-16 text; PGN is read as UTF-8 or Latin-1 (convert it first)")
    lines = 0
    try:
        while block := source.read(BLOCK_BYTES):
            nul = block.find(b"\0")
            if nul >= 0:
                line = lines + block.count(b"\n", 0, nul) + 1
                raise UnreadableInput(f"{name}:{line}: binary data (a NUL byte), not PGN text")
            lines += block.count(b"\n")
            yield block
    except (OSError, EOFError, lzma.LZMAError, _ZstdError) as error:
        if kind is None:
            raise
        raise UnreadableInput(f"{name}: broken {kind} data: {error}") from None


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
        data = self._rest.read(len(buffer))
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


def _decompressor(kind: str, source: io.BufferedReader[_Replayed]) -> _Readable:
    if kind == "gzip":
        return gzip.GzipFile(fileobj=source, mode="rb")
    if kind == "bzip2":
        return bz2.BZ2File(source, mode="rb")
    if kind == "xz":
        return lzma.LZMAFile(source, mode="rb")
    import zstandard

    reader = zstandard.ZstdDecompressor().stream_reader(source, read_across_frames=True)
    return io.BufferedReader(reader, BLOCK_BYTES)
