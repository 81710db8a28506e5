"""A bounded load run through the real server: 20 clients for 20 s, 90 % reads and 10 % adds.

Starts ``python -m skatcalc.server.cli serve`` on a free loopback port with a fresh database, sets up
ten three-player Skat sheets of 48 deals (the evening's length) and then lets 20 keep-alive
clients, each like a phone at one of the tables, read (90 %) or add a deal through the API
(10 %) as fast as the server answers (closed loop: a client sends its next request when the
last answer is in).

A read is what the sheet page in a phone's browser asks for (``static/app.js``), in equal
parts: the revision poll (``/sheets/<id>/rev``), a reload that revalidates the page it has
(``If-None-Match``: 304 while nothing changed, else the new page) and a full load (no tag,
as a phone opening the link). All accept gzip, as browsers do. Printed: requests/s, p50/p99
per kind and of all reads (issue target: reads p99 ≤ 100 ms on a 2-core machine), the CPU
the server and this load generator used, the server's resident size and the load average.

The load generator is one thread with non-blocking sockets (no HTTP library, bodies are not
decompressed), so it leaves the CPU to the server; its own CPU time is printed.

    PYTHONPATH=. python bench/load.py [clients] [seconds] [threads] [processes]

``processes`` is passed to ``serve --processes`` (default 1, one process). With more, the
server's CPU and resident size are the parent's and all its workers' together (resident size
also per worker).
"""

from __future__ import annotations

import json
import os
import random
import selectors
import socket
import sys
import tempfile
import time
from pathlib import Path

from club_night import Http, cpu_s, pct, rss_mb, server_pids, start_server

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from common import DEALS  # noqa: E402

SHEETS = 10
DEALS_BEFORE = 48
PLAYERS = ["Anna", "Bernd", "Carla"]
READS = ("poll", "revalidate", "full load")


def deal(k: int) -> dict[str, object]:
    body = dict(DEALS[k % len(DEALS)])
    if "passed" not in body:
        body["declarer"] = PLAYERS[k % 3]  # at three everybody plays every deal
    return body


class Conn:
    """One keep-alive connection of one phone, driven by the event loop below."""

    def __init__(self, port: int, rng: random.Random) -> None:
        self.port = port
        self.sock = self.connect()
        self.reconnects = 0
        self.rng = rng
        self.buf = b""
        self.kind = ""
        self.sheet = 0
        self.started = 0.0
        self.etags: dict[int, str] = {}

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        return sock

    def send(self, kind: str, sheet: int, raw: bytes) -> None:
        self.kind, self.sheet, self.buf = kind, sheet, b""
        self.started = time.perf_counter()
        self.sock.sendall(raw)  # a small request: the socket buffer takes it at once

    def answer(self) -> tuple[int, dict[str, str]] | None:
        """(status, headers) once the whole answer is in, else None."""
        end = self.buf.find(b"\r\n\r\n")
        if end < 0:
            return None
        head = self.buf[:end].decode("latin-1").split("\r\n")
        headers = {}
        for line in head[1:]:
            k, _, v = line.partition(":")
            headers[k.strip().lower()] = v.strip()
        length = int(headers.get("content-length", "0"))
        if len(self.buf) < end + 4 + length:
            return None
        self.buf = self.buf[end + 4 + length :]
        return int(head[0].split()[1]), headers


