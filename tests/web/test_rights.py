"""Rights come from links (capabilities), never from the client's address: a sheet's edit link,
an event's organiser link, a group's link, the server's admin link (docs/api.md, "Rights")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import create_app, store
from skatcalc.server.cli import main
from skatcalc.store import migrations as schema
from tests.support import admin_token, free_port

SKAT = {"game": "skat", "players": ["Anna", "Bernd", "Carla"]}
GROUP = {"name": "Stammtisch", "game": "skat"}
EVENT = {"name": "Preisskat", "game": "skat"}
LOOPBACK = {"REMOTE_ADDR": "127.0.0.1"}
GROUP_REFUSED = "Ändern nur mit dem Link dieser Gruppe."
ROOT = Path(__file__).resolve().parents[2]


def new_group(client: FlaskClient, name: str = "Stammtisch") -> dict:
    resp = client.post("/api/v1/groups", json={**GROUP, "name": name})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- A group's link -----------------------------------------------------------------------------


def test_a_new_group_answers_its_token_once_and_no_cache_keeps_it(lan_app: Flask) -> None:
    client = lan_app.test_client()
    resp = client.post("/api/v1/groups", json=GROUP)
    group = resp.get_json()
    assert resp.status_code == 201 and len(group["edit_token"]) >= 20
    assert "no-store" in resp.headers["Cache-Control"]
    for path in (f"/api/v1/groups/{group['id']}", "/api/v1/groups"):
        assert group["edit_token"] not in client.get(path).get_data(as_text=True)


@pytest.mark.parametrize("kind", ["sheets", "events"])
def test_into_a_group_only_with_its_right(lan_app: Flask, kind: str) -> None:
    """``group`` on a new sheet or event comes with ``group_token`` in the same body, the group
    link's cookie or the admin right; else 403 and nothing is made. Loopback is no exception."""
    client = lan_app.test_client()
    group = new_group(client)
    body = {**(SKAT if kind == "sheets" else EVENT), "group": group["id"]}
    url = f"/api/v1/{kind}"

    def count() -> int:
        with lan_app.app_context():
            from skatcalc.services import sheets as service

            return int(service.get_db().execute(f"select count(*) from {kind}").fetchone()[0])

    before = count()
    for extra, headers in (({}, {}), ({"group_token": "wrong"}, {}), ({}, bearer("wrong"))):
        resp = client.post(url, json={**body, **extra}, headers=headers, environ_base=LOOPBACK)
        assert resp.status_code == 403, resp.get_json()
        assert resp.get_json() == {"errors": {"_": [GROUP_REFUSED]}}
    assert count() == before
    # the token in the body
    resp = client.post(url, json={**body, "group_token": group["edit_token"]})
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["group"] == group["id"]
    # the group link's cookie
    linked = lan_app.test_client()
    assert linked.get(f"/groups/{group['id']}/edit/{group['edit_token']}").status_code == 302
    assert linked.post(url, json=body).status_code == 201
    # the admin right, as Bearer and by the admin link's cookie
    assert client.post(url, json=body, headers=bearer(admin_token(lan_app))).status_code == 201
    admin = lan_app.test_client()
    admin.get(f"/admin/{admin_token(lan_app)}")
    assert admin.post(url, json=body).status_code == 201
    assert count() == before + 4


@pytest.mark.parametrize(
    ("extra", "status", "field"),
    [
        ({"group": 99, "group_token": "x"}, 422, "group"),  # an unknown group is told first
        ({"group": 1, "group_token": 5}, 422, "group_token"),
        ({"group": 1, "group_token": None}, 403, "_"),
        ({"group_token": "ignored without a group"}, 201, None),
    ],
)
def test_group_token_answers(lan_app: Flask, extra: dict, status: int, field: str | None) -> None:
    client = lan_app.test_client()
    new_group(client)
    resp = client.post("/api/v1/sheets", json={**SKAT, **extra})
    assert resp.status_code == status, resp.get_json()
    if field:
        assert list(resp.get_json()["errors"]) == [field]


