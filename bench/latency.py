"""Sheet page latency against the floor of this stack, in ONE process with the Flask test client.

Every figure is a median, taken alternately with the figure it is compared to (a shared CPU
that speeds up or slows down meanwhile weighs on both alike):

* the 48-deal sheet page against a bare Flask route of the same app returning the same bytes;
* adding a deal and rendering the sheet against a bare POST → 303 + GET of a constant, both
  as a phone does it (the entry form with its CSRF token and idempotency key, taken from the
  page the phone shows, then the redirect) and through the JSON API (POST, then GET the page);
* the 1,000-deal sheet page against the 48-deal one, cached and as the first view after a
  change (a rename, which leaves the deals alone, and an appended deal: 999 → 1,000).

Bounded (well under a minute); prints the figures with the targets of issue 11 in brackets.

Run: PYTHONPATH=. python bench/latency.py
"""

from __future__ import annotations

import gzip
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import PLAYERS, RULES, sheet_file
from flask import Flask, Response, redirect
from flask.testing import FlaskClient

from skatcalc import create_app, csrf
from skatcalc.rules.sheet import SheetSpec, default_active

GRAND = {"kind": "game", "game": "grand", "spitzen": "w2", "declarer_points": "75", "bid": "18"}


# The same pairs measured in this process's CPU time (what the code costs, whatever else the
# shared machine runs meanwhile: wall-clock medians stretch with the load average, CPU
# time much less). Filled by paired() in call order.
CPU: list[tuple[float, float]] = []


def paired(fn: Callable[[], object], floor: Callable[[], object], runs: int,
           setup: Callable[[], object] | None = None) -> tuple[float, float]:  # fmt: skip
    """Medians (ms) of fn and of its floor, called alternately; setup() runs untimed.
    The CPU-time medians of both are appended to ``CPU``."""
    if setup is not None:
        setup()
    fn()
    floor()
    a, b, ca, cb = [], [], [], []
    for _ in range(runs):
        if setup is not None:
            setup()
        c, t = time.process_time(), time.perf_counter()
        fn()
        a.append(time.perf_counter() - t)
        ca.append(time.process_time() - c)
        c, t = time.process_time(), time.perf_counter()
        floor()
        b.append(time.perf_counter() - t)
        cb.append(time.process_time() - c)
    CPU.append((statistics.median(ca) * 1000, statistics.median(cb) * 1000))
    return statistics.median(a) * 1000, statistics.median(b) * 1000


def hidden(page: bytes, name: str) -> str:
    m = re.search(rb'name="' + name.encode() + rb'"[^>]*value="([^"]*)"', page)
    if m is None:
        m = re.search(rb'value="([^"]*)"[^>]*name="' + name.encode() + rb'"', page)
    return m.group(1).decode() if m else ""


def entry_form(page: bytes) -> dict[str, Any]:
    """What the phone sends when the next deal is a Grand mit 2 by forehand: the entry form's
    hidden fields (CSRF token, idempotency key, deal number, proposed dealer) as the page has
    them, the proposed dealer and players left as they are."""
    m = re.search(rb'<form[^>]*action="/sheets/[0-9]+/deals".*?</form>', page, re.S)
    assert m is not None, "no entry form on the page"
    page = m.group(0)
    dealer = hidden(page, "dealer_shown")
    spec = SheetSpec("skat", tuple(PLAYERS), "Anna", RULES)
    active = default_active(spec, dealer)
    return {**GRAND, "csrf_token": hidden(page, "csrf_token"), "idem": hidden(page, "idem"),
            "n": hidden(page, "n"), "dealer_shown": dealer, "dealer": dealer,
            "active": list(active), "declarer": active[0], "version": ""}  # fmt: skip


