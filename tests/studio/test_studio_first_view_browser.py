"""The studio's first view in a real browser at 1280 and 1024 pixels (Debian's chromium through Playwright,
the ``browser`` fixture of :mod:`browser_pages`): where the offline and the live page open, lane names
that stay in view, labels never cut, fan-outs drawn as one arrow, a delivered message drawn at once in
step mode, each command its own phase, and no ply that was never played.

Each view is measured in the DOM and photographed; the screenshot is read back (a PNG decoded here) to
check that what the DOM says is on screen is painted there.
"""

from __future__ import annotations

import io
import itertools
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from actors.game.replay import watch_game
from actors.studio import write_page
from actors.study.runner import run_scenario
from actors.study.script import read_scenario
from actors.tracing.recorder import TraceRecorder
from board.notation.pgn import read_games
from tests.helpers.browser_pages import where
from tests.helpers.extras import import_or_skip

ROOT = Path(__file__).resolve().parents[2]
WIDTHS = [1280, 1024]
# Black's king cannot go e8 -> e6 at ply 10; the four moves after it were already on their way.
STOPPED = '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Ke6 6. Re1 b5 7. Bb3 d6 *\n'


# --- reading a screenshot back -------------------------------------------------------------------


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows (RGB or RGBA bytes) of an 8-bit, non-interlaced PNG (as chromium
    writes its screenshots)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, b"", b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and interlace == 0 and colour in (2, 6), (depth, colour, interlace)
    size = 3 if colour == 2 else 4
    raw = zlib.decompress(chunks)
    stride = width * size
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - size] if i >= size else 0
            up, corner = previous[i], previous[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - corner), 2, corner))
                line[i] = (line[i] + near[2]) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, size, rows


def _ink(shot: bytes, box: dict[str, float]) -> float:
    """The share of dark pixels (text) in a box of a screenshot (CSS pixels at scale 1)."""
    _, size, rows = _png_pixels(shot)
    dark = total = 0
    for y in range(int(box["y"]), int(box["y"] + box["height"])):
        row = rows[y]
        for x in range(int(box["x"]), int(box["x"] + box["width"])):
            red, green, blue = row[x * size:x * size + 3]
            total += 1
            dark += red + green + blue < 300
    return dark / max(1, total)


def _colour_at(shot: bytes, x: float, y: float) -> tuple[int, ...]:
    _, size, rows = _png_pixels(shot)
    return tuple(rows[int(y)][int(x) * size:int(x) * size + 3])


# --- the pages --------------------------------------------------------------------------------------


def _page_of(events: list[Any], path: Path) -> Path:
    write_page(events, path)
    return path


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("first-view")
    found: dict[str, Path] = {}
    with open(ROOT / "tests" / "data" / "opera-game.pgn", encoding="utf-8") as file:
        [opera] = list(read_games(file))
    recorder = TraceRecorder()
    watch_game(opera, "actors", recorder)
    found["opera"] = _page_of(recorder.events(), folder / "opera.html")
    recorder = TraceRecorder()
    results = run_scenario(
        read_scenario(str(ROOT / "actors" / "examples" / "crash-and-restart.scenario")), recorder=recorder
    )
    assert all(result.ok for result in results)
    found["crash"] = _page_of(recorder.events(), folder / "crash.html")
    [stopped] = list(read_games(io.StringIO(STOPPED)))
    recorder = TraceRecorder()
    watch_game(stopped, "actors", recorder)
    found["stopped"] = _page_of(recorder.events(), folder / "stopped.html")
    return found


