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

from tests.browser.test_offline_queue_browser import phone
from tests.support import free_port, nginx_in_front, serve

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

FOUR = ["Anna", "Ben", "Cem", "Dora"]


def open_sheet(pg: Any, server: Any, port: int, players: list[str]) -> int:
    made = server.call("POST", "/api/v1/sheets", json_body={
        "game": "skat", "players": players}).json()  # fmt: skip
    sid = int(made["id"])
    pg.goto(f"http://127.0.0.1:{port}/sheets/{sid}/edit/{made['edit_token']}")
    pg.wait_for_url(f"**/sheets/{sid}*")
    return sid


def enter(pg: Any, declarer: str, game: str = "grand", spitzen: str = "mit 1") -> None:
    form = pg.locator("#entry form.deal")
    form.locator("#f-declarer").get_by_text(declarer, exact=True).click()
    form.locator(f"#f-game label:has(input[value={game}])").click()
    form.locator("#f-spitzen").get_by_text(spitzen, exact=True).click()
    form.locator("#f-won").get_by_text("gewonnen", exact=True).click()


def save(pg: Any) -> None:
    pg.locator("#entry").get_by_role("button", name="Speichern").click()


def offered(pg: Any) -> list[str]:
    """The declarers the entry form offers (those who play the deal)."""
    labels = pg.locator("#entry #f-declarer label[data-player]")
    return sorted(labels.nth(i).get_attribute("data-player") for i in range(labels.count())
                  if labels.nth(i).is_visible())  # fmt: skip


def stored(server: Any, sid: int) -> list[tuple[int, str, str, list[str]]]:
    sheet = server.call("GET", f"/api/v1/sheets/{sid}").json()
    return [(d["n"], d["dealer"], d["input"].get("declarer"), d["active"])
            for d in sheet["deals"]]  # fmt: skip


def queued(pg: Any, sid: int) -> Any:
    raw = pg.evaluate(f"localStorage.getItem('skatcalc-queue:/sheets/{sid}/deals')")
    return json.loads(raw) if raw else None


def go_down(pg: Any) -> None:
    pg.evaluate("document.querySelector('#entry form.deal').dataset.retry = '200'")
    pg.locator("#queue[data-server=down]").wait_for(state="attached")  # the page saw it go


def test_the_form_after_queued_deals_has_their_dealer_and_seats(
    browser: Any, tmp_path: Path
) -> None:
    db, port = tmp_path / "seats.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_sheet(pg, server, port, FOUR)
        enter(pg, "Ben")
        save(pg)
        pg.wait_for_url("**saved=1*")
    go_down(pg)
    head = pg.locator("#entry h2.next")
    assert "Spiel 2 · Geber: Ben" in head.inner_text()
    assert offered(pg) == ["Anna", "Cem", "Dora"]
    enter(pg, "Cem")
    save(pg)
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 2").wait_for()
    # the next form is deal 3 as it will be: Cem deals and sits out, Ben plays again
    assert "Spiel 3 · Geber: Cem" in head.inner_text()
    assert offered(pg) == ["Anna", "Ben", "Dora"]
    assert pg.input_value("#entry input[name=dealer_shown]") == "Cem"
    summary = pg.inner_text("#entry details.seats summary")
    assert "Geber: Cem" in summary and "Vorhand: Dora" in summary
    assert "es spielen: Dora, Anna, Ben" in summary
    enter(pg, "Dora")
    save(pg)
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 2, 3").wait_for()
    assert "Spiel 4 · Geber: Dora" in head.inner_text()
    assert offered(pg) == ["Anna", "Ben", "Cem"]
    enter(pg, "Anna")
    save(pg)
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 2, 3, 4").wait_for()
    assert "Spiel 5 · Geber: Anna" in head.inner_text()
    # only what was tapped waits: no dealer, no seats, no proposed dealer
    names = {k for d in queued(pg, sid)["deals"] for k, _v in d["f"]}
    assert not names & {"dealer", "dealer_shown", "active", "version"}
    assert {"declarer", "game", "spitzen", "won", "idem", "csrf_token"} <= names
    with serve(db, port=port) as server:
        pg.wait_for_url("**saved=4*", timeout=20_000)
        assert stored(server, sid) == [
            (1, "Anna", "Ben", ["Ben", "Cem", "Dora"]),
            (2, "Ben", "Cem", ["Cem", "Dora", "Anna"]),
            (3, "Cem", "Dora", ["Dora", "Anna", "Ben"]),
            (4, "Dora", "Anna", ["Anna", "Ben", "Cem"]),
        ]
        assert pg.locator("#queue").is_hidden()
        assert "Spiel 5 · Geber: Anna" in head.inner_text()
    ctx.close()


