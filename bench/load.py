"""A bounded load run through the real server: 20 clients for 20 s, 90 % reads and 10 % adds.

Starts ``python -m skatcalc.cli serve`` on a free loopback port with a fresh database, sets up
ten three-player Skat sheets of 48 deals (the evening's length) and then lets 20 keep-alive
clients, each like a phone at one of the tables, read a sheet page (90 %) or add a deal through
the API (10 %) as fast as the server answers. Prints requests per second and p50/p99 of reads
and adds (issue target: reads p99 ≤ 100 ms on a 2-core machine) and the server's resident size.

    PYTHONPATH=. python bench/load.py [clients] [seconds]
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

from club_night import Http, line, start_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import DEALS  # noqa: E402

SHEETS = 10
DEALS_BEFORE = 48
PLAYERS = ["Anna", "Bernd", "Carla"]


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for row in f:
            if row.startswith("VmRSS:"):
                return int(row.split()[1]) / 1024
    return float("nan")


def deal(k: int) -> dict[str, object]:
    body = dict(DEALS[k % len(DEALS)])
    if "passed" not in body:
        body["declarer"] = PLAYERS[k % 3]  # at three everybody plays every deal
    return body


def main() -> int:
    clients = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    tmp = tempfile.mkdtemp(prefix="skatcalc-load-")
    server, port = start_server(Path(tmp) / "load.sqlite")
    try:
        api = Http(port)
        sheets = []
        for s in range(SHEETS):
            sid = api.json("POST", "/api/v1/sheets", {"game": "skat", "players": PLAYERS})["id"]
            for k in range(DEALS_BEFORE):
                api.json("POST", f"/api/v1/sheets/{sid}/deals", deal(k + s))
            sheets.append(sid)

        reads: list[float] = []
        adds: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        stop = time.perf_counter() + seconds

        def client(k: int) -> None:
            rng = random.Random(k)
            http = Http(port)
            while time.perf_counter() < stop:
                sid = rng.choice(sheets)
                if rng.random() < 0.9:
                    status, _body, ms = http.request("GET", f"/sheets/{sid}")
                    bucket = reads
                else:
                    status, _body, ms = http.request(
                        "POST", f"/api/v1/sheets/{sid}/deals", deal(rng.randrange(600))
                    )
                    bucket = adds
                with lock:
                    bucket.append(ms)
                    if status >= 400 and status != 503:  # 503 = "come back", counted apart
                        errors.append(f"{status} sheet {sid}")

        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 30)
        elapsed = time.perf_counter() - started
        total = len(reads) + len(adds)
        print(f"load: {clients} clients, {elapsed:.1f} s, 90 % reads of a {DEALS_BEFORE}+-deal "
              f"sheet page, 10 % adds through the API, {SHEETS} sheets")  # fmt: skip
        print(f"  requests/s {total / elapsed:8.1f}   ({total} requests, {len(errors)} errors)")
        print(line("sheet page read", reads))
        print(line("deal add (POST)", adds))
        print(f"  server resident size after the run: {rss_mb(server.pid):.0f} MB")
        load1, _l5, _l15 = os.getloadavg()
        print(f"  machine load average (1 min) at the end: {load1:.1f} on {os.cpu_count()} cores")
        for e in errors[:5]:
            print("  error:", e)
        return 0
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    raise SystemExit(main())
