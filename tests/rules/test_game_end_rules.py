"""The game's end by rule: fivefold repetition and the 75-move rule end it, the threefold repetition
and the fifty-move rule are claims; python-chess is the oracle, and both engines must agree.
"""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actors.game.game import ActorGame
from actors.game.replay import replay_with_actors
from actors.protocol import Accepted, Rejected
from board.errors import IllegalMoveError
from board.games.game import Game
from board.games.replay import replay_direct
from board.notation.pgn import read_games

KNIGHT_SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def oracle_outcome(board: chess.Board) -> str | None:
    """The outcome python-chess sees, in this project's precedence (see board.rules.outcome)."""
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_seventyfive_moves():
        return "seventyfive_moves"
    if board.is_fivefold_repetition():
        return "fivefold_repetition"
    if board.is_insufficient_material():
        return "insufficient_material"
    return None


def oracle_claims(board: chess.Board) -> tuple[str, ...]:
    """The claims standing in the position itself (not those announced with a move)."""
    if board.is_checkmate() or board.is_stalemate() or board.is_seventyfive_moves() \
            or board.is_fivefold_repetition():
        return ()
    found = []
    if board.is_repetition(3):
        found.append("threefold_repetition")
    if board.is_fifty_moves():
        found.append("fifty_moves")
    return tuple(found)


def quiet_shuffle(seed: int, back_bias: float = 0.5, limit: int = 400) -> list[str]:
    """A game of random quiet piece moves (no pawn move, no capture) until python-chess says it is
    over: it ends by the seventy-five-move rule or the fivefold repetition, whichever comes first
    (no check is given, so a quiet move is always there)."""
    rng = random.Random(seed)
    board = chess.Board()
    moves: list[str] = []
    while not board.is_game_over() and len(moves) < limit:
        quiet = [move for move in board.legal_moves
                 if board.piece_type_at(move.from_square) != chess.PAWN and not board.is_capture(move)
                 and not board.gives_check(move)]
        if not quiet:
            break
        # going back where a piece came from often makes repetitions, so both ends turn up
        back = chess.Move(board.move_stack[-2].to_square, board.move_stack[-2].from_square) \
            if len(board.move_stack) >= 2 else None
        move = back if back in quiet and rng.random() < back_bias else rng.choice(quiet)
        moves.append(board.san(move))
        board.push(move)
    return moves


def test_the_fifth_occurrence_ends_the_game_and_refuses_the_next_move() -> None:
    game = Game()
    outcomes = [game.play(move).outcome for move in KNIGHT_SHUFFLE * 4]
    assert outcomes == [None] * 15 + ["fivefold_repetition"]
    assert game.ended() == "fivefold_repetition"
    try:
        game.play("e4")
    except IllegalMoveError as error:
        assert error.reason == "the game is over (fivefold repetition at ply 16)"
    else:
        raise AssertionError("a move after the fivefold repetition was accepted")


def test_the_threefold_repetition_is_a_claim_until_the_fifth() -> None:
    game = Game()
    board = chess.Board()
    for move in KNIGHT_SHUFFLE * 4:
        game.play(move)
        board.push_san(move)
        assert game.claimable() == oracle_claims(board), board.fen()
        assert game.outcome() == oracle_outcome(board), board.fen()


def test_the_hundred_and_fiftieth_quiet_half_move_ends_the_game() -> None:
    game = Game("8/8/4k3/8/8/3K4/8/7R w - - 149 80")
    played = game.play("Rh2")
    assert played.outcome == "seventyfive_moves"
    assert chess.Board(game.fen()).is_seventyfive_moves()
    try:
        game.play("Ke7")
    except IllegalMoveError as error:
        assert error.reason == "the game is over (seventyfive moves at ply 1)"
    else:
        raise AssertionError("a move after the seventy-five-move rule was accepted")


def test_a_mate_on_the_seventy_fifth_move_is_still_a_mate() -> None:
    # FIDE 9.6.2: the seventy-five-move rule gives way when the last move mates.
    game = Game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 80")
    assert game.play("Ra8#").outcome == "checkmate"
    board = chess.Board(game.fen())
    assert board.is_checkmate() and board.halfmove_clock == 150


def test_a_fen_past_the_seventy_five_move_rule_has_already_ended() -> None:
    game = Game("8/8/4k3/8/8/3K4/8/7R w - - 150 80")
    assert game.ended() == "seventyfive_moves"
    try:
        game.play("Rh2")
    except IllegalMoveError as error:
        assert error.reason == "the game is over (seventyfive moves in the starting position)"
    else:
        raise AssertionError("a move in a game that had already ended was accepted")


