"""The stateful truth test run long: random sequences of public calls on the actors and the reference.

    python scripts/truth.py --steps 200000 [--seed S] [--sequence-steps 40] [--show 3]

Each sequence starts a game from one of tests/truth_model.STARTS and takes up to --sequence-steps
steps (proposals, lessons, flips of a stateful move function, lies, truths, crashes and heals),
comparing the actors with the reference after every step; a disagreement ends its sequence (the
next starts afresh) and is counted. Prints the figures; exit 1 on any disagreement.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from truth_model import STARTS, Disagreement, Switch, Tally, TruthRun, lessons, shrink

LESSONS = sorted(lessons(Switch()))
TEXT_LETTERS = ["", "N", "B", "R", "Q", "K", "P"]
SPECIAL_TEXTS = ["O-O", "O-O-O", "e8=Q", "bxa8=N", "gxh8=Q", "b1=Q", "Pe2d4", "Kxe8"]


STEP_KINDS = ("lessons", "raw", "flip", "lie", "crash")
"""What --without can leave out: every lesson, raw Learn asks only, switch flips, lies, crashes."""


def random_step(run: TruthRun, rng: random.Random, without: frozenset[str] = frozenset()) -> None:
    """One step drawn with the same weights as the stateful test's rules (a step of a kind in
    ``without`` is a proposal of a legal move instead)."""
    roll = rng.random()
    kind = "lessons" if 0.58 <= roll < 0.72 else "flip" if 0.72 <= roll < 0.77 else ""
    kind = "lie" if 0.77 <= roll < 0.92 else "crash" if roll >= 0.92 else kind
    if kind in without:
        roll = 0.0
    if roll < 0.40:
        run.propose_legal(rng.randrange(10_000), rng.randrange(3))
    elif roll < 0.50:
        run.propose_squares(rng.randrange(64), rng.randrange(64), rng.choice("qrbn"))
    elif roll < 0.58:
        if rng.random() < 0.2:
            run.propose_text(rng.choice(SPECIAL_TEXTS))
        else:
            square = rng.choice("abcdefgh") + rng.choice("12345678")
            run.propose_text(rng.choice(TEXT_LETTERS) + rng.choice(["", "x"]) + square)
    elif roll < 0.72:
        raw = "raw" not in without and rng.random() < 0.5
        run.teach(rng.randrange(64), rng.choice(LESSONS), raw)
    elif roll < 0.77:
        run.flip()
    elif roll < 0.85:
        ghosts = {rng.randrange(64): rng.choice("PNBRQpnbrq") for _ in range(rng.randrange(3))}
        run.lie(ghosts, [rng.randrange(64) for _ in range(rng.randrange(3))])
    elif roll < 0.92:
        if run.reference.ghosts or run.reference.hidden:
            run.truth()
    else:
        run.crash(rng.randrange(40))


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
        return run_steps(
            args.steps, args.sequence_steps, args.show, without, args.seed, args.shrink, args.sequence
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
) -> int:
    """Run ``steps`` steps in sequences of at most ``sequence_steps``, print the figures (and the
    first ``show`` disagreements in full); 1 if there was any disagreement, else 0.

    Sequence ``i`` draws from its own generator, seeded by ``(seed, i)``, so any one of them can be
    run again alone (``only``) whatever happened in the others."""
    tally = Tally()
    disagreements: list[tuple[int, Disagreement, TruthRun]] = []
    began = time.perf_counter()
    index = -1 if only is None else only - 1
    while tally.steps < steps and (only is None or index < only):
        index += 1
        rng = random.Random(f"{seed}:{index}")
        run = TruthRun(rng.choice(STARTS), tally)
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
    for index, error, run in disagreements[:show]:
        log = run.log
        if shrinking:
            shrunk, shorter = shrink(run.fen, run.calls, error.kind)
            if shrunk is not None:  # (a replay that no longer disagrees keeps the sequence as run)
                error, log = shrunk, shorter
        print(f"\nsequence {index}, {error.kind}: {error}\n  " + "\n  ".join(log))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
