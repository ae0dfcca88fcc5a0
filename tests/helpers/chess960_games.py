"""Random Chess960 games written by python-chess (the oracle) and castling's corner positions, shared
by the tests of both engines (imported as ``chess960_games``: pytest puts tests/ on the path)."""

from __future__ import annotations

import random

import chess
import chess.pgn

# Positions where castling's Chess960 corners decide the count: the king already on its target,
# the rook on the king's target, the rook shielding the target before it moves, the king landing
# on the rook's square, rights that name an inner rook.
CASTLING_CORNERS = [
    "1r2k3/8/8/8/8/8/8/rRK4R w KQ - 0 1",
    "4k3/8/8/8/8/8/8/1RK4r w Q - 0 1",
    "r5kr/8/8/8/8/8/8/R5KR w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1",
    "4k3/8/8/8/8/8/8/R1KR4 w Q - 0 1",
    "1r3kr1/8/8/8/8/8/5q2/1RK3R1 w KQkq - 0 1",
    "rr2k1rr/8/8/8/8/8/8/RR2K1RR w BGbg - 0 1",
    "r2k3r/8/8/8/8/8/8/RRK2R2 w Qkq - 0 1",
]


def random_chess960_game(rng: random.Random) -> tuple[str, list[str], int, str | None]:
    """A random Chess960 game by python-chess, castling whenever it can: its PGN, the FEN after each
    ply, the plies, and the illegal castling appended at the end (or None)."""
    board = chess.Board.from_chess960_pos(rng.randrange(960))
    fens = []
    for _ in range(rng.randrange(10, 120)):
        moves = list(board.legal_moves)
        if not moves:
            break
        castlings = [move for move in moves if board.is_castling(move)]
        board.push(rng.choice(castlings or moves))
        fens.append(board.fen())
        if board.is_game_over(claim_draw=False):
            break
    game = chess.pgn.Game.from_board(board)
    text = str(game)
    illegal = None
    if not board.is_game_over() and rng.random() < 0.4:
        refused = [san for san in ("O-O", "O-O-O") if not board.is_legal(_castling(board, san))]
        if refused:
            illegal = rng.choice(refused)
            result = game.headers["Result"]
            text = text.removesuffix(result).rstrip() + f" {_prefix(board)}{illegal} {result}"
    return text, fens, len(board.move_stack), illegal


def _castling(board: chess.Board, san: str) -> chess.Move:
    """The castling move python-chess would make for ``san`` (Move.null() when it has no such rook)."""
    king = board.king(board.turn)
    rank = 0 if board.turn == chess.WHITE else 7
    files = range(7, -1, -1) if san == "O-O" else range(8)
    for file in files:
        square = chess.square(file, rank)
        rook = board.piece_at(square) == chess.Piece(chess.ROOK, board.turn)
        if rook and board.castling_rights & (1 << square):
            return chess.Move(king, square) if king is not None else chess.Move.null()
    return chess.Move.null()


def _prefix(board: chess.Board) -> str:
    return f"{board.fullmove_number}. " if board.turn == chess.WHITE else f"{board.fullmove_number}... "
