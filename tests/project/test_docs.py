"""The documentation site: it builds with warnings as errors, its course runs, and its pages are wired up.

The examples on its pages are run by tests/project/test_readme.py, like README's; here the site as a whole is
held to its promises: a strict build (broken links, missing anchors and docstrings that do not render
are errors), a studio page built for every lesson's scenario, and every lesson with its scenario,
its studio page and questions to try, each question with a worked answer that is run.

A lesson's claims about the protocol are written beside its prose as markers, which the tests hold
against the trace of the lesson's scenario:

    <!-- protocol: Moved ask Targets -->   every Moved of the trace has a reply, and Targets is one
    <!-- protocol: Record tell -->         no Record of the trace has a reply
    <!-- protocol: Captured tell in orders.scenario -->   the same, in the trace of another lesson's scenario
    <!-- studio-phase: ply 1 -->           the trace (and so the studio page) has a phase of that name

A sentence of a lesson that names a message in backticks and speaks of asking or telling needs a
marker for that message (or for a request it answers), so a claim cannot be added unchecked.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.extras import import_or_skip
from tests.helpers.readme_blocks import Block, blocks, environment

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
COURSE = DOCS / "course"
SCENARIOS = sorted(COURSE.glob("*.scenario"))
LESSONS = sorted(page for page in COURSE.glob("*.md") if page.name != "index.md")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for this module by the documented command (strict: a warning fails it)."""
    import_or_skip("mkdocs")  # building the site needs the docs extra
    site = tmp_path_factory.mktemp("docs") / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return site


def test_the_site_builds_strictly_with_every_page_of_the_navigation(site: Path) -> None:
    for page in ("index.html", "getting-started/index.html", "cli/index.html", "course/index.html",
                 "reference/actors/index.html", "reference/board/index.html"):
        assert (site / page).is_file(), f"{page} is missing from the built site"


def test_the_api_reference_is_generated_from_the_docstrings(site: Path) -> None:
    client = (site / "reference" / "actors" / "index.html").read_text(encoding="utf-8")
    for name in ("ActorGame", "SystemPool", "CheckMoveSession", "propose_many"):
        assert name in client, f"{name} is not in the generated reference"
    # a sentence of ActorGame's docstring, as the reader sees it, its Sphinx roles shown as plain names
    assert "A game judged by actors" in client
    assert "call <code>start</code> and <code>close</code>" in client
    assert not re.search(r":(meth|class|func):<code>", client)
    board = (site / "reference" / "board" / "index.html").read_text(encoding="utf-8")
    assert "IllegalMoveError" in board and "Game" in board


def test_every_lesson_scenario_becomes_a_studio_page_of_its_run(site: Path) -> None:
    assert len(SCENARIOS) >= 6
    for scenario in SCENARIOS:
        page = site / "course" / "studio" / f"{scenario.stem}.html"
        assert page.is_file(), f"no studio page built for {scenario.name}"
        text = page.read_text(encoding="utf-8")
        assert "<html" in text.lower() and "chess-actors studio" in text
        assert "https://" not in text.split("<script", 1)[0], "the studio page loads nothing from the network"


def test_the_site_shows_screenshots_of_its_home_page_and_a_lesson(site: Path) -> None:
    for image in ("site-home.png", "site-lesson.png"):
        data = (DOCS / "images" / image).read_bytes()
        assert data.startswith(b"\x89PNG"), f"{image} is not a PNG"
        assert (site / "images" / image).is_file()
    assert "images/site-home.png" in (DOCS / "index.md").read_text(encoding="utf-8")
    assert "images/site-lesson.png" in (COURSE / "index.md").read_text(encoding="utf-8")


def test_the_course_has_six_lessons_each_in_the_navigation() -> None:
    assert len(LESSONS) >= 6
    navigation = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for lesson in LESSONS:
        assert f"course/{lesson.name}" in navigation, f"{lesson.name} is not in the site's navigation"


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.stem for lesson in LESSONS])
def test_each_lesson_shows_runs_and_links_its_scenario_and_asks_questions(lesson: Path) -> None:
    text = lesson.read_text(encoding="utf-8")
    scenario = COURSE / f"{lesson.stem}.scenario"
    assert scenario.is_file(), f"{lesson.name} has no scenario {scenario.name}"
    assert f'--8<-- "docs/course/{scenario.name}"' in text, "the page shows its scenario file as it is"
    assert f"(studio/{lesson.stem}.html)" in text, "the page links the studio page built from it"
    runs = [block for block in blocks(lesson) if block.kind == "console"
            and re.search(rf"^\$ chess-actors run {re.escape(scenario.name)} --html ", block.text, re.M)]
    assert runs, f"no marked console block of {lesson.name} runs {scenario.name} with --html"
    questions = text.split("## Questions to try", 1)
    assert len(questions) == 2 and len(re.findall(r"^\d+\. ", questions[1], re.M)) >= 3


