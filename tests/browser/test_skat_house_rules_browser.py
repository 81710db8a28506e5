"""The Schieberamsch push control in the page (a phone): tapped, previewed, saved."""

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
    db = tmp_path_factory.mktemp("pushes") / "pushes.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "pushes"})
    with live_server(app) as url:
        yield url, app.test_client()


def test_schieberamsch_with_two_pushes_is_tapped_previewed_and_saved(
    kept_page: KeptPage, served: tuple[str, Any]
) -> None:
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla"],
                   "rules": {"ramsch": True, "schieberamsch": True}}).get_json()["id"]  # fmt: skip
    pg = kept_page({"width": 375, "height": 667}, has_touch=True)
    pg.goto(f"{base}/sheets/{sid}")
    form = pg.locator("form.deal")
    pushes = form.locator("#f-pushes")
    assert not pushes.is_visible()  # a played game has no pushes
    reach(form.locator("#f-kind").get_by_text("Ramsch", exact=True)).tap()  # Mehr, Ramsch
    assert pushes.is_visible()
    box = pushes.get_by_text("2", exact=True).bounding_box()
    assert box is not None and box["height"] >= 40  # a big tap target
    pushes.get_by_text("2", exact=True).tap()
    for i, v in ((0, "70"), (1, "50")):  # the third is filled in (120 in all)
        pg.fill(f"input[name=r{i}]", v)
    assert pg.input_value("input[name=r2]") == "0"
    pg.locator("#preview").filter(has_text="2× geschoben").wait_for()
    # the list entry 70 × 2 × 2; Anna pays it to each of the other two
    assert "Liste: Anna −280" in (pg.text_content("#preview") or "")
    # the preview shows the figure the row and the list show (the list entry)
    assert "Anna −280" in pg.inner_text("#preview")
    assert pg.evaluate("window.scrollY") == 0  # nothing scrolled to reach Save
    pg.get_by_role("button", name="Speichern").tap()
    pg.wait_for_url("**saved=1*")
    deal = api.get(f"/api/v1/sheets/{sid}").get_json()["deals"][0]
    assert deal["input"]["ramsch"]["pushes"] == 2 and deal["list"]["Anna"] == -280
    assert deal["deltas"]["Anna"] == -560  # she pays it to each of the other two