def test_a_dealer_set_by_hand_while_offline_is_kept_and_followed(
    browser: Any, tmp_path: Path
) -> None:
    db, port = tmp_path / "hand.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_sheet(pg, server, port, FOUR)
        pg.locator("#entry form.deal").wait_for()
    go_down(pg)
    # Dora really dealt deal 1: set by hand (the seats follow her)
    pg.locator("#entry .more-toggle").click()
    pg.locator("#entry details.seats summary").click()
    pg.select_option("#entry select[name=dealer]", "Dora")
    pg.locator("#entry input[name=active][value=Dora]").uncheck()
    pg.locator("#entry input[name=active][value=Anna]").check()
    pg.locator("#entry .more-toggle").click()
    enter(pg, "Anna")
    save(pg)
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 1").wait_for()
    assert "Spiel 2 · Geber: Anna" in pg.inner_text("#entry h2.next")
    assert offered(pg) == ["Ben", "Cem", "Dora"]
    enter(pg, "Dora")
    save(pg)
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 1, 2").wait_for()
    with serve(db, port=port) as server:
        pg.wait_for_url("**saved=2*", timeout=20_000)
        assert stored(server, sid) == [(1, "Dora", "Anna", ["Anna", "Ben", "Cem"]),
                                       (2, "Anna", "Dora", ["Ben", "Cem", "Dora"])]  # fmt: skip
    ctx.close()


def test_a_refused_deal_stays_in_the_queue_with_its_message(browser: Any, tmp_path: Path) -> None:
    db, port = tmp_path / "refused.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_sheet(pg, server, port, FOUR)
        pg.locator("#entry form.deal").wait_for()
    pg.evaluate("document.querySelector('#entry form.deal').dataset.retry = '600000'")
    pg.locator("#queue[data-server=down]").wait_for(state="attached")
    enter(pg, "Cem", "clubs", "mit 2")
    save(pg)
    enter(pg, "Dora", "spades")
    save(pg)
    queue = pg.locator("#queue")
    queue.filter(has_text="wartet auf Verbindung: 1, 2").wait_for()
    with serve(db, port=port) as server:
        # another phone saved deal 1 meanwhile, a different game
        other = {"declarer": "Dora", "game": "grand", "matadors": 1, "with": True, "won": True}
        assert server.call("POST", f"/api/v1/sheets/{sid}/deals", json_body=other).status == 201
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
        assert stored(server, sid) == [(1, "Anna", "Dora", ["Ben", "Cem", "Dora"])]
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
        assert [(d[0], d[2]) for d in stored(server, sid)] == [(1, "Dora"), (2, "Cem"), (3, "Dora")]
        assert queue.is_hidden()
    ctx.close()


def test_a_refused_deal_thrown_away_leaves_the_rest_to_send(browser: Any, tmp_path: Path) -> None:
    db, port = tmp_path / "away.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_sheet(pg, server, port, FOUR)
        pg.locator("#entry form.deal").wait_for()
    pg.evaluate("document.querySelector('#entry form.deal').dataset.retry = '600000'")
    pg.locator("#queue[data-server=down]").wait_for(state="attached")
    enter(pg, "Ben")
    save(pg)
    enter(pg, "Dora")
    save(pg)
    queue = pg.locator("#queue")
    queue.filter(has_text="wartet auf Verbindung: 1, 2").wait_for()
    with serve(db, port=port) as server:
        # the same deal 1 came from another phone: this one's copy is thrown away
        same = {"declarer": "Ben", "game": "grand", "matadors": 1, "with": True, "won": True}
        server.call("POST", f"/api/v1/sheets/{sid}/deals", json_body=same)
        with pg.expect_navigation():
            pg.evaluate("window.dispatchEvent(new Event('online'))")
        queue.locator(".refused").filter(has_text="Spiel 1 nicht gespeichert").wait_for()
        queue.locator(".refused").get_by_role("button", name="Verwerfen").click()
        assert queue.locator(".refused").is_hidden()
        assert queue.locator(".what").inner_text() == "Noch nicht gesendet, bitte prüfen: 2"
        assert queue.get_by_role("button", name="Verwerfen").is_visible()
        queue.get_by_role("button", name="Jetzt senden").click()
        pg.wait_for_url("**saved=2*", timeout=20_000)
        assert stored(server, sid) == [(1, "Anna", "Ben", ["Ben", "Cem", "Dora"]),
                                       (2, "Ben", "Dora", ["Cem", "Dora", "Anna"])]  # fmt: skip
    ctx.close()


