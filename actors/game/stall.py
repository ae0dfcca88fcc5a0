"""Stalling an actor: it answers nothing for a while, as an actor stuck in a handler would.

On free actors the actor sleeps in a handler (a HangOnNext armed for Ping, sprung at once by a Ping);
under a delivery turnstile the stall is the schedule's: the actor takes no delivery until the schedule's
clock passes the stall's end (see :meth:`Turnstile.hold`). Either way those who ask it time out, and the
supervisor, pinging its children when it heals, finds it silent and restarts it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from actors.kernel.control import HangOnNext, Ping
from actors.kernel.errors import ActorUnavailable
from actors.kernel.messaging import post, tell
from actors.roles.registered import CLIENT
from board.errors import InputError

if TYPE_CHECKING:
    from actors.game.game import ActorGame

LONGEST_STALL = 60.0
"""Seconds a stall may last at most (on free actors a stalled thread sleeps that long)."""


def default_stall(timeout: float) -> float:
    """A stall long enough to be found silent: past the ask that times out on it, and past the
    supervisor's Ping after that (three ask timeouts)."""
    return 3 * timeout


def check_stall(seconds: float) -> float:
    """``seconds`` if it is a stall's length (above 0, at most :data:`LONGEST_STALL`).

    Raises:
        InputError: any other number.
    """
    if not 0 < seconds <= LONGEST_STALL:
        raise InputError(f"a stall lasts more than 0 and at most {LONGEST_STALL:g} seconds, not {seconds:g}")
    return seconds


def stall(game: ActorGame, name: str, seconds: float) -> None:
    """Make the actor ``name`` of ``game`` answer nothing for ``seconds``.

    Raises:
        InputError: ``seconds`` is not a stall's length (see :func:`check_stall`).
        ActorUnavailable: no actor of the game is called ``name``.
    """
    check_stall(seconds)
    ref = game.supervisor.ref(name)
    if ref is None:
        raise ActorUnavailable(f"no actor is called {name}")
    if game.turnstile is not None:
        game.turnstile.hold(name, ref, seconds)
        return
    game.ask(name, HangOnNext(Ping.__name__, seconds))
    tell(ref, post(game.recorder, CLIENT, name, Ping(), None, game.plies + 1))


__all__ = ["LONGEST_STALL", "check_stall", "default_stall", "stall"]
