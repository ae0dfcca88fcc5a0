"""A system re-seated ply after ply (explore) keeps only the pieces the position seats: positions
from the middle of a game name pieces by squares of their own, and every piece ever started stayed,
so explore ran out of a 300 MB address space where replay of the same game runs."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from actors.roles.supervisor import IDLE_PIECES
from actors.study.orders import OrderedSystem, game_plies
from board.notation.pgn import read_games

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "tests" / "data" / "kasparov-topalov-1999.pgn"


def _plies() -> list[tuple[int, str, str]]:
    (game,) = read_games([GAME.read_bytes()], name=str(GAME))
    return game_plies("startpos", [token.text for token in game.moves], False)


def test_a_system_re_seated_from_each_ply_supervises_no_more_actors_than_one_game_has() -> None:
    plies = _plies()
    assert len(plies) > 80
    with OrderedSystem() as system:
        for _, fen, _ in plies:
            system.seat(fen)
            names = system.supervisor.names() if system.supervisor is not None else []
            assert len(names) <= 35 + IDLE_PIECES, f"{len(names)} actors supervised at {fen}"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (300_000_000, 300_000_000))


def test_explore_of_a_long_game_runs_within_the_address_space_replay_runs_in() -> None:
    for args in (["replay", str(GAME), "--board", "none"], ["explore", str(GAME), "--orders", "1"]):
        result = subprocess.run([sys.executable, "-m", "actors.cli", *args], cwd=ROOT, capture_output=True,
                                text=True, check=False, timeout=600, preexec_fn=_limited,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert result.returncode == 0, f"{args[0]}: {result.stderr[-500:]}"
