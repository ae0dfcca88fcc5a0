#!/usr/bin/env python3
"""Hostile inputs for every command, each run as a whole command under a 300 MB address-space limit.

    python scripts/hostile.py [--quick] [--only WORD] [--markdown]

Each case makes its input (files in a temporary folder, or stdin), runs ``chess-actors`` in a
session of its own with ``RLIMIT_AS`` at 300,000,000 bytes and a time bound, and reports the exit
status, the seconds, the peak RSS (the child's own high-water mark) and the first line on stderr.
A case passes when it ends within :data:`SECONDS` (or within its explicit budget), with one of its
expected statuses, without "unexpected error", a traceback or running out of memory, with no raw
escape byte on stdout or stderr, and with no process of its session left behind. ``--quick`` runs
the fast subset the test suite runs (tests/cli/test_hostile_corpus.py).
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import json
import lzma
import os
import random
import resource
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
OPERA = DATA / "opera-game.pgn"
SAMPLE_TRACE = DATA / "sample.trace.jsonl"
ADDRESS_SPACE = 300_000_000
SECONDS = 10.0
"""The bound every case must end within (a case with an explicit budget: its budget plus this)."""
KILL_AFTER = 120.0
EVIL = "\x1b]0;pwned\x07\x1b]52;c;SGVsbG8=\x07\x1b[2J"
"""A title, the clipboard (OSC 52) and a screen clear: none may reach stdout or stderr raw."""
RAW_ESCAPES = ("\x1b", "\x07", "\x9b", "\u202e")

Maker = Callable[[Path], None]


@dataclass(frozen=True)
class Case:
    """One hostile command: ``{}`` in ``args`` is the input file ``made`` writes (or stdin)."""

    name: str
    args: tuple[str, ...]
    make: Maker | None = None
    statuses: tuple[int, ...] = (2,)
    says: str = ""
    """Text the first line on stderr must hold (empty: anything, or nothing)."""
    stdin: bool = False
    quick: bool = False
    budget: float = 0.0
    """Seconds the case may take beyond :data:`SECONDS`: an explicit budget, or a workload (the
    workers case judges 80,000 games to show that they are spread, not that it is quick)."""
    same_output_as: tuple[str, ...] = ()
    """Another command (``{}`` as in ``args``) whose stdout this one's must equal, byte for byte."""
    terminate_on_output: bool = False
    """Send SIGTERM once the command has written to stdout (mid-run), as a supervisor would."""
    address_space: int | None = ADDRESS_SPACE
    """The address-space limit (None: none, for Ray, whose own servers need more to start at all)."""
    client: Callable[[str, Path], None] | None = None
    """What a client does to a studio at the address it printed, before it is signalled (with
    ``terminate_on_output``); an exception it raises is a problem of the case."""


@dataclass
class Result:
    case: Case
    status: int
    seconds: float
    peak_mb: float
    first_line: str
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


# --- inputs -------------------------------------------------------------------------------------


def _write(data: bytes) -> Maker:
    return lambda path: path.write_bytes(data)


def _stream(*parts: tuple[bytes, int]) -> Maker:
    """Write each ``(chunk, times)`` in turn, without holding the whole file in memory."""
    def make(path: Path) -> None:
        with path.open("wb") as out:
            for chunk, times in parts:
                for _ in range(times):
                    out.write(chunk)
    return make


def _compressed(compress: Callable[[bytes], bytes], data: bytes) -> Maker:
    return lambda path: path.write_bytes(compress(data))


def _xz_stream(chunk: bytes, times: int, dictionary: int | None = None) -> Maker:
    def make(path: Path) -> None:
        filters = [{"id": lzma.FILTER_LZMA2, "dict_size": dictionary}] if dictionary else None
        packer = lzma.LZMACompressor(filters=filters) if filters else lzma.LZMACompressor()
        with path.open("wb") as out:
            for _ in range(times):
                out.write(packer.compress(chunk))
            out.write(packer.flush())
    return make


def _gzip_stream(chunk: bytes, times: int) -> Maker:
    def make(path: Path) -> None:
        with gzip.open(path, "wb", compresslevel=9) as out:
            for _ in range(times):
                out.write(chunk)
    return make