def test_the_retry_after_a_lost_answer_is_told_the_deal_was_saved(
    browser: Any, tmp_path: Path
) -> None:
    db, port = tmp_path / "lost.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_sheet(pg, server, port, FOUR)
        for declarer in ("Ben", "Cem", "Dora", "Anna", "Ben", "Cem", "Dora", "Anna", "Ben"):
            body = {"declarer": declarer, "game": "grand", "matadors": 1, "with": True,
                    "won": True}  # fmt: skip
            assert server.call("POST", f"/api/v1/sheets/{sid}/deals", json_body=body).status == 201
        pg.reload()
        assert "Spiel 10 · Geber: Ben" in pg.inner_text("#entry h2.next")
    go_down(pg)
    enter(pg, "Cem")
    save(pg)
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 10").wait_for()
    sent: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        sent.append(route.request.url)
        if len(sent) == 1:
            route.fetch()  # the server stores deal 10 ...
            route.abort("connectionreset")  # ... and its answer never arrives
        else:
            route.continue_()

    pg.route(f"**/sheets/{sid}/deals", lose_the_first_answer)
    with serve(db, port=port) as server:
        pg.wait_for_url("**saved=10*", timeout=20_000)
        head = pg.inner_text("#sheethead")
        assert "Spiel 10 war schon gespeichert." in head
        assert "anderen Gerät" not in pg.inner_text("#entry")
        assert len(sent) == 2
        deals = stored(server, sid)
        assert len(deals) == 10 and deals[-1][:3] == (10, "Ben", "Cem")
        assert pg.locator("#queue").is_hidden()
    ctx.close()


def test_behind_nginx_the_queue_waits_through_the_proxys_502(browser: Any, tmp_path: Path) -> None:
    """nginx as docs/operations.md puts it stays up while the app behind it is away: its 502
    to a queued send is no refusal; the deal waits and goes in when the app is back."""
    db, app_port = tmp_path / "proxied.sqlite", free_port()
    ctx, pg = phone(browser)
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
        queue.filter(has_text="wartet auf Verbindung: 2").wait_for()
        assert "Spiel 3 · Geber: Cem" in pg.inner_text("#entry h2.next")
        pg.wait_for_timeout(1500)  # several sends answered 502 by nginx meanwhile
        assert pg.url.endswith("saved=1") and queue.filter(has_text=": 2").is_visible()
        assert queue.locator(".refused").is_hidden()
        with serve(db, port=app_port) as server:
            pg.wait_for_url("**saved=2*", timeout=20_000)
            assert stored(server, sid) == [(1, "Anna", "Ben", ["Ben", "Cem", "Dora"]),
                                           (2, "Ben", "Cem", ["Cem", "Dora", "Anna"])]  # fmt: skip
    ctx.close()


def test_at_five_the_two_who_sit_out_follow_the_queued_deals(browser: Any, tmp_path: Path) -> None:
    """Skat at five: the dealer and the seat two to his right sit out, deal by deal."""
    db, port = tmp_path / "five.sqlite", free_port()
    ctx, pg = phone(browser)
    with serve(db, port=port) as server:
        sid = open_sheet(pg, server, port, [*FOUR, "Ede"])
        enter(pg, "Ben")
        save(pg)
        pg.wait_for_url("**saved=1*")
    go_down(pg)
    assert offered(pg) == ["Anna", "Cem", "Dora"]
    enter(pg, "Cem")
    save(pg)
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 2").wait_for()
    assert "Spiel 3 · Geber: Cem" in pg.inner_text("#entry h2.next")
    assert offered(pg) == ["Ben", "Dora", "Ede"]
    assert "es spielen: Dora, Ede, Ben" in pg.inner_text("#entry details.seats summary")
    enter(pg, "Ede")
    save(pg)
    pg.locator("#queue").filter(has_text="wartet auf Verbindung: 2, 3").wait_for()
    assert "Spiel 4 · Geber: Dora" in pg.inner_text("#entry h2.next")
    assert offered(pg) == ["Anna", "Cem", "Ede"]
    with serve(db, port=port) as server:
        pg.wait_for_url("**saved=3*", timeout=20_000)
        assert stored(server, sid) == [(1, "Anna", "Ben", ["Ben", "Cem", "Ede"]),
                                       (2, "Ben", "Cem", ["Cem", "Dora", "Anna"]),
                                       (3, "Cem", "Ede", ["Dora", "Ede", "Ben"])]  # fmt: skip
    ctx.close()
