"""``skatcalc serve --behind-proxy`` through a real nginx, configured as docs/operations.md
shows: each client is its own address, https as the proxy says (Secure cookies, HSTS, links);
without the flag, forwarded headers change nothing. Request bodies are capped before they are
read, and the largest export the app can make goes back in, directly and through nginx."""

from __future__ import annotations

import io
import json
import re
import select
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from skatcalc.web.http import BODY_MAX, IMPORT_BODY_MAX
from tests.support import (
    NGINX,
    PROXIED_SERVE,
    Served,
    largest_export_for_run,
    serve,
    serve_behind_nginx,
)

API = "/api/v1/sheets"
SHEET = {"game": "skat", "players": ["Anna", "Bernd", "Clara"]}


def test_each_client_behind_the_proxy_is_itself_and_https(behind_nginx: Served) -> None:
    r = behind_nginx.call("POST", API, json_body=SHEET, client="127.0.0.2")
    assert r.status == 201, r.body
    sheet = r.json()
    assert r.headers["Strict-Transport-Security"] == "max-age=31536000"
    # the edit link's cookie, over the https nginx speaks to the phone
    r = behind_nginx.call("GET", f"/sheets/{sheet['id']}/edit/{sheet['edit_token']}",
                          client="127.0.0.2")  # fmt: skip
    assert r.status in (302, 303)
    edit = [c for c in r.cookies() if c.startswith(f"edit_{sheet['id']}=")]
    assert edit and "Secure" in edit[0] and "HttpOnly" in edit[0], r.cookies()
    assert r.headers["Location"].startswith(("/", "https://skat.example.org/"))
    assert r.headers["Strict-Transport-Security"] == "max-age=31536000"
    # links and QR codes name the site as the proxy forwards it, never 127.0.0.1:port
    cookie = edit[0].split(";", 1)[0]
    # (headers nginx passes on from the client unchanged are not believed)
    passed_on = {"Cookie": cookie, "X-Forwarded-Port": "6666", "Forwarded": "host=evil.example"}
    page = behind_nginx.call("GET", f"/sheets/{sheet['id']}", client="127.0.0.2",
                             headers=passed_on).body.decode()  # fmt: skip
    share = f"https://skat.example.org/sheets/{sheet['id']}/share/{sheet['share_token']}"
    assert share in page
    assert f"127.0.0.1:{behind_nginx.app_port}" not in page
    assert ":6666" not in page and "evil.example" not in page
    # two addresses, two write limits (120 a minute with --lan): fill one, the other writes
    codes: list[int] = []
    while 429 not in codes and len(codes) < 300:  # two a second come back meanwhile
        codes.append(behind_nginx.call("POST", API, json_body={}, client="127.0.0.2").status)
    # 120 a minute: the sheet made above and at least 119 more before the refusal
    assert codes[-1] == 429 and len(codes) >= 120 and set(codes[:-1]) == {422}, codes
    assert behind_nginx.call("POST", API, json_body=SHEET, client="127.0.0.3").status == 201


def test_the_organisers_link_behind_the_proxy_sets_a_secure_cookie(behind_nginx: Served) -> None:
    r = behind_nginx.call("POST", "/api/v1/events", json_body={"name": "Preisskat", "game": "skat"},
                          client="127.0.0.4")  # fmt: skip
    assert r.status == 201, r.body
    event = r.json()
    r = behind_nginx.call("GET", f"/events/{event['id']}/edit/{event['edit_token']}",
                          client="127.0.0.4")  # fmt: skip
    assert r.status in (302, 303)
    key = [c for c in r.cookies() if c.startswith(f"event_{event['id']}=")]
    assert key and "Secure" in key[0] and "HttpOnly" in key[0], r.cookies()


