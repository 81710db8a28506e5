"""Resources under attack, through the real server (``skatcalc serve``): memory while
anonymous visitors import 1,000-deal sheets and read them, the reads of a normal phone while
12 clients hammer PDFs and JSON without any right, and a 1,000-deal sheet's PDF.

    PYTHONPATH=. python bench/attack.py memory [sheets=100] [processes=2]
    PYTHONPATH=. python bench/attack.py reads [seconds=30] [processes=2]
    PYTHONPATH=. python bench/attack.py pdf
    PYTHONPATH=. python bench/attack.py process [sheets=6]

``memory``: imports ``sheets`` copies of a 1,000-deal sheet (the 6.7 MB JSON export of
``tests.support.largest_export`` with ASCII names, five players, every deal corrected once)
and reads each one's JSON (gzip and not) and page in German and English, six requests at
once, one such visitor per worker at a time; prints each worker's resident size every 10
sheets [≤ 150 MB per process], the live workers' own peak (VmHWM, also between samples), the
render children's (each a process of its own, which make the large sheets' JSON and PDFs) and
how many workers ``serve`` replaced past ``--max-worker-mb`` (default); ``process`` the same in this one process with the
Flask test client (the caches alone). ``reads``: four such sheets and a 48-deal evening;
12 threads fetch the big sheets' PDFs (both languages), JSON and export.json as fast as they
are answered, without any cookie, while one phone polls its evening's revision, revalidates
and reloads its page every 0.25 s; prints the phone's p50/p99 [p99 ≤ 200 ms] and what the
hammering got (200 / 503). ``pdf``: one render of the 1,000-deal sheet's PDF in this process
[≤ 2 s on a quiet machine], and 8 identical requests at once through ``serve`` (one render:
those waiting take its bytes, those beyond the waiting room are told to come back). Everything on loopback, a temporary database;
the load average is printed with the figures (the machine is often shared). ``BENCH_PORT``
names the server's port for ``memory`` and ``reads`` (default: a free one).
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from club_night import cpu_s, pct, rss_mb, server_pids, start_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import DEALS  # noqa: E402

PLAYERS = ["Anna", "Bernd", "Carla"]


def load_avg() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def big_export(folder: Path) -> bytes:
    from tests.support import largest_export

    return largest_export(folder, wide=False)


def call(port: int, method: str, path: str, body: bytes | None = None,
         headers: dict[str, str] | None = None, timeout: float = 120) -> tuple[int, bytes, dict[str, str]]:  # fmt: skip
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read(), dict(r.getheaders())
    finally:
        conn.close()


def call_again(port: int, method: str, path: str, body: bytes | None = None,
               headers: dict[str, str] | None = None) -> tuple[int, bytes, dict[str, str]]:  # fmt: skip
    """``call``, asked again after a 503 (every heavy slot taken) until it is answered."""
    while True:
        got = call(port, method, path, body, headers)
        if got[0] != 503:
            return got
        time.sleep(0.5)


def import_sheet(port: int, data: bytes) -> int:
    status, body, _ = call_again(port, "POST", "/api/v1/sheets/import", data,
                                 {"Content-Type": "application/json"})  # fmt: skip
    assert status == 201, body[:300]
    return int(json.loads(body)["id"])


def started(port: int) -> None:
    """Wait until the server answers (a loaded machine may take longer than start_server's
    probe)."""
    deadline = time.monotonic() + 120
    while True:
        try:
            call(port, "GET", "/sheets/0/rev", timeout=10)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``: workers, and each worker's PDF render child."""
    found: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            kids = [int(c) for t in Path(f"/proc/{p}/task").iterdir()
                    for c in (t / "children").read_text().split()]  # fmt: skip
        except OSError:
            continue
        found += kids
        todo += kids
    return found


def render_children(pid: int) -> list[int]:
    """The PDF render children (exports/apart.py) of the server ``pid``."""
    out = []
    for p in descendants(pid):
        try:
            if b"skatcalc.exports.apart" in Path(f"/proc/{p}/cmdline").read_bytes():
                out.append(p)
        except OSError:
            pass
    return out


