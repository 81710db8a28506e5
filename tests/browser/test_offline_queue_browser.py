"""Nothing lost when the connection drops: deals saved while ``skatcalc serve`` is down wait
on the phone ("wartet auf Verbindung") and are sent by themselves, once each and in order,
when the same server on the same port and database answers again (plain http, no service
worker)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.offline import (
    back_up,
    enter,
    go_down,
    open_and_save,
    open_then_stop,
    phone,
    post_deal,
    save,
    stored_games,
    waiting,
)
from tests.browser.pages import KeptPage
from tests.support import free_port, serve

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

THREE = ["Anna", "Ben", "Cem"]


def test_deals_saved_while_the_server_is_down_are_sent_once_in_order(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    db, port = tmp_path / "offline.sqlite", free_port()
    ctx, pg = phone(kept_page)
    with serve(db, port=port) as server:
        sid = open_and_save(pg, server, port, THREE, "Anna")
        assert "Spiel 1" in pg.inner_text("#saved")
    # the server is gone: both deals wait on the phone, the second behind the first
    go_down(pg)
    enter(pg, "Ben", "clubs", "mit 2")
    save(pg)
    waiting(pg, "2")
    assert pg.input_value("#entry input[name=n]") == "3"
    assert "Spiel 3" in pg.inner_text("#entry h2.next")
    assert not pg.locator("#f-declarer input:checked").count()  # a fresh form for deal 3
    enter(pg, "Cem", "spades", "mit 1")
    save(pg)
    waiting(pg, "2, 3")
    assert "/sheets/" in pg.url and "saved=1" in pg.url  # no browser error page
    # sent by itself on a retry: the page then shows the sheet with both deals stored
    with back_up(pg, db, port, saved=3) as server:
        assert "Spiel 3" in pg.inner_text("#saved")
        assert stored_games(server, sid) == [(1, "Anna", "grand"), (2, "Ben", "clubs"),
                                             (3, "Cem", "spades")]  # fmt: skip
        assert pg.locator("#queue").is_hidden()
        assert (
            pg.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('skatcalc-queue'))")
            == []
        )
        assert pg.input_value("#entry input[name=n]") == "4"


def test_a_refused_deal_stops_the_queue_and_keeps_the_rest_to_check(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    db, port = tmp_path / "refused.sqlite", free_port()
    # no timer retry in this test: the send comes from the browser's "online" event
    ctx, pg, sid = open_then_stop(kept_page, db, port, THREE, retry_ms=600_000)
    enter(pg, "Ben", "clubs", "mit 2")
    save(pg)
    waiting(pg, "1")
    enter(pg, "Cem", "spades", "mit 1")
    save(pg)
    waiting(pg, "1, 2")
    with serve(db, port=port) as server:
        # another phone saved deal 1 meanwhile
        assert post_deal(server, sid, "Anna") == 201
        with pg.expect_navigation():
            pg.evaluate("window.dispatchEvent(new Event('online'))")
        pg.locator("#queue").filter(has_text="Noch nicht gesendet, bitte prüfen: 2").wait_for()
        # the refused deal stays in the queue with the server's words
        assert "Spiel 1 nicht gespeichert" in pg.inner_text("#queue .refused")
        assert "Spiel 1 ist schon eingetragen" in pg.inner_text("#entry")
        assert pg.input_value("#entry input[name=n]") == "2"  # the sheet's next deal
        assert stored_games(server, sid) == [(1, "Anna", "grand")]
        # the person looks and throws the refused deal away, then the one behind it
        pg.locator("#queue .refused").get_by_role("button", name="Verwerfen").click()
        with pg.expect_navigation():
            pg.locator("#queue").get_by_role("button", name="Verwerfen").click()
        assert pg.locator("#queue").is_hidden()
        assert stored_games(server, sid) == [(1, "Anna", "grand")]


def test_a_save_right_after_the_server_went_is_queued_not_lost(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    """The server stops just after a revision look answered (the page still takes it for up):
    Save, tapped at once, must not go as a plain post to a server that is gone (the browser's
    error page, the deal lost) but wait on the phone, and go in once, in order, on its return."""
    db, port = tmp_path / "gap.sqlite", free_port()
    ctx, pg = phone(kept_page)
    with serve(db, port=port) as server:
        sid = open_and_save(pg, server, port, THREE, "Anna")
        enter(pg, "Ben", "clubs", "mit 2")
        pg.locator("#queue[data-server=up]").wait_for(state="attached")  # a look answered
        # no further look until Save (as within the 1.5 s between two of them): the page
        # skips its look while it is hidden
        pg.evaluate("Object.defineProperty(document, 'hidden', { get: () => true })")
        pg.evaluate("document.querySelector('#entry form.deal').dataset.retry = '200'")
    # the server is gone; the page has not seen it go
    assert pg.get_attribute("#queue", "data-server") == "up"
    save(pg)
    waiting(pg, "2")
    assert "/sheets/" in pg.url and "saved=1" in pg.url  # no browser error page
    enter(pg, "Cem", "spades", "mit 1")
    save(pg)
    waiting(pg, "2, 3")
    with back_up(pg, db, port, saved=3) as server:
        assert "Spiel 3" in pg.inner_text("#saved")
        assert stored_games(server, sid) == [(1, "Anna", "grand"), (2, "Ben", "clubs"),
                                             (3, "Cem", "spades")]  # fmt: skip
