"""Memory of the server process while one sheet grows to 1,000 deals, saved through the entry
form, the sheet page viewed after every fifth save, in one process with the Flask test client. The caches must keep only the latest revision of each sheet, so the resident size
stays flat instead of growing with every save.

The figure is one process's: ``skatcalc serve --processes N`` runs N workers, each with its
own caches, so the server as a whole needs about N times this (plus the parent, ~55 MB).

Run: PYTHONPATH=. python bench/memory.py   (prints figures; target in brackets; under a minute)
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from common import PLAYERS

from skatcalc import create_app


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "mem.sqlite"), "SECRET_KEY": "bench",
                          "WTF_CSRF_ENABLED": False})  # fmt: skip
        client = app.test_client()
        r = client.post("/api/v1/sheets", json={"game": "skat", "players": PLAYERS})
        sheet = r.get_json()
        sid = sheet["id"]
        print(f"after start:            {rss_mb():6.1f} MB")
        start = time.perf_counter()
        for k in range(1000):
            # A Grand mit 2 through the entry form, by forehand (the seat after the dealer).
            form = {"kind": "game", "game": "grand", "with": "true", "matadors": "2",
                    "declarer_points": "75", "bid": "18"}  # fmt: skip
            form["declarer"] = PLAYERS[(k + 1) % 4]
            r = client.post(f"/sheets/{sid}/deals", data=form)
            assert r.status_code in (302, 303), r.data.decode()[:2000]
            if k % 5 == 4:
                assert client.get(f"/sheets/{sid}").status_code == 200
            if (k + 1) % 250 == 0:
                print(f"after {k + 1:4d} adds:         {rss_mb():6.1f} MB"
                      f"  ({time.perf_counter() - start:5.1f} s)")  # fmt: skip
        print(f"resident size after 1,000 adds: {rss_mb():.1f} MB  [≤ 100 MB]")


if __name__ == "__main__":
    main()
