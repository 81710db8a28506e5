"""The sheet page as the table's instrument on a phone (issue 10), in headless Chromium.

A whole Skat evening at four and the seed's Schafkopf evening are played through the entry
form at 375×667 and at 320×568. After every deal: the standings strip shows the totals worked
out here by hand (and the API agrees), nothing is wider than the screen, and Save was on the
screen without scrolling for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from skatcalc import create_app
from tests.browser.pages import KeptPage
from tests.support import live_server, reach

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

SEED = json.loads((Path(__file__).parents[1] / "data" / "seed_schafkopf.json").read_text())
SIZES = [pytest.param((375, 667), id="375x667"), pytest.param((320, 568), id="320x568")]
SKAT_PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser_sheet") / "e2e.sqlite"
    app = create_app({"DATABASE": str(db), "SECRET_KEY": "e2e"})
    with live_server(app) as url:
        yield url


def api(pg: Any, server: str, method: str, path: str, body: Any = None) -> Any:
    """The JSON API through the page's own context (same server, same cookies)."""
    req = pg.context.request
    r = req.post(f"{server}{path}", data=body) if method == "POST" else req.get(f"{server}{path}")
    assert r.ok, r.text()
    return r.json()


def shown(n: int) -> str:
    """A signed number as the page writes it: +72, −40 (minus sign), 0."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def plain(n: int) -> str:
    return f"\u2212{-n}" if n < 0 else str(n)


# --- The Skat evening: every list entry worked out by hand (RULES.md 1.1-1.9) ------------------


@dataclass
class Deal:
    what: str
    entries: dict[str, int]  # the list entry of this deal per player (0 when none)
    taps: Callable[..., None]
    typical: bool = False  # the entry of a typical deal: no scrolling at 375×667 and 320×568
    n_struck: list[int] = field(default_factory=list)


# Before a tap: nothing scrolled, the button inside the screen, above the Save bar and the
# one the finger would hit (Playwright's click scrolls by itself, so this is checked first).
IN_REACH = """(span) => {
    const r = span.getBoundingClientRect();
    const bar = document.querySelector("#entry .actions.save").getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return {scrollY: window.scrollY, top: r.top, bottom: r.bottom, bar: bar.top,
            hit: !!hit && (span.closest("label") || span).contains(hit)};
}"""


def seg(form: Any, fid: str, text: str, in_reach: bool = False) -> None:
    button = reach(form.locator(f"#{fid}").get_by_text(text, exact=True))
    if in_reach:
        seen = button.evaluate(IN_REACH)
        assert seen["scrollY"] == 0, (text, seen)
        assert 0 <= seen["top"] and seen["bottom"] <= seen["bar"], (text, seen)
        assert seen["hit"], (text, seen)
    button.click()


def game(declarer: str, contract: str, spitzen: str | None, outcome: str,
         *flags: str) -> Callable[..., None]:  # fmt: skip
    def taps(form: Any, in_reach: bool = False) -> None:
        seg(form, "f-declarer", declarer, in_reach)
        seg(form, "f-game", contract, in_reach)
        if spitzen:
            seg(form, "f-spitzen", spitzen, in_reach)
        seg(form, "f-won", outcome, in_reach)
        for f in flags:
            if f.startswith("bid="):
                reach(form.locator("select[name=bid]")).select_option(f[4:])
            else:
                reach(form.locator(f"#f-{f}")).click()

    return taps


def ramsch(points: dict[str, int]) -> Callable[..., None]:
    def taps(form: Any, in_reach: bool = False) -> None:
        seg(form, "f-kind", "Ramsch")
        for name, pts in points.items():
            reach(form.locator(f"input[name=r{SKAT_PLAYERS.index(name)}]")).fill(str(pts))

    return taps


def e(**entries: int) -> dict[str, int]:
    return {p: entries.get(p, 0) for p in SKAT_PLAYERS}


# Dealers: Anna, Bernd, Carla, Dieter, … (the dealer sits out); deal 10 is taken back, so
# Bernd deals 11 again.
SKAT_EVENING = [
    # Grand mit 2 = 3 × 24
    Deal("Grand", e(Bernd=72), game("Bernd", "Grand", "mit 2", "gewonnen"), typical=True),
    # Herz mit 1 = 2 × 10, lost: −2 × 20
    Deal("suit lost", e(Carla=-40), game("Carla", "♥ Herz", "mit 1", "verloren"), typical=True),
    # Null 23 (corrected to Null Hand 35 after deal 11)
    Deal("Null", e(Dieter=23), game("Dieter", "Null", None, "gewonnen"), typical=True),
    # Kreuz ohne 3, game, Hand, Schneider = 6 × 12
    Deal(
        "Hand Schneider",
        e(Anna=72),
        game("Anna", "♣ Kreuz", "ohne 3", "gewonnen", "hand", "schneider"),
    ),  # fmt: skip
    # all passed: Ramsch among the three who play (Anna deals); the most points lose them
    Deal("Ramsch", e(Carla=-62), ramsch({"Bernd": 30, "Carla": 62, "Dieter": 28})),
    # Karo mit 1 = 18, bid 24: overbid, charged 27 (next multiple of 9), lost: −54
    Deal("overbid", e(Dieter=-54), game("Dieter", "♦ Karo", "mit 1", "gewonnen", "bid=24")),
    # Pik mit 2 = 3 × 11 = 33, Kontra doubles: +66
    Deal("Kontra", e(Anna=66), game("Anna", "♠ Pik", "mit 2", "gewonnen", "kontra")),
    # Grand ohne 1 = 2 × 24 = 48, lost: −96
    Deal("Grand lost", e(Bernd=-96), game("Bernd", "Grand", "ohne 1", "verloren"), typical=True),
    # Null ouvert 46, lost: −92
    Deal("Null ouvert", e(Carla=-92), game("Carla", "Null", None, "verloren", "ouvert")),
    # Herz mit 1 = 20: saved, then taken back with the undo of that very deal
    Deal("undone", e(), game("Dieter", "♥ Herz", "mit 1", "gewonnen"), typical=True),
    # Grand mit 1 = 2 × 24
    Deal("Grand 2", e(Anna=48), game("Anna", "Grand", "mit 1", "gewonnen"), typical=True),
    # Karo mit 4 = 5 × 9
    Deal("Karo", e(Bernd=45), game("Bernd", "♦ Karo", "mit 4", "gewonnen"), typical=True),
]
UNDONE = 10
CORRECTED = (3, e(Dieter=35))  # deal 3 becomes Null Hand: 35


def balances(entries_per_deal: list[dict[str, int]], players: list[str]) -> dict[str, int]:
    """RULES.md 1.9: each deal moves player i by n × entry_i − the deal's entries together."""
    out = dict.fromkeys(players, 0)
    for entries in entries_per_deal:
        total = sum(entries.values())
        for p in players:
            out[p] += len(players) * entries[p] - total
    return out


