"""The Schafkopf tournament scales on the new-event page in headless Chromium at 1366×768: a
preset picked and a figure changed by keyboard alone, the placeholders following the preset,
and a "nur Gute" event whose sheet shows what the winners wrote (docs/rules.md 2.8)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.support import live_server

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

VIEW = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("scales") / "scales.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "scales"})
    with live_server(app) as url:
        yield url


def tab_to(pg: Any, selector: str, limit: int = 120) -> None:
    """Press Tab until the focus is on ``selector`` (as a keyboard user moves on)."""
    for _ in range(limit):
        if pg.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        pg.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def no_sideways_scroll(pg: Any) -> None:
    assert pg.evaluate("document.documentElement.scrollWidth") <= pg.evaluate("innerWidth")


def test_a_preset_and_a_figure_by_keyboard_alone(kept_page: KeptPage, server: str) -> None:
    pg = kept_page(VIEW)
    pg.goto(f"{server}/events")
    no_sideways_scroll(pg)
    scale = pg.locator("#f-scale")
    assert not scale.is_visible()  # Skat is chosen: no tournament scale
    pg.focus("input[name=name]")
    pg.keyboard.type("Preisschafkopf SELF")
    tab_to(pg, "input[name=game]")
    pg.keyboard.press("ArrowRight")  # Skat → Schafkopf
    assert pg.is_checked("input[name=game][value=schafkopf]")
    assert scale.is_visible()
    for name in ("Grossreuth", "SELF (Schafkopfturnier 2022)", "Donauries-Schafkopfcup",
                 "TSG Niederfüllbach"):  # fmt: skip
        assert name in scale.inner_text()
    tab_to(pg, "input[name=scoring]")
    pg.keyboard.press("ArrowDown")  # money → default
    pg.keyboard.press("ArrowDown")  # → SELF
    assert pg.is_checked("input[name=scoring][value=self]")
    # the figures follow the preset: its own as the placeholders
    assert pg.get_attribute("input[name=sc_solo_plain]", "placeholder") == "5"
    assert pg.get_attribute("input[name=sc_kontra]", "placeholder") == "1"
    tab_to(pg, "#f-scale summary")
    pg.keyboard.press("Enter")  # open "Die Punkte der Turnierwertung ändern"
    tab_to(pg, "input[name=sc_solo_plain]")
    pg.keyboard.type("4")
    tab_to(pg, "select[name=sc_tout_level]")
    pg.keyboard.press("ArrowDown")  # wie die Vorlage → den Schwarz-Wert
    assert pg.input_value("select[name=sc_tout_level]") == "schwarz"
    no_sideways_scroll(pg)
    tab_to(pg, "button[type=submit].primary")
    pg.keyboard.press("Enter")
    pg.wait_for_url("**/events/*/players")
    event_id = pg.url.split("/events/")[1].split("/")[0]
    event = pg.request.get(f"{server}/api/v1/events/{event_id}").json()
    assert event["scoring"]["preset"] == "self"
    assert event["scoring"]["scale"]["solo"] == {"plain": 4, "schneider": 6, "schwarz": 7}
    assert event["scoring"]["scale"]["tout_level"] == "schwarz"
    assert event["scoring"]["scale"]["sie"] == 4 and event["scoring"]["scale"]["kontra"] == 1


def test_a_bad_figure_comes_back_next_to_its_field(kept_page: KeptPage, server: str) -> None:
    pg = kept_page(VIEW)
    pg.goto(f"{server}/events")
    pg.check("input[name=game][value=schafkopf]")
    pg.check("input[name=scoring][value=donauries]")
    assert pg.get_attribute("input[name=sc_tout]", "placeholder") == "2"
    assert pg.get_attribute("input[name=sc_lauf_ruf]", "placeholder") == "0"
    pg.click("#f-scale summary")
    pg.fill("input[name=sc_sie]", "12")
    pg.get_by_role("button", name="Veranstaltung anlegen").click()
    pg.wait_for_load_state()
    assert "Ganze Zahl von 1 bis 10." in pg.locator("#f-scale").inner_text()
    assert pg.is_checked("input[name=scoring][value=donauries]")
    assert pg.input_value("input[name=sc_sie]") == "12"
    assert pg.locator("#f-sc_sie input").get_attribute("aria-invalid") == "true"


def test_a_nur_gute_sheet_shows_what_the_winners_wrote(kept_page: KeptPage, server: str) -> None:
    pg = kept_page(VIEW)
    pg.goto(f"{server}/events")
    pg.check("input[name=game][value=schafkopf]")
    pg.check("input[name=scoring][value=nur-gute]")
    assert pg.get_attribute("input[name=sc_herz_solo]", "placeholder") == "30"
    pg.get_by_role("button", name="Veranstaltung anlegen").click()
    pg.wait_for_url("**/events/*/players")
    event_id = pg.url.split("/events/")[1].split("/")[0]
    api = f"{server}/api/v1/events/{event_id}"
    pg.request.post(f"{api}/players", data={"names": ["Anna", "Bert", "Carl", "Dora"]})
    table = pg.request.post(f"{api}/series", data={"seating": "draw"}).json()["tables"][0]
    seats = table["players"]
    r = pg.request.post(f"{server}/api/v1/sheets/{table['sheet']}/deals",
                        data={"game": "solo", "declarers": [seats[0]], "suit": "herz",
                              "won": False})  # fmt: skip
    assert r.status == 201, r.json()
    pg.goto(f"{server}/sheets/{table['sheet']}")
    no_sideways_scroll(pg)
    strip = pg.locator("#standings")
    for p in seats[1:]:  # a lost Herz-Solo: each opponent writes 30
        assert "+30" in strip.locator(f'[data-p="{p}"]').inner_text()
    assert "+30" not in strip.locator(f'[data-p="{seats[0]}"]').inner_text()
    assert "nur Gute (TSG Niederfüllbach)" in pg.content()
