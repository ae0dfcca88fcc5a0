"""An MkDocs hook that shows the code's Sphinx-style cross-reference roles as plain code names.

The docstrings name other objects the way Sphinx writes it (``:meth:`start```, ``:class:`~x.Y```);
mkdocstrings renders the name as code and leaves the role in front of it. This hook drops the role
(and a leading ``~``) from the rendered reference pages, so the reader sees ``start`` and ``Y``.
"""

from __future__ import annotations

import re

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

ROLE = re.compile(r":(?:meth|class|func|attr|mod|exc|obj|data|const):(<code>)~?")


def without_roles(html: str) -> str:
    """``html`` with every ``:role:`` before a code name taken out, and a ``~`` opening the name."""
    return ROLE.sub(r"\1", html)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Drop the Sphinx roles from the rendered pages of the API reference."""
    return without_roles(html) if page.file.src_uri.startswith("reference/") else html