def check_page(pg: Any, expected: dict[str, int], lists: dict[str, int] | None) -> None:
    """The strip shows the expected totals; nothing is wider than the screen."""
    seen = pg.evaluate("""() => ({
        width: [document.documentElement.scrollWidth, innerWidth],
        top: document.getElementById("standings").getBoundingClientRect().top,
        cells: Array.from(document.querySelectorAll("#standings [data-p]")).map((c) => [
            c.dataset.p, c.querySelector(".bal").innerText,
            (c.querySelector(".li") || { innerText: "" }).innerText.split(/\\s+/).pop()]),
    })""")
    assert [c[0] for c in seen["cells"]] == list(expected)
    assert {c[0]: c[1] for c in seen["cells"]} == {p: shown(v) for p, v in expected.items()}
    if lists is not None:
        assert {c[0]: c[2] for c in seen["cells"]} == {p: plain(v) for p, v in lists.items()}
    assert 0 <= seen["top"] < 200  # in sight, wherever the page is scrolled
    width = seen["width"]
    assert width[0] <= width[1], f"page {width[0]} px wide on a {width[1]} px screen"


ROW_IN_SIGHT = """(id) => {
    const row = document.getElementById(id).getBoundingClientRect();
    const strip = document.getElementById("standings").getBoundingClientRect();
    return row.top >= strip.bottom - 1 && row.bottom <= innerHeight;
}"""


