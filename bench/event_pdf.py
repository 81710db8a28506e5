"""Prints how long a big Preisskat's event PDF takes: 300 players at 75 tables, the first
download (a render) and the next ones (kept per state of the event), then after one deal."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from skatcalc import create_app


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.sqlite"), "SECRET_KEY": "bench"})
        client = app.test_client()
        ev = client.post("/api/v1/events", json={"name": "Big", "game": "skat"}).get_json()["id"]
        names = [f"Spieler {i}" for i in range(300)]
        client.post(f"/api/v1/events/{ev}/players", json={"names": names})
        tables = client.post(f"/api/v1/events/{ev}/series",
                             json={"seating": "draw", "seed": 1}).get_json()["tables"]  # fmt: skip
        url = f"/events/{ev}/event.pdf"

        def timed() -> float:
            t = time.perf_counter()
            r = client.get(url)
            assert r.status_code == 200
            return time.perf_counter() - t

        first = timed()
        again = [timed() for _ in range(3)]
        t0 = tables[0]
        body = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 70,
                "declarer": t0["players"][1]}  # fmt: skip
        r = client.post(f"/api/v1/sheets/{t0['sheet']}/deals", json=body)
        assert r.status_code == 201, r.get_json()
        after = timed()
        print(f"event.pdf, {len(tables)} tables: first {first:.2f} s, again "
              f"{max(again) * 1000:.0f} ms at most, after a deal {after:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