def test_without_lan_everything_stays_allowed(client: FlaskClient) -> None:
    group = new_group(client)
    assert client.post("/api/v1/sheets", json={**SKAT, "group": group["id"]}).status_code == 201
    assert client.post("/api/v1/events", json={**EVENT, "group": group["id"]}).status_code == 201
    html = client.get(f"/groups/{group['id']}").get_data(as_text=True)
    assert "Gruppe verwalten" in html and group["edit_token"] not in html
    assert client.post("/players/1/rename", data={"name": "Anni"}).status_code == 302
    assert client.get("/admin").status_code == 200


def test_the_group_pages_need_the_group_link(lan_app: Flask) -> None:
    owner = lan_app.test_client()
    resp = owner.post("/groups", data={"name": "Hirsch", "game": "skat"})
    assert resp.status_code == 302
    assert re.search(r"group_1=[^;]+; .*HttpOnly", resp.headers["Set-Cookie"])
    page = owner.get("/groups/1")
    html = page.get_data(as_text=True)
    # the link to keep, with its QR code, in no cache
    assert "Gruppen-Link" in html and "Gut aufheben" in html and "/groups/1/edit/" in html
    assert "<svg" in html and "no-store" in page.headers["Cache-Control"]
    token = re.search(r"/groups/1/edit/([\w-]+)", html).group(1)  # type: ignore[union-attr]
    sheet = owner.post("/api/v1/sheets", json=SKAT).get_json()
    other = lan_app.test_client()
    html = other.get("/groups/1", environ_base=LOOPBACK).get_data(as_text=True)
    assert "Gruppe verwalten" not in html and token not in html
    for path in ("/groups/1/edit", "/groups/1/sheets", "/groups/1/sheets/1/remove"):
        resp = other.post(path, data={"name": "X", "sheet": "1"}, environ_base=LOOPBACK)
        assert resp.status_code == 403 and GROUP_REFUSED in resp.get_data(as_text=True)
    assert other.get("/groups/1/edit/wrong").status_code == 403
    assert other.get(f"/groups/1/edit/{token}").status_code == 302
    assert other.post("/groups/1/sheets", data={"sheet": "1"}).status_code == 403  # owner's sheet
    assert other.get(f"/sheets/1/edit/{sheet['edit_token']}").status_code == 302
    assert other.post("/groups/1/sheets", data={"sheet": "1"}).status_code == 302
    assert owner.get("/api/v1/sheets/1").get_json()["group"] == 1
    assert other.post("/groups/1/edit", data={"name": "Hirsch 2"}).status_code == 302
    assert owner.get("/api/v1/groups/1").get_json()["name"] == "Hirsch 2"


def test_the_forms_offer_only_groups_this_browser_may_change(lan_app: Flask) -> None:
    owner = lan_app.test_client()
    mine = new_group(owner, "Meine Runde")
    owner.get(f"/groups/{mine['id']}/edit/{mine['edit_token']}")
    theirs = new_group(lan_app.test_client(), "Fremde Runde")
    admin = lan_app.test_client()
    admin.get(f"/admin/{admin_token(lan_app)}")
    for page in ("/sheets", "/events"):
        html = owner.get(page).get_data(as_text=True)
        assert "Meine Runde" in html and "Fremde Runde" not in html
        assert "Fremde Runde" in admin.get(page).get_data(as_text=True)  # every right
    form = {"game": "skat", "p1": "A", "p2": "B", "p3": "C", "first_dealer": "1"}
    resp = owner.post("/sheets", data={**form, "group": str(theirs["id"])})
    assert resp.status_code == 403 and GROUP_REFUSED in resp.get_data(as_text=True)
    resp = owner.post("/events", data={"game": "skat", "name": "X", "group": str(theirs["id"])})
    assert resp.status_code == 422 and GROUP_REFUSED in resp.get_data(as_text=True)
    assert owner.get("/api/v1/sheets/1").status_code == 404
    assert owner.get("/api/v1/events").get_json()["events"] == []
    assert owner.post("/sheets", data={**form, "group": str(mine["id"])}).status_code == 302
    resp = owner.post("/events", data={"game": "skat", "name": "X", "group": str(mine["id"])})
    assert resp.status_code == 302


