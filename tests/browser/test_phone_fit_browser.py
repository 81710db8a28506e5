"""Every page fits a phone: no sideways scrolling at 320 and 375 px, in German and English, and
no segmented button clips its text (checked ones are bold, so each is measured checked).

One browser, one server, one page per language (a part each): the pages are visited once per
language and measured at both widths by resizing the viewport."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.support import live_server

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

WIDTHS = (320, 375)

# Each visible segmented button or flag, checked and unchecked: is its text cut off?
CLIPPED_JS = """() => {
  const out = [];
  const spans = document.querySelectorAll('.seg input + span, .flag input + span');
  for (const span of spans) {
    const input = span.previousElementSibling;
    // hidden ones (a closed <details>, an option that does not apply) are not measured
    if (!span.checkVisibility() || !span.innerText.trim()) continue;
    const was = input.checked;
    for (const on of [false, true]) {
      input.checked = on;
      const inner = span.scrollWidth > span.clientWidth + 1;
      const r = span.getBoundingClientRect();
      const off = r.right > innerWidth + 1 || r.left < -1;
      if (inner || off) out.push(`${input.name}=${input.value}${on ? ' (checked)' : ''}: `
        + `"${span.innerText}" ${span.scrollWidth}>${span.clientWidth}`);
    }
    input.checked = was;
  }
  return out;
}"""

WIDE_JS = """() => [...document.querySelectorAll('body *')].filter((e) => {
  const r = e.getBoundingClientRect(); return r.width > 0 && r.right > innerWidth + 1;
}).slice(0, 5).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser_fit") / "fit.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "fit"})
    with live_server(app) as url:
        yield url


def post(req: Any, server: str, path: str, body: Any) -> Any:
    r = req.post(f"{server}{path}", data=body)
    assert r.ok, (path, r.status, r.text())
    return r.json()


