"""Load: many games at once below the process's limit all work; one past it is a clear error, never a crash.

The limit is actors.kernel.limits (CHESS_ACTORS_MAX_GAMES); a thread the system refuses is the same error,
with every half-started actor stopped. scripts/load.py measures the real ceiling of a machine.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import pykka
import pytest

from actors.game.game import ActorGame
from actors.kernel.limits import DEFAULT_MAX_GAMES, ENV_VAR, GAMES, THREADS_PER_GAME, TooManyGames, max_games
from actors.protocol import Accepted

ROOT = Path(__file__).resolve().parents[2]


def actor_threads() -> int:
    return sum(1 for thread in threading.enumerate() if "Actor" in thread.name)


def test_games_below_the_limit_all_play_at_once_and_leave_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "12")
    with ExitStack() as stack:
        games = [stack.enter_context(ActorGame()) for _ in range(12)]
        assert GAMES.live == 12
        assert actor_threads() == 12 * THREADS_PER_GAME
        for move in ("e4", "e5", "Nf3", "Nc6"):
            for game in games:
                reply = game.propose(move)
                assert isinstance(reply, Accepted), reply
        assert {game.fen() for game in games} == {
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        }
    assert GAMES.live == 0
    assert not pykka.ActorRegistry.get_all()


def test_one_game_past_the_limit_is_a_clear_error_that_starts_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENV_VAR, "3")
    with ExitStack() as stack:
        games = [stack.enter_context(ActorGame()) for _ in range(3)]
        registered = len(pykka.ActorRegistry.get_all())
        with pytest.raises(TooManyGames, match=rf"3 actor games are running.*set {ENV_VAR}"), ActorGame():
            pass
        assert len(pykka.ActorRegistry.get_all()) == registered
        assert GAMES.live == 3
        games.pop().close()  # a place frees up: the next game starts
        with ActorGame() as another:
            assert isinstance(another.propose("d4"), Accepted)
    assert GAMES.live == 0


def test_the_limit_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert max_games() == DEFAULT_MAX_GAMES
    monkeypatch.setenv(ENV_VAR, " 40 ")
    assert max_games() == 40
    monkeypatch.setenv(ENV_VAR, "0")
    assert max_games() == 0
    for bad in ("-1", "many", "1e3", "٣"):
        monkeypatch.setenv(ENV_VAR, bad)
        with pytest.raises(TooManyGames, match=f"{ENV_VAR}=.* is not a whole number"):
            max_games()


def test_games_racing_for_the_last_places_never_pass_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "4")
    started: list[ActorGame] = []
    refused: list[TooManyGames] = []
    gate = threading.Barrier(8)
    lock = threading.Lock()

    def start_one() -> None:
        game = ActorGame()
        gate.wait()
        try:
            game.start()
        except TooManyGames as error:
            with lock:
                refused.append(error)
            return
        with lock:
            started.append(game)

    racers = [threading.Thread(target=start_one) for _ in range(8)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    try:
        assert (len(started), len(refused)) == (4, 4)
        assert GAMES.live == 4
    finally:
        for game in started:
            game.close()
    assert GAMES.live == 0


def test_a_thread_the_system_refuses_is_too_many_games_and_stops_what_had_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import actors.kernel.limits

    real_start = actors.kernel.limits.start_thread
    calls = 0

    def refuse_the_twentieth(
        target: Callable[[], object], kind: str, daemon: bool, actor_urn: str | None = None
    ) -> threading.Thread:
        nonlocal calls
        calls += 1
        if calls == 20:
            raise RuntimeError("can't start new thread")
        return real_start(target, kind, daemon, actor_urn)

    monkeypatch.setattr(actors.kernel.limits, "start_thread", refuse_the_twentieth)
    refused = r"the system refused a thread for actor .*can't start new thread"
    with pytest.raises(TooManyGames, match=refused), ActorGame():
        pass
    assert not pykka.ActorRegistry.get_all(), "a half-started actor is still registered"
    assert GAMES.live == 0


def test_a_thread_that_fails_as_it_begins_is_refused_and_never_waited_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under an address-space limit a new thread's first allocations can fail before it says it has
    # begun; Thread.start would then wait for ever. The failure is made here, for every actor thread.
    from actors.kernel import limits

    def fail_as_it_begins(thread: threading.Thread) -> None:
        raise MemoryError

    monkeypatch.setattr(limits._BoundedThread, "_set_tstate_lock", fail_as_it_begins)
    refused = r"the system refused a thread for actor .*failed as it began \(MemoryError\(\)\)"
    with pytest.raises(TooManyGames, match=refused), ActorGame():
        pass
    assert not pykka.ActorRegistry.get_all(), "a half-started actor is still registered"
    assert not [thread for thread in threading.enumerate() if "Actor" in thread.name], "a thread is listed"
    assert GAMES.live == 0


REFUSED_THREADS = """
import json, resource, threading, pykka
from actors.game.game import ActorGame
from actors.kernel.limits import TooManyGames
# An address-space limit makes the kernel refuse thread stacks in this process only.
with open("/proc/self/status") as status:
    size_kb = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
limit = (size_kb + 2500 * 1024) * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
games, error = [], None
try:
    while len(games) < 50:
        game = ActorGame()
        game.start()
        games.append(game)
except TooManyGames as refused:
    error = str(refused)
for game in games:
    game.close()
print(json.dumps({"games": len(games), "error": error, "registered": len(pykka.ActorRegistry.get_all()),
                  "threads": sum("Actor" in thread.name for thread in threading.enumerate())}))
"""


def test_a_real_thread_refusal_in_a_process_is_the_clear_error() -> None:
    result = subprocess.run(
        [sys.executable, "-c", REFUSED_THREADS], capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={"CHESS_ACTORS_MAX_GAMES": "0", "PATH": "/usr/bin:/bin"}, check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["error"] is not None and "can't start new thread" in report["error"], report
    assert 0 < report["games"] < 50
    assert report["registered"] == 0 and report["threads"] == 0, report


def test_actor_threads_leave_ctrl_c_and_sigterm_to_the_main_thread() -> None:
    # A process-wide signal goes to any thread that does not block it, and only the main thread runs
    # Python's handler: an actor thread taking Ctrl-C would leave the shell waiting in readline.
    def blocked(native_id: int) -> int:
        status = Path(f"/proc/self/task/{native_id}/status").read_text(encoding="utf-8")
        return int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)

    wanted = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))
    with ActorGame():
        actor_threads = [t for t in threading.enumerate() if t is not threading.main_thread()]
        assert len(actor_threads) >= 35
        assert all(blocked(t.native_id or 0) & wanted == wanted for t in actor_threads)
    assert blocked(threading.main_thread().native_id or 0) & wanted == 0
