"""Every player at the table, including the oldest, through ``skatcalc serve`` in headless
Chromium: axe-core finds no WCAG 2.2 A/AA violation on any kind of page; every text a player
reads is at least 14 px at 375×667 on every tab of the sheet (the chart's labels 12 px); the
"Größere Schrift" setting scales the text by 125 % and the typical deal still fits without
scrolling; the first entry control is at most 3 Tabs away and a whole deal goes by keyboard; a
tablet held sideways (1024×768) shows five players of 12-character names without sideways
scrolling.

One server for the module, the run's one browser (conftest.py); each measurement is one
``evaluate`` per page."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import KeptPage
from tests.support import reach, serve

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PHONE = {"width": 375, "height": 667}
TABLET = {"width": 1024, "height": 768}

# Every visible text under the minimum: at least 14 px, an SVG chart's labels (as drawn, after
# the chart is shrunk to the screen) at least 12 px.
SMALL_TEXT_JS = """() => {
  const out = [];
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = walker.currentNode;
    const el = t.parentElement;
    if (!t.data.trim() || seen.has(el)) continue;
    seen.add(el);
    if (!el.checkVisibility() || el.closest('.vh, .skip')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest('svg');
    if (svg) px *= el.getScreenCTM().a;
    if (px < (svg ? 12 : 14) - 0.01)
      out.push(`${el.tagName.toLowerCase()} "${t.data.trim().slice(0, 24)}" ${px.toFixed(1)}px`);
  }
  return out;
}"""

# What does not fit: the page wider than the screen, a text cut off in its box.
OVERFLOW_JS = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth + 1)
    out.push(`page ${document.documentElement.scrollWidth}px wide`);
  const boxes = '.seg span, .flag span, .tabs a, .st small, .btn, .top nav a, .bigtext, th, td';
  for (const el of document.querySelectorAll(boxes)) {
    if (!el.checkVisibility() || !el.innerText.trim()) continue;
    const style = getComputedStyle(el);
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect(), box = el.getBoundingClientRect();
    const clip = el.closest('.top nav') || el;  // the header's row: cut where it ends
    const edge = clip.getBoundingClientRect();
    const over = text.left < Math.max(box.left, edge.left) - 1
      || text.right > Math.min(box.right, edge.right) + 1;
    const ellipsis = style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1;
    if (over || ellipsis)
      out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.innerText.slice(0, 20)}" cut`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("a11y") / "a11y.sqlite") as srv:
        yield f"http://127.0.0.1:{srv.port}"


@pytest.fixture(scope="module")
def sheets(browser: Any, server: str) -> dict[str, Any]:
    ctx = browser.new_context()
    req = ctx.request

    def post(path: str, body: Any) -> Any:
        r = req.post(f"{server}{path}", data=body)
        assert r.ok, (path, r.status, r.text())
        return r.json()

    skat = post("/api/v1/sheets", {"game": "skat", "players": ["Anna", "Bernd", "Carla", "Dieter"],
                                   "first_dealer": "Anna",
                                   "rules": {"kontra_re": True, "ramsch": True}})  # fmt: skip
    for d in (
        {"declarer": "Bernd", "game": "grand", "matadors": 2, "with": True, "won": True},
        {"declarer": "Dieter", "game": "hearts", "matadors": 1, "with": False, "won": False,
         "schneider": True},
        {"passed": True},
    ):  # fmt: skip
        post(f"/api/v1/sheets/{skat['id']}/deals", d)
    sk = post("/api/v1/sheets", {"game": "schafkopf", "players": ["Anna", "Bernd", "Carla", "Dieter"],
                                 "first_dealer": "Anna"})  # fmt: skip
    post(f"/api/v1/sheets/{sk['id']}/deals",
         {"game": "sauspiel", "declarers": ["Bernd", "Carla"], "won": True})  # fmt: skip
    long_names = ["Maximilianus", "Bartholomäus", "Friederike S", "Cornelia Ann", "Hildegardis"]
    five = post("/api/v1/sheets", {"game": "skat", "players": long_names,
                                   "first_dealer": long_names[0]})  # fmt: skip
    post(f"/api/v1/sheets/{five['id']}/deals",
         {"declarer": long_names[1], "game": "grand", "matadors": 4, "with": True,
          "won": True, "schneider": True})  # fmt: skip
    four_long = post("/api/v1/sheets", {"game": "skat", "players": long_names[:4],
                                        "first_dealer": long_names[0]})  # fmt: skip
    post(f"/api/v1/sheets/{four_long['id']}/deals",
         {"declarer": long_names[1], "game": "clubs", "matadors": 3, "with": True,
          "won": True})  # fmt: skip
    ctx.close()
    return {"skat": skat, "schafkopf": sk, "five": five, "four_long": four_long}


def page_paths(browser: Any, server: str, sheets: dict[str, Any]) -> list[str]:
    """One page of every kind: calculators, lists, a sheet's tabs and a deal's correction, the
    players, a group, a club night and its desk pages."""
    ctx = browser.new_context()
    req = ctx.request

    def post(path: str, body: Any) -> Any:
        r = req.post(f"{server}{path}", data=body)
        assert r.ok, (path, r.status, r.text())
        return r.json()

    group = post("/api/v1/groups", {"name": "Donnerstagsrunde", "game": "skat"})
    event = post("/api/v1/events", {"name": "Preisskat", "game": "skat"})
    post(f"/api/v1/events/{event['id']}/players",
         {"names": ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Gustav"]})  # fmt: skip
    post(f"/api/v1/events/{event['id']}/series", {"seating": "draw", "seed": 7})
    players = req.get(f"{server}/api/v1/players").json()["players"]
    ctx.close()
    skat, sk = sheets["skat"]["id"], sheets["schafkopf"]["id"]
    return [
        "/", "/skat", "/schafkopf", "/bids", "/sheets", f"/sheets/{skat}",
        f"/sheets/{skat}#list", f"/sheets/{skat}#standing", f"/sheets/{skat}#sheet-more",
        f"/sheets/{sk}", f"/sheets/{sk}#standing", f"/sheets/{skat}/deals/1/edit",
        f"/sheets/{skat}/rules", f"/sheets/{skat}/share/{sheets['skat']['share_token']}",
        "/players", f"/players/{players[0]['id']}", "/groups", f"/groups/{group['id']}",
        "/events", f"/events/{event['id']}", f"/events/{event['id']}/players",
        f"/events/{event['id']}/series/1", f"/events/{event['id']}/screen", "/offline",
    ]  # fmt: skip


@pytest.fixture(scope="module")
def every_kind(browser: Any, server: str, sheets: dict[str, Any]) -> list[str]:
    return page_paths(browser, server, sheets)


# The pages in AXE_PARTS parts (every AXE_PARTS-th page each), so that xdist spreads them.
AXE_PARTS = 4


@pytest.mark.parametrize("part", range(AXE_PARTS))
def test_axe_finds_no_wcag_violation_on_any_kind_of_page(
    kept_page: KeptPage, server: str, every_kind: list[str], part: int
) -> None:
    axe = axe_sync.Axe()
    pg = kept_page(PHONE)
    found: list[str] = []
    for path in every_kind[part::AXE_PARTS]:
        pg.goto(f"{server}{path}")
        if "#" in path:
            pg.wait_for_function("document.querySelector('.pane.on') !== null")
        result = axe.run(pg, options={"runOnly": {"type": "tag", "values": WCAG},
                                      "resultTypes": ["violations"]})  # fmt: skip
        for v in result.response["violations"]:
            nodes = "; ".join(n["target"][0] for n in v["nodes"][:3])
            found.append(f"{path}: {v['id']} ({v['impact']}): {nodes}")
    assert found == []


@pytest.mark.parametrize("game", ["skat", "schafkopf"])
def test_every_text_is_at_least_14px_on_every_tab(
    kept_page: KeptPage, server: str, sheets: dict[str, Any], game: str
) -> None:
    pg = kept_page(PHONE, has_touch=True)
    sid = sheets[game]["id"]
    small: list[str] = []
    # the confirmation line and the entry with a live preview
    pg.goto(f"{server}/sheets/{sid}?saved=1")
    form = pg.locator("#entry form.deal")
    for fid, text in TYPICAL[game]:
        form.locator(f"#{fid}").get_by_text(text, exact=True).first.tap()
    playwright_api.expect(pg.locator("#preview")).not_to_be_empty()
    small += [f"entry: {s}" for s in pg.evaluate(SMALL_TEXT_JS)]
    for tab in ("list", "standing", "sheet-more"):
        pg.locator(f".tabs a[data-pane={tab}]").tap()
        small += [f"{tab}: {s}" for s in pg.evaluate(SMALL_TEXT_JS)]
    assert small == []


# The typical deal of each game, as the table calls it out (docs/architecture.md).
TYPICAL = {
    "skat": [("f-declarer", "Bernd"), ("f-game", "Grand"), ("f-spitzen", "mit 2"),
             ("f-won", "gewonnen")],
    "schafkopf": [("f-game", "Sauspiel"), ("f-declarers", "Bernd"), ("f-declarers", "Carla"),
                  ("f-outcome", "gewonnen")],
}  # fmt: skip


def typical_deal(pg: Any, game: str) -> None:
    form = pg.locator("#entry form.deal")
    for fid, text in TYPICAL[game]:
        button = form.locator(f"#{fid}").get_by_text(text, exact=True).first
        # on the screen, above the Save bar, without scrolling
        box = button.bounding_box()
        bar = pg.locator("#entry .actions.save").bounding_box()
        assert pg.evaluate("scrollY") == 0 and box["y"] + box["height"] <= bar["y"] + 1, (fid, box)
        button.tap()


@pytest.mark.parametrize("game", ["skat", "schafkopf"])
def test_larger_text_is_kept_and_the_typical_deal_still_fits(
    browser: Any, kept_page: KeptPage, server: str, sheets: dict[str, Any], game: str
) -> None:
    pg = kept_page(PHONE, has_touch=True)
    sid = sheets[game]["id"]
    pg.goto(f"{server}/sheets/{sid}")
    normal = pg.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    pg.locator(".top .menu summary").tap()
    pg.locator(".menu-box .bigtext").tap()
    pg.reload()  # kept per browser
    assert pg.locator(".menu-box .bigtext").get_attribute("aria-pressed") == "true"
    big = pg.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert big == pytest.approx(normal * 1.25)
    assert pg.evaluate(OVERFLOW_JS) == []
    typical_deal(pg, game)
    assert pg.evaluate(OVERFLOW_JS) == []
    for tab in ("list", "standing"):
        pg.locator(f".tabs a[data-pane={tab}]").tap()
        assert pg.evaluate(OVERFLOW_JS) == [], tab
    # the browser's own text size at 150 % (its default font size 24 px): no layout breaks
    # (a context of its own: the font size stays with the page)
    ctx = browser.new_context(viewport=PHONE)
    pg = ctx.new_page()
    cdp = ctx.new_cdp_session(pg)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
    for path in (f"/sheets/{sid}", f"/sheets/{sid}#list", "/", "/sheets"):
        pg.goto(f"{server}{path}")
        assert pg.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") > 24
        assert pg.evaluate("document.documentElement.scrollWidth <= innerWidth + 1"), path
    ctx.close()


def test_the_keyboard_reaches_the_entry_in_three_tabs_and_saves_a_deal(
    kept_page: KeptPage, server: str, sheets: dict[str, Any]
) -> None:
    pg = kept_page(PHONE)
    sid = sheets["skat"]["id"]
    pg.goto(f"{server}/sheets/{sid}")
    n = len(pg.context.request.get(f"{server}/api/v1/sheets/{sid}").json()["deals"])
    focused = "document.activeElement.name || document.activeElement.className"
    pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.innerText") == "Zur Eingabe"
    pg.keyboard.press("Enter")
    pg.keyboard.press("Tab")
    assert pg.evaluate(focused) == "declarer"  # the first entry control: 2 Tabs
    # the strip's names are no tab stops (a tap still shows a long one whole)
    assert pg.locator("#standings [tabindex]:not([tabindex='-1'])").count() == 0
    # a whole deal: arrows pick within a group, Tab goes to the next one, Enter saves
    pg.keyboard.press("ArrowRight")  # the second seat that plays
    declarer = pg.evaluate("document.activeElement.value")
    while pg.evaluate(focused) != "game":
        pg.keyboard.press("Tab")
    pg.keyboard.press("ArrowRight")  # the next kind of game: an arrow picks it
    while pg.evaluate(focused) != "spitzen":
        pg.keyboard.press("Tab")
    pg.keyboard.press("ArrowRight")
    while pg.evaluate(focused) != "won":
        pg.keyboard.press("Tab")
    pg.keyboard.press("Space")
    pg.keyboard.press("Enter")
    pg.wait_for_url("**saved=*")
    deals = pg.context.request.get(f"{server}/api/v1/sheets/{sid}").json()["deals"]
    assert len(deals) == n + 1 and deals[-1]["input"]["declarer"] == declarer


def test_a_tablet_held_sideways_shows_five_players_without_sideways_scrolling(
    kept_page: KeptPage, server: str, sheets: dict[str, Any]
) -> None:
    pg = kept_page(TABLET)
    problems: list[str] = []
    for key in ("five", "four_long"):
        for width in (1024, 1180, 1366):
            pg.set_viewport_size({"width": width, "height": 768})
            pg.goto(f"{server}/sheets/{sheets[key]['id']}")
            got = pg.evaluate("""() => {
              const list = document.querySelector('#list'), entry = document.querySelector('#entry');
              const l = list.getBoundingClientRect(), e = entry.getBoundingClientRect();
              const table = document.querySelector('#sheet').getBoundingClientRect();
              const tabs = document.querySelector('.tabs').getBoundingClientRect();
              return {page: document.documentElement.scrollWidth, list: [l.left, l.right],
                      entry: [e.left, e.right, e.top], table: table.right, listTop: l.top,
                      tabsBottom: tabs.bottom, shown: list.checkVisibility() && entry.checkVisibility()};
            }""")  # fmt: skip
            where = f"{key} at {width}"
            if not got["shown"]:
                problems.append(f"{where}: list and entry are not side by side")
                continue
            if got["page"] > width + 1:
                problems.append(f"{where}: the page is {got['page']} px wide")
            if got["table"] > got["list"][1] + 1:
                problems.append(f"{where}: the list's last column is cut off")
            if got["entry"][1] > got["list"][0] + 1:
                problems.append(f"{where}: entry and list overlap")
            if got["entry"][2] > got["tabsBottom"] + 24:
                problems.append(f"{where}: the entry starts {got['entry'][2]} px down")
    assert problems == []


@pytest.mark.skipif(not os.environ.get("SCREENSHOTS"), reason="SCREENSHOTS=docs to draw them")
def test_screenshots_for_the_docs(whole_browser: Any, server: str, sheets: dict[str, Any]) -> None:
    """The README's and docs' screenshots, drawn from the pages as they are with
    ``SCREENSHOTS=docs pytest tests/browser/test_a11y_browser.py -k screenshots`` in the whole
    browser (the phone at 375×667 drawn at 2×, the normal text and the larger; the tablet at
    1024×768 with five players); skipped in a plain run, which measures the same pages."""
    browser = whole_browser
    out = Path(os.environ["SCREENSHOTS"])
    skat, five = sheets["skat"]["id"], sheets["five"]["id"]
    shots = (
        ("sheet", PHONE, False, f"/sheets/{skat}?saved=2"),
        ("list", PHONE, False, f"/sheets/{skat}#list"),
        ("sheet-big", PHONE, True, f"/sheets/{skat}"),
        ("tablet", TABLET, False, f"/sheets/{five}"),
    )
    for name, viewport, big, path in shots:
        ctx = browser.new_context(
            viewport=viewport, device_scale_factor=2 if viewport is PHONE else 1
        )
        pg = ctx.new_page()
        if big:
            pg.add_init_script("localStorage.setItem('bigtext', '1')")
        pg.goto(f"{server}{path}")
        if "#" in path:
            pg.locator(".pane.on").wait_for()
        pg.screenshot(path=str(out / f"screenshot-{name}.png"))
        ctx.close()
        assert (out / f"screenshot-{name}.png").stat().st_size > 5000


# Is the preview's verdict shown whole in its box (no letter cut off)?
VERDICT_WHOLE_JS = """() => {
  const el = document.querySelector('#preview .verdict .big');
  if (!el) return null;
  const range = document.createRange();
  range.selectNodeContents(el);
  const text = range.getBoundingClientRect(), box = document.querySelector('#preview').getBoundingClientRect();
  return {text: el.innerText, whole: text.right <= box.right + 1 && text.bottom <= box.bottom + 1};
}"""


@pytest.mark.parametrize("game", ["skat", "schafkopf"])
def test_a_ramsch_preview_is_whole_and_its_last_points_fill_in(
    kept_page: KeptPage, server: str, game: str
) -> None:
    """ "Anna −140" in the preview, not "Anna −1"; the last card points are filled in at both
    games (three at Skat, four at Schafkopf) once the others are typed."""
    pg = kept_page(PHONE, has_touch=True)
    players = (
        ["Anna", "Bernd", "Carla", "Dieter", "Emil"]
        if game == "schafkopf"
        else ["Anna", "Bernd", "Carla"]
    )
    r = pg.request.post(f"{server}/api/v1/sheets", data={
        "game": game, "players": players, "first_dealer": players[-1], "rules": {"ramsch": True}})  # fmt: skip
    assert r.ok, r.text()
    pg.goto(f"{server}/sheets/{r.json()['id']}")
    reach(pg.locator("form.deal #f-kind").get_by_text("Ramsch", exact=True)).tap()
    boxes = pg.locator("#f-ramsch_points input:visible")
    n = boxes.count()
    assert n == (4 if game == "schafkopf" else 3)
    typed = [100, 10, 5, 5][: n - 1] if game == "schafkopf" else [100, 10]
    for i, v in enumerate(typed):
        boxes.nth(i).fill(str(v))
    assert boxes.nth(n - 1).input_value() == str(120 - sum(typed))
    pg.locator("#preview .verdict .big").wait_for()
    got = pg.evaluate(VERDICT_WHOLE_JS)
    assert got["whole"], got
