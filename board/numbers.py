"""Whole numbers read from what users type, with a clear error instead of Python's surprises.

``int()`` refuses strings past 4,300 digits with a bare ValueError; no count here needs a tenth of
that, so anything longer than :data:`MAX_DIGITS` digits is reported as too large by the caller's error.
"""

from __future__ import annotations

from typing import Final

from board.errors import InputError

MAX_DIGITS: Final = 18


def whole_number(digits: str, what: str, error: type[InputError] = InputError) -> int:
    """The value of a run of ASCII digits, or ``error`` saying that ``what`` is too large."""
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise error(f"{what} has {len(digits)} digits; at most {MAX_DIGITS} are accepted")
    return int(digits)
