"""The studio's data for a game that is still running, kept up to date event by event.

:func:`~actors.studio.model.build_model` reads a whole trace at once; a live game grows by a few
messages a command, so this keeps each phase built (and its JSON text) and rebuilds only the phases
new messages reach, and those after them, whose board follows theirs: the same data, for the cost
of what changed.
"""

from __future__ import annotations

import bisect
import heapq
import json
from collections.abc import Sequence

from actors.studio.model import (
    START_PLACEMENT,
    PhaseKeys,
    Seen,
    build_phase,
    is_fault,
    parse_placement,
    roster_placement,
)
from actors.tracing.event import FORMAT_VERSION, TraceEvent

__all__ = ["GrowingModel"]

_Failure = tuple[str, str, int | None]
"""What a failed message was (kind, receiver, ply): a later first ask of the same is asked again."""


def _json(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), default=str)


class GrowingModel:
    """The model of one live game's messages (the page's data, as ``build_model`` makes it for the
    whole trace), grown by :meth:`add` and read a range of phases at a time as JSON text.

    Args:
        title: the page's title, carried in the model.
    """

    def __init__(self, title: str) -> None:
        self.title = title
        self.number = 1
        self._events: list[TraceEvent] = []  # in id order
        self._ids: list[int] = []
        self._known: set[int] = set()
        self._open: dict[int, TraceEvent] = {}  # the messages held until they finish, by id
        self._keys: list[str] = []  # each event's phase key
        self._placing = PhaseKeys()
        self._groups: dict[str, list[TraceEvent]] = {}
        self._order: list[str] = []  # phase keys in the order their first message came
        self._position: dict[str, int] = {}
        self._failures: dict[_Failure, list[int]] = {}  # failed first asks' ids, by what failed
        self._failed: list[tuple[int, _Failure]] = []  # the same, in id order
        self._origin: int | None = None
        self._start: tuple[int, str] | None = None  # the first Roster's id and placement
        self._texts: list[str] = []  # each phase built, as JSON
        self._afters: list[str] = []  # each phase's placement after it
        self._marks: list[tuple[int, int, int]] = []  # how many actors, kinds, nodes were seen before each
        self._seen = Seen()

    def __len__(self) -> int:
        """The number of phases."""
        return len(self._texts)

    @property
    def events(self) -> int:
        """The number of finished messages in the model (the open ones aside)."""
        return len(self._events) - len(self._open)

    def add(self, events: Sequence[TraceEvent], handling: Sequence[TraceEvent] | None = None) -> int | None:
        """Take ``events`` (new finished messages, in any order) into the model; return the index of the
        first phase they changed (None: nothing changed).

        ``handling`` (None: as before) are the messages taken up by their receiver whose reply is still to
        come, as they stand now: the model holds them, marked ``open``, until their finished event
        comes; those it held that are not among them any more (finished, or gone) it drops. One whose
        finished event is already in the model is left out."""
        dropped: set[int] = set()
        fresh = list(events)
        if handling is not None:
            finished = {event["msg_id"] for event in events}
            now = {event["msg_id"]: event for event in handling
                   if event["msg_id"] not in finished
                   and (event["msg_id"] not in self._known or event["msg_id"] in self._open)}
            dropped = {msg_id for msg_id, event in self._open.items() if now.get(msg_id) != event}
            fresh += [event for msg_id, event in now.items() if self._open.get(msg_id) != event]
            for msg_id in dropped:
                del self._open[msg_id]
            self._open.update(now)
        if not fresh and not dropped:
            return None
        fresh.sort(key=lambda event: event["msg_id"])
        game = fresh[0].get("game") if fresh else None
        if not self._events and game:
            self.number = game
        first_id = min([*(event["msg_id"] for event in fresh[:1]), *dropped])
        at = bisect.bisect_left(self._ids, first_id)
        tail = [event for event in self._events[at:] if event["msg_id"] not in dropped]
        rebuild_from = self._forget_from(at, first_id)
        self._known.difference_update(dropped)
        self._known.update(event["msg_id"] for event in fresh)
        for event in heapq.merge(tail, fresh, key=lambda event: event["msg_id"]):
            key = self._placing.place(event, self._known, len(self._order))
            if key not in self._groups:
                self._groups[key] = []
                self._position[key] = len(self._order)
                self._order.append(key)
            self._groups[key].append(event)
            rebuild_from = min(rebuild_from, self._position[key])
            self._events.append(event)
            self._ids.append(event["msg_id"])
            self._keys.append(key)
            if event["parent_id"] not in self._known and is_fault(event):
                failure = (event["kind"], event["receiver"], event.get("ply"))
                self._failures.setdefault(failure, []).append(event["msg_id"])
                self._failed.append((event["msg_id"], failure))
        if self._moved_the_start(fresh, bool(dropped)):
            rebuild_from = 0
        self._rebuild(rebuild_from)
        return rebuild_from

    def _forget_from(self, at: int, first_id: int) -> int:
        """Undo the grouping of the events from index ``at`` on (ids from ``first_id``), to group them
        again with the new ones among them; return the first phase they were in (the number of
        phases: none)."""
        keys = set(self._keys[at:])
        for key in keys:
            group = self._groups[key]
            while group and group[-1]["msg_id"] >= first_id:
                group.pop()
        # A phase whose first message is among them is at the end of the order: it starts again.
        while self._order and not self._groups[self._order[-1]]:
            key = self._order.pop()
            del self._groups[key], self._position[key]
        while self._failed and self._failed[-1][0] >= first_id:
            _, failure = self._failed.pop()
            self._failures[failure].pop()
        del self._events[at:], self._ids[at:], self._keys[at:]
        self._placing.rewind(at)
        return min([len(self._order), *(self._position[key] for key in keys if key in self._position)])

    def _moved_the_start(self, fresh: list[TraceEvent], dropped: bool) -> bool:
        """Whether ``fresh`` (or ``dropped``: messages taken out) changes what every phase is measured
        from: the first send, or the first placement the board reported."""
        moved = False
        if dropped:  # an open message gone without finishing may have been the first sent
            earliest = min((event["t_sent"] for event in self._events), default=None)
            moved, self._origin = earliest != self._origin, earliest
        elif fresh:
            earliest = min(event["t_sent"] for event in fresh)
            if self._origin is None or earliest < self._origin:
                moved, self._origin = self._origin is not None, earliest
        for event in fresh:  # in id order: the first placement found is the earliest
            if self._start is not None and event["msg_id"] > self._start[0]:
                break
            placement = roster_placement(event)
            if placement is not None:
                moved, self._start = True, (event["msg_id"], placement)
                break
        return moved

    def _rebuild(self, first: int) -> None:
        """Build the phases from index ``first`` on again (each one's board follows the one before)."""
        del self._texts[first:], self._afters[first:]
        if first < len(self._marks):
            actors, kinds, nodes = self._marks[first]
            seen = self._seen
            seen.actors = dict.fromkeys(list(seen.actors)[:actors])
            seen.kinds = dict.fromkeys(list(seen.kinds)[:kinds])
            seen.nodes = dict(list(seen.nodes.items())[:nodes])
        del self._marks[first:]
        squares = parse_placement(self._afters[-1] if self._afters else
                                  self._start[1] if self._start else START_PLACEMENT)
        origin = self._origin or 0
        for key in self._order[first:]:
            chosen = self._groups[key]
            faults = {event["msg_id"] for event in chosen if is_fault(event)}
            reasks = {event["msg_id"] for event in chosen if self._asked_again(event)}
            self._marks.append((len(self._seen.actors), len(self._seen.kinds), len(self._seen.nodes)))
            phase = build_phase(key.split("#")[0], chosen, squares, origin, faults, reasks, self._seen,
                                self._open)
            self._texts.append(_json(phase))
            self._afters.append(phase["after"])

    def _asked_again(self, event: TraceEvent) -> bool:
        if event["parent_id"] in self._known:
            return False
        earlier = self._failures.get((event["kind"], event["receiver"], event.get("ply")))
        return earlier is not None and bool(earlier) and earlier[0] < event["msg_id"]

    # -- reading

    def start_of_last(self, budget: int, before: int | None = None) -> int:
        """The first index of the phases that end at ``before`` (None: the last) and fit in ``budget``
        characters of JSON, one phase at least (a phase is never cut)."""
        end = len(self._texts) if before is None else max(0, min(before, len(self._texts)))
        start, size = end, 0
        while start > 0 and (start == end or size + len(self._texts[start - 1]) <= budget):
            start -= 1
            size += len(self._texts[start])
        return start

    def phases(self, start: int, end: int | None = None) -> str:
        """The phases from ``start`` to ``end`` (None: the last) as the items of a JSON list."""
        return ",".join(self._texts[start:end])

    def text(self, start: int, end: int | None = None) -> str:
        """The model as JSON text, with the phases from ``start`` to ``end`` (None: the last) only: the
        game's ``phases`` begin at the model's ``from`` and the game has ``total`` of them."""
        seen = self._seen
        game = _json({"number": self.number, "actors": list(seen.actors), "kinds": list(seen.kinds)})
        nodes = f',"nodes":{_json(seen.nodes)}' if seen.nodes else ""
        phases = self.phases(start, end)
        total = len(self._texts)
        head = _json({"title": self.title, "format": FORMAT_VERSION, "from": start, "total": total})
        return f'{head[:-1]},"games":[{game[:-1]},"phases":[{phases}]{nodes}}}]}}'
