"""The client's checks of what a program hands it (timeouts, move texts), made before anything
reaches an actor: a wrong argument is a TypeError or a ValueError at the call, never an actor that
crashes on it later.
"""

from __future__ import annotations

import math
import threading
from numbers import Real


def checked_timeout(value: object, what: str = "timeout") -> float:
    """``value`` as a number of seconds to wait: a real number, finite, above 0, and no longer than
    the longest wait the platform takes (``threading.TIMEOUT_MAX``).

    Raises:
        TypeError: not a number (True and False are not numbers of seconds either).
        ValueError: NaN, infinite, 0 or less, or longer than the platform waits.
    """
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{what} must be a number of seconds, not {type(value).__name__}")
    seconds = float(value)
    if math.isnan(seconds) or not 0 < seconds <= threading.TIMEOUT_MAX:
        raise ValueError(f"{what} must be a positive number of seconds, at most {threading.TIMEOUT_MAX:g};"
                         f" got {seconds!r}")
    return seconds


def checked_text(value: object, what: str) -> str:
    """``value`` when it is a string.

    Raises:
        TypeError: anything else (None included), naming ``what`` it was given as.
    """
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, not {type(value).__name__}")
    return value
