"""``chess-actors replay`` on PGN as it comes: compressed, Latin-1 or UTF-8, from files and stdin.

The material is made here as real tools write it: python-chess exports games with comments, NAGs and
variations wrapped at 80 columns, among them games of more than 100 moves; each compressed form must
print exactly what the plain UTF-8 original prints, and that must match python-chess's own reading.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import random
import subprocess
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest
import zstandard

from tests.helpers.extras import needs

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Müller, Jürgen", "Ljubojević, Ljubomir", "Åkesson, Ralf", "Nuñez, José", "Smith, John"]
COMPRESSORS = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
    "zst": lambda data: zstandard.ZstdCompressor().compress(data),
}


def chess_actors(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the command line in a fresh interpreter, bytes in and out."""
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        check=False,
        timeout=300,
    )


def _exported_game(rng: random.Random, index: int) -> tuple[str, int]:
    """A random legal game as python-chess exports it (80 columns), and its number of plies."""
    board = chess.Board()
    game = chess.pgn.Game()
    game.headers["Event"] = f"Export {index}"
    game.headers["White"] = NAMES[index % len(NAMES)]
    game.headers["Black"] = NAMES[(index + 2) % len(NAMES)]
    node: chess.pgn.GameNode = game
    limit = 260 if index % 4 == 0 else rng.randint(0, 90)  # every fourth game has 130 moves
    while board.ply() < limit and not board.is_game_over():
        legal = list(board.legal_moves)
        move = rng.choice(legal)
        if board.ply() % 6 == 2 and len(legal) > 1:
            side = node.add_variation(rng.choice([other for other in legal if other != move]))
            side.comment = "a side line with a few words in it"
        node = node.add_main_variation(move)
        if board.ply() % 5 == 1:
            node.comment = "[%clk 0:01:00] Müller would have played differently here"
        if board.ply() % 7 == 3:
            node.nags.add(rng.choice([1, 2, 6, 14, 146]))
        board.push(move)
    game.headers["Result"] = board.result() if board.is_game_over() else "*"
    return game.accept(chess.pgn.StringExporter(columns=80)), board.ply()


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[int]]:
    """A UTF-8 file of 24 exported games and the plies of each."""
    rng = random.Random(18)
    games = [_exported_game(rng, index) for index in range(24)]
    path = tmp_path_factory.mktemp("inputs") / "exported.pgn"
    path.write_text("\n\n".join(text for text, _ in games) + "\n", encoding="utf-8")
    return path, [plies for _, plies in games]


@pytest.fixture(scope="module")
def original(exported: tuple[Path, list[int]]) -> bytes:
    """What the plain UTF-8 file prints with --json."""
    result = chess_actors("replay", "--engine", "direct", "--json", str(exported[0]))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_exported_games_read_with_no_error_and_python_chess_plies(
    exported: tuple[Path, list[int]], original: bytes
) -> None:
    records = [json.loads(line) for line in original.decode().splitlines()]
    assert [record["plies"] for record in records] == exported[1]
    assert max(exported[1]) > 200  # three-digit move numbers were written
    assert all(record["error"] is None for record in records)
    text = exported[0].read_text(encoding="utf-8")
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs is not None and records[0]["white"] == theirs.headers["White"] == "Müller, Jürgen"


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_each_compressed_format_prints_what_the_original_prints_from_a_file_and_stdin(
    suffix: str, exported: tuple[Path, list[int]], original: bytes, tmp_path: Path
) -> None:
    packed = COMPRESSORS[suffix](exported[0].read_bytes())
    path = tmp_path / f"exported.pgn.{suffix}"
    path.write_bytes(packed)
    from_file = chess_actors("replay", "--engine", "direct", "--json", str(path))
    from_stdin = chess_actors("replay", "--engine", "direct", "--json", "-", stdin=packed)
    assert (from_file.returncode, from_stdin.returncode) == (0, 0), from_file.stderr + from_stdin.stderr
    assert from_file.stdout == from_stdin.stdout == original