def test_every_scenario_of_the_course_belongs_to_a_lesson() -> None:
    assert {scenario.stem for scenario in SCENARIOS} == {lesson.stem for lesson in LESSONS}


# --- the course's claims, held against its traces ---------------------------------------------------

PROTOCOL_CLAIM = re.compile(
    r"<!--\s*protocol:\s*(?P<kind>\w+)\s+(?P<how>ask|tell)\b(?P<replies>[\w\s]*?)"
    r"(?:\s+in\s+(?P<scenario>[\w-]+\.scenario))?\s*-->"
)
PHASE_CLAIM = re.compile(r"<!--\s*studio-phase:\s*(?P<phase>[\w ]+?)\s*-->")
ASKING_OR_TELLING = re.compile(r"\b(ask|asks|asked|asking|tell|tells|told|telling)\b", re.IGNORECASE)


def _trace_of(scenario: Path, directory: Path) -> list[dict[str, object]]:
    trace = directory / f"{scenario.stem}.jsonl"
    done = subprocess.run(
        ["chess-actors", "run", str(scenario), "--trace", str(trace)], cwd=directory, env=environment(),
        capture_output=True, text=True, check=False, timeout=300,
    )
    assert done.returncode == 0, f"{scenario.name} failed:\n{done.stdout}\n{done.stderr}"
    return [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]


def _prose(text: str) -> str:
    """A page without its fenced blocks and comments: what a reader reads as sentences."""
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    return re.sub(r"^(\s*)(```+).*?^\1\2\s*$", " ", text, flags=re.S | re.M)


def _message_kinds() -> set[str]:
    import actors.protocol as protocol

    return {name for name in protocol.__all__ if name[0].isupper()}


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.stem for lesson in LESSONS])
def test_each_lessons_claims_about_the_protocol_hold_in_its_scenarios_trace(
    lesson: Path, tmp_path: Path
) -> None:
    text = lesson.read_text(encoding="utf-8")
    claims = list(PROTOCOL_CLAIM.finditer(text))
    phases = [match.group("phase") for match in PHASE_CLAIM.finditer(text)]
    traces = {lesson.stem + ".scenario": _trace_of(COURSE / f"{lesson.stem}.scenario", tmp_path)}
    trace = traces[lesson.stem + ".scenario"]
    problems = []
    for claim in claims:
        kind, how, replies = claim.group("kind"), claim.group("how"), claim.group("replies").split()
        source = claim.group("scenario") or lesson.stem + ".scenario"
        if source not in traces:
            traces[source] = _trace_of(COURSE / source, tmp_path)
        events = [event for event in traces[source] if event["kind"] == kind]
        got = sorted({str(event["reply"]) for event in events})
        if not events:
            problems.append(f"{kind}: {source} sends none, so the page's claim goes unchecked")
        elif how == "tell" and any(event["reply"] is not None for event in events):
            problems.append(f"{kind}: the page says it is a tell, but the trace shows replies {got}")
        elif how == "ask" and any(event["reply"] is None for event in events):
            problems.append(f"{kind}: the page says it is an ask, but some in the trace have no reply")
        elif how == "ask" and not replies:
            problems.append(f"{kind}: an ask's claim names its reply, e.g. 'protocol: {kind} ask Reply'")
        for reply in replies:
            if how == "ask" and reply not in got:
                problems.append(f"{kind}: the page says it is answered {reply}; the trace's are {got}")
    names = {str(event["phase"]) for event in trace}
    problems += [f"no phase {phase!r} in the trace; it has {sorted(names)}"
                 for phase in phases if phase not in names]
    assert not problems, f"{lesson.name} says what its trace does not:\n" + "\n".join(problems)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.stem for lesson in LESSONS])
def test_every_message_a_lesson_says_is_asked_or_told_has_a_checked_claim(lesson: Path) -> None:
    text = lesson.read_text(encoding="utf-8")
    covered = set()
    for claim in PROTOCOL_CLAIM.finditer(text):
        covered |= {claim.group("kind"), *claim.group("replies").split()}
    kinds = _message_kinds()
    unchecked = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n\s*\n", _prose(text)):
        if not ASKING_OR_TELLING.search(sentence):
            continue
        named = {name for name in re.findall(r"`(\w+)`", sentence) if name in kinds}
        unchecked += [f"{name}: {' '.join(sentence.split())}" for name in sorted(named - covered)]
    assert not unchecked, (
        f"{lesson.name} speaks of asking or telling these messages without a protocol marker:\n"
        + "\n".join(unchecked)
    )


