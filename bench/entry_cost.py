"""What a typical deal costs at the table: touches, keystrokes and pixels scrolled.

Plays deals on the sheet page in headless Chromium (Debian's package) on a 375×667 phone with
a touch screen, as a person would: every tap is a real touch on the control (``tap``), every
character typed is one keystroke ("75" is two), and the pixels scrolled are what the page
really scrolled (``window.scrollY``, summed over every scroll event) between the sheet page
as it opens and the tap on "Speichern" — including any scrolling Chromium had to do to bring
a control into reach. Each deal is checked afterwards through the JSON API, so a count is only
printed for a deal that was stored with the right value.

Run: python bench/entry_cost.py      (loopback only; about half a minute)
"""

from __future__ import annotations

import json
import logging
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skatcalc import create_app  # noqa: E402

SEED = json.loads((ROOT / "tests" / "data" / "seed_schafkopf.json").read_text())
VIEWPORT = {"width": 375, "height": 667}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip

# Sums every scroll of the window, whichever way, from the moment the page is ready.
SCROLL_WATCH = """() => {
  window.__scrolled = 0;
  window.__last = window.scrollY;
  window.addEventListener("scroll", () => {
    window.__scrolled += Math.abs(window.scrollY - window.__last);
    window.__last = window.scrollY;
  }, { passive: true });
}"""
# Scroll events come with the next frame: what moved since the last one counts too.
SCROLLED = "window.__scrolled + Math.abs(window.scrollY - window.__last)"
# Where a control is when the finger goes for it: "" if fully on screen above the Save bar.
REACH = """(el) => {
  const r = el.getBoundingClientRect();
  const bar = document.querySelector('form.deal .actions.save');
  const top = bar && !bar.contains(el) ? bar.getBoundingClientRect().top : innerHeight;
  return r.top >= 0 && r.bottom <= top + 0.5 ? '' : `${(el.innerText || el.name || '').trim()} at ${Math.round(r.top)}–${Math.round(r.bottom)} (bar ${Math.round(top)})`;
}"""
MORE = ("button.more-toggle",)  # the less common controls: one tap away
# Every Skat deal kind of the issue, as a table calls it out, on one sheet at four with
# Kontra/Re and Ramsch: (name, target taps, moves). The declarer is the first of those who
# play; a move is (scope, text), ("type", field, digits) or ("choose", select, value).
DECLARER = ("#f-declarer label",)
SKAT_KINDS: list[tuple[str, int, list[tuple[str, ...]]]] = [
    (
        "Skat: Grand mit 2 gewonnen",
        5,
        [DECLARER, ("#f-game", "Grand"), ("#f-spitzen", "mit 2"), ("#f-won", "gewonnen")],
    ),
    (
        "Skat: Herz Hand mit 1, Kontra, gewonnen",
        8,
        [
            DECLARER,
            ("#f-game", "♥ Herz"),
            ("#f-spitzen", "mit 1"),
            ("#f-won", "gewonnen"),
            MORE,
            ("#f-hand",),
            ("#f-kontra",),
        ],
    ),
    (
        "Skat: Grand Hand mit 2, Schneider angesagt, Kontra, Re",
        10,
        [
            DECLARER,
            ("#f-game", "Grand"),
            ("#f-spitzen", "mit 2"),
            ("#f-won", "gewonnen"),
            MORE,
            ("#f-hand",),
            ("#f-schneider_announced",),
            ("#f-kontra",),
            ("#f-re",),
        ],
    ),
    (
        "Skat: Kreuz ohne 3 Ouvert gewonnen",
        8,
        [
            DECLARER,
            ("#f-game", "♣ Kreuz"),
            ("#f-spitzen", "ohne 3"),
            ("#f-won", "gewonnen"),
            ("#f-schwarz",),
            MORE,
            ("#f-ouvert",),
        ],
    ),
    (
        "Skat: Null ouvert verloren",
        8,
        [DECLARER, ("#f-game", "Null"), ("#f-won", "verloren"), MORE, ("#f-ouvert",)],
    ),
    (
        "Skat: Pik mit 1 schwarz gewonnen",
        8,
        [
            DECLARER,
            ("#f-game", "♠ Pik"),
            ("#f-spitzen", "mit 1"),
            ("#f-won", "gewonnen"),
            ("#f-schneider",),
            ("#f-schwarz",),
        ],
    ),
    (
        "Skat: Karo mit 1, bei 36 überreizt",
        8,
        [
            DECLARER,
            ("#f-game", "♦ Karo"),
            ("#f-spitzen", "mit 1"),
            ("#f-won", "gewonnen"),
            MORE,
            ("choose", "select[name=bid]", "36"),
        ],
    ),
    (
        "Skat: Grand mit 2, 75 Augen getippt",
        8,
        [
            DECLARER,
            ("#f-game", "Grand"),
            ("#f-spitzen", "mit 2"),
            MORE,
            ("type", "input[name=declarer_points]", "75"),
        ],
    ),
]


@dataclass
class Cost:
    name: str
    target: int
    touches: int = 0
    keys: int = 0
    scrolled: int = 0
    steps: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.touches + self.keys


