"""Chess960 in the actor engine: the king and rook actors castle from the game's layout, and every
verdict, position and castling right is the direct engine's (and python-chess's, the oracle).
"""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest

from actors.game.game import ActorGame
from actors.game.parity import actor_verdict, direct_verdict
from actors.game.pool import SystemPool
from actors.game.replay import watch_game
from actors.protocol import Accepted, Rejected
from actors.protocol.piece import CastleQuery, No, Yes
from board.games.game import Game
from board.games.replay import replay_direct
from board.notation.algebraic import san
from board.notation.pgn import read_games
from board.rules.chess960 import start_fen
from board.rules.movegen import legal_moves
from board.rules.pieces import KING, ROOK
from board.rules.squares import SQUARE_NAMES
from tests.helpers.chess960_games import CASTLING_CORNERS, random_chess960_game

# Castling's Chess960 corners (the positions whose counts they decide, and one with black to move).
TRICKY = [*CASTLING_CORNERS, "r5kr/8/8/8/8/8/8/R5KR b KQkq - 0 1"]


def direct_targets(game: Game) -> dict[str, set[str]]:
    """Every legal move of the side to move as origin -> targets, castling written as UCI does."""
    targets: dict[str, set[str]] = {}
    for move in legal_moves(game.position):
        text = game.uci(move)
        targets.setdefault(text[:2], set()).add(text[2:4])
    return targets


def actor_targets(game: ActorGame, direct: Game) -> dict[str, set[str]]:
    """The actors' legal targets of every piece of the side to move that has any."""
    position = direct.position
    targets: dict[str, set[str]] = {}
    for square, code in enumerate(position.squares):
        if code and code >> 3 == position.turn:
            found = game.legal_targets(SQUARE_NAMES[square])
            if found:
                targets[SQUARE_NAMES[square]] = set(found)
    return targets


def cleared_back_ranks(number: int) -> str:
    """Start position ``number`` with every piece but the kings and rooks lifted off both back
    ranks: castling is open both ways (unless an attack or the layout itself forbids it)."""
    fields = start_fen(number).split()
    ranks = fields[0].split("/")
    for index in (0, 7):
        ranks[index] = "".join(piece if piece in "KRkr" else "1" for piece in ranks[index])
        ranks[index] = _squeeze(ranks[index])
    return " ".join(["/".join(ranks), *fields[1:]])


def _squeeze(rank: str) -> str:
    """'1R1K11R1' -> '1R1K2R1': runs of empty squares written as one count."""
    out, empty = [], 0
    for char in rank:
        if char == "1":
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(char)
    if empty:
        out.append(str(empty))
    return "".join(out)


# -- the castling partners answer from their own squares and the game's layout -------------------


def test_the_king_and_rook_actors_castle_from_the_squares_of_the_game_s_layout() -> None:
    with ActorGame("4k3/8/8/8/8/8/8/1RK4R w KQ - 0 1", chess960=True) as game:
        king = game.ask("white-king-c1", CastleQuery("Q"))
        rook = game.ask("white-rook-b1", CastleQuery("Q"))
        assert king == Yes(2, 2, (2,), "empty", KING), "queenside the king stays on c1"
        assert rook == Yes(1, 3, (2, 3), "empty", ROOK), "the rook crosses the king's square to d1"
        assert game.ask("white-rook-h1", CastleQuery("K")) == Yes(7, 5, (6, 5), "empty", ROOK)
        assert isinstance(game.ask("white-rook-h1", CastleQuery("Q")), No)


def test_a_pooled_system_seats_each_game_s_layout_with_its_pieces() -> None:
    chess960 = "4k3/8/8/8/8/8/8/1RK4R w KQ - 0 1"
    standard = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    with SystemPool() as pool:
        for fen, is_960, king, side, expected in (
            (chess960, True, "white-king-c1", "Q", Yes(2, 2, (2,), "empty", KING)),
            (standard, False, "white-king-e1", "Q", Yes(4, 2, (3, 2), "empty", KING)),
            (chess960, True, "white-king-c1", "K", Yes(2, 6, (3, 4, 5, 6), "empty", KING)),
        ):
            with ActorGame(fen, pool=pool, chess960=is_960) as game:
                assert game.ask(king, CastleQuery(side)) == expected, fen
        assert pool.reused == 2


# -- verdicts: the direct engine's, move by move ---------------------------------------------------


