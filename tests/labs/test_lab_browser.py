"""A counterexample's studio page, in a real browser (Debian's chromium through Playwright): it opens
at the delivery where the student's actor first answered otherwise than the project's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from actors.cli import main
from tests.helpers.browser_pages import browser, open_page, where  # noqa: F401  (browser: the chromium fixture)
from tests.helpers.seeded_labs import LABS


def test_the_counterexample_page_opens_at_the_failing_delivery(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    wrong = LABS / "lab1" / "wrong_rook_jumps.py"
    status = main(["lab", "check", "1", str(wrong), "--quick", "--fail-fast",
                   "--counterexample", str(tmp_path)])
    assert status == 1
    scenario = (tmp_path / "lab1-counterexample.scenario").read_text(encoding="utf-8")
    assert "send a1 move a1 c1 white" in scenario and "expect yes traversed b1" in scenario
    page = open_page(browser, tmp_path / "lab1-counterexample.html")
    try:
        # The page opens where the check said: the query the rook answered wrongly, its reply shown.
        phase, message = where(page)
        summary = page.locator("#detail-summary").inner_text()
        route = page.locator("#detail-route").inner_text()
        reply = page.locator("#detail-reply-payload").inner_text()
        assert "MoveQuery" in summary and route.startswith("client → white-rook-a1"), (summary, route)
        assert '"target": "c1"' in reply and '"traversed": []' in reply, reply  # the wrong answer, shown
        assert (phase, message) == (1, 3)  # the send's phase; its third message (two ask the board first)
        assert not page.errors, page.errors
    finally:
        page.close()
