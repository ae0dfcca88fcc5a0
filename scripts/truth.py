"""The stateful truth test run long: random sequences of public calls on the actors and the reference.

    python scripts/truth.py --steps 200000 [--seed S] [--sequence-steps 40] [--show 3] [--nodes N]

Each sequence starts a game from one of tests/helpers/truth_model.py's STARTS (a third of them with start-up
lessons) and takes up to --sequence-steps steps (proposals, promotions given by kind, letter or
name, lessons, flips of a stateful move function, lies, ghosts told over pieces and kings, pieces
hidden on castling paths, truths, crashes and heals), comparing the actors with the reference after
every step; a disagreement ends its sequence (the next starts afresh) and is counted. Prints the
figures and the coverage table (how often each kind of step and situation happened, against its
floor); exit 1 on any disagreement, or on a floor missed by a run of every kind of step.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the project: its tests.helpers

from tests.helpers.truth_model import (
    COVERAGE,
    NODE_COVERAGE,
    PROMOTIONS_GIVEN,
    STARTS,
    Disagreement,
    Switch,
    Tally,
    TruthRun,
    coverage_misses,
    format_coverage,
    lessons,
    shrink,
    start_lessons,
)

LESSONS = sorted(lessons(Switch()))
STILL_LESSONS = sorted(set(LESSONS) - {"rook-or-knight", "switched-bishop"})
"""The lessons whose answers no switch changes (on nodes, a move function's state stays where it is)."""
TEXT_LETTERS = ["", "N", "B", "R", "Q", "K", "P"]
SPECIAL_TEXTS = ["O-O", "O-O-O", "e8=Q", "bxa8=N", "gxh8=Q", "b1=Q", "Pe2d4", "Kxe8"]


STEP_KINDS = ("lessons", "raw", "flip", "lie", "crash")
"""What --without can leave out: every lesson, raw Learn asks only, switch flips, lies, crashes."""


def random_step(run: TruthRun, rng: random.Random, without: frozenset[str] = frozenset()) -> None:
    """One step drawn with the same weights as the stateful test's rules (a step of a kind in
    ``without`` is a proposal of a legal move instead)."""
    roll = rng.random()
    kind = "lessons" if 0.53 <= roll < 0.65 else "flip" if 0.65 <= roll < 0.69 else ""
    kind = "lie" if 0.69 <= roll < 0.91 else "crash" if roll >= 0.91 else kind
    if kind in without:
        roll = 0.0
    if roll < 0.28:
        run.propose_legal(rng.randrange(10_000), rng.randrange(3))
    elif roll < 0.35:
        run.propose_back(rng.randrange(3))
    elif roll < 0.42:
        run.propose_squares(rng.randrange(64), rng.randrange(64), rng.choice("qrbn"))
    elif roll < 0.48:
        if rng.random() < 0.2:
            run.propose_text(rng.choice(SPECIAL_TEXTS))
        else:
            square = rng.choice("abcdefgh") + rng.choice("12345678")
            run.propose_text(rng.choice(TEXT_LETTERS) + rng.choice(["", "x"]) + square)
    elif roll < 0.53:  # where no promotion is legal, a legal move instead (one may come of it)
        run.promote(rng.randrange(100), rng.choice(PROMOTIONS_GIVEN))
    elif roll < 0.65:
        raw = "raw" not in without and rng.random() < 0.5
        run.teach(rng.randrange(64), rng.choice(STILL_LESSONS if "flip" in without else LESSONS), raw)
    elif roll < 0.69:
        run.flip()
    elif roll < 0.75:
        ghosts = {rng.randrange(64): rng.choice("PNBRQpnbrq") for _ in range(rng.randrange(3))}
        run.lie(ghosts, [rng.randrange(64) for _ in range(rng.randrange(3))])
    elif roll < 0.79:
        run.ghost_over(rng.randrange(64), rng.choice("PNBRQKpnbrqk"), rng.random() < 0.4)
    elif roll < 0.82:
        run.hide_on_castling_path(rng.randrange(8), rng.choice(["", "", "p", "N"]))
    elif roll < 0.91:
        if run.reference.ghosts or run.reference.hidden:
            run.truth()
    else:
        run.crash(rng.randrange(40))


def random_start(rng: random.Random, without: frozenset[str] = frozenset()) -> tuple[str, dict[int, str]]:
    """A sequence's start: one of the starts, and (a third of the time) one or two start-up lessons."""
    fen = rng.choice(STARTS)
    taught: dict[int, str] = {}
    if "lessons" not in without and rng.random() < 1 / 3:
        choices = STILL_LESSONS if "flip" in without else LESSONS
        picks = [(rng.randrange(64), rng.choice(choices)) for _ in range(rng.randrange(1, 3))]
        taught = start_lessons(fen, picks)
    return fen, taught


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000, help="steps in all (default 2000)")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--sequence-steps", type=int, default=40, help="steps a game at most (default 40)")
    parser.add_argument(
        "--without",
        default="",
        help=f"step kinds left out, comma-separated (of {', '.join(STEP_KINDS)}), to isolate a failure",
    )
    parser.add_argument("--show", type=int, default=3, help="disagreements printed in full (default 3)")
    parser.add_argument(
        "--nodes", type=int, default=0, metavar="N",
        help="run every game's actors on N node processes (a local Ray; no switch flips: a move "
             "function's state does not cross processes)",
    )
    parser.add_argument(
        "--shrink", action="store_true", help="print each disagreement shown by its shortest sequence found"
    )
    parser.add_argument(
        "--sequence",
        type=int,
        default=None,
        metavar="N",
        help="run only sequence N of this seed (each disagreement names its sequence)",
    )
    args = parser.parse_args(argv)
    without = frozenset(filter(None, args.without.split(",")))
    unknown = without - set(STEP_KINDS)
    if unknown:
        parser.error(f"--without: unknown step kinds {sorted(unknown)}; known: {', '.join(STEP_KINDS)}")
    logging.disable(logging.CRITICAL)  # injected crashes are logged by pykka; they are the point
    try:
        if not args.nodes:
            return run_steps(
                args.steps, args.sequence_steps, args.show, without, args.seed, args.shrink, args.sequence
            )
        from actors.clusters.nodes import Nodes

        with Nodes(args.nodes, "local") as nodes:
            return run_steps(
                args.steps, args.sequence_steps, args.show, without | {"flip"}, args.seed, args.shrink,
                args.sequence, nodes,
            )
    finally:
        logging.disable(logging.NOTSET)