@pytest.mark.parametrize("fen", TRICKY)
def test_legal_targets_and_castling_verdicts_equal_the_direct_engine_s(fen: str) -> None:
    direct = Game(fen, chess960=True)
    with ActorGame(fen, chess960=True) as actors:
        assert actors.fen() == direct.fen() == chess.Board(fen, chess960=True).fen()
        assert actor_targets(actors, direct) == direct_targets(direct)
        king = SQUARE_NAMES[direct.position.kings[direct.position.turn]]
        for castling in direct.position.castling_table.rows:
            rook = SQUARE_NAMES[castling.rook_from]
            for text in (castling.san, king + rook):
                assert actor_verdict(actors, text) == direct_verdict(direct, text), f"{fen}: {text}"
                assert actors.fen() == direct.fen(), f"{fen}: {text}"


def test_legal_targets_equal_the_direct_engine_s_on_start_positions_with_open_back_ranks() -> None:
    numbers = random.Random(960).sample(range(960), 120)
    with SystemPool() as pool:
        for number in numbers:
            fen = cleared_back_ranks(number)
            direct = Game(fen, chess960=True)
            with ActorGame(fen, pool=pool, chess960=True) as actors:
                expected = direct_targets(direct)
                king = SQUARE_NAMES[direct.position.kings[0]]
                assert actor_targets(actors, direct) == expected, f"position {number}: {fen}"
                # Then black's, after white castles (a king onto its own rook is castling).
                rooks = {SQUARE_NAMES[row.rook_from] for row in direct.position.castling_table.rows}
                castles = sorted(expected.get(king, set()) & rooks)
                if castles:
                    text = king + castles[number % len(castles)]
                    assert actor_verdict(actors, text) == direct_verdict(direct, text)
                    assert actors.fen() == direct.fen()
                    assert actor_targets(actors, direct) == direct_targets(direct), f"position {number}"


def test_random_chess960_games_with_illegal_proposals_get_the_direct_engine_s_verdicts() -> None:
    for seed in range(12):
        rng = random.Random(seed)
        fen = start_fen(rng.randrange(960))
        direct = Game(fen, chess960=True)
        with ActorGame(fen, chess960=True) as actors:
            for ply in range(80):
                moves = legal_moves(direct.position)
                if not moves or direct.ended():
                    break
                king = SQUARE_NAMES[direct.position.kings[direct.position.turn]]
                tries = ["O-O", "O-O-O", *(king + SQUARE_NAMES[row.rook_from]
                                           for row in direct.position.castling_table.rows)]
                for text in rng.sample(tries, 2):
                    expected = direct_verdict(direct, text)
                    assert actor_verdict(actors, text) == expected, f"seed {seed} ply {ply} {text}"
                    if expected[0] == "accepted":
                        break
                else:
                    move = rng.choice(moves)
                    text = direct.uci(move) if rng.random() < 0.3 else san(direct.position, move)
                    assert actor_verdict(actors, text) == direct_verdict(direct, text), f"seed {seed} {text}"
            assert actors.fen() == direct.fen(), f"seed {seed}"


def test_300_random_chess960_games_replay_through_the_actors_as_python_chess_played_them() -> None:
    rng = random.Random(2026)
    with_illegal = 0
    with SystemPool() as pool:
        for index in range(300):
            text, fens, plies, illegal = random_chess960_game(rng)
            (game,) = read_games(io.StringIO(text))
            expected = replay_direct(game)
            verdict = watch_game(game, "actors", pool=pool)
            assert (verdict.plies, verdict.fen, verdict.outcome) == (plies, expected.fen, expected.outcome), (
                f"game {index}: {verdict.error}\n{text}"
            )
            assert verdict.fen == (fens[-1] if fens else game.tags["FEN"]), f"game {index}"
            assert verdict.error == expected.error, f"game {index}"
            if illegal is not None:
                with_illegal += 1
                assert verdict.error is not None and verdict.error.ply == plies + 1
                assert verdict.error.move == illegal and verdict.error.kind == "illegal"
    assert with_illegal >= 50, "enough games end in an illegal castling to test it"


def test_every_position_and_castling_right_of_random_games_is_the_actors_own() -> None:
    rng = random.Random(77)
    with SystemPool() as pool:
        for index in range(25):
            text, fens, plies, _ = random_chess960_game(rng)
            (game,) = read_games(io.StringIO(text))
            with ActorGame(game.tags["FEN"], pool=pool, chess960=True) as actors:
                for ply, token in enumerate(game.moves[:plies]):
                    reply = actors.propose(token.text)
                    assert isinstance(reply, Accepted), f"game {index} ply {ply + 1}: {reply}"
                    assert actors.fen() == fens[ply], f"game {index}, ply {ply + 1}"


# -- the game's state: FEN as the input wrote it, healing, the only move ---------------------------


