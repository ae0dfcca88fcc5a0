"""Notebook views: a trace shown as the studio page inline (a game shows its own board and repr).

Nothing here sends a message, so looking never adds to a trace. The trace's view lives here, beside
the page, and not on the recorder: tracing records and knows nothing of the page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from actors.studio import inline_html
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder

if TYPE_CHECKING:
    pass

__all__ = ["StudioView"]


@dataclass(frozen=True)
class StudioView:
    """The studio page of a trace, shown inline by Jupyter (``StudioView(recorder)`` as a cell's last
    line): open at ``ply`` (default: the last ply recorded), ``height`` pixels high.

    A recorder is read when the view is shown, so the same view shows what was recorded since.
    """

    trace: TraceRecorder | Iterable[TraceEvent]
    ply: int | None = None
    height: int = 720

    def _repr_html_(self) -> str:
        """The page in an ``iframe`` of its own (so that its script runs in a notebook)."""
        events = self.trace.events() if isinstance(self.trace, TraceRecorder) else self.trace
        return inline_html(events, ply=self.ply, height=self.height)
