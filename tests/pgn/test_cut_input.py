"""Input that ends early is an error: every compressed reader checks that its stream ends where the
data ends (every frame of a multi-frame zstd file included); a cut file gives the verdicts it could
and then one line naming the file and where it ended, exit 2. Multi-frame (pzstd) files are read."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import json
import lzma
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import zstandard

from actors.cli.inputs import CutShortInput, UnreadableInput, decoded_blocks

ROOT = Path(__file__).resolve().parents[2]
OPERA = (ROOT / "tests" / "data" / "opera-game.pgn").read_text(encoding="utf-8")


def _games(count: int) -> bytes:
    """``count`` games, each with a tag of digest text so that no compressor packs them to nothing."""
    games = []
    for number in range(count):
        digest = hashlib.sha256(str(number).encode()).hexdigest()
        games.append(f'[Round "{number + 1}"]\n[Annotator "{digest}"]\n' + OPERA.split("\n\n", 1)[1])
    return "\n".join(games).encode()


def _zstd(data: bytes, **options: object) -> bytes:
    return zstandard.ZstdCompressor(**options).compress(data)  # type: ignore[arg-type]


def _skippable(payload: bytes) -> bytes:
    return b"\x50\x2a\x4d\x18" + len(payload).to_bytes(4, "little") + payload


def _pzstd_like(data: bytes, pieces: int) -> bytes:
    """A multi-frame file as pzstd writes it: each frame behind a skippable frame holding its size."""
    step = -(-len(data) // pieces)
    out = b""
    for start in range(0, len(data), step):
        frame = _zstd(data[start : start + step])
        out += _skippable(len(frame).to_bytes(4, "little")) + frame
    return out


COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress,
    "bz2": lambda data: bz2.compress(data, 1),
    "xz": lzma.compress,
    "zst": _zstd,
    "pzstd.zst": lambda data: _pzstd_like(data, 4),
}
KINDS = {"gz": "gzip", "bz2": "bzip2", "xz": "xz", "zst": "zstd", "pzstd.zst": "zstd"}


def _read(data: bytes) -> bytes:
    return b"".join(decoded_blocks(io.BytesIO(data), "x.pgn"))


def chess_actors(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "actors.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


# The reader


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_a_whole_file_of_each_format_reads_back_every_byte(suffix: str) -> None:
    data = _games(30)
    assert _read(COMPRESSORS[suffix](data)) == data


def test_a_multi_frame_zstd_file_as_pzstd_writes_it_is_read_not_refused_as_binary() -> None:
    data = _games(40)
    packed = _pzstd_like(data, 5)
    assert packed[:4] != b"\x28\xb5\x2f\xfd"  # it opens with a skippable frame
    assert _read(packed) == data


@pytest.mark.parametrize("options", [
    {}, {"write_checksum": True}, {"write_content_size": False}, {"write_checksum": True, "level": 19},
], ids=["plain", "checksum", "no-size", "checksum-19"])
def test_a_zstd_file_cut_anywhere_inside_a_frame_is_cut_short(options: dict[str, object]) -> None:
    first, second = _zstd(b"1. e4 e5 " * 40, **options), _zstd(_games(2), **options)
    packed = _skippable(b"index") + first + second
    boundaries = {len(_skippable(b"index")), len(_skippable(b"index")) + len(first)}
    for end in range(4, len(packed)):
        if end in boundaries:
            _read(packed[:end])  # a file cut between frames is a whole, shorter file
            continue
        with pytest.raises(UnreadableInput) as raised:
            _read(packed[:end])
        assert isinstance(raised.value, CutShortInput), (end, str(raised.value))
        assert str(raised.value).startswith(f"x.pgn: cut short: the zstd data ends at byte {end:,}")


@pytest.mark.parametrize("suffix", ["gz", "bz2", "xz"])
def test_a_stream_cut_anywhere_is_cut_short_in_every_other_format(suffix: str) -> None:
    packed = COMPRESSORS[suffix](_games(3))
    for end in range(len(packed) // 7, len(packed) - 1, max(1, len(packed) // 23)):
        with pytest.raises(CutShortInput) as raised:
            _read(packed[:end])
        assert f"the {KINDS[suffix]} data ends at byte {end:,}" in str(raised.value)


# The command


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_a_cut_file_gives_the_verdicts_it_can_then_one_line_and_exit_2(suffix: str, tmp_path: Path) -> None:
    packed = COMPRESSORS[suffix](_games(1500))
    path = tmp_path / f"games.pgn.{suffix}"
    path.write_bytes(packed[: len(packed) * 2 // 3])
    result = chess_actors("replay", str(path), "--engine", "direct", "--json")
    assert result.returncode == 2, result.stderr
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    assert 0 < len(verdicts) < 1500
    assert all(verdict["error"] is None for verdict in verdicts)
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"chess-actors replay: {path}: cut short: the {KINDS[suffix]} data ends at byte "
                           f"{len(packed) * 2 // 3:,}"), line


def test_a_whole_pzstd_file_replays_every_game(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn.zst"
    path.write_bytes(_pzstd_like(_games(50), 3))
    result = chess_actors("replay", str(path), "--engine", "direct", "--json")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 50