class Hand:
    """One person's fingers on the page: every tap and keystroke goes through here."""

    def __init__(self, page: Page, cost: Cost) -> None:
        self.page = page
        self.cost = cost

    def tap(self, scope: str, text: str | None = None) -> None:
        loc = self.page.locator("form.deal").first.locator(scope)
        if text is not None:
            loc = loc.get_by_text(text, exact=True)
        if not loc.locator("visible=true").count() and scope not in MORE:
            # on the entry's other screen: the person taps "Mehr" (or "Zurück") first
            self.tap(MORE[0])
        loc = loc.locator("visible=true").first
        # a choice already made (Schafkopf's Sauspiel on a fresh form) is not tapped again
        if loc.evaluate(
            "(el) => !!el.closest('label')?.querySelector('input[type=radio]:checked')"
        ):
            return
        self.check_reach(loc)
        self.cost.steps.append(text or loc.inner_text().strip() or scope)
        loc.tap()
        self.cost.touches += 1

    def check_reach(self, loc: Any) -> None:
        """A control the finger needs is on screen and not under the Save bar: else the
        person would scroll (counted as the pixels it takes), and the bench says so."""
        where = loc.evaluate(REACH)
        if where:
            self.cost.hidden.append(where)

    def type(self, selector: str, text: str) -> None:
        self.tap(selector)  # the finger goes to the field first
        self.page.keyboard.type(text)
        self.cost.keys += len(text)
        self.cost.steps.append(f"«{text}»")

    def choose(self, selector: str, value: str) -> None:
        """A select: one touch opens it, one picks the value."""
        loc = self.page.locator("form.deal").first.locator(selector)
        self.check_reach(loc)
        loc.select_option(value)
        self.cost.touches += 2
        self.cost.steps.append(f"{selector}={value}")

    def save(self) -> None:
        button = self.page.get_by_role("button", name="Speichern", exact=True)
        # what tap() would scroll to bring the button into reach, counted before the page goes
        button.scroll_into_view_if_needed()
        self.cost.scrolled = int(self.page.evaluate(SCROLLED))
        button.tap()
        self.cost.touches += 1
        self.cost.steps.append("Speichern")


def open_sheet(page: Page, url: str) -> None:
    """The sheet page as it opens (also after a save's redirect): loaded and at rest."""
    if url:
        page.goto(url)
    page.wait_for_load_state("load")
    page.locator("form.deal").first.wait_for()
    page.evaluate(SCROLL_WATCH)


def play(page: Page, url: str, cost: Cost, moves: list[tuple[str, ...]]) -> Cost:
    open_sheet(page, url)
    hand = Hand(page, cost)
    for move in moves:
        if move[0] == "type":
            hand.type(move[1], move[2])
        elif move[0] == "choose":
            hand.choose(move[1], move[2])
        else:
            hand.tap(*move)
    before = page.url
    hand.save()
    page.wait_for_function("u => location.href !== u", arg=before)
    page.wait_for_load_state("load")
    return cost


def correct(page: Page, url: str) -> Cost:
    """The list tab, the deal's row, then on its page the change and the correction's Save:
    touches and pixels scrolled from the sheet page to that Save."""
    cost = Cost("Korrektur: Spiel 1 war verloren", 4)
    open_sheet(page, url)
    for loc in (page.locator(".tabs a[data-pane=list]"), page.locator("#deal-1 td.game a")):
        cost.steps.append(" ".join(loc.inner_text().split())[:24])
        loc.tap()
        cost.touches += 1
    page.wait_for_url("**/deals/1/edit")
    open_sheet(page, "")
    hand = Hand(page, cost)
    hand.tap("#f-won", "verloren")
    button = page.locator("#entry .save button.primary")
    hand.check_reach(button)
    button.scroll_into_view_if_needed()
    cost.scrolled = int(page.evaluate(SCROLLED))
    with page.expect_event("load"):
        button.tap()
    cost.touches += 1
    cost.steps.append("Korrektur speichern")
    return cost


def schafkopf_moves(body: dict[str, Any]) -> list[tuple[str, ...]]:
    """The taps for one of the seed's deals, in the order a table calls them out."""
    names = {"sauspiel": "Sauspiel", "wenz": "Wenz", "solo": "Solo"}
    moves: list[tuple[str, ...]] = [("#f-game", names[body["game"]])]
    moves += [("#f-declarers", p) for p in body["declarers"]]
    moves.append(("#f-outcome", "gewonnen" if body["won"] else "verloren"))
    for flag in ("schneider", "schwarz", "tout", "sie"):
        # Schwarz counts as Schneider too: nobody taps both
        if body.get(flag) and not (flag == "schneider" and body.get("schwarz")):
            moves.append((f"#f-{flag}",))
    if body.get("gestellt"):
        moves.append(("#f-gestellt", str(body["gestellt"])))
    # Laufende and Kontra: where the entry shows them ("Mehr" tapped first if need be)
    if body.get("kontra"):
        moves.append(("#f-kontra", ["", "Kontra", "Re", "Sub", "Hirsch"][body["kontra"]]))
    if body.get("laufende"):
        moves.append(("#f-laufende", str(body["laufende"])))
    return moves


