"""End to end in the whole headless Chromium (Debian's ``/usr/bin/chromium``), phone-sized."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.support import live_server, reach

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser(whole_browser: object) -> object:
    """The whole browser as people run it, not the headless shell of the other browser tests."""
    return whole_browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "e2e.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "e2e"})
    with live_server(app) as url:
        yield url


@pytest.fixture
def page(kept_page: KeptPage, server: str) -> Iterator[object]:
    pg = kept_page({"width": 375, "height": 812})
    external: list[str] = []

    def outside(req: Any) -> None:
        if not req.url.startswith(server):
            external.append(req.url)

    pg.context.on("request", outside)
    yield pg
    pg.context.remove_listener("request", outside)
    assert external == [], f"requests left the machine: {external}"


def test_skat_calculator_live_preview_and_submit(page: object, server: str) -> None:
    pg = page
    pg.goto(f"{server}/skat")  # type: ignore[attr-defined]
    pg.get_by_text("Grand", exact=True).click()
    pg.locator("#f-spitzen").get_by_text("mit 2", exact=True).click()
    reach(pg.locator("input[name=declarer_points]")).fill("75")
    pg.locator("#result .big").filter(has_text="+72").wait_for()
    assert "mit 2, Spiel 3 × 24 = 72" in pg.inner_text("#result")
    pg.get_by_role("button", name="Berechnen").click()
    pg.wait_for_url("**/skat?*")
    assert "+72" in pg.inner_text("#result")
    # Null hides the matadors; a Null below the bid is refused next to the field.
    pg.get_by_text("Null", exact=True).click()
    assert not pg.locator("#f-spitzen").is_visible()
    reach(pg.locator("select[name=bid]")).select_option("36")
    pg.locator("#f-won").get_by_text("gewonnen").click()
    pg.get_by_role("button", name="Berechnen").click()
    assert "Null ouvert (46)" in pg.inner_text("#f-bid + .err")


def test_card_picker_fills_the_matadors(page: object, server: str) -> None:
    pg = page
    pg.goto(f"{server}/skat")  # type: ignore[attr-defined]
    pg.get_by_text("♥ Herz").click()
    pg.get_by_text("Karten antippen").click()
    for card in ["CJ", "SJ", "DJ", "HA", "HK", "S7", "S8", "D7", "DA", "C9"]:
        pg.locator(f"input[name=cards][value={card}] + span").click()
    reach(pg.locator("input[name=declarer_points]")).fill("70")
    pg.locator("#result .big").filter(has_text="+30").wait_for()
    assert pg.locator("input[name=spitzen][value=w2]").is_checked()


def test_schafkopf_sheet_seed_evening(page: object, server: str) -> None:
    pg = page
    pg.goto(f"{server}/sheets")  # type: ignore[attr-defined]
    pg.locator("#f-game").get_by_text("Schafkopf").click()
    for i, name in enumerate("ABCD", start=1):
        pg.fill(f"input[name=p{i}]", name)
    pg.get_by_role("button", name="Blatt anlegen").click()
    pg.wait_for_url("**/sheets/*")
    deals = [
        ("Sauspiel", ["A", "D"], "gewonnen", ["schneider", "schwarz"], "1", "—", "0"),
        ("Wenz", ["B"], "gewonnen", ["schneider"], "1", "—", "3"),
        ("Solo", ["C"], "verloren", ["tout"], "1", "Kontra", "0"),
        ("Sauspiel", ["C", "D"], "gewonnen", ["schneider"], "2", "—", "5"),
        ("Solo", ["A"], "gewonnen", ["tout"], "0", "—", "5"),
    ]
    for game, party, outcome, flags, gestellt, kontra, laufende in deals:
        form = pg.locator("form.deal")
        form.locator("#f-game").get_by_text(game, exact=True).click()
        for p in party:
            form.locator("#f-declarers").get_by_text(p, exact=True).click()
        form.locator("#f-outcome").get_by_text(outcome, exact=True).click()
        for f in flags:
            reach(form.locator(f"#f-{f}")).click()
        reach(form.locator("#f-gestellt").get_by_text(gestellt, exact=True)).click()
        reach(form.locator("#f-kontra").get_by_text(kontra, exact=True)).click()
        reach(form.locator("#f-laufende").get_by_text(laufende, exact=True)).click()
        with pg.expect_navigation():  # Save looks at the server first, then posts
            pg.get_by_role("button", name="Speichern").click()
        assert not pg.locator(".err").count(), pg.inner_text("main")
    foot = pg.inner_text("table.sheet tfoot tr.total")
    for v in ("+360", "0", "−560", "+200"):
        assert v in foot
    pg.screenshot(path=str(Path(__file__).parents[1] / "artifacts-sheet.png"), full_page=True)


def test_english_switch(page: object, server: str) -> None:
    pg = page
    pg.goto(f"{server}/skat")  # type: ignore[attr-defined]
    pg.get_by_role("link", name="EN", exact=True).click()
    pg.wait_for_url("**lang=en*")
    assert pg.get_by_role("button", name="Calculate").is_visible()


def test_skat_round_correction_strike_share_language_pdf(browser: object, page: object,
                                                        server: str) -> None:  # fmt: skip
    pg = page
    pg.goto(f"{server}/sheets")  # type: ignore[attr-defined]
    for i, name in enumerate(["Anna", "Bernd", "Carla"], start=1):
        pg.fill(f"input[name=p{i}]", name)
    pg.get_by_role("button", name="Blatt anlegen").click()
    pg.wait_for_url("**/sheets/*")
    sheet_url = pg.url.split("#")[0]

    def save() -> None:
        with pg.expect_navigation():  # Save looks at the server first, then posts
            pg.get_by_role("button", name="Speichern").click()
        assert not pg.locator(".err").count(), pg.inner_text("main")

    form = pg.locator("form.deal")
    # 1: Bernd, Grand mit 2, 75 — the live preview shows the value before saving
    form.locator("#f-declarer").get_by_text("Bernd", exact=True).click()
    form.locator("#f-game").get_by_text("Grand", exact=True).click()
    form.locator("#f-spitzen").get_by_text("mit 2", exact=True).click()
    reach(pg.locator("input[name=declarer_points]")).fill("75")
    pg.locator("#preview .big").filter(has_text="+72").wait_for()
    save()
    # 2: everybody passed
    reach(pg.locator("form.deal #f-kind").get_by_text("eingepasst", exact=True)).click()
    save()
    # 3: Anna, Herz Hand ohne 1, 50 — lost
    form = pg.locator("form.deal")
    form.locator("#f-declarer").get_by_text("Anna", exact=True).click()
    form.locator("#f-game").get_by_text("♥ Herz", exact=True).click()
    form.locator("#f-spitzen").get_by_text("ohne 1", exact=True).click()
    reach(form.locator("#f-hand")).click()
    reach(pg.locator("input[name=declarer_points]")).fill("50")
    save()
    assert "verl." in pg.inner_text("#deal-3")
    assert [pg.inner_text(f"#deal-{n} td:nth-child(2)") for n in (1, 2, 3)] == [
        "Anna",
        "Bernd",
        "Carla",
    ]

    # A second phone follows the read-only link and sees new deals arrive by itself.
    share_url = pg.locator(".links a").first.get_attribute("href")
    ctx2 = browser.new_context(viewport={"width": 375, "height": 812})  # type: ignore[attr-defined]
    viewer = ctx2.new_page()
    viewer.goto(share_url)
    assert viewer.locator("#deal-3").count() == 1 and viewer.locator("form.deal").count() == 0

    # Correct deal 1 to 95 points (schneider): 96; the later totals follow.
    pg.locator(".tabs").get_by_text("Liste").click()  # the rows are one tap away
    pg.locator("#deal-1 td.game a").click()
    pg.wait_for_url("**/deals/1/edit")
    pg.locator("#calc details.why summary").click()  # the calculation, one tap away
    assert "mit 2, Spiel 3 × 24 = 72" in pg.inner_text("#calc")
    reach(pg.locator("input[name=declarer_points]")).fill("95")
    pg.get_by_role("button", name="Korrektur speichern").click()
    pg.wait_for_url(f"{sheet_url}*")
    assert "+192" in pg.inner_text("#deal-1")  # 2 × 96 at a 3-table
    viewer.locator("#deal-1").filter(has_text="+192").wait_for(timeout=4000)

    # Strike deal 3 on its page; it stays, struck, and counts nothing.
    pg.locator("#deal-3 td.game a").click()
    pg.get_by_role("button", name="Spiel streichen").click()
    pg.wait_for_url(f"{sheet_url}*")
    assert "struck" in (pg.get_attribute("#deal-3", "class") or "")
    assert "+192" in pg.inner_text("table.sheet tfoot tr.total")
    viewer.locator("#deal-3.struck").wait_for(timeout=4000)
    assert "Verlauf" in pg.inner_text("section.more")

    # Switch to English and download the PDF.
    pg.get_by_role("link", name="EN", exact=True).click()
    pg.wait_for_url("**lang=en*")
    assert "Balance (zero-sum)" in pg.inner_text("table.sheet tfoot")
    pg.locator(".tabs a[data-pane=sheet-more]").click()  # downloads are in the sheet's tab
    with pg.expect_download() as dl:
        pg.get_by_role("link", name="PDF").click()
    path = dl.value.path()
    assert Path(path).read_bytes()[:5] == b"%PDF-"
    assert dl.value.suggested_filename.startswith("skat_") and "Anna" in dl.value.suggested_filename
    ctx2.close()
