"""The ``--network`` option of the commands that run a game's actors (replay, run, shell): links that
fail; and ``--max-restarts``, how many restarts a game's supervisor heals before it gives up."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from actors.kernel.links import COUNTED, LinkModel, parse_network

NETWORK_HELP = (
    "links that fail: loss=P,dup=P,delay=P[:SECONDS],reorder=P,seed=N (probabilities per message), "
    "retries=N, partition=ACTOR[+ACTOR...][/ACTOR[+ACTOR...]]:SECONDS[@AFTER] (one side: cut from the "
    "rest; two: from each other; on nodes a node's name stands for its actors); the protocol keeps "
    "every verdict"
)


def add_network_flag(parser: argparse.ArgumentParser) -> None:
    """Give a subcommand ``--network SPEC``."""
    parser.add_argument("--network", metavar="SPEC", default=None, help=NETWORK_HELP)


MAX_RESTARTS_HELP = (
    "how many restarts the supervisor makes within 5 seconds before the game ends with"
    " RestartIntensityExceeded (default 10; a lost node's actors count as one)"
)


def add_max_restarts_flag(parser: argparse.ArgumentParser) -> None:
    """Give a subcommand ``--max-restarts N``."""
    parser.add_argument("--max-restarts", metavar="N", type=_restarts, default=10, help=MAX_RESTARTS_HELP)


def _restarts(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = -1
    if not 0 <= count <= 1_000_000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count of restarts (a whole number from 0)")
    return count


def network_model(args: argparse.Namespace) -> LinkModel | None:
    """The link model ``--network`` names (None when it was not given).

    Raises:
        InputError: a malformed SPEC, an unknown key, a probability out of range.
    """
    text: str | None = args.network
    return None if text is None else parse_network(text)


def network_line(model: LinkModel, counts: Mapping[str, int]) -> str:
    """One line saying what the links did: ``network loss=0.05,seed=1: dropped 31, duplicated 2, ...``."""
    done = ", ".join(f"{name} {counts.get(name, 0)}" for name in COUNTED)
    return f"network {model.text()}: {done}"
