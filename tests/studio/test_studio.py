"""The studio's data and the commands that write it: the board following real games, phases, games,
the trace format's new fields end to end, and bad trace files refused in one line."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actors.studio import page_html
from actors.studio.model import START_PLACEMENT, apply_uci, build_model, parse_placement, placement_text
from actors.tracing.export import read_jsonl

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def chess_actors(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import sys; from actors.cli import main; sys.exit(main())", *args],
        cwd=cwd, capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120))
def test_the_board_follows_random_legal_games_like_python_chess(choices: list[int]) -> None:
    # Random legal play reaches castling, en passant and promotion, which a tidy opening would not.
    board = chess.Board()
    squares = parse_placement(START_PLACEMENT)
    for choice in choices:
        moves = sorted(board.legal_moves, key=lambda move: move.uci())
        if not moves:
            break
        move = moves[choice % len(moves)]
        board.push(move)
        apply_uci(squares, move.uci())
        assert placement_text(squares) == board.board_fen(), f"after {move.uci()} in {board.fen()}"


@settings(max_examples=40, deadline=None)
@given(number=st.integers(min_value=0, max_value=959),
       choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=120))
def test_the_board_follows_random_chess960_games_like_python_chess(number: int, choices: list[int]) -> None:
    # Castling whenever it can: the king takes its own rook in UCI, and may stay or land on its square.
    board = chess.Board.from_chess960_pos(number)
    squares = parse_placement(board.board_fen())
    for choice in choices:
        moves = sorted(board.legal_moves, key=lambda move: (not board.is_castling(move), move.uci()))
        if not moves:
            break
        castlings = [move for move in moves if board.is_castling(move)]
        move = castlings[choice % len(castlings)] if castlings and choice % 2 else moves[choice % len(moves)]
        uci = board.uci(move, chess960=True)
        board.push(move)
        apply_uci(squares, uci)
        assert placement_text(squares) == board.board_fen(), f"after {uci} in {board.fen()}"


def _page_data(text: str) -> dict[str, object]:
    match = re.search(r'<script id="trace-data" type="application/json">(.*?)</script>', text, re.S)
    assert match is not None
    data: dict[str, object] = json.loads(match.group(1).replace("<\\/", "</"))
    return data


def test_replay_writes_a_page_with_every_ply_of_every_game(tmp_path: Path) -> None:
    page = tmp_path / "study.html"
    trace = tmp_path / "t.jsonl"
    games = [DATA / "opera-game.pgn", DATA / "immortal-game.pgn"]
    result = chess_actors("replay", *map(str, games), "--json", "--html", str(page), "--trace", str(trace))
    assert result.returncode == 0, result.stderr
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    text = page.read_text(encoding="utf-8")
    assert "<script src" not in text and "<link" not in text and "http" not in text.split("<script")[0]
    data = _page_data(text)
    # The last FenQuery (the verdict's FEN) sits in a ply of its own with no move in it.
    played = [[phase for phase in game["phases"] if phase["move"]] for game in data["games"]]  # type: ignore[attr-defined]
    assert [len(phases) for phases in played] == [verdict["plies"] for verdict in verdicts]
    for verdict, phases in zip(verdicts, played, strict=True):
        assert phases[-1]["after"] == verdict["fen"].split()[0], "the board ends where the game ended"
        assert all(phase["kind"] == "ply" for phase in phases)
        assert all(sum(event["kind"] == "ProposeText" for event in phase["events"]) == 1 for phase in phases)
    events = read_jsonl(trace.read_text(encoding="utf-8").splitlines())
    assert {event.get("game") for event in events} == {1, 2}
    assert {event.get("format") for event in events} == {2}


def test_trace_to_html_markdown_and_one_game(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    games = [DATA / "opera-game.pgn", DATA / "immortal-game.pgn"]
    assert chess_actors("replay", *map(str, games), "--json", "--trace", str(trace)).returncode == 0
    page = tmp_path / "study.html"
    result = chess_actors("trace", str(trace), "--to", "html", "-o", str(page), "--game", "2")
    assert result.returncode == 0, result.stderr
    data = _page_data(page.read_text(encoding="utf-8"))
    assert [game["number"] for game in data["games"]] == [2]  # type: ignore[index]
    markdown = chess_actors("trace", str(trace), "--to", "markdown", "--game", "1", "--plies", "1-1")
    assert markdown.returncode == 0, markdown.stderr
    lines = markdown.stdout.splitlines()
    assert lines[0] == "```mermaid" and lines[1] == "sequenceDiagram" and lines[-1] == "```"
    assert sum("Note over" in line for line in lines) == 1, "one ply of one game, and no start-up"
    assert "Propose e4" in markdown.stdout
    both = chess_actors("trace", str(trace), "--to", "mermaid", "--plies", "1-1").stdout.splitlines()
    notes = [line.strip() for line in both if "Note over" in line]
    assert notes == [
        "Note over client,referee: game 1 ply 1: e4",
        "Note over client,referee: game 2 ply 1: e4",
    ]
    perfetto = json.loads(chess_actors("trace", str(trace), "--to", "perfetto").stdout)
    processes = {item["args"]["name"] for item in perfetto["traceEvents"] if item["name"] == "process_name"}
    assert processes == {"game 1", "game 2"}
    startup = [
        item for item in perfetto["traceEvents"] if item.get("cat") == "phase" and item["name"] == "startup"
    ]
    assert len(startup) == 2, "each game's start-up is a slice of its own"
    asks = [
        item for item in perfetto["traceEvents"] if item.get("cat") == "ask" and item["name"] == "MoveQuery"
    ]
    assert asks and all("reply_payload" in item["args"] for item in asks)


def test_run_writes_a_page_with_the_steps_and_the_healing(tmp_path: Path) -> None:
    page = tmp_path / "crash.html"
    scenario = ROOT / "actors" / "examples" / "crash-and-restart.scenario"
    result = chess_actors("run", str(scenario), "--html", str(page))
    assert result.returncode == 0, result.stderr
    kinds = {phase["kind"] for phase in _page_data(page.read_text(encoding="utf-8"))["games"][0]["phases"]}  # type: ignore[index]
    assert {"startup", "step", "heal"} <= kinds


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"format":2,"msg_id":1,"parent_id":null,"sender":"client","rec', "line 1: not JSON"),
        ('{"name": "a log line from some other tool", "level": "info"}', "line 1: missing field 'msg_id'"),
        (
            '{"format":9,"msg_id":1,"parent_id":null,"sender":"a","receiver":"b","kind":"K","t_sent":1,"t_handled":2}',
            "trace format 9 is not one this version reads",
        ),
        (
            '{"format":2,"msg_id":1,"parent_id":null,"sender":"a","receiver":"b","kind":"K","t_sent":1,'
            '"t_handled":2,"phase":3}',
            "field 'phase' must be a string or null",
        ),
    ],
)
def test_truncated_or_foreign_trace_files_exit_2_in_one_line(
    tmp_path: Path, content: str, expected: str
) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_text(content + "\n", encoding="utf-8")
    for to in ("html", "mermaid"):
        result = chess_actors("trace", str(path), "--to", to, "-o", str(tmp_path / "out"))
        assert result.returncode == 2, result.stderr
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr
        assert expected in result.stderr and str(path) in result.stderr
    assert not (tmp_path / "out").exists(), "nothing is written for a bad trace"


def test_an_old_format_trace_still_makes_a_page() -> None:
    events = read_jsonl((DATA / "sample.trace.jsonl").read_text(encoding="utf-8").splitlines())
    model = build_model(events)
    assert [phase["label"] for phase in model["games"][0]["phases"]] == ["ply 1", "ply 2"]
    assert "<script" in page_html(events)


def test_html_flags_refuse_what_they_cannot_do(tmp_path: Path) -> None:
    result = chess_actors("replay", "--engine", "direct", "--html", str(tmp_path / "x.html"))
    assert result.returncode == 2 and "--html needs the actor engine" in result.stderr
    result = chess_actors("trace", str(DATA / "sample.trace.jsonl"), "--to", "html", "--game", "3")
    assert result.returncode == 2 and "--game 3: no such game" in result.stderr


def test_notebook_views_show_boards_and_readable_reprs() -> None:
    import xml.etree.ElementTree as ElementTree

    from actors.game.game import ActorGame
    from actors.studio.notebook import StudioView
    from actors.tracing.recorder import TraceRecorder
    from board.games.game import Game

    direct = Game()
    played = direct.play("Nf3")
    assert repr(played) == "Played('g1f3', san='Nf3', check=False, outcome=None)"
    assert repr(direct) == f"Game(plies=1, last='g1f3', fen={direct.fen()!r})"
    assert repr(direct.position) == f"Position({direct.fen()!r})"
    svg = ElementTree.fromstring(direct._repr_svg_())
    glyphs = [
        node.text for node in svg.iter("{http://www.w3.org/2000/svg}text") if node.text in set("♙♘♗♖♕♔♟♞♝♜♛♚")
    ]
    assert len(glyphs) == 32
    assert ElementTree.fromstring(direct.position._repr_svg_()) is not None

    recorder = TraceRecorder()
    with ActorGame(recorder=recorder) as game:
        game.propose("Nf3")

        def sent() -> int:  # the client's journal write after the move may land at any moment
            return sum(event["receiver"] != "journal" for event in recorder.events())

        before = sent()
        assert game._repr_svg_() == direct._repr_svg_(), "the actors' board is the direct engine's"
        assert repr(game) == f"ActorGame(plies=1, last='g1f3', fen={direct.fen()!r})"
        assert sent() == before, "looking at a game sends no message"
    frame = StudioView(recorder)._repr_html_()
    assert frame.startswith("<iframe srcdoc=") and "&quot;opening&quot;:&quot;ply=1&quot;" in frame
    assert not hasattr(recorder, "_repr_html_"), "the recorder knows nothing of the page"
    assert StudioView(recorder.events(), ply=1)._repr_html_() == frame, "events are shown as the recorder"


@pytest.mark.parametrize("text", ["<!--", "</script><script>alert(1)</script>", "{{data}}", "/*{{script}}*/",
                                  "{{title}} & /*{{style}}*/ -->", "\u2028\u2029"], ids=repr)
def test_any_text_in_a_trace_or_a_title_is_embedded_as_itself(text: str) -> None:
    # The page's JSON must parse back to exactly the model, and the template must fill each of its
    # places once: nothing a trace or a path holds is taken for markup or for a place to fill.
    lines = (DATA / "sample.trace.jsonl").read_text(encoding="utf-8").splitlines()
    events = read_jsonl([json.dumps({**json.loads(line), "summary": text}) for line in lines])
    page = page_html(events, title=f"chess-actors studio: {text}")
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.DOTALL)
    assert len(scripts) == 2, "some text closed or opened a script element"
    assert "<!--" not in scripts[0]
    model = build_model(events, f"chess-actors studio: {text}")
    model["opening"] = None
    assert json.loads(scripts[0]) == model
    shown_title = re.search(r"<title>(.*?)</title>", page, re.DOTALL)
    assert shown_title is not None and html.unescape(shown_title[1]) == f"chess-actors studio: {text}"
    assert scripts[1].startswith((ROOT / "actors" / "studio" / "page.js").read_text(encoding="utf-8")[:40])


def test_a_replay_past_what_a_page_shows_keeps_no_more_and_says_how_to_choose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import actors.studio
    from actors.cli import main

    monkeypatch.setattr(actors.studio, "PAGE_MESSAGES", 300)  # the Opera game alone sends 240
    page = tmp_path / "page.html"
    status = main(["replay", str(DATA / "famous.pgn"), "--html", str(page), "--json"])
    out, err = capsys.readouterr()
    assert status == 2 and not page.exists()
    assert len(out.splitlines()) == 7  # every verdict is still printed
    assert err == (f"chess-actors replay: --html {page}: more than 300 messages by game 2, more than one "
                   "page shows; replay fewer games, or write --trace PATH and draw chosen games or plies "
                   "with 'chess-actors trace PATH --to html --game N --plies A-B'\n")


def test_trace_to_jsonl_copies_its_spool_out_in_blocks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import actors.cli.trace
    from actors.cli import main

    monkeypatch.setattr(actors.cli.trace, "COPY_CHARACTERS", 100)
    written: list[int] = []
    original = sys.stdout.write

    def counting(text: str) -> int:
        written.append(len(text))
        return original(text)

    monkeypatch.setattr(sys.stdout, "write", counting)
    assert main(["trace", str(DATA / "sample.trace.jsonl"), "--to", "jsonl"]) == 0
    out, _ = capsys.readouterr()
    assert len(out) > 1000 and max(written) <= 100
    assert [json.loads(line)["msg_id"] for line in out.splitlines()] == [
        json.loads(line)["msg_id"] for line in (DATA / "sample.trace.jsonl").read_text().splitlines()
    ]


@given(st.text(max_size=40))
@settings(max_examples=50, deadline=None)
def test_a_page_written_a_piece_at_a_time_is_the_page_made_whole(text: str) -> None:
    import tempfile

    from actors.studio import write_page

    events = read_jsonl((DATA / "sample.trace.jsonl").read_text(encoding="utf-8").splitlines())
    events = [dict(event, summary=f"<!-- {{{{data}}}} {text} </script> &") for event in events]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html"
        written = write_page(events, path, f"title {text} {{{{data}}}}")
        on_disk = path.read_bytes()
    whole = page_html(events, f"title {text} {{{{data}}}}").encode("utf-8")
    assert on_disk == whole and written == len(whole)
