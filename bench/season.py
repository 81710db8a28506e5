"""Prints how long a group's standings (50 evenings of 4 players × 48 deals) and a player's
page take, through the Flask test client on a temporary database (no network).

    python bench/season.py

"cold": the first request after a restart (per-sheet figures read from the database's
cache); "warm": later requests (figures in memory); "after a correction": one old sheet
recomputed; "never computed": every sheet computed from its deals (first view ever). Targets (issue 13): standings < 200 ms, player page < 100 ms.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from common import DEALS, PLAYERS

from skatcalc import create_app, store
from skatcalc.services import sheets as service

EVENINGS = 50
DEALS_PER_EVENING = 48


def evening() -> dict:
    deals = []
    for n in range(1, DEALS_PER_EVENING + 1):
        dealer = PLAYERS[(n - 1) % 4]
        active = [p for p in PLAYERS if p != dealer]
        body = dict(DEALS[(n * 7 + n // 5) % len(DEALS)])
        if "passed" not in body:
            body["declarer"] = active[n % 3]
        deals.append({"n": n, "dealer": dealer, "active": active, "input": body})
    return {"game": "skat", "players": PLAYERS, "first_dealer": PLAYERS[0],
            "rules": {"stake_cents": 1}, "deals": deals}  # fmt: skip


def ms(fn, runs: int = 15) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.sqlite"), "SECRET_KEY": "b",
                          "TESTING": True})  # fmt: skip
        client = app.test_client()
        gid = client.post("/api/v1/groups", json={"name": "Bench", "game": "skat",
                                                  "rules": {"best": 40}}).get_json()["id"]  # fmt: skip
        ids = []
        body = evening()
        for _ in range(EVENINGS):
            resp = client.post("/api/v1/sheets/import", json=body)
            assert resp.status_code == 201, resp.get_json()
            ids.append(resp.get_json()["id"])
        with app.app_context():
            db = store.get_db()
            with db.atomic():
                db.execute("update sheets set group_id = ?", [gid])
        pid = client.get("/api/v1/players").get_json()["players"][0]["id"]
        standings = f"/groups/{gid}"
        standings_api = f"/api/v1/groups/{gid}/standings"
        player = f"/players/{pid}"

        def get(url: str) -> None:
            resp = client.get(url)
            assert resp.status_code == 200, url

        def cold(url: str, stored: bool = True) -> float:
            """After a restart (memory caches empty); ``stored=False``: also without the
            figures kept in the database, so every sheet is computed from its deals."""
            service._CACHE.clear()
            service._LATEST.clear()
            if not stored:
                with app.app_context():
                    db = store.get_db()
                    with db.atomic():
                        db.execute("delete from sheet_figures_cache")
            t = time.perf_counter()
            get(url)
            return (time.perf_counter() - t) * 1000

        uncached_standings = min(cold(standings, stored=False) for _ in range(3))
        uncached_player = min(cold(player, stored=False) for _ in range(3))
        cold_standings = min(cold(standings) for _ in range(3))
        cold_player = min(cold(player) for _ in range(3))
        get(standings)
        get(player)
        warm_s = ms(lambda: get(standings))
        warm_api = ms(lambda: get(standings_api))
        warm_p = ms(lambda: get(player))
        fix = {"game": "grand", "matadors": 4, "with": True, "declarer_points": 90,
               "declarer": "Bernd"}  # fmt: skip
        times = []
        for k in range(5):
            client.put(f"/api/v1/sheets/{ids[k]}/deals/2", json=fix | {"declarer_points": 91 + k})
            t = time.perf_counter()
            get(standings)
            times.append((time.perf_counter() - t) * 1000)
        after_fix = statistics.median(times)
    print(f"group of {EVENINGS} evenings × 4 players × {DEALS_PER_EVENING} deals")
    print(f"standings page  cold {cold_standings:7.1f} ms   warm median {warm_s[0]:6.1f} ms "
          f"(max {warm_s[1]:.1f})   after a correction {after_fix:6.1f} ms   target < 200 ms")  # fmt: skip
    print(f"standings API   warm median {warm_api[0]:6.1f} ms (max {warm_api[1]:.1f})")
    print(f"player page     cold {cold_player:7.1f} ms   warm median {warm_p[0]:6.1f} ms "
          f"(max {warm_p[1]:.1f})   target < 100 ms")  # fmt: skip

    print(f"never computed before (all {EVENINGS} sheets from their deals): standings "
          f"{uncached_standings:.1f} ms, player page {uncached_player:.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