def test_insufficient_material_is_reported_and_the_automatic_ends_still_come() -> None:
    game = Game("8/8/4k3/8/8/3K4/8/8 w - - 149 80")
    assert game.play("Kd4").outcome == "seventyfive_moves"
    bare = Game("8/8/4k3/8/8/3K4/8/8 w - - 0 80")
    assert bare.play("Kd4").outcome == "insufficient_material"
    assert bare.play("Ke7").outcome == "insufficient_material"  # play may go on in a dead position


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.5, 0.9]))
def test_long_quiet_shuffles_end_where_python_chess_says(seed: int, back_bias: float) -> None:
    moves = quiet_shuffle(seed, back_bias)
    game = Game()
    board = chess.Board()
    for move in moves:
        played = game.play(move)
        board.push_san(move)
        assert played.outcome == oracle_outcome(board), (move, board.fen())
        assert game.claimable() == oracle_claims(board), (move, board.fen())
    assert board.is_game_over() and game.ended() == oracle_outcome(board), board.fen()


@pytest.mark.parametrize(("seed", "back_bias"), [(4, 0.0), (5, 0.5), (6, 0.9)])
def test_a_stepped_game_stands_where_a_played_one_does_and_refuses_the_same_move_after_its_end(
    seed: int, back_bias: float
) -> None:
    moves = quiet_shuffle(seed, back_bias)
    played, stepped = Game(), Game()
    for move in moves:
        played.play(move, want_san=False)
        stepped.step(move)
        assert (stepped.fen(), stepped.claimable()) == (played.fen(), played.claimable()), move
    assert stepped.ended() == played.ended() is not None
    assert stepped.outcome() == played.outcome()
    with pytest.raises(IllegalMoveError) as refused_played:
        played.play("e4")
    with pytest.raises(IllegalMoveError) as refused_stepped:
        stepped.step("e4")
    assert refused_stepped.value.reason == refused_played.value.reason
    assert refused_stepped.value.reason.startswith("the game is over (")


def _pgn(moves: list[str], result: str = "*") -> str:
    return f'[White "a"]\n[Black "b"]\n[Result "{result}"]\n\n{" ".join(moves)} {result}\n'


def test_both_engines_end_a_shuffle_alike_and_refuse_the_move_after_it() -> None:
    endings = set()
    for seed, back_bias in ((1, 0.0), (2, 0.5), (3, 0.9)):
        moves = quiet_shuffle(seed, back_bias)
        text = _pgn([*moves, "Nc3" if "Nc3" not in moves[-1:] else "Nf3"])
        game = next(read_games(text.splitlines()))
        direct = replay_direct(game)
        actors = replay_with_actors(game)
        assert direct.as_json() == actors.as_json()
        assert direct.outcome in ("fivefold_repetition", "seventyfive_moves")
        assert direct.error is not None and direct.error.ply == len(moves) + 1
        label = direct.outcome.replace("_", " ")
        assert direct.error.reason == f"the game is over ({label} at ply {len(moves)})"
        endings.add(direct.outcome)
    assert endings == {"fivefold_repetition", "seventyfive_moves"}


def test_the_actor_referee_refuses_after_the_fivefold_repetition() -> None:
    with ActorGame() as game:
        replies = [game.propose(move) for move in KNIGHT_SHUFFLE * 4]
        assert all(isinstance(reply, Accepted) for reply in replies)
        assert game.outcome == "fivefold_repetition"
        after = game.propose("e4")
        assert isinstance(after, Rejected)
        assert (after.kind, after.reason) == ("over", "the game is over (fivefold repetition at ply 16)")


def test_a_draw_result_after_a_threefold_repetition_is_a_legal_game_with_its_claim() -> None:
    game = next(read_games(_pgn(KNIGHT_SHUFFLE * 2, "1/2-1/2").splitlines()))
    for verdict in (replay_direct(game), replay_with_actors(game)):
        record = verdict.as_json()
        assert (record["outcome"], record["claimable"], record["result"], record["error"]) == (
            None, ["threefold_repetition"], "1/2-1/2", None)


@pytest.mark.parametrize("after", ["Nc3", "O-O", "e2e4", "Kd1"])
def test_a_move_after_a_mate_nobody_asked_about_is_refused_as_the_game_being_over(after: str) -> None:
    # Playing the mate without writing its SAN does not ask how the game stands; the refusal of
    # the next move does, inside the same call that first saw no ending recorded.
    game = Game()
    for move in ("f3", "e5", "g4", "Qh4"):
        game.play(move, want_san=False)
    with pytest.raises(IllegalMoveError) as refused:
        game.play(after)
    assert refused.value.reason == "the game is over (checkmate at ply 4)"
    assert game.ended() is not None
