"""Prints how long a 48-deal evening takes to export as CSV, JSON and PDF (target < 1 s each)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from common import DEALS, PLAYERS

from skatcalc import create_app


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.sqlite"), "SECRET_KEY": "bench"})
        client = app.test_client()
        players = PLAYERS
        sid = client.post("/api/v1/sheets", json={"game": "skat", "players": players,
                                                  "first_dealer": "Anna"}).get_json()["id"]  # fmt: skip
        for k in range(48):
            body = dict(DEALS[k % len(DEALS)])
            if "passed" not in body:
                body["declarer"] = players[(k + 1) % 4]
            assert client.post(f"/api/v1/sheets/{sid}/deals", json=body).status_code == 201
        for fmt in ("csv", "json", "pdf"):
            runs = []
            for _ in range(5):
                t = time.perf_counter()
                r = client.get(f"/api/v1/sheets/{sid}/export.{fmt}")
                runs.append(time.perf_counter() - t)
                assert r.status_code == 200
            print(f"export.{fmt}: median {statistics.median(runs) * 1000:.0f} ms, "
                  f"{len(r.data) / 1024:.0f} KiB (target < 1000 ms)")  # fmt: skip


if __name__ == "__main__":
    main()
