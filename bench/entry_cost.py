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


@dataclass
class Cost:
    name: str
    target: int
    touches: int = 0
    keys: int = 0
    scrolled: int = 0
    steps: list[str] = field(default_factory=list)

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
        loc.first.tap()
        self.cost.touches += 1
        self.cost.steps.append(text or loc.first.inner_text().strip() or scope)

    def type(self, selector: str, text: str) -> None:
        self.tap(selector)  # the finger goes to the field first
        self.page.keyboard.type(text)
        self.cost.keys += len(text)
        self.cost.steps.append(f"«{text}»")

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
        else:
            hand.tap(*move)
    before = page.url
    hand.save()
    page.wait_for_function("u => location.href !== u", arg=before)
    page.wait_for_load_state("load")
    return cost


def schafkopf_moves(body: dict[str, Any]) -> list[tuple[str, ...]]:
    """The taps for one of the seed's deals, in the order a table calls them out."""
    names = {"sauspiel": "Sauspiel", "wenz": "Wenz", "solo": "Solo"}
    moves: list[tuple[str, ...]] = [("#f-game", names[body["game"]])]
    moves += [("#f-declarers", p) for p in body["declarers"]]
    moves.append(("#f-outcome", "gewonnen" if body["won"] else "verloren"))
    for flag in ("schneider", "schwarz", "tout", "sie"):
        if body.get(flag):
            moves.append((f"#f-{flag}",))
    if body.get("gestellt"):
        moves.append(("#f-gestellt", str(body["gestellt"])))
    if body.get("kontra"):
        moves.append(("#f-kontra", ["", "Kontra", "Re", "Sub", "Hirsch"][body["kontra"]]))
    if body.get("laufende"):
        moves.append(("#f-laufende", str(body["laufende"])))
    return moves


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

            # Skat at four: Anna deals and sits out.
            c = play(page, f"{base}/sheets/{skat}", Cost("Skat: Grand mit 2 gewonnen", 5),
                     [("#f-declarer", "Bernd"), ("#f-game", "Grand"), ("#f-spitzen", "mit 2"),
                      ("#f-won", "gewonnen")])  # fmt: skip
            d = last_deal(skat)
            assert d["declarer"] == "Bernd" and d["result"]["value"] == 72, d
            results.append(c)

            # Bernd deals: Carla, Herz Hand mit 1, Kontra, gewonnen → 10 × 3 = 30, × 2
            c = play(page, "", Cost("Skat: Herz Hand mit 1, Kontra, gewonnen", 7),
                     [("#f-declarer", "Carla"), ("#f-game", "♥ Herz"), ("#f-spitzen", "mit 1"),
                      ("#f-hand",), ("#f-kontra",), ("#f-won", "gewonnen")])  # fmt: skip
            d = last_deal(skat)
            assert d["declarer"] == "Carla" and d["result"]["score"] == 60, d
            results.append(c)

            # For comparison: the same Grand with the card points typed (tap + 2 keys).
            c = play(page, "", Cost("Skat: Grand mit 2, 75 Augen getippt", 0),
                     [("#f-declarer", "Dieter"), ("#f-game", "Grand"), ("#f-spitzen", "mit 2"),
                      ("type", "input[name=declarer_points]", "75")])  # fmt: skip
            d = last_deal(skat)
            assert d["declarer"] == "Dieter" and d["result"]["value"] == 72, d
            results.append(c)

            c = play(page, f"{base}/sheets/{sk}", Cost("Schafkopf: Sauspiel A+D gewonnen", 5),
                     [("#f-game", "Sauspiel"), ("#f-declarers", "A"), ("#f-declarers", "D"),
                      ("#f-outcome", "gewonnen")])  # fmt: skip
            assert last_deal(sk)["deltas"]["A"] == 10
            results.append(c)

            page.goto(f"{base}/sheets/{sk2}")
            for i, deal in enumerate(SEED["deals"], start=1):
                c = play(page, "", Cost(f"Schafkopf, Abend aus dem Seed, Spiel {i}", 8),
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
    print(f"{'deal':<{width}}  touches  keys  total  scrolled  target")
    over = 0
    for c in results:
        target = f"≤ {c.target}" if c.target else "—"
        flag = ""
        if c.target and c.total > c.target:
            flag, over = "  OVER", over + 1
        print(f"{c.name:<{width}}  {c.touches:7d}  {c.keys:4d}  {c.total:5d}  {c.scrolled:5d} px"
              f"  {target}{flag}")  # fmt: skip
        print(f"{'':<{width}}    " + " · ".join(c.steps))
    grand = results[0]
    print(f"Grand mit 2 gewonnen: {grand.total} touches (target ≤ 5), {grand.scrolled} px scrolled "
          "(target 0; the page layout decides this figure)")  # fmt: skip
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
