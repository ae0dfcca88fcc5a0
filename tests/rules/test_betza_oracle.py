"""Pieces taught in Betza notation, judged against Fairy-Stockfish.

Each variant (tests/helpers/fairy_stockfish.py) is standard chess with one kind of piece replaced by a Betza
piece: leapers, riders, lame leapers, move/capture splits and pieces whose moves depend on their colour.
Seeded random games are played with pyffish; at every position the direct engine's legal (from, to)
moves must be pyffish's, and a sample of those positions is judged through the actors as well. Perft to
depth 3 from the start must equal the count built from pyffish's legal moves.
"""

from __future__ import annotations

import pytest

from tests.helpers.extras import missing_extra_reason

pytest.importorskip("pyffish", reason=missing_extra_reason("pyffish"))
from actors.game.game import ActorGame
from board.notation.fen import STARTING_FEN, parse_fen
from board.rules.squares import SQUARE_NAMES
from board.rules.taught import TaughtBoard, perft, read_lessons
from tests.helpers.fairy_stockfish import VARIANTS, Ply, Variant, load, oracle_perft, random_game

POSITIONS = 300
"""Positions compared per variant, at least."""


@pytest.fixture(scope="module", autouse=True)
def _variants() -> None:
    load()


def _positions(variant: Variant) -> list[Ply]:
    """At least :data:`POSITIONS` positions of seeded random games of ``variant``."""
    found: list[Ply] = []
    seed = 0
    while len(found) < POSITIONS:
        found.extend(random_game(variant, seed, 80))
        seed += 1
    return found


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: f"{variant.name}={variant.betza}")
def test_the_direct_engine_moves_as_fairy_stockfish_in_random_games(variant: Variant) -> None:
    positions = _positions(variant)
    mismatches = [
        f"{ply.fen} taught {ply.lessons}: ours only {sorted(ply.ours - ply.oracle)}, "
        f"Fairy-Stockfish only {sorted(ply.oracle - ply.ours)}"
        for ply in positions
        if ply.ours != ply.oracle
    ]
    assert len(positions) >= POSITIONS
    assert not mismatches, f"{len(mismatches)} of {len(positions)} positions differ; first: {mismatches[0]}"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: f"{variant.name}={variant.betza}")
def test_perft_3_from_the_start_equals_the_count_from_fairy_stockfish(variant: Variant) -> None:
    position = parse_fen(STARTING_FEN)
    board = TaughtBoard(position, read_lessons(position, variant.lessons()))
    assert perft(board, 3) == oracle_perft(variant, 3)


def _actor_pairs(game: ActorGame, fen: str) -> set[tuple[str, str]]:
    """Every (from, to) the actor engine allows, asked piece by piece."""
    white = fen.split()[1] == "w"
    found: set[tuple[str, str]] = set()
    for row, text in enumerate(fen.split()[0].split("/")):
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
                continue
            if char.isupper() == white:
                square = SQUARE_NAMES[(7 - row) * 8 + file]
                found |= {(square, target) for target in game.legal_targets(square)}
            file += 1
    return found


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: f"{variant.name}={variant.betza}")
def test_a_sample_judged_by_the_actors_moves_as_fairy_stockfish(variant: Variant) -> None:
    # Three positions of one game (its opening, middle and a later ply), each started afresh with the
    # lessons standing then: the pieces that still hold one, wherever they went.
    plies = list(random_game(variant, 1000 + len(variant.name), 60))
    for ply in (plies[4], plies[len(plies) // 2], plies[-1]):
        with ActorGame(ply.fen, teach=ply.lessons) as game:
            found = _actor_pairs(game, ply.fen)
        assert found == ply.oracle, (
            f"{ply.fen} taught {ply.lessons}: actors only {sorted(found - ply.oracle)}, "
            f"Fairy-Stockfish only {sorted(ply.oracle - found)}"
        )
