"""Parity: the actor engine and the direct engine give the same verdict on every move.

Random legal games (seeded), with illegal proposals mixed in: random SAN, random square pairs, moves
of pinned pieces, king steps into check; both engines must accept with the same SAN or refuse alike.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from actors.game.game import ActorGame
from actors.game.parity import actor_verdict, direct_verdict
from board.errors import ChessActorsError
from board.games.game import Game
from board.notation.algebraic import san, uci
from board.rules.movegen import legal_moves, pinned_pieces
from board.rules.squares import SQUARE_NAMES

TRICKY_FENS = (
    "startpos",
    # en passant that would expose the king along the fifth rank
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
    # castling both ways available, attacked squares about
    "r3k2r/pppq1ppp/2n2n2/2b1p1B1/2B1P1b1/2N2N2/PPPQ1PPP/R3K2R w KQkq - 4 8",
    # promotion with captures and checks
    "r3k3/1P6/8/8/8/8/6p1/4K2R w Kq - 0 1",
    # many knights and rooks for disambiguation
    "4k3/8/1N5N/8/R6R/8/1N3N2/4K3 w - - 0 1",
    # stalemate is near
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
)






def illegal_proposals(game: Game, rng: random.Random) -> Iterator[str]:
    """A few moves that are probably not legal here: random texts, pinned pieces, stray squares."""
    position = game.position
    yield rng.choice("NBRQK") + SQUARE_NAMES[rng.randrange(64)]
    yield SQUARE_NAMES[rng.randrange(64)] + SQUARE_NAMES[rng.randrange(64)]
    for square in pinned_pieces(position, position.turn):
        for target in rng.sample(range(64), 3):
            yield SQUARE_NAMES[square] + SQUARE_NAMES[target]
    king = position.kings[position.turn]
    for step in (-9, -8, -7, -1, 1, 7, 8, 9):
        if 0 <= king + step < 64 and abs((king + step) % 8 - king % 8) <= 1 and rng.random() < 0.3:
            yield SQUARE_NAMES[king] + SQUARE_NAMES[king + step]
    if rng.random() < 0.2:
        yield rng.choice(("O-O", "O-O-O", "exd6", "Nxe5", "e8=Q", "Kxe2", "Zz9", "bxa8=N", "Qh4#"))


def play_random_game(seed: int, fen: str, max_plies: int, illegal_every: float) -> int:
    """Play one random game on both engines, comparing every verdict; return the plies played."""
    rng = random.Random(seed)
    direct = Game(fen)
    with ActorGame(fen) as actors:
        for ply in range(max_plies):
            moves = legal_moves(direct.position)
            if rng.random() < illegal_every or not moves:
                for text in illegal_proposals(direct, rng):
                    expected = direct_verdict(direct, text)
                    got = actor_verdict(actors, text)
                    assert got == expected, f"seed {seed} ply {ply} {text!r} from {direct.fen()}"
                    if expected[0] == "accepted":
                        break
            if not legal_moves(direct.position) or direct.ended():
                break
            move = rng.choice(legal_moves(direct.position))
            text = uci(move) if rng.random() < 0.2 else san(direct.position, move)
            expected = direct_verdict(direct, text)
            got = actor_verdict(actors, text)
            assert got == expected, f"seed {seed} ply {ply} {text!r} from {direct.fen()}"
            if direct.ended():
                # After the end, every move is refused alike.
                assert actor_verdict(actors, "e4") == direct_verdict(direct, "e4")
                break
        assert actors.fen() == direct.fen(), f"seed {seed}: final positions differ"
        return direct.plies


@pytest.mark.parametrize("fen", TRICKY_FENS)
def test_engines_agree_from_tricky_positions(fen: str) -> None:
    for seed in range(4):
        play_random_game(seed, fen, 60, 0.5)


def test_engines_agree_on_random_games_with_illegal_moves() -> None:
    total = 0
    for seed in range(40):
        total += play_random_game(1000 + seed, "startpos", 400, 0.15)
    assert total > 2000


def test_a_game_over_position_refuses_every_move_alike() -> None:
    mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    direct = Game(mated)
    with ActorGame(mated) as actors:
        for text in ("e4", "Kf2", "a2a3", "Zz"):
            assert actor_verdict(actors, text) == direct_verdict(direct, text)
        assert actors.outcome == "checkmate"


def test_direct_errors_are_the_project_errors() -> None:
    # A guard for the mapping above: every refusal is a ChessActorsError.
    with pytest.raises(ChessActorsError):
        Game().play("Ke2")