def test_old_groups_get_a_token_by_migration(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite")
    db = store.connect(path)
    schema.migrations.apply(db, stop_before="m012_rights_by_link")
    db.execute("insert into groups (name, game, rules, created) values ('Alt', 'skat', '{}', 'x')")
    schema.migrations.apply(db)
    ((token,),) = db.execute("select edit_token from groups").fetchall()
    ((admin,),) = db.execute("select value from settings where key = 'admin_token'").fetchall()
    db.close()
    assert len(token) >= 20 and len(admin) >= 30 and token != admin


# --- An event's organiser link ------------------------------------------------------------------


def test_the_organiser_link_is_shown_after_creation_and_speaks_of_the_event(
    lan_app: Flask,
) -> None:
    organiser = lan_app.test_client()
    resp = organiser.post("/events", data={"game": "skat", "name": "Preisskat"})
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/events/1/players")
    page = organiser.get("/events/1/players")
    html = page.get_data(as_text=True)
    assert "Organisator-Link" in html and "Gut aufheben" in html and "<svg" in html
    assert "no-store" in page.headers["Cache-Control"]
    link = re.search(r'href="(http://[^"]+/events/1/edit/[\w-]+)"', html).group(1)  # type: ignore[union-attr]
    assert "Organisator-Link" in organiser.get("/events/1").get_data(as_text=True)
    # Another browser, at the machine or not: 403 about the event, not about a sheet.
    other = lan_app.test_client()
    assert "Organisator-Link" not in other.get("/events/1").get_data(as_text=True)
    for method, path in (("get", "/events/1/players"), ("post", "/events/1/close"),
                         ("get", "/events/1/delete")):  # fmt: skip
        resp = getattr(other, method)(path, environ_base=LOOPBACK)
        text = resp.get_data(as_text=True)
        assert resp.status_code == 403
        assert "dieser Veranstaltung" in text and "Blatt" not in text
    resp = other.post("/api/v1/events/1/players", json={"names": ["Anna"]})
    assert resp.status_code == 403
    assert resp.get_json() == {
        "errors": {"_": ["Ändern nur mit dem Bearbeitungs-Link dieser Veranstaltung."]}
    }
    en = other.get("/events/1/players?lang=en").get_data(as_text=True)
    assert "this event" in en
    # The organiser link from the page lets the other browser in.
    assert other.get(link.split("localhost", 1)[-1]).status_code == 302
    assert other.get("/events/1/players").status_code == 200
    # So does the admin right.
    token = admin_token(lan_app)
    resp = lan_app.test_client().post(
        "/api/v1/events/1/players", json={"names": ["Anna"]}, headers=bearer(token)
    )
    assert resp.status_code == 200


def test_the_organiser_link_answers_once_by_the_api(lan_app: Flask) -> None:
    resp = lan_app.test_client().post("/api/v1/events", json=EVENT)
    assert resp.status_code == 201 and resp.get_json()["edit_token"]
    assert "no-store" in resp.headers["Cache-Control"]


# --- The server's admin link --------------------------------------------------------------------


def test_the_admin_page_lists_every_link_and_keeps_the_right_in_a_cookie(lan_app: Flask) -> None:
    maker = lan_app.test_client()
    sheet = maker.post("/api/v1/sheets", json=SKAT).get_json()
    event = maker.post("/api/v1/events", json=EVENT).get_json()
    group = new_group(maker)
    token = admin_token(lan_app)
    admin = lan_app.test_client()
    resp = admin.get(f"/admin/{token}", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "no-store" in resp.headers["Cache-Control"]
    cookie = resp.headers["Set-Cookie"]
    assert cookie.startswith(f"skatcalc_admin={token};") and "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    for found in (f"/sheets/{sheet['id']}/edit/{sheet['edit_token']}",
                  f"/sheets/{sheet['id']}/share/{sheet['share_token']}",
                  f"/events/{event['id']}/edit/{event['edit_token']}",
                  f"/groups/{group['id']}/edit/{group['edit_token']}"):  # fmt: skip
        assert found in html
    # The cookie holds the right: the page again, any sheet, any event.
    assert admin.get("/admin").status_code == 200
    deal = {"passed": True}
    assert admin.post(f"/api/v1/sheets/{sheet['id']}/deals", json=deal).status_code == 201
    assert admin.get(f"/events/{event['id']}/players").status_code == 200


def test_the_admin_token_as_bearer_grants_every_right(lan_app: Flask) -> None:
    client = lan_app.test_client()
    sheet = client.post("/api/v1/sheets", json=SKAT).get_json()
    deal = {"passed": True}
    url = f"/api/v1/sheets/{sheet['id']}/deals"
    assert client.post(url, json=deal, environ_base=LOOPBACK).status_code == 403
    assert client.post(url, json=deal, headers=bearer(admin_token(lan_app))).status_code == 201
    resp = client.get("/players/1", headers=bearer(admin_token(lan_app)))
    assert "Umbenennen" in resp.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/admin", "/admin/wrong", "/admin/%C3%A4", "/admin/" + "x" * 500])
def test_no_admin_page_without_the_admin_link(lan_app: Flask, path: str) -> None:
    resp = lan_app.test_client().get(path, environ_base=LOOPBACK)
    assert resp.status_code == 403
    assert "skatcalc_admin" not in resp.headers.get("Set-Cookie", "")


def test_admin_link_prints_the_link_of_this_database(tmp_path: Path) -> None:
    db = str(tmp_path / "a.sqlite")
    r = CliRunner().invoke(main, ["admin-link", "--db", db])
    assert r.exit_code == 0, r.output
    app = create_app({"DATABASE": db, "SECRET_KEY": "x"})
    assert r.output.strip() == f"http://127.0.0.1:5000/admin/{admin_token(app)}"
    again = CliRunner().invoke(main, ["admin-link", "--db", db, "--url", "https://skat.example/"])
    assert again.output.strip() == f"https://skat.example/admin/{admin_token(app)}"


def test_serve_prints_the_admin_link_and_admin_link_prints_it_again(tmp_path: Path) -> None:
    """Through the real ``skatcalc serve --lan`` on loopback: the printed link opens the admin
    page; loopback itself holds no right; ``skatcalc admin-link`` prints the same link."""
    port = free_port()
    db = str(tmp_path / "s.sqlite")
    proc = subprocess.Popen(
        [sys.executable, "-m", "skatcalc.server.cli", "serve", "--lan", "--host", "127.0.0.1",
         "--port", str(port), "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        link = None
        deadline = time.monotonic() + 30
        assert proc.stdout is not None
        while link is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, "serve ended before printing the admin link"
            m = re.search(r"Admin-Link.*?: (\S+/admin/\S+)", line)
            link = m.group(1) if m else None
        assert link is not None and link.startswith(f"http://127.0.0.1:{port}/admin/")
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/bids", timeout=5)
                break
            except OSError:
                time.sleep(0.1)
        with urllib.request.urlopen(link, timeout=10) as resp:
            assert resp.status == 200 and "skatcalc_admin=" in resp.headers["Set-Cookie"]
        base = f"http://127.0.0.1:{port}/api/v1"

        def post(path: str, body: bytes, headers: dict[str, str]) -> int:
            req = urllib.request.Request(f"{base}{path}", data=body, method="POST",
                                         headers={"Content-Type": "application/json", **headers})  # fmt: skip
            try:
                with urllib.request.urlopen(req, timeout=10) as r:
                    return int(r.status)
            except urllib.error.HTTPError as exc:
                return int(exc.code)

        assert post("/groups", b'{"name": "G", "game": "skat"}', {}) == 201
        sheet = b'{"game": "skat", "players": ["A", "B", "C"], "group": 1}'
        assert post("/sheets", sheet, {}) == 403  # from loopback, without the group's right
        assert post("/sheets", sheet, bearer(link.rsplit("/", 1)[1])) == 201
    finally:
        proc.terminate()
        proc.communicate(timeout=20)
    r = CliRunner().invoke(main, ["admin-link", "--db", db])
    assert r.exit_code == 0 and r.output.strip() == link
