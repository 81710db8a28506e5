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
        page.wait_for_timeout(300)  # the worker's cache.put runs after the answer
        kept = page.evaluate(CACHED)
        urls = [u for u, _ in kept]
        assert any(u.endswith("/skat") for u in urls)  # the worker does keep pages …
        assert not any(f"/sheets/{sheet['id']}" in u for u in urls), urls  # … but not these
        assert not any(sheet["edit_token"] in text for _, text in kept)
    finally:
        ctx.close()