def _questions(lesson: Path) -> list[tuple[int, int]]:
    """The line range (1-based, inclusive start, exclusive end) of each numbered question of a lesson."""
    lines = lesson.read_text(encoding="utf-8").splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith("## Questions to try"))
    end = next((at for at in range(start + 1, len(lines)) if lines[at].startswith("## ")), len(lines))
    starts = [index for index in range(start, end) if re.match(r"\d+\. ", lines[index])]
    return [(first + 1, following + 1) for first, following in zip(starts, [*starts[1:], end], strict=True)]


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.stem for lesson in LESSONS])
def test_every_question_of_a_lesson_has_a_worked_answer_that_the_tests_run(lesson: Path) -> None:
    questions = _questions(lesson)
    assert len(questions) >= 3
    lines = lesson.read_text(encoding="utf-8").splitlines()
    marked: list[Block] = [block for block in blocks(lesson) if block.kind is not None]
    for number, (first, following) in enumerate(questions, 1):
        body = lines[first - 1 : following - 1]
        assert any(re.match(r"\s{4}\?\?\? note ", line) for line in body), (
            f"{lesson.name}: question {number} has no collapsible worked answer (??? note)"
        )
        assert any(first <= block.line < following for block in marked), (
            f"{lesson.name}: question {number}'s answer runs no marked example (readme-test)"
        )


def test_a_lessons_claims_are_checked_against_the_trace_as_a_tell_or_an_ask(tmp_path: Path) -> None:
    """The claim checker itself: a page that called Moved a tell (it is an ask) would fail."""
    trace = _trace_of(COURSE / "one-ply.scenario", tmp_path)
    moved = {str(event["reply"]) for event in trace if event["kind"] == "Moved"}
    record = {event["reply"] for event in trace if event["kind"] == "Record"}
    assert moved == {"Targets"} and record == {None}
    wrong = PROTOCOL_CLAIM.fullmatch("<!-- protocol: Moved tell -->")
    assert wrong is not None and wrong.group("how") == "tell"
    assert not _prose("a\n```text\nasks `Moved`\n```\nb <!-- tells `Record` -->").count("`")


# --- the site works offline ---------------------------------------------------------------------------

OUTSIDE = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.IGNORECASE)
CSS_OUTSIDE = re.compile(r"""(?:@import\s+(?:url\()?|url\()\s*["']?(?:https?:)?//""", re.IGNORECASE)


def _loaded_from_outside(html: str) -> list[str]:
    """The tags of a page that would load a script, a style sheet, a font or a preconnection from
    another host (links a reader follows, ``<a href>``, are not loads)."""
    tags = re.findall(r"<(?:script|link|img|iframe|source|style)\b[^>]*>", html, re.IGNORECASE)
    return [tag for tag in tags if OUTSIDE.search(tag)]


