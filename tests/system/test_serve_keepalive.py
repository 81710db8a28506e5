"""The server `skatcalc serve` runs keeps a phone's connection open after a 304, as after a 200."""

from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path

from skatcalc import create_app
from skatcalc.server.prefork import keep_alive_server


def test_a_304_keeps_the_connection(tmp_path: Path) -> None:
    app = create_app({"DATABASE": str(tmp_path / "k.sqlite"), "SECRET_KEY": "k"})
    server = keep_alive_server(app, host="127.0.0.1", port=0, threads=2)
    stop = threading.Event()

    def run() -> None:  # server.run() until told to stop, so the test ends it cleanly
        while not stop.is_set():
            server.asyncore.loop(timeout=0.05, map=server._map, count=1)  # type: ignore[attr-defined]

    loop = threading.Thread(target=run, daemon=True)
    loop.start()
    try:
        port = server.effective_port  # type: ignore[attr-defined]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("POST", "/api/v1/sheets", body='{"game": "skat", "players": ["A", "B", "C"]}',
                     headers={"Content-Type": "application/json"})  # fmt: skip
        r = conn.getresponse()
        sid = json.loads(r.read())["id"]
        conn.request("GET", f"/sheets/{sid}")
        r = conn.getresponse()
        r.read()
        etag = r.getheader("ETag")
        assert r.status == 200 and etag
        sock = conn.sock
        # a browser sends its session back (the page's tag is bound to it)
        cookie = (r.getheader("Set-Cookie") or "").split(";")[0]
        conn.request("GET", f"/sheets/{sid}", headers={"If-None-Match": etag, "Cookie": cookie})
        r = conn.getresponse()
        assert r.status == 304 and r.read() == b""
        assert r.getheader("Connection") is None and not r.will_close
        conn.request("GET", f"/sheets/{sid}/rev")  # the same connection carries on
        r = conn.getresponse()
        assert r.status == 200 and b"rev" in r.read()
        assert conn.sock is sock
        conn.request("GET", f"/sheets/{sid}", headers={"If-None-Match": etag, "Cookie": cookie,
                                                        "Connection": "close"})  # fmt: skip
        r = conn.getresponse()
        assert r.status == 304 and r.will_close  # asked to close: closed
        conn.close()
    finally:
        stop.set()
        loop.join(10)
        server.task_dispatcher.shutdown()  # type: ignore[attr-defined]
        server.asyncore.close_all(server._map)  # type: ignore[attr-defined]  # its connections too