@pytest.fixture(scope="module")
def screens(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The browser, with a folder for the screenshots its pages take."""
    browser.screens = str(tmp_path_factory.mktemp("screens"))
    print(f"\nscreenshots in {browser.screens}")
    return browser


def _open(browser: Any, url: str, width: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 800})
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    page.problems, page.screens = problems, browser.screens
    return page


def _shot(page: Any, name: str) -> bytes:
    """A screenshot of the window, kept with the test's files for a person to look at."""
    folder = Path(page.screens)
    shot: bytes = page.screenshot(path=str(folder / f"{name}.png"))
    return shot


# Every label of the diagram on screen, with what it should say (the message's own text), where its
# text is, and whether that is inside the drawing and inside the window.
LABELS = """() => {
    const svg = document.getElementById("diagram"), scroll = document.getElementById("diagram-scroll");
    const view = scroll.getBoundingClientRect(), width = Number(svg.getAttribute("width"));
    const phase = window.studio.data.games[window.studio.state.game].phases[window.studio.state.phase];
    const found = [];
    for (const text of svg.querySelectorAll("g.arrow text.label")) {
        const arrow = text.parentNode, index = Number(arrow.getAttribute("data-index")) - 1;
        const event = phase.events[index];
        const reply = arrow.getAttribute("data-reply") === "1";
        const said = arrow.classList.contains("fan-out") ? null
            : reply ? (event.reply_summary || event.reply || "") : event.summary;
        const lines = [...text.querySelectorAll("tspan")].map((line) => line.textContent);
        const box = text.getBBox(), rect = text.getBoundingClientRect();
        found.push({ said, shown: lines.join(" "), left: box.x, right: box.x + box.width, width,
            inWindow: rect.left >= view.left - 1 && rect.right <= view.right + 1 });
    }
    return found;
}"""


def _labels_whole(page: Any, where_: str) -> list[str]:
    problems = []
    for label in page.evaluate(LABELS):
        if label["said"] is not None and label["said"] not in label["shown"]:
            problems.append(f"{where_}: {label['said']!r} shown as {label['shown']!r}")
        if "…" in label["shown"]:
            problems.append(f"{where_}: {label['shown']!r} cut")
        if label["left"] < 0 or label["right"] > label["width"] + 1:
            problems.append(f"{where_}: {label['shown']!r} runs out of the drawing")
        if not label["inWindow"]:
            problems.append(f"{where_}: {label['shown']!r} outside the window")
    return problems


# --- the offline page --------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_page_opens_on_the_first_ply_with_every_label_whole(screens: Any, pages: dict[str, Path],
                                                                 width: int) -> None:
    page = _open(screens, pages["opera"].as_uri(), width)
    assert where(page) == (1, 0)
    assert page.locator("#phase-title").get_attribute("data-label") == "ply 1"
    labels = {label["shown"] for label in page.evaluate(LABELS)}
    # The answers that were cut at the gap between two lanes, whole.
    whole = {"Survey white pawns of the e-file → e4", "SurveyReport: 1 piece", "Targets from e4: 3 moves"}
    assert whole <= labels
    shot = _shot(page, f"opera-ply1-{width}")
    heads = page.evaluate(
        "[...document.querySelectorAll('#diagram .lane-head')].map((h) => h.firstChild.textContent)")
    assert heads == ["client", "referee", "board", "white-pawn-e2"]
    band = page.locator("#diagram .lane-band").bounding_box()
    assert _ink(shot, band) > 0.02, "the lane names are painted"
    problems: list[str] = []
    for index, phase in enumerate(page.evaluate("window.studio.data.games[0].phases")):
        if phase["kind"] != "startup":
            page.evaluate(f"window.studio.go({index}, 0)")
            problems += _labels_whole(page, phase["label"])
    assert problems == [], problems[:10]
    assert page.problems == []
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_heal_draws_its_fan_outs_as_one_arrow_each_that_opens_on_a_click(
    screens: Any, pages: dict[str, Path], width: int
) -> None:
    page = _open(screens, pages["crash"].as_uri(), width)
    phases = page.evaluate("window.studio.data.games[0].phases")
    heal = next(index for index, phase in enumerate(phases) if phase["kind"] == "heal")
    page.evaluate(f"window.studio.go({heal}, 0)")
    arrows = page.locator("#diagram g.arrow")
    fan_outs = page.locator("#diagram g.arrow.fan-out")
    kinds = sorted(fan_outs.nth(i).get_attribute("data-kind") for i in range(fan_outs.count()))
    assert kinds == ["Ping", "Resync", "TargetsQuery"]
    assert all(fan_outs.nth(i).get_attribute("data-members") == "32" for i in range(fan_outs.count()))
    assert arrows.count() < 30 < len(phases[heal]["rows"])
    # The pieces are one lane, named once: no lane names run into each other.
    heads = page.evaluate("""() => [...document.querySelectorAll('#diagram .lane-head')].map((head) => {
        const box = head.getBoundingClientRect();
        return [head.getAttribute('data-lane'), box.left, box.right, box.top, head.firstChild.textContent];
    })""")
    assert [head[0] for head in heads] == ["supervisor", "referee", "board", "journal", "⋯pieces"]
    assert heads[-1][4] == "pieces ×32"
    for (_, _, right, top, _), (_, left, _, other, _) in itertools.pairwise(heads):
        assert right <= left or top != other
    assert _labels_whole(page, "heal") == []
    _shot(page, f"crash-heal-folded-{width}")
    # A click draws each of the 32 (and the lanes they go to); the fold above them folds them again.
    page.locator("#diagram g.arrow.fan-out[data-kind='Ping']").click()
    assert page.locator("#diagram g.arrow.request[data-kind='Ping']").count() == 32 + 1  # and the referee's
    assert page.locator("#diagram g.fold-group").count() == 1
    pings = sorted(page.evaluate("""() => [...document.querySelectorAll(
        "#diagram g.arrow.request[data-kind='Ping']")].map((g) => g.getBoundingClientRect().top)"""))
    fold = page.locator("#diagram g.fold-group").bounding_box()
    assert pings[0] < fold["y"] < pings[1], "the fold is above the 32, under the referee's own ping"
    assert page.locator("#diagram .lane-head[data-lane='white-king-e1']").count() == 1
    _shot(page, f"crash-heal-opened-{width}")
    page.locator("#diagram g.fold-group").click()
    assert page.locator("#diagram g.arrow.fan-out").count() == 3
    assert page.problems == []
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_lane_names_stay_in_view_while_the_diagram_scrolls(screens: Any, pages: dict[str, Path],
                                                           width: int) -> None:
    page = _open(screens, pages["crash"].as_uri(), width)
    phases = page.evaluate("window.studio.data.games[0].phases")
    heal = next(index for index, phase in enumerate(phases) if phase["kind"] == "heal")
    page.evaluate(f"window.studio.go({heal}, 0)")
    page.locator("#diagram g.arrow.fan-out[data-kind='TargetsQuery']").click()  # long enough to scroll
    scroll = page.locator("#diagram-scroll")
    tall = page.evaluate("document.getElementById('diagram-scroll').scrollHeight")
    assert tall > scroll.bounding_box()["height"]
    page.evaluate(f"document.getElementById('diagram-scroll').scrollTop = {tall}")
    page.wait_for_function("""() => {  // the scroll's handler has moved the names with it
        const scroll = document.getElementById('diagram-scroll');
        const heads = document.querySelector('#diagram .lane-heads');
        return scroll.scrollTop > 0
            && heads.getAttribute('transform') === `translate(0, ${scroll.scrollTop})`;
    }""")
    view = scroll.bounding_box()
    seen = page.evaluate("""() => [...document.querySelectorAll('#diagram .lane-head')].map((head) => {
        const box = head.getBoundingClientRect();
        const at = document.elementFromPoint(Math.min(box.left + 3, window.innerWidth - 1),
                                             box.top + box.height / 2);
        return { name: head.getAttribute('data-lane'), top: box.top, bottom: box.bottom, left: box.left,
                 right: box.right, onTop: head === at || head.contains(at) }; })""")
    right = view["x"] + view["width"]
    inside = [head for head in seen if view["x"] <= head["left"] and head["right"] <= right]
    assert len(inside) >= 4
    for head in inside:
        assert view["y"] <= head["top"] and head["bottom"] <= view["y"] + 60, head
        assert head["onTop"], f"{head['name']} is covered"
    shot = _shot(page, f"crash-heal-scrolled-{width}")
    band = page.locator("#diagram .lane-band").bounding_box()
    visible = {"x": max(band["x"], view["x"]), "y": max(band["y"], view["y"]),
               "width": min(band["width"], view["width"] - 20), "height": band["height"]}
    assert visible["y"] < view["y"] + 5, "the band of names is at the top of the scrolled diagram"
    assert _ink(shot, visible) > 0.01, "and its names are painted there"
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_payload_box_wraps_what_is_wider_than_it(screens: Any, pages: dict[str, Path],
                                                      width: int) -> None:
    page = _open(screens, pages["opera"].as_uri(), width)
    page.evaluate("window.studio.go(0, 0)")
    page.locator("#diagram g.folded-startup").click()
    page.locator("#diagram g.arrow[data-kind='RecordStart']").click()  # a whole placement in one string
    assert "rnbqkbnr/pppppppp" in page.locator("#detail-payload").inner_text()
    sizes = page.evaluate("""() => ['detail-payload', 'detail-reply-payload', 'side'].map((id) => {
        const box = document.getElementById(id); return [id, box.scrollWidth, box.clientWidth]; })""")
    for name, wide, room in sizes:
        assert wide <= room + 1, f"{name}: {wide} px of text in {room} px"
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_game_stopped_by_an_illegal_move_shows_no_ply_after_it(screens: Any, pages: dict[str, Path],
                                                                 width: int) -> None:
    page = _open(screens, pages["stopped"].as_uri(), width)
    labels = [phase["label"] for phase in page.evaluate("window.studio.data.games[0].phases")]
    # "other": the FEN asked at the end, for no ply
    assert labels == ["startup", *(f"ply {n}" for n in range(1, 11)), "other"]
    assert page.locator("#game-picker option").first.text_content() == "game 1 (9 plies, then a refused move)"
    page.evaluate(f"window.studio.go({labels.index('ply 10')}, 0)")
    title = page.locator("#phase-title").inner_text()
    assert title.startswith("ply 10 · refused · 4 proposals sent behind it cancelled"), title
    cancelled = page.locator("#diagram g.arrow.request.cancelled")
    assert cancelled.count() == 4
    assert "meant for ply" not in page.locator("#diagram").text_content()
    assert _labels_whole(page, "ply 10") == []
    _shot(page, f"stopped-ply10-{width}")
    page.close()


