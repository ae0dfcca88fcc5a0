"""An MkDocs hook that serves the site's diagrams from the site itself, so it reads the same offline.

The theme draws the sequence diagrams of the pages with Mermaid, which it would fetch from a content
network unless a ``mermaid`` script is already on the page. The ``docs`` extra installs ``mmdc``, a
PyPI package that ships Mermaid's browser build (``mermaid.min.js``); this hook copies it into the
site as ``javascripts/mermaid.min.js``, which ``mkdocs.yml`` loads (``extra_javascript``). The fonts
are the reader's own (``theme.font: false``), so no page asks a font service either.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

MERMAID = "javascripts/mermaid.min.js"


def mermaid_script() -> Path:
    """Where the installed ``mmdc`` package keeps Mermaid's browser build (found without importing it).

    Raises:
        PluginError: the package is not installed (install the ``docs`` extra), or holds no script.
    """
    spec = importlib.util.find_spec("mmdc")
    folders = list(spec.submodule_search_locations or []) if spec else []
    found = [Path(folder) / "assets" / "mermaid.js" for folder in folders]
    script = next((path for path in found if path.is_file()), None)
    if script is None:
        raise PluginError(
            "Mermaid's script for offline diagrams comes from the mmdc package: install the docs extra"
            " (pip install -e '.[docs]')"
        )
    return script


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Make sure every page loads the site's own Mermaid (the theme then fetches none)."""
    if MERMAID not in [str(script) for script in config.extra_javascript]:
        raise PluginError(f"mkdocs.yml must list {MERMAID} in extra_javascript")
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add Mermaid's script to the site's files."""
    files.append(File.generated(config, MERMAID, abs_src_path=str(mermaid_script())))
    return files
