"""Photograph the documentation site in Chromium: its home page and a lesson of the course.

Builds the site (strict) into a temporary folder, serves it on the loopback interface, and saves
``docs/images/site-home.png``, ``docs/images/site-lesson.png``, the studio page of lesson 1
(``docs/images/lesson-studio.png``), the Opera game's studio page (``docs/images/studio.png``) and
the live studio mid-game (``docs/images/live-studio.png``, served by ``chess-actors studio``'s own
server) with Debian's ``/usr/bin/chromium``
driven by Playwright (Playwright's own browser download is not used). Run it after a change that
alters how the site looks:

    .venv/bin/python scripts/docs_screenshots.py
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
# name: (address in the site, viewport width); the studio's lanes want a wider window.
SHOTS = {
    "site-home.png": ("", 1280),
    "site-lesson.png": ("course/one-ply/", 1280),
    "lesson-studio.png": ("course/studio/one-ply.html#ply=3&msg=3", 1600),
}


def build(site: Path) -> None:
    """Build the site strictly into ``site``; exit with mkdocs' status if it fails."""
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
                          cwd=ROOT, check=False)
    if done.returncode != 0:
        sys.exit(done.returncode)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Print nothing for each request: the script reports only what it wrote."""


def photograph(site: Path) -> None:
    """Serve ``site`` on 127.0.0.1 and save one screenshot a page of ``SHOTS``."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            for name, (path, width) in SHOTS.items():
                page = browser.new_page(viewport={"width": width, "height": 860})
                page.goto(f"http://127.0.0.1:{server.server_port}/{path}")
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(IMAGES / name))
                print(f"wrote {(IMAGES / name).relative_to(ROOT)}")
                page.close()
            browser.close()
    finally:
        server.shutdown()


LIVE_SHOT = "live-studio.png"
# The Italian opening to move 4, the board crashed (healed on the next move), then 4. d3 in step
# mode with its proposal and the board's survey delivered: the pawn's question waits to be chosen.
LIVE_COMMANDS = ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "crash board", "Nf6", "mode step", "d3",
                 "deliver 1", "deliver 2")


def photograph_live() -> None:
    """Serve a live game, play :data:`LIVE_COMMANDS` in the page and photograph it."""
    sys.path.insert(0, str(ROOT))
    from actors.studio import live_page_html
    from actors.studio.live import LiveGame
    from actors.studio.server import StudioServer, serving_in_background

    with LiveGame() as live:
        server = StudioServer(live, live_page_html(), 0)
        with serving_in_background(server), sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(server.url)
            page.wait_for_selector("body[data-ready='1'][data-plies]")
            for number, command in enumerate(LIVE_COMMANDS, start=1):
                page.fill("#command", command)
                page.press("#command", "Enter")
                page.wait_for_selector(f"body[data-done='{number}']")
            page.screenshot(path=str(IMAGES / LIVE_SHOT))
            print(f"wrote {(IMAGES / LIVE_SHOT).relative_to(ROOT)}")
            browser.close()


STUDIO_SHOT = "studio.png"
# The Opera game's page at 2. Nf3 (ply 3), its MoveQuery to the g1 knight chosen.
STUDIO_PLACE = "#ply=3&msg=3"


def photograph_studio() -> None:
    """Write the Opera game's studio page (``chess-actors replay --html``) and photograph it."""
    with tempfile.TemporaryDirectory() as directory:
        page_path = Path(directory) / "opera.html"
        subprocess.run([sys.executable, "-m", "actors.cli", "replay", "tests/data/opera-game.pgn", "--quiet",
                        "--html", str(page_path)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": 1280, "height": 760})
            page.goto(page_path.as_uri() + STUDIO_PLACE)
            page.wait_for_selector("body[data-ready='1']")
            page.screenshot(path=str(IMAGES / STUDIO_SHOT))
            print(f"wrote {(IMAGES / STUDIO_SHOT).relative_to(ROOT)}")
            browser.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        site = Path(directory) / "site"
        # The pages link to the screenshots: a placeholder lets the first build pass strictly.
        for name in SHOTS:
            if not (IMAGES / name).exists():
                (IMAGES / name).write_bytes(b"")
        if not (IMAGES / LIVE_SHOT).exists():
            (IMAGES / LIVE_SHOT).write_bytes(b"")
        build(site)
        photograph(site)
    photograph_live()
    photograph_studio()


if __name__ == "__main__":
    main()
