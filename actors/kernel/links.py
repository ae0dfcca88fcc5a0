"""The link model: what may happen to a message between its sender and its receiver.

A link joins two named actors in one direction. Under a model, each transmission on it (an ask, a
tell, a reply, or the acknowledgement the network sends back for one) may be lost, duplicated,
delayed or reordered, and an actor or a set of actors may be cut off from the rest for a time (a
partition). Nothing here sends anything: :mod:`actors.kernel.network` asks the model for each
transmission's :class:`Fate` and acts on it.

A fate is decided from a keyed hash of the model's seed and the transmission's identity
(the link, what it carries, its sequence number on the link and which attempt it is), never by the
clock or by which thread got there first: the same seed and the same conversation give the same
faults, whatever the machine's speed.
"""

from __future__ import annotations

import struct
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import NamedTuple

from board.errors import InputError

__all__ = [
    "COUNTED", "DEFAULT_DELAY", "FAULT_KINDS", "Fate", "LinkModel", "Partition", "PlannedFaults",
    "parse_network", "separated",
]

COUNTED = ("dropped", "duplicated", "delayed", "retried")
"""The faults a run counts (the ``network`` object of a ``--json`` row)."""

FAULT_KINDS = frozenset({"Dropped", "Duplicated", "Delayed", "Retried", "Fenced"})
"""The kinds of the trace events that mark a fault (see actors.kernel.fault_marks), not deliveries."""

DEFAULT_DELAY = 0.00005
"""Seconds a delayed transmission is held when ``delay=P`` names no time."""

DEFAULT_RETRIES = 12
"""How many times a transmission is sent again before the network gives up on it."""


class Fate(NamedTuple):
    """What happens to one transmission: lost, or delivered ``copies`` times, each after ``delay``
    seconds, the first held back until the next transmission on the link when ``reordered``."""

    lost: bool
    copies: int
    delay: float
    reordered: bool


_FOUR = struct.Struct("<4I")
_UNIT = 1.0 / 2**32

SAFE = Fate(False, 1, 0.0, False)
"""The fate of every transmission on a reliable link."""


@dataclass(frozen=True, slots=True)
class Partition:
    """The actors ``actors`` cut off for ``seconds``, from ``after`` seconds into the run: from every
    other actor, or, when ``apart`` names a second side, from the actors of that side only (the
    links between the two sides are cut; every other link still carries). A name on either side is
    an actor's or, on nodes, a node's, which stands for every actor that node runs.
    """

    actors: frozenset[str]
    seconds: float
    after: float = 0.0
    apart: frozenset[str] = frozenset()

    def text(self) -> str:
        """The partition as the option writes it."""
        start = f"@{self.after:g}" if self.after else ""
        other = f"/{'+'.join(sorted(self.apart))}" if self.apart else ""
        return f"partition={'+'.join(sorted(self.actors))}{other}:{self.seconds:g}{start}"


def separated(sender: str, receiver: str, side: frozenset[str], apart: frozenset[str],
              places: Mapping[str, str]) -> bool:
    """Whether a cut of ``side`` (from ``apart``, or from every other actor when it is empty) lies
    between ``sender`` and ``receiver``; ``places`` gives each actor's node, by name."""
    def within(name: str, names: frozenset[str]) -> bool:
        return name in names or places.get(name) in names

    if not apart:
        return within(sender, side) != within(receiver, side)
    return (within(sender, side) and within(receiver, apart)) or (
        within(sender, apart) and within(receiver, side)
    )


