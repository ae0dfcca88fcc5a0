"""The live studio's latency: from a move sent over the WebSocket to its last trace event received
(and to the command's ``done``), median and p95 over a 200-ply game, beside the same moves run by
the chess shell's engine in-process (the reference: what the server runs for each command).

Then the server under load: the latency of a command after 1,500 commands against the first ones
(goal: within 2x), the first message a page gets from a studio started on a 1,500-step scenario
(goal: under 5 MB), and the studio's peak memory with 20 pages that never read while another page
sends commands (goal: under 300 MB)."""

from __future__ import annotations

import json
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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
    from actors.study.shell import Shell

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
    run_load(quick)


LONG_SESSION = 1_500
GOAL_GROWTH = 2.0
GOAL_FIRST_MESSAGE_MB = 5.0
GOAL_IDLE_PAGES_MB = 300.0
IDLE_PAGES = 20


def _long_scenario(steps: int) -> Path:
    """A scenario of ``steps`` plies of seeded random play that avoids ending the game (quiet moves
    first, a pawn move or capture before the fifty-move count grows long, no third repetition)."""
    import chess

    path = Path(tempfile.gettempdir()) / f"chess-actors-bench-live-{steps}.scenario"
    if path.exists():
        return path
    rng = random.Random(3)
    board = chess.Board()
    lines = ["start startpos"]

    def ends(move: chess.Move) -> bool:
        board.push(move)
        over = board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material() or \
            board.is_repetition(3)
        board.pop()
        return over

    while len(lines) <= steps:
        moves = [move for move in sorted(board.legal_moves, key=lambda move: move.uci()) if not ends(move)]
        resetting = [move for move in moves
                     if board.is_capture(move) or board.piece_type_at(move.from_square) == chess.PAWN]
        quiet = [move for move in moves if move not in resetting and not board.gives_check(move)]
        if board.halfmove_clock > 60 and resetting:
            chosen = rng.choice(resetting)
        elif quiet and rng.random() < 0.97:
            chosen = rng.choice(quiet)
        else:
            chosen = rng.choice(moves)
        board.push(chosen)
        lines.append(f"play {chosen.uci()}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _latency_growth(commands: int) -> tuple[float, float]:
    """Median ms of a command (``legal`` of a square, in turn) among the first ones (the 11th to the
    60th) and the last 50 of ``commands`` sent over the WebSocket to a served live game."""
    from websockets.sync.client import connect

    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.server import StudioServer, serving_in_background

    took: list[float] = []
    with LiveGame() as live:
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server), connect(
            f"ws://127.0.0.1:{server.port}/ws?token={server.token}", max_size=None
        ) as client:
            client.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            client.recv()
            for number in range(commands):
                started = time.perf_counter()
                client.send("legal g1" if number % 2 else "legal b1")
                while json.loads(client.recv())["type"] != "done":
                    pass
                took.append((time.perf_counter() - started) * 1000)
    return statistics.median(took[10:60]), statistics.median(took[-50:])  # past the first few (warming up)


def _studio(*arguments: str) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "actors.cli", "studio", *arguments], text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    return process, process.stdout.readline().strip().replace("http://", "ws://").replace("/?", "/ws?")


def _stopped(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGTERM)
    _, errors = process.communicate(timeout=60)
    return errors


def _peak_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="utf-8") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _first_message_and_idle_pages(steps: int, commands: int) -> tuple[int, float, float, int]:
    """The first message's size (bytes) from a studio started on a ``steps``-step scenario and the
    seconds from the command's start to that message, then its peak memory (MB) and the pages it
    dropped with :data:`IDLE_PAGES` pages that never read while another sends ``commands`` commands."""
    from websockets.sync.client import connect

    scenario = _long_scenario(steps)
    started = time.perf_counter()
    process, address = _studio("--scenario", str(scenario))
    try:
        port, token = int(address.split(":")[2].split("/")[0]), address.split("token=")[1]
        with connect(address, max_size=None, open_timeout=120) as page:
            first = len(page.recv(600).encode("utf-8"))
        opened = time.perf_counter() - started
        idle = []
        for _ in range(IDLE_PAGES):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", port))
            sock.sendall((f"GET /ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n").encode())
            idle.append(sock)
        with connect(address, max_size=None, open_timeout=120) as page:
            page.recv(600)
            for number in range(commands):
                page.send("legal g1" if number % 2 else "legal b1")
                while json.loads(page.recv(600))["type"] != "done":
                    pass
        peak = _peak_mb(process.pid)
        for sock in idle:
            sock.close()
    finally:
        errors = _stopped(process)
    return first, opened, peak, errors.count("disconnected a page")


def run_load(quick: bool) -> None:
    """Print the latency growth, the first message's size and the memory with idle pages."""
    commands = 300 if quick else LONG_SESSION
    with one_core_like_the_command_line():
        early, late = _latency_growth(commands)
    growth = late / early
    met = "met" if growth <= GOAL_GROWTH else "NOT met"
    print(f"  a command after {commands:,} commands: median {late:.2f} ms against {early:.2f} ms for the "
          f"first ones: {growth:.2f}x (goal within {GOAL_GROWTH:.0f}x: {met})")
    steps = 300 if quick else LONG_SESSION
    first, opened, peak, dropped = _first_message_and_idle_pages(steps, 100 if quick else 300)
    megabytes = first / 1_000_000
    print(f"  first message of a {steps:,}-step session: {megabytes:.2f} MB, {opened:.1f} s from the "
          f"command's start (goal under {GOAL_FIRST_MESSAGE_MB:.0f} MB: "
          f"{'met' if megabytes < GOAL_FIRST_MESSAGE_MB else 'NOT met'})")
    print(f"  studio with {IDLE_PAGES} pages that never read: peak {peak:.0f} MB, {dropped} of them dropped "
          f"(goal under {GOAL_IDLE_PAGES_MB:.0f} MB: {'met' if peak < GOAL_IDLE_PAGES_MB else 'NOT met'})")
