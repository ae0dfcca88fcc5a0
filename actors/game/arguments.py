"""The client's checks of what a program hands it (timeouts, move texts, Ray addresses), made before
anything reaches an actor: a wrong argument is a TypeError or a ValueError at the call (an InputError
for a Ray address, as the command line gives it), never an actor that crashes on it later.
"""

from __future__ import annotations

import math
import threading
from numbers import Real

from board.errors import InputError


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


class RayAddressError(InputError):
    """``--ray`` was given something that is not a Ray address."""


def check_address(text: str) -> str:
    """``text`` if it is 'local', 'auto', HOST:PORT or ray://HOST:PORT.

    Raises:
        RayAddressError: it is none of those (a URL of another scheme, a port that is no number).
    """
    if text in ("local", "auto"):
        return text
    rest = text.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    if "://" in rest or "/" in rest or not colon or not host or not port.isdigit() \
            or not 0 < int(port) < 65536:
        raise RayAddressError(f"--ray {text}: not a Ray address (give local, auto, HOST:PORT or "
                              f"ray://HOST:PORT)")
    return text