@dataclass(frozen=True, slots=True)
class LinkModel:
    """The faults of every link of a run: probabilities per transmission, a seed, partitions.

    Args:
        loss: the probability that a transmission is lost.
        dup: the probability that it arrives twice.
        delay: the probability that it is held ``delay_seconds`` before it arrives.
        delay_seconds: how long a delayed transmission is held.
        reorder: the probability that it arrives after the next transmission on its link.
        seed: seeds every decision (see the module's docstring).
        retries: how many times the network sends a transmission again before it gives up.
        partitions: actors cut off for a time.
    """

    loss: float = 0.0
    dup: float = 0.0
    delay: float = 0.0
    delay_seconds: float = DEFAULT_DELAY
    reorder: float = 0.0
    seed: int = 0
    retries: int = DEFAULT_RETRIES
    partitions: tuple[Partition, ...] = field(default=())

    def fate(self, sender: str, receiver: str, what: str, seq: int, attempt: int) -> Fate:
        """The fate of attempt ``attempt`` of transmission ``seq`` of ``what`` from ``sender`` to
        ``receiver`` (``what`` tells an ask, a tell, a reply and an acknowledgement apart)."""
        if not (self.loss or self.dup or self.delay or self.reorder):
            return SAFE
        # Four uniform draws from one keyed hash (blake2b: a twentieth of seeding a random.Random).
        key = f"{self.seed}|{sender}|{receiver}|{what}|{seq}|{attempt}".encode()
        digest = blake2b(key, digest_size=16).digest()
        lost, twice, late, swapped = (draw * _UNIT for draw in _FOUR.unpack(digest))
        if lost < self.loss:
            return Fate(True, 0, 0.0, False)
        return Fate(False, 2 if twice < self.dup else 1, self.delay_seconds if late < self.delay else 0.0,
                    swapped < self.reorder)

    def cut(self, sender: str, receiver: str, elapsed: float,
            places: Mapping[str, str] | None = None) -> bool:
        """Whether a partition separates ``sender`` from ``receiver`` ``elapsed`` seconds into the run
        (``places``: each actor's node by name, for partitions that name nodes)."""
        for partition in self.partitions:
            if partition.after <= elapsed < partition.after + partition.seconds and separated(
                sender, receiver, partition.actors, partition.apart, places or {}
            ):
                return True
        return False

    def check_actors(self, known: Collection[str]) -> None:
        """Check that every partitioned actor is one of ``known``.

        Args:
            known: the actors' names (and, on nodes, the nodes' names).

        Raises:
            InputError: a partition names an actor that is not there.
        """
        for partition in self.partitions:
            for name in sorted(partition.actors | partition.apart):
                if name not in known:
                    nodes = " and the nodes (node-1, ...)" if "node-1" in known else ""
                    raise InputError(
                        f"network option {partition.text()!r}: there is no actor called {name!r}"
                        " (the actors are client, referee, board, journal and the pieces, e.g. white-king-e1"
                        f"{nodes})"
                    )

    def text(self) -> str:
        """The model as the option writes it."""
        parts = [f"{key}={value:g}" for key, value in (("loss", self.loss), ("dup", self.dup)) if value]
        if self.delay:
            parts.append(f"delay={self.delay:g}:{self.delay_seconds:g}")
        if self.reorder:
            parts.append(f"reorder={self.reorder:g}")
        parts.append(f"seed={self.seed}")
        if self.retries != DEFAULT_RETRIES:
            parts.append(f"retries={self.retries}")
        parts.extend(partition.text() for partition in self.partitions)
        return ",".join(parts)


class PlannedFaults:
    """Faults asked for by hand, by message kind (``drop next Apply``): each befalls the next message
    of its kind, or the next reply to one, whatever the model says (both networks keep one)."""

    def __init__(self) -> None:
        self._by_kind: dict[tuple[str, str], list[str]] = {}

    def __bool__(self) -> bool:
        return bool(self._by_kind)

    def add(self, kind: str, fault: str, reply: bool, times: int) -> None:
        """Befall the next ``times`` messages of class ``kind`` (or their replies) with ``fault``."""
        self._by_kind.setdefault((kind, "reply" if reply else "message"), []).extend([fault] * times)

    def take(self, kind: str, carrying: str) -> str | None:
        """The fault planned for this message of ``kind`` (``carrying`` 'reply' for a reply), now used
        up; None when none is."""
        key = (kind, "reply" if carrying == "reply" else "message")
        faults = self._by_kind.get(key)
        if not faults:
            return None
        fault = faults.pop(0)
        if not faults:
            del self._by_kind[key]
        return fault


