"""``chess-actors replay`` end to end: the moves, boards, summary and trace people see, and the contract.

Each test runs the command line in a fresh interpreter and reads what it prints.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from actors.cli.display import FILES_LINE
from actors.game.replay import judge_for, watch_game
from actors.tracing.event import REQUIRED_FIELDS
from board.notation.pgn import read_games

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
ILLEGAL_GAME = '[White "a"]\n\n1. e4 e5 2. Ke2 Nc6 3. Kf3 Nf6 4. Nf7 *\n'
OPERA_PLIES = 33


def chess_actors(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line as a user would, in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "actors.cli", *args],
        cwd=ROOT, input=stdin, capture_output=True, text=True, check=False, timeout=120,
    )


def move_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if re.match(r"[✓✗] ply +\d+ ", line)]


def table_rows(stdout: str, title: str) -> dict[str, list[str]]:
    """The rows of a summary table: first cell -> the other cells."""
    lines = stdout.splitlines()
    start = lines.index(title) + 3  # the title, the header, the rule
    rows: dict[str, list[str]] = {}
    for line in lines[start:]:
        cells = line.split()
        if not cells or not re.fullmatch(r"[0-9.%]+", cells[-1]):
            break
        rows[cells[0]] = cells[1:]
    return rows


# --- the face -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def opera() -> subprocess.CompletedProcess[str]:
    return chess_actors("replay")


def test_replay_without_arguments_prints_every_move_with_its_verdict(
    opera: subprocess.CompletedProcess[str],
) -> None:
    assert opera.returncode == 0, opera.stderr
    moves = move_lines(opera.stdout)
    assert len(moves) == OPERA_PLIES
    assert all(line.startswith("✓") for line in moves)
    assert re.fullmatch(r"✓ ply +1  1\. +e4", moves[0])
    assert re.fullmatch(r"✓ ply +2  1\.\.\. +e5", moves[1])
    assert re.fullmatch(r"✓ ply +31  16\. +Qb8\+ +check", moves[30])
    assert re.fullmatch(r"✓ ply +33  17\. +Rd8# +checkmate", moves[-1])


def test_replay_without_arguments_draws_the_final_board_then_the_verdict(
    opera: subprocess.CompletedProcess[str],
) -> None:
    lines = opera.stdout.splitlines()
    assert lines.count(FILES_LINE) == 1
    board_end = lines.index(FILES_LINE)
    ranks = [line.split() for line in lines[board_end - 8 : board_end]]
    assert [rank[0] for rank in ranks] == ["8", "7", "6", "5", "4", "3", "2", "1"]
    # 1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5: the rook that mates on d8, the king on c1.
    assert ranks[0][1:] == ["·", "♞", "·", "♖", "♚", "♝", "·", "♜"]
    assert ranks[7][1:] == ["·", "·", "♔", "·", "·", "·", "·", "·"]
    assert lines[board_end + 1] == "FEN 1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17"
    assert lines[board_end + 2] == (
        "game 1: Morphy, Paul - Duke Karl of Brunswick and Count Isouard, 33 plies, checkmate, 1-0"
    )


def test_replay_summary_counts_messages_by_kind_and_times_each_actor_kind(
    opera: subprocess.CompletedProcess[str],
) -> None:
    stdout = opera.stdout
    [headline] = [line for line in stdout.splitlines() if line.startswith("summary: ")]
    match = re.fullmatch(r"summary: 1 game, 33 plies, no illegal move; (\d+) messages delivered", headline)
    assert match, headline
    kinds = table_rows(stdout, "messages by kind")
    assert kinds["ProposeText"][0] == str(OPERA_PLIES), "one proposal per ply"
    assert kinds["Apply"][0] == str(OPERA_PLIES), "one Apply per legal move"
    assert int(kinds["MoveQuery"][0]) >= OPERA_PLIES
    assert sum(int(cells[0]) for cells in kinds.values()) == int(match.group(1))
    latencies = table_rows(stdout, "handling latency by actor kind (µs)")
    assert {"referee", "board", "pawn", "knight", "bishop", "rook", "queen", "king"} <= set(latencies)
    for role, (asks, middle, high) in latencies.items():
        assert int(asks) > 0, role
        assert 0 <= float(middle) <= float(high), f"{role}: median {middle} above p99 {high}"


def test_board_each_draws_one_board_per_ply() -> None:
    result = chess_actors("replay", "--board", "each")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines().count(FILES_LINE) == OPERA_PLIES


def test_board_none_draws_no_board() -> None:
    result = chess_actors("replay", "--board", "none")
    assert result.returncode == 0, result.stderr
    assert FILES_LINE not in result.stdout.splitlines()
    assert len(move_lines(result.stdout)) == OPERA_PLIES


def test_an_illegal_move_is_shown_with_its_reason_and_the_exit_status_is_1() -> None:
    result = chess_actors("replay", "-", stdin=ILLEGAL_GAME)
    assert result.returncode == 1, result.stderr
    moves = move_lines(result.stdout)
    assert len(moves) == 7
    assert re.fullmatch(r"✗ ply +7  4\. +Nf7 +illegal: no knight can reach f7", moves[-1]), moves[-1]
    verdict = "game 1: a - ?, 6 plies; <stdin>:3:35: illegal at ply 7: Nf7: no knight can reach f7"
    assert verdict in result.stdout
    assert "summary: 1 game, 6 plies, 1 game stopped by an illegal move" in result.stdout


def test_several_games_print_a_line_each_and_one_summary_without_boards() -> None:
    result = chess_actors("replay", str(DATA / "famous.pgn"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len([line for line in lines if line.startswith("game ")]) == 7
    assert FILES_LINE not in lines
    assert not move_lines(result.stdout)
    assert any(line.startswith("summary: 7 games, ") for line in lines)
    assert result.stderr == "", "no progress display when stderr is not a terminal"


# --- the contract stays -------------------------------------------------------------------


def test_json_prints_one_object_per_game_and_no_board() -> None:
    result = chess_actors("replay", "--json")
    assert result.returncode == 0, result.stderr
    [line] = result.stdout.splitlines()
    record = json.loads(line)
    assert record == {
        "game": 1, "white": "Morphy, Paul", "black": "Duke Karl of Brunswick and Count Isouard",
        "plies": 33, "fen": "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17",
        "outcome": "checkmate", "claimable": None, "result": "1-0", "error": None,
    }


def test_the_direct_engine_keeps_its_one_line_a_game() -> None:
    result = chess_actors("replay", "--engine", "direct")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "game 1: Morphy, Paul - Duke Karl of Brunswick and Count Isouard, 33 plies, checkmate, 1-0\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "direct", "--trace", "x.jsonl"], "--trace needs the actor engine"),
        (["--workers", "2", "--trace", "x.jsonl"], "--trace needs the games judged in this process"),
        (["--json", "--board", "end"], "--json never prints boards"),
        (["--workers", "2", "--board", "each"], "--board each needs the games judged in this process"),
    ],
)
def test_options_that_cannot_work_together_are_a_usage_error(
    args: list[str], message: str, tmp_path: Path
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "actors.cli", "replay", *args],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert message in line
    assert not (tmp_path / "x.jsonl").exists()


def test_watching_a_game_gives_the_verdict_judging_it_gives() -> None:
    games = [game for path in sorted(DATA.glob("*.pgn")) for game in read_games(path.read_text())]
    games += list(read_games(ILLEGAL_GAME + '\n[FEN "bad"]\n\n1. e4 *\n\n1. e4 e5 2. Qh5 {open\n'))
    for engine in ("direct", "actors"):
        judge = judge_for(engine)
        for game in games:
            assert watch_game(game, engine) == judge(game), f"{engine}, game {game.number}"


# --- the trace ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def opera_trace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    path = tmp_path_factory.mktemp("trace") / "opera.jsonl"
    result = chess_actors("replay", "--trace", str(path))
    assert result.returncode == 0, result.stderr
    return path, result.stdout


def test_trace_writes_one_json_line_per_delivered_message(opera_trace: tuple[Path, str]) -> None:
    path, stdout = opera_trace
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    delivered = re.search(r"; (\d+) messages delivered", stdout)
    assert delivered is not None
    assert len(events) == int(delivered.group(1))
    for event in events:
        missing = [name for name in REQUIRED_FIELDS if name not in event]
        assert not missing, f"event {event.get('msg_id')} lacks {missing}"
        assert event["t_handled"] >= event["t_sent"] > 0
    assert len({event["msg_id"] for event in events}) == len(events)
    proposals = [event for event in events if event["kind"] == "ProposeText"]
    assert [event["payload"]["text"] for event in proposals][:3] == ["e4", "e5", "Nf3"]


def test_trace_converts_to_a_mermaid_diagram_of_one_move(opera_trace: tuple[Path, str]) -> None:
    path, _ = opera_trace
    result = chess_actors("trace", str(path), "--to", "mermaid", "--plies", "3-3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "sequenceDiagram"
    declared: dict[str, str] = {}
    for line in lines[1:]:
        match = re.fullmatch(r"    participant (\w+)(?: as (\S+))?", line)
        if match:
            declared[match.group(1)] = match.group(2) or match.group(1)
    assert {"client", "referee", "board", "white-knight-g1"} <= set(declared.values())
    assert "        Note over client,referee: ply 3: Nf3" in lines
    opened = closed = 0
    for line in lines[1 + len(declared) :]:
        stripped = line.strip()
        if stripped.startswith("rect "):
            opened += 1
        elif stripped == "end":
            closed += 1
        elif not stripped.startswith("Note over "):
            arrow = re.fullmatch(r"(\w+)(->>|-\)|-->>)(\w+): \S.*", stripped)
            assert arrow, f"not a message arrow: {line!r}"
            assert {arrow.group(1), arrow.group(3)} <= set(declared), line
    assert opened == closed == 1
    # Arrows carry what the message said, not just its kind.
    assert "        client->>referee: Propose Nf3" in lines
    assert "        referee->>white_knight_g1: MoveQuery g1→f3" in lines
    assert "        white_knight_g1-->>referee: Yes via —" in lines
    assert "        referee-->>client: Accepted Nf3" in lines


def test_the_whole_game_diagram_shows_each_ply_as_one_conversation(opera_trace: tuple[Path, str]) -> None:
    # replay keeps several proposals in flight; each is drawn where the referee takes it up, so
    # every ply's box holds its own proposal first and its verdict last, in the game's order.
    path, _ = opera_trace
    result = chess_actors("trace", str(path), "--to", "mermaid")
    assert result.returncode == 0, result.stderr
    boxes: list[list[str]] = []
    for line in result.stdout.splitlines():
        if line.startswith("    rect "):
            boxes.append([])
        elif boxes and line.startswith("        "):
            boxes[-1].append(line.strip())
    assert boxes[0][0] == "Note over supervisor,board: startup", "the start-up has a box of its own"
    assert not any("Propose" in line for line in boxes[0])
    played = [box for box in boxes if any("->>referee: Propose" in line for line in box)]
    assert len(played) == 33
    for ply, box in enumerate(played, start=1):
        assert box[0].startswith(f"Note over client,referee: ply {ply}: "), box[0]
        assert box[1].startswith("client->>referee: Propose "), box[:3]
        conversation = [line for line in box if "journal" not in line]  # the client journals windows
        assert conversation[-1].startswith("referee-->>client: Accepted "), box[-3:]
        assert sum("Propose" in line for line in box) == 1


def test_trace_converts_to_a_perfetto_timeline(opera_trace: tuple[Path, str]) -> None:
    path, _ = opera_trace
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    result = chess_actors("trace", str(path), "--to", "perfetto")
    assert result.returncode == 0, result.stderr
    trace: dict[str, Any] = json.loads(result.stdout)
    items = trace["traceEvents"]
    tracks = {
        item["tid"]: item["args"]["name"]
        for item in items
        if item["name"] == "thread_name" and item["args"]["name"] != "phases"
    }
    actors = {event["sender"] for event in events} | {event["receiver"] for event in events}
    assert sorted(tracks.values()) == sorted(actors), "one named track per actor"
    per_track: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for item in items:
        if item["ph"] == "X" and item["cat"] != "phase":
            assert item["tid"] in tracks
            per_track[item["tid"]].append((item["ts"], item["ts"] + item["dur"]))
    for tid, slices in per_track.items():
        open_ends: list[float] = []
        for start, end in sorted(slices, key=lambda span: (span[0], -span[1])):
            while open_ends and open_ends[-1] <= start + 1e-6:
                open_ends.pop()
            assert not open_ends or end <= open_ends[-1] + 1e-6, f"slices overlap on {tracks[tid]}"
            open_ends.append(end)
    starts = sorted(item["id"] for item in items if item["ph"] == "s")
    ends = sorted(item["id"] for item in items if item["ph"] == "f")
    assert starts == ends == sorted(event["msg_id"] for event in events)


def test_the_documented_json_row_is_what_replay_prints() -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    shown = re.search(r'```json\n(\{"game": 1, "white": "a".*?)\n```', page, re.DOTALL)
    assert shown is not None, "the command line page's --json row example is missing"
    game = '[White "a"]\n\n1. e4 e5 2. Ke2 Nf6 3. Kf3 Bc5 4. Nf7 *\n'
    done = chess_actors("replay", "-", "--json", stdin=game)
    assert done.returncode == 1
    assert json.loads(shown.group(1)) == json.loads(done.stdout)


CHESS960_GAME = """[Event "?"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w KQkq - 0 1"]
[Result "*"]

1. O-O-O O-O 2. Kb1 Kh8 *
"""


@pytest.mark.parametrize("engine", ["direct", "actors"])
def test_a_chess960_game_replays_with_either_engine(engine: str) -> None:
    result = chess_actors("replay", "-", "--engine", engine, "--json", stdin=CHESS960_GAME)
    assert result.returncode == 0, result.stderr
    import chess.pgn

    oracle = chess.pgn.read_game(io.StringIO(CHESS960_GAME))
    assert oracle is not None
    board = oracle.end().board()
    record = json.loads(result.stdout.splitlines()[0])
    assert record["plies"] == 4 and record["error"] is None
    assert record["fen"] == board.fen()
    shown = chess_actors("replay", "-", "--engine", engine, "--board", "each", stdin=CHESS960_GAME)
    assert shown.returncode == 0, shown.stderr
    assert "4 plies" in shown.stdout



TWO_GAMES = "1. e4 e5 2. Nf3 *\n\n1. d4 d5 2. c4 e6 3. Nc3 *\n"


def test_game_replays_only_that_game_and_numbers_it_as_the_input_does(tmp_path: Path) -> None:
    done = chess_actors("replay", "-", "--game", "2", "--json", "--trace", str(tmp_path / "t.jsonl"),
                        stdin=TWO_GAMES)
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert (record["game"], record["plies"]) == (2, 5)
    assert record["fen"] == "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR b KQkq - 1 3"
    games = {json.loads(line)["game"] for line in (tmp_path / "t.jsonl").read_text().splitlines()}
    assert games == {2}, "the trace's game field is the game's number in the input, as trace --game reads it"


def test_plies_plays_up_to_b_and_shows_and_traces_plies_a_to_b(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    done = chess_actors("replay", "-", "--game", "2", "--plies", "2-3", "--board", "none",
                        "--trace", str(trace), stdin=TWO_GAMES)
    assert done.returncode == 0, done.stderr
    assert [line.split()[-1] for line in move_lines(done.stdout)] == ["d5", "c4"]
    assert "game 2: ? - ?, 3 plies, *" in done.stdout
    plies = {json.loads(line)["ply"] for line in trace.read_text().splitlines()}
    assert plies == {2, 3}, "the trace keeps plies 2-3, as chess-actors trace --plies 2-3 would"


@pytest.mark.parametrize(
    ("flags", "message"),
    [(("--game", "3"), "--game 3: the input has 2 games"), (("--game", "0"), "--game 0: games count from 1"),
     (("--plies", "3-1"), "--plies '3-1': the range ends before it starts"),
     (("--plies", "2-3", "--workers", "2"), "--game and --plies replay in this process")],
)
def test_game_and_plies_that_cannot_be_met_are_one_line_and_exit_2(
    flags: tuple[str, ...], message: str
) -> None:
    done = chess_actors("replay", "-", *flags, stdin=TWO_GAMES)
    assert done.returncode == 2 and done.stderr.startswith(f"chess-actors replay: {message}"), done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("engine", ["actors", "direct"])
def test_a_paused_game_waits_after_its_ply_with_no_later_move_proposed(engine: str) -> None:
    from actors.game.replay import Pause
    from actors.tracing.recorder import TraceRecorder

    [game] = read_games((DATA / "opera-game.pgn").read_text(encoding="utf-8"))
    recorder = TraceRecorder() if engine == "actors" else None
    happened: list[tuple[str, int]] = []

    def wait(ply: int) -> None:
        happened.append(("wait", ply))
        if recorder is not None:  # every proposal sent so far was handled, and none is past the pause
            proposed = [event["ply"] for event in recorder.events() if event["kind"] == "ProposeText"]
            assert proposed == [1, 2, 3, 4, 5], proposed

    verdict = watch_game(game, engine, recorder, lambda report: happened.append(("move", report.ply)),
                         pause=Pause(5, wait))
    assert verdict == judge_for(engine)(game)
    moves = [("move", ply) for ply in range(1, OPERA_PLIES + 1)]
    assert happened == [*moves[:5], ("wait", 5), *moves[5:]]
    happened.clear()
    watch_game(game, engine, on_move=lambda report: None, pause=Pause(OPERA_PLIES, wait))
    assert happened == [], "a game that ends at the pause's ply has nothing to wait for"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process's state from /proc")
def test_replay_pause_after_stops_the_process_until_it_is_continued() -> None:
    import os
    import signal
    import time

    whole = chess_actors("replay", "--json")
    replay = subprocess.Popen([sys.executable, "-m", "actors.cli", "replay", "--json", "--pause-after", "10"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert replay.stderr is not None
        said = [replay.stderr.readline(), replay.stderr.readline()]
        assert said == [f"paused after ply 10 of game 1, no move in flight: this replay (pid {replay.pid}) "
                        "has stopped itself\n",
                        f"  go on with: kill -CONT {replay.pid} (or fg in its terminal)\n"]
        deadline = time.monotonic() + 30
        while (state := Path(f"/proc/{replay.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "T" \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert state == "T", "the replay did not stop itself"
        os.kill(replay.pid, signal.SIGCONT)
        stdout, stderr = replay.communicate(timeout=60)
    finally:
        if replay.poll() is None:
            replay.kill()
            replay.wait()
    assert (replay.returncode, stdout, stderr) == (0, whole.stdout, "going on after ply 10 of game 1\n")


@pytest.mark.parametrize(("args", "message"), [
    (["--pause-after", "0"], "argument --pause-after: '0' is not a ply (a whole number from 1)"),
    (["--pause-after", "ten"], "argument --pause-after: 'ten' is not a ply (a whole number from 1)"),
    (["--workers", "2", "--pause-after", "3"],
     "--pause-after needs the games judged in this process (drop --workers/--ray)"),
])
def test_a_pause_that_cannot_be_made_is_a_usage_error(args: list[str], message: str) -> None:
    result = chess_actors("replay", *args)
    assert (result.returncode, result.stdout) == (2, "")
    [line] = result.stderr.splitlines()
    assert message in line
