"""The studio's data: trace events grouped by game and phase, with the board before and after each.

Plain data for the page's script (JSON); the board follows the moves the referee accepted.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from actors.tracing.event import FORMAT_VERSION, TraceEvent
from actors.tracing.export import phase_of, placing_nodes, timeline

__all__ = [
    "RECURRING_PHASES", "START_PLACEMENT", "PhaseKeys", "Seen", "apply_uci", "build_model", "build_phase",
    "is_fault", "parse_placement", "placement_text", "roster_placement",
]

START_PLACEMENT = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
FAULT_KINDS = frozenset({"Crash", "CrashOnNext", "HangOnNext"})

LINK_FAULTS = {"Dropped": "dropped", "Duplicated": "duplicated", "Delayed": "delayed", "Retried": "retried"}
"""What befell a message on its link (actors.kernel.network), by the kind of the event that marks it."""
RECURRING_PHASES = frozenset({"heal", "startup"})
"""Phases that may recur in a game and must not merge with an earlier run of the same name."""


def parse_placement(text: str) -> list[str]:
    """A FEN placement field as 64 one-letter strings, a1 first ('' for an empty square).

    Raises:
        ValueError: the text is not eight ranks of eight squares.
    """
    ranks = text.split("/")
    if len(ranks) != 8:
        raise ValueError(f"placement {text!r}: expected 8 ranks")
    squares: list[str] = []
    for rank_text in reversed(ranks):
        row: list[str] = []
        for char in rank_text:
            row.extend([""] * int(char) if char.isdigit() else [char])
        if len(row) != 8:
            raise ValueError(f"placement {text!r}: a rank without 8 squares")
        squares.extend(row)
    return squares


def placement_text(squares: Sequence[str]) -> str:
    """The FEN placement field of 64 one-letter strings (a1 first)."""
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for letter in squares[rank * 8 : rank * 8 + 8]:
            if not letter:
                empty += 1
                continue
            text, empty = text + (str(empty) if empty else "") + letter, 0
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def _index(name: str) -> int:
    return (int(name[1:]) - 1) * 8 + ord(name[0]) - ord("a")


def apply_uci(squares: list[str], move: str) -> None:
    """Make an accepted move (UCI) on a placement: castling moves the rook, en passant takes the pawn.

    The move was judged legal already, so only what it moves is worked out here, from the letters.
    """
    origin, target = _index(move[0:2]), _index(move[2:4])
    piece = squares[origin]
    rook = "R" if piece == "K" else "r"
    if piece in ("K", "k") and squares[target] == rook:  # Chess960: the king takes its own rook
        home = origin // 8 * 8
        king_to, rook_to = (home + 6, home + 5) if target > origin else (home + 2, home + 3)
        squares[origin] = squares[target] = ""
        squares[king_to], squares[rook_to] = piece, rook
        return
    if piece in ("K", "k") and abs(target % 8 - origin % 8) == 2:
        rook_from, rook_to = (origin + 3, origin + 1) if target > origin else (origin - 4, origin - 1)
        squares[rook_to], squares[rook_from] = squares[rook_from], ""
    if piece in ("P", "p") and target % 8 != origin % 8 and not squares[target]:
        squares[origin // 8 * 8 + target % 8] = ""
    squares[origin] = ""
    if len(move) > 4:
        piece = move[4].upper() if piece.isupper() else move[4].lower()
    squares[target] = piece


def _start_placement(events: Iterable[TraceEvent]) -> str:
    """The placement the board reported first (its Roster at start-up), else the standard start."""
    for event in events:
        placement = roster_placement(event)
        if placement is not None:
            return placement
    return START_PLACEMENT


def roster_placement(event: TraceEvent) -> str | None:
    """The placement a board's Roster reply reports (None: not a Roster, or not a placement)."""
    reply = event.get("reply_payload") or {}
    placement = reply.get("placement")
    if event.get("reply") != "Roster" or not isinstance(placement, str):
        return None
    try:
        parse_placement(placement)
    except ValueError:
        return None
    return placement


def is_fault(event: TraceEvent) -> bool:
    """Whether the message failed: a crash or hang ordered, or a reply that is an error."""
    return event["kind"] in FAULT_KINDS or "error" in (event.get("reply_payload") or {})


def _phase_kind(label: str | None) -> str:
    if label is None:
        return "other"
    head = label.split(maxsplit=1)[0] if label.strip() else ""
    return head if head in ("startup", "ply", "step", "heal") else "other"


_PROPOSALS = frozenset({"ProposeText", "ProposeSquares"})
_NEXT_PLY = re.compile(r"but ply (\d+) is next")


