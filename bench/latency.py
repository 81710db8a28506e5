"""Sheet page latency against the floor of this stack, scaling to 1,000 deals, and page weight.

Run: python bench/latency.py   (prints figures; targets in brackets)
"""

from __future__ import annotations

import gzip
import http.client
import re
import statistics
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from common import DEALS, PLAYERS
from flask import Flask, Response, redirect
from waitress.server import create_server

from skatcalc import create_app
from skatcalc import db as store
from skatcalc.rules.sheet import SheetSpec, default_active


def fill(app: Flask, n: int) -> int:
    """A sheet with n deals, written straight into the database (setup, not measured)."""
    spec = SheetSpec("skat", tuple(PLAYERS), "Anna", {"kontra_re": False, "ramsch": False,
                                                      "bock": ["60-60"], "stake_cents": 1})  # fmt: skip
    with app.app_context():
        db = store.get_db()
        sheet = store.create_sheet(db, f"{n} Spiele", "skat", PLAYERS, "Anna", dict(spec.rules))
        deals = []
        for k in range(n):
            dealer = PLAYERS[k % 4]
            active = default_active(spec, dealer)
            body = dict(DEALS[k % len(DEALS)])
            if "passed" not in body:
                body["declarer"] = active[k % 3]
            deals.append({"n": k + 1, "dealer": dealer, "active": list(active), "input": body,
                          "struck": False})  # fmt: skip
        with db.atomic():
            db.execute("delete from sheets where id = ?", [sheet["id"]])
        return store.import_sheet(db, f"{n} Spiele", "skat", PLAYERS, "Anna", dict(spec.rules),
                                  deals, [])  # fmt: skip


def median_ms(fn: Callable[[], object], runs: int = 40,
              setup: Callable[[], object] | None = None) -> float:  # fmt: skip
    """Median wall time of fn(); setup() runs before each call, outside the timing."""
    fn()
    times = []
    for _ in range(runs):
        if setup is not None:
            setup()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def paired_ms(fn: Callable[[], object], floor: Callable[[], object], runs: int = 60,
              setup: Callable[[], object] | None = None) -> tuple[float, float]:  # fmt: skip
    """Medians of fn and of its floor, called alternately so that a machine that speeds up
    or slows down meanwhile (a shared CPU) weighs on both alike."""
    fn()
    floor()
    a, b = [], []
    for _ in range(runs):
        if setup is not None:
            setup()
        t = time.perf_counter()
        fn()
        a.append(time.perf_counter() - t)
        t = time.perf_counter()
        floor()
        b.append(time.perf_counter() - t)
    return statistics.median(a) * 1000, statistics.median(b) * 1000


