"""The server-drawn live preview in headless Chromium: a correction's preview is the deal as
corrected, in the page's language, with the CSRF token of the form; a preview answer that is
overtaken by a newer tap never lands; offline, the preview stays as it was, without errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.support import live_server, reach

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("preview") / "preview.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "preview"})
    with live_server(app) as url:
        yield url, app.test_client()


def test_correction_preview_in_english_and_offline(
    kept_page: KeptPage, served: tuple[str, Any]
) -> None:
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]}).get_json()[
        "id"
    ]
    deal = {"game": "grand", "with": True, "matadors": 2, "won": True, "declarer": "B"}
    assert api.post(f"/api/v1/sheets/{sid}/deals", json=deal).status_code == 201
    pg = kept_page({"width": 375, "height": 667}, has_touch=True)
    bad: list[str] = []

    def console(m: Any) -> None:
        if m.type == "error":
            bad.append(m.text)

    pg.on("console", console)
    try:
        offline_preview(pg, base, api, sid)
    finally:
        pg.remove_listener("console", console)
    # (the browser's own lines for the 422 and the lost connection are no script error)
    assert [b for b in bad if not b.startswith("Failed to load resource")] == []


def offline_preview(pg: Any, base: str, api: Any, sid: int) -> None:
    pg.goto(f"{base}/sheets/{sid}/deals/1/edit?lang=en")
    form = pg.locator("form.deal")
    form.locator("#f-won").get_by_text("lost", exact=True).tap()
    pg.locator("#preview .big").filter(has_text="−144").wait_for()
    assert "lost · game value 72" in " ".join(pg.inner_text("#preview .verdict").split())
    reach(pg.locator("input[name=declarer_points]")).fill("7x")
    pg.locator("#preview").filter(has_text="Enter a whole number.").wait_for()
    # no connection: the preview keeps what it showed, and nothing is logged as an error
    pg.context.set_offline(True)
    pg.fill("input[name=declarer_points]", "")
    pg.wait_for_timeout(400)
    assert "Enter a whole number." in pg.inner_text("#preview")
    pg.context.set_offline(False)
    pg.fill("input[name=declarer_points]", "50")
    pg.locator("#preview .big").filter(has_text="−144").wait_for()
    # nothing stored by any of it
    assert api.get(f"/api/v1/sheets/{sid}").get_json()["deals"][0]["won"] is True
