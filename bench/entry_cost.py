"""Counts the interactions (taps, clicks, typed fields) for two typical deals on the sheet page
in headless Chromium, saves them, checks the sheet shows them, and prints the counts.

Run: python bench/entry_cost.py      (needs Debian's chromium at /usr/bin/chromium)
"""

from __future__ import annotations

import logging
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from werkzeug.serving import make_server

from skatcalc import create_app

TARGET = 5


class Counter:
    """Wraps the page so that every tap and every typed field is counted once."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0

    def tap(self, selector: str, text: str | None = None) -> None:
        loc = self.page.locator(selector)
        if text is not None:
            loc = loc.get_by_text(text, exact=True)
        loc.click()
        self.count += 1

    def type(self, selector: str, value: str) -> None:
        self.page.fill(selector, value)
        self.count += 1


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "entry.sqlite"), "SECRET_KEY": "entry"})
        srv = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{srv.server_port}"
        client = app.test_client()
        skat = client.post("/api/v1/sheets", json={"game": "skat",
                            "players": ["Anna", "Bernd", "Carla"]}).get_json()["id"]  # fmt: skip
        schafkopf = client.post("/api/v1/sheets", json={"game": "schafkopf",
                                "players": ["A", "B", "C", "D"]}).get_json()["id"]  # fmt: skip
        results = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu",
                                              "--disable-background-networking"])  # fmt: skip
            page = browser.new_page(viewport={"width": 375, "height": 812}, has_touch=True)

            # Skat: "Grand mit 2, gewonnen, 75 Augen" by Bernd
            page.goto(f"{base}/sheets/{skat}")
            c = Counter(page)
            c.tap("#f-declarer", "Bernd")
            c.tap("#f-game", "Grand")
            c.tap("#f-spitzen", "mit 2")
            c.type("input[name=declarer_points]", "75")
            c.tap("button[type=submit] >> text=Speichern")
            page.wait_for_url(f"**/sheets/{skat}*")
            row = page.inner_text("#deal-1")
            # zero-sum at a 3-table: the declarer receives 72 from each of the two others
            assert "Grand mit 2" in row and "+144" in row, row
            results["skat-grand"] = c.count

            # Schafkopf: "Sauspiel A+D gewonnen"
            page.goto(f"{base}/sheets/{schafkopf}")
            c = Counter(page)
            c.tap("#f-game", "Sauspiel")
            c.tap("#f-declarers", "A")
            c.tap("#f-declarers", "D")
            c.tap("#f-outcome", "gewonnen")
            c.tap("button[type=submit] >> text=Speichern")
            page.wait_for_url(f"**/sheets/{schafkopf}*")
            row = page.inner_text("#deal-1")
            assert "Sauspiel A+D" in row and "+10" in row, row
            results["schafkopf-sauspiel"] = c.count
            browser.close()
        srv.shutdown()
    for name, n in results.items():
        print(f"{name}: {n} interactions (target ≤ {TARGET})")


if __name__ == "__main__":
    main()
