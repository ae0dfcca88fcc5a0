"""Replaying whole games with the direct engine: real games, random games, and illegal moves."""

from __future__ import annotations

import io
import random
from pathlib import Path

import chess
import chess.pgn
import pytest

from board.errors import AmbiguousMoveError, IllegalMoveError
from board.games.game import Game
from board.games.replay import GameVerdict, replay_direct
from board.notation.pgn import read_games

DATA = Path(__file__).resolve().parents[1] / "data"


def _replay(text: str) -> list[GameVerdict]:
    return [replay_direct(game) for game in read_games(io.StringIO(text))]


def _oracle_final(pgn_text: str) -> tuple[int, str]:
    game = chess.pgn.read_game(io.StringIO(pgn_text))
    assert game is not None
    board = game.board()
    for move in game.mainline_moves():
        board.push(move)
    return board.ply() - game.board().ply(), board.fen()


@pytest.mark.parametrize("path", sorted(p.name for p in DATA.glob("*.pgn") if p.name != "famous.pgn"))
def test_famous_games_replay_to_the_published_final_position(path: str) -> None:
    text = (DATA / path).read_text(encoding="utf-8")
    [verdict] = _replay(text)
    plies, fen = _oracle_final(text)
    assert verdict.error is None, verdict.error
    assert (verdict.plies, verdict.fen) == (plies, fen)
    if text.rstrip().endswith("#") or "#" in text.split("\n\n", 1)[1]:
        assert verdict.outcome == "checkmate"


def _random_game(rng: random.Random) -> chess.pgn.Game:
    board = chess.Board()
    while not board.is_game_over() and board.ply() < 400:
        moves = list(board.legal_moves)
        # Prefer promotions and captures now and then so that rare rules get exercised.
        special = [m for m in moves if m.promotion or board.is_en_passant(m) or board.is_castling(m)]
        board.push(rng.choice(special) if special and rng.random() < 0.5 else rng.choice(moves))
    game = chess.pgn.Game.from_board(board)
    game.headers["Result"] = board.result()
    return game


def test_random_games_written_by_the_oracle_replay_to_the_same_positions() -> None:
    rng = random.Random(2024)
    games = [_random_game(rng) for _ in range(150)]
    text = "\n\n".join(str(game) for game in games)
    verdicts = _replay(text)
    assert len(verdicts) == len(games)
    outcomes = set()
    for game, verdict in zip(games, verdicts, strict=True):
        board = game.end().board()
        assert verdict.error is None, (verdict.game, verdict.error)
        assert verdict.plies == board.ply()
        assert verdict.fen == board.fen()
        outcomes.add(verdict.outcome)
    assert {"checkmate", "stalemate", "insufficient_material"} <= outcomes


def _reason(fen: str, move: str) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        Game(fen).play(move)
    return caught.value.reason


def test_a_knight_that_cannot_reach_the_square_is_named() -> None:
    assert _reason("startpos", "Nf7") == "no knight can reach f7"


def test_pinned_bishop_cannot_leave_the_pin_line() -> None:
    fen = "4k3/8/8/b7/8/2B5/8/4K3 w - - 0 1"
    assert _reason(fen, "Bd4") == "the bishop on c3 is pinned to the king on e1 by the bishop on a5"


def test_king_cannot_step_into_check() -> None:
    assert _reason("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "Kd2") == (
        "the king would be in check on d2 from the rook on a2"
    )


def test_a_move_that_ignores_check_is_refused() -> None:
    fen = "4k3/8/8/8/7q/8/3P4/4K3 w - - 0 1"
    assert _reason(fen, "d3") == (
        "the king on e1 is in check from the queen on h4, and this move does not answer it"
    )


def test_castling_through_an_attacked_square_names_square_and_attacker() -> None:
    fen = "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1"
    assert _reason(fen, "O-O") == "the king passes through f1, attacked by the bishop on c4"


def test_castling_into_check_is_refused() -> None:
    fen = "4k1r1/8/8/8/8/8/8/4K2R w K - 0 1"
    assert _reason(fen, "O-O") == "the king lands on g1, attacked by the rook on g8"


def test_castling_out_of_check_is_refused() -> None:
    fen = "4r1k1/8/8/8/8/8/8/4K2R w K - 0 1"
    assert _reason(fen, "O-O") == "the king cannot castle out of check (the rook on e8 gives check)"


def test_castling_without_the_right_is_refused() -> None:
    assert _reason("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O") == (
        "no right to castle kingside (the king or that rook has moved)"
    )


def test_castling_over_a_piece_is_refused() -> None:
    assert _reason("startpos", "O-O") == "castling kingside needs f1 empty, but the bishop on f1 is there"


def test_en_passant_that_exposes_the_king_along_the_rank_is_refused() -> None:
    fen = "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2"
    assert _reason(fen, "bxc6") == "en passant would expose the king on a5 to the rook on h5"


def test_ambiguous_san_names_both_pieces() -> None:
    with pytest.raises(AmbiguousMoveError) as caught:
        Game("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1").play("Ra3")
    assert caught.value.reason == "ambiguous: the rooks on a1 and a5 can all go to a3"


def test_moves_after_checkmate_are_refused_because_the_game_is_over() -> None:
    game = Game()
    for move in ("f3", "e5", "g4", "Qh4#"):
        game.play(move)
    assert _reason(game.fen(), "a3") == "the game is over (checkmate in the starting position)"


def test_a_game_stops_at_its_first_illegal_move_and_the_next_game_runs() -> None:
    text = (
        '[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. Ng5 Qh4 6. Nf7 *\n\n'
        '[White "C"]\n\n1. d4 d5 *\n'
    )
    first, second = _replay(text)
    assert first.error is not None
    assert (first.plies, first.error.ply, first.error.move) == (9, 10, "Qh4")
    assert first.error.reason == "the queen on d8 is blocked by the knight on f6"
    line = text.splitlines()[3]
    assert (first.error.line, first.error.column) == (4, line.index("Qh4") + 1)
    assert second.error is None and second.plies == 2
