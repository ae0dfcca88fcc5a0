"""Photograph the documentation site in Chromium: its home page and a lesson of the course.

Builds the site (strict) into a temporary folder, serves it on the loopback interface, and saves
``docs/images/site-home.png``, ``docs/images/site-lesson.png`` and the studio page of lesson 1
(``docs/images/lesson-studio.png``) with Debian's ``/usr/bin/chromium``
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


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        site = Path(directory) / "site"
        # The pages link to the screenshots: a placeholder lets the first build pass strictly.
        for name in SHOTS:
            if not (IMAGES / name).exists():
                (IMAGES / name).write_bytes(b"")
        build(site)
        photograph(site)


if __name__ == "__main__":
    main()
