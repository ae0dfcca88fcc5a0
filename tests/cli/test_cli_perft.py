"""``chess-actors perft`` end to end, as a user runs it: output shapes, JSON, and bad input.

Each test starts ``python -m actors.cli`` in a subprocess, so the exit status and streams are real.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.extras import import_or_skip

ROOT = Path(__file__).resolve().parents[2]
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def chess_actors(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_last_line_is_the_node_count() -> None:
    result = chess_actors("perft", "startpos", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "8902"
    assert result.stderr == ""


def test_a_full_fen_is_accepted() -> None:
    result = chess_actors("perft", KIWIPETE, "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "2039"


def test_depth_zero_counts_the_position_itself() -> None:
    assert chess_actors("perft", "startpos", "0").stdout.splitlines() == ["1"]


def test_divide_prints_each_root_move_sorted_then_the_total() -> None:
    result = chess_actors("perft", KIWIPETE, "2", "--divide")
    assert result.returncode == 0, result.stderr
    *move_lines, total = result.stdout.splitlines()
    assert total == "2039"
    assert len(move_lines) == 48, "Kiwipete has 48 legal moves"
    assert move_lines == sorted(move_lines)
    counts = {}
    for line in move_lines:
        move, _, count = line.partition(": ")
        counts[move] = int(count)
    assert sum(counts.values()) == 2039, "the per-move counts must add up to the total"
    assert counts["e1g1"] == 43 and counts["e2a6"] == 36, "known Kiwipete divide entries"


def test_divide_of_the_initial_position() -> None:
    lines = chess_actors("perft", "startpos", "3", "--divide").stdout.splitlines()
    assert lines[-1] == "8902"
    assert "e2e4: 600" in lines and "g1f3: 440" in lines and "a2a3: 380" in lines


def test_json_is_one_object_with_fen_depth_and_nodes() -> None:
    result = chess_actors("perft", "startpos", "3", "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0]) == {"fen": STARTING_FEN, "depth": 3, "nodes": 8902}


def test_json_with_divide_holds_every_root_move() -> None:
    record = json.loads(chess_actors("perft", KIWIPETE, "2", "--divide", "--json").stdout)
    assert record["nodes"] == 2039 and record["depth"] == 2 and record["fen"] == KIWIPETE
    assert len(record["divide"]) == 48
    assert sum(record["divide"].values()) == 2039


@pytest.mark.parametrize(
    ("fen", "says"),
    [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "has 7 ranks"),
        ("not a fen", "fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move 'x'"),
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right 'K'"),
    ],
)
def test_a_bad_fen_is_one_line_on_stderr_and_exit_2(fen: str, says: str) -> None:
    result = chess_actors("perft", fen, "2")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stderr.startswith("chess-actors perft: ") and says in result.stderr


@pytest.mark.parametrize("depth", ["-1", "x", "2.5", "", "3 plies"])
def test_a_depth_that_is_not_a_whole_number_is_one_line_on_stderr_and_exit_2(depth: str) -> None:
    result = chess_actors("perft", "startpos", depth)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "DEPTH" in result.stderr


def test_a_missing_depth_is_a_usage_error() -> None:
    result = chess_actors("perft", "startpos")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr


def test_a_depth_past_the_limit_is_one_line_naming_it() -> None:
    result = chess_actors("perft", "startpos", "16")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("chess-actors perft: DEPTH 16: at most 15 plies")
    assert len(result.stderr.splitlines()) == 1


def test_a_long_count_on_a_terminal_shows_a_progress_bar_of_first_moves_then_the_count() -> None:
    pexpect = import_or_skip("pexpect")

    # The bar appears once counting has taken PROGRESS_AFTER seconds; here that is set to at once.
    script = ("import sys, actors.cli.perft as p; p.PROGRESS_AFTER = -1.0; from actors.cli import main; "
              "sys.exit(main(['perft', 'startpos', '3']))")
    child = pexpect.spawn(sys.executable, ["-c", script], cwd=str(ROOT), encoding="utf-8", timeout=60,
                          dimensions=(24, 100))
    child.expect(r"perft 3: first moves")
    child.expect(r"8902\r\n")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_shredder_fen_is_counted_as_chess960_and_echoed_in_its_own_form() -> None:
    import chess

    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    result = chess_actors("perft", fen, "2", "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    board = chess.Board(fen, chess960=True)
    assert record["fen"] == fen
    assert record["nodes"] == sum(1 for move in board.legal_moves for _ in _after(board, move))


def _after(board: object, move: object) -> list[object]:
    import chess

    assert isinstance(board, chess.Board) and isinstance(move, chess.Move)
    board.push(move)
    replies = list(board.legal_moves)
    board.pop()
    return list(replies)


def test_divide_writes_chess960_castling_as_the_king_taking_its_rook() -> None:
    import chess

    fen = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"  # X-FEN: the king on g1
    result = chess_actors("perft", fen, "1", "--divide")
    assert result.returncode == 0, result.stderr
    moves = {line.split(":")[0] for line in result.stdout.splitlines()[:-1]}
    assert moves == {move.uci() for move in chess.Board(fen, chess960=True).legal_moves}
    assert {"g1a1", "g1h1"} <= moves
