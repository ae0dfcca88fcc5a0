"""The documentation site: it builds with warnings as errors, its course runs, and its pages are wired up.

The examples on its pages are run by tests/test_readme.py, like README's; here the site as a whole is
held to its promises: a strict build (broken links, missing anchors and docstrings that do not render
are errors), a studio page built for every lesson's scenario, and every lesson with its scenario,
its studio page and questions to try.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from readme_blocks import blocks

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
COURSE = DOCS / "course"
SCENARIOS = sorted(COURSE.glob("*.scenario"))
LESSONS = sorted(page for page in COURSE.glob("*.md") if page.name != "index.md")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for this module by the documented command (strict: a warning fails it)."""
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
                 "reference/client/index.html", "reference/board/index.html"):
        assert (site / page).is_file(), f"{page} is missing from the built site"


def test_the_api_reference_is_generated_from_the_docstrings(site: Path) -> None:
    client = (site / "reference" / "client" / "index.html").read_text(encoding="utf-8")
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
