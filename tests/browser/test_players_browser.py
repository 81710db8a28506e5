"""Players, groups and standings in headless Chromium on a 375 px phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_end_to_end_browser import page, server  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.browser


def fits(pg: Any) -> None:
    """Nothing on the page is wider than the phone's screen."""
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"page is {width}px wide"


def api(pg: Any, server: str, path: str, body: dict) -> dict:  # noqa: F811
    resp = pg.request.post(f"{server}{path}", data=body)
    assert resp.status in (200, 201), resp.text()
    return resp.json()  # type: ignore[no-any-return]


def test_new_sheet_suggests_known_players(page: Any, server: str) -> None:  # noqa: F811
    api(page, server, "/api/v1/sheets", {"game": "skat", "players": ["Annegret", "Bernd", "Carla"]})
    page.goto(f"{server}/sheets")
    options = page.eval_on_selector_all("#known-players option", "os => os.map(o => o.value)")
    assert {"Annegret", "Bernd", "Carla"} <= set(options)
    assert page.get_attribute("input[name=p1]", "list") == "known-players"
    box = page.locator("form.newsheet").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 375
    page.fill("input[name=p1]", "annegret ")
    page.fill("input[name=p2]", "BERND")
    page.fill("input[name=p3]", "Dora")
    page.get_by_role("button", name="Blatt anlegen").click()
    page.wait_for_url("**/sheets/*")
    page.goto(f"{server}/players")
    fits(page)
    row = page.locator("tr", has_text="Annegret")
    assert row.locator("td.n").inner_text() == "2"  # typed differently, one player
    assert page.locator("tr", has_text="Dora").count() == 1


def test_player_page_on_a_phone(page: Any, server: str) -> None:  # noqa: F811
    sheet = api(page, server, "/api/v1/sheets", {"game": "skat", "players": ["Paula", "Quirin",
                "Rosa", "Sepp"], "rules": {"stake_cents": 2}})  # fmt: skip
    for n, (who, pts) in enumerate([("Quirin", 80), ("Rosa", 40), ("Sepp", 95), ("Quirin", 61)]):
        body = {"game": "grand" if n % 2 else "spades", "matadors": 2, "with": True,
                "declarer_points": pts, "declarer": who}  # fmt: skip
        api(page, server, f"/api/v1/sheets/{sheet['id']}/deals", body)
    players = page.request.get(f"{server}/api/v1/players").json()["players"]
    pid = next(p["id"] for p in players if p["name"] == "Quirin")
    page.goto(f"{server}/players/{pid}")
    page.get_by_role("heading", name="Quirin").wait_for()
    assert page.locator("svg.chart").is_visible()
    box = page.locator("svg.chart").bounding_box()
    assert box is not None and box["width"] <= 375
    assert "Seeger-Fabian" in page.inner_text("#skat")
    assert page.locator(".contracts tr", has_text="Grand").locator("td").nth(1).inner_text() == "1"
    fits(page)
    page.get_by_text("Umbenennen oder zusammenführen").click()
    page.fill("form.inline input[name=name]", "Quirin Q.")
    page.get_by_role("button", name="Umbenennen").click()
    page.get_by_role("heading", name="Quirin Q.").wait_for()
    fits(page)


def test_standings_on_a_phone(page: Any, server: str) -> None:  # noqa: F811
    page.goto(f"{server}/groups")
    page.fill("input[name=name]", "Stammtisch Goldener Hirsch")
    page.select_option("select[name=rank_by]", "seeger_fabian")
    page.fill("input[name=min_sheets]", "2")
    page.get_by_role("button", name="Gruppe anlegen").click()
    page.get_by_role("heading", name="Stammtisch Goldener Hirsch").wait_for()
    gid = int(page.url.rstrip("/").rsplit("/", 1)[1])
    names = ["Toni", "Uschi", "Vroni"]
    for k in range(3):
        seats = names if k < 2 else ["Toni", "Uschi", "Walter"]
        sheet = api(page, server, "/api/v1/sheets", {"game": "skat", "players": seats,
                                                     "group": gid})  # fmt: skip
        body = {"game": "clubs", "matadors": 1, "with": True, "declarer_points": 70 - 20 * k,
                "declarer": "Toni"}  # fmt: skip
        api(page, server, f"/api/v1/sheets/{sheet['id']}/deals", body)
    page.reload()
    rows = page.locator("table.standings tbody tr")
    rows.first.wait_for()
    assert rows.count() == 4
    first = rows.nth(0).inner_text()
    assert first.startswith("1.") and "Uschi" in first
    assert "Walter" in rows.nth(3).inner_text() and rows.nth(3).inner_text().startswith("–")
    fits(page)
    # The PDF link carries the period shown.
    href = page.get_attribute("a:has-text('PDF')", "href")
    assert href is not None and "standings.pdf" in href and "from=" in href
    resp = page.request.get(f"{server}{href}")
    assert resp.status == 200 and resp.body().startswith(b"%PDF")
