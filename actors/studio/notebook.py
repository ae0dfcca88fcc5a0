"""Notebook views of a live actor game: its board as SVG and a readable repr, read from the journal.

Nothing here sends a message, so looking at a game never adds to its trace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from board.games.game import Game

if TYPE_CHECKING:
    from actors.client.game import ActorGame

__all__ = ["actor_game_repr", "actor_game_svg"]


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
