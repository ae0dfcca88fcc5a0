"""Moves played through a game's actors, and the position a game has reached.

A list of moves judged in a game of its own, and a game's FEN even after its actors failed.
"""

from __future__ import annotations

from collections.abc import Sequence

from actors.game.game import ActorGame
from actors.kernel.messaging import DEFAULT_TIMEOUT
from actors.protocol.referee import Rejected
from actors.tracing.recorder import TraceRecorder
from board.errors import ChessActorsError
from board.games.game import Game
from board.notation.fen import STARTING_FEN

__all__ = ["ReplayResult", "final_fen", "replay_moves"]

ReplayResult = tuple[int, str, str | None, tuple[int, str, str] | None]
"""(plies played, FEN reached, outcome there, (ply, move, reason) of the first illegal move or None)."""


def replay_moves(
    moves: Sequence[str],
    fen: str = STARTING_FEN,
    timeout: float = DEFAULT_TIMEOUT,
    recorder: TraceRecorder | None = None,
) -> ReplayResult:
    """Play ``moves`` through the actors until the first illegal one.

    Returns (plies, fen, outcome, error) where error is (1-based ply, move, reason) or None.

    Args:
        moves: SAN or UCI moves, in order.
        fen: the starting position.
        timeout: every ask's timeout, in seconds.
        recorder: traces every message when given.

    Returns:
        (plies, fen, outcome, error): the legal plies played, the FEN reached, how the game stands
        there, and (1-based ply, move, reason) of the first illegal move, or None.
    """
    with ActorGame(fen, timeout, recorder) as game:
        for number, move in enumerate(moves, start=1):
            reply = game.propose(move)
            if isinstance(reply, Rejected):
                return game.plies, game.fen(), game.outcome, (number, move, reply.reason)
        return game.plies, game.fen(), game.outcome, None


def final_fen(game: ActorGame) -> str:
    """The FEN of the position ``game`` has reached.

    Args:
        game: a started game, or one whose actors failed.

    Returns:
        The FEN the actors give; when they are past asking (the game failed), the FEN the journal's
        moves lead to, played over the direct engine.
    """
    try:
        return game.fen()
    except ChessActorsError:
        pass
    board = Game(game.supervisor.start_fen, chess960=game.supervisor.chess960)
    for entry in game.journal:
        board.play(entry.uci, want_san=False)
    return board.fen()