def test_no_page_of_the_site_loads_anything_from_another_host(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    outside = {str(page.relative_to(site)): found for page in pages if (found := _loaded_from_outside(
        page.read_text(encoding="utf-8")))}
    assert not outside, f"pages that load from another host: {outside}"
    sheets = {str(sheet.relative_to(site)) for sheet in site.rglob("*.css")
              if CSS_OUTSIDE.search(sheet.read_text(encoding="utf-8"))}
    assert not sheets, f"style sheets that import or load fonts from another host: {sheets}"
    lesson = (site / "course" / "one-ply" / "index.html").read_text(encoding="utf-8")
    assert 'src="../../javascripts/mermaid.min.js"' in lesson, "the lesson loads the site's own Mermaid"
    script = (site / "javascripts" / "mermaid.min.js").read_text(encoding="utf-8")
    assert 'globalThis["mermaid"]' in script and len(script) > 1_000_000, "the script is Mermaid's build"


def test_the_outside_check_finds_a_script_a_font_or_a_style_from_another_host() -> None:
    assert _loaded_from_outside('<script src="https://unpkg.com/mermaid@11/dist/mermaid.min.js"></script>')
    assert _loaded_from_outside('<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>')
    assert _loaded_from_outside("<link href=//fonts.googleapis.com/css?family=Roboto rel=stylesheet>")
    assert not _loaded_from_outside('<script src="../assets/bundle.js"></script><a href="https://x.org">x</a>')
    assert CSS_OUTSIDE.search('@import url("https://fonts.googleapis.com/css2?family=Roboto");')
    assert not CSS_OUTSIDE.search("background: url(\"data:image/svg+xml;charset=utf-8,<svg xmlns='http://www.w3.org/2000/svg'/>\")")


def test_a_lesson_served_with_no_route_out_draws_its_sequence_diagram(site: Path, browser: object) -> None:
    """The built site served on 127.0.0.1; every request for another host is refused and counted."""
    import functools
    import http.server
    import threading

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *arguments: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    local = f"http://127.0.0.1:{server.server_address[1]}"
    refused: list[str] = []
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]

        def route(request_route: object) -> None:
            url = request_route.request.url  # type: ignore[attr-defined]
            if url.startswith(local):
                request_route.continue_()  # type: ignore[attr-defined]
            else:
                refused.append(url)
                request_route.abort()  # type: ignore[attr-defined]

        page.route("**/*", route)
        # The theme puts each drawn diagram in a closed shadow root; open them so the test can read them.
        page.add_init_script(
            "const attach = Element.prototype.attachShadow;"
            "Element.prototype.attachShadow = function (init) {"
            " return attach.call(this, {...init, mode: 'open'}); };"
        )
        page.goto(f"{local}/course/one-ply/")
        page.wait_for_function(
            "() => document.querySelector('div.mermaid')?.shadowRoot?.querySelector('svg')", timeout=30_000
        )
        text = page.evaluate(
            "() => [...document.querySelectorAll('div.mermaid')].map(node => "
            "node.shadowRoot.querySelector('svg').textContent).join(' ')"
        )
        page.close()
    finally:
        server.shutdown()
        server.server_close()
        serving.join(timeout=10)
    assert not refused, f"the page asked other hosts for {refused}"
    assert "MoveQuery b1→f3" in text and "Targets from f3" in text, "the diagram was drawn as SVG"


# --- the benchmarks page is a reference -----------------------------------------------------------


def test_the_benchmarks_page_is_one_table_a_subject_each_with_its_command_and_no_notes_of_history() -> None:
    text = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    assert len(sections) >= 5
    for section in sections:
        title = section.splitlines()[0]
        tables = re.findall(r"^\| *-+ *\|", section, re.M)
        assert len(tables) == 1, f"'{title}' has {len(tables)} tables: one table a subject"
        assert re.search(r"`(?:bench\.py \w+|chess-actors [^`]+)`", section), f"'{title}' names no command"
    # what the machine was doing, and which engine came before, belong to commit messages
    assert not re.search(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", text), "a commit id"
    assert not re.search(r"\bload\b|\bbusy\b|this machine|quiet machine|\bbefore:", text, re.IGNORECASE)


# --- the Python reference and the Python API page -----------------------------------------------------


def test_every_public_name_is_in_the_api_reference(site: Path) -> None:
    import actors
    import actors.protocol
    import board
    import board.games
    import board.notation
    import board.puzzles
    import board.rules

    pages = "".join(page.read_text(encoding="utf-8") for page in (site / "reference").rglob("*.html"))
    documented = {identifier.rsplit(".", 1)[-1] for identifier in re.findall(r'id="([\w.]+)"', pages)}
    missing = []
    for package in (actors, actors.protocol, board, board.rules, board.notation, board.games, board.puzzles):
        for name in package.__all__:
            value = getattr(package, name)
            constant = not (callable(value) or isinstance(value, type)) and name.isupper()
            if name not in documented and not (constant and f"<code>{name}</code>" in pages):
                missing.append(f"{package.__name__}.{name}")
    assert not missing, f"public names the reference does not show: {missing}"
    assert 'id="actors.PieceHandle"' in pages, "what game.piece() returns"
    for internal in ("actors.kernel.fault_marks", "actors.kernel.remote", "actors.game.placement",
                     "actors.kernel.policies", "actors.protocol.referee"):
        assert f'id="{internal}"' not in pages, f"{internal} is internal, and off the reference"


def test_the_python_api_page_teaches_the_game_a_verdict_a_piece_and_a_lesson_in_turn() -> None:
    page = DOCS / "python-api.md"
    text = page.read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[:4] == ["The game", "A verdict", "A piece", "A lesson"]
    assert "`PieceHandle`" in text and ".learn(" in text
    examples = [block for block in blocks(page) if block.kind == "doctest"]
    assert examples and all(block.language == "pycon" for block in examples), "a doctest is a console session"
    assert max(block.text.count("print(") for block in examples) <= 5, "short examples, each about one thing"
