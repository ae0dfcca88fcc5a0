"""Statistics over trace events: which role an actor plays, and the latency figures reported.

Small pure functions over plain numbers and names, shared by the recorder and the command line.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from board.rules.pieces import COLOUR_NAMES

COLOURS = frozenset(COLOUR_NAMES)


def actor_role(name: str) -> str:
    """Return the role of an actor from its stable name.

    ``"white-knight-g1"`` -> ``"knight"``; ``"referee"`` -> ``"referee"``; ``"board"`` ->
    ``"board"``; a numbered name such as ``"referee-2"`` -> ``"referee"``.
    """
    parts = name.split("-")
    if len(parts) >= 2 and parts[0] in COLOURS:
        return parts[1]
    return parts[0]


def percentile(samples: Sequence[int], fraction: float) -> int:
    """Return the nearest-rank percentile of sorted ``samples`` (``fraction`` in (0, 1]).

    Raises ValueError when ``samples`` is empty.
    """
    if not samples:
        raise ValueError("percentile of no samples")
    rank = max(1, math.ceil(fraction * len(samples)))
    return samples[min(rank, len(samples)) - 1]


def p99(samples: Sequence[int]) -> int:
    """Return the 99th percentile (nearest rank) of sorted ``samples``."""
    return percentile(samples, 0.99)


def median(samples: Sequence[int]) -> float:
    """Return the median of ``samples``; raises ValueError when there are none."""
    if not samples:
        raise ValueError("median of no samples")
    return float(statistics.median(samples))