def save(pg: Any, n: int, no_scroll: bool) -> None:
    """Save is on the screen before it is tapped; for a typical deal nothing scrolled."""
    button = pg.locator("#entry").get_by_role("button", name="Speichern")
    box = button.bounding_box()
    height = pg.evaluate("innerHeight")
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert box["height"] >= 40
    if no_scroll:
        assert pg.evaluate("window.scrollY") == 0
    button.click()
    pg.wait_for_url(f"**saved={n}*")
    assert not pg.locator(".err").count(), pg.inner_text("main")
    assert f"Spiel {n}" in pg.inner_text("#saved")


def new_sheet(pg: Any, server: str, body: dict[str, Any]) -> str:
    sheet = api(pg, server, "POST", "/api/v1/sheets", body)
    url = f"{server}/sheets/{sheet['id']}"
    pg.goto(url)
    return url


@pytest.mark.parametrize("size", SIZES)
def test_skat_evening_at_four_on_a_phone(kept_page: KeptPage, server: str, size: tuple[int, int]
                                         ) -> None:  # fmt: skip
    pg = kept_page({"width": size[0], "height": size[1]})
    url = new_sheet(pg, server, {"game": "skat", "players": SKAT_PLAYERS, "first_dealer": "Anna",
                                 "rules": {"kontra_re": True, "ramsch": True}})  # fmt: skip
    sid = url.rsplit("/", 1)[1]
    counted: list[dict[str, int]] = []
    check_page(pg, balances(counted, SKAT_PLAYERS), dict.fromkeys(SKAT_PLAYERS, 0))
    for n, deal in enumerate(SKAT_EVENING, start=1):
        if n == 11:  # the correction: deal 3 was a Null Hand
            pg.locator(".tabs").get_by_text("Liste").click()
            pg.locator("#deal-3 td.game a").click()
            pg.wait_for_url("**/deals/3/edit")
            reach(pg.locator("form.deal #f-hand")).click()
            pg.get_by_role("button", name="Korrektur speichern").click()
            pg.wait_for_url(f"{url}*")
            pg.wait_for_load_state("load")
            # the list is shown, the corrected row in sight below the sticky strip
            assert pg.locator(".tabs a[data-pane=list]").get_attribute("aria-current") == "page"
            pg.wait_for_function(ROW_IN_SIGHT, arg="deal-3", timeout=3000)
            counted[CORRECTED[0] - 1] = CORRECTED[1]
            check_page(pg, balances(counted, SKAT_PLAYERS), None)
            pg.locator(".tabs a[data-pane=entry]").click()
        assert pg.locator(".tabs a[data-pane=entry]").inner_text().startswith(f"Spiel {n}")
        form = pg.locator("#entry form.deal")
        deal.taps(form, deal.typical)
        save(pg, n, no_scroll=deal.typical)
        counted.append(deal.entries)
        if n == UNDONE:  # the undo in the confirmation strikes this deal, and only it
            pg.locator("#saved").get_by_role("button", name="Rückgängig").click()
            pg.wait_for_load_state()
            assert "Spiel 10 gestrichen" in pg.inner_text("main")
            counted[-1] = e()
        lists = {p: sum(d[p] for d in counted) for p in SKAT_PLAYERS}
        expected = balances(counted, SKAT_PLAYERS)
        check_page(pg, expected, lists)
        # the API computes the same totals (one path for every number)
        sheet = api(pg, server, "GET", f"/api/v1/sheets/{sid}")
        assert sheet["totals"]["balance"] == expected, deal.what
        assert sheet["totals"]["list"] == lists
    struck = [d["n"] for d in sheet["deals"] if d["struck"]]
    assert len(sheet["deals"]) == 12 and struck == [UNDONE]
    assert sheet["deals"][10]["dealer"] == "Bernd"  # the struck deal was never dealt
    # Rows explain themselves: contract and marks in the row, the same in the CSV.
    pg.locator(".tabs").get_by_text("Liste").click()
    rows = {n: pg.inner_text(f"#deal-{n} td.game") for n in (3, 4, 5, 6, 7, 9)}
    assert "Null" in rows[3] and "Hand" in rows[3]
    assert "Kreuz ohne 3" in rows[4] and "Hand" in rows[4] and "Schn." in rows[4]
    assert "Ramsch: Carla verliert (62 Augen)" in rows[5]
    assert "überr." in rows[6] and "verl." in rows[6]
    assert "Kontra" in rows[7]
    assert "ouvert" in rows[9] and "verl." in rows[9]
    csv = pg.context.request.get(f"{url}/export.csv").text()
    assert "Kreuz ohne 3 (Hand, Schn.)" in csv and "Pik mit 2 (Kontra)" in csv
    check_page(pg, expected, None)


