"""Text from input files made safe to show on a terminal: control characters written as escapes.

A tag, a move or a scenario line may hold escape sequences that would retitle, recolour or clear
the user's terminal; shown through :func:`terminal_safe` they read as ``\\x1b]0;...`` instead.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 controls (DEL included) and the bidirectional marks and overrides that can make a line
read other than it is; a tab and a line feed pass, as they only move the cursor forward."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with every control or direction character written as a visible escape."""
    return _UNSAFE.sub(_escape, text)


def terminal_safe_line(text: str) -> str:
    """One line of ``text`` for a terminal: as :func:`terminal_safe`, and a line feed escaped too."""
    return terminal_safe(text).replace("\n", "\\n")
