"""The actor shell's errors: an actor that could not answer, and the supervisor giving up.

All are :class:`board.errors.ChessActorsError`, the project's one base error.
"""

from __future__ import annotations

from board.errors import ChessActorsError


class ActorFailure(ChessActorsError):
    """An actor could not answer: dead, crashed, or too slow. The game heals or reports it."""


class ActorTimeout(ActorFailure):
    """An ask got no reply within its timeout."""


class ActorUnavailable(ActorFailure):
    """The actor asked is dead, or crashed while handling the message."""


class RestartIntensityExceeded(ActorFailure):
    """More restarts than the supervisor allows in its period: the game ends with this error."""


class GameClosed(ChessActorsError):
    """A game (or session) used before it was started, or after it was closed."""


class InjectedCrash(RuntimeError):
    """The fault raised by Crash and CrashOnNext (a test's way of killing an actor)."""


class LinkFailure(ActorFailure):
    """A message could not cross its link: the network sent it again as often as it may, and every
    attempt (or every acknowledgement) was lost. Nothing was decided on it: the asker sees this error."""
