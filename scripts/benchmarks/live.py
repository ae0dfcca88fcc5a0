"""The live studio's latency: from a move sent over the WebSocket to its last trace event received
(and to the command's ``done``), median and p95 over a 200-ply game, beside the same moves run by
the chess shell's engine in-process (the reference: what the server runs for each command)."""

from __future__ import annotations

import json
import socket
import statistics
import time

from benchmarks.common import one_core_like_the_command_line
from benchmarks.studio import _long_game

PLIES = 200
GOAL_P95_MS = 50.0


def _p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _over_the_websocket(moves: list[str]) -> tuple[list[float], list[float]]:
    """(ms to the last event, ms to done) of each move, played through a served live game."""
    from websockets.sync.client import connect

    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.server import StudioServer, serving_in_background

    to_last_event: list[float] = []
    to_done: list[float] = []
    with LiveGame() as live:
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server), connect(
            f"ws://127.0.0.1:{server.port}/ws?token={server.token}", max_size=None
        ) as client:
            # As a browser does: a command is one small frame, sent at once.
            client.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            client.recv()
            for move in moves:
                started = time.perf_counter()
                client.send(f"play {move}")
                last_event = started
                while True:
                    message = json.loads(client.recv())
                    if message["type"] == "event":
                        last_event = time.perf_counter()
                    elif message["type"] == "shown" and message.get("accepted") is False:
                        raise RuntimeError(f"{move} was refused: {message['reason']}")
                    elif message["type"] == "done":
                        break
                to_last_event.append((last_event - started) * 1000)
                to_done.append((time.perf_counter() - started) * 1000)
    return to_last_event, to_done


def _in_process(moves: list[str]) -> list[float]:
    """ms of each move run by the chess shell's engine in-process (what the server runs per command)."""
    from actors.scenario.shell import Shell

    took: list[float] = []
    with Shell() as shell:
        for move in moves:
            started = time.perf_counter()
            shell.execute(f"play {move}")
            took.append((time.perf_counter() - started) * 1000)
    return took


def run(quick: bool) -> None:
    """Print the median and p95 per ply over the WebSocket and in-process, and their ratio."""
    from board.notation.pgn import read_games

    path = _long_game(PLIES)
    with path.open(encoding="utf-8") as file:
        [game] = list(read_games(file))
    moves = [token.text for token in game.moves][: 40 if quick else PLIES]
    with one_core_like_the_command_line():
        reference = _in_process(moves)
        to_last_event, to_done = _over_the_websocket(moves)
    rows = (("shell in-process (reference)", reference), ("WebSocket: to the last event", to_last_event),
            ("WebSocket: to done (state included)", to_done))
    for name, samples in rows:
        print(f"  {name:<38} median {statistics.median(samples):6.2f} ms   p95 {_p95(samples):6.2f} ms"
              f"   ({len(samples)} plies)")
    ratio = statistics.median(to_last_event) / statistics.median(reference)
    p95 = _p95(to_last_event)
    print(f"  WebSocket / in-process, medians: {ratio:.2f}x; p95 to the last event {p95:.1f} ms "
          f"(goal under {GOAL_P95_MS:.0f} ms: {'met' if p95 < GOAL_P95_MS else 'NOT met'})")
