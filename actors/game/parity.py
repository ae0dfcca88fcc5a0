"""The two engines' verdicts on one move in one comparable form, for parity checks and studies.

``direct_verdict`` and ``actor_verdict`` answer the same tuple for the same move in the same
position: ('accepted', uci, san, check, outcome) or (kind of refusal, reason).
"""

from __future__ import annotations

from actors.game.game import ActorGame
from actors.protocol import Accepted, Rejected
from board.errors import AmbiguousMoveError, IllegalMoveError, MoveSyntaxError
from board.games.game import Game

Verdict = tuple[str, ...]


def direct_verdict(game: Game, text: str) -> Verdict:
    """The direct engine's verdict on one move (the move is played when legal)."""
    try:
        played = game.play(text)
    except MoveSyntaxError as error:
        return ("syntax", str(error))
    except AmbiguousMoveError as error:
        return ("ambiguous", error.reason)
    except IllegalMoveError as error:
        return ("illegal", error.reason)
    return ("accepted", game.uci(played.move), played.san, str(played.check), str(played.outcome))


def actor_verdict(game: ActorGame, text: str) -> Verdict:
    """The actors' verdict on one move (the move is played when legal)."""
    reply = game.propose(text)
    if isinstance(reply, Accepted):
        return ("accepted", reply.uci, reply.san, str(reply.check), str(reply.outcome))
    assert isinstance(reply, Rejected)
    # "the game is over" is an illegal move to the direct engine too.
    return ("illegal" if reply.kind == "over" else reply.kind, reply.reason)
