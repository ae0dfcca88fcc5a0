"""A game's actors on node processes (a local Ray): plies/s and messages per ply in one process, on 2
and on 3 nodes; one ask that crosses to another process against one that stays in it; each node's memory."""

from __future__ import annotations

import statistics
import time
from typing import TYPE_CHECKING

from benchmarks.common import random_games_pgn

if TYPE_CHECKING:
    from actors.clusters.nodes import Nodes
    from board.notation.pgn import PgnGame

PINGS = 400


def run(quick: bool) -> None:
    """Print the three runs side by side, the cost of one ask, and the nodes' memory."""
    try:
        from actors.clusters.nodes import Nodes
    except ImportError:
        print("(Ray is not installed: pip install '.[cluster]' to include it)")
        return
    from board.notation.pgn import read_games

    with random_games_pgn(6 if quick else 20, seed=11, max_plies=80).open(encoding="utf-8") as text:
        games = list(read_games(text))
    rows: list[tuple[str, float, float, float]] = []  # label, plies/s, messages/ply, start-up s a game
    verdicts: list[list[tuple[int, str]]] = []
    for count in (0, 2, 3):
        nodes = Nodes(count, "local") if count else None
        try:
            plies, messages, startup, playing, outcomes = _replay(games, nodes)
            verdicts.append(outcomes)
            label = f"{count} nodes" if count else "one process"
            rows.append((label, plies / playing, messages / plies, startup / len(games)))
            if nodes is not None:
                crossing = _ask_times(nodes)
                memory = nodes.memory()
        finally:
            if nodes is not None:
                nodes.close()
    same = "same verdicts" if all(outcome == verdicts[0] for outcome in verdicts) else "VERDICTS DIFFER"
    reference = rows[0][1]
    print(f"{len(games)} random games, {same}; plies/s leave out starting each game's actors")
    for label, speed, per_ply, startup_seconds in rows:
        print(f"{label:<12} {speed:>8,.0f} plies/s ({speed / reference:.2f}x)  {per_ply:>6.1f} messages/ply  "
              f"start-up {startup_seconds * 1000:,.0f} ms a game")
    local = _ask_times(None)
    print(f"one ask (client -> piece Ping, {PINGS} times): in one process median {_us(local, 50)}, "
          f"p99 {_us(local, 99)}; to a node median {_us(crossing, 50)}, p99 {_us(crossing, 99)} "
          f"({statistics.median(crossing) / statistics.median(local):.0f}x)")
    shown = ", ".join(f"{node} {size / 2**20:.0f} MiB" for node, size in memory.items())
    print(f"resident memory of each node process (3 nodes, after the games): {shown}")


def _replay(
    games: list[PgnGame], nodes: Nodes | None
) -> tuple[int, int, float, float, list[tuple[int, str]]]:
    """Replay ``games``: (plies, messages after start-up, seconds starting, seconds playing, outcomes)."""
    from actors.game.game import ActorGame
    from actors.protocol.referee import Rejected
    from actors.tracing.recorder import STARTUP, TraceRecorder

    plies = messages = 0
    startup = playing = 0.0
    outcomes = []
    for game in games:
        recorder = TraceRecorder()
        with ActorGame(recorder=recorder, nodes=nodes) as actor_game:
            began = time.perf_counter()
            for reply in actor_game.stream_proposals(token.text for token in game.moves):
                if isinstance(reply, Rejected):
                    break
            playing += time.perf_counter() - began
            startup += actor_game.startup_seconds
            plies += actor_game.plies
            outcomes.append((actor_game.plies, actor_game.fen()))
        messages += sum(1 for event in recorder.events() if event["phase"] != STARTUP)
    return plies, messages, startup, playing, outcomes


def _ask_times(nodes: Nodes | None) -> list[float]:
    """Seconds of each of :data:`PINGS` asks from the client to a piece, sorted."""
    from actors.game.game import ActorGame
    from actors.kernel.control import Ping

    with ActorGame(nodes=nodes) as game:
        name = game.piece("g1").name
        times = []
        for _ in range(PINGS):
            started = time.perf_counter()
            game.ask(name, Ping())
            times.append(time.perf_counter() - started)
    return sorted(times)


def _us(times: list[float], percent: int) -> str:
    index = min(len(times) - 1, round(percent / 100 * (len(times) - 1)))
    return f"{times[index] * 1e6:,.0f} µs"