def parse_network(text: str) -> LinkModel:
    """The link model an option names: ``KEY=VALUE`` pairs separated by commas.

    Keys: ``loss=P``, ``dup=P``, ``delay=P[:SECONDS]``, ``reorder=P`` (probabilities from 0 to 1),
    ``seed=N``, ``retries=N``, ``partition=ACTOR[+ACTOR...][/ACTOR[+ACTOR...]]:SECONDS[@AFTER]`` (any
    number of them: one side is cut off from every other actor, two sides from each other; on nodes
    a node's name stands for its actors).

    Args:
        text: the option's value, e.g. ``loss=0.05,dup=0.05,delay=0.05,seed=1``.

    Returns:
        The model (the keys not given keep the defaults: no fault, seed 0, 12 retries).

    Raises:
        InputError: an unknown key, a value out of range or malformed, a key given twice.
    """
    values: dict[str, float | int] = {}
    partitions: list[Partition] = []
    delay_seconds = DEFAULT_DELAY
    for item in (part.strip() for part in text.split(",")):
        key, equals, value = item.partition("=")
        key = key.strip().lower()
        if not equals or not value.strip():
            raise InputError(f"network option {item!r}: write KEY=VALUE (loss=0.05,dup=0.05,seed=1)")
        value = value.strip()
        if key == "partition":
            partitions.append(_partition(item, value))
            continue
        if key in values:
            raise InputError(f"network option {item!r}: {key} is given twice")
        if key in ("loss", "dup", "reorder"):
            values[key] = _probability(item, key, value)
        elif key == "delay":
            chance, colon, seconds = value.partition(":")
            values[key] = _probability(item, key, chance)
            if colon:
                delay_seconds = _seconds(item, seconds)
        elif key in ("seed", "retries"):
            values[key] = _count(item, key, value)
        else:
            raise InputError(
                f"network option {item!r}: unknown key {key!r}"
                " (use loss, dup, delay, reorder, seed, retries or partition)"
            )
    return LinkModel(
        loss=float(values.get("loss", 0.0)),
        dup=float(values.get("dup", 0.0)),
        delay=float(values.get("delay", 0.0)),
        delay_seconds=delay_seconds,
        reorder=float(values.get("reorder", 0.0)),
        seed=int(values.get("seed", 0)),
        retries=int(values.get("retries", DEFAULT_RETRIES)),
        partitions=tuple(partitions),
    )


def _probability(item: str, key: str, value: str) -> float:
    try:
        chance = float(value)
    except ValueError:
        chance = -1.0
    if not 0.0 <= chance <= 1.0:
        raise InputError(f"network option {item!r}: {key} is a probability from 0 to 1, not {value!r}")
    if key == "loss" and chance == 1.0:
        raise InputError(f"network option {item!r}: a link that loses everything can carry nothing")
    return chance


def _seconds(item: str, value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0.0 <= seconds <= 60.0:
        raise InputError(f"network option {item!r}: a time is seconds from 0 to 60, not {value!r}")
    return seconds


def _count(item: str, key: str, value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0 or (key == "retries" and number > 30):
        limit = "from 0 to 30" if key == "retries" else "a whole number from 0 up"
        raise InputError(f"network option {item!r}: {key} is {limit}, not {value!r}")
    return number


def _partition(item: str, value: str) -> Partition:
    names, colon, rest = value.partition(":")
    first, slash, second = names.partition("/")
    actors, apart = _names(first), _names(second)
    if not colon or not actors or (slash and not apart):
        raise InputError(f"network option {item!r}: write partition=ACTOR[+ACTOR...][/ACTOR[+ACTOR...]]"
                         ":SECONDS[@AFTER]")
    if actors & apart:
        shared = ", ".join(sorted(actors & apart))
        raise InputError(f"network option {item!r}: {shared} cannot be on both sides of a partition")
    seconds, at, after = rest.partition("@")
    return Partition(actors, _seconds(item, seconds), _seconds(item, after) if at else 0.0, apart)


def _names(text: str) -> frozenset[str]:
    return frozenset(name.strip() for name in text.split("+") if name.strip())