def test_without_behind_proxy_forwarded_headers_change_nothing(tmp_path: Path) -> None:
    forged = {
        "X-Forwarded-For": "203.0.113.9",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "evil.example",
        "Forwarded": "for=203.0.113.9;proto=https",
    }
    with serve(tmp_path / "direct.sqlite", "--lan", "--host", "127.0.0.1", "--hsts",
               "--write-limit", "3") as server:  # fmt: skip
        r = server.call("POST", API, json_body=SHEET, headers=forged)
        assert r.status == 201
        assert "Strict-Transport-Security" not in r.headers  # not https: it was plain http
        sheet = r.json()
        r = server.call("GET", f"/sheets/{sheet['id']}/edit/{sheet['edit_token']}",
                        headers=forged)  # fmt: skip
        assert r.cookies() and not any("Secure" in c for c in r.cookies())
        cookie = {"Cookie": r.cookies()[0].split(";", 1)[0]}
        page = server.call("GET", f"/sheets/{sheet['id']}",
                           headers={**forged, **cookie}).body.decode()  # fmt: skip
        assert "evil.example" not in page
        assert f"http://127.0.0.1:{server.port}/sheets/{sheet['id']}/share/" in page
        # a new forged address per request is still the one client it is
        codes = [server.call("POST", API, json_body={}, client="127.0.0.2",
                             headers={**forged, "X-Forwarded-For": f"198.51.100.{i}"}).status
                 for i in range(4)]  # fmt: skip
        assert codes == [422, 422, 422, 429]


