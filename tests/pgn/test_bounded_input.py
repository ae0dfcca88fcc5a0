"""One bounded reader for every command that reads user text: PGN (replay, explore), scenarios (run,
explore), traces and check-move batches share its limits, its NUL check and its decompression,
which is bounded in memory (xz dictionary, zstd window) and in expansion.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import zstandard

from actors.cli.inputs import (
    MEMORY_VARIABLE,
    RATIO_VARIABLE,
    DecompressionLimits,
    UnreadableInput,
    bounded_lines,
    decoded_blocks,
)

ROOT = Path(__file__).resolve().parents[2]
OPERA = ROOT / "tests" / "data" / "opera-game.pgn"
CHECKMATE = ROOT / "actors" / "examples" / "checkmate.scenario"
MEMORY_LIMIT = 300 * 1024 * 1024
CASE = b'{"position": [["W","K",5,1],["B","K",5,8],["W","R",1,1]], "move": ["W","R",1,7]}\n'


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def chess_actors(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The whole command, under the 300 MB address-space limit."""
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args], cwd=ROOT, capture_output=True, text=True,
        check=False, timeout=120, preexec_fn=_limited,
        env={**os.environ, "MALLOC_ARENA_MAX": "2", **(env or {})},
    )


def _huge_dictionary_xz(data: bytes) -> bytes:
    return lzma.compress(data, filters=[{"id": lzma.FILTER_LZMA2, "dict_size": 1 << 30}])


def _huge_window_zstd(data: bytes) -> bytes:
    parameters = zstandard.ZstdCompressionParameters(window_log=30, enable_ldm=True, write_content_size=False)
    writer = zstandard.ZstdCompressor(compression_params=parameters).compressobj()
    return writer.compress(data) + writer.flush()


DEFAULT_LIMITS = DecompressionLimits()


def _read(data: bytes, limits: DecompressionLimits = DEFAULT_LIMITS) -> bytes:
    return b"".join(decoded_blocks(io.BytesIO(data), "x.pgn", limits))


# The reader itself


@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress,
                                      lambda data: zstandard.ZstdCompressor().compress(data)])
def test_each_format_past_the_expansion_ratio_is_refused_naming_its_variable(
    compress: Callable[[bytes], bytes]
) -> None:
    packed = compress(b"\n" * 2_000_000)
    with pytest.raises(UnreadableInput) as raised:
        _read(packed, DecompressionLimits(ratio=50, free=100_000))
    message = str(raised.value)
    assert message.startswith("x.pgn: the ") and "expands more than 50 times" in message
    assert f"set {RATIO_VARIABLE}=N to raise it" in message


def test_within_the_ratio_every_byte_comes_through() -> None:
    original = OPERA.read_bytes() * 50
    packed = gzip.compress(original) + gzip.compress(b"* \n")
    assert _read(packed, DecompressionLimits(ratio=50)) == original + b"* \n"


def test_concatenated_xz_streams_with_padding_read_as_one() -> None:
    first, second = lzma.compress(b"1. e4 e5 "), lzma.compress(b"2. Nf3 *\n")
    assert _read(first + b"\0" * 8 + second) == b"1. e4 e5 2. Nf3 *\n"


def test_an_xz_dictionary_past_the_memory_limit_is_refused_before_it_is_allocated() -> None:
    with pytest.raises(UnreadableInput) as raised:
        _read(_huge_dictionary_xz(OPERA.read_bytes()))
    assert str(raised.value) == (
        "x.pgn: the xz data needs a dictionary of more than 128 MB to decompress "
        f"(the limit; set {MEMORY_VARIABLE}=MB to raise it)"
    )


def test_a_zstd_window_past_the_memory_limit_is_named_not_called_broken() -> None:
    with pytest.raises(UnreadableInput) as raised:
        _read(_huge_window_zstd(OPERA.read_bytes()))
    assert "needs a window of more than 128 MB" in str(raised.value)
    assert "broken" not in str(raised.value)


def test_the_memory_limit_can_be_raised() -> None:
    data = OPERA.read_bytes()
    assert _read(_huge_dictionary_xz(data), DecompressionLimits(memory=2 << 30)) == data


def test_lines_are_cut_across_blocks_and_a_long_one_is_refused_as_it_grows() -> None:
    blocks = [b"ab", b"c\nd", b"e\n\nf"]
    assert list(bounded_lines(blocks, 10, ValueError)) == [b"abc\n", b"de\n", b"\n", b"f"]

    def endless() -> Iterator[bytes]:
        yield b"ok\n"
        while True:
            yield b"x" * 1000

    with pytest.raises(ValueError, match=r"^2$"):
        list(bounded_lines(endless(), 5000, lambda number: ValueError(str(number))))


