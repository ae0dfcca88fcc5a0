"""Traces as Mermaid sequence diagrams: one box a phase, every arrow saying what the message said.

Pure functions over trace event dicts (see :mod:`actors.tracing.export` for reading them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from actors.kernel.links import FAULT_KINDS
from actors.tracing.event import TraceEvent
from actors.tracing.export import games_of, phase_of, placing_nodes, select_plies, timeline
from board.rules.squares import square_name

__all__ = ["describe_move", "to_markdown", "to_mermaid"]

# Characters that end a statement, open an entity or a comment, or look like HTML to Mermaid.
_MERMAID_ESCAPES = str.maketrans(
    {
        "#": "#35;",
        ";": "#59;",
        '"': "#quot;",
        "<": "#lt;",
        ">": "#gt;",
        "\n": " ",
        "\r": " ",
    }
)
_MERMAID_KEYWORDS = frozenset(
    {
        "participant", "actor", "as", "note", "over", "left", "right", "of", "loop", "alt",
        "else", "opt", "par", "and", "rect", "end", "critical", "break", "box", "autonumber",
        "activate", "deactivate", "title", "create", "destroy", "links", "link", "properties",
        "details", "sequencediagram",
    }
)  # fmt: skip
_PLY_COLOURS = ("rgba(100, 149, 237, 0.12)", "rgba(128, 128, 128, 0.12)")
# Start-up and healing stand out from the plies around them.
_PHASE_COLOURS = {"startup": "rgba(60, 179, 113, 0.15)", "heal": "rgba(220, 20, 60, 0.15)"}


def _mermaid_text(text: str) -> str:
    return text.translate(_MERMAID_ESCAPES).strip() or "-"


def _mermaid_aliases(names: Sequence[str]) -> dict[str, str]:
    """Give every actor a Mermaid identifier: its name with non-word characters as ``_``."""
    aliases: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        alias = re.sub(r"\W", "_", name, flags=re.ASCII) or "actor"
        if alias[0].isdigit():
            alias = "a_" + alias
        if alias.lower() in _MERMAID_KEYWORDS:
            alias += "_"
        candidate, suffix = alias, 2
        while candidate in taken:
            candidate, suffix = f"{alias}_{suffix}", suffix + 1
        taken.add(candidate)
        aliases[name] = candidate
    return aliases


def _square_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64:
        return square_name((value % 8 + 1, value // 8 + 1))
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(part, int) and not isinstance(part, bool) and part > 0 for part in value)
    ):
        return square_name((value[0], value[1]))
    return None


def describe_move(payload: Mapping[str, Any]) -> str | None:
    """Return the move a proposal's payload names (``"g1-f3"``, ``"e7-e8=q"``, a SAN), or None.

    Looks for ``san`` / ``move`` / ``uci`` / ``text`` (a Propose's SAN or UCI) text, else a from
    and a to square under the usual field names; squares may be names, ``[file, rank]`` pairs or
    0..63 indexes (a1 = 0, as in actors.protocol).
    """
    for key in ("san", "move", "uci", "text"):
        if isinstance(payload.get(key), str) and payload[key]:
            return str(payload[key])
    start = next(
        (
            text
            for key in ("from_square", "from", "start", "origin", "source")
            if (text := _square_text(payload.get(key))) is not None
        ),
        None,
    )
    end = next(
        (
            text
            for key in ("to_square", "to", "end", "target", "destination")
            if (text := _square_text(payload.get(key))) is not None
        ),
        None,
    )
    if start is None or end is None:
        return None
    promotion = payload.get("promotion")
    suffix = f"={promotion}" if isinstance(promotion, str) and promotion else ""
    return f"{start}-{end}{suffix}"


def _phase_note(phase: str, root: TraceEvent) -> str:
    if "ply " not in phase:
        return _mermaid_text(phase)
    move = describe_move(root["payload"])
    colour = root["payload"].get("colour", root["payload"].get("color"))
    parts = [f"{phase}:"]
    if isinstance(colour, str):
        parts.append(colour)
    parts.append(move if move is not None else root["kind"])
    return _mermaid_text(" ".join(parts))


_FAULT_ARROWS = {"Dropped": "-x", "Duplicated": "--)", "Delayed": "--)", "Retried": "-)", "Fenced": "-x"}


def fault_arrow(event: TraceEvent, sender: str, receiver: str) -> str:
    """The arrow of a fault on a link (see actors.kernel.network): a lost message ends in a cross,
    a duplicate and a delay are dotted, and a retry names the message it sends again."""
    payload = event.get("payload") or {}
    what = f"{payload.get('message', '?')}"
    carrying = payload.get("carrying")
    if carrying in ("reply", "ack"):
        what = f"{carrying} to {what}"
    attempt = payload.get("attempt", 1)
    kind = event["kind"]
    if kind == "Dropped":
        text = f"✗ {what} lost (attempt {attempt})"
    elif kind == "Duplicated":
        text = f"{what} arrives twice"
    elif kind == "Delayed":
        seconds = payload.get("seconds") or 0
        text = f"{what} late ({seconds * 1e3:g} ms)" if seconds else f"{what} overtaken"
    elif kind == "Fenced":
        text = f"✗ {what} dropped: its {payload.get('side', 'sender')} was replaced"
    else:
        text = f"↻ {what} sent again (attempt {attempt}, of message {event['parent_id']})"
    return f"{sender}{_FAULT_ARROWS[kind]}{receiver}: {_mermaid_text(text)}"


NODE_BOX = "rgba(70, 130, 180, 0.08)"
"""The shade of the box that holds a node's actors (a game on nodes)."""


def _by_node(points: Sequence[Any], names: list[str]) -> dict[str | None, list[str]]:
    """The actors ``names`` grouped by the node their first event names (None: a trace of one
    process), nodes in the order they first appear."""
    where: dict[str, str] = {}
    for point in points:
        placed = placing_nodes(point.event)
        if placed is not None:
            where.setdefault(point.event["sender"], placed[0])
            where.setdefault(point.event["receiver"], placed[1])
    grouped: dict[str | None, list[str]] = {}
    for name in names:
        grouped.setdefault(where.get(name), []).append(name)
    return grouped


def to_mermaid(events: Iterable[TraceEvent], plies: tuple[int, int] | None = None) -> str:
    """Return a Mermaid ``sequenceDiagram`` of the events (of plies ``plies`` when given).

    Every actor is declared as a ``participant`` (``participant white_knight_g1 as
    white-knight-g1``), inside a ``box`` naming its node when the game ran on nodes; asks are
    ``->>`` arrows, tells ``-)``, replies dashed ``-->>`` arrows carrying the reply kind; a fault
    on a link is drawn as :func:`fault_arrow` says. Each ply sits in a shaded ``rect`` opened by a
    ``Note`` naming the proposed move; a proposal sent ahead (replay keeps several in flight) is
    drawn when the referee takes it up. Message text is escaped so that the diagram renders on
    GitHub.

    Args:
        events: the trace's events.
        plies: draw only plies A to B (inclusive, 1-based); None draws every ply.

    Returns:
        The diagram's text, ending in a newline.
    """
    chosen = select_plies(events, *plies) if plies is not None else list(events)
    points = timeline(chosen, roots_when_taken=True)
    names: dict[str, None] = {}
    for point in points:
        names.setdefault(point.event["sender"])
        names.setdefault(point.event["receiver"])
    aliases = _mermaid_aliases(list(names))
    lines = ["sequenceDiagram"]
    for node, members in _by_node(points, list(aliases)).items():
        if node is not None:  # a game on nodes: each node's actors in a box of its own
            lines.append(f"    box {NODE_BOX} {_mermaid_text(node)}")
        for name in members:
            alias, shown = aliases[name], _mermaid_text(name)
            lines.append(f"    participant {alias}" if shown == alias else
                         f"    participant {alias} as {shown}")
        if node is not None:
            lines.append("    end")

    # In a trace of several games each game's phases get boxes of their own, named with the game.
    several = len(games_of(chosen)) > 1

    def box(event: TraceEvent) -> str | None:
        phase = phase_of(event)
        return f"game {event.get('game')} {phase}" if several and phase is not None else phase

    roots: dict[str, TraceEvent] = {}
    known = {event["msg_id"] for event in chosen}
    for event in sorted(chosen, key=lambda item: item["msg_id"]):
        phase = box(event)
        if phase is None or event["parent_id"] in known:
            continue
        # The client's proposal names the ply; start-up messages that share its number do not.
        proposal = event["kind"].startswith("Propose")
        if phase not in roots or (proposal and not roots[phase]["kind"].startswith("Propose")):
            roots[phase] = event

    # Each phase is drawn as one box: a message of an earlier phase that happens while a later one
    # runs (the client journalling the last window while the referee judges the next) joins its
    # own phase's box rather than splitting the one in progress.
    first: dict[str | None, int] = {}
    for index, point in enumerate(points):
        first.setdefault(box(point.event), index)
    order = {
        id(point): first[box(point.event)] if box(point.event) is not None else index
        for index, point in enumerate(points)
    }
    points = sorted(points, key=lambda point: order[id(point)])

    current: str | None = None
    shade = 0
    indent = "    "
    for point in points:
        event = point.event
        phase = box(event)
        if phase != current:
            if current is not None:
                lines.append("    end")
            current = phase
            indent = "    "
            if phase is not None:
                root = roots.get(phase, event)
                shade += 1
                words = str(phase_of(event)).split(maxsplit=1)  # a phase may be blank in a trace
                colour = _PHASE_COLOURS.get(words[0] if words else "", _PLY_COLOURS[shade % 2])
                lines.append(f"    rect {colour}")
                over = aliases[root["sender"]]
                if root["receiver"] != root["sender"]:
                    over += "," + aliases[root["receiver"]]
                lines.append(f"        Note over {over}: {_phase_note(phase, root)}")
                indent = "        "
        sender, receiver = aliases[event["sender"]], aliases[event["receiver"]]
        if event["kind"] in FAULT_KINDS:
            lines.append(f"{indent}{fault_arrow(event, sender, receiver)}")
        elif point.is_reply:
            text = event.get("reply_summary") or event["reply"] or ""
            lines.append(f"{indent}{receiver}-->>{sender}: {_mermaid_text(text)}")
        else:
            arrow = "-)" if event["t_replied"] is None else "->>"
            text = event.get("summary") or event["kind"]
            lines.append(f"{indent}{sender}{arrow}{receiver}: {_mermaid_text(text)}")
    if current is not None:
        lines.append("    end")
    return "\n".join(lines) + "\n"


def to_markdown(events: Iterable[TraceEvent], plies: tuple[int, int] | None = None) -> str:
    """Return the Mermaid diagram of :func:`to_mermaid` as a fenced Markdown block (GitHub draws it).

    Args:
        events: the trace's events.
        plies: draw only plies A to B (inclusive, 1-based); None draws every ply.

    Returns:
        The block, from its opening fence to its closing one and a newline.
    """
    return "```mermaid\n" + to_mermaid(events, plies) + "```\n"
