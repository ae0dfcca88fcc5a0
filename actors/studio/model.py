"""The studio's data: trace events grouped by game and phase, with the board before and after each.

Plain data for the page's script (JSON); the board follows the moves the referee accepted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from actors.tracing.event import FORMAT_VERSION, TraceEvent
from actors.tracing.export import phase_of, placing_nodes, timeline

__all__ = [
    "RECURRING_PHASES", "START_PLACEMENT", "Seen", "apply_uci", "build_model", "build_phase", "is_fault",
    "parse_placement", "placement_text", "roster_placement",
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


def _group(events: list[TraceEvent]) -> list[tuple[str, list[TraceEvent]]]:
    """Split a game's events (in id order) into phases: plies and steps gather their messages even
    when pipelining interleaves them; each run of start-up or healing is a phase of its own."""
    groups: dict[str, list[TraceEvent]] = {}
    order: list[str] = []
    runs = 0
    previous: str | None = None
    for event in events:
        label = phase_of(event) or "other"
        key = label
        if label in RECURRING_PHASES:
            if label != previous:
                runs += 1
            key = f"{label}#{runs}"
        previous = label
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(event)
    return [(key.split("#")[0], groups[key]) for key in order]


def _compact(event: TraceEvent, origin: int, faults: set[int], reasks: set[int]) -> dict[str, Any]:
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
                reasks: set[int], seen: Seen) -> dict[str, Any]:
    """One phase of the page's data: its messages (``chosen``, in id order) with the board before and
    after them. ``squares`` is the board before, and is left as the board after; ``seen`` gathers
    the actors, kinds and nodes the phase names; ``faults`` and ``reasks`` are the ids of the
    messages that failed and of those asked again after a failure."""
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
    return {
        "label": label,
        "kind": _phase_kind(label),
        "ply": plies[0] if plies else None,
        "before": before,
        "after": placement_text(squares),
        "move": move,
        "applied_at": applied_at,
        "span": max(ends) - min(event["t_sent"] for event in chosen),
        "events": [_compact(event, origin, faults, reasks) for event in chosen],
        "rows": rows,
    }  # fmt: skip


def _game(number: int, events: list[TraceEvent]) -> dict[str, Any]:
    events.sort(key=lambda item: item["msg_id"])
    origin = min(event["t_sent"] for event in events)
    faults, reasks = _faults_and_reasks(events)
    squares = parse_placement(_start_placement(events))
    seen = Seen()
    phases = [build_phase(label, chosen, squares, origin, faults, reasks, seen)
              for label, chosen in _group(events)]
    game = {"number": number, "actors": list(seen.actors), "kinds": list(seen.kinds), "phases": phases}
    if seen.nodes:
        game["nodes"] = seen.nodes
    return game


def build_model(events: Iterable[TraceEvent], title: str = "chess-actors studio") -> dict[str, Any]:
    """Return the page's data: the trace's games, each as phases of messages with the board around them.

    Times are nanoseconds from the game's first send; a trace without game numbers is game 1.
    """
    games: dict[int, list[TraceEvent]] = {}
    for event in events:
        games.setdefault(event.get("game") or 1, []).append(event)
    return {
        "title": title,
        "format": FORMAT_VERSION,
        "games": [_game(number, games[number]) for number in sorted(games)],
    }
