"""Nothing lost when the connection drops: deals saved while ``skatcalc serve`` is down wait
on the phone ("wartet auf Verbindung") and are sent by themselves, once each and in order,
when the same server on the same port and database answers again (plain http, no service
worker)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support import free_port, serve

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


def enter(pg: Any, declarer: str, game: str, spitzen: str) -> None:
    form = pg.locator("#entry form.deal")
    form.locator("#f-declarer").get_by_text(declarer, exact=True).click()
    form.locator(f"#f-game label:has(input[value={game}])").click()
    form.locator("#f-spitzen").get_by_text(spitzen, exact=True).click()
    form.locator("#f-won").get_by_text("gewonnen", exact=True).click()


def stored(server: Any, sid: int) -> list[tuple[int, str, str]]:
    sheet = server.call("GET", f"/api/v1/sheets/{sid}").json()
    return [(d["n"], d["input"]["declarer"], d["input"]["game"]) for d in sheet["deals"]]


def phone(browser: Any) -> tuple[Any, Any]:
    """A 375×667 touch phone on plain http: no service worker to lean on."""
    ctx = browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True,
                              service_workers="block")  # fmt: skip
    return ctx, ctx.new_page()


def open_new_sheet(pg: Any, server: Any, port: int) -> int:
    """A new Skat sheet of three, opened on the phone through its edit link: its id."""
    made = server.call("POST", "/api/v1/sheets", json_body={
        "game": "skat", "players": ["Anna", "Ben", "Cem"]}).json()  # fmt: skip
    sid = int(made["id"])
    pg.goto(f"http://127.0.0.1:{port}/sheets/{sid}/edit/{made['edit_token']}")
    pg.wait_for_url(f"**/sheets/{sid}*")
    return sid


def test_deals_saved_while_the_server_is_down_are_sent_once_in_order(
    browser: Any, tmp_path: Path
) -> None:
    db, port = tmp_path / "offline.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_new_sheet(pg, server, port)
        enter(pg, "Anna", "grand", "mit 1")
        pg.locator("#entry").get_by_role("button", name="Speichern").click()
        pg.wait_for_url("**saved=1*")
        assert "Spiel 1" in pg.inner_text("#saved")
    # the server is gone: both deals wait on the phone, the second behind the first
    queue = pg.locator("#queue")
    pg.evaluate("document.querySelector('#entry form.deal').dataset.retry = '200'")
    pg.locator("#queue[data-server=down]").wait_for(state="attached")  # the page saw it go
    enter(pg, "Ben", "clubs", "mit 2")
    pg.locator("#entry").get_by_role("button", name="Speichern").click()
    queue.filter(has_text="wartet auf Verbindung: 2").wait_for()
    assert pg.input_value("#entry input[name=n]") == "3"
    assert "Spiel 3" in pg.inner_text("#entry h2.next")
    assert not pg.locator("#f-declarer input:checked").count()  # a fresh form for deal 3
    enter(pg, "Cem", "spades", "mit 1")
    pg.locator("#entry").get_by_role("button", name="Speichern").click()
    queue.filter(has_text="wartet auf Verbindung: 2, 3").wait_for()
    assert "/sheets/" in pg.url and "saved=1" in pg.url  # no browser error page
    with serve(db, port=port) as server:
        # sent by itself on a retry: the page then shows the sheet with both deals stored
        pg.wait_for_url("**saved=3*", timeout=20_000)
        assert "Spiel 3" in pg.inner_text("#saved")
        assert stored(server, sid) == [(1, "Anna", "grand"), (2, "Ben", "clubs"),
                                       (3, "Cem", "spades")]  # fmt: skip
        assert pg.locator("#queue").is_hidden()
        assert (
            pg.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('skatcalc-queue'))")
            == []
        )
        assert pg.input_value("#entry input[name=n]") == "4"
    ctx.close()


def test_a_refused_deal_stops_the_queue_and_keeps_the_rest_to_check(
    browser: Any, tmp_path: Path
) -> None:
    db, port = tmp_path / "refused.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_new_sheet(pg, server, port)
        pg.locator("#entry form.deal").wait_for()
    # no timer retry in this test: the send comes from the browser's "online" event
    pg.evaluate("document.querySelector('#entry form.deal').dataset.retry = '600000'")
    pg.locator("#queue[data-server=down]").wait_for(state="attached")  # the page saw it go
    enter(pg, "Ben", "clubs", "mit 2")
    pg.locator("#entry").get_by_role("button", name="Speichern").click()
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 1").wait_for()
    enter(pg, "Cem", "spades", "mit 1")
    pg.locator("#entry").get_by_role("button", name="Speichern").click()
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 1, 2").wait_for()
    with serve(db, port=port) as server:
        # another phone saved deal 1 meanwhile
        other = {"declarer": "Anna", "game": "grand", "matadors": 1, "with": True, "won": True}
        assert server.call("POST", f"/api/v1/sheets/{sid}/deals", json_body=other).status == 201
        with pg.expect_navigation():
            pg.evaluate("window.dispatchEvent(new Event('online'))")
        pg.locator("#queue").filter(has_text="Noch nicht gesendet, bitte prüfen: 2").wait_for()
        # the refused deal stays in the queue with the server's words
        assert "Spiel 1 nicht gespeichert" in pg.inner_text("#queue .refused")
        assert "Spiel 1 ist schon eingetragen" in pg.inner_text("#entry")
        assert pg.input_value("#entry input[name=n]") == "2"  # the sheet's next deal
        assert stored(server, sid) == [(1, "Anna", "grand")]
        # the person looks and throws the refused deal away, then the one behind it
        pg.locator("#queue .refused").get_by_role("button", name="Verwerfen").click()
        with pg.expect_navigation():
            pg.locator("#queue").get_by_role("button", name="Verwerfen").click()
        assert pg.locator("#queue").is_hidden()
        assert stored(server, sid) == [(1, "Anna", "grand")]
    ctx.close()


def test_a_save_right_after_the_server_went_is_queued_not_lost(
    browser: Any, tmp_path: Path
) -> None:
    """The server stops just after a revision look answered (the page still takes it for up):
    Save, tapped at once, must not go as a plain post to a server that is gone (the browser's
    error page, the deal lost) but wait on the phone, and go in once, in order, on its return."""
    db, port = tmp_path / "gap.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_new_sheet(pg, server, port)
        enter(pg, "Anna", "grand", "mit 1")
        pg.locator("#entry").get_by_role("button", name="Speichern").click()
        pg.wait_for_url("**saved=1*")
        enter(pg, "Ben", "clubs", "mit 2")
        pg.locator("#queue[data-server=up]").wait_for(state="attached")  # a look answered
        # no further look until Save (as within the 1.5 s between two of them): the page
        # skips its look while it is hidden
        pg.evaluate("Object.defineProperty(document, 'hidden', { get: () => true })")
        pg.evaluate("document.querySelector('#entry form.deal').dataset.retry = '200'")
    # the server is gone; the page has not seen it go
    assert pg.get_attribute("#queue", "data-server") == "up"
    pg.locator("#entry").get_by_role("button", name="Speichern").click()
    queue = pg.locator("#queue")
    queue.filter(has_text="wartet auf Verbindung: 2").wait_for()
    assert "/sheets/" in pg.url and "saved=1" in pg.url  # no browser error page
    enter(pg, "Cem", "spades", "mit 1")
    pg.locator("#entry").get_by_role("button", name="Speichern").click()
    queue.filter(has_text="wartet auf Verbindung: 2, 3").wait_for()
    with serve(db, port=port) as server:
        pg.wait_for_url("**saved=3*", timeout=20_000)
        assert "Spiel 3" in pg.inner_text("#saved")
        assert stored(server, sid) == [(1, "Anna", "grand"), (2, "Ben", "clubs"),
                                       (3, "Cem", "spades")]  # fmt: skip
    ctx.close()
