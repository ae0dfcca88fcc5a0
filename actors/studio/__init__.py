"""The message studio: one self-contained HTML page that shows, steps and explains a traced game.

:func:`page_html` turns trace events into the page (script, style and data inline; no network).
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Iterable, Sequence
from importlib import resources

from actors.studio.model import build_model
from actors.tracing import TraceEvent

__all__ = ["build_model", "inline_html", "page_html", "write_page"]

_TEMPLATE_FILES = ("page.html", "page.css", "page.js")


def _template(name: str) -> str:
    return resources.files("actors.studio").joinpath(name).read_text(encoding="utf-8")


def _script_safe(data: str) -> str:
    # Inside <script> only "</" can end the element early; "<!--" can start a comment state.
    return data.replace("</", "<\\/").replace("<!--", "<\\!--")


def page_html(events: Sequence[TraceEvent], title: str = "chess-actors studio") -> str:
    """Return the studio page for ``events`` as one HTML document.

    Every game of the trace gets its own entry in the page's game picker; the board follows the
    moves the referee accepted, starting from the placement the board reported at start-up.

    Raises:
        ValueError: ``events`` is empty (a page about nothing is never what was wanted).
    """
    if not events:
        raise ValueError("no trace events to show")
    page, style, script = (_template(name) for name in _TEMPLATE_FILES)
    data = json.dumps(build_model(events, title), separators=(",", ":"), ensure_ascii=False)
    return (
        page.replace("{{title}}", html.escape(title))
        .replace("/*{{style}}*/", style)
        .replace("{{data}}", _script_safe(data))
        .replace("/*{{script}}*/", _script_safe(script))
    )


def write_page(events: Sequence[TraceEvent], path: str | os.PathLike[str], title: str | None = None) -> int:
    """Write the studio page for ``events`` to ``path``; return the number of bytes written."""
    text = page_html(events, title or "chess-actors studio")
    data = text.encode("utf-8")
    with open(path, "wb") as file:
        file.write(data)
    return len(data)


def inline_html(events: Iterable[TraceEvent], height: int = 720) -> str:
    """The page inside an ``iframe`` (its own document, so that its script runs in a notebook)."""
    chosen = list(events)
    if not chosen:
        return "<p>No messages recorded yet.</p>"
    document = html.escape(page_html(chosen), quote=True)
    return (
        f'<iframe srcdoc="{document}" style="width:100%;height:{height}px;border:1px solid #ccc" '
        'sandbox="allow-scripts"></iframe>'
    )