def request(method: str, path: str, headers: dict[str, str] | None = None,
            body: bytes = b"") -> bytes:  # fmt: skip
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept-Encoding: gzip, deflate"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if body or method == "POST":
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def main() -> int:
    clients = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    threads = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != "-" else None
    processes = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    tmp = tempfile.mkdtemp(prefix="skatcalc-load-")
    server, port = start_server(Path(tmp) / "load.sqlite", threads=threads,
                                processes=str(processes))  # fmt: skip
    try:
        api = Http(port)
        sheets = []
        for s in range(SHEETS):
            sid = api.json("POST", "/api/v1/sheets", {"game": "skat", "players": PLAYERS})["id"]
            for k in range(DEALS_BEFORE):
                api.json("POST", f"/api/v1/sheets/{sid}/deals", deal(k + s))
            sheets.append(sid)
        api.conn.close()

        times: dict[str, list[float]] = {k: [] for k in (*READS, "add")}
        errors: list[str] = []
        sel = selectors.DefaultSelector()

        def next_request(c: Conn) -> None:
            sid = c.rng.choice(sheets)
            if c.rng.random() >= 0.9:
                body = json.dumps(deal(c.rng.randrange(600))).encode()
                c.send("add", sid, request("POST", f"/api/v1/sheets/{sid}/deals", body=body))
                return
            kind = c.rng.choice(READS)
            if kind == "poll":
                c.send(kind, sid, request("GET", f"/sheets/{sid}/rev"))
            elif kind == "revalidate" and sid in c.etags:
                raw = request("GET", f"/sheets/{sid}", {"If-None-Match": c.etags[sid]})
                c.send(kind, sid, raw)
            else:
                c.send("full load", sid, request("GET", f"/sheets/{sid}"))

        conns = [Conn(port, random.Random(k)) for k in range(clients)]
        pids = server_pids(server.pid)
        start_cpu = [cpu_s(p) for p in pids]
        server_cpu, own_cpu = sum(start_cpu), time.process_time()
        started = time.perf_counter()
        stop = started + seconds
        for c in conns:
            sel.register(c.sock, selectors.EVENT_READ, c)
            next_request(c)
        open_conns = len(conns)
        while open_conns:
            for key, _ev in sel.select(timeout=30):
                c = key.data
                try:
                    chunk = c.sock.recv(1 << 20)
                except ConnectionResetError:
                    chunk = b""
                if not chunk:
                    raise RuntimeError(
                        f"the server closed a connection during {c.kind} "
                        f"(sheet {c.sheet}) after {len(c.buf)} bytes: {c.buf[:300]!r}; {getattr(c, 'last', None)}"
                    )
                c.buf += chunk
                got = c.answer()
                if got is None:
                    continue
                now = time.perf_counter()
                status, headers = got
                c.last = (c.kind, status, headers)
                if headers.get("connection", "").lower() == "close":
                    # The server closes after this answer: a browser opens a new connection
                    # for its next request, and so does this phone (counted).
                    sel.unregister(c.sock)
                    c.sock.close()
                    c.sock = c.connect()
                    c.reconnects += 1
                    sel.register(c.sock, selectors.EVENT_READ, c)
                times[c.kind].append((now - c.started) * 1000)
                if c.kind != "add" and c.kind != "poll" and "etag" in headers:
                    c.etags[c.sheet] = headers["etag"]
                if status >= 400 and status != 503:  # 503 = "come back", counted apart
                    errors.append(f"{status} {c.kind} sheet {c.sheet}")
                if now < stop:
                    next_request(c)
                else:
                    sel.unregister(c.sock)
                    c.sock.close()
                    open_conns -= 1
        elapsed = time.perf_counter() - started
        if server_pids(server.pid) != pids:
            errors.append("a server process was replaced during the run (CPU not comparable)")
        each_cpu = [cpu_s(p) - c for p, c in zip(pids, start_cpu, strict=True)]
        server_cpu = sum(map(cpu_s, pids)) - server_cpu
        own_cpu = time.process_time() - own_cpu
        load1, load5, _l15 = os.getloadavg()
        reads = [t for k in READS for t in times[k]]
        total = len(reads) + len(times["add"])
        print(f"load: {clients} keep-alive clients, {elapsed:.1f} s, 90 % reads (revision poll, "
              f"revalidating reload, full load of a {DEALS_BEFORE}+-deal sheet page, gzip "
              f"accepted), 10 % adds through the API, {SHEETS} sheets, server threads "
              f"{threads or 'default'}, server processes {processes}")  # fmt: skip
        print(f"  requests/s {total / elapsed:8.1f}   ({total} requests, {len(errors)} errors)")
        for name, values in [*((k, times[k]) for k in READS), ("ALL reads", reads),
                             ("deal add (API POST)", times["add"])]:  # fmt: skip
            print(f"  {name:<22} n={len(values):>6}  p50 {pct(values, 50):6.1f} ms  "
                  f"p99 {pct(values, 99):6.1f} ms  max {max(values, default=0):6.1f} ms")  # fmt: skip
        reconnects = sum(c.reconnects for c in conns)
        print(f"  connections the server closed (a new one opened): {reconnects}")
        print(f"  CPU: server {server_cpu:.1f} s, this load generator {own_cpu:.1f} s "
              f"({100 * own_cpu / elapsed:.0f} % of one core) in {elapsed:.1f} s")  # fmt: skip
        if len(pids) > 1:  # how evenly the workers shared the connections
            print("  CPU per worker: " + ", ".join(f"{c:.1f} s" for c in each_cpu[1:]))
        # What a shared machine's other work moves least: the server's CPU per answer.
        print(f"  server CPU per request: {1000 * server_cpu / max(1, total):.2f} ms")
        sizes = [rss_mb(p) for p in pids]
        each = ", ".join(f"{m:.0f}" for m in sizes[1:])
        print(f"  server resident size after the run: {sum(sizes):.0f} MB"
              + (f" (parent {sizes[0]:.0f} MB, workers {each} MB)" if each else ""))  # fmt: skip
        print(f"  machine load average at the end: {load1:.1f} (1 min), {load5:.1f} (5 min) "
              f"on {os.cpu_count()} cores")  # fmt: skip
        ok = pct(reads, 99) <= 100
        print(f"  target reads p99 ≤ 100 ms: {'met' if ok else 'MISSED'}")
        for e in errors[:5]:
            print("  error:", e)
        return 0
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    raise SystemExit(main())
