"""An MkDocs hook that builds the course's studio pages: each lesson's scenario, run through the actors.

The pages are made at build time from ``docs/course/*.scenario`` (``chess-actors run FILE --html PAGE``)
and served at ``course/studio/NAME.html``, so the site always shows what the actors do today and no
generated HTML is kept in the repository. A scenario that fails stops the build.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

SCENARIOS = "course"
PAGES = "course/studio"


def studio_page(scenario: Path, directory: Path) -> bytes:
    """Run ``scenario`` with this interpreter's ``chess-actors run --html``; return the page it wrote.

    Raises:
        PluginError: the scenario failed (a step did not pass) or is malformed.
    """
    page = directory.resolve() / f"{scenario.stem}.html"
    # Run from the scenario's folder and name it alone: the page's title is the name it was given.
    done = subprocess.run(
        [sys.executable, "-m", "actors.cli", "run", scenario.name, "--html", str(page)],
        cwd=scenario.parent, capture_output=True, text=True, check=False, timeout=300,
    )
    if done.returncode != 0:
        raise PluginError(
            f"{scenario}: chess-actors run exited {done.returncode}:\n{done.stdout}{done.stderr}"
        )
    return page.read_bytes()


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add a studio page for every lesson scenario to the site's files."""
    scenarios = sorted((Path(config.docs_dir) / SCENARIOS).glob("*.scenario"))
    with tempfile.TemporaryDirectory() as directory:
        for scenario in scenarios:
            content = studio_page(scenario, Path(directory))
            files.append(File.generated(config, f"{PAGES}/{scenario.stem}.html", content=content))
    return files
