"""Random ChessMoveQ positions and moves, made with python-chess (the oracle): sparse ones, ones from
play, and moves that are often valid; shared by the oracle tests of the puzzle and of its actors."""

from __future__ import annotations

import random

import chess

from tests.helpers.chessmoveq_cases import Piece

CHESS_TYPES = {
    "P": chess.PAWN, "N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK, "Q": chess.QUEEN, "K": chess.KING,
}
LETTERS = {piece_type: letter for letter, piece_type in CHESS_TYPES.items()}


def oracle_board(position: list[Piece], colour: str) -> chess.Board:
    """``position`` as a python-chess board, ``colour`` to move, with no castling rights and no en passant."""
    board = chess.Board(None)
    for piece_colour, kind, x, y in position:
        board.set_piece_at(chess.square(x - 1, y - 1), chess.Piece(CHESS_TYPES[kind], piece_colour == "W"))
    board.turn = colour == "W"
    board.castling_rights = chess.BB_EMPTY
    board.ep_square = None
    return board


def coordinates(at: chess.Square) -> tuple[int, int]:
    """The 1-based (file, rank) of a python-chess square."""
    return chess.square_file(at) + 1, chess.square_rank(at) + 1


def random_move(rng: random.Random, position: list[Piece]) -> Piece:
    """Half the time the destination of some piece's pseudo-legal move (to find valid moves), else any."""
    colour = rng.choice("WB")
    if rng.random() < 0.5:
        board = oracle_board(position, colour)
        options = list(board.generate_pseudo_legal_moves())
        if options:
            choice = rng.choice(options)
            kind = LETTERS[board.piece_type_at(choice.from_square) or chess.PAWN]
            return [colour, kind, *coordinates(choice.to_square)]
    return [colour, rng.choice("PNBRQK"), rng.randint(1, 8), rng.randint(1, 8)]


def sparse_position(rng: random.Random) -> list[Piece]:
    """0..32 pieces scattered anywhere, pawns on any rank, at most one king per colour (maybe none)."""
    found: list[Piece] = []
    kings: set[str] = set()
    for where in rng.sample(range(64), rng.randint(0, 32)):
        colour, kind = rng.choice("WB"), rng.choice("PPPNNBBRRQK")
        if kind == "K":
            if colour in kings:
                kind = "Q"
            kings.add(colour)
        found.append([colour, kind, where % 8 + 1, where // 8 + 1])
    return found


def played_position(rng: random.Random) -> list[Piece]:
    """The position after a seeded random game of 0..120 plies."""
    board = chess.Board()
    for _ in range(rng.randint(0, 120)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return [
        ["W" if piece.color else "B", LETTERS[piece.piece_type], *coordinates(at)]
        for at, piece in board.piece_map().items()
    ]
