"""Verdicts follow the actors: pieces that learn new moves, and a board that lies.

The actor engine's legality comes from what the pieces and the board answer. Teach a piece another
move function, or make the board report a false fact, and the referee's verdicts change with them.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from actors.game.game import ActorGame
from actors.protocol import Accepted, No, Rejected, Yes
from actors.tracing.recorder import TraceRecorder
from board.errors import InputError
from board.rules.geometry import NAMED, geometry_named
from board.rules.squares import SQUARE_NAMES
from tests.helpers.fairy_judge import legal_moves
from tests.helpers.fairy_positions import taught_positions

FAIRY = ("archbishop", "chancellor", "amazon", "jumping-rook")
POSITIONS = taught_positions(seed=14, count=200)


def _actor_moves(game: ActorGame, fen: str) -> set[tuple[str, str]]:
    """Every (from, to) the actor engine accepts, asked piece by piece through the conversation."""
    board = fen.split()[0]
    turn = fen.split()[1]
    found: set[tuple[str, str]] = set()
    rank = 8
    for row in board.split("/"):
        file = 1
        for char in row:
            if char.isdigit():
                file += int(char)
                continue
            square = SQUARE_NAMES[(rank - 1) * 8 + file - 1]
            if char.isupper() == (turn == "w"):
                found |= {(square, target) for target in game.legal_targets(square)}
            file += 1
        rank -= 1
    return found


def _judged_alike(fen: str, taught: dict[str, str]) -> None:
    expected = legal_moves(fen, {square: geometry_named(name) for square, name in taught.items()})
    with ActorGame(fen, teach=taught) as game:
        found = _actor_moves(game, fen)
        assert found == {(move[:2], move[2:4]) for move in expected}, (
            f"{fen} taught {taught}: actors {sorted(found)}, judge {sorted(expected)}"
        )
        if not expected:
            assert game.outcome in ("checkmate", "stalemate"), f"{fen}: no move, yet {game.outcome}"


@pytest.mark.parametrize("chunk", range(0, len(POSITIONS), 20))
def test_taught_positions_agree_with_a_brute_force_judge(chunk: int) -> None:
    for position in POSITIONS[chunk : chunk + 20]:
        _judged_alike(position.fen, position.taught_names)


@pytest.mark.parametrize("chunk", range(0, len(POSITIONS), 40))
@pytest.mark.parametrize("fairy", FAIRY)
def test_each_fairy_piece_in_200_positions_agrees_with_the_brute_force_judge(fairy: str, chunk: int) -> None:
    # The same 200 positions with every taught piece moving as this one fairy piece.
    for position in POSITIONS[chunk : chunk + 40]:
        _judged_alike(position.fen, dict.fromkeys(position.taught_names, fairy))


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 4))
def test_proposals_in_taught_positions_are_judged_as_the_brute_force_judge_says(index: int) -> None:
    position = POSITIONS[index]
    expected = sorted(legal_moves(position.fen, position.taught))
    pairs = {move[:4] for move in expected}
    rng = random.Random(index)
    with ActorGame(position.fen, teach=position.taught_names) as game:
        movers = sorted({origin for origin, _ in _actor_moves(game, position.fen)} or {"e1"})
    bogus = [
        f"{origin}{target}"
        for origin in movers
        for target in SQUARE_NAMES
        if f"{origin}{target}" not in pairs
    ]
    tries = [(rng.choice(expected), True)] if expected else []
    tries.append((rng.choice(bogus), False))
    for move, legal in tries:
        with ActorGame(position.fen, teach=position.taught_names) as game:
            reply = game.propose(move)
            assert isinstance(reply, Accepted) == legal, (
                f"{position.fen} {position.taught_names}: {move} {reply}"
            )


@pytest.mark.parametrize("fairy", FAIRY)
def test_every_fairy_piece_is_named_and_moves_by_its_own_geometry(fairy: str) -> None:
    assert fairy in NAMED
    with ActorGame("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", teach={"a1": fairy}) as game:
        reply = game.piece("a1").move_query("a1", "b3")
        knight_like = fairy != "jumping-rook"
        assert isinstance(reply, Yes) == knight_like, reply


def test_a_bishop_that_learnt_the_archbishops_moves_jumps_like_a_knight_and_san_still_names_it() -> None:
    with ActorGame() as game:
        refused = game.propose("Bb3")
        assert isinstance(refused, Rejected), "a bishop cannot jump to b3"
        game.piece("c1").learn("archbishop")
        reply = game.propose("Bb3")
        assert isinstance(reply, Accepted) and reply.san == "Bb3", reply


def test_a_taught_archbishop_on_f6_gives_check_to_h7_like_a_knight() -> None:
    fen = "4k3/7K/5b2/8/8/8/8/8 w - - 0 1"
    with ActorGame(fen) as game:
        assert set(game.legal_targets("h7")) == {"g6", "g7", "g8", "h6", "h8"} - {"g7", "h8"}
        game.piece("f6").learn("archbishop")
        assert set(game.legal_targets("h7")) == {"g6", "h6"}, "g8 and h7 are knight jumps from f6"
        reply = game.propose("Kg8")
        assert isinstance(reply, Rejected) and "f6" in reply.reason, reply


def test_a_taught_knight_that_learnt_nothing_cannot_move_and_the_verdict_says_so() -> None:
    with ActorGame() as game:
        game.piece("g1").learn(lambda start, end: None)
        reply = game.propose("Nf3")
        assert isinstance(reply, Rejected) and reply.reason == "no knight can reach f3", reply
        assert isinstance(game.propose("Nc3"), Accepted), "the other knight still moves"


def test_learning_is_refused_cleanly_and_the_game_goes_on_unchanged() -> None:
    with ActorGame() as game:
        with pytest.raises(InputError, match="unknown piece geometry 'wizard'"):
            game.piece("c1").learn("wizard")

        def broken(start: tuple[int, int], end: tuple[int, int]) -> object:
            raise ZeroDivisionError("no")

        with pytest.raises(InputError, match="ZeroDivisionError"):
            game.piece("g1").learn(broken)
        with pytest.raises(InputError, match="is not the square asked about"):
            game.piece("g1").learn(lambda start, end: ("a1", ()))
        assert isinstance(game.propose("Nf3"), Accepted), "the knight kept its own move function"
        assert isinstance(game.propose("Bb4"), Rejected), "the black bishop cannot reach b4 through its pawn"


def test_a_piece_answers_only_about_its_own_square() -> None:
    with ActorGame() as game:
        reply = game.piece("g1").move_query("b1", "c3")
        assert isinstance(reply, No) and "does not stand on b1" in reply.reason, reply
        assert isinstance(game.piece("g1").move_query("g1", "f3"), Yes)


def test_a_ghost_blocker_reported_by_the_board_makes_the_referee_refuse_and_the_truth_lets_it_pass() -> None:
    with ActorGame() as game:
        for move in ("e4", "e5"):
            game.propose(move)
        game.board_lies(ghosts={"d3": "P"})
        refused = game.propose("Bc4")
        assert isinstance(refused, Rejected) and "blocked by the pawn on d3" in refused.reason, refused
        game.board_lies()
        assert isinstance(game.propose("Bc4"), Accepted)


def test_a_pinner_the_board_hides_lets_the_pinned_knight_go() -> None:
    fen = "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1"
    with ActorGame(fen) as game:
        pinned = game.propose("Nc3")
        assert isinstance(pinned, Rejected) and "pinned" in pinned.reason, pinned
        game.board_lies(hidden=["e8"])
        assert isinstance(game.propose("Nc3"), Accepted), "with the rook hidden, nothing pins the knight"


def test_every_move_query_a_hint_chose_says_so_in_the_trace() -> None:
    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        for move in ("e4", "e5", "Nf3"):
            game.propose(move)
    queries = [event for event in recorder.events() if event["kind"] == "MoveQuery"]
    assert queries and all(event["hint"] == "whereabouts" for event in queries), queries
    assert all(event["hint"] is None for event in recorder.events() if event["kind"] == "Survey")


# -- the command line ----------------------------------------------------------------------------


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_replay_teach_starts_each_game_with_the_taught_piece(tmp_path: Path) -> None:
    game = tmp_path / "jump.pgn"
    game.write_text('[Event "a bishop that jumps"]\n\n1. Bb3 e5 2. Bxf7+ Kxf7 *\n', encoding="utf-8")
    plain = _cli("replay", str(game), "--json")
    assert plain.returncode == 1 and json.loads(plain.stdout)["error"]["reason"] == "no bishop can reach b3"
    taught = _cli("replay", str(game), "--json", "--teach", "c1=archbishop")
    assert taught.returncode == 0, taught.stderr
    verdict = json.loads(taught.stdout)
    assert verdict["plies"] == 4 and verdict["error"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--teach", "c1=wizard"], "unknown piece geometry 'wizard'"),
        (["--teach", "c1"], "write SQUARE=PIECE"),
        (["--teach", "i9=knight"], "i9"),
        (["--teach", "c1=knight", "--teach", "c1=rook"], "c1 is taught twice"),
        (["--teach", "c1=archbishop", "--engine", "direct"], "--teach needs the actor engine"),
    ],
)
def test_replay_teach_refuses_what_it_cannot_do_in_one_line(args: list[str], message: str) -> None:
    done = _cli("replay", *args)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_scenario_learns_by_its_learn_step_and_run_teaches_by_option() -> None:
    script = "learn c1 archbishop\nplay Bb3\nsquare b3 white bishop white-bishop-c1\n"
    learnt = _cli("run", "-", stdin=script)
    assert learnt.returncode == 0, learnt.stdout + learnt.stderr
    taught = _cli("run", "-", "--teach", "c1=archbishop", stdin="play Bb3\n")
    assert taught.returncode == 0, taught.stdout + taught.stderr
    unknown = _cli("run", "-", stdin="learn c1 wizard\n")
    assert unknown.returncode == 2 and "line 1: learn: unknown piece geometry 'wizard'" in unknown.stderr
