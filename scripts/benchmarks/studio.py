"""The studio page: the time to write it for a 200-ply game and its size, against the JSON lines
trace of the same messages (the reference), and whole commands with and without ``--html``."""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import alternate, one_core_like_the_command_line

PLIES = 200


def _long_game(plies: int) -> Path:
    """A seeded random legal game of exactly ``plies`` plies (the first seed that lasts that long)."""
    import chess
    import chess.pgn

    path = Path(tempfile.gettempdir()) / f"chess-actors-bench-studio-{plies}.pgn"
    if path.exists():
        return path
    for seed in range(1000):
        rng = random.Random(seed)
        board = chess.Board()
        while not board.is_game_over(claim_draw=True) and board.ply() < plies:
            board.push(rng.choice(sorted(board.legal_moves, key=lambda move: move.uci())))
        if board.ply() == plies:
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = f"studio bench, seed {seed}"
            path.write_text(str(game) + "\n", encoding="utf-8")
            return path
    raise RuntimeError(f"no seed gave a {plies}-ply game")


def _command(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "actors.cli", *args], check=True, capture_output=True)
    return time.perf_counter() - start


def run(quick: bool) -> None:
    """Print the page's write time and size beside the JSON lines trace's, and whole-command times."""
    from actors.game.replay import watch_game
    from actors.studio import page_html
    from actors.tracing.export import to_jsonl
    from actors.tracing.recorder import TraceRecorder
    from board.notation.pgn import read_games

    path = _long_game(PLIES)
    with path.open(encoding="utf-8") as file:
        [game] = list(read_games(file))
    recorder = TraceRecorder()
    recorder.game = 1
    with one_core_like_the_command_line():
        verdict = watch_game(game, "actors", recorder)
    assert verdict.plies == PLIES and verdict.error is None, verdict
    events = recorder.events()

    page = page_html(events)
    lines = "".join(to_jsonl(events))
    mine, other = alternate(3 if quick else 9, lambda: page_html(events), lambda: "".join(to_jsonl(events)))
    page_bytes, line_bytes = len(page.encode("utf-8")), len(lines.encode("utf-8"))
    print(f"game: {path.name} ({PLIES} plies, {len(events):,} messages)")
    print(
        f"studio page:        {mine * 1000:8.1f} ms to write, {page_bytes / 1e6:6.2f} MB "
        f"({page_bytes / PLIES / 1000:.1f} kB/ply)"
    )
    print(f"JSON lines trace:   {other * 1000:8.1f} ms to write, {line_bytes / 1e6:6.2f} MB")
    print(f"ratio (page / JSON lines): {mine / other:.2f}x the time, {page_bytes / line_bytes:.2f}x the size")

    runs = 1 if quick else 3
    with tempfile.TemporaryDirectory() as folder:
        html = str(Path(folder) / "study.html")
        plain = min(_command("replay", str(path), "--json") for _ in range(runs))
        studio = min(_command("replay", str(path), "--json", "--html", html) for _ in range(runs))
    print(f"chess-actors replay GAME --json:              {plain:6.2f} s")
    print(f"chess-actors replay GAME --json --html PATH:  {studio:6.2f} s  ({studio / plain:.2f}x)")