def seed(req: Any, server: str) -> list[str]:
    """A few evenings of every kind, a group with an ungrouped sheet of a long name, an event
    with a seated series; returns the paths of every page worth measuring."""
    long_names = ["Maximiliane Mustermann-Lüdenscheid", "Bernd", "Carla", "Dieter"]
    group = post(req, server, "/api/v1/groups", {"name": "Donnerstagsrunde im Goldenen Hirschen",
                                                "game": "skat"})  # fmt: skip
    s4 = post(req, server, "/api/v1/sheets", {
        "game": "skat", "players": long_names, "first_dealer": "Bernd", "group": group["id"],
        "rules": {"kontra_re": True, "ramsch": True}})  # fmt: skip
    deals = [
        {"declarer": "Carla", "game": "grand", "matadors": 2, "with": True, "won": True},
        {"declarer": "Dieter", "game": "hearts", "matadors": 1, "with": False, "won": False},
        {"declarer": "Maximiliane Mustermann-Lüdenscheid", "game": "null", "won": True},
    ]
    for d in deals:
        post(req, server, f"/api/v1/sheets/{s4['id']}/deals", d)
    # an ungrouped sheet whose label in the group's "add a sheet" choice is very long
    post(req, server, "/api/v1/sheets", {
        "game": "skat", "name": "Vereinsabend mit allen Gästen aus Oberammergau und Umgebung",
        "players": ["Anneliese-Marie", "Bartholomäus", "Cornelius-Friedrich"],
        "first_dealer": "Bartholomäus"})  # fmt: skip
    s5 = post(req, server, "/api/v1/sheets", {
        "game": "skat", "players": ["Anna", "Bernd", "Carla", "Dieter", "Emil"],
        "first_dealer": "Anna"})  # fmt: skip
    post(
        req,
        server,
        f"/api/v1/sheets/{s5['id']}/deals",
        {"declarer": "Bernd", "game": "clubs", "matadors": 3, "with": True, "won": True},
    )
    sk = post(
        req,
        server,
        "/api/v1/sheets",
        {
            "game": "schafkopf",
            "players": ["A", "B", "C", "D"],
            "first_dealer": "A",
            "rules": {"tariffs": {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10}},
        },
    )
    post(
        req,
        server,
        f"/api/v1/sheets/{sk['id']}/deals",
        {"game": "sauspiel", "declarers": ["A", "B"], "won": True, "schneider": True},
    )
    players = req.get(f"{server}/api/v1/players").json()["players"]
    pid = next(p["id"] for p in players if p["name"] == long_names[0])
    event = post(req, server, "/api/v1/events", {"name": "Preisskat des Skatclubs Herz Dame",
                                                 "game": "skat"})  # fmt: skip
    eid = event["id"]
    post(
        req,
        server,
        f"/api/v1/events/{eid}/players",
        {"names": ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Friederike-Sophie", "Gustav"]},
    )
    post(req, server, f"/api/v1/events/{eid}/series", {"seating": "draw", "seed": 7})
    return [
        "/",
        "/skat",
        "/skat?game=grand&spitzen=w2&declarer_points=75&bid=18",
        "/schafkopf",
        "/bids",
        "/sheets",
        f"/sheets/{s4['id']}",
        f"/sheets/{s5['id']}",
        f"/sheets/{sk['id']}",
        f"/sheets/{s4['id']}#list",
        f"/sheets/{s4['id']}#standing",
        f"/sheets/{s5['id']}#standing",
        f"/sheets/{s4['id']}/deals/1/edit",
        f"/sheets/{sk['id']}/deals/1/edit",
        f"/sheets/{s4['id']}/share/{s4['share_token']}",
        "/players",
        f"/players/{pid}",
        "/groups",
        f"/groups/{group['id']}",
        "/events",
        f"/events/{eid}",
        f"/events/{eid}/players",
        f"/events/{eid}/series/1",
        f"/events/{eid}/screen",
        "/admin",  # every sheet's, event's and group's link: long ones
    ]


@pytest.fixture(scope="module")
def seeded(browser: Any, server: str) -> list[str]:
    """``seed`` once per module (and worker): the paths of every page worth measuring."""
    ctx = browser.new_context()
    try:
        return seed(ctx.request, server)
    finally:
        ctx.close()


# One part per language, so that xdist runs them side by side.
@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_page_scrolls_sideways_and_no_button_clips(
    kept_page: KeptPage, server: str, seeded: list[str], lang: str
) -> None:
    pg = kept_page({"width": 375, "height": 667})
    problems: list[str] = []
    for path in seeded:
        sep = "&" if "?" in path.split("#")[0] else "?"
        base, _, frag = path.partition("#")
        url = f"{server}{base}{sep}lang={lang}" + (f"#{frag}" if frag else "")
        pg.set_viewport_size({"width": 375, "height": 667})
        resp = pg.goto(url)
        # a fragment on the page just visited is a same-document navigation (no response)
        assert (resp is None and frag) or (resp is not None and resp.status < 400), url
        # folded parts (manage a group, more options) open: they must fit as well
        pg.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        for width in WIDTHS:
            pg.set_viewport_size({"width": width, "height": 667})
            seen = pg.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            if seen[0] > seen[1]:
                problems.append(f"{lang} {width}px {path}: {seen[0]} px wide "
                                f"{pg.evaluate(WIDE_JS)}")  # fmt: skip
            for clip in pg.evaluate(CLIPPED_JS):
                problems.append(f"{lang} {width}px {path}: clipped {clip}")
    assert problems == [], "\n".join(problems)


def test_half_tapped_deals_ask_nothing_and_log_no_errors(kept_page: KeptPage, server: str) -> None:
    """Tap by tap, as at the table: no preview answer 422, no console error; the complete
    entry shows its value."""
    pg = kept_page({"width": 375, "height": 667})
    bad: list[str] = []

    def console(m: Any) -> None:
        if m.type == "error":
            bad.append(m.text)

    def response(r: Any) -> None:
        if r.status >= 400:
            bad.append(f"{r.status} {r.url}")

    pg.on("console", console)
    pg.on("response", response)
    try:
        tap_half_deals(pg, server)
    finally:
        pg.remove_listener("console", console)
        pg.remove_listener("response", response)
    assert bad == []


def tap_half_deals(pg: Any, server: str) -> None:
    req = pg.request
    sk = post(req, server, "/api/v1/sheets", {"game": "skat", "players": ["A", "B", "C"],
                                             "first_dealer": "C"})  # fmt: skip
    pg.goto(f"{server}/sheets/{sk['id']}")
    form = pg.locator("#entry form.deal")
    for fid, text in (("f-declarer", "A"), ("f-game", "Grand"), ("f-spitzen", "mit 2")):
        form.locator(f"#{fid}").get_by_text(text, exact=True).click()
        pg.wait_for_timeout(250)  # the preview waits 120 ms after a tap; give it its chance
        assert pg.inner_text("#preview").strip() == ""
    form.locator("#f-won").get_by_text("gewonnen", exact=True).click()
    pg.locator("#preview .big").filter(has_text="+72").wait_for()
    sf = post(req, server, "/api/v1/sheets", {"game": "schafkopf", "players": list("ABCD"),
                                             "first_dealer": "D"})  # fmt: skip
    pg.goto(f"{server}/sheets/{sf['id']}")
    form = pg.locator("#entry form.deal")
    for fid, text in (("f-game", "Sauspiel"), ("f-outcome", "gewonnen"), ("f-declarers", "A")):
        form.locator(f"#{fid}").get_by_text(text, exact=True).click()
        pg.wait_for_timeout(250)
        assert pg.inner_text("#preview").strip() == ""
    form.locator("#f-declarers").get_by_text("B", exact=True).click()
    pg.locator("#preview .big").wait_for()
    pg.goto(f"{server}/skat")
    for fid, text in (("f-game", "♥ Herz"), ("f-won", "gewonnen")):
        pg.locator(f"#{fid}").get_by_text(text, exact=True).click()
        pg.wait_for_timeout(250)
    pg.locator("#f-spitzen").get_by_text("mit 1", exact=True).click()
    pg.locator("#result .big").filter(has_text="+20").wait_for()


IN_SIGHT = """(sel) => { const el = document.querySelector(sel); if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"""


@pytest.mark.parametrize("size", [(375, 667), (320, 568)])
def test_calculators_show_their_value_without_scrolling(
    kept_page: KeptPage, server: str, size: tuple[int, int]
) -> None:
    pg = kept_page({"width": size[0], "height": size[1]})
    pg.goto(f"{server}/skat")
    pg.locator("#f-game").get_by_text("Grand", exact=True).click()
    pg.locator("#f-spitzen").get_by_text("mit 2", exact=True).click()
    pg.locator("#f-won").get_by_text("gewonnen", exact=True).click()
    pg.locator("#live .big").filter(has_text="+72").wait_for()
    assert pg.evaluate(IN_SIGHT, "#live .big"), "the live value is below the screen"
    pg.get_by_role("button", name="Berechnen").click()
    pg.wait_for_url("**/skat?*#result")
    pg.wait_for_load_state("load")
    assert "+72" in pg.inner_text("#result .big")
    assert pg.evaluate(IN_SIGHT, "#result .big"), "the result is below the screen"
    pg.goto(f"{server}/schafkopf")
    pg.locator("#f-game").get_by_text("Solo", exact=True).click()
    pg.locator("#f-declarers label").first.click()
    pg.locator("#f-outcome").get_by_text("gewonnen", exact=True).click()
    pg.locator("#live .big").wait_for()
    assert pg.evaluate(IN_SIGHT, "#live .big")
    pg.get_by_role("button", name="Berechnen").click()
    pg.wait_for_url("**/schafkopf?*#result")
    pg.wait_for_load_state("load")
    assert pg.evaluate(IN_SIGHT, "#result .big"), "the result is below the screen"


# Every control a finger can reach: its box, and whether it is under the Save bar (the bar's
# own controls aside). Hidden ones (other screen of the entry, a closed <details>) are skipped.
CONTROLS_JS = """(scope) => {
  const bar = document.querySelector('#entry .actions.save');
  const barTop = bar && bar.checkVisibility() ? bar.getBoundingClientRect().top : innerHeight;
  const sel = 'a[href], button, summary, select, input[type=text], .seg label > span, .flag > span';
  const out = [];
  for (const el of document.querySelectorAll(scope.map((s) => `${s} :is(${sel})`).join(', '))) {
    if (!el.checkVisibility() || el.closest('.vh')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = (el.innerText || el.name || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 24);
    out.push({name, w: r.width, h: r.height, top: r.top, bottom: r.bottom,
              under: !!bar && !bar.contains(el) && el.closest('#entry') !== null && r.bottom > barTop + 0.5});
  }
  return out;
}"""

# Every number of the strip (balances, list points, the role word beside them) and of the list
# (running totals, per-deal changes, list entries): its rendered font size.
NUMBERS_JS = """() => [...document.querySelectorAll(
    '.strip .bal, .strip small, .strip small *, #list table.sheet tbody td:not(.game):not(.d), #list table.sheet tbody td i')]
  .filter((e) => e.checkVisibility() && e.innerText.trim())
  .map((e) => [e.className + ' ' + e.innerText.trim().slice(0, 10), parseFloat(getComputedStyle(e).fontSize)])
  .filter(([, px]) => px < 14)"""


def sheet_with_deals(req: Any, server: str, game: str) -> dict[str, Any]:
    if game == "skat":
        sheet = post(req, server, "/api/v1/sheets", {
            "game": "skat", "players": ["Anna", "Bernd", "Carla", "Dieter"], "first_dealer": "Anna",
            "rules": {"kontra_re": True, "ramsch": True}})  # fmt: skip
        deals: list[dict[str, Any]] = [
            {"declarer": "Bernd", "game": "grand", "matadors": 2, "with": True, "won": True},
            {"declarer": "Dieter", "game": "null", "won": False},
        ]
    else:
        sheet = post(req, server, "/api/v1/sheets", {"game": "schafkopf", "players": list("ABCD"),
                                                    "first_dealer": "A"})  # fmt: skip
        deals = [{"game": "sauspiel", "declarers": ["A", "B"], "won": True, "schneider": True}]
    for d in deals:
        post(req, server, f"/api/v1/sheets/{sheet['id']}/deals", d)
    return sheet


# Each choice field's visible buttons of the entry: [value, row top, left] in document order.
READING_ORDER_JS = """() => {
  const out = {};
  document.querySelectorAll('#entry fieldset.seg').forEach((fs) => {
    const shown = [...fs.querySelectorAll('.opts > label')].filter((l) => l.offsetParent !== null)
      .map((l) => { const r = l.getBoundingClientRect();
                    return [l.querySelector('input').value, Math.round(r.top), Math.round(r.left)]; });
    if (shown.length > 1) out[fs.id] = shown;
  });
  return out;
}"""


@pytest.mark.parametrize("size", [(375, 667), (320, 568), (414, 736)])
def test_every_control_is_a_finger_wide_and_every_number_readable(
    kept_page: KeptPage, server: str, size: tuple[int, int]
) -> None:
    """Entry (both of its screens) and list: every control at least 44×44 CSS px, every
    number of the strip and the list at least 14 px."""
    pg = kept_page({"width": size[0], "height": size[1]}, has_touch=True)
    small: list[str] = []
    for game in ("skat", "schafkopf"):
        sheet = sheet_with_deals(pg.request, server, game)
        for lang in ("de", "en"):
            pg.goto(f"{server}/sheets/{sheet['id']}?lang={lang}&saved=1")
            # the confirmation shows the whole saved deal (on two lines if need be), never cut
            cut = "(() => { const p = document.querySelector('#saved p'); return p.scrollWidth > p.clientWidth + 1 || p.scrollHeight > p.clientHeight + 1; })()"
            if pg.evaluate(cut):
                small.append(f"{game} {lang} {size}: the confirmation line is cut")
            screens = ["typical", "more"]
            if game == "schafkopf" and size[1] < 640:
                # the second screen with a solo's four suits as well as the Sauspiel's three
                screens.append("more, solo")
            for screen in screens:
                if screen == "more":
                    pg.locator(".more-toggle").click()
                if screen == "more, solo":
                    pg.locator(".more-toggle").click()  # back to the first screen
                    pg.locator("#f-game label").filter(has_text="Solo").click()
                    pg.locator(".more-toggle").click()
                if game == "schafkopf" and screen == "typical" and size[1] >= 640:
                    # a solo: Tout and Sie join Schneider and Schwarz, the widest first screen
                    # (320×568 is measured with the typical deal, the Sauspiel)
                    pg.locator("#f-game label").filter(has_text="Solo").click()
                if game == "skat" and screen == "more":
                    # Hand on: Schneider and Schwarz angesagt appear beside it
                    pg.locator("#f-hand").click()
                for c in pg.evaluate(CONTROLS_JS, ["header.top", ".sheethead", ".tabs", "#entry"]):
                    if c["w"] < 43.5 or c["h"] < 43.5:
                        small.append(
                            f"{game} {lang} {size} {screen}: {c['name']!r} {c['w']:.0f}×{c['h']:.0f}"
                        )
                    # nothing of either screen under the Save bar, not even partly
                    if c["under"]:
                        small.append(f"{game} {lang} {size} {screen}: {c['name']!r} under the "
                                     f"Save bar (its bottom at {c['bottom']:.0f})")  # fmt: skip
                if screen != "typical":
                    # the second screen's buttons say their whole word, as the first's do
                    for clipped in pg.evaluate(CLIPPED_JS):
                        small.append(f"{game} {lang} {size} {screen}: clipped {clipped}")
                    # and read in their order (Laufende 0, 1, 2 … 14), row by row
                    for field, shown in pg.evaluate(READING_ORDER_JS).items():
                        if shown != sorted(shown, key=lambda v: (v[1], v[2])):
                            small.append(f"{game} {lang} {size} {screen}: {field} out of "
                                         f"order: {[v[0] for v in shown]}")  # fmt: skip
            pg.locator(".tabs a[data-pane=list]").click()
            for c in pg.evaluate(CONTROLS_JS, ["#list"]):
                if c["w"] < 43.5 or c["h"] < 43.5:
                    small.append(
                        f"{game} {lang} {size} list: {c['name']!r} {c['w']:.0f}×{c['h']:.0f}"
                    )
            for what, px in pg.evaluate(NUMBERS_JS):
                small.append(f"{game} {lang} {size}: number {what!r} at {px} px")
    assert small == [], "\n".join(small)


# One part per game, so that xdist runs them side by side.
@pytest.mark.parametrize("game", ["skat", "schafkopf"])
def test_every_deal_kind_reaches_save_without_scrolling(
    kept_page: KeptPage, server: str, game: str
) -> None:
    """375×667 with a touch screen: every Skat kind (Hand, Schneider angesagt, Ouvert, Kontra/Re,
    an overbid bid, typed points, schwarz) and each deal of the seed's Schafkopf evening is
    entered by taps on controls that are on screen and not under the Save bar, 0 px scrolled
    (bench/entry_cost.py plays the same table and prints the taps)."""
    from bench.entry_cost import SEED, SKAT_KINDS, Cost, play, schafkopf_moves, skat_checks

    pg = kept_page({"width": 375, "height": 667}, has_touch=True, is_mobile=True)
    req = pg.request
    costs: list[Cost] = []
    if game == "skat":
        skat = post(req, server, "/api/v1/sheets", {
            "game": "skat", "players": ["Anna", "Bernd", "Carla", "Dieter"],
            "first_dealer": "Anna", "rules": {"kontra_re": True}})  # fmt: skip
        url = f"{server}/sheets/{skat['id']}"
        for name, target, moves in SKAT_KINDS:
            costs.append(play(pg, url, Cost(name, target), moves))
            url = ""
        deals = req.get(f"{server}/api/v1/sheets/{skat['id']}").json()["deals"]
        skat_checks(deals[-1], deals)
    else:
        sk = post(req, server, "/api/v1/sheets", {"game": "schafkopf", "players": list("ABCD"),
                                                 "first_dealer": "A"})  # fmt: skip
        url = f"{server}/sheets/{sk['id']}"
        for i, deal in enumerate(SEED["deals"], start=1):
            costs.append(play(pg, url, Cost(f"Schafkopf {i}", 7), schafkopf_moves(deal["body"])))
            url = ""
        rows = req.get(f"{server}/api/v1/sheets/{sk['id']}").json()["deals"]
        assert [r["result"]["value"] for r in rows] == [d["value"] for d in SEED["deals"]]
    problems = [f"{c.name}: {c.scrolled} px, {c.hidden}" for c in costs if c.scrolled or c.hidden]
    problems += [f"{c.name}: {c.touches} taps" for c in costs if c.target and c.touches > c.target]
    assert problems == []


SIDE_BY_SIDE = """() => {
  const e = document.querySelector('#entry').getBoundingClientRect();
  const l = document.querySelector('#list').getBoundingClientRect();
  return {entry: [e.left, e.right, e.top, e.height], list: [l.left, l.right, l.top, l.height],
          save: document.querySelector('#entry .actions.save button.primary').getBoundingClientRect().bottom};
}"""


def test_laptop_shows_entry_and_list_side_by_side(kept_page: KeptPage, server: str) -> None:
    """1280×800 with a mouse: the entry on the left, the list on the right, both in sight; a
    deal entered by clicks goes into the list beside it."""
    pg = kept_page({"width": 1280, "height": 800})
    sheet = sheet_with_deals(pg.request, server, "skat")
    pg.goto(f"{server}/sheets/{sheet['id']}")
    seen = pg.evaluate(SIDE_BY_SIDE)
    assert seen["entry"][1] <= seen["list"][0], seen  # entry left of the list
    # the entry level with the list's tabs: no gap above it
    assert seen["entry"][2] <= seen["list"][2] and seen["list"][3] > 0, seen
    assert seen["save"] <= 800, seen
    form = pg.locator("#entry form.deal")
    form.locator("#f-declarer label:visible").first.click()
    for fid, text in (("f-game", "Grand"), ("f-spitzen", "mit 1"), ("f-won", "gewonnen")):
        form.locator(f"#{fid}").get_by_text(text, exact=True).click()
    pg.locator("#preview .big").wait_for()
    with pg.expect_navigation():
        pg.get_by_role("button", name="Speichern", exact=True).click()
    assert pg.locator("#list #deal-3").is_visible()
    seen = pg.evaluate(SIDE_BY_SIDE)
    assert seen["entry"][1] <= seen["list"][0], seen


def test_correction_is_one_screen(kept_page: KeptPage, server: str) -> None:
    """375×667: the deal as stored on top, the form, and in Save's bar the figure as stored
    beside the corrected one; nothing scrolled from opening the deal to its Save."""
    pg = kept_page({"width": 375, "height": 667}, has_touch=True)
    sheet = sheet_with_deals(pg.request, server, "skat")
    pg.goto(f"{server}/sheets/{sheet['id']}/deals/1/edit")
    assert "+72" in pg.inner_text("#entry .save .was")
    button = pg.locator("#entry #f-won").get_by_text("verloren", exact=True)
    assert pg.evaluate(IN_SIGHT, "#entry #f-won label:nth-child(2) span")
    button.tap()
    pg.locator("#preview .big").filter(has_text="−144").wait_for()
    assert pg.evaluate(IN_SIGHT, "#preview .big") and pg.evaluate(IN_SIGHT, "#entry .save .was")
    assert pg.evaluate(IN_SIGHT, "#entry .save button.primary")
    assert pg.evaluate("window.scrollY") == 0
    with pg.expect_navigation():
        pg.locator("#entry .save button.primary").tap()
    deal = pg.request.get(f"{server}/api/v1/sheets/{sheet['id']}").json()["deals"][0]
    assert deal["result"]["won"] is False


@pytest.mark.parametrize(
    ("size", "first", "more", "badge"),
    [
        # tall: Laufende 0, 2–7 and Kontra are on the first screen, set there they are in sight
        ((375, 667), ["laufende=3", "kontra=1"], [], ""),
        # a count only the second screen offers is counted
        ((375, 667), ["kontra=1"], ["laufende=9"], "1"),
        # short: both are on the second screen only
        ((320, 568), [], ["laufende=3", "kontra=1"], "2"),
    ],
    ids=["tall-first-screen", "tall-second-screen-count", "short"],
)
def test_more_badge_counts_only_what_the_first_screen_does_not_show(
    kept_page: KeptPage,
    server: str,
    size: tuple[int, int],
    first: list[str],
    more: list[str],
    badge: str,
) -> None:
    pg = kept_page({"width": size[0], "height": size[1]}, has_touch=True)
    sheet = sheet_with_deals(pg.request, server, "schafkopf")
    pg.goto(f"{server}/sheets/{sheet['id']}")

    def tap(choice: str) -> None:
        name, value = choice.split("=")
        pg.locator(f'#f-{name} label:has(> input[value="{value}"])').click()

    for choice in first:
        tap(choice)
    pg.locator(".more-toggle").click()
    for choice in more:
        tap(choice)
    pg.locator(".more-toggle").click()  # back to the first screen
    mark = pg.locator(".more-toggle .set")
    assert (mark.inner_text() if mark.is_visible() else "") == badge


# The preview in Save's bar: the value whole in its box, the words' lines whole under it.
PREVIEW_CUT_JS = """() => {
  const box = document.querySelector('#entry .save .preview');
  const big = box && box.querySelector('.verdict .big');
  if (!big || !big.innerText.trim()) return 'no value shown';
  const b = box.getBoundingClientRect(), v = big.getBoundingClientRect();
  const out = [];
  if (big.scrollWidth > big.clientWidth + 1 || v.right > b.right + 1 || v.bottom > b.bottom + 1)
    out.push(`value "${big.innerText}" cut: ${Math.round(v.right)}>${Math.round(b.right)}`);
  for (const words of box.querySelectorAll('.verdict > span:not(.big)')) {
    const w = words.getBoundingClientRect();
    if (w.bottom > b.bottom + 1) out.push(`words "${words.innerText}" cut at the bar's bottom`);
  }
  if (document.documentElement.scrollWidth > innerWidth) out.push('page wider than the screen');
  return out.join('; ');
}"""


@pytest.mark.parametrize("big", [False, True], ids=["normal-text", "larger-text"])
@pytest.mark.parametrize("width", [320, 375])
def test_the_value_in_saves_bar_is_never_cut(
    kept_page: KeptPage, server: str, width: int, big: bool
) -> None:
    """The value about to be saved, on the first screen and after "Mehr" (where "← Zurück"
    takes the place of "Mehr"), whole; its words on the lines that fit whole under it."""
    pg = kept_page({"width": width, "height": 640}, has_touch=True)
    sheet = sheet_with_deals(pg.request, server, "skat")
    pg.goto(f"{server}/sheets/{sheet['id']}")
    if big:
        pg.evaluate("localStorage.setItem('bigtext', '1')")
        pg.reload()
        assert pg.evaluate("document.documentElement.classList.contains('big')")
    form = pg.locator("form.deal")
    for field, text in (("declarer", "Bernd"), ("game", "Grand"), ("spitzen", "mit 4"),
                        ("won", "gewonnen")):  # fmt: skip
        form.locator(f"#f-{field}").get_by_text(text, exact=True).click()
    pg.locator("#entry .save .preview .big").filter(has_text="120").wait_for()
    problems = [f"first screen: {p}" for p in [pg.evaluate(PREVIEW_CUT_JS)] if p]
    pg.locator(".more-toggle").click()
    problems += [f"after Mehr: {p}" for p in [pg.evaluate(PREVIEW_CUT_JS)] if p]
    assert problems == []


@pytest.mark.parametrize("size", [(320, 568), (375, 667)])
def test_the_gestellt_row_says_what_it_counts(
    kept_page: KeptPage, server: str, size: tuple[int, int]
) -> None:
    """A row of "0 1 2 3 4" alone does not say it counts gestellt / geklopft: on the short
    screen, where the other headings give their line to the buttons, its heading stays."""
    pg = kept_page({"width": size[0], "height": size[1]}, has_touch=True)
    sheet = sheet_with_deals(pg.request, server, "schafkopf")
    pg.goto(f"{server}/sheets/{sheet['id']}")
    legend = pg.locator("#f-gestellt legend")
    assert legend.is_visible() and legend.bounding_box()["width"] > 40
    assert pg.evaluate("document.documentElement.scrollWidth") <= size[0]
