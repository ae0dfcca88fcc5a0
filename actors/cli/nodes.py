"""The ``--nodes N`` option of the commands that run a game's actors: the actors on N node processes
placed by Ray (``--ray`` says where, ``--placement`` which actor goes to which node)."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack, closing
from typing import TYPE_CHECKING, NamedTuple

from actors.game.placement import PLACEMENTS, Placement, checked_count, parse_placement, spread
from board.errors import InputError

if TYPE_CHECKING:
    from actors.clusters.nodes import Nodes

NODES_HELP = ("run the game's actors on N node processes placed by Ray (needs the 'cluster' extra); "
              "--ray says where (default local: a Ray started on this machine)")
PLACEMENT_HELP = (f"which node runs which actor with --nodes: {', '.join(PLACEMENTS)} (the default: role), "
                  "or a list such as referee=1,board=2,white=3,black=3")


class NodesOption(NamedTuple):
    """What ``--nodes``, ``--ray``, ``--ray-timeout`` and ``--placement`` ask for."""

    size: int
    address: str
    placement: Placement
    timeout: float


def add_nodes_flags(parser: argparse.ArgumentParser, ray_flags: bool) -> None:
    """Give a subcommand ``--nodes N`` and ``--placement RULE`` (and, with ``ray_flags``, the
    ``--ray ADDRESS`` and ``--ray-timeout SECONDS`` that replay has already)."""
    parser.add_argument("--nodes", metavar="N", default=None, help=NODES_HELP)
    parser.add_argument("--placement", metavar="RULE", default=None, help=PLACEMENT_HELP)
    if ray_flags:
        parser.add_argument("--ray", metavar="ADDRESS", default=None,
                            help="with --nodes: where the node processes run: 'local' (the default), "
                                 "'auto' or a Ray cluster's address")
        parser.add_argument("--ray-timeout", type=float, default=None, metavar="SECONDS",
                            help="how long --ray ADDRESS may take to reach its cluster (default 15)")


def nodes_option(args: argparse.Namespace) -> NodesOption | None:
    """What the options ask for (None: no ``--nodes``, the actors run in this process).

    Raises:
        InputError: a count that is not a number from 1 to 16, an unknown placement, a bad address,
            ``--placement`` without ``--nodes``.
    """
    from actors.clusters.cluster import ray_timeout
    from actors.game.arguments import check_address

    if args.nodes is None:
        if args.placement is not None:
            raise InputError("--placement: only with --nodes N")
        return None
    text = str(args.nodes).strip()
    count = checked_count(int(text)) if text.lstrip("-").isdigit() else checked_count(text)
    placement = parse_placement(args.placement if args.placement is not None else "role")
    address = check_address(args.ray if args.ray is not None else "local")
    return NodesOption(count, address, placement, ray_timeout(args.ray_timeout))


def own_nodes_option(args: argparse.Namespace) -> NodesOption | None:
    """:func:`nodes_option` for a command whose ``--ray`` means only where its nodes run.

    Raises:
        InputError: as :func:`nodes_option`, and ``--ray`` or ``--ray-timeout`` without ``--nodes``.
    """
    option = nodes_option(args)
    if option is None and (args.ray is not None or args.ray_timeout is not None):
        raise InputError("--ray: only with --nodes N (where the node processes run)")
    return option


def start_nodes(option: NodesOption) -> Nodes:
    """Start the node processes ``option`` asks for.

    Raises:
        MissingExtra: Ray is not installed; RayUnreachable: no cluster answered in time.
    """
    from actors.clusters.nodes import Nodes

    return Nodes(option.size, option.address, option.placement, option.timeout)


def open_nodes(
    stack: ExitStack, option: NodesOption, fen: str = "startpos", to_stderr: bool = False
) -> Nodes:
    """Start the node processes ``option`` asks for, closed when ``stack`` closes, and show where the
    placement puts a game's actors (on stdout, or stderr when stdout carries JSON).

    Raises:
        MissingExtra: Ray is not installed; RayUnreachable: no cluster answered in time.
    """
    nodes = stack.enter_context(closing(start_nodes(option)))
    shown = sys.stderr if to_stderr else sys.stdout
    shown.write("\n".join(placement_lines(nodes, fen)) + "\n")
    shown.flush()
    return nodes


def placement_lines(nodes: Nodes, fen: str = "startpos") -> list[str]:
    """Where the placement puts the actors of a game from ``fen``, a line a node (shown at start)."""
    from actors.roles.supervisor import seating

    pieces = [entry.name for entry in seating(fen)[2]]
    where = "a local Ray" if nodes.address == "local" else f"the Ray cluster at {nodes.address}"
    lines = [f"nodes: {nodes.count} node processes on {where}, placement {nodes.placement.text()}"]
    for node, names in spread(nodes.placement, nodes.count, ["journal", "board", *pieces, "referee"]).items():
        lines.append(f"  {node}: {_shown(names) or 'nothing'}")
    return lines


def _shown(names: list[str]) -> str:
    """Role names as they are; pieces counted by colour, named when there are few."""
    roles = [name for name in names if "-" not in name]
    parts = list(roles)
    for colour in ("white", "black"):
        mine = [name for name in names if name.startswith(f"{colour}-")]
        if len(mine) > 3:
            parts.append(f"{len(mine)} {colour} pieces")
        else:
            parts.extend(mine)
    return ", ".join(parts)


def node_lines(nodes: Nodes) -> list[str]:
    """Where the current (or last) game's actors run now, a line a node with its process id and
    how many actors it holds; a node found gone says so."""
    lines = []
    for node in nodes.names:
        pid = nodes.pids[node]
        if node in nodes.dead:
            lines.append(f"  {node} (pid {pid}): gone")
            continue
        names = [name for name, where in nodes.placed.items() if where == node]
        held = f"{len(names)} actor" + ("" if len(names) == 1 else "s")
        lines.append(f"  {node} (pid {pid}): {held}" + (f": {_shown(names)}" if names else ""))
    return lines


def restart_lines(nodes: Nodes, game: int) -> list[str]:
    """After a game whose supervisor restarted actors: how many restarts it made (a lost node's
    actors count once), the nodes found gone, and where every actor ended up (nothing after a game
    that restarted nothing)."""
    if not nodes.restarts:
        return []
    gone = [node for node in nodes.names if node in nodes.dead]
    lost = f" (nodes gone: {', '.join(gone)})" if gone else ""
    return [f"restarts in game {game}: {nodes.restarts}{lost}", *node_lines(nodes)]
