"""The tournament list on a phone: at 375 × 667 the "Spielliste" pane of a table of three and
of four (long names, a whole series) fits without sideways scrolling, its numbers are 14 px
or more, and the strip shows Seeger-Fabian; a screenshot of each is kept for a look."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.known_good import evening
from tests.support import live_server

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")

SMALLEST_JS = """() => Math.min(...[...document.querySelectorAll(
  '#tlist td i, #tlist td b, #tlist tfoot td, #standings .bal')]
  .filter((e) => e.offsetWidth > 0).map((e) => parseFloat(getComputedStyle(e).fontSize)))"""

WIDE_JS = """() => [...document.querySelectorAll('body *')].filter((e) => {
  const r = e.getBoundingClientRect(); return r.width > 0 && r.right > innerWidth + 1;
}).slice(0, 5).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""

# cells whose text is cut off inside their column
CUT_JS = """() => [...document.querySelectorAll('#tlist td, #tlist td i, #tlist td b, #tlist th')]
  .filter((e) => e.offsetWidth > 0 && e.scrollWidth > e.clientWidth + 1).map((e) => e.innerText)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("tlist") / "tlist.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "tlist"})
    with live_server(app) as url:
        yield url


def post(req: Any, url: str, body: Any) -> Any:
    r = req.post(url, data=body)
    assert r.ok, (url, r.status, r.text())
    return r.json()


@pytest.mark.parametrize("name", ["skat_36_three_table", "skat_48_four_table"])
def test_the_list_fits_a_phone(kept_page: KeptPage, server: str, tmp_path: Path, name: str) -> None:
    ev = evening(name)
    # long names: the columns keep their width, the names are cut with an ellipsis
    names = {"A": "Maximiliane Mustermann", "B": "Bartholomäus", "C": "Carla", "D": "Dieter"}
    players = [names[p] for p in ev["players"]]
    pg = kept_page({"width": 375, "height": 667})
    req = pg.request
    group = post(req, f"{server}/api/v1/groups", {"name": "Runde", "game": "skat"})
    sheet = post(req, f"{server}/api/v1/sheets", {
        "game": "skat", "players": players, "first_dealer": players[0], "group": group["id"]})  # fmt: skip
    for deal in ev["deals"]:
        body = dict(deal["body"])
        if "declarer" in body:
            body["declarer"] = names[body["declarer"]]
        post(req, f"{server}/api/v1/sheets/{sheet['id']}/deals", body)
    sf = req.get(f"{server}/api/v1/sheets/{sheet['id']}").json()["totals"]["seeger_fabian"]
    for lang in ("de", "en"):
        pg.goto(f"{server}/sheets/{sheet['id']}?lang={lang}#tlist")
        pg.locator("#tlist").wait_for(state="visible")
        strip = pg.eval_on_selector_all("#standings .st", "(els) => els.map((e) => e.dataset.sf)")
        assert [int(v) for v in strip] == [sf[p] for p in players]
        pg.screenshot(path=str(tmp_path / f"{name}-{lang}.png"), full_page=True)
        width = pg.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], pg.evaluate(WIDE_JS)
        assert pg.evaluate(SMALLEST_JS) >= 14
        assert pg.evaluate(CUT_JS) == []
