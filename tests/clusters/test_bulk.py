"""Bulk replay: the same verdicts, in the same order, whatever the number of workers."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from board.notation.pgn import read_games
from tests.helpers.extras import needs

DATA = Path(__file__).resolve().parents[1] / "data"

BROKEN = """
[Event "illegal"]
[White "X"]
[Black "Y"]

1. e4 e5 2. Nf3 Nf6 3. Nxe5 Nxe4 4. Qe2 Nf6 5. Nc6+ Qe7 6. Ng8 *

[Event "malformed"]

1. d4 d5 2. c4 {never closed

[Event "fine"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *
"""


def _replay(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", "--engine", "direct", "--json", str(path), *extra],
        capture_output=True, text=True, check=False, timeout=300,
    )


@pytest.fixture(scope="module")
def mixed_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    famous = (DATA / "famous.pgn").read_text(encoding="utf-8")
    path = tmp_path_factory.mktemp("bulk") / "mixed.pgn"
    # Enough games for several chunks per worker, with illegal and malformed games among them.
    path.write_text("\n\n".join([famous, BROKEN] * 25), encoding="utf-8")
    return path


def test_two_workers_print_exactly_what_one_worker_prints(mixed_file: Path) -> None:
    single, double = _replay(mixed_file), _replay(mixed_file, "--workers", "2")
    assert single.returncode == double.returncode == 1  # some games are illegal
    assert single.stdout == double.stdout
    lines = single.stdout.splitlines()
    assert len(lines) == 25 * 10
    assert [line.count('"error": null') for line in lines[7:10]] == [0, 0, 1]


def test_zero_workers_is_a_usage_error(mixed_file: Path) -> None:
    result = _replay(mixed_file, "--workers", "0")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "--workers" in result.stderr


def test_errors_survive_the_trip_between_processes() -> None:
    import pickle

    from board.errors import AmbiguousMoveError, IllegalMoveError, PgnError

    for error in (PgnError("bad", 3, 4), IllegalMoveError("Nf7", "no"), AmbiguousMoveError("Rd1", "two")):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and str(copy) == str(error)


@needs("ray")
def test_a_local_ray_prints_exactly_what_one_worker_prints(mixed_file: Path) -> None:
    single = _replay(mixed_file)
    on_ray = _replay(mixed_file, "--ray", "local", "--workers", "2")
    assert on_ray.returncode == single.returncode == 1, on_ray.stderr[-2000:]
    assert on_ray.stdout == single.stdout


def test_ray_missing_is_one_line_saying_how_to_install_it(mixed_file: Path) -> None:
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from actors.cli import main\n"
        f"sys.exit(main(['replay', '--engine', 'direct', '--ray', 'local', {str(mixed_file)!r}]))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "pip install" in result.stderr and "cluster" in result.stderr
    assert "Traceback" not in result.stderr


def _read(lines: Iterable[bytes], first_line: int = 1) -> list[tuple[object, ...]]:
    from board.notation.pgn import read_games

    return [
        (game.tags, game.moves, game.result, game.first_line, str(game.error))
        for game in read_games(lines, first_line)
    ]


def _cut_and_read(text: str, games: int) -> list[tuple[object, ...]]:
    from board.notation.pgn import game_chunks

    read: list[tuple[object, ...]] = []
    for first_line, lines in game_chunks(text.encode().splitlines(keepends=True), games):
        read += _read(lines, first_line)
    return read


_PIECES = [
    '[Event "a"]\n', '[Site "b"]\n', "\n", "1. e4 e5 2. Nf3 Nc6 *\n", "1. d4 {open comment\n",
    "still in it\n", "} 1... d5 (2. c4 (2. Nf3) dxc4) 1-0\n", "2. c4 ( unclosed\n", "%escape [Event]\n",
    '  [Event "indented"]\n', "[%clk 0:01:00]\n", "Nf9 hello\n", '[Bad "tag\n', "\ufeff[Event \"bom\"]\n",
    "1. e4 ; rest of line [Event \"x\"]\n", "0-1\n", '[White "quote " inside"]\n',
]


@given(st.lists(st.sampled_from(_PIECES), max_size=40), st.integers(min_value=1, max_value=4))
@settings(max_examples=300, deadline=None)
def test_cutting_pgn_into_runs_of_games_reads_exactly_what_the_whole_text_reads(
    pieces: list[str], games: int
) -> None:
    text = "".join(pieces)
    assert _cut_and_read(text, games) == _read([text.encode()])


def test_famous_games_cut_one_by_one_read_the_same() -> None:
    text = (DATA / "famous.pgn").read_text(encoding="utf-8") + BROKEN
    assert _cut_and_read(text, 1) == _read([text.encode()])
    assert len(_read([text.encode()])) == 10


def _cut_by_size_and_read(text: str, games: int, max_chars: int) -> tuple[list[tuple[object, ...]], int]:
    from board.notation.pgn import game_chunks

    read: list[tuple[object, ...]] = []
    longest = 0
    for first_line, lines in game_chunks([text.encode()], games, max_bytes=max_chars):
        read += _read(lines, first_line)
        longest = max(longest, sum(map(len, lines)))
    return read, longest


_TAGLESS = [
    "1. e4 e5 2. Nf3 Nc6 1-0\n", "1. d4 d5 *\n", "1. c4 0-1\n", "1/2-1/2\n", "1. e4 e5\n", "2. Nf3 *\n",
    "1. e4 {a comment\n", "} e5 1-0\n", "1. d4 (1. e4 e5) d5 0-1\n", "1. Nf9 1-0\n", "*\n", "\n",
    "1. e4 ; note 1-0\n", "%escape 1-0\n", '[Event "x"]\n', "1. e4 e5 2. Qh5 1/2-1/2  \n", "1.e4 e5 1-0\n",
    "1. e4 1-0 1. d4\n", "\ufeff1. e4 *\n",
]


@given(st.lists(st.sampled_from(_TAGLESS + _PIECES), max_size=40), st.integers(1, 4), st.integers(1, 80))
@settings(max_examples=400, deadline=None)
def test_cutting_runs_by_size_reads_exactly_what_the_whole_text_reads(
    pieces: list[str], games: int, max_chars: int
) -> None:
    text = "".join(pieces)
    assert _cut_by_size_and_read(text, games, max_chars)[0] == _read([text.encode()])


def test_games_without_tags_are_cut_by_size() -> None:
    text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n" * 5000
    read, longest = _cut_by_size_and_read(text, 64, 10_000)
    assert len(read) == 5000
    assert longest < 10_100


@pytest.mark.parametrize("game", [
    "{a comment} 1. e4 e5 1-0\n", "1. e4 {a comment} e5 1-0\n",
    "{an opening\ncomment} 1. d4 (1. e4) d5 0-1\n", "; a note\n1. e4 e5 *\n\n",
    "1. e4 (1. d4 {x} d5) e5 {y}\n1/2-1/2\n",
], ids=repr)
def test_games_without_tags_that_comment_are_cut_by_size_too(game: str) -> None:
    text = game * 2000
    read, longest = _cut_by_size_and_read(text, 64, 2_000)
    assert read == _read([text.encode()]) and len(read) == 2000
    assert longest < 2_000 + 2 * len(game)


def test_a_run_with_no_place_to_cut_past_the_limit_is_the_rest_of_the_stream_read_in_place() -> None:
    from board.notation.pgn import game_chunks

    text = "1. d4 d5 *\n" * 3 + "1. e4 {a comment never closed\n" + "1-0\n" * 2000 + "} 2. Nf3 *\n1. c4 *\n"
    *runs, (first, rest) = game_chunks([text.encode()], 1, max_bytes=10, refuse_bytes=5000)
    assert [len(lines) for _, lines in runs] == [1, 1, 1] and not isinstance(rest, list)
    assert first == 4 and b"".join(rest) == text.encode().split(b"\n", 3)[3], "all the rest, from line 4"


@given(st.lists(st.sampled_from(_PIECES), max_size=40), st.integers(min_value=1, max_value=4),
       st.integers(min_value=1, max_value=300))
@settings(max_examples=300, deadline=None)
def test_cutting_with_a_limit_reads_exactly_what_the_whole_text_reads(
    pieces: list[str], games: int, refuse: int
) -> None:
    from board.notation.pgn import game_chunks

    text = "".join(pieces)
    read: list[tuple[object, ...]] = []
    for first_line, lines in game_chunks([text.encode()], games, max_bytes=40, refuse_bytes=refuse):
        read += _read(lines, first_line)
    assert read == _read([text.encode()])


class _HereRunner:
    """Judges each chunk at once in this process, as a worker would, and counts the chunks."""

    engine = "direct"

    def __init__(self) -> None:
        self.chunks = 0

    def submit(self, chunk: tuple[int, list[bytes], str]) -> Future[list[object]]:
        from actors.clusters.bulk import judge_chunk

        self.chunks += 1
        done: Future[list[object]] = Future()
        done.set_result(list(judge_chunk("direct", chunk)))
        return done


def test_the_rest_of_an_input_with_no_place_to_cut_is_judged_in_order_as_one_process_judges_it() -> None:
    from actors.clusters.bulk import ordered
    from actors.game.replay import judge_for

    famous = (DATA / "famous.pgn").read_text(encoding="utf-8")
    never_closed = "1. e4 e5 {a comment never closed\n" + "2. Nf3 Nc6 1-0\n" * 500
    text = famous + "\n\n" + never_closed + "}\n3. Bb5 *\n\n" + famous
    runner = _HereRunner()
    verdicts = list(ordered(runner, [("games.pgn", [text.encode()])], 2, chunk_size=1, refuse_bytes=2_000))
    judge = judge_for("direct")
    alone = [judge(game) for game in read_games([text.encode()], 1, "games.pgn")]
    # Each reader numbers the games it reads; the command numbers them in order as they come.
    assert [replace(v, game=0) for v in verdicts] == [replace(v, game=0) for v in alone]
    assert len(alone) == 15
    # The games before went to the workers a chunk each, the last too: no tag line parts it from
    # the game that follows, but its result ends it where nothing is open, and a game counts there.
    assert runner.chunks == 7


@pytest.mark.parametrize("game", ["1. e4 *\n", "*\n", "{c} 1. d4 d5 0-1\n"], ids=repr)
def test_tiny_games_without_tags_are_cut_by_count_as_well_as_by_size(game: str) -> None:
    from board.notation.pgn import game_chunks

    text = (game * 10_000).encode()
    runs = [lines for _, lines in game_chunks([text], 64, max_bytes=4_000_000)]
    assert len(runs) == 10_000 // 64 + 1  # 64 games a run (the file is far under 4 MB)
    assert all(b"".join(lines).count(game.encode()) == 64 for lines in runs[:-1])


def test_workers_ended_early_leave_no_executor_thread_behind() -> None:
    # Ended by a signal or an error, the workers are terminated and the executor's own thread is
    # waited for: left running, it closes its wake-up pipe while the interpreter's exit writes to it
    # (concurrent.futures' exit hook), and a traceback is printed after the command's one line.
    from actors.clusters.bulk import ProcessRunner

    runner = ProcessRunner("direct", 2)
    lines = (DATA / "famous.pgn").read_bytes().splitlines(keepends=True)
    pending = [runner.submit((1, lines, "famous.pgn")) for _ in range(4)]
    manager = runner.pool._executor_manager_thread  # type: ignore[attr-defined]
    assert manager is not None and manager.is_alive()
    runner.close(finished=False)
    assert not manager.is_alive()
    assert all(future.done() for future in pending)
