"""ChessMoveQ against python-chess: thousands of random positions, sparse and from play, answered alike.

python-chess is the oracle: the mover to move, no castling rights, no en passant square; a move is
valid iff some legal move of a piece of that colour and kind lands on the target (promotions count).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import chess

from board.puzzles.chessmoveq import (
    answer,
    answer_from_facts,
    build_position,
    gather_facts,
    intent_for,
    parse_move,
    parse_position,
)
from board.rules.judge import decide
from tests.helpers.chessmoveq_cases import Piece
from tests.helpers.chessmoveq_positions import (
    CHESS_TYPES,
    oracle_board,
    played_position,
    random_move,
    sparse_position,
)


def oracle(position: list[Piece], move: Piece) -> bool:
    """python-chess's answer, less one quirk of its own.

    python-chess generates a two-square push for any pawn whose first step lands on rank 2 (3 for
    black: rank 7 and 6), so a white pawn standing on rank 1 may jump to rank 3; ChessMoveQ allows
    the double step only from ranks 2 and 7. Positions with pawns on the first rank are not chess,
    so python-chess never needed to care; those moves are left out here.
    """
    colour, kind, x, y = move
    board = oracle_board(position, colour)
    target = chess.square(x - 1, y - 1)
    for legal in board.generate_legal_moves(to_mask=chess.BB_SQUARES[target]):
        if board.piece_type_at(legal.from_square) != CHESS_TYPES[kind]:
            continue
        from_rank = chess.square_rank(legal.from_square)
        if kind == "P" and abs(legal.to_square - legal.from_square) == 16 and from_rank not in (1, 6):
            continue
        return True
    return False


def disagreements(
    make: Callable[[random.Random], list[Piece]], seed: int, positions: int
) -> tuple[list[str], int]:
    """Cases (three moves a position) where we and python-chess differ, and how many were valid."""
    rng = random.Random(seed)
    found: list[str] = []
    valid_count = 0
    for _ in range(positions):
        position = make(rng)
        for _ in range(3):
            move = random_move(rng, position)
            ours = answer(parse_position(position), parse_move(move))
            valid_count += ours.valid
            expected = oracle(position, move)
            capable = [line for line in ours.reasons if ": can " in line]
            if ours.valid != expected or bool(capable) != ours.valid:
                found.append(
                    f"position {position} move {move}: ours {ours.valid}, python-chess {expected};"
                    f" {ours.reasons}"
                )
    return found, valid_count


def test_sparse_random_positions_agree_with_python_chess() -> None:
    found, valid_count = disagreements(sparse_position, seed=2024, positions=4000)
    assert not found, f"{len(found)} disagreements, e.g.:\n" + "\n".join(found[:5])
    assert valid_count > 1000, "too few valid moves sampled for the comparison to mean much"


def test_positions_from_play_agree_with_python_chess() -> None:
    found, valid_count = disagreements(played_position, seed=1851, positions=2000)
    assert not found, f"{len(found)} disagreements, e.g.:\n" + "\n".join(found[:5])
    assert valid_count > 500, "too few valid moves sampled for the comparison to mean much"


def test_the_answer_agrees_with_the_judges_decision_over_all_candidates() -> None:
    rng = random.Random(7)
    for _ in range(500):
        position = sparse_position(rng)
        move = parse_move(random_move(rng, position))
        intent = intent_for(move)
        board = build_position(parse_position(position), move.colour)
        candidates, king_square, checkers = gather_facts(board, intent)
        result = answer_from_facts(intent, candidates, king_square, checkers)
        decision = decide(intent, candidates, king_square, checkers, kings_taken=True)  # ChessMoveQ's rule
        assert result.origins == decision.origins, f"{position} {move}"
        assert len(result.reasons) == max(1, len(candidates))

