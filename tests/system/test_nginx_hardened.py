"""The documented nginx (docs/operations.md: its lines of ``nginx.conf`` and the site, word for
word) holds when one host opens thousands of connections that never send a header: a normal
client is still answered. The port-80 redirect names the site for any ``Host``, and the
access log holds no link's key."""

from __future__ import annotations

import http.client
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import NGINX, PROXIED_HOST, PROXIED_SERVE, Served, nginx_in_front, serve

API = "/api/v1/sheets"
SHEET = {"game": "skat", "players": ["Anna", "Bernd", "Clara"]}
HALF_OPEN = 3000
NORMAL = 200


@pytest.fixture(scope="module")
def hardened(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path, int]]:
    if not Path(NGINX).exists():
        pytest.skip("Debian's nginx is not installed (apt-get install nginx; CI installs it)")
    tmp = tmp_path_factory.mktemp("hardened")
    with serve(tmp / "hardened.sqlite", *PROXIED_SERVE) as app:
        with nginx_in_front(tmp / "nginx", app.port) as nginx:
            served = Served(nginx.port, PROXIED_HOST, app.db, app.port)
            yield served, nginx.folder, nginx.redirect_port


def _half_open(port: int, n: int) -> list[socket.socket]:
    """``n`` connections from 127.0.0.2 that never finish: half send nothing (as a client
    stuck in its TLS handshake), half a request header without its end."""
    held = []
    for i in range(n):
        s = socket.socket()
        s.bind(("127.0.0.2", 0))
        s.connect(("127.0.0.1", port))
        if i % 2:
            s.sendall(b"GET / HTTP/1.1\r\nHost: skat.example.org\r\nX-Slow: 1\r\n")
        held.append(s)
    return held


def _still_open(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1) != b""  # pragma: no cover - nothing is ever sent to them
    except BlockingIOError:
        return True
    except OSError:
        return False


def test_a_client_is_answered_while_another_host_holds_3000_half_open(
    hardened: tuple[Served, Path, int],
) -> None:
    served, _, _ = hardened
    sheet = served.call("POST", API, json_body=SHEET, client="127.0.0.3").json()
    paths = [f"{API}/{sheet['id']}", f"/sheets/{sheet['id']}", f"/sheets/{sheet['id']}/rev"]
    t0 = time.monotonic()
    held = _half_open(served.port, HALF_OPEN)
    try:
        opened = time.monotonic() - t0
        answered, took = 0, []
        for i in range(NORMAL):
            start = time.monotonic()
            try:
                r = served.call("GET", paths[i % len(paths)], timeout=5)
                answered += r.status == 200
            except (OSError, http.client.HTTPException):
                pass
            took.append(time.monotonic() - start)
        # the attacker's connections were held all along (none refused or closed early)
        still = sum(_still_open(s) for s in held)
    finally:
        for s in held:
            s.close()
    assert answered >= NORMAL * 0.99, (answered, sorted(took)[-5:])
    assert still >= HALF_OPEN * 0.99, (still, opened)


def test_the_redirect_names_the_site_whatever_the_host(hardened: tuple[Served, Path, int]) -> None:
    _, _, redirect_port = hardened
    for host in ("evil.example", PROXIED_HOST, "127.0.0.1"):
        conn = http.client.HTTPConnection("127.0.0.1", redirect_port, timeout=10)
        conn.request("GET", "/sheets/1?lang=en", headers={"Host": host})
        r = conn.getresponse()
        r.read()
        conn.close()
        assert r.status == 301
        assert r.headers["Location"] == f"https://{PROXIED_HOST}/sheets/1?lang=en", host


def test_the_access_log_holds_no_key(hardened: tuple[Served, Path, int]) -> None:
    served, folder, redirect_port = hardened
    sheet = served.call("POST", API, json_body=SHEET, client="127.0.0.4").json()
    event = served.call("POST", "/api/v1/events", json_body={"name": "Preisskat", "game": "skat"},
                        client="127.0.0.4").json()  # fmt: skip
    sid, eid = sheet["id"], event["id"]
    keys = {
        f"/sheets/{sid}/edit/{sheet['edit_token']}": sheet["edit_token"],
        f"/sheets/{sid}/share/{sheet['share_token']}?lang=en": sheet["share_token"],
        f"/events/{eid}/edit/{event['edit_token']}": event["edit_token"],
        "/admin/not-the-admin-key": "not-the-admin-key",
        "/groups/7/edit/no-group-key/x": "no-group-key",
    }
    for path in keys:
        assert served.call("GET", path, client="127.0.0.4").status < 500
    conn = http.client.HTTPConnection("127.0.0.1", redirect_port, timeout=10)
    conn.request("GET", f"/sheets/{sid}/edit/{sheet['edit_token']}", headers={"Host": "x"})
    conn.getresponse().read()
    conn.close()
    time.sleep(0.2)  # nginx writes its log line after the answer
    log = (folder / "skatcalc.log").read_text()
    assert log.count(f"/sheets/{sid}/edit/***") == 2, log
    assert f"/sheets/{sid}/share/***?lang=en" in log and f"/events/{eid}/edit/***" in log
    assert "/admin/***" in log and "/groups/7/edit/***/x" in log
    for key in keys.values():
        assert key not in log
