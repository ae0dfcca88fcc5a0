"""The studio page in a real browser: Debian's chromium driven by Playwright.

Enable with ``apt-get install -y chromium`` and the ``test`` extra; with
``CHESS_ACTORS_BROWSER_TESTS=required`` a missing browser fails these tests instead of skipping them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest

from actors.client.replay import watch_game
from actors.scenario.runner import run_scenario
from actors.scenario.script import read_scenario
from actors.studio import write_page
from actors.tracing.recorder import TraceEvent, TraceRecorder
from board.notation.pgn import PgnGame, read_games

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHESS_ACTORS_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("CHESS_ACTORS_BROWSER_TESTS") == "required"
LAUNCH_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync",
]  # fmt: skip
HOW_TO_ENABLE = (
    "browser tests need Debian's chromium at /usr/bin/chromium (apt-get install -y chromium) and "
    "playwright (pip install -e '.[test]'); set CHESS_ACTORS_BROWSER_TESTS=required to make this an error"
)


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no chromium at {CHROMIUM}"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing is not None:
        if REQUIRED:
            pytest.fail(f"{missing}: {HOW_TO_ENABLE}")
        pytest.skip(f"{missing}: {HOW_TO_ENABLE}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


def _games(name: str) -> list[PgnGame]:
    with open(ROOT / "tests" / "data" / name, encoding="utf-8") as file:
        return list(read_games(file))


def _traced(games: list[PgnGame]) -> list[TraceEvent]:
    recorder = TraceRecorder()
    events: list[TraceEvent] = []
    for number, game in enumerate(games, start=1):
        recorder.game = number
        watch_game(game, "actors", recorder)
        events.extend(recorder.events())
        recorder.clear()
    return events


@pytest.fixture(scope="module")
def opera(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[TraceEvent], PgnGame]:
    [game] = _games("opera-game.pgn")
    events = _traced([game])
    path = tmp_path_factory.mktemp("studio") / "opera.html"
    write_page(events, path, "the Opera game")
    return path, events, game


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    games = _games("opera-game.pgn") + _games("immortal-game.pgn")
    path = tmp_path_factory.mktemp("studio") / "two.html"
    write_page(_traced(games), path)
    return path


@pytest.fixture(scope="module")
def crash(tmp_path_factory: pytest.TempPathFactory) -> Path:
    recorder = TraceRecorder()
    results = run_scenario(
        read_scenario(str(ROOT / "actors" / "examples" / "crash-and-restart.scenario")), recorder=recorder
    )
    assert all(result.ok for result in results)
    path = tmp_path_factory.mktemp("studio") / "crash.html"
    write_page(recorder.events(), path)
    return path


def _open(browser: Any, path: Path, fragment: str = "") -> Any:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri() + fragment)
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    page.errors = errors
    return page


def _where(page: Any) -> tuple[int, int]:
    body = page.locator("body")
    return int(body.get_attribute("data-phase")), int(body.get_attribute("data-msg"))


def _phase_labels(events: list[TraceEvent]) -> list[str]:
    from actors.studio.model import build_model

    return [phase["label"] for phase in build_model(events)["games"][0]["phases"]]


def _board(page: Any) -> dict[str, str]:
    pieces = page.locator("#board text.piece")
    return {
        pieces.nth(i).get_attribute("data-on"): pieces.nth(i).get_attribute("data-piece")
        for i in range(pieces.count())
    }


def _oracle(game: PgnGame, plies: int) -> dict[str, str]:
    board = chess.Board()
    for token in game.moves[:plies]:
        board.push_san(token.text)
    return {chess.square_name(square): piece.symbol() for square, piece in board.piece_map().items()}


def test_the_page_opens_from_disk_and_loads_nothing_from_the_network(browser: Any, opera: Any) -> None:
    path, _, _ = opera
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    assert [url for url in requests if not url.startswith(("file:", "data:"))] == []
    assert page.locator("#diagram g.arrow").count() > 0
    page.close()


def test_keys_step_message_by_message_and_ply_by_ply(browser: Any, opera: Any) -> None:
    path, events, _ = opera
    page = _open(browser, path)
    assert _where(page) == (1, 0), "the page opens on the first ply"
    assert page.locator("#phase-title").inner_text().startswith("ply 1")
    page.keyboard.press("ArrowUp")  # the start-up above it is one line until opened
    assert _where(page) == (0, 0)
    assert page.locator("#diagram g.arrow").count() == 0
    folded = page.locator("#diagram g.folded-startup")
    startup = sum(1 for event in events if event["phase"] == "startup")
    assert f"{startup} messages" in (folded.text_content() or "")
    folded.click()
    assert page.locator("#diagram g.arrow").count() >= startup
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert _where(page) == (0, 3)
    assert page.locator("#diagram g.arrow.current").first.get_attribute("data-index") == "3"
    page.keyboard.press("ArrowDown")
    assert _where(page) == (1, 0)
    assert page.locator("#phase-title").inner_text().startswith(_phase_labels(events)[1])
    page.keyboard.press("ArrowLeft")  # back across the phase boundary: the start-up's last message
    assert _where(page) == (0, startup)
    page.click("#next-ply")
    page.click("#next-ply")
    assert _where(page) == (2, 0)
    page.click("#prev-msg")
    assert _where(page)[0] == 1
    assert page.errors == []
    page.close()


def test_clicking_an_arrow_shows_its_request_and_reply_payloads(browser: Any, opera: Any) -> None:
    path, _, _ = opera
    page = _open(browser, path, "#ply=3")  # 2. Nf3: the knight is asked about g1-f3
    queries = page.locator("#diagram g.arrow.request[data-kind='MoveQuery']")
    asked = []
    for index in range(queries.count()):  # both knights are asked; the g1 knight says yes
        queries.nth(index).click()
        payload = json.loads(page.locator("#detail-payload").inner_text())
        asked.append(payload["start"])
        if payload["start"] == "g1":
            break
    assert (payload["start"], payload["end"], payload["colour"]) == ("g1", "f3", "white"), asked
    reply = json.loads(page.locator("#detail-reply-payload").inner_text())
    assert reply["traversed"] == [] and (reply["origin"], reply["target"]) == ("g1", "f3")
    assert page.locator("#detail-summary").inner_text().endswith("MoveQuery g1→f3")
    assert "handled in" in page.locator("#detail-timing").inner_text()
    page.close()


def test_filters_hide_kinds_and_actors_and_search_finds_text(browser: Any, opera: Any) -> None:
    path, _, _ = opera
    page = _open(browser, path, "#ply=3")
    assert page.locator("#diagram g.arrow[data-kind='MoveQuery']").count() > 0
    page.uncheck("#kind-filters input[data-kind='MoveQuery']")
    assert page.locator("#diagram g.arrow[data-kind='MoveQuery']").count() == 0
    page.check("#kind-filters input[data-kind='MoveQuery']")
    page.uncheck("#actor-filters input[data-actor='board']")
    assert page.locator("#diagram [data-lane='board']").count() == 0
    page.check("#actor-filters input[data-actor='board']")
    page.fill("#search", "moved to f3")
    kinds = {
        page.locator("#diagram g.arrow").nth(i).get_attribute("data-kind")
        for i in range(page.locator("#diagram g.arrow").count())
    }
    assert kinds == {"Moved"}
    page.close()


def test_selecting_a_message_highlights_its_causes_and_effects(browser: Any, opera: Any) -> None:
    path, events, _ = opera
    page = _open(browser, path, "#ply=3")
    proposal = page.locator("#diagram g.arrow.request[data-kind='ProposeText']")
    proposal.click()
    requests = page.locator("#diagram g.arrow.request")
    others = [
        requests.nth(i)
        for i in range(requests.count())
        if requests.nth(i).get_attribute("data-kind") != "ProposeText"
    ]
    assert others and all(arrow.get_attribute("data-causal") == "effect" for arrow in others)
    moved = page.locator("#diagram g.arrow.request[data-kind='Moved']")
    moved.click()
    chain = {int(moved.get_attribute("data-msg-id"))}
    by_id = {event["msg_id"]: event for event in events}
    parent = by_id[next(iter(chain))]["parent_id"]
    while parent is not None:
        chain.add(parent)
        parent = by_id[parent]["parent_id"]
    causes = page.locator("#diagram g.arrow.request[data-causal='cause']")
    assert {int(causes.nth(i).get_attribute("data-msg-id")) for i in range(causes.count())} == chain - {
        int(moved.get_attribute("data-msg-id"))
    }
    assert page.locator("#detail-causes").inner_text().startswith("caused by #")
    page.close()


def test_a_deep_link_opens_the_ply_and_message_it_names(browser: Any, opera: Any) -> None:
    path, events, _ = opera
    page = _open(browser, path, "#ply=12&msg=3")
    assert page.locator("#phase-title").inner_text().startswith("ply 12")
    phase_events = sorted(
        (event for event in events if event["phase"] == "ply 12"), key=lambda e: e["msg_id"]
    )
    assert (
        page.locator("#detail-summary").inner_text()
        == f"#{phase_events[2]['msg_id']} {phase_events[2]['summary']}"
    )
    page.keyboard.press("ArrowRight")
    assert page.locator("#deep-link").get_attribute("href").endswith("ply=12&msg=4")
    page.close()


def test_the_board_follows_the_moves_and_highlights_what_the_message_is_about(
    browser: Any, opera: Any
) -> None:
    path, _, game = opera
    # 3... Bg4 is ply 6: the bishop on c8 is asked about g4, through d7, e6 and f5.
    page = _open(browser, path, "#ply=6")
    assert _board(page) == _oracle(game, 5)
    page.locator("#diagram g.arrow.request[data-kind='MoveQuery']").first.click()
    marks = page.locator("#board rect[data-highlight]")
    seen = {
        marks.nth(i).get_attribute("data-square-highlight"): marks.nth(i).get_attribute("data-highlight")
        for i in range(marks.count())
    }
    between = {chess.square_name(square) for square in chess.SquareSet.between(chess.C8, chess.G4)}
    assert seen == {"c8": "from", "g4": "to", **dict.fromkeys(between, "path")}
    page.keyboard.press("ArrowDown")  # the next ply starts from the position after Bg4
    assert _board(page) == _oracle(game, 6)
    page.close()


def test_the_game_picker_switches_between_the_games_of_a_trace(browser: Any, two_games: Path) -> None:
    page = _open(browser, two_games)
    assert page.locator("#game-picker option").count() == 2
    page.select_option("#game-picker", "1")
    assert "game 2" in page.locator("#where").inner_text()
    assert page.locator("#deep-link").get_attribute("href").startswith("#game=2&")
    page.close()


def test_faults_healing_and_reasks_are_drawn_apart(browser: Any, crash: Path) -> None:
    page = _open(browser, crash)
    assert page.locator("#chart rect.phase-heal").count() >= 1
    heal = int(page.locator("#chart rect.phase-heal").first.get_attribute("data-phase"))
    page.locator("#chart rect.phase-heal").first.click()
    assert page.locator("#phase-title").get_attribute("class") == "phase-heal"
    assert page.locator("#diagram g.arrow.restart").count() >= 1, "the restarted actor is marked"
    assert _where(page) == (heal, 0)
    page.keyboard.press("ArrowUp")  # the step whose failure started the healing
    assert page.locator("#diagram g.arrow.fault").count() >= 1
    assert page.locator("#diagram g.arrow.reask").count() >= 1
    page.close()


def test_a_lost_message_ends_in_a_cross_and_its_retry_is_drawn_apart(browser: Any, tmp_path: Path) -> None:
    from actors.client.game import ActorGame
    from actors.kernel.links import LinkModel
    from actors.kernel.network import Network

    recorder = TraceRecorder()
    network = Network(LinkModel(), recorder)
    network.plan("Apply", "drop")
    network.plan("Moved", "duplicate")
    with ActorGame(recorder=recorder, network=network) as game:
        game.propose("e4")
    path = tmp_path / "links.html"
    write_page(recorder.events(), path)
    page = _open(browser, path, "#ply=1")
    dropped = page.locator("#diagram g.arrow.link-dropped")
    assert dropped.count() == 1
    assert dropped.locator("line").last.get_attribute("marker-end") == "url(#cross)"
    assert page.locator("#diagram g.arrow.link-retried").count() == 1
    assert page.locator("#diagram g.arrow.link-duplicated").count() == 1
    assert not page.errors
    page.close()


def test_screenshots_and_time_to_first_render(browser: Any, opera: Any, tmp_path: Path) -> None:
    path, _, _ = opera
    page = _open(browser, path, "#ply=6&msg=2")
    ready = page.evaluate("window.studio.firstRenderAt")
    script = page.evaluate("window.studio.renderMs")
    print(f"\nstudio first render: {ready:.1f} ms after navigation start (script {script:.1f} ms)")
    for name in ("overview", "selected"):
        shot = tmp_path / f"studio-{name}.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        page.keyboard.press("ArrowRight")
    assert ready < 5_000, f"the page took {ready:.0f} ms to first render"
    page.close()


def _random_game(plies: int) -> PgnGame:
    import io
    import random

    import chess.pgn

    for seed in range(1000):
        rng = random.Random(seed)
        board = chess.Board()
        while not board.is_game_over(claim_draw=True) and board.ply() < plies:
            board.push(rng.choice(sorted(board.legal_moves, key=lambda move: move.uci())))
        if board.ply() == plies:
            [game] = read_games(io.StringIO(str(chess.pgn.Game.from_board(board))))
            return game
    raise AssertionError(f"no seed gave a {plies}-ply game")


def test_a_200_ply_page_renders_fast_and_ends_on_the_games_last_position(
    browser: Any, tmp_path: Path
) -> None:
    game = _random_game(200)
    path = tmp_path / "long.html"
    size = write_page(_traced([game]), path)
    page = _open(browser, path, "#ply=200")
    ready = page.evaluate("window.studio.firstRenderAt")
    print(f"\n200-ply page: {size / 1e6:.2f} MB, first render {ready:.0f} ms after navigation start")
    last = int(page.locator("#slider").get_attribute("max"))
    page.locator("#slider").fill(str(last))
    assert _board(page) == _oracle(game, 200)
    assert size < 4_000_000, "twice the plies of the 2 MB budget for a 100-ply page"
    assert page.errors == []
    page.close()


def _marks(page: Any) -> dict[str, str]:
    marks = page.locator("#board rect[data-highlight]")
    return {
        marks.nth(i).get_attribute("data-square-highlight"): marks.nth(i).get_attribute("data-highlight")
        for i in range(marks.count())
    }


def test_blockers_and_the_king_in_check_are_highlighted_from_the_replies(browser: Any, opera: Any) -> None:
    path, _, game = opera
    # 12... Rd8 (ply 24): both rooks might go to d8; the board reports the bishop on f8 in the way.
    page = _open(browser, path, "#ply=24")
    page.locator("#diagram g.arrow.request[data-kind='Survey']").first.click()
    reply = json.loads(page.locator("#detail-reply-payload").inner_text())
    reports = [piece["report"] for piece in reply["pieces"] if piece["report"]]
    blockers = {report["blocker"]["square"] for report in reports if report["blocker"]}
    assert blockers and all(_marks(page)[square] == "blocker" for square in blockers)
    # 11. Bxb5+ (ply 21): the board's assessment names the king in check and who attacks it.
    page.goto(path.as_uri() + "#ply=21")
    page.locator("#diagram g.arrow.request[data-kind='Apply']").first.click()
    board = chess.Board()
    for token in game.moves[:21]:
        board.push_san(token.text)
    assert board.is_check()
    king = chess.square_name(board.king(chess.BLACK))
    marks = _marks(page)
    assert marks[king] == "king"
    assert {chess.square_name(square) for square in board.checkers()} <= set(marks)
    page.close()


def test_the_notebook_view_steps_without_a_script_error(browser: Any, opera: Any) -> None:
    from actors.studio import inline_html

    _, events, _ = opera
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_content(inline_html(events))  # as a notebook shows it: the page in a srcdoc frame
    frame = page.frame_locator("iframe")
    frame.locator("body[data-ready='1']").wait_for(timeout=10_000)
    body = frame.locator("body")
    start = int(body.get_attribute("data-phase") or -1)
    frame.locator("#prev-ply").click()
    frame.locator("#next-msg").click()
    frame.locator("#next-msg").click()
    assert int(body.get_attribute("data-phase") or -1) == start - 1
    assert body.get_attribute("data-msg") == "2"
    # The frame opens on the last ply (Rd8#, the 33rd); one ply back is the 32nd.
    assert frame.locator("#deep-link").get_attribute("href") == "#game=1&ply=32&msg=2"
    assert errors == []
    page.close()


# --- the offline page's first view ---------------------------------------------------------------


def test_lanes_fit_the_window_at_1024_pixels_in_every_phase(browser: Any, opera: Any) -> None:
    path, _, _ = opera
    page = browser.new_page(viewport={"width": 1024, "height": 768})
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    overflowing = page.evaluate("""() => {
        const found = [];
        const scroll = document.getElementById("diagram-scroll");
        window.studio.data.games[0].phases.forEach((phase, index) => {
            if (phase.kind === "startup") return;  // folded; opened, its 37 lanes scroll sideways
            window.studio.go(index, 0);
            const box = scroll.getBoundingClientRect();
            for (const head of document.querySelectorAll("#diagram .lane-head")) {
                const lane = head.getBoundingClientRect();
                const name = head.getAttribute("data-lane");
                const outside = lane.left < box.left - 1 || lane.right > box.right + 1;
                if (outside) found.push(`${phase.label}: ${name}`);
            }
            if (scroll.scrollWidth > scroll.clientWidth + 1) found.push(`${phase.label}: scrolls sideways`);
        });
        return found;
    }""")
    assert overflowing == [], f"{len(overflowing)} lanes outside the window: {overflowing[:10]}"
    # Narrow lanes carry short names; the full name is on hover.
    page.evaluate("window.studio.go(3, 0)")  # ply 3, 2. Nf3: both white knights are asked
    knight = page.locator("#diagram .lane-head[data-lane='white-knight-g1']")
    assert knight.locator("title").text_content() == "white-knight-g1"
    assert (knight.text_content() or "").startswith("♘g1")
    # ... and in the detail panel of a message it sends or receives.
    page.locator("#diagram g.arrow.request[data-kind='MoveQuery']").last.click()
    assert page.locator("#detail-route").inner_text().startswith("referee → white-knight-")
    page.close()


def test_search_finds_matches_across_the_whole_game_and_jumps_to_them(browser: Any, opera: Any) -> None:
    path, events, _ = opera
    page = _open(browser, path, "#ply=1")
    page.fill("#search", "moved to f3")  # not in ply 1: the page goes where it is
    wanted = sorted({event["phase"] for event in events if event["summary"] == "Moved to f3"},
                    key=lambda label: int(label.split()[1]))
    assert len(wanted) >= 2, wanted
    assert page.locator("#phase-title").inner_text().startswith(wanted[0] + " ")
    assert f"in {len(wanted)} phases" in page.locator("#search-status").inner_text()
    assert page.locator("#search-status").inner_text().startswith(f"1 of {len(wanted)} matches")
    page.press("#search", "Enter")  # the next match, in a later phase
    assert page.locator("#phase-title").inner_text().startswith(wanted[1] + " ")
    assert page.locator("#search-status").inner_text().startswith(f"2 of {len(wanted)} matches")
    page.press("#search", "Shift+Enter")  # and back
    assert page.locator("#phase-title").inner_text().startswith(wanted[0] + " ")
    page.close()


# --- the live studio -----------------------------------------------------------------------------


@pytest.fixture
def live_studio() -> Iterator[str]:
    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.server import StudioServer, serving_in_background

    with LiveGame() as live:
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server):
            yield server.url


def _open_live(browser: Any, url: str) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("request", lambda request: requests.append(request.url))
    page.on("websocket", lambda socket: requests.append(socket.url))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1'][data-plies]", timeout=10_000)
    page.problems, page.requests = problems, requests
    return page


def _stayed_home(page: Any) -> None:
    assert page.problems == []
    hosts = {url.split("/")[2].split(":")[0] for url in page.requests}
    assert hosts == {"127.0.0.1"}, page.requests


def test_the_live_page_plays_moves_by_clicking_and_by_typing(browser: Any, live_studio: str) -> None:
    page = _open_live(browser, live_studio)
    page.click("#board rect[data-square='e2']")
    assert page.locator("#board rect[data-selected='e2']").count() == 1
    page.click("#board rect[data-square='e4']")
    page.wait_for_selector("body[data-plies='1']")
    page.fill("#command", "e5")
    page.press("#command", "Enter")
    page.wait_for_selector("body[data-plies='2']")
    page.click("#board rect[data-square='g1']")
    page.click("#board rect[data-square='f3']")
    page.wait_for_selector("body[data-plies='3']")
    board = chess.Board()
    for move in ("e4", "e5", "Nf3"):
        board.push_san(move)
    assert _board(page) == {chess.square_name(s): p.symbol() for s, p in board.piece_map().items()}
    assert page.locator("#phase-title").inner_text().startswith("ply 3 · Nf3")
    page.fill("#command", "Ke3")  # refused: a verdict in the log, and the game goes on
    page.press("#command", "Enter")
    page.wait_for_selector("#live-log .error")
    assert "Ke3 refused" in page.locator("#live-log").inner_text()
    _stayed_home(page)
    page.close()


def test_a_second_tab_sees_the_same_game(browser: Any, live_studio: str) -> None:
    first, second = _open_live(browser, live_studio), _open_live(browser, live_studio)
    first.fill("#command", "d4")
    first.press("#command", "Enter")
    second.wait_for_selector("body[data-plies='1']")
    assert second.locator("#phase-title").inner_text().startswith("ply 1 · d4")
    assert "d4 accepted" in second.locator("#live-log").inner_text()
    for page in (first, second):
        _stayed_home(page)
        page.close()


def test_the_live_page_steps_back_through_history_and_stays_there_as_the_game_goes_on(
    browser: Any, live_studio: str
) -> None:
    page = _open_live(browser, live_studio)
    for ply, move in enumerate(("e4", "e5", "Nf3"), start=1):
        page.fill("#command", move)
        page.press("#command", "Enter")
        page.wait_for_selector(f"body[data-plies='{ply}']")
    assert page.locator("#phase-title").inner_text().startswith("ply 3 · Nf3"), "it follows the game"
    page.click("#prev-ply")
    page.click("#prev-ply")
    assert page.locator("#phase-title").inner_text().startswith("ply 1 · e4")
    looking_at = _where(page)
    page.fill("#command", "Nc6")
    page.press("#command", "Enter")
    page.wait_for_selector("body[data-plies='4']")
    page.wait_for_selector("#live-log :text('Nc6 accepted')")
    assert _where(page) == looking_at, "a page looking back stays where it is"
    assert page.locator("#phase-title").inner_text().startswith("ply 1 · e4")
    page.click("#next-ply")
    assert page.locator("#phase-title").inner_text().startswith("ply 2 · e5")
    _stayed_home(page)
    page.close()


def test_step_mode_lists_the_waiting_deliveries_and_a_click_delivers_one(
    browser: Any, live_studio: str
) -> None:
    page = _open_live(browser, live_studio)
    page.click("#mode-step")
    page.wait_for_selector("#mode-step[aria-pressed='true']")
    page.fill("#command", "Nf3")
    page.press("#command", "Enter")
    page.wait_for_selector("#pending-list button[data-deliver='1']")
    assert "Propose Nf3" in page.locator("#pending-list").inner_text()
    page.click("#pending-list button[data-deliver='1']")
    page.wait_for_selector("#pending-list button[data-deliver='3']")  # the referee asks three at once
    listed = page.locator("#pending-list").inner_text()
    assert "white-knight-g1 ← referee: MoveQuery g1→f3" in listed and "board ← referee" in listed
    page.click("#run-rest")
    page.wait_for_selector("body[data-plies='1']")
    assert page.locator("#pending-list li").count() == 0
    _stayed_home(page)
    page.close()


def test_a_crash_from_its_button_is_healed_and_the_heal_is_shown(browser: Any, live_studio: str) -> None:
    page = _open_live(browser, live_studio)
    page.select_option("#actor-pick", "board")
    page.click("#crash")
    page.wait_for_selector("#live-log :text('board crashed')")
    page.fill("#command", "e4")
    page.press("#command", "Enter")
    page.wait_for_selector("body[data-plies='1'][data-restarts='1']")
    assert page.locator("#live-log .heal").inner_text() == "the supervisor restarted board"
    assert page.locator("#chart rect.phase-heal").count() >= 1
    _stayed_home(page)
    page.close()


def test_a_lesson_and_a_stall_from_their_buttons_change_the_verdicts_and_the_stall_is_healed(
    browser: Any, live_studio: str
) -> None:
    page = _open_live(browser, live_studio)
    page.fill("#teach-square", "g1")
    page.select_option("#teach-geometry", "camel")
    page.click("#teach")
    page.wait_for_selector("#live-log :text('white-knight-g1 now moves as camel')")
    for move in ("e4", "e5", "Nf3"):
        page.fill("#command", move)
        page.press("#command", "Enter")
    page.wait_for_selector("#live-log :text('no knight can reach f3')")  # a knight's move no longer
    page.select_option("#actor-pick", "board")
    page.click("#stall")
    page.wait_for_selector("#live-log :text('board answers nothing')")
    page.fill("#command", "Nc3")
    page.press("#command", "Enter")
    page.wait_for_selector("body[data-plies='3'][data-restarts='1']", timeout=30_000)
    assert "the supervisor found board silent" in page.locator("#live-log .heal").inner_text()
    assert page.locator("#chart rect.phase-heal").count() >= 1
    _stayed_home(page)
    page.close()


def test_the_board_lies_from_its_button_and_the_referee_believes_it(browser: Any, live_studio: str) -> None:
    page = _open_live(browser, live_studio)
    page.fill("#lie-clauses", "hide e2")
    page.click("#lie")
    page.wait_for_selector("#live-log :text('the piece on e2 hidden')")
    page.fill("#command", "e3")
    page.press("#command", "Enter")
    page.wait_for_selector("#live-log :text('no pawn can reach e3')")
    page.click("#truth")
    page.wait_for_selector("#live-log :text('the board tells the truth')")
    page.click("#board rect[data-square='e2']")
    page.click("#board rect[data-square='e3']")
    page.wait_for_selector("body[data-plies='1']")
    _stayed_home(page)
    page.close()


def test_step_mode_drops_and_duplicates_a_waiting_message_from_the_page(
    browser: Any, live_studio: str
) -> None:
    page = _open_live(browser, live_studio)
    page.click("#mode-step")
    page.wait_for_selector("#mode-step[aria-pressed='true']")
    page.fill("#command", "Nf3")
    page.press("#command", "Enter")
    page.wait_for_selector("#pending-list button[data-deliver='1']")
    assert page.locator("#pending-list button[data-drop='1']").count() == 1
    assert page.locator("#pending-list button[data-duplicate='1']").count() == 1
    page.click("#pending-list button[data-deliver='1']")
    page.wait_for_selector("#pending-list button[data-deliver='3']")
    page.click("#pending-list button[data-drop='3']")  # the board's Survey is lost on its link
    page.wait_for_selector("#live-log :text('dropped: board <- referee: Survey')")
    page.wait_for_selector("#pending-list li.travelling")
    assert "board ← referee: Survey" in page.locator("#pending-list li.travelling").inner_text()
    dropped = page.locator("#diagram g.arrow.link-dropped")
    dropped.first.wait_for()
    assert dropped.count() == 1
    assert dropped.locator("line").last.get_attribute("marker-end") == "url(#cross)"
    assert page.locator("#diagram g.arrow.link-retried").count() == 1
    page.click("#pending-list button[data-duplicate='1']")  # a knight's MoveQuery arrives twice
    page.wait_for_selector("#live-log :text('the copy arrives too')")
    page.locator("#diagram g.arrow.link-duplicated").first.wait_for()
    page.click("#run-rest")
    page.wait_for_selector("body[data-plies='1']")
    assert "Nf3 accepted" in page.locator("#live-log").inner_text()
    assert page.locator("#diagram g.arrow.request[data-kind='Survey']").count() == 1, "handled once"
    _stayed_home(page)
    page.close()


def test_an_explore_counterexample_page_shows_both_orders_and_marks_where_they_part(
    browser: Any, tmp_path: Path
) -> None:
    page_path = tmp_path / "lost.html"
    done = subprocess.run(
        [sys.executable, "-m", "actors.cli", "explore", "--network", "loss=0.3,retries=0,seed=1",
         "--plies", "3", "--orders", "5", "--counterexample", str(tmp_path / "lost.jsonl"),
         "--html", str(page_path)],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    page = _open(browser, page_path)
    assert page.locator("#compare").is_visible()
    assert page.locator("#compare-title").inner_text() == "ply 3 Nf3: the orders part at delivery 3"
    assert page.locator("#compare-left-label").inner_text() == "arrival order over reliable links"
    marked = page.locator("#compare li.first-difference")
    assert marked.count() == 2
    assert marked.nth(0).inner_text() == "white-knight-g1 ← referee: MoveQuery g1→f3"
    assert marked.nth(1).inner_text().startswith("referee ← white-knight-b1: Dropped")
    assert page.locator("#compare-left li:not(.after):not(.first-difference)").count() == 2
    assert not page.errors
    page.close()


def test_the_live_page_compares_a_stepped_move_with_arrival_order(browser: Any, live_studio: str) -> None:
    page = _open_live(browser, live_studio)
    page.click("#mode-step")
    page.wait_for_selector("#mode-step[aria-pressed='true']")
    page.fill("#command", "Nf3")
    page.press("#command", "Enter")
    page.wait_for_selector("#pending-list button[data-deliver='1']")
    page.click("#pending-list button[data-deliver='1']")
    page.wait_for_selector("#pending-list button[data-deliver='3']")
    page.click("#pending-list button[data-deliver='3']")  # the board's Survey before the knights
    page.wait_for_selector("#live-log :text('delivered: board <- referee: Survey')")
    page.click("#run-rest")
    page.wait_for_selector("body[data-plies='1']")
    page.click("#compare-orders")
    page.wait_for_selector("#compare li.first-difference")
    assert page.locator("#compare-title").inner_text() == "ply 1 Nf3: the orders part at delivery 2"
    marked = page.locator("#compare li.first-difference")
    assert [marked.nth(i).inner_text() for i in range(2)] == [
        "white-knight-b1 ← referee: MoveQuery b1→f3", "board ← referee: Survey white knights → f3"]
    assert page.locator("#compare-right-label").inner_text() == "as it ran here"
    _stayed_home(page)
    page.close()
