"""Busy means wait: simultaneous writers through ``skatcalc serve`` with its defaults.

Starts ``python -m skatcalc.server.cli serve`` (no options but the port and a fresh database:
8 threads, so 4 write slots) and lets ``writers`` clients (default 8), each a table's phone
on its own keep-alive connection, add deals to their own three-player Skat sheet through the
API for ``seconds`` (default 30), closed loop: the next save as soon as the last one is
answered, far faster than a table plays. A sheet is replaced by a new one every 300 deals
(a sheet holds at most 1,000).

Printed: the answers by status (the target: no 503 "Die Liste ist gerade belegt", no other
refusal), the saves' p50/p99/max, saves per second, the server's CPU, the load average before
and after (the machine may be shared: the latencies say how much CPU the server got), and the
lines of the server's log that say "database is locked" (a deferred BEGIN meeting another
writer; none with BEGIN IMMEDIATE).

    PYTHONPATH=. python bench/writers.py [writers] [seconds] [--port N]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from club_night import Http, cpu_s, pct

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import DEALS, free_port, start_server  # noqa: E402

PLAYERS = ["Anna", "Bernd", "Carla"]
PER_SHEET = 300


def deal(k: int) -> dict[str, object]:
    body = dict(DEALS[k % len(DEALS)])
    if "passed" not in body:
        body["declarer"] = PLAYERS[k % 3]
    return body


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--port")]
    port = free_port()
    for a in sys.argv[1:]:
        if a.startswith("--port="):
            port = int(a.split("=", 1)[1])
    writers = int(args[0]) if args else 8
    seconds = float(args[1]) if len(args) > 1 else 30.0
    tmp = Path(tempfile.mkdtemp(prefix="skatcalc-writers-"))
    log = (tmp / "serve.log").open("wb")
    server, port = start_server(tmp / "writers.sqlite", stderr=log, stdout=log, port=port)
    try:
        load_before = os.getloadavg()
        cpu0 = cpu_s(server.pid)
        statuses: Counter[int] = Counter()
        times: list[float] = []
        busy_ms: list[float] = []
        lock = threading.Lock()
        start = threading.Barrier(writers + 1)
        end = [0.0]

        def table() -> None:
            api = Http(port)
            k = 0
            sheet = 0
            start.wait()
            while time.monotonic() < end[0]:
                if k % PER_SHEET == 0:
                    status, body, ms = api.request(
                        "POST", "/api/v1/sheets", {"game": "skat", "players": PLAYERS}
                    )
                    if status == 201:
                        sheet = json.loads(body)["id"]
                else:
                    status, _body, ms = api.request(
                        "POST", f"/api/v1/sheets/{sheet}/deals", deal(k)
                    )
                with lock:
                    statuses[status] += 1
                    times.append(ms)
                    if status == 503:
                        busy_ms.append(ms)
                if status in (200, 201):
                    k += 1
            api.conn.close()

        threads = [threading.Thread(target=table) for _ in range(writers)]
        for t in threads:
            t.start()
        end[0] = time.monotonic() + seconds
        t0 = time.monotonic()
        start.wait()
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
        cpu = cpu_s(server.pid) - cpu0
        load_after = os.getloadavg()
    finally:
        server.terminate()
        server.wait(timeout=15)
        log.close()
    locked = sum(
        "database is locked" in line
        for line in (tmp / "serve.log").read_text(errors="replace").splitlines()
    )
    total = sum(statuses.values())
    print(f"{writers} writers × {seconds:.0f} s against `skatcalc serve` (defaults: 8 threads, "
          f"4 write slots), port {port}")  # fmt: skip
    print(f"  load average before {load_before[0]:.1f} / after {load_after[0]:.1f} "
          f"(1 min); {os.cpu_count()} cores")  # fmt: skip
    print(f"  requests {total} in {wall:.1f} s = {total / wall:.1f}/s; "
          f"answers {dict(sorted(statuses.items()))}")  # fmt: skip
    print(f"  busy answers (503): {statuses[503]}"
          + (f", answered after p50 {pct(busy_ms, 50):.0f} ms" if busy_ms else ""))  # fmt: skip
    print(f"  saves p50 {pct(times, 50):.1f} ms  p99 {pct(times, 99):.1f} ms  "
          f"max {max(times, default=0):.1f} ms")  # fmt: skip
    print(f"  server CPU {cpu:.1f} s ({cpu / wall * 100:.0f} % of one core, "
          f"{cpu / max(total, 1) * 1000:.1f} ms per request)")  # fmt: skip
    print(f"  'database is locked' in the server's log: {locked}")
    ok = statuses[503] == 0 and set(statuses) <= {200, 201} and locked == 0
    print("  target (0 busy answers, no other refusal):", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
