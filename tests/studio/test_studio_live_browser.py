"""The live studio's page in a real browser: Debian's chromium driven by Playwright (the ``browser``
fixture, :mod:`browser_pages`), against a studio served on 127.0.0.1 over a running game.

Enable with ``apt-get install -y chromium`` and the ``test`` extra; with
``CHESS_ACTORS_BROWSER_TESTS=required`` a missing browser fails these tests instead of skipping them.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest

from tests.helpers.browser_pages import board_on_page, open_page, where
from tests.helpers.extras import import_or_skip, needs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def live_studio() -> Iterator[str]:
    import_or_skip("websockets")  # the live server needs the studio extra
    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.server import StudioServer, serving_in_background

    with LiveGame() as live:
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server):
            yield server.url


def _type(page: Any, command: str) -> None:
    """Type ``command`` in the page's command box and send it, as a person does."""
    page.fill("#command", command)
    page.press("#command", "Enter")


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
    _type(page, "e5")
    page.wait_for_selector("body[data-plies='2']")
    page.click("#board rect[data-square='g1']")
    page.click("#board rect[data-square='f3']")
    page.wait_for_selector("body[data-plies='3']")
    board = chess.Board()
    for move in ("e4", "e5", "Nf3"):
        board.push_san(move)
    assert board_on_page(page) == {chess.square_name(s): p.symbol() for s, p in board.piece_map().items()}
    assert page.locator("#phase-title").inner_text().startswith("ply 3 · Nf3")
    _type(page, "Ke3")  # refused: a verdict in the log, and the game goes on
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
        _type(page, move)
        page.wait_for_selector(f"body[data-plies='{ply}']")
    assert page.locator("#phase-title").inner_text().startswith("ply 3 · Nf3"), "it follows the game"
    page.click("#prev-ply")
    page.click("#prev-ply")
    assert page.locator("#phase-title").inner_text().startswith("ply 1 · e4")
    looking_at = where(page)
    _type(page, "Nc6")
    page.wait_for_selector("body[data-plies='4']")
    page.wait_for_selector("#live-log :text('Nc6 accepted')")
    assert where(page) == looking_at, "a page looking back stays where it is"
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
    _type(page, "Nf3")
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
    _type(page, "e4")
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
    page.fill("#teach-geometry", "camel")
    page.click("#teach")
    page.wait_for_selector("#live-log :text('white-knight-g1 now moves as camel')")
    for move in ("e4", "e5", "Nf3"):
        _type(page, move)
    page.wait_for_selector("#live-log :text('no knight can reach f3')")  # a knight's move no longer
    page.select_option("#actor-pick", "board")
    page.click("#stall")
    page.wait_for_selector("#live-log :text('board answers nothing')")
    _type(page, "Nc3")
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
    _type(page, "e3")
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
    _type(page, "Nf3")
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
    page = open_page(browser, page_path)
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
    _type(page, "Nf3")
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


@needs("websockets")
def test_a_page_joining_a_long_game_late_fetches_every_phase_and_stays_on_the_newest(browser: Any) -> None:
    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.model import build_model
    from actors.studio.server import StudioServer, serving_in_background
    from board.notation.pgn import read_games

    with (ROOT / "tests" / "data" / "opera-game.pgn").open(encoding="utf-8") as file:
        [opera] = list(read_games(file))
    # A small page of phases: the first state holds the last few plies, the page asks for the rest.
    with LiveGame(page_characters=20_000) as live:
        assert live.run_lines([f"play {token.text}" for token in opera.moves]) == []
        whole = build_model(live.shell.recorder.events(), "chess-actors live studio")["games"][0]["phases"]
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server):
            page = _open_live(browser, server.url)
            page.wait_for_selector("body[data-base='0']", timeout=30_000)
            labels = page.evaluate("window.studio.data.games[0].phases.map((phase) => phase.label)")
            assert labels == [phase["label"] for phase in whole]
            assert page.locator("#phase-title").inner_text().startswith("ply 33 · Rd8#"), "on the newest"
            _type(page, "board")
            page.wait_for_selector("body[data-done='1']")
            count = page.evaluate("window.studio.data.games[0].phases.length")
            assert count == len(whole) + 1
            _stayed_home(page)
            page.close()
