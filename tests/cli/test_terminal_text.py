"""One place makes text safe for a terminal (C0 and C1 controls, the 8-bit CSI, bidirectional
overrides, bytes that were not UTF-8), and every command that prints text from its input uses it:
trace diagrams, argument errors, the piped shell."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import actors
from actors.cli.terminal_text import terminal_safe, terminal_safe_line

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_TRACE = ROOT / "tests" / "data" / "sample.trace.jsonl"
EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202eevil\u2066"
RAW = [b"\x1b", b"\x07", b"\x9b", "\x9b".encode(), "\u202e".encode(), "\u2066".encode()]
"""What must never reach a terminal: ESC, BEL, the 8-bit CSI as a byte and as UTF-8, the overrides."""


def _raw_in(data: bytes) -> list[bytes]:
    return [raw for raw in RAW if raw in data]


def chess_actors(*args: str | bytes, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "actors.cli", *args], cwd=ROOT, input=stdin,
                          capture_output=True, check=False, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize(("text", "shown"), [
    ("\x1b[2J", "\\x1b[2J"),
    ("\x9b31m", "\\x9b31m"),
    ("a\u202eb", "a\\u202eb"),
    ("\u2066x\u2069", "\\u2066x\\u2069"),
    ("one\u2028two", "one\\u2028two"),
    ("arg\udc9b", "arg\\x9b"),  # a byte that was not UTF-8 in an argument or a piped stream
    ("tab\tand\nline", "tab\tand\nline"),
    ("Müller, Niño: ¡olé! ♞", "Müller, Niño: ¡olé! ♞"),
])
def test_controls_overrides_and_raw_bytes_are_shown_as_escapes(text: str, shown: str) -> None:
    assert terminal_safe(text) == shown


@given(st.text(alphabet=st.characters(codec=None, exclude_categories=())))
def test_nothing_a_terminal_obeys_survives_and_the_result_is_valid_utf8(text: str) -> None:
    safe = terminal_safe_line(text)
    assert "\n" not in safe
    for character in safe:
        code = ord(character)
        assert (code >= 0x20 and not 0x7F <= code <= 0x9F) or character == "\t", repr(character)
        assert character not in "\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
        assert not 0x2066 <= code <= 0x2069 and not 0xD800 <= code <= 0xDFFF
    safe.encode("utf-8")  # no lone surrogate left to write out raw


def test_the_function_is_public_for_every_log_that_shows_input() -> None:
    assert actors.terminal_safe is terminal_safe and actors.terminal_safe_line is terminal_safe_line


def _evil_trace(path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for number, line in enumerate(SAMPLE_TRACE.read_text(encoding="utf-8").splitlines()):
            record = json.loads(line)
            record["summary"] = f"{EVIL}{record.get('summary')}"
            record["phase"] = EVIL
            if number % 2:
                record["sender"] = record["sender"] + EVIL
            out.write(json.dumps(record) + "\n")


@pytest.mark.parametrize("to", ["mermaid", "markdown"])
def test_a_trace_drawn_for_the_terminal_shows_its_escapes_not_obeys_them(to: str, tmp_path: Path) -> None:
    trace = tmp_path / "evil.jsonl"
    _evil_trace(trace)
    result = chess_actors("trace", str(trace), "--to", to)
    assert result.returncode == 0, result.stderr
    assert _raw_in(result.stdout + result.stderr) == []
    assert b"\\x1b]0" in result.stdout and b"\\u202eevil" in result.stdout


@pytest.mark.parametrize("argument", [b"--x\x1b[2J", b"--y\x9b31m", "--z\u202e".encode(), b"e4\x9b"])
def test_an_unrecognised_argument_is_echoed_as_escapes(argument: bytes) -> None:
    result = chess_actors("replay", argument)
    assert result.returncode == 2
    assert _raw_in(result.stderr) == []
    (line,) = result.stderr.splitlines()
    assert line.startswith(b"chess-actors") and argument[:2] in line


def test_the_piped_shell_echoes_no_raw_8bit_csi() -> None:
    result = chess_actors("shell", stdin=b"play e4\x9b31m\nfoo\x9bX\n" + EVIL.encode() + b"\nquit\n")
    assert result.returncode == 1
    assert _raw_in(result.stdout + result.stderr) == []
    assert b"e4\\x9b31m" in result.stdout + result.stderr