def main() -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.sqlite")
        # CSRF on, as served: the form post carries the token of the page it came from.
        app: Flask = create_app({"DATABASE": path, "SECRET_KEY": "bench"})
        constant: dict[str, bytes] = {}

        # The floor of this stack: bare routes in the same app returning the same bytes as a
        # constant (and, for a save, a constant redirect) through the same hooks.
        @app.get("/_floor")
        def floor() -> Response:
            return Response(constant["html"], mimetype="text/html")

        @app.post("/_floor")
        def floor_post() -> Any:
            return redirect("/_floor", 303)

        csrf.exempt(floor_post)
        c: FlaskClient = app.test_client()

        def make(n: int) -> int:
            r = c.post("/api/v1/sheets/import", json=sheet_file(n))
            assert r.status_code == 201, r.data[:300]
            return int(r.get_json()["id"])

        s48, s999, s1000 = make(48), make(999), make(1000)

        def get(sid: int, query: str = "") -> bytes:
            r = c.get(f"/sheets/{sid}{query}")
            assert r.status_code == 200, r.status_code
            return r.data

        html48 = constant["html"] = get(s48)

        def floor_get() -> None:
            assert c.get("/_floor").status_code == 200

        # (a) the sheet page as another phone opens it
        t_page, t_floor = paired(lambda: get(s48), floor_get, runs=300)

        # (b) add a deal + render, 48 → 49. Untimed setup: deal 49 out again, and the page
        # the phone then shows (its form carries the tokens of the next post).
        def back_to(sid: int, n: int) -> None:
            with sqlite3.connect(path) as conn:
                conn.execute("delete from deals where sheet_id = ? and n > ?", [sid, n])
                conn.execute("delete from history where sheet_id = ? and n > ?", [sid, n])
                conn.execute("update sheets set rev = rev + 1 where id = ?", [sid])
            conn.close()

        shown: dict[str, dict[str, Any]] = {}

        def reset48() -> None:
            back_to(s48, 48)
            shown["form"] = entry_form(get(s48))  # what the phone fills in: not timed

        def add_form() -> None:
            r = c.post(f"/sheets/{s48}/deals", data=shown["form"])
            assert r.status_code == 303 or r.status_code == 302, r.data[:2000]
            page = get(s48, "?saved=49")  # the redirect: "Spiel 49 gespeichert", with undo
            assert b'id="deal-49"' in page

        api_deal = {"game": "grand", "with": True, "matadors": 2, "declarer_points": 75,
                    "declarer": PLAYERS[1]}  # fmt: skip

        def add_api() -> None:
            r = c.post(f"/api/v1/sheets/{s48}/deals", json=api_deal)
            assert r.status_code == 201, r.data[:300]
            assert b'id="deal-49"' in get(s48)

        def floor_add() -> None:
            assert c.post("/_floor", data=GRAND).status_code == 303
            floor_get()

        t_add, t_floor2 = paired(add_form, floor_add, runs=60, setup=reset48)
        t_api, t_floor3 = paired(add_api, floor_add, runs=60, setup=reset48)
        back_to(s48, 48)
        get(s48)

        # (c) 1,000 deals against 48: cached, and the first view after a change
        t_1000, t_48 = paired(lambda: get(s1000), lambda: get(s48), runs=60)

        def rename_both() -> None:
            for sid in (s48, s1000):
                r = c.post(f"/sheets/{sid}/rename", data={
                    "name": f"Abend {time.perf_counter_ns()}",
                    "csrf_token": hidden(get(sid), "csrf_token")})  # fmt: skip
                assert r.status_code in (302, 303)
                c.get(f"/sheets/{sid}")  # the redirect's page shows "Umbenannt." (once)

        t_ren1000, t_ren48 = paired(lambda: get(s1000), lambda: get(s48), runs=20,
                                    setup=rename_both)  # fmt: skip

        # An appended deal: 999 → 1,000 and 48 → 49, stored untimed through the API; the
        # timed view is the first one after it (computed and rendered from the last one).
        def append_both() -> None:
            for sid, n in ((s999, 999), (s48, 48)):
                back_to(sid, n)
                get(sid)
                assert c.post(f"/api/v1/sheets/{sid}/deals", json=api_deal).status_code == 201

        t_app1000, t_app48 = paired(lambda: get(s999), lambda: get(s48), runs=20,
                                    setup=append_both)  # fmt: skip

        # A phone that has the page asks again: 304 without a body.
        r = c.get(f"/sheets/{s48}")
        etag = r.headers["ETag"]
        t_304, t_floor4 = paired(
            lambda: c.get(f"/sheets/{s48}", headers={"If-None-Match": etag}), floor_get, runs=300
        )

        # Page weight: the HTML and the CSS and JS it loads, raw and as sent (gzip).
        assets = re.findall(rb'(?:href|src)="(/static/[^"]+\.(?:css|js))"', html48)
        raw, packed = len(html48), len(gzip.compress(html48))
        for a in assets:
            body = c.get(a.decode()).data
            raw, packed = raw + len(body), packed + len(gzip.compress(body))

        elapsed = time.perf_counter() - started
        print("Flask test client, one process; medians, each taken alternately with the figure")
        print("it is compared to; targets of issue 11 in brackets")
        print(f"floor: bare route, same {len(html48) // 1024} KiB        {t_floor:7.3f} ms")
        print(f"(a) sheet page, 48 deals                 {t_page:7.3f} ms  "
              f"ratio {t_page / t_floor:5.1f}   [≤ 5]")  # fmt: skip
        print(f"floor: bare POST → 303 + GET constant    {t_floor2:7.3f} ms")
        print(f"(b) add a deal (entry form + CSRF) + render, 48 → 49: {t_add:6.2f} ms  "
              f"ratio {t_add / t_floor2:5.1f}   [≤ 10]")  # fmt: skip
        print(f"    add a deal (API, JSON) + render, 48 → 49:         {t_api:6.2f} ms  "
              f"ratio {t_api / t_floor3:5.1f}   [≤ 10]")  # fmt: skip
        print(f"(c) sheet page 1,000 vs 48 deals, cached:             {t_1000:6.2f} ms vs "
              f"{t_48:5.2f} ms  ratio {t_1000 / t_48:5.1f}   [≤ 21]")  # fmt: skip
        print(f"    first view after a rename:                        {t_ren1000:6.2f} ms vs "
              f"{t_ren48:5.2f} ms  ratio {t_ren1000 / t_ren48:5.1f}   [≤ 21]")  # fmt: skip
        print(f"    first view after an appended deal (→1,000, →49):  {t_app1000:6.2f} ms vs "
              f"{t_app48:5.2f} ms  ratio {t_app1000 / t_app48:5.1f}   [≤ 21]")  # fmt: skip
        print(f"unchanged page revalidated (304)         {t_304:7.3f} ms  "
              f"ratio {t_304 / t_floor4:5.1f}")  # fmt: skip
        print(f"page weight, 48 deals (HTML+CSS+JS): {raw / 1024:5.1f} KiB raw, "
              f"{packed / 1024:5.1f} KiB as sent (gzip)  [≤ 60 KB]; "
              f"{1 + len(assets)} requests (+ the icon), none to other hosts")  # fmt: skip
        (c_page, c_floor), (c_add, c_floor2), (c_api, c_floor3) = CPU[:3]
        print(f"the same in CPU time (less moved by a loaded machine): (a) {c_page:.3f} / "
              f"{c_floor:.3f} ms ratio {c_page / c_floor:.1f}; (b) form {c_add:.2f} / "
              f"{c_floor2:.3f} ms ratio {c_add / c_floor2:.1f}, API {c_api:.2f} / "
              f"{c_floor3:.3f} ms ratio {c_api / c_floor3:.1f}")  # fmt: skip
        print(f"run time {elapsed:.0f} s, load average (1 min) {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} cores")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
