"""A game's actors spread over several node processes: which node runs which actor (a placement rule),
and what the game asks of its nodes, whoever starts them.

Four rules: ``role`` (the referee and the journal on node 1, the board on node 2, the pieces on
node 3), ``colour`` (the referee, board and journal on node 1, the white pieces on node 2, the black
on node 3), ``round-robin`` (every actor on the next node, in the order they start) and a list
(``referee=1,board=2,white=3,...``). A node number past the number of nodes wraps round.

The nodes themselves run on Ray (:mod:`actors.clusters.nodes`), a layer above the game: the game
knows them as :class:`GameNodes`, and a game given a number of nodes starts them through the starter
that module provides (:func:`provide_node_starter`) as it loads.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from board.errors import InputError

if TYPE_CHECKING:
    from actors.kernel.network import Network
    from actors.roles.supervisor import Supervisor

__all__ = [
    "MAX_NODES",
    "NODES_MODULE",
    "PLACEMENTS",
    "GameNodes",
    "NodeStarter",
    "Placement",
    "checked_count",
    "parse_placement",
    "provide_node_starter",
    "spread",
    "start_nodes",
]

MAX_NODES = 16
"""The most node processes a game may ask for."""

PLACEMENTS = ("role", "colour", "round-robin")
"""The named rules (a list of ``KEY=NODE`` pairs is the fourth)."""

_ROLES = ("journal", "referee", "board")
_COLOURS = ("white", "black")
_KEYS = (*_ROLES, *_COLOURS, "pieces")


@dataclass(frozen=True, slots=True)
class Placement:
    """A placement rule: ``rule`` is one of :data:`PLACEMENTS` or 'list' (then ``listed`` says where
    each named actor, role or colour goes; anything not named goes to node 1)."""

    rule: str = "role"
    listed: tuple[tuple[str, int], ...] = ()

    def node_of(self, name: str, order: int, nodes: int) -> int:
        """The node (1 to ``nodes``) that runs the actor ``name``, the ``order``-th (0-based) to start."""
        if self.rule == "round-robin":
            return order % nodes + 1
        role = name if name in _ROLES else "pieces"
        colour = name.split("-", 1)[0] if role == "pieces" else ""
        if self.rule == "list":
            table = dict(self.listed)
            wanted = table.get(name) or table.get(colour) or table.get(role) or 1
        elif self.rule == "colour":
            wanted = {"white": 2, "black": 3}.get(colour, 1)
        else:
            wanted = {"journal": 1, "referee": 1, "board": 2}.get(role, 3)
        return (wanted - 1) % nodes + 1

    def text(self) -> str:
        """The rule as the option writes it."""
        if self.rule != "list":
            return self.rule
        return ",".join(f"{key}={node}" for key, node in self.listed)


def parse_placement(text: str) -> Placement:
    """The placement an option names: a rule of :data:`PLACEMENTS` ('color' is 'colour'), or a list
    ``KEY=NODE,...`` whose keys are actor names (``white-knight-g1``), roles (``journal``,
    ``referee``, ``board``), colours (``white``, ``black``) or ``pieces``, and nodes are numbers from 1.

    Raises:
        InputError: an unknown rule or key, a node that is not a number from 1, a key given twice.
    """
    rule = text.strip().lower()
    if rule == "color":
        rule = "colour"
    if rule in PLACEMENTS:
        return Placement(rule)
    if "=" not in rule:
        raise InputError(f"--placement {text!r}: unknown placement (use {', '.join(PLACEMENTS)} "
                         f"or a list such as referee=1,board=2,pieces=3)")
    listed: list[tuple[str, int]] = []
    for item in (part.strip() for part in rule.split(",")):
        key, _, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if key not in _KEYS and not _piece_name(key):
            raise InputError(f"--placement {text!r}: unknown actor {key!r} (use journal, referee, board, "
                             f"white, black, pieces or a piece's name such as white-knight-g1)")
        if not value.isdigit() or int(value) < 1:
            raise InputError(f"--placement {text!r}: {key}'s node must be a number from 1, not {value!r}")
        if any(key == seen for seen, _ in listed):
            raise InputError(f"--placement {text!r}: {key} is given twice")
        listed.append((key, int(value)))
    return Placement("list", tuple(listed))


def _piece_name(key: str) -> bool:
    """Whether ``key`` reads as a piece actor's name: colour-kind-square (``white-knight-g1``)."""
    parts = key.split("-")
    return len(parts) >= 3 and parts[0] in _COLOURS


def checked_count(count: object) -> int:
    """``count`` if it is a number of nodes from 1 to :data:`MAX_NODES`.

    Raises:
        InputError: it is not.
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_NODES:
        raise InputError(f"--nodes {count}: give a number of node processes from 1 to {MAX_NODES}")
    return count


def spread(placement: Placement, count: int, names: list[str]) -> dict[str, list[str]]:
    """Where ``placement`` puts the actors ``names`` (in the order they start) on ``count`` nodes:
    each node's name (``node-1``, ...) with the names of its actors, in order."""
    shown: dict[str, list[str]] = {f"node-{index}": [] for index in range(1, count + 1)}
    for order, name in enumerate(names):
        shown[f"node-{placement.node_of(name, order, count)}"].append(name)
    return shown


# -- the nodes a game runs on, as the game sees them


class GameNodes(Protocol):
    """What a game asks of the node processes its actors run on (:class:`actors.clusters.nodes.Nodes`
    is the one kind there is)."""

    @property
    def names(self) -> list[str]:
        """The nodes' names (``node-1``, ...), as a partition may name them."""

    @property
    def driver(self) -> str:
        """The name of this process (the client and its supervisor), as a partition may name it."""

    def begin(self, supervisor: Supervisor, network: Network | None = None) -> None:
        """Run ``supervisor``'s actors on the nodes from now on (its links failing as ``network`` says)."""

    def partition(self, actors: frozenset[str], seconds: float, apart: frozenset[str] = frozenset()) -> None:
        """Cut ``actors`` off (from the rest, or from ``apart`` only) for ``seconds``."""

    def landed(self) -> None:
        """Wait until what was told to an actor on a node has reached it."""

    def gather(self) -> int:
        """Bring what the nodes recorded to this process's recorder; how many events came."""

    def end(self) -> None:
        """End the game on the nodes, collecting what they traced."""

    def close(self) -> None:
        """End the node processes."""


NodeStarter = Callable[[int, str, "str | Placement"], GameNodes]
"""Starts ``count`` nodes on the Ray at an address (checked), placed by a rule: what a game given a
number of nodes calls."""

NODES_MODULE = "actors.clusters.nodes"
"""The module that provides the starter of Ray's nodes (it calls :func:`provide_node_starter` as it loads)."""

_STARTERS: list[NodeStarter] = []


def provide_node_starter(starter: NodeStarter) -> None:
    """Have every game given a number of nodes start them with ``starter`` (the last one given wins)."""
    _STARTERS[:] = [starter]


def start_nodes(count: int, address: str, placement: str | Placement) -> GameNodes:
    """``count`` new nodes on the Ray at ``address``, placed by ``placement``, by the starter provided.

    The game stands below the clusters that run nodes and never imports them: until a starter is
    provided, the one of :data:`NODES_MODULE` is loaded by its name, which provides it. So the
    game's own imports point down the layers, and Ray's modules load only for a game on nodes.
    """
    if not _STARTERS:
        importlib.import_module(NODES_MODULE)
    return _STARTERS[0](count, address, placement)
