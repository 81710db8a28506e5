"""A club night in headless Chromium: the organiser seats a series, a table's phone opens its
QR link and enters deals, and the ranking screen updates by itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from skatcalc import create_app
from skatcalc.web.sheet_view import qr_svg
from tests.browser.pages import KeptPage, Outside
from tests.support import live_server

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """On the network (--lan): editing needs the edit link, as at a real club night."""
    db = tmp_path_factory.mktemp("events-e2e") / "e2e.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "e2e", "LAN": True})
    with live_server(app) as url:
        app.config["PUBLIC_URL"] = url  # what the QR codes point the phones at
        yield url


def phone(kept_page: KeptPage, outside: Outside, server: str, slot: int, width: int = 375) -> Any:
    """The page of a device of its own (``slot``), its requests watched by ``outside``."""
    return outside.watch(kept_page({"width": width, "height": 740}, slot=slot), server)


def no_sideways_scroll(pg: object) -> None:
    width = pg.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    view = pg.evaluate("window.innerWidth")  # type: ignore[attr-defined]
    assert width <= view, f"page is {width}px wide on a {view}px screen"


def test_table_phone_enters_deals_and_the_ranking_screen_follows(
    kept_page: KeptPage, outside: Outside, lan_server: str
) -> None:
    server = lan_server
    org = phone(kept_page, outside, server, 0, width=320)

    # The organiser creates the evening on a 320 px phone …
    org.goto(f"{server}/events")
    no_sideways_scroll(org)
    org.fill("input[name=name]", "Clubabend Test")
    org.fill("input[name=deals4]", "4")
    org.fill("input[name=deals3]", "3")
    org.fill("input[name=entry]", "10")
    org.fill("input[name=lost_fee]", "0,50")
    org.get_by_role("button", name="Veranstaltung anlegen").click()
    org.wait_for_url("**/events/*/players")
    # … registers the walk-ins on one screen …
    org.fill("input[name=names]", "Anna, Bernd, Carla")
    org.get_by_role("button", name="Anmelden").click()
    org.wait_for_url("**/players*")
    assert "Es spielen 3 Spieler · Tische: 3" in org.inner_text("#series")
    no_sideways_scroll(org)
    # … and draws series 1 with a seed everybody can see.
    org.fill("#series input[name=seed]", "11")
    org.get_by_role("button", name="Serie 1 setzen").click()
    org.wait_for_url("**/series/1")
    assert org.inner_text(".seed") == "11"
    no_sideways_scroll(org)
    card = org.locator("#table-1")
    edit_url = card.locator("a.link-edit").inner_text()
    assert edit_url.startswith(f"{server}/sheets/") and "/edit/" in edit_url
    # the QR code on the card encodes exactly that link
    drawn = card.locator(".qr svg path").last.get_attribute("d")
    assert drawn and f'd="{drawn}"' in str(qr_svg(edit_url))
    # each seat: the start number, the name (and who deals first)
    seats = [s.split(maxsplit=1)[1] for s in card.locator(".seats li").all_inner_texts()]
    first_dealer = seats[0].replace("gibt zuerst", "").strip()
    event_url = org.url.split("/series/")[0]

    # The ranking screen (a laptop on a projector) needs no rights to watch.
    screen = phone(kept_page, outside, server, 1, width=1280)
    screen.goto(f"{event_url}/screen")
    assert "Tisch 1" in screen.inner_text(".scrhead")

    # The table's phone scans the QR code: the link lets it enter deals on its sheet.
    tab = phone(kept_page, outside, server, 2)
    tab.goto(edit_url)
    tab.wait_for_url("**/sheets/*")
    no_sideways_scroll(tab)
    form = tab.locator("form.deal")
    declarer = [s.replace("gibt zuerst", "").strip() for s in seats][1]  # forehand
    form.locator("#f-declarer").get_by_text(declarer, exact=True).click()
    form.locator("#f-game").get_by_text("Grand", exact=True).click()
    form.locator("#f-spitzen").get_by_text("mit 2", exact=True).click()
    form.locator("#f-won").get_by_text("gewonnen", exact=True).click()
    with tab.expect_navigation():  # Save looks at the server first, then posts
        tab.get_by_role("button", name="Speichern").click()
    assert not tab.locator(".err").count(), tab.inner_text("main")
    assert tab.locator("#deal-1").count() == 1
    assert "noch 2 Spiele" in tab.inner_text(".eventline")

    # Seeger-Fabian: Grand mit 2 = 72, + 50 for the game won. The screen shows it by itself.
    row = screen.locator(".scrrank li").filter(has_text=declarer)
    row.filter(has_text="122").wait_for(timeout=8000)
    assert screen.locator(".scrrank li").first.inner_text().startswith("1.")
    assert "Tisch 1 (2)" in screen.inner_text(".scrhead")  # deals left

    # The organiser's phone shows the live ranking too, and a second deal arrives there.
    org.goto(event_url)
    no_sideways_scroll(org)
    assert "122" in org.inner_text("table.ranking")
    second = [s.replace("gibt zuerst", "").strip() for s in seats][2]
    form = tab.locator("form.deal")
    form.locator("#f-declarer").get_by_text(second, exact=True).click()
    form.locator("#f-game").get_by_text("Null", exact=True).click()
    form.locator("#f-won").get_by_text("verloren", exact=True).click()
    with tab.expect_navigation():  # Save looks at the server first, then posts
        tab.get_by_role("button", name="Speichern").click()
    assert tab.locator("#deal-2").count() == 1
    # Null lost: −46 −50 = −96; the others get 40 each at a table of three
    rows = org.locator("table.ranking tbody tr")
    rows.filter(has_text=second).filter(has_text="−96").wait_for(timeout=8000)
    rows.filter(has_text=declarer).filter(has_text="162").wait_for(timeout=8000)
    assert first_dealer in org.inner_text("table.ranking")

    assert outside.urls == [], f"requests left the machine: {outside.urls}"
