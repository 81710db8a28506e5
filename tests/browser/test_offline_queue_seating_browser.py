"""The offline queue sends what was meant: a deal waiting on the phone keeps only what was
tapped, and the next entry form follows the sheet as it will be after the waiting deals (its
number, who deals, who sits out), at a table of four where the dealer sits out; a deal the
server refuses on the way stays in the queue with its message and the controls that fit it;
a send whose answer was lost is told "Spiel 10 war schon gespeichert" on its retry. Offline
as in ``test_offline_queue_browser.py``: the real server stopped and started again on the
same port and database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.offline import (
    back_up,
    enter,
    go_down,
    open_sheet,
    open_then_stop,
    phone,
    post_deal,
    save,
    stored_seats,
    waiting,
)
from tests.browser.pages import KeptPage
from tests.support import free_port, nginx_in_front, serve

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

FOUR = ["Anna", "Ben", "Cem", "Dora"]


def offered(pg: Any) -> list[str]:
    """The declarers the entry form offers (those who play the deal)."""
    labels = pg.locator("#entry #f-declarer label[data-player]")
    return sorted(labels.nth(i).get_attribute("data-player") for i in range(labels.count())
                  if labels.nth(i).is_visible())  # fmt: skip


def queued(pg: Any, sid: int) -> Any:
    raw = pg.evaluate(f"localStorage.getItem('skatcalc-queue:/sheets/{sid}/deals')")
    return json.loads(raw) if raw else None


def test_the_form_after_queued_deals_has_their_dealer_and_seats(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    db, port = tmp_path / "seats.sqlite", free_port()
    ctx, pg, sid = open_then_stop(kept_page, db, port, FOUR, first="Ben")
    head = pg.locator("#entry h2.next")
    assert "Spiel 2 · Geber: Ben" in head.inner_text()
    assert offered(pg) == ["Anna", "Cem", "Dora"]
    enter(pg, "Cem")
    save(pg)
    waiting(pg, "2")
    # the next form is deal 3 as it will be: Cem deals and sits out, Ben plays again
    assert "Spiel 3 · Geber: Cem" in head.inner_text()
    assert offered(pg) == ["Anna", "Ben", "Dora"]
    assert pg.input_value("#entry input[name=dealer_shown]") == "Cem"
    summary = pg.inner_text("#entry details.seats summary")
    assert "Geber: Cem" in summary and "Vorhand: Dora" in summary
    assert "es spielen: Dora, Anna, Ben" in summary
    enter(pg, "Dora")
    save(pg)
    waiting(pg, "2, 3")
    assert "Spiel 4 · Geber: Dora" in head.inner_text()
    assert offered(pg) == ["Anna", "Ben", "Cem"]
    enter(pg, "Anna")
    save(pg)
    waiting(pg, "2, 3, 4")
    assert "Spiel 5 · Geber: Anna" in head.inner_text()
    # only what was tapped waits: no dealer, no seats, no proposed dealer
    names = {k for d in queued(pg, sid)["deals"] for k, _v in d["f"]}
    assert not names & {"dealer", "dealer_shown", "active", "version"}
    assert {"declarer", "game", "spitzen", "won", "idem", "csrf_token"} <= names
    with back_up(pg, db, port, saved=4) as server:
        assert stored_seats(server, sid) == [
            (1, "Anna", "Ben", ["Ben", "Cem", "Dora"]),
            (2, "Ben", "Cem", ["Cem", "Dora", "Anna"]),
            (3, "Cem", "Dora", ["Dora", "Anna", "Ben"]),
            (4, "Dora", "Anna", ["Anna", "Ben", "Cem"]),
        ]
        assert pg.locator("#queue").is_hidden()
        assert "Spiel 5 · Geber: Anna" in head.inner_text()


def test_a_dealer_set_by_hand_while_offline_is_kept_and_followed(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    db, port = tmp_path / "hand.sqlite", free_port()
    ctx, pg, sid = open_then_stop(kept_page, db, port, FOUR)
    # Dora really dealt deal 1: set by hand (the seats follow her)
    pg.locator("#entry .more-toggle").click()
    pg.locator("#entry details.seats summary").click()
    pg.select_option("#entry select[name=dealer]", "Dora")
    pg.locator("#entry input[name=active][value=Dora]").uncheck()
    pg.locator("#entry input[name=active][value=Anna]").check()
    pg.locator("#entry .more-toggle").click()
    enter(pg, "Anna")
    save(pg)
    waiting(pg, "1")
    assert "Spiel 2 · Geber: Anna" in pg.inner_text("#entry h2.next")
    assert offered(pg) == ["Ben", "Cem", "Dora"]
    enter(pg, "Dora")
    save(pg)
    waiting(pg, "1, 2")
    with back_up(pg, db, port, saved=2) as server:
        assert stored_seats(server, sid) == [
            (1, "Dora", "Anna", ["Anna", "Ben", "Cem"]),
            (2, "Anna", "Dora", ["Ben", "Cem", "Dora"]),
        ]


def test_a_refused_deal_stays_in_the_queue_with_its_message(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    db, port = tmp_path / "refused.sqlite", free_port()
    ctx, pg, sid = open_then_stop(kept_page, db, port, FOUR, retry_ms=600_000)
    enter(pg, "Cem", "clubs", "mit 2")
    save(pg)
    enter(pg, "Dora", "spades")
    save(pg)
    queue = pg.locator("#queue")
    waiting(pg, "1, 2")
    with serve(db, port=port) as server:
        # another phone saved deal 1 meanwhile, a different game
        assert post_deal(server, sid, "Dora") == 201
        with pg.expect_navigation():
            pg.evaluate("window.dispatchEvent(new Event('online'))")
        refused = queue.locator(".refused")
        refused.wait_for()
        text = refused.inner_text()
        assert "Spiel 1 nicht gespeichert" in text
        assert "Spiel 1 ist schon eingetragen" in text and "Dora" in text
        assert queue.locator(".what").inner_text() == "Noch nicht gesendet, bitte prüfen: 2"
        # its controls: into the form or away; the deal behind it is not sent before it
        assert refused.get_by_role("button", name="Ins Formular").is_visible()
        assert refused.get_by_role("button", name="Verwerfen").is_visible()
        assert queue.get_by_role("button", name="Jetzt senden").is_hidden()
        assert stored_seats(server, sid) == [(1, "Anna", "Dora", ["Ben", "Cem", "Dora"])]
        # still there after a reload
        pg.reload()
        queue.locator(".refused").filter(has_text="Spiel 1 nicht gespeichert").wait_for()
        # it was another game: into the form as it was tapped, saved as deal 2
        queue.get_by_role("button", name="Ins Formular").click()
        assert "Spiel 1 ist schon eingetragen" in pg.inner_text("#entry .err.box")
        assert pg.is_checked("#entry input[name=declarer][value=Cem]")
        assert pg.is_checked("#entry input[name=game][value=clubs]")
        assert pg.input_value("#entry input[name=n]") == "2"
        assert queue.locator(".refused").is_hidden()
        save(pg)
        pg.wait_for_url("**saved=2*")
        # the one behind it now waits for the person: sent as the sheet's next deal
        assert queue.locator(".what").inner_text() == "Noch nicht gesendet, bitte prüfen: 2"
        queue.get_by_role("button", name="Jetzt senden").click()
        pg.wait_for_url("**saved=3*", timeout=20_000)
        assert [(d[0], d[2]) for d in stored_seats(server, sid)] == [
            (1, "Dora"),
            (2, "Cem"),
            (3, "Dora"),
        ]
        assert queue.is_hidden()


def test_a_refused_deal_thrown_away_leaves_the_rest_to_send(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    db, port = tmp_path / "away.sqlite", free_port()
    ctx, pg, sid = open_then_stop(kept_page, db, port, FOUR, retry_ms=600_000)
    enter(pg, "Ben")
    save(pg)
    enter(pg, "Dora")
    save(pg)
    queue = pg.locator("#queue")
    waiting(pg, "1, 2")
    with serve(db, port=port) as server:
        # the same deal 1 came from another phone: this one's copy is thrown away
        post_deal(server, sid, "Ben")
        with pg.expect_navigation():
            pg.evaluate("window.dispatchEvent(new Event('online'))")
        queue.locator(".refused").filter(has_text="Spiel 1 nicht gespeichert").wait_for()
        queue.locator(".refused").get_by_role("button", name="Verwerfen").click()
        assert queue.locator(".refused").is_hidden()
        assert queue.locator(".what").inner_text() == "Noch nicht gesendet, bitte prüfen: 2"
        assert queue.get_by_role("button", name="Verwerfen").is_visible()
        queue.get_by_role("button", name="Jetzt senden").click()
        pg.wait_for_url("**saved=2*", timeout=20_000)
        assert stored_seats(server, sid) == [
            (1, "Anna", "Ben", ["Ben", "Cem", "Dora"]),
            (2, "Ben", "Dora", ["Cem", "Dora", "Anna"]),
        ]


def test_the_retry_after_a_lost_answer_is_told_the_deal_was_saved(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    db, port = tmp_path / "lost.sqlite", free_port()
    ctx, pg = phone(kept_page)
    with serve(db, port=port) as server:
        sid = open_sheet(pg, server, port, FOUR)
        for declarer in ("Ben", "Cem", "Dora", "Anna", "Ben", "Cem", "Dora", "Anna", "Ben"):
            assert post_deal(server, sid, declarer) == 201
        # the page sees the new revision and reloads by itself (a reload from here raced it)
        pg.locator("#entry h2.next").filter(has_text="Spiel 10 · Geber: Ben").wait_for()
    go_down(pg)
    enter(pg, "Cem")
    save(pg)
    waiting(pg, "10")
    sent: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        sent.append(route.request.url)
        if len(sent) == 1:
            route.fetch()  # the server stores deal 10 ...
            route.abort("connectionreset")  # ... and its answer never arrives
        else:
            route.continue_()

    pg.route(f"**/sheets/{sid}/deals", lose_the_first_answer)
    with back_up(pg, db, port, saved=10) as server:
        head = pg.inner_text("#sheethead")
        assert "Spiel 10 war schon gespeichert." in head
        assert "anderen Gerät" not in pg.inner_text("#entry")
        assert len(sent) == 2
        deals = stored_seats(server, sid)
        assert len(deals) == 10 and deals[-1][:3] == (10, "Ben", "Cem")
        assert pg.locator("#queue").is_hidden()


def test_behind_nginx_the_queue_waits_through_the_proxys_502(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    """nginx as docs/operations.md puts it stays up while the app behind it is away: its 502
    to a queued send is no refusal; the deal waits and goes in when the app is back."""
    db, app_port = tmp_path / "proxied.sqlite", free_port()
    ctx, pg = phone(kept_page)
    with nginx_in_front(tmp_path / "nginx", app_port) as nginx:
        port = nginx.port
        with serve(db, port=app_port) as server:
            sid = open_sheet(pg, server, port, FOUR)
            enter(pg, "Ben")
            save(pg)
            pg.wait_for_url("**saved=1*")
        go_down(pg)
        enter(pg, "Cem")
        save(pg)
        queue = pg.locator("#queue")
        waiting(pg, "2")
        assert "Spiel 3 · Geber: Cem" in pg.inner_text("#entry h2.next")
        for _ in range(3):  # several sends answered 502 by nginx meanwhile
            pg.wait_for_event("response", predicate=lambda r: r.status == 502)
        assert pg.url.endswith("saved=1") and queue.filter(has_text=": 2").is_visible()
        assert queue.locator(".refused").is_hidden()
        with back_up(pg, db, app_port, saved=2) as server:
            assert stored_seats(server, sid) == [
                (1, "Anna", "Ben", ["Ben", "Cem", "Dora"]),
                (2, "Ben", "Cem", ["Cem", "Dora", "Anna"]),
            ]


def test_at_five_the_two_who_sit_out_follow_the_queued_deals(
    kept_page: KeptPage, tmp_path: Path
) -> None:
    """Skat at five: the dealer and the seat two to his right sit out, deal by deal."""
    db, port = tmp_path / "five.sqlite", free_port()
    ctx, pg, sid = open_then_stop(kept_page, db, port, [*FOUR, "Ede"], first="Ben")
    assert offered(pg) == ["Anna", "Cem", "Dora"]
    enter(pg, "Cem")
    save(pg)
    waiting(pg, "2")
    assert "Spiel 3 · Geber: Cem" in pg.inner_text("#entry h2.next")
    assert offered(pg) == ["Ben", "Dora", "Ede"]
    assert "es spielen: Dora, Ede, Ben" in pg.inner_text("#entry details.seats summary")
    enter(pg, "Ede")
    save(pg)
    waiting(pg, "2, 3")
    assert "Spiel 4 · Geber: Dora" in pg.inner_text("#entry h2.next")
    assert offered(pg) == ["Anna", "Cem", "Ede"]
    with back_up(pg, db, port, saved=3) as server:
        assert stored_seats(server, sid) == [
            (1, "Anna", "Ben", ["Ben", "Cem", "Ede"]),
            (2, "Ben", "Cem", ["Cem", "Dora", "Anna"]),
            (3, "Cem", "Ede", ["Dora", "Ede", "Ben"]),
        ]