class Http:
    """A keep-alive HTTP client to the real server (waitress) on loopback."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def get(self, path: str) -> bytes:
        self.conn.request("GET", path)
        r = self.conn.getresponse()
        return r.read()

    def get_as_phone(self, path: str, etag: str | None = None) -> tuple[int, str, bytes]:
        """As a browser asks: gzip accepted, and revalidating what it already has."""
        headers = {"Accept-Encoding": "gzip, deflate"}
        if etag:
            headers["If-None-Match"] = etag
        self.conn.request("GET", path, headers=headers)
        r = self.conn.getresponse()
        return r.status, r.getheader("ETag") or "", r.read()

    def post_form(self, path: str, form: dict[str, str]) -> int:
        body = urllib.parse.urlencode(form)
        self.conn.request("POST", path, body=body,
                          headers={"Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        r = self.conn.getresponse()
        r.read()
        return r.status


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.sqlite"), "SECRET_KEY": "bench",
                          "WTF_CSRF_ENABLED": False})  # fmt: skip
        constant: dict[str, bytes] = {}

        # The floor of this stack: bare routes in the same app and server, returning the same
        # bytes as a constant (and, for a save, a constant redirect).
        @app.get("/_floor")
        def floor() -> bytes:
            return constant["html"]

        @app.post("/_floor")
        def floor_post() -> Response:
            return redirect("/_floor", 303)

        s48, s1000 = fill(app, 48), fill(app, 1000)
        server = create_server(app, host="127.0.0.1", port=0, threads=4)
        threading.Thread(target=server.run, daemon=True).start()
        client = Http(server.effective_port)
        html48 = constant["html"] = client.get(f"/sheets/{s48}")

        t_page, t_floor = paired_ms(lambda: client.get(f"/sheets/{s48}"),
                                    lambda: client.get("/_floor"))  # fmt: skip

        form = {"kind": "game", "declarer": "Bernd", "game": "grand", "with": "true",
                "matadors": "2", "declarer_points": "75", "bid": "18"}  # fmt: skip
        form["declarer"] = PLAYERS[1]  # forehand of deal 49, which Anna deals

        def add_and_render() -> None:
            status = client.post_form(f"/sheets/{s48}/deals", form)
            assert status in (302, 303), status
            client.get(f"/sheets/{s48}")

        def back_to_48() -> None:
            """Outside the timing: take deal 49 out again, so every add is 48 → 49."""
            with app.app_context():
                db = store.get_db()
                with db.atomic():
                    db.execute("delete from deals where sheet_id = ? and n > 48", [s48])
                    db.execute("delete from history where sheet_id = ? and n > 48", [s48])
                    db.execute("update sheets set rev = rev + 1 where id = ?", [s48])

        def floor_add() -> None:
            client.post_form("/_floor", form)
            client.get("/_floor")

        back_to_48()
        t_add, t_floor2 = paired_ms(add_and_render, floor_add, runs=40, setup=back_to_48)
        t_1000, t_48 = paired_ms(lambda: client.get(f"/sheets/{s1000}"),
                                 lambda: client.get(f"/sheets/{s48}"), runs=20)  # fmt: skip

        # The first view after a change, when nothing derived is cached yet: the worst case.
        def bump(sid: int) -> Callable[[], None]:
            def run() -> None:
                with app.app_context():
                    db = store.get_db()
                    with db.atomic():
                        db.execute("update sheets set rev = rev + 1 where id = ?", [sid])

            return run

        t_cold48 = median_ms(lambda: client.get(f"/sheets/{s48}"), runs=20, setup=bump(s48))
        t_cold1000 = median_ms(lambda: client.get(f"/sheets/{s1000}"), runs=5, setup=bump(s1000))

        # A phone that already has the page asks again (the share view's reload, a back
        # button): 304 without a body, worked out from the sheet's revision alone.
        status, etag, packed = client.get_as_phone(f"/sheets/{s48}")
        assert status == 200 and etag, status
        assert client.get_as_phone(f"/sheets/{s48}", etag)[0] == 304
        t_304, t_floor3 = paired_ms(lambda: client.get_as_phone(f"/sheets/{s48}", etag),
                                    lambda: client.get("/_floor"))  # fmt: skip
        t_gz, t_floor4 = paired_ms(lambda: client.get_as_phone(f"/sheets/{s48}"),
                                   lambda: client.get("/_floor"))  # fmt: skip

        print("through waitress on loopback, one process; each figure is a median, taken")
        print("alternately with the figure it is compared to")
        print(f"floor: bare route, same {len(html48) // 1024} KiB:     {t_floor:7.2f} ms")
        print(
            f"sheet page, 48 deals:                 {t_page:7.2f} ms  ratio {t_page / t_floor:5.1f}  [≤ 10]"
        )
        print(f"floor: POST → 303 + GET constant:     {t_floor2:7.2f} ms")
        print(
            f"add a deal (form) + render, 48 → 49:    {t_add:6.2f} ms  ratio {t_add / t_floor2:5.1f}  [≤ 10]"
        )
        print(
            f"sheet page, 1000 deals:               {t_1000:7.2f} ms  ratio to 48: {t_1000 / t_page:5.1f}  [≤ 21]"
        )
        print(f"first view after a change, 48 deals:  {t_cold48:7.2f} ms")
        print(
            f"first view after a change, 1000 deals:{t_cold1000:7.2f} ms  ratio to 48: {t_cold1000 / t_cold48:5.1f}  [≤ 21]"
        )

        print(
            f"sheet page, 48 deals, unchanged (304):  {t_304:6.2f} ms  ratio {t_304 / t_floor3:5.1f}"
        )
        print(f"sheet page, 48 deals, gzip ({len(packed) // 1024} KiB sent): {t_gz:6.2f} ms  "
              f"ratio {t_gz / t_floor4:5.1f}")  # fmt: skip

        page = html48.decode()
        assets = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', page)
        raw = len(html48)
        packed = len(gzip.compress(html48))
        for a in assets:
            body = client.get(a)
            raw += len(body)
            packed += len(gzip.compress(body))
        print(f"page weight, 48 deals (HTML+CSS+JS): {raw / 1024:5.1f} KiB raw, "
              f"{packed / 1024:5.1f} KiB as sent (gzip)  [≤ 60 KB]")  # fmt: skip
        print(f"requests for the sheet page: {1 + len(assets)} (+ the icon), none to other hosts")
        server.close()


if __name__ == "__main__":
    main()
