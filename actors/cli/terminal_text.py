"""Text from input files made safe to show on a terminal: control characters written as escapes.

A tag, a move, a scenario line, a trace's field or an argument may hold escape sequences that would
retitle, recolour or clear the user's terminal; shown through :func:`terminal_safe` they read as
``\\x1b]0;...`` instead. This is the one place that decides what a terminal may be shown: every
command that prints text it was given goes through it, and so does the live studio's log.
"""

from __future__ import annotations

import re

__all__ = ["terminal_safe", "terminal_safe_line"]

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
"""C0 and C1 controls (DEL included; 0x9b is the 8-bit CSI), the bidirectional marks and overrides
and the line and paragraph separators that can make a line read other than it is, and lone
surrogates: the bytes that were not UTF-8 in a command's arguments or a piped stream (Python keeps
them as U+DC80 to U+DCFF, and writes them back as the raw bytes, an 8-bit CSI among them). A tab
and a line feed pass, as they only move the cursor forward."""

_RAW_BYTES = range(0xDC80, 0xDD00)
"""The surrogates that stand for the bytes 0x80 to 0xff that did not decode."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code in _RAW_BYTES:
        return f"\\x{code - 0xDC00:02x}"  # the byte as it came
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """Return ``text`` with every control or direction character written as a visible escape.

    ``"\\x1b[2J"`` (clear the screen) becomes the eight characters ``\\x1b[2J``, U+202E (right-to-left
    override) becomes ``\\u202e``, and a byte that was not UTF-8 (kept by Python as a surrogate)
    becomes ``\\x9b``; tabs, line feeds and every printable character pass as they are.

    Args:
        text: what came from input (a file, a stream, an argument) and is about to be shown.

    Returns:
        The text with nothing left that a terminal would obey.
    """
    return _UNSAFE.sub(_escape, text)


def terminal_safe_line(text: str) -> str:
    """Return one line of ``text`` for a terminal (a log line, an error message).

    Args:
        text: as for :func:`terminal_safe`.

    Returns:
        The text as :func:`terminal_safe` makes it, with each line feed written as ``\\n`` too.
    """
    return terminal_safe(text).replace("\n", "\\n")
