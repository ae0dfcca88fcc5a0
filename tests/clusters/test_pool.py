"""Pooled actor systems: games played back to back on one system are judged exactly as on fresh ones.

Each test plays a first game that leaves state behind in the actors (a promoted pawn, a moved king,
an en passant square, a repeated position, a crashed actor, a taught piece, a lying board), then a
second game on the same system whose verdicts that state would change. The direct engine is the
reference for every verdict and position.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actors.game.game import ActorGame
from actors.game.parity import actor_verdict, direct_verdict
from actors.game.pool import SystemPool
from actors.kernel.errors import RestartIntensityExceeded
from actors.protocol import Accepted
from actors.tracing.recorder import STARTUP, TraceRecorder
from board.games.game import Game
from board.notation.algebraic import san
from board.notation.fen import STARTING_FEN
from board.rules.geometry import reach, standard
from board.rules.movegen import legal_moves
from board.rules.pieces import KNIGHT, WHITE
from board.rules.squares import parse_standard_square

G1 = parse_standard_square("g1")


def play_both(pool: SystemPool, fen: str, moves: list[str]) -> ActorGame:
    """Play ``moves`` on a pooled game and on the direct engine; every verdict and the FEN agree.
    Returns the (closed) game."""
    direct = Game(fen)
    with ActorGame(fen, pool=pool) as game:
        for text in moves:
            assert actor_verdict(game, text) == direct_verdict(direct, text), f"{fen}: {text}"
        assert game.fen() == direct.fen()
    return game


def test_a_second_game_reuses_the_system_and_starts_no_thread() -> None:
    with SystemPool() as pool:
        first = play_both(pool, STARTING_FEN, ["e4", "e5"])
        second = play_both(pool, STARTING_FEN, ["d4", "d5"])
        assert first.supervisor is second.supervisor
        assert (pool.started, pool.reused, pool.idle) == (1, 1, 1)


def test_a_promoted_pawn_is_a_pawn_again_in_the_next_game() -> None:
    fen = "7k/1P6/8/8/8/8/8/K7 w - - 0 1"
    with SystemPool() as pool:
        play_both(pool, fen, ["b8=Q", "Kh7", "Qb1"])
        # The same pawn actor (white-pawn-b7) stands on b7 again: a queen there could not promote.
        play_both(pool, fen, ["b8=N", "Kg7", "Nd7", "Kf7", "Nb8"])
        play_both(pool, fen, ["b7b8", "b8=R", "Kg8"])


def test_castling_rights_and_moved_pieces_start_afresh() -> None:
    open_lines = "r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1"
    with SystemPool() as pool:
        play_both(pool, open_lines, ["Ke2", "Ke7", "Ke1", "Ke8", "O-O", "O-O-O"])
        play_both(pool, open_lines, ["O-O-O", "O-O", "Rh1"])
        play_both(pool, open_lines.replace("KQkq", "Qk"), ["O-O", "O-O-O", "Kd1", "O-O-O", "O-O"])


def test_an_en_passant_square_does_not_outlive_its_game() -> None:
    with SystemPool() as pool:
        play_both(pool, STARTING_FEN, ["e4", "a6", "e5", "d5"])  # exd6 would be legal now
        play_both(pool, "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", ["exd6", "e6", "Nf3"])


def test_repetitions_of_one_game_are_not_counted_in_the_next() -> None:
    dance = ["Nf3", "Nf6", "Ng1", "Ng8"]
    with SystemPool() as pool:
        game = play_both(pool, STARTING_FEN, dance * 2)
        assert game.claimable == ("threefold_repetition",)
        game = play_both(pool, STARTING_FEN, dance)  # the start position's second time in this game
        assert game.claimable == ()


def test_a_crashed_and_restarted_actor_leaves_the_next_game_alone() -> None:
    with SystemPool() as pool:
        with ActorGame(pool=pool) as game:
            game.propose("e4")
            game.crash("board")
            game.crash("white-knight-g1")
            game.crash_on_next("referee", "ProposeText")
            assert game.propose("e5").san == "e5"  # type: ignore[union-attr]
            game.crash_on_next("black-queen-d8", "MoveQuery")  # armed, never sprung in this game
            assert game.supervisor.restarts >= 3
        assert pool.idle == 1
        game = play_both(pool, STARTING_FEN, ["Nf3", "d5", "Nc3", "Qd6", "Nb5", "Qxh2"])
        assert game.supervisor.restarts == 0


def test_a_taught_piece_moves_as_its_kind_again_in_the_next_game() -> None:
    with SystemPool() as pool:
        with ActorGame(pool=pool, teach={"g1": "queen"}) as game:
            for move in ("g3", "e5", "Ng2"):  # the g1 knight, moving as a queen, steps up the file
                assert isinstance(game.propose(move), Accepted), move
        with ActorGame(pool=pool) as game:
            assert game.piece("g1").targets().reach == reach(standard(KNIGHT), WHITE, G1)
        play_both(pool, STARTING_FEN, ["g3", "e5", "Ng2", "Nf3"])


def test_a_board_told_to_lie_tells_the_truth_in_the_next_game() -> None:
    with SystemPool() as pool:
        with ActorGame(pool=pool) as game:
            game.board_lies({"e3": "p"}, hidden=["d7"])
            assert game.propose("e4").kind == "illegal"  # type: ignore[union-attr]
        play_both(pool, STARTING_FEN, ["e4", "d5", "exd5", "Qxd5"])


def test_pieces_a_position_lacks_stand_idle_and_pieces_it_adds_are_started() -> None:
    three_queens = "3qk3/8/8/8/8/8/8/QQQ1K3 w - - 0 1"
    with SystemPool() as pool:
        play_both(pool, three_queens, ["Qa8", "Qxa8"])
        assert pool.started == 1
        with ActorGame(pool=pool) as game:  # the start position again: 32 pieces, most idle before
            names = {entry.name for entry in game.supervisor.roster().entries}
            assert "white-queen-a1" not in names and "white-queen-d1" in names
            assert len(names) == 32
            assert "white-queen-a1" in game.supervisor.names()  # idle, off the board
            assert game.propose("Qd1h5").kind == "illegal"  # type: ignore[union-attr]
        play_both(pool, three_queens, ["Qb8", "Qxb8", "Qxb8+"])
        assert pool.started == 1


def test_a_game_that_failed_does_not_return_its_system() -> None:
    with SystemPool() as pool:
        with ActorGame(pool=pool, max_restarts=0) as game:
            game.crash("board")
            with pytest.raises(RestartIntensityExceeded):
                game.propose("e4")
        assert (pool.idle, pool.discarded) == (0, 1)
        play_both(pool, STARTING_FEN, ["e4"])
        assert pool.started == 2


def test_a_block_left_by_an_error_does_not_return_its_system() -> None:
    with SystemPool() as pool:
        with pytest.raises(KeyError), ActorGame(pool=pool) as game:
            game.propose("e4")
            raise KeyError("the caller's own error")
        assert (pool.idle, pool.discarded) == (0, 1)


def test_a_pooled_game_takes_the_pools_recorder_and_marks_its_start_up() -> None:
    recorder = TraceRecorder()
    with SystemPool(recorder=recorder) as pool:
        with pytest.raises(ValueError, match="pool's recorder"):
            ActorGame(recorder=TraceRecorder(), pool=pool)
        with pytest.raises(ValueError, match="pool's timeout"):
            ActorGame(timeout=0.25, pool=pool)
        for _ in range(2):
            with ActorGame(pool=pool) as game:
                game.propose("e4")
        events = recorder.events()
    startup = [event for event in events if event["phase"] == STARTUP]
    played = [event for event in events if str(event["phase"]).startswith("ply ")]
    assert {event["kind"] for event in played} >= {"ProposeText", "Survey", "Apply"}
    second = [event for event in startup if event["kind"] == "Seat"]
    assert len(second) == 32, "the second game seats the 32 pooled pieces"
    assert not any(event["kind"] == "TargetsQuery" for event in startup[len(startup) // 2 :])
    assert recorder.phase_ns[STARTUP] > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds=st.lists(st.integers(0, 2**32), min_size=2, max_size=4))
def test_random_games_back_to_back_on_one_system_match_the_direct_engine(seeds: list[int]) -> None:
    """Each game starts where a random prefix of play left off (any FEN), then plays on at random,
    with now and then an illegal try: whatever the previous games left, the verdicts agree."""
    with SystemPool() as pool:
        for seed in seeds:
            rng = random.Random(seed)
            board = Game()
            for _ in range(rng.randrange(0, 60)):
                moves = legal_moves(board.position)
                if not moves or board.ended():
                    break
                board.play(san(board.position, rng.choice(moves)), want_san=False)
            fen = board.fen()
            texts: list[str] = []
            for _ in range(rng.randrange(1, 40)):
                moves = legal_moves(board.position)
                if not moves or board.ended():
                    break
                texts.append(san(board.position, rng.choice(moves)))
                board.play(texts[-1], want_san=False)
                if rng.random() < 0.1:
                    texts.append(rng.choice(["Ke5", "O-O", "exd6", "Qxh8", "a8=Q"]))
            play_both(pool, fen, texts)
        assert pool.started == 1
