"""The steps the offline-queue browser tests share: a phone on plain http, a sheet opened
through its edit link, a deal tapped and saved, the server stopped and started again on the
same port and database (``skatcalc serve``, as in ``tests/support.py``), what the sheet stores."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.browser.pages import KeptPage
from tests.support import Served, serve


def phone(kept_page: KeptPage) -> tuple[Any, Any]:
    """A 375×667 touch phone on plain http: no service worker to lean on (a kept page: the
    test does not close it)."""
    pg = kept_page({"width": 375, "height": 667}, has_touch=True, service_workers="block")
    return pg.context, pg


def open_sheet(pg: Any, server: Served, port: int, players: list[str]) -> int:
    """A new Skat sheet of ``players``, opened on the phone through its edit link on ``port``
    (the server's own, or nginx's in front of it): its id."""
    made = server.call("POST", "/api/v1/sheets", json_body={
        "game": "skat", "players": players}).json()  # fmt: skip
    sid = int(made["id"])
    pg.goto(f"http://127.0.0.1:{port}/sheets/{sid}/edit/{made['edit_token']}")
    pg.wait_for_url(f"**/sheets/{sid}*")
    return sid


def enter(pg: Any, declarer: str, game: str = "grand", spitzen: str = "mit 1") -> None:
    """Tap a won game of ``declarer`` into the entry form."""
    form = pg.locator("#entry form.deal")
    form.locator("#f-declarer").get_by_text(declarer, exact=True).click()
    form.locator(f"#f-game label:has(input[value={game}])").click()
    form.locator("#f-spitzen").get_by_text(spitzen, exact=True).click()
    form.locator("#f-won").get_by_text("gewonnen", exact=True).click()


def save(pg: Any) -> None:
    pg.locator("#entry").get_by_role("button", name="Speichern").click()


def waiting(pg: Any, numbers: str) -> None:
    """Wait until the queue says the deals ``numbers`` ("2, 3") wait on the phone."""
    pg.locator("#queue").filter(has_text=f"wartet auf Verbindung: {numbers}").wait_for()


def go_down(pg: Any, retry_ms: int = 200) -> None:
    """After the server stopped: the page retries every ``retry_ms`` (600000: only the
    browser's "online" event sends) and has seen the server go."""
    pg.evaluate(f"document.querySelector('#entry form.deal').dataset.retry = '{retry_ms}'")
    pg.locator("#queue[data-server=down]").wait_for(state="attached")


def open_and_save(pg: Any, server: Served, port: int, players: list[str], first: str) -> int:
    """``open_sheet``, then deal 1 (a won Grand with 1 of ``first``) saved on the phone."""
    sid = open_sheet(pg, server, port, players)
    enter(pg, first)
    save(pg)
    pg.wait_for_url("**saved=1*")
    return sid


def open_then_stop(kept_page: KeptPage, db: Path, port: int, players: list[str], *,
                   first: str | None = None, retry_ms: int = 200) -> tuple[Any, Any, int]:  # fmt: skip
    """A phone opens a new sheet of ``players`` (saving a won Grand with 1 of ``first`` as deal
    1, if given), then the server stops and the page sees it go (``go_down``): the phone's
    context, its page and the sheet's id."""
    ctx, pg = phone(kept_page)
    with serve(db, port=port) as server:
        if first is None:
            sid = open_sheet(pg, server, port, players)
            pg.locator("#entry form.deal").wait_for()
        else:
            sid = open_and_save(pg, server, port, players, first)
    go_down(pg, retry_ms)
    return ctx, pg, sid


@contextmanager
def back_up(pg: Any, db: Path, port: int, saved: int) -> Iterator[Served]:
    """The server started again on the same port and database; the queue sends by itself on
    a retry, and the page shows the sheet with deal ``saved`` stored."""
    with serve(db, port=port) as server:
        pg.wait_for_url(f"**saved={saved}*", timeout=20_000)
        yield server


def stored_games(server: Served, sid: int) -> list[tuple[int, str, str]]:
    """The sheet's deals as stored: number, declarer, game."""
    sheet = server.call("GET", f"/api/v1/sheets/{sid}").json()
    return [(d["n"], d["input"]["declarer"], d["input"]["game"]) for d in sheet["deals"]]


def stored_seats(server: Served, sid: int) -> list[tuple[int, str, str, list[str]]]:
    """The sheet's deals as stored: number, dealer, declarer, who played."""
    sheet = server.call("GET", f"/api/v1/sheets/{sid}").json()
    return [(d["n"], d["dealer"], d["input"].get("declarer"), d["active"])
            for d in sheet["deals"]]  # fmt: skip


def post_deal(server: Served, sid: int, declarer: str) -> int:
    """Another phone's deal: a won Grand with 1 of ``declarer`` through the API; the status."""
    body = {"declarer": declarer, "game": "grand", "matadors": 1, "with": True, "won": True}
    return server.call("POST", f"/api/v1/sheets/{sid}/deals", json_body=body).status
