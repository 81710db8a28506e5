"""From tapping Save to the next entry being ready, on a real phone page.

Headless Chromium (Debian's package) at 375×667 against ``skatcalc serve`` (waitress, a
subprocess on a free loopback port, a fresh database): a 48-deal and a 500-deal Skat sheet at
four. Each of 30 saves is a real one (declarer, Grand, mit 2, gewonnen, Speichern): the clock
starts at the tap on Speichern and stops when the page after the save has loaded and its
entry form is there for the next deal. Beside it, the time the server spent, from the
browser's navigation timing: the POST until its redirect answer plus the GET until the first
byte of the page (loopback, so the network is next to nothing).

Run: python bench/save_to_next.py      (loopback only; a minute or two)
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import DEALS, PLAYERS  # noqa: E402

SAVES = 30
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip
# The server's share of one save: the POST until its redirect, the GET until its first byte.
SERVER_MS = """() => { const n = performance.getEntriesByType('navigation')[0];
  return (n.redirectEnd - n.redirectStart) + (n.responseStart - n.requestStart); }"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def api(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(f"{base}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(req) as r:  # noqa: S310 (loopback)
        return json.loads(r.read())  # type: ignore[no-any-return]


def sheet_of(base: str, deals: int) -> int:
    """A sheet at four (first dealer Anna) with ``deals`` deals of the evening's mix."""
    sid = int(api(base, "/api/v1/sheets", {"game": "skat", "players": PLAYERS,
                                            "first_dealer": "Anna"})["id"])  # fmt: skip
    for i in range(deals):
        body = dict(DEALS[i % len(DEALS)])
        if not body.get("passed"):
            body["declarer"] = PLAYERS[(i + 1) % 4]  # forehand: the dealer sits out
        api(base, f"/api/v1/sheets/{sid}/deals", body)
    return sid


def pct(xs: list[float], q: float) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[int(q) - 1]


def measure(page: Any, base: str, sid: int) -> tuple[list[float], list[float]]:
    page.goto(f"{base}/sheets/{sid}")
    page.locator("#entry form.deal").wait_for()
    total: list[float] = []
    server: list[float] = []
    for _ in range(SAVES):
        form = page.locator("#entry form.deal")
        form.locator("#f-declarer label:visible").first.tap()
        for fid, text in (("f-game", "Grand"), ("f-spitzen", "mit 2"), ("f-won", "gewonnen")):
            form.locator(f"#{fid}").get_by_text(text, exact=True).tap()
        button = page.get_by_role("button", name="Speichern", exact=True)
        start = time.perf_counter()
        with page.expect_event("load"):
            button.tap()
        page.locator("#entry form.deal").wait_for()
        total.append((time.perf_counter() - start) * 1000)
        server.append(float(page.evaluate(SERVER_MS)))
    return total, server


def main() -> int:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen(
            [sys.executable, "-m", "skatcalc.cli", "serve", "--host", "127.0.0.1", "--port",
             str(port), "--db", str(Path(tmp) / "bench.sqlite")],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{base}/", timeout=1).read()  # noqa: S310
                    break
                except OSError:
                    time.sleep(0.1)
            sheets = {n: sheet_of(base, n) for n in (48, 500)}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                ctx = browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True,
                                          is_mobile=True)  # fmt: skip
                page = ctx.new_page()
                print(f"Save → next entry ready, {SAVES} saves each, headless Chromium 375×667 "
                      f"against skatcalc serve (load average {os.getloadavg()[0]:.1f})")  # fmt: skip
                print("sheet        p50 ms  p95 ms   server p50  server p95")
                worst = 0.0
                for n, sid in sheets.items():
                    total, server = measure(page, base, sid)
                    print(f"{n:3d} deals    {pct(total, 50):6.0f}  {pct(total, 95):6.0f}"
                          f"   {pct(server, 50):10.0f}  {pct(server, 95):10.0f}")  # fmt: skip
                    if n == 48:
                        worst = pct(total, 95)
                browser.close()
            print(f"48-deal sheet p95 {worst:.0f} ms (target ≤ 150 ms on an idle machine)")
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
