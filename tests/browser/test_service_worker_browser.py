"""Attack-run findings that only a real browser shows: the service worker's cache, and a save
whose reply was lost."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from skatcalc import create_app
from tests.support import live_server

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser(whole_browser: object) -> object:
    """The whole browser as people run it, not the headless shell of the other browser tests."""
    return whole_browser


@pytest.fixture
def lan_server(tmp_path: Path) -> Iterator[str]:
    app = create_app({"DATABASE": str(tmp_path / "sw.sqlite"), "SECRET_KEY": "sw", "LAN": True})
    with live_server(app) as url:
        yield url


CACHED = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const req of await cache.keys()) {
      const res = await cache.match(req);
      out.push([req.url, await res.text()]);
    }
  }
  return out;
}"""


# Is this address in one of the worker's caches?
KEPT = """async (url) => {
  for (const name of await caches.keys()) {
    if (await (await caches.open(name)).match(url)) return true;
  }
  return false;
}"""


def test_service_worker_keeps_no_page_that_carries_the_edit_link(
    browser: object, lan_server: str
) -> None:
    import json
    import urllib.request

    body = json.dumps({"game": "skat", "players": ["Anna", "Bernd", "Carla"]}).encode()
    req = urllib.request.Request(f"{lan_server}/api/v1/sheets", data=body,
                                 headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(req) as r:
        sheet = json.load(r)
    ctx = browser.new_context()  # type: ignore[attr-defined]
    try:
        page = ctx.new_page()
        page.goto(f"{lan_server}/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # from now on the worker answers (and keeps) this tab's pages
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.goto(f"{lan_server}/sheets/{sheet['id']}/edit/{sheet['edit_token']}")
        assert sheet["edit_token"] in page.content()  # the editor's page holds its link
        page.goto(f"{lan_server}/skat")
        # the worker's cache.put runs after the answer: wait for it (the sheet's page, asked
        # for before, would have been put before it)
        page.wait_for_function(KEPT, arg=f"{lan_server}/skat")
        kept = page.evaluate(CACHED)
        urls = [u for u, _ in kept]
        assert any(u.endswith("/skat") for u in urls)  # the worker does keep pages …
        assert not any(f"/sheets/{sheet['id']}" in u for u in urls), urls  # … but not these
        assert not any(sheet["edit_token"] in text for _, text in kept)
    finally:
        ctx.close()


FORM_STATE = """() => {
  const out = {};
  for (const [k, v] of new FormData(document.querySelector('form.deal'))) out[k] = v;
  return out;
}"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, object]]:
    app = create_app({"DATABASE": str(tmp_path / "lost.sqlite"), "SECRET_KEY": "lost"})
    with live_server(app) as url:
        yield url, app.test_client()


def _enter(page: object, declarer: str) -> None:
    form = page.locator("form.deal")  # type: ignore[attr-defined]
    form.locator("#f-declarer").get_by_text(declarer, exact=True).tap()
    form.locator("#f-game").get_by_text("Grand", exact=True).tap()
    form.locator("#f-spitzen").get_by_text("mit 2", exact=True).tap()
    form.locator("#f-won").get_by_text("gewonnen", exact=True).tap()


def test_a_save_whose_reply_was_lost_then_back_stores_no_second_deal(
    browser: object, served: tuple[str, object]
) -> None:
    """The server stored deal 1 but its answer never arrived; the player goes Back and taps
    Save again. The page Back shows is the sheet as it is now (deal 2 next, Bernd deals): its
    form must not be refilled by position from deal 1's (the declarer moved one seat on, the
    old dealer and number kept), which stored a second deal with the wrong dealer."""
    base, api = served
    sid = api.post("/api/v1/sheets", json={"game": "skat",  # type: ignore[attr-defined]
                   "players": ["Anna", "Bernd", "Carla"]}).get_json()["id"]  # fmt: skip

    def deals() -> list[tuple[int, str, str]]:
        sheet = api.get(f"/api/v1/sheets/{sid}").get_json()  # type: ignore[attr-defined]
        return [(d["n"], d["dealer"], d["input"].get("declarer")) for d in sheet["deals"]]

    ctx = browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True)  # type: ignore[attr-defined]
    try:
        page = ctx.new_page()
        page.goto(f"{base}/sheets/{sid}")
        _enter(page, "Bernd")
        answered: list[int] = []

        def lose_the_reply(route: object) -> None:
            answered.append(route.fetch(max_redirects=0).status)  # type: ignore[attr-defined]
            route.abort()  # type: ignore[attr-defined]

        page.route(f"**/sheets/{sid}/deals", lose_the_reply)
        page.get_by_role("button", name="Speichern").tap()
        for _ in range(200):  # the failed navigation: no load event to wait for
            if answered:
                break
            page.wait_for_timeout(50)
        page.wait_for_timeout(300)
        page.unroute(f"**/sheets/{sid}/deals")
        assert answered == [302] and deals() == [(1, "Anna", "Bernd")]  # stored, reply lost

        page.go_back()
        page.locator("form.deal").wait_for()
        state = page.evaluate(FORM_STATE)
        assert state["n"] == "2" and state["dealer"] == "Bernd"
        assert "declarer" not in state  # nothing of deal 1's entry in deal 2's form
        with page.expect_navigation():
            page.get_by_role("button", name="Speichern").tap()
        assert deals() == [(1, "Anna", "Bernd")]  # one deal, its dealer Anna

        # the next deal, typed for what it is, goes in with its own dealer
        _enter(page, "Carla")
        with page.expect_navigation():
            page.get_by_role("button", name="Speichern").tap()
        assert deals() == [(1, "Anna", "Bernd"), (2, "Bernd", "Carla")]
    finally:
        ctx.close()
