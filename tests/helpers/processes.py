"""The processes a test watches, read from /proc: a process's family and descendants, which of them
still live; and which actors of a game on nodes run in the driver's process."""

from __future__ import annotations

import os
from pathlib import Path

DRIVER_ACTORS = frozenset({"client", "supervisor"})
"""The senders that run in the driver's process (the client and the supervisor are no node's actors)."""


def process_family(root: int) -> set[int]:
    """``root`` and every process descended from it (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue  # ended meanwhile
    family, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in family} - family
        family |= more
        grown = bool(more)
    return family


def living_descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (children, their children, ...), zombies left out."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry))
    found, waiting = [], [pid]
    while waiting:
        for child in children.get(waiting.pop(), []):
            found.append(child)
            waiting.append(child)
    return found


def alive(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (zombies left out)."""
    living = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] != "Z":
                    living.append(pid)
        except OSError:
            continue
    return living