@pytest.mark.parametrize("suffix", ["zst", "gz"])
def test_workers_read_compressed_input_too(
    suffix: str, exported: tuple[Path, list[int]], original: bytes, tmp_path: Path
) -> None:
    path = tmp_path / f"exported.pgn.{suffix}"
    path.write_bytes(COMPRESSORS[suffix](exported[0].read_bytes()))
    result = chess_actors("replay", "--engine", "direct", "--json", "--workers", "2", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == original


@needs("ray")
def test_a_local_ray_reads_compressed_input(
    exported: tuple[Path, list[int]], original: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "exported.pgn.zst"
    path.write_bytes(COMPRESSORS["zst"](exported[0].read_bytes()))
    result = chess_actors(
        "replay", "--engine", "direct", "--json", "--ray", "local", "--workers", "2", str(path)
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == original


def test_a_broken_compressed_file_is_one_line_and_exit_2(
    exported: tuple[Path, list[int]], tmp_path: Path
) -> None:
    packed = gzip.compress(exported[0].read_bytes())
    path = tmp_path / "broken.pgn.gz"
    path.write_bytes(packed[: len(packed) // 2])
    result = chess_actors("replay", "--engine", "direct", "--json", str(path))
    assert result.returncode == 2
    (line,) = result.stderr.decode().splitlines()
    assert str(path) in line and "gzip" in line and "Traceback" not in line


# Character sets


LATIN1_GAME = '[White "Müller"]\n[Black "Niño"]\n\n1. e4 e5 {Müller: ¡olé!} *\n'


@pytest.mark.parametrize("where", ["file", "stdin"])
def test_a_latin1_game_prints_its_names_right_as_text_and_json(where: str, tmp_path: Path) -> None:
    data = LATIN1_GAME.encode("latin-1")
    path = tmp_path / "latin1.pgn"
    path.write_bytes(data)
    argument, stdin = (str(path), None) if where == "file" else ("-", data)
    plain = chess_actors("replay", "--engine", "direct", argument, stdin=stdin)
    assert plain.stdout.decode("utf-8") == "game 1: Müller - Niño, 2 plies, *\n"
    as_json = chess_actors("replay", "--engine", "direct", "--json", argument, stdin=stdin)
    record = json.loads(as_json.stdout)
    assert (record["white"], record["black"], record["error"]) == ("Müller", "Niño", None)
    assert b"\\udc" not in as_json.stdout and b"\\ufffd" not in as_json.stdout


def test_the_character_set_is_chosen_game_by_game(tmp_path: Path) -> None:
    data = (
        LATIN1_GAME.encode("latin-1")
        + b"\n"
        + '[White "Ljubojević"]\n\n1. d4 *\n'.encode()
        + b"\n"
        + LATIN1_GAME.replace("Müller", "Hübner").encode("latin-1")
    )
    path = tmp_path / "mixed.pgn"
    path.write_bytes(data)
    result = chess_actors("replay", "--engine", "direct", "--json", str(path))
    assert [json.loads(line)["white"] for line in result.stdout.splitlines()] == [
        "Müller",
        "Ljubojević",
        "Hübner",
    ]


# Errors


def test_the_two_reported_commands_read_right() -> None:
    wrapped = (
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O "
        b"9. h3 Nb8 10.\nd4 Nbd7 *\n"
    )
    result = chess_actors("replay", "-", "--engine", "direct", "--json", stdin=wrapped)
    record = json.loads(result.stdout)
    assert (result.returncode, record["plies"], record["error"]) == (0, 20, None)
    result = chess_actors("replay", "-", "--json", stdin=b"1. e4 e5 2. *\n\n1. d4 *\n")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 0
    assert [(record["plies"], record["error"]) for record in records] == [(2, None), (1, None)]


def test_errors_name_the_file_line_and_column_of_the_token_as_written(tmp_path: Path) -> None:
    first, second = tmp_path / "one.pgn", tmp_path / "two.pgn"
    first.write_text('[White "a"]\n\n1. e4 e5 2. Ke2 Nc6 3. Kf3 Nf6 4. Nf7 *\n', encoding="utf-8")
    second.write_text('[White "b"]\n\n1. e4 Nf6 2. e5 d5\n3. exd6 e.p. Qd7 *\n', encoding="utf-8")
    plain = chess_actors("replay", "--engine", "direct", str(first), str(second))
    assert plain.returncode == 1
    assert plain.stdout.decode().splitlines() == [
        f"game 1: a - ?, 6 plies; {first}:3:35: illegal at ply 7: Nf7: no knight can reach f7",
        f"game 2: b - ?, 5 plies; {second}:4:9: unreadable at ply 6: e.p.: "
        "not a move in SAN (expected e.g. e4, Nf3, exd5, O-O, e8=Q)",
        "summary: 2 games, 11 plies, 2 games stopped by an illegal move",
    ]
    as_json = chess_actors("replay", "--engine", "direct", "--json", str(first), str(second))
    errors = [json.loads(line)["error"] for line in as_json.stdout.splitlines()]
    assert [
        (error["file"], error["line"], error["column"], error["move"], error["kind"]) for error in errors
    ] == [
        (str(first), 3, 35, "Nf7", "illegal"),
        (str(second), 4, 9, "e.p.", "unreadable"),
    ]


@pytest.mark.parametrize(
    ("text", "move", "reason"),
    [
        (b"1. e4 e5 ) 2. Nf3 *\n", ")", "')' closes no variation"),
        (b"1. e4 e5 2. Nf3 {never closed\n", "{", "this comment '{' is never closed (no matching '}')"),
        (b"1. e4 e5 2. N@f3 *\n", "N@f3", "piece drops are not standard chess"),
    ],
)
def test_syntax_errors_fill_the_move_with_what_was_written(text: bytes, move: str, reason: str) -> None:
    result = chess_actors("replay", "--engine", "direct", "--json", "-", stdin=text)
    error = json.loads(result.stdout)["error"]
    assert (result.returncode, error["move"], error["reason"], error["kind"]) == (
        1,
        move,
        reason,
        "unreadable",
    )


@pytest.mark.parametrize("data", [b"", b"\n\n  \n", b"{only a comment}\n; and a line comment\n"])
def test_input_with_no_game_says_so(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "empty.pgn"
    path.write_bytes(data)
    for argument, stdin, name in ((str(path), None, str(path)), ("-", data, "<stdin>")):
        result = chess_actors("replay", "--engine", "direct", argument, stdin=stdin)
        assert (result.returncode, result.stdout) == (2, b"")
        assert (
            result.stderr.decode()
            == f"chess-actors replay: {name}: no game found (no tag pair, move or result in it)\n"
        )


def test_several_inputs_with_no_game_are_named_on_one_line(tmp_path: Path) -> None:
    first, second = tmp_path / "a.pgn", tmp_path / "b.pgn"
    first.write_bytes(b"")
    second.write_bytes(b"{nothing}\n")
    result = chess_actors("replay", "--engine", "direct", str(first), str(second), "-", stdin=b"1. e4 *\n")
    assert result.returncode == 2 and result.stdout.count(b"\n") == 1
    assert result.stderr.decode() == (
        f"chess-actors replay: {first}, {second}: no game found (no tag pair, move or result in it)\n"
    )
