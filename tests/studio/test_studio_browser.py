"""The studio page read offline in a real browser: Debian's chromium driven by Playwright (the
``browser`` fixture, :mod:`tests.helpers.browser_pages`); the live page's tests are in
test_studio_live_browser.py.

Enable with ``apt-get install -y chromium`` and the ``test`` extra; with
``CHESS_ACTORS_BROWSER_TESTS=required`` a missing browser fails these tests instead of skipping them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chess
import pytest

from actors.game.replay import watch_game
from actors.studio import write_page
from actors.study.runner import run_scenario
from actors.study.script import read_scenario
from actors.tracing.event import TraceEvent
from actors.tracing.recorder import TraceRecorder
from board.notation.pgn import PgnGame, read_games
from tests.helpers.browser_pages import board_on_page, open_page, where

ROOT = Path(__file__).resolve().parents[2]


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


def _phase_labels(events: list[TraceEvent]) -> list[str]:
    from actors.studio.model import build_model

    return [phase["label"] for phase in build_model(events)["games"][0]["phases"]]


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
    page = open_page(browser, path)
    assert where(page) == (1, 0), "the page opens on the first ply"
    assert page.locator("#phase-title").inner_text().startswith("ply 1")
    page.keyboard.press("ArrowUp")  # the start-up above it is one line until opened
    assert where(page) == (0, 0)
    assert page.locator("#diagram g.arrow").count() == 0
    folded = page.locator("#diagram g.folded-startup")
    startup = sum(1 for event in events if event["phase"] == "startup")
    assert f"{startup} messages" in (folded.text_content() or "")
    folded.click()
    fan_out = page.locator("#diagram g.arrow.fan-out")  # the board's 32 TargetsQuery: one arrow
    assert fan_out.count() == 1 and fan_out.get_attribute("data-members") == "32"
    fan_out.click()
    assert page.locator("#diagram g.arrow").count() >= startup
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert where(page) == (0, 3)
    assert page.locator("#diagram g.arrow.current").first.get_attribute("data-index") == "3"
    page.keyboard.press("ArrowDown")
    assert where(page) == (1, 0)
    assert page.locator("#phase-title").inner_text().startswith(_phase_labels(events)[1])
    page.keyboard.press("ArrowLeft")  # back across the phase boundary: the start-up's last message
    assert where(page) == (0, startup)
    page.click("#next-ply")
    page.click("#next-ply")
    assert where(page) == (2, 0)
    page.click("#prev-msg")
    assert where(page)[0] == 1
    assert page.errors == []
    page.close()


def test_clicking_an_arrow_shows_its_request_and_reply_payloads(browser: Any, opera: Any) -> None:
    path, _, _ = opera
    page = open_page(browser, path, "#ply=3")  # 2. Nf3: the knight is asked about g1-f3
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
    page = open_page(browser, path, "#ply=3")
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
    page = open_page(browser, path, "#ply=3")
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
    page = open_page(browser, path, "#ply=12&msg=3")
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
    page = open_page(browser, path, "#ply=6")
    assert board_on_page(page) == _oracle(game, 5)
    page.locator("#diagram g.arrow.request[data-kind='MoveQuery']").first.click()
    marks = page.locator("#board rect[data-highlight]")
    seen = {
        marks.nth(i).get_attribute("data-square-highlight"): marks.nth(i).get_attribute("data-highlight")
        for i in range(marks.count())
    }
    between = {chess.square_name(square) for square in chess.SquareSet.between(chess.C8, chess.G4)}
    assert seen == {"c8": "from", "g4": "to", **dict.fromkeys(between, "path")}
    page.keyboard.press("ArrowDown")  # the next ply starts from the position after Bg4
    assert board_on_page(page) == _oracle(game, 6)
    page.close()


def test_the_game_picker_switches_between_the_games_of_a_trace(browser: Any, two_games: Path) -> None:
    page = open_page(browser, two_games)
    assert page.locator("#game-picker option").count() == 2
    page.select_option("#game-picker", "1")
    assert "game 2" in page.locator("#where").inner_text()
    assert page.locator("#deep-link").get_attribute("href").startswith("#game=2&")
    page.close()


def test_faults_healing_and_reasks_are_drawn_apart(browser: Any, crash: Path) -> None:
    page = open_page(browser, crash)
    assert page.locator("#chart rect.phase-heal").count() >= 1
    heal = int(page.locator("#chart rect.phase-heal").first.get_attribute("data-phase"))
    page.locator("#chart rect.phase-heal").first.click()
    assert page.locator("#phase-title").get_attribute("class") == "phase-heal"
    assert page.locator("#diagram g.arrow.restart").count() >= 1, "the restarted actor is marked"
    assert where(page) == (heal, 0)
    page.keyboard.press("ArrowUp")  # the step whose failure started the healing
    assert page.locator("#diagram g.arrow.fault").count() >= 1
    assert page.locator("#diagram g.arrow.reask").count() >= 1
    page.close()


def test_a_lost_message_ends_in_a_cross_and_its_retry_is_drawn_apart(browser: Any, tmp_path: Path) -> None:
    from actors.game.game import ActorGame
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
    page = open_page(browser, path, "#ply=1")
    dropped = page.locator("#diagram g.arrow.link-dropped")
    assert dropped.count() == 1
    assert dropped.locator("line").last.get_attribute("marker-end") == "url(#cross)"
    assert page.locator("#diagram g.arrow.link-retried").count() == 1
    assert page.locator("#diagram g.arrow.link-duplicated").count() == 1
    assert not page.errors
    page.close()


def test_screenshots_and_time_to_first_render(browser: Any, opera: Any, tmp_path: Path) -> None:
    path, _, _ = opera
    page = open_page(browser, path, "#ply=6&msg=2")
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
    page = open_page(browser, path, "#ply=200")
    ready = page.evaluate("window.studio.firstRenderAt")
    print(f"\n200-ply page: {size / 1e6:.2f} MB, first render {ready:.0f} ms after navigation start")
    last = int(page.locator("#slider").get_attribute("max"))
    page.locator("#slider").fill(str(last))
    assert board_on_page(page) == _oracle(game, 200)
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
    page = open_page(browser, path, "#ply=24")
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
    page = open_page(browser, path, "#ply=1")
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
