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
     PYTHONPATH=. python bench/save.py --help      (this text)
     PYTHONPATH=. python bench/save.py [runs] --where
                 (then also where the save's CPU goes: the app's hooks and the main steps, each
                 with what it calls, per save; timing them adds a little to the save)
"""

from __future__ import annotations

import functools
import importlib
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import PLAYERS, sheet_file
from flask import Flask, Response
from flask.testing import FlaskClient

from skatcalc import create_app

API_DEAL = {"game": "grand", "with": True, "matadors": 2, "declarer_points": 75,
            "declarer": PLAYERS[1]}  # fmt: skip


# The steps --where times (module: name), each with what it calls.
STEPS = [
    "skatcalc.services.sheets:add_deal", "skatcalc.services.sheets:computed",
    "skatcalc.services.sheets:computed_sheet", "skatcalc.services.sheets:sheet_text",
    "skatcalc.services.sheets:sheet_statistics", "skatcalc.services.cache:approx_size",
    "skatcalc.web.sheet_view:revision_parts", "skatcalc.web.sheet_view:running_totals_svg",
    "skatcalc.web.sheet_view:table_rows_html", "skatcalc.web.sheet_view:render_template",
    "skatcalc.web.sheet_view:entry_form_html", "skatcalc.web.caching:keep_page",
    "skatcalc.web.sheet_view:page_html",
]  # fmt: skip
# The POST's own steps: the request's sheet read, the write lock, the deal evaluated on the
# kept computation and stored, the answer (the sheet's JSON) made.
STEPS += [
    "skatcalc.services.sheets:load_sheet", "skatcalc.store.sheets:lock_sheet",
    "skatcalc.services.sheets:continue_sheet", "skatcalc.store.sheets:append_deal",
    "skatcalc.services.sheets:_keep_computation", "skatcalc.services.sheets:sheet_json",
    "skatcalc.web.api:sheet_reply",
]  # fmt: skip


class Where:
    """CPU per step and phase, a step's calls of itself not counted twice."""

    def __init__(self) -> None:
        self.phase = "-"
        self.spent: dict[tuple[str, str], float] = {}

    def timed(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        inside = [0]

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            if inside[0]:
                return fn(*args, **kwargs)
            inside[0] += 1
            c0 = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                inside[0] -= 1
                key = (self.phase, name)
                self.spent[key] = self.spent.get(key, 0.0) + time.process_time() - c0

        return run

    def install(self, app: Flask) -> None:
        for step in STEPS:
            module, name = step.split(":")
            mod = importlib.import_module(module)
            setattr(mod, name, self.timed(step, getattr(mod, name)))
        for hooks in (app.before_request_funcs, app.after_request_funcs,
                      app.teardown_request_funcs):  # fmt: skip
            for bp, fns in hooks.items():
                hooks[bp] = [self.timed(f"hook {f.__module__}.{f.__qualname__}", f) for f in fns]
        for endpoint in ("api.add_deal", "sheets.show"):  # the views as routed
            app.view_functions[endpoint] = self.timed(f"view {endpoint}",
                                                      app.view_functions[endpoint])  # fmt: skip
        app.wsgi_app = self.timed("the app (WSGI)", app.wsgi_app)  # type: ignore[method-assign]

    def report(self, saves: int) -> None:
        print("where the save's CPU goes (ms per save; a step includes what it calls):")
        for (phase, name), spent in sorted(self.spent.items(), key=lambda kv: (kv[0][0], -kv[1])):
            if phase in ("POST", "GET") and spent / saves * 1000 >= 0.02:
                print(f"  {phase:4} {spent / saves * 1000:7.3f}  {name}")


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


def main() -> int:
    if {"-h", "--help"} & set(sys.argv[1:]):
        print(__doc__)
        return 0
    args = [a for a in sys.argv[1:] if a != "--where"]
    if len(args) > 1 or (args and not args[0].isdigit()):
        print(__doc__, file=sys.stderr)
        return 2
    runs = int(args[0]) if args else 300
    where = Where() if "--where" in sys.argv else None
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.sqlite")
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "LAN": True})
        if where is not None:
            where.install(app)
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

        # CPU of each save's and floor's POST (the rest of each pair is its GET)
        post_cpu: dict[str, list[float]] = {"save": [], "floor": []}

        def save() -> tuple[bytes, bytes]:
            if where is not None:
                where.phase = "POST"
            c0 = time.process_time()
            r = c.post(f"/api/v1/sheets/{sid}/deals", json=API_DEAL, headers=right)
            post_cpu["save"].append(time.process_time() - c0)
            assert r.status_code == 201, r.data[:300]
            if where is not None:
                where.phase = "GET"
            p = c.get(f"/sheets/{sid}", headers=right)
            if where is not None:
                where.phase = "-"
            assert p.status_code == 200 and b'id="deal-49"' in p.data, p.status_code
            return r.data, p.data

        back_to_48()
        post_bytes, page_bytes = save()
        fc = bare_floor(post_bytes, page_bytes)

        def floor() -> None:
            c0 = time.process_time()
            r = fc.post("/save", json=API_DEAL)
            post_cpu["floor"].append(time.process_time() - c0)
            assert r.status_code == 201 and len(r.data) == len(post_bytes)
            p = fc.get("/page")
            assert p.status_code == 200 and len(p.data) == len(page_bytes)

        for _ in range(5):  # warm both up
            back_to_48()
            save()
            floor()
        if where is not None:
            where.spent.clear()
        post_cpu = {"save": [], "floor": []}
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
        p_s, p_f = med(post_cpu["save"]), med(post_cpu["floor"])
        print(f"the halves (CPU): POST save {p_s:6.3f} ms, floor {p_f:6.3f} ms ({p_s / p_f:4.1f}×); "
              f"GET save {c_s - p_s:6.3f} ms, floor {c_f - p_f:6.3f} ms (medians' difference)")  # fmt: skip
        if where is not None:
            where.report(runs)
        print(f"run time {time.perf_counter() - started:.0f} s, load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
