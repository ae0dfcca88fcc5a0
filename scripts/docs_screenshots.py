"""Photograph the documentation site in Chromium: its home page and a lesson of the course.

Builds the site (strict) into a temporary folder, serves it on the loopback interface, and saves
``docs/images/site-home.png`` and ``docs/images/site-lesson.png`` with Debian's ``/usr/bin/chromium``
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
SHOTS = {"site-home.png": "", "site-lesson.png": "course/one-ply/"}


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
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            for name, path in SHOTS.items():
                page.goto(f"http://127.0.0.1:{server.server_port}/{path}")
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(IMAGES / name))
                print(f"wrote {(IMAGES / name).relative_to(ROOT)}")
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
