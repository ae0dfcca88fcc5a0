"""The message studio: one self-contained HTML page that shows, steps and explains a traced game.

:func:`page_html` turns trace events into the page (script, style and data inline; no network).
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources

from actors.studio.model import build_model
from actors.tracing.compare import OrderComparison
from actors.tracing.event import FORMAT_VERSION, TraceEvent

__all__ = ["PAGE_MESSAGES", "build_model", "inline_html", "live_page_html", "page_html", "write_page"]

_TEMPLATE_FILES = ("page.html", "page.css", "page.js")

PAGE_MESSAGES = 15_000
"""The most messages one studio page shows (about 20 long games; a page of that many is some
13 MB, and building it takes some 160 MB): past it, a command asks for fewer plies or games
rather than holding a trace of any size in memory."""


def _template(name: str) -> str:
    return resources.files("actors.studio").joinpath(name).read_text(encoding="utf-8")


def _script_safe(code: str) -> str:
    # Inside <script> only "</" can end the element early; "<!--" can start a comment state.
    return code.replace("</", "<\\/").replace("<!--", "<\\!--")


def _json_pieces_in_script(data: object) -> Iterator[str]:
    """``data`` as JSON that no text inside it can take out of its ``<script>`` element, a piece at
    a time as the encoder makes them: ``<``, ``>`` and ``&`` are written as JSON escapes
    (``\\u003c`` ...), which JSON.parse reads back as themselves, so neither ``</script>`` nor
    ``<!--`` can appear and the JSON stays valid (each character is escaped on its own, so the
    pieces can be escaped apart)."""
    encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
    for piece in encoder.iterencode(data):
        yield piece.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_PLACEHOLDER = re.compile(r"\{\{title\}\}|/\*\{\{style\}\}\*/|\{\{data\}\}|/\*\{\{script\}\}\*/")
"""The template's four places, filled in one pass: what is put in one is never searched again, so
a ``{{data}}`` in a title or a trace's text stays text."""


def _page_pieces(events: Sequence[TraceEvent], title: str, opening: str | None,
                 compare: OrderComparison | None = None) -> Iterator[str]:
    """The page as pieces of text, the data as the encoder makes it (never one string of it all)."""
    if not events:
        raise ValueError("no trace events to show")
    model = build_model(events, title)
    model["opening"] = opening
    if compare is not None:
        model["compare"] = compare.as_json()
    return _filled(model, title)


def _filled(model: object, title: str) -> Iterator[str]:
    """The page's template filled with ``model`` (as JSON) and ``title``, a piece of text at a time."""
    page, style, script = (_template(name) for name in _TEMPLATE_FILES)
    values = {"{{title}}": html.escape(title), "/*{{style}}*/": style, "/*{{script}}*/": _script_safe(script)}
    written = 0
    for match in _PLACEHOLDER.finditer(page):
        yield page[written:match.start()]
        if match.group() == "{{data}}":
            yield from _json_pieces_in_script(model)
        else:
            yield values[match.group()]
        written = match.end()
    yield page[written:]


def page_html(
    events: Sequence[TraceEvent], title: str = "chess-actors studio", opening: str | None = None
) -> str:
    """Return the studio page for ``events`` as one HTML document.

    Every game of the trace gets its own entry in the page's game picker; the board follows the
    moves the referee accepted, starting from the placement the board reported at start-up.
    ``opening`` is where the page opens when its address names no place (``"ply=12&msg=3"``).

    Args:
        events: the trace's events (every game of it).
        title: the page's title.
        opening: where it opens, e.g. ``"ply=12&msg=3"``; None opens on the first message.

    Returns:
        The HTML text, self-contained (no network).

    Raises:
        ValueError: ``events`` is empty (a page about nothing is never what was wanted).
    """
    return "".join(_page_pieces(events, title, opening))


def live_page_html(title: str = "chess-actors live studio") -> str:
    """Return the live studio's page: the studio with no trace inside, which opens the WebSocket of
    the server it came from (``/ws`` with the token of its own address) and draws what it streams."""
    model = {"title": title, "format": FORMAT_VERSION, "games": [], "live": True, "opening": None}
    return "".join(_filled(model, title))


def write_page(events: Sequence[TraceEvent], path: str | os.PathLike[str], title: str | None = None,
               compare: OrderComparison | None = None, opening: str | None = None) -> int:
    """Write the studio page for ``events`` to ``path``; return the number of bytes written.

    The page is written as it is made, a piece at a time: besides the events, the memory it takes
    is the page's model, not the page's text as well (several times its size as one string).

    Args:
        events: the trace's events.
        path: where the page goes (overwritten).
        title: the page's title (None: the default).
        compare: two delivery orders of a ply to show side by side under the diagram.
        opening: where the page opens (see :func:`page_html`).

    Returns:
        The number of bytes written.

    Raises:
        OSError: the file cannot be written.
        ValueError: ``events`` is empty.
    """
    written = 0
    with open(path, "w", encoding="utf-8", newline="") as file:
        for piece in _page_pieces(events, title or "chess-actors studio", opening, compare):
            written += len(piece.encode("utf-8"))
            file.write(piece)
    return written


def inline_html(events: Iterable[TraceEvent], ply: int | None = None, height: int = 720) -> str:
    """The page inside an ``iframe`` (its own document, so that its script runs in a notebook),
    open at ``ply`` (default: the last ply recorded)."""
    chosen = list(events)
    if not chosen:
        return "<p>No messages recorded yet.</p>"
    plies = [
        number
        for event in chosen
        if (number := event.get("ply")) is not None and event.get("phase") != "startup"
    ]
    if ply is None and plies:
        ply = max(plies)
    document = html.escape(page_html(chosen, opening=None if ply is None else f"ply={ply}"), quote=True)
    return (
        f'<iframe srcdoc="{document}" style="width:100%;height:{height}px;border:1px solid #ccc" '
        'sandbox="allow-scripts"></iframe>'
    )
