"""Judging whole games: one verdict per PGN game, shared by every engine and the command line.

A game stops at its first illegal (or unreadable) move; the verdict says how far it got, the
position reached, how the game stood there, and what went wrong where.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from board.errors import ChessActorsError, FenError
from board.games.game import Game
from board.games.verdicts import FAILURE, ILLEGAL, UNREADABLE, GameVerdict, MoveError
from board.notation.fen import STARTING_FEN
from board.notation.pgn import MoveToken, PgnGame

__all__ = [
    "CHESS960_VARIANTS",
    "FAILURE",
    "ILLEGAL",
    "UNREADABLE",
    "GameVerdict",
    "MoveError",
    "bad_start",
    "is_chess960",
    "move_error",
    "replay_direct",
    "start_fen",
    "start_game",
    "verdict",
]

CHESS960_VARIANTS: Final = frozenset({"chess960", "chess 960", "960", "fischerandom", "fischerrandom",
                                     "fischer random", "fischer random chess", "freestyle"})
"""Variant tag values (compared in lower case) that mark a Chess960 game."""


def start_fen(game: PgnGame) -> str:
    """The position a PGN game starts from: its FEN tag when it has one."""
    return game.tags.get("FEN", STARTING_FEN)


def is_chess960(game: PgnGame) -> bool:
    """Whether the game's Variant tag says Chess960 (its FEN's K and Q are then X-FEN)."""
    return game.tags.get("Variant", "").strip().lower() in CHESS960_VARIANTS


def start_game(game: PgnGame) -> Game:
    """A direct-engine game at the PGN game's start (a Chess960 one when its Variant tag says so).

    Raises:
        FenError: the FEN tag cannot be read.
    """
    return Game(start_fen(game), chess960=is_chess960(game))


def verdict(game: PgnGame, plies: int, fen: str, outcome: str | None,
            error: MoveError | None, claimable: tuple[str, ...] = ()) -> GameVerdict:
    """Assemble the verdict of a replayed game, adding the PGN's own syntax error if any.

    The Result tag is reported as written: a game may end in a draw by agreement or by a claim at
    any point, so '1/2-1/2' needs no claimable position (``claimable`` says which claims stood).
    """
    if error is None and game.error is not None:
        error = MoveError(plies + 1, game.error.token, game.error.reason, game.error.line,
                          game.error.column, UNREADABLE)
    if error is not None and error.source is None and game.source is not None:
        error = replace(error, source=game.source)
    result = game.tags.get("Result") or game.result or "*"
    return GameVerdict(game.number, game.tags.get("White", "?"), game.tags.get("Black", "?"),
                       plies, fen, outcome, result, error, game.source,
                       claimable)


def move_error(ply: int, token: MoveToken, error: ChessActorsError) -> MoveError:
    """The verdict's error for a move token the rules refused."""
    reason = getattr(error, "reason", None) or str(error)
    return MoveError(ply, token.text, reason, token.line, token.column)


def bad_start(game: PgnGame, error: FenError) -> GameVerdict:
    """The verdict of a game whose FEN tag cannot be read: it fails before its first move."""
    first = game.moves[0].text if game.moves else ""
    return verdict(game, 0, game.tags.get("FEN", ""), None,
                   MoveError(1, first, f"FEN tag: {error}", kind=UNREADABLE))


def replay_direct(game: PgnGame) -> GameVerdict:
    """Replay one PGN game with direct calls over the rules core, up to its first illegal move.

    Args:
        game: a game read by :func:`board.notation.pgn.read_games`.

    Returns:
        The verdict: the plies played, the FEN reached, how the game stands there, and the first
        illegal move (or a starting FEN that cannot be read) as its error.
    """
    try:
        board = start_game(game)
    except FenError as unreadable:  # a name of its own: compiled, one name holds one type
        return bad_start(game, unreadable)
    for token in game.moves:
        try:
            board.step(token.text)
        except ChessActorsError as error:
            return verdict(game, board.plies, board.fen(), board.outcome(),
                           move_error(board.plies + 1, token, error), board.claimable())
    return verdict(game, board.plies, board.fen(), board.outcome(), None, board.claimable())
