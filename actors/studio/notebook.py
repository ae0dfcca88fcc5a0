"""Notebook views: a live actor game's board as SVG and a readable repr, read from the journal, and
a trace shown as the studio page inline.

Nothing here sends a message, so looking at a game never adds to its trace. The trace's view lives
here, beside the page, and not on the recorder: tracing records and knows nothing of the page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from actors.studio import inline_html
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder
from board.games.game import Game

if TYPE_CHECKING:
    from actors.client.game import ActorGame

__all__ = ["StudioView", "actor_game_repr", "actor_game_svg"]


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


def _mirror(game: ActorGame) -> Game:
    """The direct engine's game replaying the journal of accepted moves."""
    mirror = Game(game.supervisor.start_fen, chess960=game.supervisor.chess960)
    for entry in game.journal:
        mirror.play(entry.uci, want_san=False)
    return mirror


def actor_game_svg(game: ActorGame) -> str:
    """The position the actors have reached, as an SVG board with the last move tinted."""
    return _mirror(game)._repr_svg_()


def actor_game_repr(game: ActorGame) -> str:
    """``ActorGame(plies=3, last='g1f3', fen='...')``: where the game stands, by the journal."""
    journal = game.journal
    last = f", last={journal[-1].uci!r}" if journal else ""
    return f"ActorGame(plies={len(journal)}{last}, fen={_mirror(game).fen()!r})"
