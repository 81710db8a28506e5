"""What a phone downloads for the sheet page of a 48-deal evening: the page, its stylesheet and
its script, each as ``skatcalc serve`` sends it to a browser that accepts gzip (the bytes on the
wire, headers aside), and what a returning phone asks again (the static files are cached for a
year under their content's hash: nothing).

Run: python bench/page_weight.py   (prints KiB; the target, at most 22 KiB, in brackets;
tests/system/test_page_weight.py holds it). Starts ``skatcalc serve`` on a free loopback port.
"""

from __future__ import annotations

import gzip
import http.client
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import DEALS, PLAYERS

ROOT = Path(__file__).resolve().parents[1]
LIMIT_KIB = 22
DEALS_ON_SHEET = 48


def _call(port: int, method: str, path: str, body: bytes | None = None,
          headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def _json(port: int, path: str, body: object) -> dict[str, object]:
    import json

    status, _, data = _call(port, "POST", path, json.dumps(body).encode(),
                            {"Content-Type": "application/json"})  # fmt: skip
    if status >= 300:
        raise RuntimeError(f"{path}: {status} {data[:200]!r}")
    out: dict[str, object] = json.loads(data)
    return out


def seed(port: int) -> int:
    """A four-player Skat evening of 48 deals through the API: the sheet's id."""
    sheet = _json(port, "/api/v1/sheets", {"game": "skat", "players": PLAYERS,
                                           "first_dealer": "Anna"})  # fmt: skip
    sid = int(str(sheet["id"]))
    for k in range(DEALS_ON_SHEET):
        body = dict(DEALS[k % len(DEALS)])
        for j in range(len(PLAYERS)):  # the first seat that plays this deal declares
            if "passed" not in body:
                body["declarer"] = PLAYERS[(k + j) % len(PLAYERS)]
            try:
                _json(port, f"/api/v1/sheets/{sid}/deals", body)
                break
            except RuntimeError:
                continue
    return sid


def measure(port: int, sid: int) -> dict[str, int]:
    """Bytes on the wire of the page and of each stylesheet and script it links."""
    gz = {"Accept-Encoding": "gzip"}
    status, hdrs, page = _call(port, "GET", f"/sheets/{sid}", headers=gz)
    if status != 200:
        raise RuntimeError(f"sheet page: {status}")
    html = gzip.decompress(page) if hdrs.get("content-encoding") == "gzip" else page
    sizes = {"page": len(page)}
    links = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', html.decode("utf-8"))
    for url in links:
        status, _, body = _call(port, "GET", url, headers=gz)
        if status != 200:
            raise RuntimeError(f"{url}: {status}")
        sizes[url] = len(body)
    return sizes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [sys.executable, "-m", "skatcalc.server.cli", "serve", "--port", str(port),
             "--db", str(Path(tmp) / "weight.sqlite")],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    _call(port, "GET", "/api/v1/sheets/0")
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            sizes = measure(port, seed(port))
        finally:
            proc.terminate()
            proc.wait(timeout=15)
    for what, n in sizes.items():
        print(f"{what:40} {n / 1024:6.1f} KiB")
    total = sum(sizes.values())
    print(f"{'first visit (page + CSS + JS)':40} {total / 1024:6.1f} KiB  [<= {LIMIT_KIB}]")
    print(f"{'returning phone (the page only)':40} {sizes['page'] / 1024:6.1f} KiB")


if __name__ == "__main__":
    main()