# --- the live page ------------------------------------------------------------------------------------


@pytest.fixture
def live_url() -> Iterator[str]:
    import_or_skip("websockets")  # the live server needs the studio extra
    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.server import StudioServer, serving_in_background

    with LiveGame() as live:
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server):
            yield server.url


def _live(browser: Any, url: str, width: int) -> Any:
    page = _open(browser, url, width)
    page.wait_for_selector("body[data-plies]", timeout=10_000)
    return page


def _type(page: Any, command: str) -> None:
    page.fill("#command", command)
    page.press("#command", "Enter")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_live_page_opens_on_an_empty_game_asking_for_a_move(screens: Any, live_url: str,
                                                                width: int) -> None:
    page = _live(screens, live_url, width)
    page.wait_for_selector("#diagram g.folded-startup")
    assert where(page) == (0, 0)
    assert page.locator("#diagram g.arrow").count() == 0, "the start-up is folded"
    prompt = page.locator("#prompt")
    assert prompt.is_visible()
    assert "Type or click a move" in prompt.inner_text()
    box = prompt.bounding_box()
    assert box["y"] + box["height"] <= 800 and box["x"] + box["width"] <= width, "in the window"
    assert page.evaluate("document.activeElement.id") == "command"
    shot = _shot(page, f"live-first-view-{width}")
    painted = _colour_at(shot, box["x"] + box["width"] - 6, box["y"] + 4)
    assert painted == (0xE3, 0xF2, 0xFD), "the prompt is painted"
    assert _ink(shot, box) > 0.02, "with its words"
    page.click("#board rect[data-square='e2']")
    page.click("#board rect[data-square='e4']")
    page.wait_for_selector("body[data-plies='1']")
    page.wait_for_selector("#prompt", state="hidden")
    assert page.locator("#phase-title").get_attribute("data-label") == "ply 1"
    assert _labels_whole(page, "ply 1") == []
    assert page.problems == []
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_step_mode_draws_a_delivered_message_before_its_reply(screens: Any, live_url: str,
                                                               width: int) -> None:
    page = _live(screens, live_url, width)
    page.click("#mode-step")
    page.wait_for_selector("#mode-step[aria-pressed='true']")
    _type(page, "e4")
    page.wait_for_selector("#pending-list button[data-deliver='1']")
    page.click("#pending-list button[data-deliver='1']")  # the referee takes the proposal up
    proposal = page.locator("#diagram g.arrow.request.open[data-kind='ProposeText']")
    proposal.wait_for()
    assert "reply awaited" in (proposal.text_content() or "")
    assert page.locator("#diagram g.arrow.reply[data-kind='ProposeText']").count() == 0
    _shot(page, f"live-step-delivered-{width}")
    page.click("#run-rest")
    page.wait_for_selector("body[data-plies='1']")
    page.wait_for_selector("#diagram g.arrow.reply[data-kind='ProposeText']")
    assert page.locator("#diagram g.arrow.open").count() == 0
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_each_command_is_its_own_phase_and_compare_opens_in_view(screens: Any, live_url: str,
                                                                  width: int) -> None:
    page = _live(screens, live_url, width)
    _type(page, "e4")
    page.wait_for_selector("body[data-plies='1']")
    for refused in ("Ke6", "Ke5"):  # black's king cannot go there: two refusals of ply 2
        _type(page, refused)
    _type(page, "Nf6")
    page.wait_for_selector("body[data-plies='2'][data-done='4']")
    phases = page.evaluate(
        "window.studio.data.games[0].phases.map((q) => [q.label, q.refused, q.move && q.move.san])")
    assert phases[1:] == [
        ["ply 1", False, "e4"], ["ply 2", True, None], ["ply 2", True, None], ["ply 2", False, "Nf6"]]
    assert page.locator("#phase-title").inner_text().startswith("ply 2 · Nf6")
    # A link to ply 2 is to the move played; a refusal is linked by its place.
    assert "&ply=2&" in (page.locator("#deep-link").get_attribute("href") or "")
    page.evaluate("window.studio.go(2, 0)")
    assert "&phase=3&" in (page.locator("#deep-link").get_attribute("href") or "")
    page.evaluate("location.hash = '#ply=2'")
    page.wait_for_function("document.body.getAttribute('data-phase') === '4'")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the window scrolled away
    page.click("#compare-orders")
    page.wait_for_selector("#compare li")
    # The page scrolls to it (in the frame after drawing it): wait for that, then measure.
    page.wait_for_function("() => document.getElementById('compare').getBoundingClientRect().top >= 0")
    box = page.locator("#compare").bounding_box()
    assert 0 <= box["y"] < 800, "compare is drawn where it is seen"
    diagram = page.locator("#diagram-scroll").bounding_box()
    assert box["y"] < diagram["y"], "above the diagram"
    _shot(page, f"live-compare-{width}")
    page.click("#compare-close")
    assert not page.locator("#compare").is_visible()
    page.close()