def run_steps(
    steps: int,
    sequence_steps: int,
    show: int,
    without: frozenset[str],
    seed: int,
    shrinking: bool = False,
    only: int | None = None,
    nodes: object = None,
) -> int:
    """Run ``steps`` steps in sequences of at most ``sequence_steps``, print the figures, the
    coverage table (and the first ``show`` disagreements in full); 1 if there was any disagreement
    or (a run of every kind of step, not of one sequence) a coverage floor was missed, else 0.

    Sequence ``i`` draws from its own generator, seeded by ``(seed, i)``, so any one of them can be
    run again alone (``only``) whatever happened in the others. ``nodes``: the games' actors run
    on these node processes."""
    tally = Tally()
    disagreements: list[tuple[int, Disagreement, TruthRun]] = []
    began = time.perf_counter()
    index = -1 if only is None else only - 1
    while tally.steps < steps and (only is None or index < only):
        index += 1
        rng = random.Random(f"{seed}:{index}")
        fen, taught = random_start(rng, without)
        run = TruthRun(fen, tally, taught=taught, nodes=nodes, timeout=30.0 if nodes is not None else 5.0)
        try:
            run.check()
            for _ in range(sequence_steps):
                if tally.steps >= steps:
                    break
                random_step(run, rng, without)
                run.check()
        except Disagreement as error:
            disagreements.append((index, error, run))
        finally:
            run.close()
    seconds = time.perf_counter() - began
    counts = tally.counts
    print(f"steps {tally.steps}, sequences {tally.sequences}, {seconds:.0f} s")
    print(", ".join(f"{what} {count}" for what, count in sorted(counts.items())))
    lessons_taught = counts["lessons"] + counts["raw lessons"]
    print(f"lessons taught {lessons_taught}, lies told {counts['lies']}, heals {counts['heals']}")
    kinds = Counter(error.kind for _, error, _ in disagreements)
    shown = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    shown = f" ({shown})" if shown else ""
    print(f"disagreements {len(disagreements)}{shown}, king captures {kinds['king capture']}")
    floors = COVERAGE if nodes is None else NODE_COVERAGE
    print(format_coverage(tally, floors))
    misses = coverage_misses(tally, floors) if not without - {"flip"} and only is None else []
    if misses:
        print(f"coverage floors missed: {'; '.join(misses)}")
    for index, error, run in disagreements[:show]:
        log = run.log
        if shrinking:
            shrunk, shorter = shrink(run.fen, run.calls, error.kind, run.taught)
            if shrunk is not None:  # (a replay that no longer disagrees keeps the sequence as run)
                error, log = shrunk, shorter
        print(f"\nsequence {index}, {error.kind}: {error}\n  " + "\n  ".join(log))
    return 1 if disagreements or misses else 0


if __name__ == "__main__":
    sys.exit(main())