@pytest.mark.parametrize(
    ("fen", "chess960"),
    [
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", False),  # Shredder-FEN
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", False),
        ("rr2k1rr/8/8/8/8/8/8/RR2K1RR w KQkq - 0 1", True),  # X-FEN
        ("rr2k1rr/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1", True),  # X-FEN naming the inner rooks
        ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", None),  # K and Q read as X-FEN
    ],
)
def test_the_board_writes_castling_rights_as_the_input_did(fen: str, chess960: bool | None) -> None:
    with ActorGame(fen, chess960=chess960) as game:
        assert game.fen() == fen
        direct = Game(fen, chess960=chess960)
        move = legal_moves(direct.position)[0]
        text = direct.uci(move)
        assert actor_verdict(game, text) == direct_verdict(direct, text)
        assert game.fen() == direct.fen()


def test_a_castled_chess960_game_heals_from_its_journal_after_crashes() -> None:
    fen = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"
    direct = Game(fen, chess960=True)
    with ActorGame(fen, chess960=True) as game:
        for text in ("O-O-O", "g8h8"):
            assert actor_verdict(game, text) == direct_verdict(direct, text)
        for name in ("board", "referee", "white-king-g1", "white-rook-h1", "black-rook-a8"):
            game.crash(name)
        game.supervisor.heal()
        assert game.fen() == direct.fen()
        for text in ("Kb1", "O-O-O", "Rf8", "a8a1"):
            assert actor_verdict(game, text) == direct_verdict(direct, text), text
        assert game.fen() == direct.fen()
        assert game.supervisor.restarts == 5


def test_castling_as_the_only_move_is_no_stalemate() -> None:
    # White's king on f1 has nowhere to go but g1, where its rook stands: castling puts it there.
    fen = "4r2k/8/8/8/8/r5p1/6P1/5KRB b K - 0 1"
    oracle = chess.Board(fen, chess960=True)
    oracle.push_san("Ra2")
    assert [oracle.san(move) for move in oracle.legal_moves] == ["O-O"]
    direct = Game(fen, chess960=True)
    with ActorGame(fen, chess960=True) as game:
        assert actor_verdict(game, "Ra2") == direct_verdict(direct, "Ra2")
        assert game.outcome is None and direct.outcome() is None
        assert game.legal_targets("f1") == ("g1",)
        reply = game.propose("O-O")
        assert isinstance(reply, Accepted) and reply.uci == "f1g1"
        direct.play("O-O")
        assert game.fen() == direct.fen()
    with ActorGame(oracle.fen(), chess960=True) as game:  # the same position as a start
        assert game.outcome is None
        assert not isinstance(game.propose("f1g1"), Rejected)


def test_replay_of_a_chess960_pgn_through_the_actors_equals_the_direct_engine() -> None:
    rng = random.Random(5)
    for _ in range(5):
        text, _, _, _ = random_chess960_game(rng)
        (game,) = read_games(io.StringIO(text))
        assert watch_game(game, "actors") == replay_direct(game)


def test_the_actors_write_chess960_castling_as_o_o_and_as_the_king_taking_its_rook() -> None:
    text = """[Variant "Chess960"]
[FEN "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"]

1. O-O-O O-O 2. Kb1 Kh8 *
"""
    (game,) = read_games(io.StringIO(text))
    reports: list[tuple[str | None, str | None]] = []
    verdict = watch_game(game, "actors", on_move=lambda report: reports.append((report.san, report.uci)))
    assert reports == [("O-O-O", "g1a1"), ("O-O", "g8h8"), ("Kb1", "c1b1"), ("Kh8", "g8h8")]
    oracle = chess.pgn.read_game(io.StringIO(text))
    assert oracle is not None and verdict.fen == oracle.end().board().fen()


def test_a_king_moved_by_its_squares_onto_its_own_rook_castles_and_elsewhere_moves_plainly() -> None:
    fen = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"
    with ActorGame(fen, chess960=True) as game:
        plain = game.propose_squares("g1", "f1")  # in Chess960, g1 -> f1 is no castling
        assert isinstance(plain, Accepted) and plain.san == "Kf1"
        castled = game.propose_squares("g8", "h8")  # the king takes its own rook: O-O, staying on g8
        assert isinstance(castled, Accepted) and (castled.san, castled.uci) == ("O-O", "g8h8")
        refused = game.propose_squares("f1", "h1")  # the king has left its square: two steps away
        assert isinstance(refused, Rejected) and refused.reason == "no king can reach h1"
        assert game.fen() == "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R4K1R w - - 2 2"
