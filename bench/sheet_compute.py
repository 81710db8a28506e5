"""Prints how long recomputing a sheet takes for 48 and 1,000 deals (pure rules, no server)."""

from __future__ import annotations

import time

from skatcalc.rules.sheet import DealRecord, SheetSpec, compute_sheet, default_active

PATTERN = [
    {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75},
    {"game": "hearts", "matadors": 1, "with": True, "declarer_points": 50},
    {"passed": True},
    {"game": "null", "won": True},
]


def build(n: int) -> tuple[SheetSpec, list[DealRecord]]:
    spec = SheetSpec("skat", ("A", "B", "C", "D"), "A", {"bock": ["value-100"]})
    players = spec.players
    records = []
    for k in range(1, n + 1):
        dealer = players[(k - 1) % 4]
        active = default_active(spec, dealer)
        body = dict(PATTERN[k % len(PATTERN)])
        if "game" in body:
            body["declarer"] = active[0]
        records.append(DealRecord(k, dealer, active, body))
    return spec, records


def main() -> None:
    times = {}
    for n in (48, 1000):
        spec, records = build(n)
        runs = []
        for _ in range(20):
            t = time.perf_counter()
            compute_sheet(spec, records)
            runs.append(time.perf_counter() - t)
        runs.sort()
        times[n] = runs[len(runs) // 2]
        print(f"compute_sheet {n} deals: median {times[n] * 1000:.2f} ms")
    print(f"ratio 1000/48: {times[1000] / times[48]:.1f} (linear would be {1000 / 48:.1f})")


if __name__ == "__main__":
    main()