# Every command that reads user text goes through it


@pytest.mark.parametrize("args", [
    ["replay", "{}", "--engine", "direct"],
    ["explore", "{}", "--plies", "1", "--orders", "1"],
], ids=["replay", "explore"])
def test_a_huge_xz_dictionary_is_one_line_naming_the_limit_in_every_pgn_command(
    tmp_path: Path, args: list[str]
) -> None:
    path = tmp_path / "game.pgn.xz"
    path.write_bytes(_huge_dictionary_xz(OPERA.read_bytes()))
    result = chess_actors(*[str(path) if arg == "{}" else arg for arg in args])
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"chess-actors {args[0]}: {path}: the xz data needs a dictionary of more than 128 MB to "
        f"decompress (the limit; set {MEMORY_VARIABLE}=MB to raise it)\n"
    )


def test_explore_reads_compressed_pgn_and_keeps_a_huge_tag_in_bounded_memory(tmp_path: Path) -> None:
    packed = tmp_path / "opera.pgn.gz"
    packed.write_bytes(gzip.compress(OPERA.read_bytes()))
    result = chess_actors("explore", str(packed), "--plies", "33", "--orders", "2", "--json")
    assert result.returncode == 0, result.stderr
    assert '"move": "Rd8#"' in result.stdout

    tag = tmp_path / "tag.pgn"
    with tag.open("wb") as out:
        out.write(b'[Event "' + b"x" * 20_000_000 + b'"]\n1. e4 *\n')
    result = chess_actors("explore", str(tag), "--orders", "1")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"chess-actors explore: game 1: {tag}:1:1: tag Event: "
                             "the value is longer than 65,536 characters (the limit)\n")


@pytest.mark.parametrize(("command", "data", "message"), [
    (["run", "{}"], CHECKMATE.read_bytes()[:40] + b"\0", "binary data (a NUL byte), not scenario text"),
    (["explore", "{}"], b"1. e4\0", "binary data (a NUL byte), not PGN text"),
    (["trace", "{}", "--to", "jsonl"], b'{"msg_id": 1}\n\0', "binary data (a NUL byte), not trace text"),
    (["check-move", "--batch", "{}"], CASE + b"\0", "binary data (a NUL byte), not check-move batch text"),
], ids=["run", "explore", "trace", "check-move"])
def test_binary_data_is_named_by_file_and_line_in_every_command(
    tmp_path: Path, command: list[str], data: bytes, message: str
) -> None:
    path = tmp_path / "input"
    path.write_bytes(data)
    result = chess_actors(*[str(path) if arg == "{}" else arg for arg in command])
    line = data.count(b"\n", 0, data.index(b"\0")) + 1
    assert result.returncode == 2
    assert result.stderr == f"chess-actors {command[0]}: {path}:{line}: {message}\n"


def test_every_command_reads_compressed_input(tmp_path: Path) -> None:
    scenario = tmp_path / "checkmate.scenario.zst"
    scenario.write_bytes(zstandard.ZstdCompressor().compress(CHECKMATE.read_bytes()))
    plain = chess_actors("run", str(CHECKMATE), "--json", "--trace", str(tmp_path / "t.jsonl"))
    packed = chess_actors("run", str(scenario), "--json")
    assert packed.returncode == plain.returncode == 0, packed.stderr
    assert packed.stdout == plain.stdout

    trace = tmp_path / "t.jsonl.bz2"
    trace.write_bytes(bz2.compress((tmp_path / "t.jsonl").read_bytes()))
    from_plain = chess_actors("trace", str(tmp_path / "t.jsonl"), "--to", "mermaid")
    from_packed = chess_actors("trace", str(trace), "--to", "mermaid")
    assert from_packed.returncode == 0 and from_packed.stdout == from_plain.stdout

    batch = tmp_path / "cases.xz"
    batch.write_bytes(lzma.compress(CASE * 3))
    answered = chess_actors("check-move", "--batch", str(batch), "--engine", "direct")
    assert answered.returncode == 0 and answered.stdout == "true\ntrue\ntrue\n", answered.stderr


def test_a_bad_limit_variable_is_one_line() -> None:
    result = chess_actors("replay", str(OPERA), "--engine", "direct", env={RATIO_VARIABLE: "lots"})
    assert result.returncode == 2
    assert result.stderr == f"chess-actors replay: {RATIO_VARIABLE}='lots': give a positive whole number\n"
