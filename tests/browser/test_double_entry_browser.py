"""Double entry in headless Chromium: two phones keep the two lists of one table, a slip on
one of them shows on both phones and on the organiser's page, and after the correction the
table confirms its list."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from skatcalc import create_app
from tests.browser.pages import KeptPage, Outside
from tests.support import live_server

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

# (declarer's seat, game, Spitzen, result) per deal at a table of three; list B types deal 3
# "mit 2" instead of "mit 1": 72 instead of 48.
DEALS = [
    (1, "Grand", "mit 1", "gewonnen"),
    (2, "♣ Kreuz", "mit 1", "gewonnen"),
    (0, "Grand", "mit 1", "gewonnen"),
    (1, "♥ Herz", "ohne 1", "verloren"),
    (2, "Null", None, "verloren"),
    (0, "♠ Pik", "mit 2", "gewonnen"),
]


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("double-entry-e2e") / "e2e.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "e2e", "LAN": True})
    with live_server(app) as url:
        app.config["PUBLIC_URL"] = url
        yield url


def enter(page: object, seats: list[str], deal: tuple[int, str, str | None, str]) -> None:
    seat, game, spitzen, result = deal
    form = page.locator("form.deal")  # type: ignore[attr-defined]
    form.locator("#f-declarer").get_by_text(seats[seat], exact=True).click()
    form.locator("#f-game").get_by_text(game, exact=True).click()
    if spitzen:
        form.locator("#f-spitzen").get_by_text(spitzen, exact=True).click()
    form.locator("#f-won").get_by_text(result, exact=True).click()
    with page.expect_navigation():  # type: ignore[attr-defined]  # a look, then the post
        page.get_by_role("button", name="Speichern").click()  # type: ignore[attr-defined]
    assert not page.locator(".err").count(), page.inner_text("main")  # type: ignore[attr-defined]


def reload(page: Any) -> None:
    """Load the page again. Its own script reloads it when the sheet's revision moves (the
    other phone saved): a reload of ours that meets one of its own is aborted (or, when its
    document was swapped under ours, Playwright's call loses the page it started on), and
    the page it loaded is the newest either way."""
    try:
        page.reload()
    except PlaywrightError as exc:
        if "ERR_ABORTED" not in str(exc) and "Not attached to an active page" not in str(exc):
            raise
        page.wait_for_load_state()


def test_two_phones_keep_two_lists_and_the_table_confirms(
    kept_page: KeptPage, outside: Outside, lan_server: str
) -> None:
    server = lan_server

    def device(slot: int, width: int = 375) -> Any:
        """The page of a device of its own, its requests watched."""
        return outside.watch(kept_page({"width": width, "height": 740}, slot=slot), server)

    org = device(0, 360)
    org.goto(f"{server}/events")
    org.fill("input[name=name]", "Doppelt")
    org.fill("input[name=deals4]", "8")
    org.fill("input[name=deals3]", "6")
    org.locator("#f-double_entry input").check()
    org.get_by_role("button", name="Veranstaltung anlegen").click()
    org.wait_for_url("**/events/*/players")
    org.fill("input[name=names]", "Anna, Bernd, Carla")
    org.get_by_role("button", name="Anmelden").click()
    org.wait_for_url("**/players*")
    org.get_by_role("button", name="Serie 1 setzen").click()
    org.wait_for_url("**/series/1")
    series_url = org.url
    card = org.locator("#table-1")
    links = card.locator("a.link-edit").all_inner_texts()
    assert len(links) == 2 and links[0] != links[1]  # list A and list B, each its own link
    assert card.locator(".qr svg").count() == 2
    seats = [
        # each seat: the start number, the name (and who deals first)
        s.split(maxsplit=1)[1].replace("gibt zuerst", "").strip()
        for s in card.locator(".seats li").all_inner_texts()
    ]

    # Two phones at the table, each opens its list's QR link.
    a, b = device(1), device(2)
    a.goto(links[0])
    b.goto(links[1])
    assert "Liste A" in a.inner_text("#signoff") and "Liste B" in b.inner_text("#signoff")
    for i, deal in enumerate(DEALS):
        enter(a, seats, deal)
        enter(b, seats, (deal[0], deal[1], "mit 2", deal[3]) if i == 2 else deal)

    msg = "Spiel 3: Liste A +48, Liste B +72 — bitte prüfen"
    reload(a)
    for page in (a, b):
        assert msg in page.inner_text("#signoff")
        assert "noch nicht gezählt: 1" in page.inner_text("#signoff")
        assert page.get_by_role("button", name="Tischführer bestätigt für alle").count() == 0
    org.goto(series_url)
    assert msg in org.inner_text("#table-1")
    for page in (a, b, org):  # the sign-off fits a phone
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.evaluate("window.innerWidth")
    assert "Abweichungen an Tisch 1" in org.inner_text(".signoff-summary")

    # Phone B corrects deal 3; both lists agree and the table confirms, one tap per player.
    b.goto(b.url.split("#")[0].split("?")[0] + "/deals/3/edit")
    b.locator("form").filter(has=b.locator("#f-spitzen")).first.locator("#f-spitzen").get_by_text(
        "mit 1", exact=True
    ).click()
    b.get_by_role("button", name="Korrektur speichern").click()
    b.wait_for_url("**/sheets/*")
    assert msg not in b.inner_text("main")
    reload(a)
    assert msg not in a.inner_text("main")
    for name in seats[:2]:
        with a.expect_navigation():
            a.get_by_role("button", name=f"{name} bestätigt").click()
    reload(b)
    with b.expect_navigation():
        b.get_by_role("button", name=f"{seats[2]} bestätigt").click()
    assert "Tisch bestätigt am" in b.inner_text("#signoff")
    reload(a)
    assert "Tisch bestätigt am" in a.inner_text("#signoff")
    org.goto(series_url)
    assert "Bestätigt: 1 von 1 Tischen" in org.inner_text(".signoff-summary")
    assert "Tisch bestätigt am" in org.inner_text("#table-1")

    assert outside.urls == [], f"requests left the machine: {outside.urls}"
