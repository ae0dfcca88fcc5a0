#!/usr/bin/env python3
"""Fault injection: crash, stop and stall piece, board and referee actors at random moments of many replays.

    python scripts/faults.py [--games N] [--seed S] [--timeout T] [--mode replay|moves|both]

An injector thread picks a live actor at random every few milliseconds and crashes it now, arms it
to crash (or to stall past the ask timeout) on its next message of a random kind, or stops it from
outside. Every game must reach the direct engine's verdict and final FEN, or end with a clear
error (the supervisor gave up) soon after the fault that caused it: never a hang, never a wrong
verdict. Games borrow their actor system from a pool, so faults also strike systems an earlier game
used (a crash armed and left unsprung, a piece stuck between games). Prints the faults injected,
survived and ended by a clear error; exit 1 on any breach.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pykka

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the project, with the harnesses' shared helpers (scripts.random_play)
    sys.path.insert(0, str(ROOT))


import actors.game.game  # noqa: E402
import actors.game.replay  # noqa: E402
from actors.game.game import ActorGame  # noqa: E402
from actors.game.parity import actor_verdict, direct_verdict  # noqa: E402
from actors.game.pool import SystemPool  # noqa: E402
from actors.kernel.errors import ActorFailure  # noqa: E402
from actors.kernel.messaging import WINDOW, Envelope  # noqa: E402
from actors.protocol import (  # noqa: E402
    Crash,
    CrashOnNext,
    HangOnNext,
    Verdict,
)
from board.games.game import Game  # noqa: E402
from board.games.replay import GameVerdict, replay_direct  # noqa: E402
from board.notation.algebraic import san  # noqa: E402
from board.notation.pgn import read_games  # noqa: E402
from board.notation.pgn_writer import format_game  # noqa: E402
from board.rules.movegen import legal_moves  # noqa: E402
from scripts.random_play import illegal_move, random_play  # noqa: E402

MESSAGE_KINDS = (
    "ProposeText", "FenQuery", "Begin", "MoveQuery", "CastleQuery", "TargetsQuery", "Survey",
    "Apply", "RosterQuery", "Describe", "Moved", "Captured", "Resync", "Ping",
)
"""Every message kind an actor may be armed to crash or stall on (Ping: the supervisor's probe)."""

FAULTS = ("crash", "crash_on_next", "stop", "hang")
CLEAR_ERRORS = ("restarts within", "did not stop within")
"""What the supervisor's own give-up errors say (RestartIntensityExceeded; a stuck board or referee)."""

ILLEGAL_TRIES = ("Ke5", "Nf7", "Qxh8", "O-O-O", "O-O", "Bb5", "exd6", "a8=Q", "Rxa8", "Kxe2", "h5")
GARBLED = ("e9", "Nxx", "O-O-O-O", "e2e2", "Z0", "--", "e7e8k", "Pe4", "exd")


@dataclass
class Tally:
    """What a run did: faults by actor kind and fault, and how each game ended."""

    injected: Counter[str] = field(default_factory=Counter)
    games: int = 0
    plies: int = 0
    survived_faults: int = 0
    ended_faults: int = 0
    matched: int = 0
    clear_errors: Counter[str] = field(default_factory=Counter)
    error_delays: list[float] = field(default_factory=list)
    restarts: int = 0
    reused: int = 0
    breaches: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Faults injected in all."""
        return sum(self.injected.values())

    def summary(self) -> str:
        """A few lines for people."""
        by_fault = Counter[str]()
        for key, count in self.injected.items():
            by_fault[key.split(":")[1]] += count
        delays = sorted(self.error_delays)
        worst = f"{delays[-1]:.2f} s" if delays else "-"
        lines = [
            f"games {self.games} ({self.reused} on a system an earlier game used), plies judged"
            f" {self.plies}, supervisor restarts {self.restarts}",
            f"faults injected {self.total}: " + ", ".join(f"{k} {v}" for k, v in sorted(by_fault.items())),
            "  by actor: " + ", ".join(
                f"{kind} {sum(v for k, v in self.injected.items() if k.startswith(kind))}"
                for kind in ("PieceActor", "BoardActor", "RefereeActor")
            ),
            f"survived (the game reached the direct verdict): {self.survived_faults} faults"
            f" in {self.matched} games",
            f"ended by a clear error: {self.ended_faults} faults in {sum(self.clear_errors.values())} games"
            + (f" ({dict(self.clear_errors)}); worst fault-to-error {worst}" if self.clear_errors else ""),
            f"breaches (wrong verdict, hang, unclear error): {len(self.breaches)}",
        ]
        lines += [f"  {breach}" for breach in self.breaches[:10]]
        return "\n".join(lines)


class Injector:
    """Injects one random fault into a random live actor, either at exponential intervals of the
    clock (a thread of its own) or paced by proposals (the client calls :meth:`step` before each).

    Paced by proposals, how many faults strike is what the seed decides: a seeded coin for each
    proposal, and a fault that could not be delivered (its actor died a moment before) is aimed at
    another actor, so no count depends on how fast the machine runs.

    Args:
        rng: the randomness (seeded by the caller).
        mean_interval: mean seconds between faults (clock pace).
        stall: (shortest, longest) stall of an injected hang, in seconds.
        faults: which kinds of fault to inject.
        rate: the chance of a fault before each proposal; 0 paces faults by the clock instead.
    """

    def __init__(
        self, rng: random.Random, mean_interval: float, stall: tuple[float, float],
        faults: tuple[str, ...] = FAULTS, rate: float = 0.0,
    ) -> None:
        self.rng = rng
        self.coin = random.Random(rng.random())  # its own stream: retries elsewhere never shift it
        self.mean_interval = mean_interval
        self.stall = stall
        self.faults = faults
        self.rate = rate
        self.counts: Counter[str] = Counter()
        self.last_fault = 0.0
        self._armed = threading.Event()
        self._quit = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fault-injector", daemon=True)

    @property
    def paced(self) -> bool:
        """Whether faults are paced by proposals (the seed decides how many) rather than the clock."""
        return self.rate > 0

    def __enter__(self) -> Injector:
        if not self.paced:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.paced:
            self._quit.set()
            self._armed.set()
            self._thread.join()

    @contextmanager
    def armed(self) -> Iterator[None]:
        """Inject only inside this block (a game that has started and not yet closed)."""
        self.counts = Counter()
        self._armed.set()
        try:
            yield
        finally:
            self._armed.clear()

    def step(self) -> None:
        """Paced by proposals: toss the seeded coin, and on heads inject one fault now."""
        if self._armed.is_set() and self.coin.random() < self.rate:
            for _ in range(1000):  # some actor is always alive; a dead one's fault goes elsewhere
                if self._inject_one():
                    return

    def paced_texts(self, texts: Iterable[str]) -> Iterator[str]:
        """The texts, with a :meth:`step` before each is handed on to be proposed."""
        for text in texts:
            self.step()
            yield text

    def _run(self) -> None:
        rng = self.rng
        while not self._quit.is_set():
            self._armed.wait()
            if self._quit.wait(rng.expovariate(1.0 / self.mean_interval)):
                return
            if self._armed.is_set():
                self._inject_one()

    def _inject_one(self) -> bool:
        rng = self.rng
        # Half the faults hit a piece, a quarter each the board and the referee (there are 32 pieces).
        target = rng.choice(("PieceActor", "PieceActor", "BoardActor", "RefereeActor"))
        refs = [ref for ref in pykka.ActorRegistry.get_all()
                if ref.is_alive() and ref.actor_class.__name__ == target]
        if not refs:
            return False
        ref = rng.choice(refs)
        fault = rng.choice(self.faults)
        kind = rng.choice(MESSAGE_KINDS)
        try:
            if fault == "crash":
                ref.tell(Envelope(Crash(), "injector", None, None))
            elif fault == "crash_on_next":
                ref.tell(Envelope(CrashOnNext(kind), "injector", None, None))
            elif fault == "stop":
                ref.stop(block=False)
            else:
                ref.tell(Envelope(HangOnNext(kind, rng.uniform(*self.stall)), "injector", None, None))
        except pykka.ActorDeadError:
            return False  # it died between the choice and the fault: nothing injected
        self.counts[f"{ref.actor_class.__name__}:{fault}"] += 1
        self.last_fault = time.monotonic()
        return True


def random_game(rng: random.Random, number: int, max_plies: int, illegal_rate: float) -> str:
    """A seeded random game as PGN: legal moves, sometimes ended by one illegal or garbled move."""
    moves, game = random_play(rng, max_plies)
    if rng.random() < illegal_rate:
        illegal = illegal_move(rng, game, ILLEGAL_TRIES)
        if illegal is not None:
            moves.append(illegal)
    tags = {"Event": "faults", "Round": str(number), "White": f"w{number}", "Black": f"b{number}"}
    return format_game(tags, moves, "*")


def direct_prefix_fen(pgn: str, plies: int) -> str:
    """The FEN after the first ``plies`` moves of a game, by the direct engine."""
    parsed = next(read_games(pgn))
    board = Game()
    for token in parsed.moves[:plies]:
        board.play(token.text, want_san=False)
    return board.fen()


@contextmanager
def actor_games(pool: SystemPool, max_restarts: int, period: float, injector: Injector,
                games: list[ActorGame]) -> Iterator[None]:
    """Make ``replay_with_actors`` build its games with these settings, on systems borrowed from
    ``pool``, and inject only while one runs."""

    class InjectedGame(ActorGame):
        def __init__(self, fen: str = "startpos", *args: Any, **kwargs: Any) -> None:
            super().__init__(fen, None, None, max_restarts, period, pool=pool)
            games.append(self)

        def __enter__(self) -> ActorGame:
            entered = super().__enter__()
            injector._armed.set()
            return entered

        def __exit__(self, *exc: Any) -> None:
            injector._armed.clear()
            super().__exit__(*exc)

        def stream_proposals(self, texts: Iterable[str], window: int = WINDOW) -> Iterator[Verdict]:
            return super().stream_proposals(injector.paced_texts(texts) if injector.paced else texts, window)

    original = actors.game.game.ActorGame
    actors.game.game.ActorGame = InjectedGame  # type: ignore[misc]
    try:
        yield
    finally:
        actors.game.game.ActorGame = original  # type: ignore[misc]


def check_replay(tally: Tally, pgn: str, actor: GameVerdict, direct: GameVerdict, delay: float,
                 faults: int) -> None:
    """Judge one replay under faults against the direct engine's verdict."""
    got, want = actor.as_json(), direct.as_json()
    tally.plies += actor.plies
    if got == want:
        tally.matched += 1
        tally.survived_faults += faults
        return
    error = got["error"]
    reason = error["reason"] if error else ""
    clear = next((marker for marker in CLEAR_ERRORS if marker in reason), None)
    if clear is None:
        tally.breaches.append(f"game {actor.game}: wrong verdict {got} != {want}")
        return
    if actor.plies > direct.plies or actor.fen != direct_prefix_fen(pgn, actor.plies):
        tally.breaches.append(f"game {actor.game}: position before the error is wrong: {got}")
        return
    tally.clear_errors[clear] += 1
    tally.ended_faults += faults
    tally.error_delays.append(delay)


def run_replays(games: int, seed: int, timeout: float, mean_interval: float, max_restarts: int = 10,
                period: float = 5.0, max_plies: int = 120, hang_bound: float | None = None,
                rate: float = 0.0) -> Tally:
    """Replay ``games`` random games through ``replay_with_actors`` under injected faults.

    ``hang_bound``: a replay (and the error after its last fault) may take at most this long
    (default: 6 timeouts a fault and 4 s: far past any wait the protocol has, short of a hang).
    ``rate`` > 0 paces the faults by proposals (that chance of one before each move is sent)
    instead of the clock.
    """
    rng = random.Random(seed)
    tally = Tally()
    started: list[ActorGame] = []
    injector = Injector(random.Random(seed + 1), mean_interval, (1.2 * timeout, 2.5 * timeout), rate=rate)
    pool = SystemPool(timeout=timeout)
    with injector, pool, actor_games(pool, max_restarts, period, injector, started):
        for number in range(1, games + 1):
            pgn = random_game(rng, number, max_plies, illegal_rate=0.3)
            parsed = next(read_games(pgn))
            direct = replay_direct(parsed)
            injector.counts = Counter()
            began = time.monotonic()
            try:
                verdict = actors.game.replay.replay_with_actors(parsed)
            except Exception as error:  # the harness reports any escape as a breach
                tally.breaches.append(f"game {number}: {type(error).__name__} escaped: {error}")
                continue
            ended = time.monotonic()
            faults = sum(injector.counts.values())
            tally.injected.update(injector.counts)
            tally.games += 1
            tally.restarts += started[-1].supervisor.restarts if started else 0
            tally.reused = pool.reused
            delay = ended - max(injector.last_fault, began)
            check_replay(tally, pgn, verdict, direct, delay, faults)
            limit = hang_bound if hang_bound is not None else 4.0 + 6 * timeout * max(1, faults)
            if ended - began > limit:
                tally.breaches.append(f"game {number}: took {ended - began:.1f} s (over {limit:.1f} s)")
    return tally






def run_moves(games: int, seed: int, timeout: float, mean_interval: float, max_restarts: int = 1000,
              period: float = 1.0, max_plies: int = 150, rate: float = 0.0) -> Tally:
    """Play random games move by move (a tenth of the proposals illegal) under injected faults.

    Every proposal's verdict must equal the direct engine's, and the final FEN too. ``rate`` > 0
    paces the faults by proposals (that chance of one before each) instead of the clock.
    """
    rng = random.Random(seed)
    tally = Tally()
    injector = Injector(random.Random(seed + 1), mean_interval, (1.2 * timeout, 2.5 * timeout), rate=rate)
    with injector, SystemPool(timeout=timeout) as pool:
        for number in range(1, games + 1):
            direct = Game()
            with ActorGame(max_restarts=max_restarts, period=period, pool=pool) as game:
                clear: str | None = None
                breaches = len(tally.breaches)
                with injector.armed():
                    for _ in range(max_plies):
                        legal = legal_moves(direct.position)
                        if not legal or direct.ended():
                            break
                        if rng.random() < 0.1:
                            text = rng.choice(ILLEGAL_TRIES + GARBLED)
                        else:
                            text = san(direct.position, rng.choice(legal))
                        injector.step()
                        try:
                            got = actor_verdict(game, text)
                        except ActorFailure as error:
                            clear = next((m for m in CLEAR_ERRORS if m in str(error)), None)
                            if clear is None:
                                tally.breaches.append(f"game {number}: {text}: unclear error {error!r}")
                            else:
                                tally.error_delays.append(time.monotonic() - injector.last_fault)
                            break
                        want = direct_verdict(direct, text)
                        tally.plies += 1
                        if got != want:
                            tally.breaches.append(f"game {number}: {text}: {got} != {want}")
                            break
                    faults = sum(injector.counts.values())
                    tally.injected.update(injector.counts)
                if clear is None and len(tally.breaches) == breaches:
                    # A fault armed during the last move may strike the FEN query: a clear error then
                    # ends the game like one during a move.
                    try:
                        fen = game.fen()
                    except ActorFailure as error:
                        fen = f"<{error}>"
                        clear = next((m for m in CLEAR_ERRORS if m in str(error)), None)
                        if clear is not None:
                            tally.error_delays.append(time.monotonic() - injector.last_fault)
                    if clear is None and fen != direct.fen():
                        tally.breaches.append(f"game {number}: final FEN {fen} != {direct.fen()}")
                    elif clear is None:
                        tally.matched += 1
                        tally.survived_faults += faults
                if clear is not None:
                    tally.clear_errors[clear] += 1
                    tally.ended_faults += faults
                tally.games += 1
                tally.restarts += game.supervisor.restarts
            tally.reused = pool.reused
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per mode (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    parser.add_argument("--timeout", type=float, default=0.5,
                        help="every ask's timeout, seconds (default 0.5)")
    parser.add_argument("--interval", type=float, default=0.02,
                        help="mean seconds between faults (default 0.02)")
    parser.add_argument("--mode", choices=("replay", "moves", "both"), default="both")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="pace faults by proposals instead: this chance of one before each move"
                             " (the seed then decides how many strike)")
    args = parser.parse_args()
    failed = False
    for mode in ("replay", "moves") if args.mode == "both" else (args.mode,):
        began = time.monotonic()
        if mode == "replay":
            tally = run_replays(args.games, args.seed, args.timeout, args.interval, rate=args.rate)
        else:
            tally = run_moves(args.games, args.seed, args.timeout, args.interval, rate=args.rate)
        print(f"== {mode}: {time.monotonic() - began:.0f} s, timeout {args.timeout:g} s", flush=True)
        print(tally.summary(), flush=True)
        failed = failed or bool(tally.breaches)
    leaked = [thread.name for thread in threading.enumerate() if "Actor" in thread.name]
    deadline = time.monotonic() + 10
    while leaked and time.monotonic() < deadline:
        time.sleep(0.1)
        leaked = [thread.name for thread in threading.enumerate() if "Actor" in thread.name]
    print(f"actor threads left: {len(leaked)}")
    return 1 if failed or leaked else 0


if __name__ == "__main__":
    sys.exit(main())
