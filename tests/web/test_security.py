"""CSRF, headers, cookies, escaping, formula injection, the secret key and edit rights."""

from __future__ import annotations

import gzip
import stat
from collections.abc import Callable
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from skatcalc import create_app

API = "/api/v1/sheets"


def test_form_post_without_csrf_token_is_refused(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    r = client.post("/sheets", data={"game": "skat", "p1": "A", "p2": "B", "p3": "C"})
    assert r.status_code == 400
    assert client.get("/api/v1/sheets/1").status_code == 404  # nothing created
    sid = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).get_json()["id"]
    for path in (f"/sheets/{sid}/deals", f"/sheets/{sid}/undo", f"/sheets/{sid}/rename",
                 f"/sheets/{sid}/delete", "/sheets/import"):  # fmt: skip
        assert client.post(path, data={"name": "x", "kind": "passed"}).status_code == 400, path
    assert client.get(f"{API}/{sid}").get_json()["deals"] == []


def test_form_post_with_csrf_token_works(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    page = client.get("/sheets").data.decode()
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    r = client.post("/sheets", data={"csrf_token": token, "game": "skat", "p1": "A", "p2": "B",
                                     "p3": "C", "first_dealer": "1"})  # fmt: skip
    assert r.status_code in (302, 303)


def test_security_headers_and_cookies(client: FlaskClient) -> None:
    r = client.get("/skat?lang=en")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"]
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert (
        client.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).headers[
            "X-Content-Type-Options"
        ]
        == "nosniff"
    )


def test_no_inline_script_in_pages(client: FlaskClient) -> None:
    sid = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).get_json()["id"]
    for path in ("/", "/skat", "/schafkopf", "/bids", "/sheets", f"/sheets/{sid}"):
        html = client.get(path).data.decode()
        assert "<script>" not in html and " onclick=" not in html and "style=" not in html


def test_markup_in_names_is_escaped(client: FlaskClient) -> None:
    evil = "<img src=x onerror=alert(1)>"
    r = client.post(API, json={"game": "skat", "players": [evil[:40], "B", "C"],
                               "first_dealer": "B", "name": "<b>x</b>"})  # fmt: skip
    sid = r.get_json()["id"]
    client.post(f"{API}/{sid}/deals", json={"game": "grand", "matadors": 1, "with": True,
                                            "declarer_points": 70, "declarer": evil[:40]})  # fmt: skip
    for path in (f"/sheets/{sid}", "/sheets", "/"):
        html = client.get(path).data.decode()
        assert "<img src=x" not in html and "<b>x</b>" not in html
        assert "&lt;img src=x" in html or path == "/"


def test_csv_neutralises_formulas_but_keeps_numbers(client: FlaskClient) -> None:
    r = client.post(API, json={"game": "skat", "players": ["=SUM(A1)", "+B", "@C"],
                               "first_dealer": "+B"})  # fmt: skip
    sid = r.get_json()["id"]
    client.post(f"{API}/{sid}/deals", json={"game": "grand", "matadors": 1, "with": True,
                                            "declarer_points": 40, "declarer": "@C"})  # fmt: skip
    text = client.get(f"/sheets/{sid}/export.csv").data.decode("utf-8-sig")
    assert "'=SUM(A1)" in text and "'+B" in text and "'@C" in text
    assert ";-96;" in text or ";-96\r" in text  # a negative number stays a number


def test_secret_key_is_generated_beside_the_database(tmp_path: Path) -> None:
    app = create_app({"DATABASE": str(tmp_path / "x.sqlite"), "TESTING": True})
    key_file = tmp_path / "secret_key"
    assert app.config["SECRET_KEY"] and key_file.exists()
    assert key_file.read_text().strip() == app.config["SECRET_KEY"]
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    again = create_app({"DATABASE": str(tmp_path / "x.sqlite"), "TESTING": True})
    assert again.config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_gzip_for_browsers(client: FlaskClient) -> None:
    r = client.get("/bids", headers={"Accept-Encoding": "gzip, deflate"})
    assert r.headers["Content-Encoding"] == "gzip"
    assert b"264" in gzip.decompress(r.data)
    assert "Content-Encoding" not in client.get("/bids").headers


def lan_app(fresh_db: Callable[[str], str]) -> Flask:
    return create_app({"TESTING": True, "DATABASE": fresh_db("lan.sqlite"),
                       "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, "LAN": True})  # fmt: skip


def test_on_the_network_only_edit_token_holders_change_a_sheet(
    fresh_db: Callable[[str], str],
) -> None:
    app = lan_app(fresh_db)
    owner = app.test_client()
    r = owner.post(API, json={"game": "skat", "players": ["A", "B", "C"]})
    sheet = r.get_json()
    sid, token = sheet["id"], sheet["edit_token"]
    deal = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 70, "declarer": "B"}
    stranger = app.test_client()
    assert stranger.post(f"{API}/{sid}/deals", json=deal).status_code == 403
    assert stranger.put(f"{API}/{sid}/deals/1", json=deal).status_code == 403
    assert stranger.delete(f"{API}/{sid}/deals/1").status_code == 403
    assert stranger.post(f"/sheets/{sid}/deals", data={"kind": "passed"}).status_code == 403
    assert stranger.post(f"/sheets/{sid}/delete").status_code == 403
    assert stranger.get(f"{API}/{sid}").status_code == 200  # reading is fine
    page = stranger.get(f"/sheets/{sid}").data.decode()
    assert f'action="/sheets/{sid}/deals"' not in page and token not in page
    auth = {"Authorization": f"Bearer {token}"}
    assert stranger.post(f"{API}/{sid}/deals", json=deal, headers=auth).status_code == 201
    assert stranger.get(f"/sheets/{sid}/edit/wrong").status_code == 403
    assert stranger.get(f"/sheets/{sid}/edit/{token}").status_code in (302, 303)
    assert stranger.post(f"/sheets/{sid}/deals", data={"kind": "passed"}).status_code in (302, 303)
    assert len(stranger.get(f"{API}/{sid}").get_json()["deals"]) == 2


def test_share_link_is_read_only(client: FlaskClient) -> None:
    r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]})
    sheet = r.get_json()
    html = client.get(f"/sheets/{sheet['id']}/share/{sheet['share_token']}").data.decode()
    assert "<form" not in html.split("</header>")[1]
    assert client.get(f"/sheets/{sheet['id']}/share/nope").status_code == 404
