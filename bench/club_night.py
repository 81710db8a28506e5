"""A club night on one machine: 30 tables (118 players) through the real server.

Every table's phone watches its sheet (polls the revision, reloads the page when it moved),
every table enters a deal at a sped-up pace (one every ~2 s instead of one a minute), and the
ranking screen polls the event and reloads the ranking when it moved, plus one API client
reading the ranking JSON. Runs `python -m skatcalc.cli serve` on loopback with a fresh
database; bounded to about 30 s in all.

Run: python bench/club_night.py   (target: ranking and sheet reads p99 < 200 ms)
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skatcalc.rules.sheet import SheetSpec, default_active  # noqa: E402

PLAYERS = 118  # 28 tables of four and 2 of three
LOAD_SECONDS = 18.0
ENTRY_EVERY = 2.0  # one deal per table every ~2 s: a minute's pace, sped up 30×
PHONE_POLL = 1.5  # as the sheet page polls
SCREEN_POLL = 3.0  # the big screen's pace
WARM_UP = 3.0  # the first seconds: every phone loads its sheet at once, caches are cold
SKAT_DEALS = [
    {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75},
    {"game": "hearts", "matadors": 1, "with": True, "declarer_points": 50},
    {"passed": True},
    {"game": "null", "won": True},
    {"game": "clubs", "matadors": 3, "with": False, "declarer_points": 95},
    {"game": "diamonds", "matadors": 1, "with": True, "declarer_points": 70},
]


class Http:
    """One keep-alive connection, as one phone or screen keeps."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: Any = None,
                extra: dict[str, str] | None = None) -> tuple[int, bytes, float]:  # fmt: skip
        headers = {"Accept-Encoding": "gzip", **(extra or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in range(2):
            try:
                t = time.perf_counter()
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                payload = resp.read()
                ms = (time.perf_counter() - t) * 1000
                if resp.getheader("Content-Encoding") == "gzip":
                    payload = gzip.decompress(payload)
                return resp.status, payload, ms
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        raise RuntimeError("unreachable")

    def json(self, method: str, path: str, body: Any = None) -> Any:
        status, payload, _ms = self.request(method, path, body)
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {payload[:300]!r}")
        return json.loads(payload)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path, stderr: int = subprocess.DEVNULL, threads: str | None = None,
                 processes: str | None = None) -> tuple[subprocess.Popen[bytes], int]:  # fmt: skip
    """``skatcalc serve`` of this checkout on a free loopback port with its own database
    (and ``--threads`` / ``--processes`` when given), returned once it answers."""
    port = free_port()
    extra = ["--threads", str(threads)] if threads else []
    extra += ["--processes", str(processes)] if processes else []
    server = subprocess.Popen(
        [sys.executable, "-m", "skatcalc.cli", "serve", "--port", str(port), "--db", str(db),
         *extra],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL, stderr=stderr,
    )  # fmt: skip
    probe = Http(port)
    for _ in range(200):
        try:
            probe.request("GET", "/")
            break
        except OSError:
            time.sleep(0.05)
    return server, port


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def line(name: str, values: list[float]) -> str:
    return (f"  {name:<28} n={len(values):>5}  p50 {pct(values, 50):6.1f} ms  "
            f"p99 {pct(values, 99):6.1f} ms  max {max(values, default=0):6.1f} ms")  # fmt: skip


def main() -> int:
    started = time.perf_counter()
    tmp = tempfile.mkdtemp(prefix="club-night-")
    server, port = start_server(Path(tmp) / "club.sqlite", stderr=subprocess.PIPE)
    try:
        api = Http(port)
        event = api.json("POST", "/api/v1/events", {
            "name": "Preisskat Benchmark", "game": "skat", "deals": {"4": 48, "3": 36},
            "fees": {"entry_cents": 1000, "lost_game_cents": 50}})  # fmt: skip
        eid = event["id"]
        names = [f"Spieler {i:03d}" for i in range(1, PLAYERS + 1)]
        api.json("POST", f"/api/v1/events/{eid}/players", {"names": names})
        series = api.json("POST", f"/api/v1/events/{eid}/series", {"seating": "draw", "seed": 1})
        tables = series["tables"]
        setup_s = time.perf_counter() - started

        stop = time.perf_counter() + LOAD_SECONDS
        lock = threading.Lock()
        figures: dict[str, list[float]] = {
            "sheet page (phone reload)": [], "sheet revision poll": [], "deal entry (POST)": [],
            "ranking page part (screen)": [], "ranking API (JSON)": [], "event live poll": [],
        }  # fmt: skip
        errors: list[str] = []
        retries: list[float] = []

        load_start = time.perf_counter()
        steady: dict[str, list[float]] = {k: [] for k in figures}

        def note(key: str, ms: float, status: int, what: str) -> None:
            with lock:
                figures[key].append(ms)
                if time.perf_counter() - load_start > WARM_UP:
                    steady[key].append(ms)
                if status >= 400:
                    errors.append(f"{status} {what}")

        def table(t: dict[str, Any], k: int) -> None:
            rng = random.Random(k)
            client = Http(port)
            sid = t["sheet"]
            spec = SheetSpec("skat", tuple(t["players"]), t["first_dealer"], {})
            rev = None
            n = 0
            next_entry = time.perf_counter() + rng.uniform(0, ENTRY_EVERY)
            next_poll = time.perf_counter() + rng.uniform(0, PHONE_POLL)
            while time.perf_counter() < stop:
                now = time.perf_counter()
                if now >= next_entry:
                    dealer = t["players"][n % len(t["players"])]
                    body = dict(SKAT_DEALS[(n + k) % len(SKAT_DEALS)])
                    if "passed" not in body:
                        body["declarer"] = default_active(spec, dealer)[n % 3]
                    # As the phone does: the same key for a re-sent save, and a 503 ("come
                    # back shortly", the server keeps threads free for reads) is sent again.
                    key = {"Idempotency-Key": f"bench-{sid}-{n}"}
                    for _attempt in range(10):
                        status, _b, ms = client.request(
                            "POST", f"/api/v1/sheets/{sid}/deals", body, key
                        )
                        if status != 503:
                            break
                        with lock:
                            retries.append(ms)
                        time.sleep(0.2)
                    note("deal entry (POST)", ms, status, f"deal {sid}")
                    if status == 201:
                        n += 1
                    next_entry += ENTRY_EVERY * rng.uniform(0.7, 1.3)
                if now >= next_poll:
                    status, payload, ms = client.request("GET", f"/sheets/{sid}/rev")
                    note("sheet revision poll", ms, status, f"rev {sid}")
                    new = json.loads(payload)["rev"] if status == 200 else rev
                    if new != rev:
                        status, _b, ms = client.request("GET", f"/sheets/{sid}")
                        note("sheet page (phone reload)", ms, status, f"sheet {sid}")
                        rev = new
                    next_poll += PHONE_POLL
                time.sleep(max(0.0, min(next_entry, next_poll) - time.perf_counter()))

        def screen() -> None:
            client = Http(port)
            token = None
            while time.perf_counter() < stop:
                status, payload, ms = client.request("GET", f"/events/{eid}/live")
                note("event live poll", ms, status, "live")
                new = json.loads(payload)["live"]
                if new != token:
                    status, _b, ms = client.request("GET", f"/events/{eid}/screen/part")
                    note("ranking page part (screen)", ms, status, "screen part")
                    token = new
                time.sleep(SCREEN_POLL / 3)  # three screens (projector, bar, organiser)

        def ranking_api() -> None:
            client = Http(port)
            while time.perf_counter() < stop:
                status, _b, ms = client.request("GET", f"/api/v1/events/{eid}/ranking")
                note("ranking API (JSON)", ms, status, "ranking")
                time.sleep(SCREEN_POLL)

        threads = [threading.Thread(target=table, args=(t, k)) for k, t in enumerate(tables)]
        threads += [threading.Thread(target=screen), threading.Thread(target=ranking_api)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        final = api.json("GET", f"/api/v1/events/{eid}/ranking")
        deals = len(figures["deal entry (POST)"])
        total_s = time.perf_counter() - started
        sizes = [len(t["players"]) for t in tables]
        print(f"club night: {PLAYERS} players at {len(tables)} tables "
              f"({sizes.count(4)} of four, {sizes.count(3)} of three), "
              f"{LOAD_SECONDS:.0f} s of load after {setup_s:.1f} s setup; "
              f"{deals} deals entered ({deals / LOAD_SECONDS:.1f}/s)")  # fmt: skip
        for key, values in figures.items():
            print(line(key, values))
        ranking = figures["ranking page part (screen)"] + figures["ranking API (JSON)"]
        sheet = figures["sheet page (phone reload)"] + figures["sheet revision poll"]
        print(line("ALL ranking reads", ranking))
        print(line("ALL sheet reads", sheet))
        print(f" after the first {WARM_UP:.0f} s (every phone loading its sheet at once):")
        s_rank = steady["ranking page part (screen)"] + steady["ranking API (JSON)"]
        s_sheet = steady["sheet page (phone reload)"] + steady["sheet revision poll"]
        print(line("ranking reads", s_rank))
        print(line("sheet reads", s_sheet))
        # The floor on this (shared) machine: the cheapest route, a one-row poll.
        print(line("floor: event live poll", steady["event live poll"]))
        print(f" load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        ok = pct(ranking, 99) < 200 and pct(sheet, 99) < 200
        print(f" deal saves told to come back (503, then sent again): {len(retries)}")
        print(f"target p99 < 200 ms for ranking and sheet reads: {'met' if ok else 'MISSED'}")
        top = final["rows"][0]
        print(f"leader after the run: {top['player']} {top['score']} · fees so far "
              f"{final['fees_total_cents'] / 100:.2f} € · errors: {len(errors)}"
              f"{' ' + str(errors[:3]) if errors else ''} · total {total_s:.1f} s")  # fmt: skip
        return 0 if not errors else 1
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        if server.stderr is not None:
            server.stderr.close()


if __name__ == "__main__":
    sys.exit(main())
