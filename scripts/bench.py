#!/usr/bin/env python3
"""Benchmarks, each measured side by side with a reference in one run and reported as ratios.

    python scripts/bench.py SECTION|all [--quick]

    SECTION: perft|replay|lines|blanks|actors|pool|knight|bulk|checkmove|studio|orders|live|nodes|faults|
             redesign

Each section lives in ``scripts/benchmarks/<name>.py`` with a ``run(quick: bool) -> None``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

SECTIONS = (
    "perft", "replay", "lines", "blanks", "actors", "pool", "knight", "bulk", "checkmove", "studio", "orders",
    "live", "nodes", "faults", "redesign",
)

# The sections (scripts/benchmarks) and the project itself: the tests' helpers some sections share.
sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("section", choices=(*SECTIONS, "all"))
    parser.add_argument("--quick", action="store_true", help="fewer and shorter runs (a smoke test)")
    args = parser.parse_args()
    for name in SECTIONS if args.section == "all" else (args.section,):
        print(f"== {name}", flush=True)
        importlib.import_module(f"benchmarks.{name}").run(quick=args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
