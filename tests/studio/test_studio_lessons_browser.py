"""The studio draws a taught piece's moves: its lesson (in Betza notation when it has one) and a small
diagram of where it can go from its square, in Debian's chromium (see browser_pages)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from actors.studio import write_page
from actors.study.runner import run_scenario
from actors.study.script import parse_scenario
from actors.tracing.recorder import TraceRecorder
from board.rules.geometry import geometry_named, reach
from board.rules.pieces import WHITE
from board.rules.squares import SQUARE_INDEX, SQUARE_NAMES
from tests.helpers.browser_pages import open_page
from tests.helpers.extras import needs

SCENARIO = """\
start startpos
learn b1 NC
Nc4
e5
learn c1 mBcF
learn f1 camel
"""


def _reach(lesson: str, square: str) -> dict[str, str]:
    """target -> rule of ``lesson`` for a white piece on ``square``, as the diagram should draw it."""
    return {
        SQUARE_NAMES[target]: rule
        for target, _, rule in reach(geometry_named(lesson), WHITE, SQUARE_INDEX[square])
    }


@pytest.fixture(scope="module")
def taught(tmp_path_factory: pytest.TempPathFactory) -> Path:
    recorder = TraceRecorder()
    results = run_scenario(parse_scenario(SCENARIO, "lessons.scenario"), recorder=recorder)
    assert all(result.ok for result in results)
    path = tmp_path_factory.mktemp("studio") / "lessons.html"
    write_page(recorder.events(), path, "lessons")
    return path


def _phase(page: Any, label: str) -> int:
    """The index of the phase labelled ``label`` (a scenario's step N is its line N, a move its ply)."""
    labels: list[str] = page.evaluate("window.studio.data.games[0].phases.map((phase) => phase.label)")
    return labels.index(label)


def _drawn(page: Any) -> dict[str, str]:
    circles = page.locator("#lesson-diagram circle")
    return {circles.nth(i).get_attribute("data-reach"): circles.nth(i).get_attribute("data-rule")
            for i in range(circles.count())}


def _show_end_of(page: Any, index: int) -> None:
    page.evaluate(f"window.studio.go({index}, window.studio.data.games[0].phases[{index}].events.length)")


def test_a_lesson_just_taught_shows_its_betza_string_and_where_the_piece_can_go(
    browser: Any, taught: Path
) -> None:
    page = open_page(browser, taught)
    _show_end_of(page, _phase(page, "step 2"))
    panel = page.locator("#lesson-panel")
    assert panel.is_visible()
    assert (panel.get_attribute("data-square"), panel.get_attribute("data-betza")) == ("b1", "NC")
    assert "Betza NC" in page.locator("#lesson-title").inner_text()
    assert _drawn(page) == _reach("NC", "b1")
    assert not page.errors


def test_a_taught_piece_clicked_after_it_moved_shows_its_moves_from_its_new_square(
    browser: Any, taught: Path
) -> None:
    page = open_page(browser, taught)
    _show_end_of(page, _phase(page, "ply 1"))
    assert page.locator("#lesson-panel").is_hidden()  # nothing taught in this ply, nothing chosen
    page.locator("#board rect[data-square='c4']").click()
    assert page.locator("#lesson-panel").get_attribute("data-square") == "c4"
    assert _drawn(page) == _reach("NC", "c4")
    page.locator("#board rect[data-square='d2']").click()  # a pawn that learnt nothing
    assert page.locator("#lesson-panel").is_hidden()
    assert not page.errors


def test_move_only_targets_and_a_named_lesson_s_betza_string_are_drawn(browser: Any, taught: Path) -> None:
    page = open_page(browser, taught)
    _show_end_of(page, _phase(page, "step 5"))
    drawn = _drawn(page)
    assert drawn == _reach("mBcF", "c1") and set(drawn.values()) == {"any", "empty"}
    _show_end_of(page, _phase(page, "step 6"))
    assert page.locator("#lesson-panel").get_attribute("data-betza") == "C"
    assert "camel (Betza C)" in page.locator("#lesson-title").inner_text()
    assert _drawn(page) == _reach("camel", "f1")
    assert not page.errors


@needs("websockets")
def test_the_live_teach_box_takes_betza_and_a_refused_string_teaches_nothing(browser: Any) -> None:
    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.server import StudioServer, serving_in_background

    with LiveGame() as live:
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url)
            page.wait_for_selector("body[data-ready='1'][data-plies]", timeout=10_000)
            page.fill("#teach-square", "b1")
            page.fill("#teach-geometry", "NC")
            page.click("#teach")
            page.wait_for_selector("#live-log :text('white-knight-b1 now moves as NC')")
            page.wait_for_selector("#lesson-panel[data-square='b1'][data-betza='NC']")
            assert _drawn(page) == _reach("NC", "b1")
            page.fill("#teach-square", "g1")
            page.fill("#teach-geometry", "NpR")
            page.click("#teach")
            page.wait_for_selector("#live-log :text(\"'p' at position 2\")")
            page.click("#board rect[data-square='g1']")  # selected: a knight that learnt nothing
            assert page.locator("#lesson-panel").is_hidden()
            page.click("#board rect[data-square='f3']")  # Nf3, by its squares
            page.wait_for_selector("body[data-plies='1']")
            page.click("#board rect[data-square='b1']")  # white's taught knight, selected
            assert page.locator("#lesson-panel").get_attribute("data-square") == "b1"
            assert _drawn(page) == _reach("NC", "b1")
            assert not errors
            page.close()