def _refusal(event: TraceEvent) -> str | None:
    """How the referee refused a proposal: ``"cancelled"`` for one sent behind a refused ply (or, in
    a trace written before such proposals were marked, for a later ply than the next), ``"refused"``
    for any other refusal; None for anything else."""
    if event["kind"] not in _PROPOSALS or event.get("reply") != "Rejected":
        return None
    reply = event.get("reply_payload") or {}
    reason = str(reply.get("reason", ""))
    if reply.get("kind") != "stale":
        return "refused"
    if reason.startswith("cancelled"):
        return "cancelled"
    later = _NEXT_PLY.search(reason)
    ply = event.get("ply")
    return "cancelled" if later and isinstance(ply, int) and ply > int(later.group(1)) else "refused"


def _label(event: TraceEvent) -> str:
    """The phase an event served; a proposal cancelled by a refusal serves the refused ply (a trace
    written before cancelled proposals were marked names a ply never played)."""
    label = phase_of(event) or "other"
    if _refusal(event) == "cancelled" and label == f"ply {event.get('ply')}":
        later = _NEXT_PLY.search(str((event.get("reply_payload") or {}).get("reason", "")))
        if later:
            return f"ply {later.group(1)}"
    return label


_Undo = tuple[int, str | None, str, str | None, str | None]
"""What one event's placing changed (see :class:`PhaseKeys`), to undo it: the runs and last label
before it, its label, that label's newest phase before it, the phase it marked refused."""


class PhaseKeys:
    """Which phase each of a game's events (in id order) falls in, one event at a time: plies and steps
    gather their messages even when pipelining interleaves them; each run of start-up or healing is a
    phase of its own, and a move proposed after a refused one for the same ply is a phase of its own
    too (each command of the live studio is one phase). A phase's key is its label, with ``#`` and a
    number after it when the label has more than one phase. The latest placings can be undone, to
    place events again with others among them."""

    def __init__(self) -> None:
        self._runs = 0  # runs of recurring phases so far
        self._previous: str | None = None  # the last event's label
        self._latest: dict[str, str] = {}  # a ply's or step's label: the key of its newest phase
        self._refused: set[str] = set()  # the phases whose proposal was refused
        self._log: list[_Undo] = []

    def __len__(self) -> int:
        """The number of events placed."""
        return len(self._log)

    def place(self, event: TraceEvent, known: Collection[int], phases: int) -> str:
        """The key of the phase ``event`` falls in; ``known`` holds the ids of the game's events (a
        proposal whose parent is not among them was sent by the client), ``phases`` is the number of
        phases so far."""
        label = _label(event)
        undo: _Undo = (self._runs, self._previous, label, self._latest.get(label), None)
        if label in RECURRING_PHASES:
            if label != self._previous:
                self._runs += 1
            key = f"{label}#{self._runs}"
        else:
            key = self._latest.setdefault(label, label)
            proposal = event["kind"] in _PROPOSALS and event["parent_id"] not in known
            refusal = _refusal(event)
            if proposal and refusal != "cancelled" and key in self._refused:
                key = self._latest[label] = f"{label}#{phases}"
            if proposal and refusal == "refused" and key not in self._refused:
                self._refused.add(key)
                undo = (*undo[:4], key)
        self._previous = label
        self._log.append(undo)
        return key

    def rewind(self, placed: int) -> None:
        """Undo the placings after the first ``placed``."""
        while len(self._log) > placed:
            self._runs, self._previous, label, latest, refused = self._log.pop()
            if latest is None:
                self._latest.pop(label, None)
            else:
                self._latest[label] = latest
            if refused is not None:
                self._refused.discard(refused)


def _group(events: list[TraceEvent]) -> list[tuple[str, list[TraceEvent]]]:
    """Split a game's events (in id order) into phases, as :class:`PhaseKeys` places them."""
    groups: dict[str, list[TraceEvent]] = {}
    order: list[str] = []
    keys = PhaseKeys()
    known = {event["msg_id"] for event in events}
    for event in events:
        key = keys.place(event, known, len(order))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(event)
    return [(key.split("#")[0], groups[key]) for key in order]


def _compact(
    event: TraceEvent, origin: int, faults: set[int], reasks: set[int], handling: Collection[int]
) -> dict[str, Any]:
    replied = event.get("t_replied")
    compact = {
        "id": event["msg_id"],
        "parent": event["parent_id"],
        "from": event["sender"],
        "to": event["receiver"],
        "kind": event["kind"],
        "summary": event.get("summary") or event["kind"],
        "payload": event.get("payload") or {},
        "reply": event.get("reply"),
        "reply_summary": event.get("reply_summary") or event.get("reply"),
        "reply_payload": event.get("reply_payload"),
        "sent": event["t_sent"] - origin,
        "handled": event["t_handled"] - origin,
        "replied": None if replied is None else replied - origin,
        "ply": event.get("ply"),
        "fault": event["msg_id"] in faults,
        "restart": event["kind"] == "Restart",
        "link": LINK_FAULTS.get(event["kind"]),
        "reask": event["msg_id"] in reasks,
    }
    if _refusal(event) == "cancelled":  # sent behind a refused proposal: it served the refused ply
        compact["cancelled"] = True
    if event["msg_id"] in handling:  # taken up by its receiver, its reply not yet given
        compact["open"] = True
    if "sender_node" in event:  # a game on nodes: whether the message crossed between processes
        compact["crossed"] = event["sender_node"] != event.get("receiver_node")
    return compact


