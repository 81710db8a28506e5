"""Every event setting from the pages in headless Chromium at 1366×768, by keyboard alone:
the organiser tabs through the new-event page (fees with tiers, table and team fee, the prize
plan with series, category and team prizes and a goods prize, double entry), the ranking page
states the fee rule in full, and the close page takes a goods prize."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.support import live_server

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Flask]]:
    db = tmp_path_factory.mktemp("settings-e2e") / "e2e.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "e2e"})
    with live_server(app) as url:
        yield url, app


def tab_to(pg: object, name: str, limit: int = 300) -> None:
    """Tab forward until the control named ``name`` has the focus (keyboard only)."""
    for _ in range(limit):
        if pg.evaluate("document.activeElement && document.activeElement.name") == name:  # type: ignore[attr-defined]
            return
        pg.keyboard.press("Tab")  # type: ignore[attr-defined]
    raise AssertionError(f"{name} is not reachable by Tab")


def type_into(pg: object, name: str, text: str) -> None:
    tab_to(pg, name)
    pg.keyboard.press("Control+A")  # type: ignore[attr-defined]
    pg.keyboard.type(text)  # type: ignore[attr-defined]


def choose(pg: object, group: str, value: str) -> None:
    """A radio group by keyboard: Tab into it, then the arrow keys to the value."""
    tab_to(pg, group)
    for _ in range(5):
        if pg.evaluate("document.activeElement.value") == value:  # type: ignore[attr-defined]
            break
        pg.keyboard.press("ArrowRight")  # type: ignore[attr-defined]
    assert pg.evaluate(f"document.querySelector('input[name={group}]:checked').value") == value  # type: ignore[attr-defined]


def test_every_setting_by_keyboard_at_1366(kept_page: KeptPage, served: tuple[str, Flask]) -> None:
    server, _app = served
    pg = kept_page({"width": 1366, "height": 768})
    pg.goto(f"{server}/events")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 1366
    pg.locator("body").focus()
    type_into(pg, "name", "Preisskat Herbst")
    type_into(pg, "deals4", "4")
    type_into(pg, "deals3", "3")
    type_into(pg, "entry", "10")
    type_into(pg, "table_fee", "2")
    type_into(pg, "lost_fee", "0,50")
    type_into(pg, "tier_from", "4")
    type_into(pg, "tier_fee", "1")
    type_into(pg, "tier3_from", "7")
    type_into(pg, "tier3_fee", "1,50")
    type_into(pg, "team_fee", "5")
    tab_to(pg, "double_entry")
    pg.keyboard.press("Space")
    # the prize plan is folded away: Enter on its summary opens it
    for _ in range(300):
        if pg.evaluate("document.activeElement.closest('#settings-prizes') !== null"):
            break
        pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.tagName") == "SUMMARY"
    pg.keyboard.press("Enter")
    choose(pg, "payout_kind", "shares")
    type_into(pg, "payout", "40 / 25 / Gans")
    choose(pg, "series_kind", "fixed")
    type_into(pg, "series_values", "10")
    type_into(pg, "categories", "Damen, Senioren, Jugend")
    choose(pg, "category_kind", "fixed")
    type_into(pg, "category_values", "Präsentkorb")
    type_into(pg, "teams", "Nord: Anna, Bernd")
    choose(pg, "team_kind", "fixed")
    type_into(pg, "team_values", "20")
    # every control of the settings is in view of a 1366 px screen, none cut off
    boxes = pg.evaluate("""[...document.querySelectorAll('#settings-fees input, #settings-prizes input, #settings-prizes textarea')]
        .filter(e => e.type !== 'radio').map(e => e.getBoundingClientRect().right)""")
    assert boxes and max(boxes) <= 1366
    tab_to(pg, "")  # past the last field: the submit button has no name
    for _ in range(40):
        if pg.evaluate("document.activeElement.type") == "submit":
            break
        pg.keyboard.press("Tab")
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    assert "/players" in pg.url, pg.content()[:2000]
    event_id = pg.url.split("/events/")[1].split("/")[0]
    api = pg.request.get(f"{server}/api/v1/events/{event_id}").json()
    assert api["fees"] == {"entry_cents": 1000, "table_cents": 200, "team_cents": 500,
                           "lost_game_tiers": [{"from": 1, "cents": 50},
                                               {"from": 4, "cents": 100},
                                               {"from": 7, "cents": 150}]}  # fmt: skip
    assert api["payout"] == {"kind": "shares", "values": [40, 25, "Gans"]}
    assert api["series_prizes"] == {"kind": "fixed", "values": [1000]}
    assert api["categories"] == ["Damen", "Senioren", "Jugend"]
    assert api["category_prizes"] == {"kind": "fixed", "values": ["Präsentkorb"]}
    assert api["teams"] == [{"name": "Nord", "members": ["Anna", "Bernd"]}]
    assert api["team_payout"] == {"kind": "fixed", "values": [2000]}
    assert api["double_entry"] is True
    # the players page: register, a category and the teams, still by keyboard
    assert pg.evaluate("document.activeElement.name") == "names"  # autofocus
    pg.keyboard.type("Anna, Bernd, Carla, Dora")
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    pg.locator("body").focus()
    tab_to(pg, "category")  # Anna's, the first
    pg.keyboard.press("ArrowDown")  # "–" → "Damen"
    pg.keyboard.press("Tab")
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    pg.locator("body").focus()
    tab_to(pg, "teams")
    pg.keyboard.press("Control+End")
    pg.keyboard.type("Süd: Carla, Dora")
    pg.keyboard.press("Tab")
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    api = pg.request.get(f"{server}/api/v1/events/{event_id}").json()
    assert [(r["name"], r.get("category")) for r in api["registrations"]] == [
        ("Anna", "Damen"), ("Bernd", None), ("Carla", None), ("Dora", None)]  # fmt: skip
    assert api["teams"] == [{"name": "Nord", "members": ["Anna", "Bernd"]},
                            {"name": "Süd", "members": ["Carla", "Dora"]}]  # fmt: skip
    # the ranking page states the fee rule in full
    pg.goto(f"{server}/events/{event_id}")
    rule = pg.locator("#fee-rule").inner_text()
    for part in ("10,00 €", "ab dem 1. 0,50 €", "ab dem 4. 1,00 €", "ab dem 7. 1,50 €",
                 "Tischgeld 2,00 € je Serie", "Mannschaftsgeld 5,00 €"):  # fmt: skip
        assert part in rule, rule
    # the close page takes a goods prize by keyboard, and shows it again
    pg.goto(f"{server}/events/{event_id}/close")
    pg.locator("body").focus()
    choose(pg, "payout_kind", "fixed")
    type_into(pg, "payout", "50 / Gans")
    with pg.expect_navigation():
        pg.keyboard.press("Enter")
    assert pg.locator("input[name=payout]").input_value() == "50 / Gans"
    api = pg.request.get(f"{server}/api/v1/events/{event_id}").json()
    assert api["payout"] == {"kind": "fixed", "values": [5000, "Gans"]}
