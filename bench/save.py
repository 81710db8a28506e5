"""The save against a bare Flask floor, side by side in ONE process (Flask test clients).

The save is what a table waits for after every deal: adding a deal through the JSON API
(``POST /api/v1/sheets/<id>/deals`` with the sheet's edit right as ``Authorization: Bearer``,
on a server run with ``LAN``, the body an app sends) and then the sheet page (``GET
/sheets/<id>``), 48 → 49 deals. Before each iteration, untimed, deal 49 goes out again and the
sheet of 48 deals is shown as the previous save left it (its JSON answer and the page), as
bench/latency.py does.

The floor is a bare Flask app in the same process, with no hooks, no CSRF and no redirect: its
POST answers the save's JSON and its GET the page's HTML, both as bytes taken beforehand from
the real answers (so each floor answer has the real one's size).

The two are called alternately, so a shared CPU that speeds up or slows down meanwhile weighs
on both alike; printed are the medians in wall-clock and CPU time, their ratios, and the load
average. Target: ≤ 6× the floor.

Run: PYTHONPATH=. python bench/save.py [runs]      (default 300 pairs, well under a minute)
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import PLAYERS, sheet_file
from flask import Flask, Response
from flask.testing import FlaskClient

from skatcalc import create_app

API_DEAL = {"game": "grand", "with": True, "matadors": 2, "declarer_points": 75,
            "declarer": PLAYERS[1]}  # fmt: skip


def bare_floor(post_bytes: bytes, page_bytes: bytes) -> FlaskClient:
    """A bare Flask app: POST answers the save's JSON, GET the page's HTML, as constants."""
    bare = Flask("floor")

    @bare.post("/save")
    def save() -> Response:
        return Response(post_bytes, status=201, mimetype="application/json")

    @bare.get("/page")
    def page() -> Response:
        return Response(page_bytes, mimetype="text/html")

    return bare.test_client()


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.sqlite")
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "LAN": True})
        c: FlaskClient = app.test_client()
        r = c.post("/api/v1/sheets/import", json=sheet_file(48))
        assert r.status_code == 201, r.data[:300]
        sid, token = int(r.get_json()["id"]), r.get_json()["edit_token"]
        right = {"Authorization": f"Bearer {token}"}

        def back_to_48() -> None:
            with sqlite3.connect(path) as conn:
                conn.execute("delete from deals where sheet_id = ? and n > 48", [sid])
                conn.execute("delete from history where sheet_id = ? and n > 48", [sid])
                conn.execute("update sheets set rev = rev + 1 where id = ?", [sid])
            conn.close()
            # What the previous save left: its answer (the sheet's JSON) and the page after it.
            assert c.get(f"/api/v1/sheets/{sid}", headers=right).status_code == 200
            assert c.get(f"/sheets/{sid}", headers=right).status_code == 200

        def save() -> tuple[bytes, bytes]:
            r = c.post(f"/api/v1/sheets/{sid}/deals", json=API_DEAL, headers=right)
            assert r.status_code == 201, r.data[:300]
            p = c.get(f"/sheets/{sid}", headers=right)
            assert p.status_code == 200 and b'id="deal-49"' in p.data, p.status_code
            return r.data, p.data

        back_to_48()
        post_bytes, page_bytes = save()
        fc = bare_floor(post_bytes, page_bytes)

        def floor() -> None:
            r = fc.post("/save", json=API_DEAL)
            assert r.status_code == 201 and len(r.data) == len(post_bytes)
            p = fc.get("/page")
            assert p.status_code == 200 and len(p.data) == len(page_bytes)

        for _ in range(5):  # warm both up
            back_to_48()
            save()
            floor()
        wall: dict[str, list[float]] = {"save": [], "floor": []}
        cpu: dict[str, list[float]] = {"save": [], "floor": []}
        for k in range(runs):
            back_to_48()
            pair = (("save", save), ("floor", floor))
            for name, fn in pair if k % 2 == 0 else pair[::-1]:
                c0, t0 = time.process_time(), time.perf_counter()
                fn()
                wall[name].append(time.perf_counter() - t0)
                cpu[name].append(time.process_time() - c0)

        def med(xs: list[float]) -> float:
            return statistics.median(xs) * 1000

        w_s, w_f, c_s, c_f = (
            med(wall["save"]),
            med(wall["floor"]),
            med(cpu["save"]),
            med(cpu["floor"]),
        )
        print("The save against a bare Flask floor; Flask test clients, one process, medians of")
        print(f"{runs} alternated pairs (API add 48 → 49 with the edit right, then the page)")
        print(f"bare floor: POST {len(post_bytes) // 1024} KiB JSON + GET {len(page_bytes) // 1024} KiB "
              f"HTML   wall {w_f:7.3f} ms   CPU {c_f:7.3f} ms")  # fmt: skip
        print(
            f"save:       API add + sheet page              wall {w_s:7.3f} ms   CPU {c_s:7.3f} ms"
        )
        print(f"ratio       wall {w_s / w_f:5.1f}×   CPU {c_s / c_f:5.1f}×   [≤ 6]")
        print(f"run time {time.perf_counter() - started:.0f} s, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