def settled(pids: list[int], timeout: float = 60) -> None:
    """Wait until ``pids`` use no CPU for a second (the render children warmed up)."""
    deadline = time.monotonic() + timeout
    last = -1.0
    while time.monotonic() < deadline:
        now = sum(cpu_s(p) for p in pids)
        if now == last:
            return
        last = now
        time.sleep(1)


def worker_rss(pid: int) -> list[float]:
    pids = server_pids(pid)
    return [rss_mb(p) for p in (pids[1:] or pids)]


def worker_hwm(pid: int) -> list[float]:
    """Each worker's peak resident size so far (VmHWM): what it reached between two samples."""
    out = []
    for p in server_pids(pid)[1:] or [pid]:
        try:
            with open(f"/proc/{p}/status") as f:
                out += [int(r.split()[1]) / 1024 for r in f if r.startswith("VmHWM:")]
        except OSError:
            pass  # a worker that ended meanwhile (retired)
    return out


def bench_port() -> int | None:
    """``BENCH_PORT`` when set (a shared machine's agreed range), else a free one."""
    return int(os.environ["BENCH_PORT"]) if os.environ.get("BENCH_PORT") else None


def read_sheet(port: int, sid: int) -> None:
    """A sheet's JSON (gzip and not) and page, in German and English, all at once."""
    gz = {"Accept-Encoding": "gzip"}
    paths = [(f"/api/v1/sheets/{sid}", {**gz, "Accept-Language": lang}) for lang in ("de", "en")]
    paths += [(f"/sheets/{sid}?lang={lang}", gz) for lang in ("de", "en")]
    paths += [(f"/api/v1/sheets/{sid}", {"Accept-Language": lang}) for lang in ("de", "en")]
    threads = [threading.Thread(target=call_again, args=(port, "GET", p), kwargs={"headers": h})
               for p, h in paths]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def memory(sheets: int, processes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = big_export(Path(tmp))
        # not --lan: no import limit (the bench imports 100 sheets from one address)
        log = (Path(tmp) / "mem.log").open("wb")
        server, port = start_server(Path(tmp) / "mem.sqlite", processes=str(processes),
                                    stderr=log, port=bench_port())  # fmt: skip
        try:
            started(port)
            time.sleep(1)
            print(f"export {len(data) / 2**20:.1f} MiB; start: workers "
                  f"{', '.join(f'{m:.0f}' for m in worker_rss(server.pid))} MB; load {load_avg()}")  # fmt: skip
            peak = 0.0
            hwm = [0.0]  # the workers' own peaks (VmHWM), also between the samples
            kid_peak = [0.0]  # the PDF/JSON render children (exports/apart.py), each a process
            t0 = time.monotonic()
            done = [0]
            lock = threading.Lock()

            def client(i: int) -> None:
                # one visitor per worker: imports a sheet, reads it (six requests at once)
                nonlocal peak
                for _ in range(i, sheets, processes):
                    read_sheet(port, import_sheet(port, data))
                    sizes = worker_rss(server.pid)
                    highs = worker_hwm(server.pid)
                    kids = [rss_mb(p) for p in render_children(server.pid)]
                    with lock:
                        done[0] += 1
                        k = done[0]
                        peak = max(peak, *sizes)
                        hwm[0] = max(hwm[0], *highs, 0.0)
                        kid_peak[0] = max(kid_peak[0], *kids, 0.0)
                        if k % 10 == 0 or k == sheets:
                            print(f"after {k:3d} sheets ({time.monotonic() - t0:5.0f} s): "
                                  f"workers {', '.join(f'{m:.0f}' for m in sizes)} MB, peak "
                                  f"{peak:.0f} MB; render children "
                                  f"{', '.join(f'{m:.0f}' for m in kids)} MB, peak "
                                  f"{kid_peak[0]:.0f} MB; load {load_avg()}", flush=True)  # fmt: skip

            clients = [threading.Thread(target=client, args=(i,)) for i in range(processes)]
            for t in clients:
                t.start()
            for t in clients:
                t.join()
            replaced = (Path(tmp) / "mem.log").read_text(errors="replace").count(" replaced at ")
            print(f"resident per process, peak over {sheets} sheets: {peak:.0f} MB  [≤ 150 MB] "
                  f"(sampled; the live workers' own peak, VmHWM: {hwm[0]:.0f} MB); "
                  f"render children (sampled with the workers): {kid_peak[0]:.0f} MB; "
                  f"workers replaced (--max-worker-mb): {replaced}; load {load_avg()}")  # fmt: skip
        finally:
            server.terminate()
            server.wait()
            log.close()


def one_process(sheets: int) -> None:
    """The same load in this process, with the Flask test client: no server, no second
    worker, so the figure is the caches' and the allocator's alone (runs on older commits
    too: it asks nothing of the code but its routes)."""
    from skatcalc import create_app

    with tempfile.TemporaryDirectory() as tmp:
        data = big_export(Path(tmp))
        app = create_app({"DATABASE": str(Path(tmp) / "one.sqlite"), "SECRET_KEY": "bench"})
        c = app.test_client()
        print(f"start {rss_mb(os.getpid()):.0f} MB; load {load_avg()}")
        for k in range(1, sheets + 1):
            r = c.post("/api/v1/sheets/import", data=data,
                       headers={"Content-Type": "application/json"})  # fmt: skip
            sid = r.get_json()["id"]
            for lang in ("de", "en"):
                c.get(f"/api/v1/sheets/{sid}", headers={"Accept-Language": lang,
                                                        "Accept-Encoding": "gzip"})  # fmt: skip
                c.get(f"/sheets/{sid}?lang={lang}")
            print(f"after {k:3d} sheets: {rss_mb(os.getpid()):.0f} MB")


def reads(seconds: float, processes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = big_export(Path(tmp))
        log = (Path(tmp) / "reads.log").open("wb")
        server, port = start_server(Path(tmp) / "reads.sqlite", processes=str(processes),
                                    stderr=log, port=bench_port())  # fmt: skip
        try:
            started(port)
            big = [import_sheet(port, data) for _ in range(4)]
            status, body, _ = call(port, "POST", "/api/v1/sheets",
                                   json.dumps({"game": "skat", "players": PLAYERS}).encode(),
                                   {"Content-Type": "application/json"})  # fmt: skip
            evening = json.loads(body)["id"]
            for k in range(48):
                deal = dict(DEALS[k % len(DEALS)])
                if "passed" not in deal:
                    deal["declarer"] = PLAYERS[k % 3]
                call(port, "POST", f"/api/v1/sheets/{evening}/deals", json.dumps(deal).encode(),
                     {"Content-Type": "application/json"})  # fmt: skip
            heavy = [p for sid in big for p in (
                f"/sheets/{sid}/export.pdf", f"/sheets/{sid}/export.pdf?lang=en",
                f"/api/v1/sheets/{sid}/export.pdf", f"/api/v1/sheets/{sid}",
                f"/sheets/{sid}/export.json")]  # fmt: skip
            stop = time.time() + seconds
            # The hammering clients in a process of their own: the phone is another device,
            # and 12 threads reading answers as fast as they come would otherwise take this
            # process's interpreter lock from the phone's timing.
            results: multiprocessing.Queue[dict[int, int]] = multiprocessing.Queue()
            attacker = multiprocessing.get_context("fork").Process(
                target=hammer_all, args=(port, heavy, stop, results)
            )
            attacker.start()
            times: dict[str, list[float]] = {"poll": [], "revalidate": [], "full load": []}
            etag = ""
            while time.time() < stop:
                for kind in times:
                    hdrs = {"Accept-Encoding": "gzip"}
                    path = f"/sheets/{evening}"
                    if kind == "poll":
                        path += "/rev"
                    elif kind == "revalidate" and etag:
                        hdrs["If-None-Match"] = etag
                    t = time.perf_counter()
                    status, _, h = call(port, "GET", path, headers=hdrs, timeout=30)
                    times[kind].append((time.perf_counter() - t) * 1000)
                    assert status in (200, 304), status
                    etag = h.get("ETag", etag)
                time.sleep(0.25)
            got = results.get()
            attacker.join()
            cpu = sum(cpu_s(p) for p in [server.pid, *descendants(server.pid)])
            every = [x for v in times.values() for x in v]
            for kind, v in times.items():
                print(f"  phone {kind:<11} n={len(v):4d}  p50 {pct(v, 50):6.1f} ms  "
                      f"p99 {pct(v, 99):6.1f} ms  max {max(v):6.1f} ms")  # fmt: skip
            replaced = (Path(tmp) / "reads.log").read_text(errors="replace").count(" replaced at ")
            print(f"phone reads p99 {pct(every, 99):.1f} ms  [≤ 200 ms]; the 12 hammering "
                  f"clients got {dict(sorted(got.items()))}; server CPU {cpu:.1f} s (workers and "
                  f"their render children, from the start); workers replaced: {replaced}; "
                  f"load {load_avg()}")  # fmt: skip
        finally:
            server.terminate()
            server.wait()
            log.close()


def hammer_all(port: int, heavy: list[str], stop: float,
               results: multiprocessing.Queue[dict[int, int]]) -> None:  # fmt: skip
    """12 threads fetching ``heavy`` as fast as they are answered until ``stop`` (time.time)."""
    got: dict[int, int] = {}
    lock = threading.Lock()

    def hammer(i: int) -> None:
        k = i
        while time.time() < stop:
            path = heavy[k % len(heavy)]
            k += 7
            try:
                status = call(port, "GET", path, headers={"Accept-Encoding": "gzip"},
                              timeout=60)[0]  # fmt: skip
            except OSError:
                status = 0
            with lock:
                got[status] = got.get(status, 0) + 1
            if status == 503:
                time.sleep(0.05)  # a client told to come back tries again soon

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put(got)


def pdf() -> None:
    from skatcalc import create_app
    from skatcalc.services import cache

    with tempfile.TemporaryDirectory() as tmp:
        data = big_export(Path(tmp))
        app = create_app({"DATABASE": str(Path(tmp) / "pdf.sqlite"), "SECRET_KEY": "bench"})
        c = app.test_client()
        sid = c.post("/api/v1/sheets/import", data=data,
                     headers={"Content-Type": "application/json"}).get_json()["id"]  # fmt: skip
        c.get(f"/sheets/{sid}/export.pdf")  # fpdf2 loaded, the sheet computed
        cache.PDFS.clear()
        cpu, t = time.process_time(), time.perf_counter()
        r = c.get(f"/sheets/{sid}/export.pdf")
        wall, cpu = time.perf_counter() - t, time.process_time() - cpu
        print(f"1,000-deal PDF ({len(r.data) / 1024:.0f} KiB), one render in this process: "
              f"{wall:.2f} s ({cpu:.2f} s CPU)  [≤ 2 s quiet]; load {load_avg()}")  # fmt: skip
        server, port = start_server(Path(tmp) / "pdf.sqlite", processes="1")
        try:
            started(port)
            # a server runs a while before its first PDF: its render child has warmed up
            kids = render_children(server.pid)
            settled(kids)
            call(port, "GET", f"/api/v1/sheets/{sid}")  # computed, so the PDF is all that is left
            kids = render_children(server.pid)
            before = sum(cpu_s(p) for p in kids)
            t = time.perf_counter()
            one = call(port, "GET", f"/sheets/{sid}/export.pdf?lang=en")
            single = time.perf_counter() - t
            child_cpu = sum(cpu_s(p) for p in kids) - before
            codes: list[int] = []
            t = time.perf_counter()
            threads = [threading.Thread(target=lambda: codes.append(
                call(port, "GET", f"/sheets/{sid}/export.pdf")[0])) for _ in range(8)]  # fmt: skip
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            together = time.perf_counter() - t
            assert one[0] == 200
            print(f"through serve: the first PDF {single:.2f} s (its render child: {len(kids)}, "
                  f"{child_cpu:.2f} s CPU)  [≤ 2 s quiet]; load {load_avg()}")  # fmt: skip
            print(f"8 identical requests at once "
                  f"{together:.2f} s in all, answers {sorted(codes)} (200: the render or its bytes; 503: "
                  "told to come back, beyond the waiting downloads or after 30 s)")  # fmt: skip
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "pdf"
    args = [int(a) for a in sys.argv[2:]]
    if what == "memory":
        memory(*(args + [100, 2][len(args) :]))
    elif what == "process":
        one_process(*(args + [6][len(args) :]))
    elif what == "reads":
        reads(*(args + [30, 2][len(args) :]))
    else:
        pdf()
