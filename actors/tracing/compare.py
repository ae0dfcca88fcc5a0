"""Two delivery orders of the same ply side by side, and the first delivery where they part.

A run's delivery order is its trace's messages in the order their receivers took them up (a fault
on a link, ``Dropped`` or ``Duplicated``, in the order it befell its message), each as one line:
who received what from whom. Comparing two runs of one ply (arrival order and an order explored,
a run without faults and one with a message lost) lines them up and finds the first line that
differs, as ShiViz's diff does for two executions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from actors.tracing.event import TraceEvent

__all__ = ["OrderComparison", "compare_orders", "delivery_order"]


def delivery_order(events: Sequence[TraceEvent]) -> list[str]:
    """The run's deliveries in the order they were taken up, one line each (``board ← referee: Survey``)."""
    taken = sorted(events, key=lambda event: (event["t_handled"], event["msg_id"]))
    return [f"{event['receiver']} ← {event['sender']}: {event.get('summary') or event['kind']}"
            for event in taken]


@dataclass(frozen=True, slots=True)
class OrderComparison:
    """Two delivery orders of a ply: ``left`` and ``right`` (lines, see :func:`delivery_order`), what
    each is (``left_label``, ``right_label``), and the 0-based index of the first delivery in which
    they differ (None: the same order)."""

    title: str
    left_label: str
    right_label: str
    left: tuple[str, ...]
    right: tuple[str, ...]
    first: int | None

    def as_json(self) -> dict[str, Any]:
        """The comparison as the studio page reads it."""
        return {"title": self.title, "left": {"label": self.left_label, "rows": list(self.left)},
                "right": {"label": self.right_label, "rows": list(self.right)}, "first": self.first}

    def __str__(self) -> str:
        if self.first is None:
            head = f"{self.title}: the same {len(self.left)} deliveries in the same order"
        else:
            head = f"{self.title}: the orders part at delivery {self.first + 1}"
        width = max([len(self.left_label), *(len(row) for row in self.left)], default=0)
        lines = [head, f"     {self.left_label:<{width}}  │ {self.right_label}"]
        for index in range(max(len(self.left), len(self.right))):
            left = self.left[index] if index < len(self.left) else ""
            right = self.right[index] if index < len(self.right) else ""
            mark = "≠" if index == self.first else " "
            lines.append(f"{mark}{index + 1:>3} {left:<{width}}  │ {right}")
        return "\n".join(lines)


def compare_orders(left: Sequence[TraceEvent], right: Sequence[TraceEvent], left_label: str,
                   right_label: str, title: str = "two delivery orders") -> OrderComparison:
    """Line up two runs' delivery orders and find where they first differ.

    Args:
        left, right: the runs' trace events (of the one ply each compares).
        left_label, right_label: what each run is ("arrival order", "the order explored").
        title: what is compared ("ply 3 Nf3").

    Returns:
        The comparison; ``first`` is None when the two orders are the same.
    """
    ours, theirs = delivery_order(left), delivery_order(right)
    pairs = enumerate(zip(ours, theirs, strict=False))
    first = next((index for index, (one, other) in pairs if one != other), None)
    if first is None and len(ours) != len(theirs):
        first = min(len(ours), len(theirs))
    return OrderComparison(title, left_label, right_label, tuple(ours), tuple(theirs), first)