def _refused_before_read(port: int, path: str, size: int) -> tuple[str, float]:
    """Announce ``size`` bytes, send only the header: the answer comes without the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        t0 = time.monotonic()
        s.sendall(
            f"POST {path} HTTP/1.1\r\nHost: skat.example.org\r\n"
            f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n".encode()
        )
        s.settimeout(10)
        head = s.recv(4096).decode("latin-1")
        return head.split("\r\n", 1)[0], time.monotonic() - t0


def test_bodies_are_capped_before_they_are_read(tmp_path: Path) -> None:
    with serve(tmp_path / "cap.sqlite", "--lan", "--host", "127.0.0.1") as server:
        # 100 MB announced: refused from the header, nothing read (no body was sent at all)
        for path in (f"{API}/import", "/sheets/import", API, "/api/v1/skat/value"):
            status, took = _refused_before_read(server.port, path, 100_000_000)
            assert " 413 " in status, (path, status)
            assert took < 5
        # every route but the import: 1 MiB
        status, _ = _refused_before_read(server.port, API, BODY_MAX + 1)
        assert " 413 " in status
        r = server.call("POST", API, data=b" " * (BODY_MAX - 2) + b"{}",
                        headers={"Content-Type": "application/json"})  # fmt: skip
        assert r.status == 422  # within the cap: read, and refused as a sheet
        status, _ = _refused_before_read(server.port, f"{API}/import", IMPORT_BODY_MAX + 1)
        assert " 413 " in status
        # a chunked body is cut off as soon as it passes the cap
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(f"POST {API} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                      "application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())  # fmt: skip
            chunk = b"%x\r\n%s\r\n" % (64 * 1024, b" " * 64 * 1024)
            sent, answer = 0, b""
            while not answer and sent < 16 * BODY_MAX:
                try:
                    s.sendall(chunk)
                    sent += 64 * 1024
                except OSError:
                    break  # closed after its answer
                if select.select([s], [], [], 0.01)[0]:
                    answer = s.recv(4096)
            if not answer:
                s.settimeout(10)
                answer = s.recv(4096)
            assert b" 413 " in answer.split(b"\r\n", 1)[0]
            assert sent < 8 * BODY_MAX  # stopped long before it all went


@pytest.fixture(scope="module")
def largest(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return largest_export_for_run(tmp_path_factory)


def test_the_largest_export_fits_the_import_cap(largest: bytes) -> None:
    assert BODY_MAX < len(largest) < IMPORT_BODY_MAX * 0.8  # the cap keeps its margin
    # the figure docs/operations.md gives (to a tenth of a MiB: a new key in the export moves
    # the byte count, not what the docs promise)
    doc = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    assert f"measures {len(largest) / 2**20:.1f} MiB" in doc
    assert f"client_max_body_size {IMPORT_BODY_MAX // 2**20}m;" in doc
    assert f"client_max_body_size {BODY_MAX // 2**20}m;" in doc
    api = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    assert f"{IMPORT_BODY_MAX // 2**20} MiB" in api


def _import_and_compare(server: Served, data: bytes) -> None:
    r = server.call("POST", f"{API}/import", data=data, timeout=120,
                    headers={"Content-Type": "application/json"})  # fmt: skip
    assert r.status == 201, r.body[:300]
    new = r.json()
    assert len(new["deals"]) == 1000
    old = json.loads(data)
    assert new["totals"] == old["totals"]


def test_the_largest_export_imports_through_serve_and_nginx(largest: bytes,
                                                             behind_nginx: Served) -> None:  # fmt: skip
    with serve(behind_nginx.db.parent / "direct.sqlite", "--lan", "--host", "127.0.0.1") as s:
        _import_and_compare(s, largest)
    _import_and_compare(behind_nginx, largest)
    # nginx refuses above the same cap, from the header
    status, _ = _refused_before_read(behind_nginx.port, f"{API}/import", IMPORT_BODY_MAX + 1)
    assert " 413 " in status
    # and every other route at 1 MiB, nginx as skatcalc behind it
    r = behind_nginx.call("POST", API, data=b" " * (BODY_MAX + 1),
                          headers={"Content-Type": "application/json"})  # fmt: skip
    assert r.status == 413


def test_previews_have_a_limit_per_client(tmp_path: Path) -> None:
    with serve(tmp_path / "pre.sqlite", "--lan", "--host", "127.0.0.1",
               "--preview-limit", "5") as server:  # fmt: skip
        sheet = server.call("POST", API, json_body=SHEET).json()
        path = f"{API}/{sheet['id']}/preview"
        codes = [server.call("POST", path, json_body={"passed": True}, client="127.0.0.2").status
                 for _ in range(6)]  # fmt: skip
        assert codes == [200] * 5 + [429]
        r = server.call("POST", path, json_body={"passed": True}, client="127.0.0.2")
        assert r.status == 429 and int(r.headers["Retry-After"]) >= 1
        assert r.json()["errors"]["_"]
        # another client previews; the limited one still writes (its own write bucket)
        assert server.call("POST", path, json_body={"passed": True},
                           client="127.0.0.3").status == 200  # fmt: skip
        r = server.call("POST", f"{API}/{sheet['id']}/deals", json_body={"passed": True},
                        client="127.0.0.2",
                        headers={"Authorization": f"Bearer {sheet['edit_token']}"})  # fmt: skip
        assert r.status == 201
        # the calculators only calculate: not limited
        calc = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 70}
        assert all(server.call("POST", "/api/v1/skat/value", json_body=calc,
                               client="127.0.0.2").status == 200 for _ in range(8))  # fmt: skip


def test_the_documented_nginx_block_is_what_the_test_runs() -> None:
    from tests.support import documented_nginx_server

    text = documented_nginx_server(8443, 5001)
    assert "listen 127.0.0.1:8443;" in text and "proxy_pass http://127.0.0.1:5001;" in text
    for line in ("proxy_set_header X-Forwarded-For $remote_addr;",
                 "proxy_set_header X-Forwarded-Proto https;",
                 "proxy_set_header Host $host;"):  # fmt: skip
        assert line in text
    assert re.search(r"client_max_body_size \d+m;", text)


def test_behind_the_proxy_with_processes(tmp_path: Path) -> None:
    """Every worker of ``--processes`` takes https and the client from the proxy."""
    if not Path(NGINX).exists():
        pytest.skip("Debian's nginx is not installed (apt-get install nginx; CI installs it)")
    with serve_behind_nginx(tmp_path, *PROXIED_SERVE, "--processes", "2") as server:
        for i in range(4):  # new connections: the kernel spreads them over both workers
            r = server.call("POST", API, json_body=SHEET, client=f"127.0.0.{2 + i}")
            assert r.status == 201
            assert r.headers["Strict-Transport-Security"] == "max-age=31536000"
            sheet = r.json()
            r = server.call("GET", f"/sheets/{sheet['id']}/edit/{sheet['edit_token']}")
            assert r.cookies() and all("Secure" in c for c in r.cookies())


def _upload(client: FlaskClient, data: bytes) -> int:
    """The page's import form with ``data`` as its file (multipart built here, in memory)."""
    from werkzeug.datastructures import FileStorage
    from werkzeug.test import encode_multipart

    boundary, body = encode_multipart({"file": FileStorage(io.BytesIO(data), "export.json")})
    r = client.post("/sheets/import", data=body,
                    content_type=f"multipart/form-data; boundary={boundary}")  # fmt: skip
    return r.status_code


