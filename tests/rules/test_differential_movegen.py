"""Legal moves, check and FEN output agree with python-chess on every position of many random games.

Games are seeded random play (deterministic) from the initial position and the perft test
positions, weighted towards captures, pawn moves, promotions, castling and en passant.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board.notation.fen import STARTING_FEN, parse_fen, write_fen
from board.rules.movegen import count_legal_moves, is_check, legal_moves
from board.rules.moves import CASTLE, DOUBLE_PUSH, EN_PASSANT, Move
from board.rules.position import Position
from tests.helpers.support import position_state

STARTS = {
    "initial": STARTING_FEN,
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position 3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "position 4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "position 4 mirrored": "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "position 5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "position 6": "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "castling rooks": "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "pawn walls": "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
}
GAMES_PER_START = 60
MAX_PLIES = 300


def _uci_moves(position: Position) -> dict[str, int]:
    return {Move.of(move).uci(): move for move in legal_moves(position)}


def _weight(position: Position, move: int) -> int:
    """Favour the moves whose rules are easiest to get wrong, so random games meet them often."""
    weight = 1
    if move >> 15 in (DOUBLE_PUSH, EN_PASSANT, CASTLE):
        weight += 8
    if move >> 12 & 7:
        weight += 8
    if position.squares[move >> 6 & 63]:
        weight += 3
    if position.squares[move & 63] & 7 == 1:
        weight += 2
    return weight


def _agree(position: Position, reference: chess.Board, where: str) -> dict[str, int]:
    """Assert our view of the position matches python-chess; return our legal moves by UCI."""
    ours = _uci_moves(position)
    theirs = {move.uci() for move in reference.legal_moves}
    fen = reference.fen()
    missing, extra = sorted(theirs - set(ours)), sorted(set(ours) - theirs)
    assert not missing and not extra, f"{where}: {fen}: missing {missing}, not legal but generated {extra}"
    assert write_fen(position) == fen, f"{where}: FEN written as {write_fen(position)}, python-chess {fen}"
    assert is_check(position) == reference.is_check(), f"{where}: {fen}: check disagrees"
    # Perft's leaves are counted, not listed: the count must be the list's length in every position.
    assert count_legal_moves(position) == len(ours), f"{where}: {fen}: counted {count_legal_moves(position)}"
    return ours


def _game_over(reference: chess.Board) -> bool:
    return reference.halfmove_clock >= 100 or reference.is_insufficient_material()


@pytest.mark.parametrize("start", list(STARTS), ids=list(STARTS))
def test_random_games_agree_with_python_chess_at_every_position(start: str) -> None:
    rng = random.Random(f"differential {start}")
    fen = STARTS[start]
    positions = 0
    for game in range(GAMES_PER_START):
        position, reference = parse_fen(fen), chess.Board(fen)
        history = [position_state(position)]
        for ply in range(MAX_PLIES):
            ours = _agree(position, reference, f"{start}, game {game}, ply {ply}")
            positions += 1
            if not ours or _game_over(reference):
                break
            if ply % 16 == 0:  # every move made and taken back leaves the position exactly as it was
                before = history[-1]
                for uci, move in ours.items():
                    position.push(move)
                    position.pop()
                    after = position_state(position)
                    assert after == before, f"{start}: making and unmaking {uci} at ply {ply}"
            candidates = list(ours.values())
            move = rng.choices(candidates, [_weight(position, move) for move in candidates])[0]
            position.push(move)
            reference.push(chess.Move.from_uci(Move.of(move).uci()))
            history.append(position_state(position))
        # Unmake the whole game: each earlier position must come back exactly, in reverse order.
        for ply in range(len(history) - 1, 0, -1):
            assert position_state(position) == history[ply]
            position.pop()
        assert position_state(position) == history[0], f"{start}, game {game}: unmaking the game"
        assert write_fen(position) == chess.Board(fen).fen()
    assert positions >= 20 * GAMES_PER_START, f"only {positions} positions checked from {start}"


@pytest.mark.parametrize("start", list(STARTS), ids=list(STARTS))
def test_fen_read_back_gives_the_same_moves_on_random_game_positions(start: str) -> None:
    rng = random.Random(f"fen {start}")
    for _ in range(GAMES_PER_START // 6):
        reference = chess.Board(STARTS[start])
        while not reference.is_game_over(claim_draw=False) and reference.ply() < MAX_PLIES:
            # python-chess writes the en passant square whenever a pawn just moved two ("fen" mode);
            # reading that back must give the same legal moves and the canonical FEN.
            written = reference.fen(en_passant="fen")
            position = parse_fen(written)
            assert write_fen(position) == reference.fen(), f"read back from {written}"
            assert sorted(_uci_moves(position)) == sorted(move.uci() for move in reference.legal_moves)
            reference.push(rng.choice(list(reference.legal_moves)))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(STARTS.values())), st.lists(st.integers(0, 2**16), max_size=80))
def test_any_sequence_of_legal_moves_agrees_with_python_chess_and_unmakes(
    fen: str, choices: list[int]
) -> None:
    position, reference = parse_fen(fen), chess.Board(fen)
    start = position_state(position)
    for ply, choice in enumerate(choices):
        ours = _agree(position, reference, f"ply {ply}")
        if not ours:
            break
        uci = sorted(ours)[choice % len(ours)]
        position.push(ours[uci])
        reference.push_uci(uci)
    _agree(position, reference, "the final position")
    while position.ply_count:
        position.pop()
    assert position_state(position) == start