def _faults_and_reasks(events: list[TraceEvent]) -> tuple[set[int], set[int]]:
    faults: set[int] = set()
    reasks: set[int] = set()
    failed: set[tuple[str, str, int | None]] = set()
    known = {event["msg_id"] for event in events}
    for event in events:
        key = (event["kind"], event["receiver"], event.get("ply"))
        root = event["parent_id"] not in known
        if root and key in failed:
            reasks.add(event["msg_id"])
        if is_fault(event):
            faults.add(event["msg_id"])
            if root:
                failed.add(key)
    return faults, reasks


class Seen:
    """What a game's phases have named so far, in the order they first named it: its actors, the kinds
    of their messages and (a game on nodes) each actor's node."""

    def __init__(self) -> None:
        self.actors: dict[str, None] = {}
        self.kinds: dict[str, None] = {}
        self.nodes: dict[str, str] = {}  # each actor's node, as its first event names it


def build_phase(label: str, chosen: list[TraceEvent], squares: list[str], origin: int, faults: set[int],
                reasks: set[int], seen: Seen, handling: Collection[int] = ()) -> dict[str, Any]:
    """One phase of the page's data: its messages (``chosen``, in id order) with the board before and
    after them. ``squares`` is the board before, and is left as the board after; ``seen`` gathers
    the actors, kinds and nodes the phase names; ``faults`` and ``reasks`` are the ids of the
    messages that failed and of those asked again after a failure; ``handling`` those of the
    messages taken up by their receiver whose reply is still to come (marked ``open``)."""
    before = placement_text(squares)
    applied_at = None
    move = None
    for index, event in enumerate(chosen):
        seen.actors.setdefault(event["sender"])
        seen.actors.setdefault(event["receiver"])
        seen.kinds.setdefault(event["kind"])
        placed = placing_nodes(event)
        if placed is not None:
            seen.nodes.setdefault(event["sender"], placed[0])
            seen.nodes.setdefault(event["receiver"], placed[1])
        if event["kind"] == "Apply" and applied_at is None:
            applied_at = index
        reply = event.get("reply_payload") or {}
        if event.get("reply") == "Accepted" and isinstance(reply.get("uci"), str):
            try:
                apply_uci(squares, reply["uci"])
            except (IndexError, ValueError):
                continue  # a foreign trace's odd move: the board just does not follow it
            move = {"uci": reply["uci"], "san": reply.get("san")}
    index_of = {event["msg_id"]: index for index, event in enumerate(chosen)}
    rows = [[index_of[point.event["msg_id"]], int(point.is_reply)] for point in timeline(chosen, True)]
    ends = [event.get("t_replied") or event["t_handled"] for event in chosen]
    plies = [event.get("ply") for event in chosen if event.get("ply") is not None]
    refusals = [_refusal(event) for event in chosen if event["parent_id"] not in index_of]
    return {
        "label": label,
        "kind": _phase_kind(label),
        "ply": plies[0] if plies else None,
        "refused": "refused" in refusals and move is None,
        "cancelled": refusals.count("cancelled"),
        "before": before,
        "after": placement_text(squares),
        "move": move,
        "applied_at": applied_at,
        "span": max(ends) - min(event["t_sent"] for event in chosen),
        "events": [_compact(event, origin, faults, reasks, handling) for event in chosen],
        "rows": rows,
    }  # fmt: skip


def _game(number: int, events: list[TraceEvent], handling: Collection[int]) -> dict[str, Any]:
    events.sort(key=lambda item: item["msg_id"])
    origin = min(event["t_sent"] for event in events)
    faults, reasks = _faults_and_reasks(events)
    squares = parse_placement(_start_placement(events))
    seen = Seen()
    phases = [build_phase(label, chosen, squares, origin, faults, reasks, seen, handling)
              for label, chosen in _group(events)]
    game = {"number": number, "actors": list(seen.actors), "kinds": list(seen.kinds), "phases": phases}
    if seen.nodes:
        game["nodes"] = seen.nodes
    return game


def build_model(
    events: Iterable[TraceEvent], title: str = "chess-actors studio", handling: Collection[int] = ()
) -> dict[str, Any]:
    """Return the page's data: the trace's games, each as phases of messages with the board around them.

    Times are nanoseconds from the game's first send; a trace without game numbers is game 1.
    ``handling`` names the events (by id) of messages taken up by their receiver whose reply is still
    to come (the live studio's step mode draws them at once, marked ``open``).
    """
    games: dict[int, list[TraceEvent]] = {}
    for event in events:
        games.setdefault(event.get("game") or 1, []).append(event)
    return {
        "title": title,
        "format": FORMAT_VERSION,
        "games": [_game(number, games[number], handling) for number in sorted(games)],
    }