@pytest.mark.parametrize("size", SIZES)
def test_schafkopf_seed_evening_on_a_phone(kept_page: KeptPage, server: str,
                                           size: tuple[int, int]) -> None:  # fmt: skip
    pg = kept_page({"width": size[0], "height": size[1]})
    players = SEED["players"]
    new_sheet(pg, server, {"game": "schafkopf", "players": players, "first_dealer": "A",
                           "rules": {"tariffs": {"sauspiel": 10, "solo": 20, "bettel": 20,
                                                 "extra": 10}}})  # fmt: skip
    check_page(pg, dict.fromkeys(players, 0), None)
    names = {"sauspiel": "Sauspiel", "wenz": "Wenz", "solo": "Solo"}
    for n, deal in enumerate(SEED["deals"], start=1):
        body = deal["body"]
        form = pg.locator("#entry form.deal")
        seg(form, "f-game", names[body["game"]])
        for p in body["declarers"]:
            seg(form, "f-declarers", p)
        seg(form, "f-outcome", "gewonnen" if body["won"] else "verloren")
        for flag in ("schneider", "schwarz", "tout"):
            if body.get(flag):
                reach(form.locator(f"#f-{flag}")).click()
        for name in ("laufende", "gestellt"):
            if body.get(name):
                seg(form, f"f-{name}", str(body[name]))
        if body.get("kontra"):
            seg(form, "f-kontra", "Kontra")
        typical = not any(body.get(k) for k in ("laufende", "gestellt", "kontra", "tout"))
        save(pg, n, no_scroll=typical and size == (375, 667))
        check_page(pg, dict(zip(players, deal["totals"], strict=True)), None)
        assert pg.locator(".tabs a[data-pane=list] .count").inner_text() == str(n)


def test_two_phones_enter_the_same_deal(kept_page: KeptPage, server: str) -> None:
    """One deal stored; the second phone is told which deal is there and keeps its entry."""
    a, b = (kept_page({"width": 375, "height": 667}, slot=slot) for slot in (0, 1))
    url = new_sheet(a, server, {"game": "skat", "players": ["Anna", "Bernd", "Carla"],
                                "first_dealer": "Anna"})  # fmt: skip
    b.goto(url)
    for pg in (a, b):  # both show "Spiel 1" and get the same deal typed in
        game("Bernd", "Grand", "mit 2", "gewonnen")(pg.locator("#entry form.deal"))
    save(a, 1, no_scroll=True)
    with b.expect_navigation():  # Save looks at the server first, then posts
        b.locator("#entry").get_by_role("button", name="Speichern").click()
    message = b.inner_text("#entry .err")
    assert "Spiel 1 ist schon eingetragen" in message and "Grand" in message
    assert b.locator("input[name=declarer][value=Bernd]").is_checked()  # the entry is kept
    sheet = api(a, server, "GET", f"/api/v1/sheets/{url.rsplit('/', 1)[1]}")
    assert len(sheet["deals"]) == 1
