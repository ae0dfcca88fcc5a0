"""The reference judge of the stateful tests: python-chess's verdicts when nothing is taught and the
board tells the truth, and the rules the actors are held to when pieces learn and the board lies."""

from __future__ import annotations

import random

import chess

from board.rules.geometry import NAMED, Geometry, Path
from tests.helpers.reference_judge import Reference, square

STARTS = (
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/PPP4k/8/8/8/8/4Kppp/8 w - - 0 1",
)


def test_with_nothing_taught_it_plays_random_games_as_python_chess_does() -> None:
    rng = random.Random(25)
    for game in range(24):
        board = chess.Board(STARTS[game % len(STARTS)])
        reference = Reference(board.fen())
        for _ in range(60):
            expected = {move.uci() for move in board.legal_moves}
            found = {move.uci for move in reference.legal_moves()}
            assert found == expected, board.fen()
            fen = board.fen().split()
            assert reference.fen_fields() == (fen[0], fen[1], fen[2], fen[3]), board.fen()
            outcome = board.outcome(claim_draw=False)
            if outcome is not None and outcome.termination.name in ("CHECKMATE", "STALEMATE"):
                assert reference.outcome == outcome.termination.name.lower()
                break
            uci = rng.choice(sorted(expected))
            move = reference.read(uci)
            assert move is not None
            san = board.san(chess.Move.from_uci(uci))
            assert reference.read(san) == move, (board.fen(), san)
            board.push_uci(uci)
            reference.play(move)


def test_a_line_the_castling_rook_blocks_only_before_it_moves_still_stops_castling() -> None:
    # The knight on a5 is taught a made-up line to g1 by way of h1: the rook shields g1 until O-O.
    reference = Reference("4k3/8/8/n7/8/8/8/4K2R w K - 0 1")
    assert "e1g1" in {move.uci for move in reference.legal_moves()}
    reference.teach(square("a5"), Geometry("through-h1", _through_h1))
    assert "e1g1" not in {move.uci for move in reference.legal_moves()}
    assert "h1g1" in {move.uci for move in reference.legal_moves()}  # the rook alone may go


def _through_h1(colour: int, start: tuple[int, int], end: tuple[int, int]) -> Path | None:
    if start == (1, 5) and end == (7, 1):
        return Path(end, ((8, 1),))
    return None


def test_a_hidden_king_is_never_taken_and_a_hidden_rook_stops_castling() -> None:
    reference = Reference("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    reference.lie({}, [square("e8")])
    assert "a1a8" in {move.uci for move in reference.legal_moves()}
    reference.teach(square("a1"), NAMED["queen"])
    assert not any(move.target == square("e8") for move in reference.legal_moves())
    reference.lie({}, [square("h1")])
    assert "e1g1" not in {move.uci for move in reference.legal_moves()}
    assert "e1c1" in {move.uci for move in reference.legal_moves()}


def test_a_knight_that_moves_as_a_queen_is_material() -> None:
    reference = Reference("7k/8/8/8/8/8/8/KN6 w - - 0 1")
    assert reference.outcome == "insufficient_material"
    reference.teach(square("b1"), NAMED["queen"])
    reference.assess()
    assert reference.outcome is None


def test_a_pawn_taught_a_knight_is_written_so_that_it_reads_back() -> None:
    reference = Reference(chess.STARTING_FEN)
    reference.teach(square("e2"), NAMED["knight"])
    move = reference.read("Pe2d4")
    assert move is not None and move.uci == "e2d4"
    assert reference.read("d4") is not None and reference.read("d4").uci == "d2d4"  # type: ignore[union-attr]
    assert reference.written(move) == "Pe2d4"  # standard SAN cannot say it
    reference.teach(square("d2"), NAMED["mann"])
    sideways, push = reference.read("d2c3"), reference.read("d2d3")
    assert sideways is not None and reference.written(sideways) == "Pd2c3"
    assert push is not None and reference.written(push) == "d3"


def test_a_king_taking_its_own_rook_by_uci_is_castling_as_the_engine_reads_it() -> None:
    reference = Reference("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    castled = reference.read("e1a1")
    assert castled is not None and castled.castle == "Q" and castled.uci == "e1c1"
    assert reference.read("e1h1") is not None