def skat_checks(last: dict[str, Any], deals: list[dict[str, Any]]) -> None:
    """Each Skat kind went in as called out (what the taps meant, through the API)."""
    by = {d["n"]: d["input"] | {"result": d["result"]} for d in deals}
    assert by[1]["result"]["value"] == 72, by[1]
    assert by[2].get("hand") and by[2].get("kontra") and by[2]["result"]["score"] == 60, by[2]
    assert by[3].get("hand") and by[3].get("schneider_announced") and by[3].get("re"), by[3]
    assert by[4].get("ouvert"), by[4]
    assert by[5]["game"] == "null" and by[5].get("ouvert") and not by[5]["result"]["won"], by[5]
    assert by[6]["result"]["schwarz"], by[6]
    assert by[7].get("bid") == 36 and by[7]["result"]["overbid"], by[7]
    assert by[8].get("declarer_points") == 75 and last["n"] == 8, by[8]


def main() -> int:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    started = time.monotonic()
    results: list[Cost] = []
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "entry.sqlite"), "SECRET_KEY": "entry"})
        srv = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{srv.server_port}"
        api = app.test_client()
        skat = api.post("/api/v1/sheets", json={
            "game": "skat", "players": ["Anna", "Bernd", "Carla", "Dieter"],
            "first_dealer": "Anna", "rules": {"kontra_re": True}}).get_json()["id"]  # fmt: skip
        sk = api.post("/api/v1/sheets", json={"game": "schafkopf", "players": ["A", "B", "C", "D"],
                                              "first_dealer": "A"}).get_json()["id"]  # fmt: skip
        sk2 = api.post("/api/v1/sheets", json={"game": "schafkopf", "players": ["A", "B", "C", "D"],
                                               "first_dealer": "A"}).get_json()["id"]  # fmt: skip

        def last_deal(sheet_id: int) -> dict[str, Any]:
            return api.get(f"/api/v1/sheets/{sheet_id}").get_json()["deals"][-1]  # type: ignore[no-any-return]

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            ctx = browser.new_context(viewport=VIEWPORT, has_touch=True, is_mobile=True)
            page = ctx.new_page()

            # Skat at four: the dealer sits out; each kind stored, checked through the API.
            url = f"{base}/sheets/{skat}"
            for n, (name, target, moves) in enumerate(SKAT_KINDS, start=1):
                c = play(page, url, Cost(name, target), moves)
                url = ""
                deals = api.get(f"/api/v1/sheets/{skat}").get_json()["deals"]
                assert len(deals) == n, (name, deals[-1])
                results.append(c)
            skat_checks(last_deal(skat), api.get(f"/api/v1/sheets/{skat}").get_json()["deals"])

            # A correction: deal 1 (the Grand) was lost. From the sheet
            # page: the list, the deal's row, "verloren", the correction's Save.
            results.append(correct(page, f"{base}/sheets/{skat}"))
            fixed = api.get(f"/api/v1/sheets/{skat}").get_json()["deals"][0]
            assert fixed["version"] == 2 and not fixed["result"]["won"], fixed

            c = play(page, f"{base}/sheets/{sk}", Cost("Schafkopf: Sauspiel A+D gewonnen", 5),
                     [("#f-game", "Sauspiel"), ("#f-declarers", "A"), ("#f-declarers", "D"),
                      ("#f-outcome", "gewonnen")])  # fmt: skip
            assert last_deal(sk)["deltas"]["A"] == 10
            results.append(c)

            page.goto(f"{base}/sheets/{sk2}")
            for i, deal in enumerate(SEED["deals"], start=1):
                c = play(page, "", Cost(f"Schafkopf, Abend aus dem Seed, Spiel {i}", 7),
                         schafkopf_moves(deal["body"]))  # fmt: skip
                row = last_deal(sk2)
                assert row["result"]["value"] == deal["value"], (i, row)
                assert [row["totals"][q] for q in "ABCD"] == deal["totals"], (i, row)
                results.append(c)
            browser.close()
        srv.shutdown()

    width = max(len(c.name) for c in results)
    print(f"Entry cost per deal, sheet page at {VIEWPORT['width']}×{VIEWPORT['height']}, "
          f"headless Chromium with touch ({time.monotonic() - started:.0f} s)")  # fmt: skip
    print(f"{'deal':<{width}}  taps  digits  scrolled  target (taps)")
    over = 0
    for c in results:
        target = f"≤ {c.target}" if c.target else "—"
        flag = ""
        if (c.target and c.touches > c.target) or c.scrolled or c.hidden:
            flag, over = "  OVER", over + 1
        print(f"{c.name:<{width}}  {c.touches:4d}  {c.keys:6d}  {c.scrolled:5d} px  {target}{flag}")
        print(f"{'':<{width}}    " + " · ".join(c.steps))
        for h in c.hidden:
            print(f"{'':<{width}}    out of reach: {h}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
