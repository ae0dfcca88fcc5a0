"""Fault searches over the twenty real games of the tests, by the command: each mode's runs, distinct
states, pruned pairs and seconds, every message of every ply faulted exactly once (counted against the
fault-free trace the command writes), and the verdicts no fault changed; beside the earlier
``single-loss`` (free actors, fault points numbered in send order), when CHESS_ACTORS_EARLIER names a
``chess-actors`` of that code. CHESS_ACTORS_FAULT_MODES chooses modes (``lost-for-good:1,single-loss:2``)."""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODES = (("single-loss", 1), ("single-dup", 1), ("lost-for-good", 1), ("crash", 1), ("single-loss", 2),
         ("lost-for-good", 2))
_NAME = re.compile(r"(\S+) -> (\S+) (reply to )?([A-Za-z]+)\[(\d+)\]")


def games() -> list[list[str]]:
    """The twenty real games as the command's arguments: the seventeen miniatures, then the three
    shortest famous games of tests/data (one game a file)."""
    from board.notation.pgn import read_games

    miniatures = str(ROOT / "tests/data/miniatures/short-games.pgn")
    famous = []
    for path in sorted(glob.glob(str(ROOT / "tests/data/*.pgn"))):
        if not path.endswith("famous.pgn"):
            with open(path, encoding="utf-8") as file:
                famous.append((len(next(read_games(file)).moves), path))
    return [[miniatures, "--game", str(number)] for number in range(1, 18)] + \
        [[path] for _, path in sorted(famous)[:3]]


def expected_messages(events: list[dict[str, object]], crash: bool) -> Counter[tuple[str, str, str, str]]:
    """The messages of one ply's fault-free trace: each ask and tell, and each ask's reply (a crash
    befalls deliveries only: asks and tells)."""
    found: Counter[tuple[str, str, str, str]] = Counter()
    for event in events:
        sender, receiver, kind = str(event["sender"]), str(event["receiver"]), str(event["kind"])
        asked = event.get("t_replied") is not None
        found[sender, receiver, "ask" if asked else "tell", kind] += 1
        if asked and not crash:
            found[receiver, sender, "reply", kind] += 1
    return found


def faulted_messages(record: dict[str, object]) -> tuple[Counter[tuple[str, str, str, str]], bool]:
    """The messages one ply's single-fault runs faulted (asks and tells are told apart by the trace,
    so here a message is 'message' or 'reply'), and whether no name came twice."""
    names = [row["messages"][0] for row in record["faulted"] if len(row["messages"]) == 1]  # type: ignore[index, union-attr]
    counted: Counter[tuple[str, str, str, str]] = Counter()
    for name in names:
        match = _NAME.fullmatch(name)
        assert match is not None, name
        counted[match[1], match[2], "reply" if match[3] else "message", match[4]] += 1
    return counted, len(set(names)) == len(names)


def _as_sent(found: Counter[tuple[str, str, str, str]]) -> Counter[tuple[str, str, str, str]]:
    return Counter({(sender, receiver, "reply" if carrying == "reply" else "message", kind): count
                    for (sender, receiver, carrying, kind), count in found.items()})


def search(command: list[str], game: list[str], mode: str, faults: int, check: bool) -> dict[str, float]:
    """Run one game's search by the command and sum what it printed."""
    with tempfile.TemporaryDirectory() as scratch:
        trace = os.path.join(scratch, "fault-free.jsonl")
        extra = ["--trace", trace, "--faults", str(faults),
                 "--scenario", os.path.join(scratch, "ply-{ply}.scenario")] if check else []
        began = time.perf_counter()
        done = subprocess.run([*command, "explore", *game, "--network", mode, "--json", *extra,
                               "--counterexample", os.path.join(scratch, "ply-{ply}.jsonl")],
                              capture_output=True, text=True, check=False, cwd=scratch,
                              env={**os.environ, "PYTHONPATH": str(ROOT)} if check else None)
        wall = time.perf_counter() - began
        records = [json.loads(line) for line in done.stdout.splitlines()]
        totals = {"plies": len(records), "wall": wall, "exit": done.returncode,
                  "seconds": sum(record["seconds"] for record in records)}
        if not check:  # the earlier command: fault points and runs that changed
            totals["runs"] = sum(record["fault_points"] for record in records)
            totals["changed"] = sum(record["changed"] for record in records)
            return totals
        states = re.search(r"([\d,]+) distinct states?", done.stderr)
        totals.update(runs=sum(record["runs"] for record in records),
                      pruned=sum(record["pruned"] for record in records),
                      changed=sum(record["results"].get("changed", 0) for record in records),
                      broken=sum(record["results"].get("broken", 0) for record in records),
                      failed=sum(record["results"].get("failed", 0) for record in records),
                      otherwise=sum(record["results"].get("failed otherwise", 0) for record in records),
                      states=int(states[1].replace(",", "")) if states else 0, uncovered=0, messages=0)
        with open(trace, encoding="utf-8") as file:
            events = [json.loads(line) for line in file]
        for record in records:
            expected = _as_sent(expected_messages([e for e in events if e["ply"] == record["ply"]],
                                                  mode == "crash"))
            got, once = faulted_messages(record)
            totals["messages"] += sum(expected.values())
            if got != expected or not once:
                totals["uncovered"] += 1
                print(f"  {' '.join(game)} ply {record['ply']}: faulted {dict(got - expected)} beyond the"
                      f" trace, missed {dict(expected - got)}", flush=True)
        return totals


def run(quick: bool) -> None:
    """Every mode over the twenty games (two with --quick), then the earlier single-loss."""
    chosen = games()[:2] if quick else games()
    here = [sys.executable, "-m", "actors.cli"]
    wanted = os.environ.get("CHESS_ACTORS_FAULT_MODES")  # e.g. lost-for-good:1,single-loss:2
    modes = MODES if not wanted else [(part.split(":")[0], int(part.split(":")[1]))
                                       for part in wanted.split(",")]
    rows = [(f"{mode}" + (" --faults 2" if faults == 2 else ""), here, mode, faults, True)
            for mode, faults in modes]
    earlier = os.environ.get("CHESS_ACTORS_EARLIER")
    if earlier:
        rows.append(("single-loss, earlier (free actors)", [earlier], "single-loss", 1, False))
    for label, command, mode, faults, check in rows:
        sums: Counter[str] = Counter()
        for game in chosen:
            found = search(command, game, mode, faults, check)
            sums.update(found)
            print(f"  {label}: {' '.join(Path(word).name for word in game)}: "
                  + ", ".join(f"{key} {value:.0f}" for key, value in found.items()), flush=True)
        line = (f"{label}: {len(chosen)} games, {sums['plies']:.0f} plies, {sums['runs']:,.0f} runs,"
                f" {sums['seconds']:.0f} s searching ({sums['wall']:.0f} s by the commands,"
                f" {sums['runs'] / max(sums['seconds'], 1e-9):.0f} runs/s)")
        if check:
            line += (f", {sums['states']:,.0f} distinct states, {sums['pruned']:,.0f} pruned;"
                     f" {sums['messages']:,.0f} messages, plies not faulted exactly once each:"
                     f" {sums['uncovered']:.0f}; verdicts changed {sums['changed']:.0f}, invariants broken"
                     f" {sums['broken']:.0f}, LinkFailure {sums['failed']:.0f}, other failures"
                     f" {sums['otherwise']:.0f}")
        else:
            line += f"; runs that changed an outcome {sums['changed']:.0f}"
        print(line, flush=True)