def test_the_largest_export_imports_through_the_page(largest: bytes, client: FlaskClient) -> None:
    assert _upload(client, largest) in (302, 303)
    # above the cap: refused, by the app too (under another WSGI server than waitress)
    big = largest + b" " * (IMPORT_BODY_MAX - len(largest) + 1)
    assert _upload(client, big) == 413
    r = client.post(f"{API}/import", data=big, content_type="application/json")
    assert r.status_code == 413 and "16 MiB" in r.get_json()["errors"]["_"][0]


def _cookie(answer: Any, name: str) -> str:
    """``name=value`` of the cookie an answer sets."""
    found = [c.split(";", 1)[0] for c in answer.cookies() if c.startswith(f"{name}=")]
    assert found, (name, answer.cookies())
    return found[0]


def test_behind_the_proxy_rights_come_from_links_not_from_loopback(behind_nginx: Served) -> None:
    """Every visitor arrives at skatcalc from nginx's 127.0.0.1: that address grants nothing.
    Renaming a player, changing a group and putting a sheet into it need the links; the admin
    link that ``serve`` printed grants all of it, through the proxy as well."""
    site = "https://skat.example.org"
    made = behind_nginx.call("POST", API, json_body={**SHEET, "players": ["Anna", "Bernd",
                                                                         "Clara"]},
                             client="127.0.0.2")  # fmt: skip
    assert made.status == 201
    group = behind_nginx.call("POST", "/api/v1/groups", json_body={"name": "Club",
                                                                   "game": "skat"},
                              client="127.0.0.2")  # fmt: skip
    assert group.status == 201, group.body
    gid, group_token = group.json()["id"], group.json()["edit_token"]
    players = behind_nginx.call("GET", "/api/v1/players", client="127.0.0.3").json()["players"]
    anna = next(p["id"] for p in players if p["name"] == "Anna")

    def form_post(path: str, fields: dict[str, str], cookies: list[str]) -> Any:
        """A page form sent as a browser sends it: the session's CSRF token, over https with
        the site as Referer."""
        page = behind_nginx.call("GET", "/sheets", client="127.0.0.3",
                                 headers={"Cookie": "; ".join(cookies)})  # fmt: skip
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.body.decode())
        assert token is not None
        jar = [*cookies, _cookie(page, "session")]
        body = "&".join(f"{k}={v}" for k, v in {**fields, "csrf_token": token.group(1)}.items())
        return behind_nginx.call("POST", path, data=body.encode(), client="127.0.0.3",
                                 headers={"Cookie": "; ".join(jar), "Referer": f"{site}/sheets",
                                          "Content-Type":
                                          "application/x-www-form-urlencoded"})  # fmt: skip

    # a visitor (through the proxy, so from 127.0.0.1 as skatcalc sees it): refused
    assert form_post(f"/players/{anna}/rename", {"name": "Anne"}, []).status == 403
    assert form_post(f"/groups/{gid}/edit", {"name": "Mine now"}, []).status == 403
    into = {**SHEET, "group": gid}
    r = behind_nginx.call("POST", API, json_body=into, client="127.0.0.3")
    assert r.status == 403 and r.json()["errors"]["_"], r.body
    # the group's own link puts a sheet into it
    r = behind_nginx.call("POST", API, json_body={**into, "group_token": group_token},
                          client="127.0.0.3")  # fmt: skip
    assert r.status == 201

    # the admin link serve printed at start, opened through the proxy
    printed = re.search(r"Admin-Link.*?: (\S+/admin/\S+)", behind_nginx.output())
    assert printed is not None, behind_nginx.output()
    path = "/admin/" + printed.group(1).rsplit("/admin/", 1)[1]
    opened = behind_nginx.call("GET", path, client="127.0.0.3")
    assert opened.status == 200
    assert "no-store" in opened.headers["Cache-Control"]
    admin = _cookie(opened, "skatcalc_admin")
    assert "Secure" in next(c for c in opened.cookies() if c.startswith("skatcalc_admin="))
    r = form_post(f"/players/{anna}/rename", {"name": "Anne"}, [admin])
    assert r.status in (302, 303), r.body[:300]
    names = [p["name"] for p in behind_nginx.call("GET", "/api/v1/players").json()["players"]]
    assert "Anne" in names and "Anna" not in names
    assert form_post(f"/groups/{gid}/edit", {"name": "Club 2027", "rank_by": "seeger_fabian"},
                     [admin]).status in (302, 303)  # fmt: skip
    assert behind_nginx.call("GET", f"/api/v1/groups/{gid}").json()["name"] == "Club 2027"
    token = path.rsplit("/", 1)[1]
    r = behind_nginx.call("POST", API, json_body=into, client="127.0.0.3",
                          headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert r.status == 201, r.body


def test_imports_have_a_budget_per_client_and_hour(tmp_path: Path) -> None:
    with serve(tmp_path / "imp.sqlite", "--lan", "--host", "127.0.0.1",
               "--import-limit", "2") as server:  # fmt: skip
        sheet = server.call("POST", API, json_body=SHEET, client="127.0.0.2").json()
        export = server.call("GET", f"{API}/{sheet['id']}/export.json").body
        hdrs = {"Content-Type": "application/json"}
        codes = [server.call("POST", f"{API}/import", data=export, headers=hdrs,
                             client="127.0.0.2").status for _ in range(3)]  # fmt: skip
        assert codes == [201, 201, 429]
        r = server.call("POST", f"{API}/import", data=export, headers=hdrs, client="127.0.0.2")
        assert r.status == 429 and int(r.headers["Retry-After"]) > 60  # an hour's budget
        assert "Import" in r.json()["errors"]["_"][0]
        # the page's import form is the same budget
        r = server.call("POST", "/sheets/import", data=b"", client="127.0.0.2",
                        headers={"Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        assert r.status == 429
        # another client imports; the limited one still writes everything else
        r = server.call("POST", f"{API}/import", data=export, headers=hdrs, client="127.0.0.3")
        assert r.status == 201
        assert server.call("POST", API, json_body=SHEET, client="127.0.0.2").status == 201
    # --lan alone: 20 an hour
    with serve(tmp_path / "imp20.sqlite", "--lan", "--host", "127.0.0.1") as server:
        sheet = server.call("POST", API, json_body=SHEET).json()
        export = server.call("GET", f"{API}/{sheet['id']}/export.json").body
        codes = [server.call("POST", f"{API}/import", data=export,
                             headers={"Content-Type": "application/json"}).status
                 for _ in range(21)]  # fmt: skip
        assert codes == [201] * 20 + [429]


def test_unknown_query_arguments_share_one_kept_page_through_serve(tmp_path: Path) -> None:
    """A random ``?x=`` per request is the page already kept, not a render of its own: the
    same tag, and the answers come as fast as kept pages do."""
    with serve(tmp_path / "q.sqlite", "--lan", "--host", "127.0.0.1") as server:
        sheet = server.call("POST", API, json_body=SHEET).json()
        path = f"/sheets/{sheet['id']}/share/{sheet['share_token']}"
        tag = server.call("GET", path).headers["ETag"]
        for i in range(20):
            r = server.call("GET", f"{path}?x={i}&utm_source=qr{i}")
            assert r.status == 200 and r.headers["ETag"] == tag
            assert f"qr{i}" not in r.body.decode()