def _zstd_huge_window(path: Path) -> None:
    import zstandard

    parameters = zstandard.ZstdCompressionParameters(window_log=31, enable_ldm=True, write_content_size=False)
    packer = zstandard.ZstdCompressor(compression_params=parameters).compressobj()
    path.write_bytes(packer.compress(OPERA.read_bytes()) + packer.flush())


def _zstd_frames(data: bytes, pieces: int, cut: float = 1.0) -> Maker:
    """A multi-frame zstd file as pzstd writes it (each frame behind a skippable frame), the first
    ``cut`` of its bytes."""
    def make(path: Path) -> None:
        import zstandard

        step = -(-len(data) // pieces)
        packed = b""
        for start in range(0, len(data), step):
            frame = zstandard.ZstdCompressor().compress(data[start : start + step])
            packed += b"\x50\x2a\x4d\x18\x04\x00\x00\x00" + len(frame).to_bytes(4, "little") + frame
        path.write_bytes(packed[: int(len(packed) * cut)])
    return make


def _numbered_games(count: int) -> bytes:
    """``count`` copies of the Opera game, each with a tag of its own (so no compressor packs them away)."""
    moves = OPERA.read_text(encoding="utf-8").split("\n\n", 1)[1]
    return "\n".join(f'[Round "{number}"]\n[Annotator "{number * 7919:x}{number:o}"]\n{moves}'
                     for number in range(1, count + 1)).encode()


def _trace_lines(make_line: Callable[[dict[str, object], int], dict[str, object]], copies: int = 1) -> Maker:
    def make(path: Path) -> None:
        records = [json.loads(line) for line in SAMPLE_TRACE.read_text(encoding="utf-8").splitlines()]
        with path.open("w", encoding="utf-8") as out:
            number = 0
            for _ in range(copies):
                for record in records:
                    number += 1
                    out.write(json.dumps(make_line(dict(record), number)) + "\n")
    return make


def _with_phase(phase: str) -> Callable[[dict[str, object], int], dict[str, object]]:
    return lambda record, number: {**record, "phase": phase}


def _renumbered(record: dict[str, object], number: int) -> dict[str, object]:
    return {**record, "msg_id": number, "parent_id": None, "ply": 1 + number // 12}


CASE_LINE = b'{"position": [["W","K",5,1],["B","K",5,8],["W","R",1,1]], "move": ["W","R",1,7]}\n'
HOSTILE_SUMMARY = "<!-- {{data}} /*{{script}}*/ </script>"
TAGLESS_COMMENTED = b"{a game without tags} 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n"


def cases() -> list[Case]:
    """Every hostile case, the quick ones first."""
    pgn = ("replay", "{}", "--engine", "direct", "--json")
    return [
        # PGN through replay: the lexer, the reader, decompression
        Case("replay: a line ending in 900,000 blanks", pgn,
             _stream((b"1. e4 e5", 1), (b" " * 100_000, 9), (b"\n2. Nf3 Nc6 *\n", 1)), (0,), quick=True),
        Case("replay: 5,000,000 blank lines", pgn, _stream((b"\n" * 100_000, 50), (b"1. e4 *\n", 1)), (0,),
             quick=True),
        Case("replay: 2 GB of newlines as 300 KB of xz", pgn, _xz_stream(b"\n" * 1_000_000, 2000),
             says="expands more than 100 times"),
        Case("replay: 1 GB of blanks as 1 MB of gzip", pgn, _gzip_stream(b" " * 1_000_000, 1000),
             says="expands more than 100 times"),
        Case("replay: xz asking for a 1.5 GiB dictionary", pgn,
             _xz_stream(OPERA.read_bytes(), 1, dictionary=3 << 29),
             says="needs a dictionary of more than 128 MB",
             quick=True),
        Case("replay: zstd asking for a 2 GiB window", pgn, _zstd_huge_window,
             says="needs a window of more than 128 MB", quick=True),
        Case("replay: a zstd file cut in its third frame", pgn, _zstd_frames(_numbered_games(600), 4, 0.6),
             says="cut short: the zstd data ends at byte", quick=True),
        Case("replay: a gzip file cut in half", pgn,
             _compressed(lambda data: (packed := gzip.compress(data))[: len(packed) // 2],
                         _numbered_games(600)),
             says="cut short: the gzip data ends at byte", quick=True),
        Case("replay: a multi-frame zstd file as pzstd writes it", pgn, _zstd_frames(_numbered_games(60), 3),
             (0,), quick=True),
        Case("replay: --trace onto its own input", ("replay", "{}", "--trace", "{}"),
             _write(OPERA.read_bytes()), says="is the input FILE (the same file)", quick=True),
        Case("replay: --html onto a link to its input", ("replay", "{}", "--html", "link.pgn"),
             lambda path: (path.write_bytes(OPERA.read_bytes()), (path.parent / "link.pgn").symlink_to(path)),
             says="--html link.pgn: is the input FILE (the same file)", quick=True),
        Case("replay: an unrecognised argument with escapes", ("replay", f"--x{EVIL}\x9b"),
             says="unrecognized", quick=True),
        Case("replay: a read that fails (/proc/self/mem)", ("replay", "/proc/self/mem", "--engine", "direct"),
             says="cannot read /proc/self/mem: Input/output error", quick=True),
        Case("replay: /dev/zero", ("replay", "/dev/zero", "--engine", "direct"),
             says="binary data (a NUL byte)",
             quick=True),
        Case("replay: UTF-16 text", pgn, _write(OPERA.read_text(encoding="utf-8").encode("utf-16")),
             says="UTF-16 text"),
        Case("replay: random bytes", pgn, _write(bytes(range(256)) * 4000), says="binary data"),
        Case("replay: a 20 MB tag value", pgn,
             _stream((b'[Event "', 1), (b"x" * 1_000_000, 20), (b'"]\n*\n', 1)),
             (1,)),
        Case("replay: a 30 MB token", pgn,
             _stream((b"1. e4 ", 1), (b"N" * 1_000_000, 30), (b" *\n", 1)), (1,)),
        Case("replay: 1,000,000 nested variations", pgn,
             _stream((b"1. e4 ", 1), (b"(" * 1_000_000, 1)), (0, 1)),
        Case("replay: a UTF-8 line of 300,000 '()'", pgn,
             _stream(('1. e4 {é}'.encode(), 1), (b" ()" * 100_000, 1), (b"\n*\n", 1)), (0,)),
        Case("replay: escapes in tags and moves", ("replay", "{}"),
             _write(f'[White "{EVIL}"]\n\n1. e4 e5{EVIL} *\n'.encode()), (1,), quick=True),
        Case("replay: a huge --ray-timeout", ("replay", "--ray", "127.0.0.1:1", "--ray-timeout", "1e300"),
             says="at most 86,400", quick=True),
        Case("replay: --html into a missing folder", ("replay", str(OPERA), "--html", "/nonexistent/p.html"),
             says="--html /nonexistent/p.html: cannot write", quick=True),
        Case("replay --workers 2: tagless games opening with a comment",
             ("replay", "{}", "--engine", "direct", "--json", "--workers", "2"),
             _stream((TAGLESS_COMMENTED * 1000, 80)), (0,), budget=50.0),
        Case("replay --workers 2: one game of 70 MB (a comment), judged as one process judges it",
             ("replay", "{}", "--engine", "direct", "--json", "--workers", "2"),
             _stream((b"1. e4 e5 *\n\n{", 1), (b"x" * 1_000_000, 70), (b"} 1. d4 d5 *\n\n1. c4 *\n", 1)),
             (1,), same_output_as=("replay", "{}", "--engine", "direct", "--json")),
        Case("replay --ray local: SIGTERM mid-run (no address-space limit: Ray's servers need more)",
             ("replay", "{}", "--engine", "direct", "--json", "--ray", "local", "--workers", "2"),
             _stream((OPERA.read_bytes() + b"\n\n", 20_000)), (143,), says="chess-actors replay: terminated",
             terminate_on_output=True, address_space=None, budget=50.0),
        Case("replay --html: 42 games (14,600 messages), just under what a page shows",
             ("replay", *[str(DATA / "famous.pgn")] * 6, "--html", "{}.html", "--json"), _write(b""),
             (0,)),
        Case("replay --html: 60 games, past what a page shows",
             ("replay", *[str(DATA / "famous.pgn")] * 9, "--html", "{}.html", "--quiet"), _write(b""),
             says="more than 15,000 messages"),
        # explore
        Case("explore: a 20 MB tag value", ("explore", "{}", "--orders", "1"),
             _stream((b'[Event "', 1), (b"x" * 1_000_000, 20), (b'"]\n1. e4 *\n', 1)), says="the limit"),
        Case("explore: --orders 999999999999999999",
             ("explore", str(OPERA), "--orders", "999999999999999999"),
             says="from 1 to 1,000,000", quick=True),
        Case("explore: NUL in the PGN", ("explore", "{}"), _write(b"1. e4\0"), says="binary data",
             quick=True),
        Case("explore: --budget 2 on a million orders of ply 33",
             ("explore", str(OPERA), "--plies", "33", "--orders", "1000000", "--budget", "2"), statuses=(1,),
             says="the budget of 2 s",
             budget=2.0),
        # run: scenarios
        Case("run: an unclosed quote over 3.9 MB", ("run", "{}"),
             _stream((b'start startpos\nsend board "', 1), (b"x" * 100_000, 39), (b"\n", 1)),
             says=":2: a line longer than 10,000 characters", quick=True),
        Case("run: a 5 MB scenario", ("run", "{}"), _stream((b"# a comment line\n" * 1000, 300)),
             says="longer than the scenario limit", quick=True),
        Case("run: escapes in a step", ("run", "{}"),
             _write(f"start startpos\nplay e4{EVIL}\n".encode()), (1, 2)),
        Case("run: a bzip2 scenario with NUL", ("run", "{}"),
             _compressed(bz2.compress, b"start startpos\n\0"),
             says="binary data"),
        # trace
        Case("trace: phase ' ' as mermaid", ("trace", "{}", "--to", "mermaid"),
             _trace_lines(_with_phase(" ")),
             (0,), quick=True),
        Case("trace: phase '#' as html", ("trace", "{}", "--to", "html"),
             _trace_lines(_with_phase("#")), (0,),
             quick=True),
        Case("trace: escapes in every field as markdown", ("trace", "{}", "--to", "markdown"),
             _trace_lines(lambda record, number: {**record, "summary": EVIL, "phase": EVIL,
                                                  "sender": record["sender"] + EVIL}), (0,), quick=True),
        Case("trace: -o onto its own input", ("trace", "{}", "--to", "jsonl", "-o", "{}"),
             _trace_lines(lambda record, number: record), says="-o FILE: is the input FILE", quick=True),
        Case("trace: sender_node of the wrong type", ("trace", "{}", "--to", "mermaid"),
             _trace_lines(lambda record, number: {**record, "sender_node": [number], "receiver_node": "n"}),
             says="field 'sender_node' must be a string or null, got [1]", quick=True),
        Case("trace: a 2 MB line", ("trace", "{}", "--to", "jsonl"), _stream((b"x" * 1_000_000, 2)),
             says="longer than the limit of 1,000,000 bytes"),
        Case("trace: 24,000 messages as html", ("trace", "{}", "--to", "html"),
             _trace_lines(_renumbered, 2000),
             says="more than 15,000 messages"),
        Case("trace: '<!--' and '{{data}}' in its text, as html", ("trace", "{}", "--to", "html"),
             _trace_lines(lambda record, number: {**record, "summary": HOSTILE_SUMMARY}),
             (0,), quick=True),
        # check-move
        Case("check-move: a 200 KB case line", ("check-move", "--batch", "{}", "--engine", "direct"),
             _write(b"[" * 200_000 + b"\n"), says="longer than the limit of 100,000 bytes", quick=True),
        Case("check-move: NUL in a batch", ("check-move", "--batch", "{}", "--engine", "direct"),
             _write(CASE_LINE + b"\0\n"), says="binary data"),
        Case("check-move: 20,000 cases on the actors", ("check-move", "--batch", "{}"),
             _write(CASE_LINE * 20_000), (0,)),
        # shell
        Case("shell: escapes piped in", ("shell",),
             _write(f"play e4{EVIL}\nfoo{EVIL}\nquit\n".encode()), (1,),
             says="1 of the commands failed", stdin=True, quick=True),
        Case("shell: a raw 8-bit CSI piped in", ("shell",),
             _write(b"play e4\x9b31m\nfoo\x9b2J\nquit\n"), (1,), says="1 of the commands failed", stdin=True,
             quick=True),
        Case("shell: /dev/zero piped in", ("shell",), None, says="a line longer than 10,000 characters",
             stdin=True, quick=True),
        # the live studio's server, driven by a client at the address it prints, then signalled
        *_studio_cases(),
        # perft, knight
        Case("perft: depth 16", ("perft", "startpos", "16"), says="at most 15 plies", quick=True),
        Case("knight treasure: 17 treasures",
             ("knight", "treasure", "a1", *[f"{file}{rank}" for file in "bcdefg" for rank in (3, 6, 8)][:17]),
             says="the exact search takes at most 16", quick=True),
        Case("knight tour: 2000x2000 as JSON", ("knight", "tour", "--size", "2000x2000", "--json"),
             statuses=(0,)),
        # thread start under the limit, seeded (the test suite runs more of them)
        *thread_start_cases(THREAD_SEED, 6),
    ]


def _studio_cases() -> list[Case]:
    def studio(name: str, client: Callable[[str, Path], None], says: str = "", budget: float = 0.0) -> Case:
        return Case(f"studio: {name}", ("studio",), statuses=(0,), says=says, quick=True,
                    terminate_on_output=True, client=client, budget=budget)
    return [
        studio("two Host headers", _twice("Host"), says="refused a request with 2 Host headers (400)"),
        studio("two Origin headers", _twice("Origin"), says="refused a request with 2 Origin headers (400)"),
        studio("an Origin with escapes", _upgrade_with(b"Origin: http://x\x9b[2J\xe2\x80\xae"),
               says="refused a WebSocket from origin"),
        studio("a page gone before its first message", _gone_at_once),
        studio("save to a pipe no one reads, then SIGTERM", _save_to_a_pipe),
        studio("20 pages that never read", _pages_that_never_read, budget=10.0),  # a workload
    ]


def _studio_address(url: str) -> tuple[int, str]:
    address, token = url.split("/?token=")
    return int(address.rsplit(":", 1)[1]), token


def _handshake(port: int, token: str, *headers: bytes, host: bytes | None = None) -> bytes:
    lines = [f"GET /ws?token={token} HTTP/1.1".encode(), host or f"Host: 127.0.0.1:{port}".encode(),
             b"Upgrade: websocket", b"Connection: Upgrade", b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
             b"Sec-WebSocket-Version: 13", *headers]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _answer_to(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=SECONDS) as sock:
        sock.sendall(request)
        return sock.recv(4096).split(b"\r\n", 1)[0]


def _twice(name: str) -> Callable[[str, Path], None]:
    def client(url: str, folder: Path) -> None:
        port, token = _studio_address(url)
        header = f"{name}: {'127.0.0.1:' if name == 'Host' else 'http://127.0.0.1:'}{port}".encode()
        status = _answer_to(port, _handshake(port, token, header, header) if name == "Origin" else
                            _handshake(port, token, host=header + b"\r\n" + header))
        assert status == b"HTTP/1.1 400 Bad Request", status
    return client


def _upgrade_with(header: bytes) -> Callable[[str, Path], None]:
    def client(url: str, folder: Path) -> None:
        port, token = _studio_address(url)
        status = _answer_to(port, _handshake(port, token, header))
        assert status.startswith(b"HTTP/1.1 4"), status
    return client


def _gone_at_once(url: str, folder: Path) -> None:
    port, token = _studio_address(url)
    sock = socket.create_connection(("127.0.0.1", port), timeout=SECONDS)
    sock.sendall(_handshake(port, token))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()  # a reset, before the first message


def _commands(url: str, lines: list[str]) -> None:
    """Send each line over the studio's WebSocket and wait for its ``done`` (a bounded wait)."""
    from websockets.sync.client import connect

    with connect(url.replace("http://", "ws://").replace("/?", "/ws?"), open_timeout=SECONDS,
                 max_size=None) as page:
        page.recv(SECONDS)
        for line in lines:
            page.send(line)
            while json.loads(page.recv(SECONDS))["type"] != "done":
                pass


def _save_to_a_pipe(url: str, folder: Path) -> None:
    pipe = folder / "pipe.scenario"
    os.mkfifo(pipe)
    _commands(url, ["e4"])
    from websockets.sync.client import connect

    with connect(url.replace("http://", "ws://").replace("/?", "/ws?"), open_timeout=SECONDS,
                 max_size=None) as page:
        page.recv(SECONDS)
        page.send(f"save {pipe}")
        page.send("e5")  # done while the save waits for a reader
        while (message := json.loads(page.recv(SECONDS)))["type"] != "done":
            pass
        assert message["command"] == "e5", message


def _pages_that_never_read(url: str, folder: Path) -> None:
    port, token = _studio_address(url)
    idle = []
    for _ in range(20):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall(_handshake(port, token))
        idle.append(sock)
    try:
        _commands(url, ["e4", "e5", "Nf3", "Nc6", *["legal g1", "legal b8"] * 20])
    finally:
        for sock in idle:
            sock.close()


THREAD_SEED = 2026
"""The seed that chooses the thread-starting commands of the corpus (see :func:`thread_start_cases`)."""


def thread_start_cases(seed: int, count: int) -> list[Case]:
    """``count`` commands that start actor threads (a game's 35, a pool's, a session's hive, the
    shell's, explore's re-seated system), chosen with ``seed``, each under the address-space limit:
    each must end with its status; thread start must never hang (it did, about 1 run in 5, before
    actor threads were given their own stack size and a start that cannot wait for ever)."""
    stdin_shell = b"play e4\nplay e5\nNf3\nlegal g8\nquit\n"
    choices: list[tuple[str, tuple[str, ...], Maker | None, bool]] = [
        ("replay the embedded game", ("replay", "--board", "none"), None, False),
        ("replay seven games on a pool", ("replay", str(DATA / "famous.pgn"), "--json"), None, False),
        ("replay three games from a file", ("replay", "{}", "--json"), _write(OPERA.read_bytes() * 3), False),
        ("check-move 500 cases on the actors", ("check-move", "--batch", "{}"), _write(CASE_LINE * 500),
         False),
        ("run a scenario", ("run", str(ROOT / "actors" / "examples" / "checkmate.scenario")), None, False),
        ("shell, moves piped in", ("shell",), _write(stdin_shell), True),
        ("explore two plies", ("explore", str(OPERA), "--plies", "1-2", "--orders", "3"), None, False),
    ]
    rng = random.Random(seed)
    picked = [rng.choice(choices) for _ in range(count)]
    return [Case(f"threads under the limit, seed {seed}, run {number}: {name}", args, make, (0,), stdin=stdin)
            for number, (name, args, make, stdin) in enumerate(picked, 1)]


# --- running --------------------------------------------------------------------------------------


def _limited(address_space: int | None) -> Callable[[], None]:
    def limit() -> None:
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    return limit


def _stdin_of(case: Case, path: Path) -> str:
    """What the case reads on stdin: its input, /dev/zero when it makes none, else nothing."""
    if not case.stdin:
        return os.devnull
    return str(path) if case.make is not None else "/dev/zero"


def _high_water_kb(pid: int) -> int:
    """The peak resident set of process ``pid`` so far (VmHWM), in kB; 0 once it has ended."""
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _session_alive(session: int) -> list[int]:
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            alive.append(int(entry))
    return alive


def run_case(case: Case, folder: Path) -> Result:
    """Make the case's input, run its command to the end under the limits, and judge it."""
    path = folder / "input"
    if case.make is not None:
        case.make(path)
    args = [arg.replace("{}", str(path)) for arg in case.args]
    out_path, err_path = folder / "stdout", folder / "stderr"
    with out_path.open("wb") as out, err_path.open("wb") as err, \
            open(_stdin_of(case, path), "rb") as given:
        started = time.monotonic()
        child = subprocess.Popen([sys.executable, "-m", "actors.cli", *args], cwd=folder, stdin=given,
                                 stdout=out, stderr=err, preexec_fn=_limited(case.address_space),
                                 start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        killed = False
        client_problem = ""
        terminated = not case.terminate_on_output
        peak_kb = 0
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            peak_kb = max(peak_kb, _high_water_kb(child.pid))
            if not terminated and out_path.read_bytes().endswith(b"\n"):
                if case.client is not None:
                    try:
                        case.client(out_path.read_text(encoding="utf-8").strip(), folder)
                    except Exception as error:
                        client_problem = f"the client failed: {type(error).__name__}: {error}"
                child.send_signal(signal.SIGTERM)
                terminated = True
            if time.monotonic() - started > KILL_AFTER:
                os.killpg(child.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.01)
        seconds = time.monotonic() - started
        child.returncode = os.waitstatus_to_exitcode(status)
    stdout = out_path.read_bytes().decode("utf-8", "replace")
    stderr = err_path.read_bytes().decode("utf-8", "replace")
    first = next(iter(stderr.splitlines()), "").replace(str(path), "FILE")  # the temporary path, named
    # The child's own high-water mark, read while it ran: wait4's maxrss would also count this
    # process, which the child was forked from (the last few milliseconds may be missed).
    result = Result(case, child.returncode, seconds, (peak_kb or usage.ru_maxrss) / 1024, first)
    problems = result.problems
    if client_problem:
        problems.append(client_problem)
    if killed:
        problems.append(f"killed after {KILL_AFTER:.0f} s")
    elif seconds > SECONDS + case.budget:
        problems.append(f"took {seconds:.1f} s")
    if child.returncode not in case.statuses:
        problems.append(f"status {child.returncode}, expected {' or '.join(map(str, case.statuses))}")
    if case.says and case.says not in first:
        problems.append(f"stderr does not say {case.says!r}")
    for bad in ("unexpected error", "Traceback", "out of memory", "MemoryError"):
        if bad in stderr:
            problems.append(f"stderr holds {bad!r}")
    if any(escape in stdout or escape in stderr for escape in RAW_ESCAPES):
        problems.append("a raw escape reached stdout or stderr")
    if not terminated:
        problems.append("it ended before writing anything, so it was never signalled")
    if case.same_output_as:
        other = subprocess.run([sys.executable, "-m", "actors.cli",
                                *(arg.replace("{}", str(path)) for arg in case.same_output_as)],
                               cwd=folder, stdin=subprocess.DEVNULL, capture_output=True, check=False,
                               preexec_fn=_limited(case.address_space), timeout=KILL_AFTER,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
        if other.stdout.decode("utf-8", "replace") != stdout:
            problems.append(f"stdout differs from that of {' '.join(case.same_output_as)}")
    deadline = time.monotonic() + 5
    while _session_alive(child.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _session_alive(child.pid):
        problems.append(f"processes left behind: {_session_alive(child.pid)}")
        for pid in _session_alive(child.pid):
            os.kill(pid, signal.SIGKILL)
    return result


def run_all(chosen: list[Case]) -> list[Result]:
    """Run each case in a folder of its own (removed afterwards)."""
    results = []
    for case in chosen:
        with tempfile.TemporaryDirectory(prefix="chess-actors-hostile-") as folder:
            results.append(run_case(case, Path(folder)))
    return results


def _shown(text: str, width: int = 90) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= width else text[: width - 3] + "..."


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the fast cases the test suite runs")
    parser.add_argument("--only", metavar="WORD", help="only the cases whose name holds WORD")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for README)")
    args = parser.parse_args()
    chosen = [case for case in cases() if (case.quick or not args.quick)
              and (args.only is None or args.only in case.name)]
    failed = 0
    if args.markdown:
        print("| case | exit | seconds | peak RSS | first line on stderr |")
        print("| --- | --- | --- | --- | --- |")
    for case in chosen:
        [result] = run_all([case])
        failed += not result.ok
        verdict = "ok" if result.ok else "FAIL: " + "; ".join(result.problems)
        if args.markdown:
            print(f"| {_shown(case.name, 70)} | {result.status} | {result.seconds:.1f} "
                  f"| {result.peak_mb:.0f} MB | {_shown(result.first_line) or '(none)'} |", flush=True)
            if not result.ok:
                print(f"<!-- {verdict} -->", flush=True)
        else:
            print(f"{case.name:<60} exit {result.status:>3} {result.seconds:>6.1f} s "
                  f"{result.peak_mb:>6.0f} MB  {verdict}\n    {_shown(result.first_line, 150)}", flush=True)
    print(f"{len(chosen) - failed} of {len(chosen)} cases passed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
