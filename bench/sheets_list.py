"""The list of sheets with 300 evenings of 1,000 deals each, and big PDFs beside other requests.

Run: python bench/sheets_list.py [sheets] [deals]   (default 300 1000; prints figures, targets
in brackets). Loopback only: everything runs in this process with the Flask test client.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import PLAYERS, RULES, sheet_file

from skatcalc import create_app, store
from skatcalc.services import cache
from skatcalc.store import sheets as sheet_store


def fill(path: str, sheets: int, deals: int) -> None:
    """``sheets`` sheets of ``deals`` deals straight into the database (setup, not measured)."""
    rows = [(d["n"], d["dealer"], json.dumps(d["active"]), json.dumps(d["input"], sort_keys=True))
            for d in sheet_file(deals)["deals"]]  # fmt: skip
    db = store.connect(path)
    try:
        for i in range(sheets):
            with db.atomic():
                sheet = sheet_store.create_sheet(db, f"Abend {i + 1}", "skat", PLAYERS, "Anna",
                                           dict(RULES))  # fmt: skip
                db.conn.executemany(
                    "insert into deals (sheet_id, n, dealer, active, input, struck, version, "
                    "created, updated) values (?, ?, ?, ?, ?, 0, 1, '', '')",
                    [(sheet.id, *r) for r in rows],
                )
                db.execute("update sheets set rev = rev + 1 where id = ?", [sheet.id])
    finally:
        db.close()


def timed(fn: object, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    n_sheets = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    n_deals = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    tmp = Path(tempfile.mkdtemp(prefix="skatcalc-bench-"))
    path = str(tmp / "bench.sqlite")
    create_app({"DATABASE": path, "SECRET_KEY": "b"})  # schema
    t = time.perf_counter()
    fill(path, n_sheets, n_deals)
    print(f"setup: {n_sheets} sheets × {n_deals} deals in {time.perf_counter() - t:.1f} s")

    app = create_app({"DATABASE": path, "SECRET_KEY": "b"})
    c = app.test_client()

    def sheets() -> None:
        r = c.get("/sheets")
        assert r.status_code == 200 and f"Abend {n_sheets}" in r.data.decode()

    cold = timed(sheets, 1)[0]
    print(f"/sheets first view after the import (every summary computed once): {cold:.0f} ms")
    warm = timed(sheets, 30)
    floor = statistics.median(timed(lambda: c.get("/bids"), 30))
    print(f"/sheets warm: median {statistics.median(warm):.1f} ms, "
          f"max {max(warm):.1f} ms  [< 100 ms]; the small /bids page in the same run: "
          f"{floor:.1f} ms (a shared machine slows both alike)")  # fmt: skip
    restarted = create_app({"DATABASE": path, "SECRET_KEY": "b"}).test_client()
    cache.SUMMARIES.clear()  # a new process: only the table is left
    t = time.perf_counter()
    restarted.get("/sheets")
    print(f"/sheets first view after a restart (summaries from the table): "
          f"{(time.perf_counter() - t) * 1000:.1f} ms  [< 100 ms]")  # fmt: skip
    c.post("/api/v1/sheets/1/deals", json={"passed": True})
    after_add = timed(sheets, 1)[0]
    print(f"/sheets after a deal was added to one sheet: {after_add:.0f} ms")

    # PDFs of 1,000 deals while others read: the reads' latency alone and beside 8 downloads.
    def read() -> None:
        assert c.get("/api/v1/sheets/2").status_code == 200

    alone = statistics.median(timed(read, 20))
    first_pdf = timed(lambda: c.get("/sheets/3/export.pdf"), 1)[0]
    stop = threading.Event()
    done = [0]

    def download(i: int) -> None:
        client = app.test_client()
        while not stop.is_set():
            # a different sheet each time: every download is a render
            client.get(f"/sheets/{4 + (done[0] + i) % (n_sheets - 4)}/export.pdf")
            done[0] += 1

    threads = [threading.Thread(target=download, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    time.sleep(0.5)
    beside = timed(read, 20)
    stop.set()
    for th in threads:
        th.join()
    print(f"PDF of {n_deals} deals: first render {first_pdf:.0f} ms; "
          f"again (same revision) {timed(lambda: c.get('/sheets/3/export.pdf'), 1)[0]:.1f} ms")  # fmt: skip
    print(f"a read alone: {alone:.1f} ms; beside 8 PDF downloads: median "
          f"{statistics.median(beside):.0f} ms, max {max(beside):.0f} ms "
          f"({statistics.median(beside) / alone:.1f}× alone)")  # fmt: skip


if __name__ == "__main__":
    main()
