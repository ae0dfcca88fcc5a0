"""Driving a page in a real browser for the tests: Debian's chromium through Playwright for Python
(Playwright's own browser download is never used).

Without chromium or playwright the ``browser`` fixture skips and says how to enable it; with
``CHESS_ACTORS_BROWSER_TESTS=required`` (as ``.ci/run`` sets) a missing browser fails instead.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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


def missing_browser() -> str | None:
    """Why no browser can be driven here (None: one can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no chromium at {CHROMIUM}"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A chromium for the module's tests (skipped, or failed when required, without one)."""
    missing = missing_browser()
    if missing is not None:
        if REQUIRED:
            pytest.fail(f"{missing}: {HOW_TO_ENABLE}")
        pytest.skip(f"{missing}: {HOW_TO_ENABLE}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


def open_page(browser: Any, path: Path, fragment: str = "") -> Any:
    """A studio page written to ``path``, opened from disk and drawn; its script errors in ``errors``."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(path.as_uri() + fragment)
    page.wait_for_selector("body[data-ready='1']", timeout=10_000)
    page.errors = errors
    return page


def where(page: Any) -> tuple[int, int]:
    """The phase and the message the page is showing."""
    body = page.locator("body")
    return int(body.get_attribute("data-phase")), int(body.get_attribute("data-msg"))


def board_on_page(page: Any) -> dict[str, str]:
    """The pieces the page's board shows, by square."""
    pieces = page.locator("#board text.piece")
    return {
        pieces.nth(i).get_attribute("data-on"): pieces.nth(i).get_attribute("data-piece")
        for i in range(pieces.count())
    }
