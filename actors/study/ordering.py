"""Deliveries in a written order: a scenario's ``order`` line run under the turnstile, and written back.

:class:`Ordered` is the policy that runs an ``order`` line (its faults befallen as the shell's
``drop N`` and ``duplicate N`` befall a waiting delivery); :func:`order_line` writes what a command
delivered, and befell, in that grammar, so that a session saved by the shell replays its choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from actors.kernel.policies import Fifo, Policy, Ready, Reoffer, ScheduleError, Step
from actors.study.steps import OrderEntry

__all__ = ["Befallen", "Ordered", "order_line"]

Befallen = tuple[int, str, str]
"""A fault chosen by hand during a command: how many of its deliveries had run before it, the fault
(``drop`` or ``duplicate``) and the actor its delivery goes to."""


class Ordered(Policy):
    """Runs the deliveries an ``order`` line names, one entry at a time, then arrival order.

    An entry names the actor whose ready delivery runs next (one actor has one at most: the head of
    its mailbox, or its resumption); an entry with a fault befalls that delivery through ``befall``
    instead (:meth:`~actors.kernel.schedule.Turnstile.befall`), and the turnstile offers what is
    ready then to the next entry.

    Args:
        entries: the order line's entries.
        befall: befalls a ready delivery with a fault (raises ValueError when it cannot).
        source: how an error names the order (``the order on line 5``).

    Raises (from ``choose``):
        ScheduleError: the entry's actor has no delivery ready, or its fault cannot befall it.
    """

    name = "order"
    instant = False
    """A fault changes what is ready: the driver, not an actor, asks again (see Reoffer)."""

    def __init__(self, entries: Sequence[OrderEntry], befall: Callable[[Ready, str], object],
                 source: str = "the order") -> None:
        self.entries = tuple(entries)
        self.position = 0
        self.source = source
        self._befall = befall

    @property
    def left(self) -> tuple[OrderEntry, ...]:
        """The entries not reached yet."""
        return self.entries[self.position:]

    def choose(self, ready: Sequence[Ready]) -> Ready:
        if self.position >= len(self.entries):
            return Fifo().choose(ready)
        entry = self.entries[self.position]
        chosen = next((item for item in ready if item.actor == entry.actor), None)
        if chosen is None:
            choices = ", ".join(sorted(item.actor for item in ready))
            raise ScheduleError(f"{self.source} does not match the game: its entry {self.position + 1}"
                                f" ({entry}) names {entry.actor}, but the actors with a delivery ready"
                                f" are: {choices}")
        self.position += 1
        if entry.fault is None:
            return chosen
        try:
            self._befall(chosen, entry.fault)
        except ValueError as error:
            raise ScheduleError(f"{self.source} does not match the game: its entry {self.position}"
                                f" ({entry}): {error}") from None
        raise Reoffer(f"{entry} befell: offered again")


def order_line(steps: Sequence[Step], befallen: Sequence[Befallen] = ()) -> str | None:
    """The ``order`` line that runs ``steps`` (one command's deliveries, in the order they ran) with
    the faults ``befallen`` on the way; None when the command delivered nothing and befell nothing."""
    words: list[str] = []
    faults = sorted(befallen, key=lambda fault: fault[0])
    taken = 0
    for position, step in enumerate(steps):
        while taken < len(faults) and faults[taken][0] <= position:
            words.append(str(OrderEntry(faults[taken][2], faults[taken][1])))
            taken += 1
        words.append(step.actor)
    words.extend(str(OrderEntry(actor, fault)) for _, fault, actor in faults[taken:])
    return "order " + " ".join(words) if words else None
