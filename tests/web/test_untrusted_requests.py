"""Issue 12: each finding of the attack run, as a regression test (numbers as in the issue)."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import create_app, store
from skatcalc.server.cli import main as cli
from skatcalc.services import cache
from skatcalc.store import migrations as schema
from skatcalc.store import sheets as sheet_store

API = "/api/v1/sheets"
GRAND = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 70, "declarer": "B"}


def new_sheet(client: FlaskClient, **headers: str) -> dict[str, Any]:
    r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]}, headers=headers)
    assert r.status_code == 201, r.data
    return r.get_json()  # type: ignore[no-any-return]


def lan_app(fresh_db: Callable[[str], str], **extra: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE": fresh_db("lan.sqlite"),
                       "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, "LAN": True, **extra})  # fmt: skip


def raw_json(client: FlaskClient, method: str, path: str, text: str, **kw: Any) -> Any:
    return client.open(path, method=method, data=text.encode("utf-8", "surrogatepass"),
                       content_type="application/json", **kw)  # fmt: skip


# --- 1. No 5xx on bad input -------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/sheets/9223372036854775808",
        "/api/v1/sheets/99999999999999999999999",
        "/sheets/9223372036854775808",
        "/sheets/1/deals/9223372036854775808/edit",
        "/api/v1/sheets/1/export.json",
    ],
)
def test_huge_ids_are_not_found(client: FlaskClient, path: str) -> None:
    new_sheet(client)
    r = client.get(path)
    assert r.status_code in (200, 404), (path, r.status_code)
    r = client.put("/api/v1/sheets/1/deals/9223372036854775808", json=GRAND)
    assert r.status_code == 404 and r.get_json()["errors"]["_"]


def test_non_ascii_tokens(fresh_db: Callable[[str], str]) -> None:
    app = lan_app(fresh_db)
    c = app.test_client()
    sheet = new_sheet(c)
    sid = sheet["id"]
    assert c.get(f"/sheets/{sid}/share/%C3%A4").status_code == 404
    assert c.get(f"/sheets/{sid}/edit/%C3%A4").status_code == 403
    r = c.post(f"{API}/{sid}/deals", json=GRAND, headers={"Authorization": "Bearer ä"})
    assert r.status_code == 403
    c.set_cookie(f"edit_{sid}", "ä€")
    assert c.post(f"{API}/{sid}/deals", json=GRAND).status_code == 403
    assert c.get(f"/sheets/{sid}").status_code == 200


@pytest.mark.parametrize(
    "text",
    [
        '{"game":"grand","\\ud800":1}',
        '{"game":"\\udfff"}',
        '{"game":"skat","players":["\\ud800","B","C"]}',
        '{"game":"skat","players":["A","B","C"],"name":"x\\ud83d"}',
        '{"game":"grand","matadors":NaN}',
        '{"game":"grand","matadors":1e400}',
        '{"game":"grand","matadors":-Infinity}',
    ],
)
def test_lone_surrogates_and_non_numbers_are_refused(client: FlaskClient, text: str) -> None:
    sid = new_sheet(client)["id"]
    for method, path in (("POST", "/api/v1/skat/value"), ("POST", API),
                         ("POST", f"{API}/{sid}/deals"), ("PUT", f"{API}/{sid}/deals/1"),
                         ("POST", f"{API}/import")):  # fmt: skip
        r = raw_json(client, method, path, text)
        assert r.status_code in (404, 422), (path, r.status_code, r.data[:200])
        assert r.get_json()["errors"]


@pytest.mark.parametrize("body", ["5", "[1, 2]", '"text"', "null", "true", '{"name": "\\ud800"}'])
@pytest.mark.parametrize("csrf", [False, True])
def test_form_routes_refuse_json_bodies(
    fresh_db: Callable[[str], str], body: str, csrf: bool
) -> None:
    app = create_app({"TESTING": True, "DATABASE": fresh_db("f.sqlite"),
                      "SECRET_KEY": "x", "WTF_CSRF_ENABLED": csrf})  # fmt: skip
    c = app.test_client()
    sid = new_sheet(c)["id"]
    headers = {}
    if csrf:
        page = c.get("/sheets").data.decode()
        headers["X-CSRFToken"] = page.split('name="csrf_token" type="hidden" value="')[1].split(
            '"'
        )[0]
    for path in ("/sheets", f"/sheets/{sid}/rename", f"/sheets/{sid}/undo", "/sheets/import",
                 f"/sheets/{sid}/deals", f"/sheets/{sid}/deals/1/edit"):  # fmt: skip
        r = raw_json(c, "POST", path, body, headers=headers)
        assert r.status_code in (400, 404, 415), (path, r.status_code)
    assert c.get(f"{API}/{sid}").get_json()["name"] != "\ud800"


# --- 2. Import never stores what breaks the sheet later ---------------------------------------


def exported(client: FlaskClient) -> dict[str, Any]:
    sid = new_sheet(client)["id"]
    client.post(f"{API}/{sid}/deals", json=GRAND)
    return client.get(f"{API}/{sid}/export.json").get_json()  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "history",
    [
        {"at": "0001-01-01T00:00:00+05:00", "action": "add", "n": 1, "before": None},
        {"at": "9999-12-31T23:59:59-05:00", "action": "add", "n": 1, "before": None},
        {"at": "gestern", "action": "add", "n": 1, "before": None},
        {"at": "2026-01-01T20:00:00+01:00", "action": "add", "n": 2**63, "before": None},
        {"at": "2026-01-01T20:00:00+01:00", "action": "add", "n": True, "before": None},
        {"at": "2026-01-01T20:00:00+01:00", "action": "add", "n": 0, "before": None},
    ],
)
def test_import_refuses_history_that_would_break_the_sheet(
    client: FlaskClient, history: dict[str, Any]
) -> None:
    data = exported(client)
    data["history"] = [history]
    count = len(client.get("/sheets").data)
    r = client.post(f"{API}/import", json=data)
    assert r.status_code == 422, r.data
    assert r.get_json()["errors"]["history"]
    assert len(client.get("/sheets").data) == count


def test_import_with_nan_in_history_is_refused_and_never_sends_nan(client: FlaskClient) -> None:
    data = exported(client)
    text = json.dumps(data)[:-1] + ', "history": [{"at": "2026-01-01T20:00:00+01:00", ' \
        '"action": "correct", "n": 1, "before": {"x": NaN}}]}'  # fmt: skip
    r = raw_json(client, "POST", f"{API}/import", text)
    assert r.status_code == 422


def test_imported_history_times_are_normalised_and_the_page_renders(client: FlaskClient) -> None:
    data = exported(client)
    data["history"] = [{"at": "2026-01-01T20:00:00+05:00", "action": "add", "n": 1}]
    r = client.post(f"{API}/import", json=data)
    assert r.status_code == 201
    sid = r.get_json()["id"]
    assert client.get(f"/sheets/{sid}").status_code == 200
    assert r.get_json()["history"][0]["at"] == "2026-01-01T15:00:00+00:00"


# --- 3. Restore takes JSON only ---------------------------------------------------------------


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"data": b"x", "content_type": "text/plain"},
        {"data": {"a": "1"}},
        {"data": {"f": (io.BytesIO(b"{}"), "x.json")}, "content_type": "multipart/form-data"},
    ],
)
def test_restore_needs_json(client: FlaskClient, kw: dict[str, Any]) -> None:
    sid = new_sheet(client)["id"]
    client.post(f"{API}/{sid}/deals", json=GRAND)
    client.delete(f"{API}/{sid}/deals/1")
    r = client.post(f"{API}/{sid}/deals/1/restore", **kw)
    assert r.status_code == 415
    assert client.get(f"{API}/{sid}").get_json()["deals"][0]["struck"] is True
    r = client.post(f"{API}/{sid}/deals/1/restore", json={})
    assert r.status_code == 200 and r.get_json()["deals"][0]["struck"] is False


# --- 4. The Host header is checked ------------------------------------------------------------


def test_loopback_answers_only_loopback_hosts(client: FlaskClient) -> None:
    for host in ("localhost", "127.0.0.1", "[::1]", "localhost:5000", "127.0.0.1:8080",
                 "[::1]:5000"):  # fmt: skip
        assert client.get("/bids", headers={"Host": host}).status_code == 200, host
    for host in ("rebind.example", "rebind.example:5000", "127.0.0.1.nip.io", "", "10.0.0.5"):
        r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]},
                        headers={"Host": host})  # fmt: skip
        assert r.status_code == 400, host
        assert client.get("/sheets", headers={"Host": host}).status_code == 400
    assert client.get(f"{API}/1").status_code == 404  # nothing was created


def test_share_link_uses_a_trusted_host_only(fresh_db: Callable[[str], str]) -> None:
    app = create_app({"TESTING": True, "DATABASE": fresh_db("t.sqlite"), "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "ALLOWED_HOSTS": ["skat.example.org"]})  # fmt: skip
    c = app.test_client()
    assert c.get("/bids").status_code == 400  # localhost is not in the list any more
    h = {"Host": "skat.example.org"}
    sid = new_sheet(c, **h)["id"]
    page = c.get(f"/sheets/{sid}", headers=h).data.decode()
    assert "http://skat.example.org/sheets/" in page
    assert c.get(f"/sheets/{sid}", headers={"Host": "evil.example"}).status_code == 400


def test_lan_answers_ip_addresses_but_not_foreign_names(fresh_db: Callable[[str], str]) -> None:
    c = lan_app(fresh_db).test_client()
    assert c.get("/bids", headers={"Host": "192.168.1.20:5000"}).status_code == 200
    assert c.get("/bids", headers={"Host": "[fe80::1]:5000"}).status_code == 200
    assert c.get("/bids", headers={"Host": "rebind.example"}).status_code == 400


# --- Behind a TLS proxy -----------------------------------------------------------------------


def test_behind_a_tls_proxy(fresh_db: Callable[[str], str]) -> None:
    app = lan_app(fresh_db, PROXY_COUNT=1, ALLOWED_HOSTS=["skat.example.org"], HSTS_SECONDS=600)
    c = app.test_client()
    proxied = {"Host": "skat.example.org", "X-Forwarded-Proto": "https",
               "X-Forwarded-For": "203.0.113.7"}  # fmt: skip
    r = c.post("/sheets", data={"game": "skat", "p1": "A", "p2": "B", "p3": "C",
                                "first_dealer": "1"}, headers=proxied)  # fmt: skip
    assert r.status_code in (302, 303)
    assert r.headers["Location"].startswith(("/", "https://"))
    for cookie in r.headers.getlist("Set-Cookie"):
        assert "Secure" in cookie and "HttpOnly" in cookie, cookie
    assert r.headers["Strict-Transport-Security"] == "max-age=600"
    # plain http (no proxy header): no HSTS, no Secure flag
    r = c.get("/skat?lang=en", headers={"Host": "skat.example.org"})
    assert "Strict-Transport-Security" not in r.headers
    assert "Secure" not in r.headers.get("Set-Cookie", "")


def test_write_limit_per_client(fresh_db: Callable[[str], str]) -> None:
    app = lan_app(fresh_db, WRITE_LIMIT=5)
    c = app.test_client()
    me = {"REMOTE_ADDR": "10.0.0.1"}
    body = {"game": "skat", "players": ["A", "B", "C"]}
    codes = [c.post(API, json=body, environ_base=me).status_code for _ in range(7)]
    assert codes[:5] == [201] * 5 and codes[5:] == [429, 429]
    r = c.post(API, json=body, environ_base=me)
    assert int(r.headers["Retry-After"]) >= 1 and r.get_json()["errors"]["_"]
    assert c.get(f"{API}/6").status_code == 404  # refused writes stored nothing
    assert c.post(API, json=body, environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 201
    assert c.get("/bids", environ_base=me).status_code == 200  # reading goes on
    # the calculators only calculate: the live preview is never limited
    calc = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 70}
    assert c.post("/api/v1/skat/value", json=calc, environ_base=me).status_code == 200
    sid = c.post(API, json=body, environ_base={"REMOTE_ADDR": "10.0.0.3"}).get_json()["id"]
    r = c.post(f"{API}/{sid}/preview", json={"passed": True}, environ_base=me)
    assert r.status_code == 200


# --- 8. If-Match is a bare number -------------------------------------------------------------


@pytest.mark.parametrize("header", ['W/"1"', "1, 1", "abc", '"1"', "1.0", "", "+1", "١"])
def test_if_match_that_is_not_a_bare_number_changes_nothing(
    client: FlaskClient, header: str
) -> None:
    sid = new_sheet(client)["id"]
    client.post(f"{API}/{sid}/deals", json=GRAND)
    r = client.put(f"{API}/{sid}/deals/1", json={**GRAND, "declarer_points": 20},
                   headers={"If-Match": header})  # fmt: skip
    assert r.status_code in (409, 412), header
    assert r.get_json()["errors"]["_"] and r.get_json()["current"]["version"] == 1
    assert client.get(f"{API}/{sid}").get_json()["deals"][0]["input"]["declarer_points"] == 70


def test_if_match_bare_number_and_star(client: FlaskClient) -> None:
    sid = new_sheet(client)["id"]
    client.post(f"{API}/{sid}/deals", json=GRAND)
    # each a real change (a correction that changes nothing makes no new version)
    for points, header in ((71, "1"), (72, " 2 "), (73, "*")):
        r = client.put(f"{API}/{sid}/deals/1", json={**GRAND, "declarer_points": points},
                       headers={"If-Match": header})  # fmt: skip
        assert r.status_code == 200, header
    r = client.put(f"{API}/{sid}/deals/1", json=GRAND, headers={"If-Match": str(2**70)})
    assert r.status_code == 409


# --- 9. Idempotency keys are bound to their body ----------------------------------------------


def test_idempotency_key_with_another_body_is_refused(client: FlaskClient) -> None:
    sid = new_sheet(client)["id"]
    h = {"Idempotency-Key": "k-1"}
    assert client.post(f"{API}/{sid}/deals", json=GRAND, headers=h).status_code == 201
    again = client.post(f"{API}/{sid}/deals", json=dict(reversed(GRAND.items())), headers=h)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    other = client.post(f"{API}/{sid}/deals", json={**GRAND, "declarer_points": 80}, headers=h)
    assert other.status_code == 422 and other.get_json()["errors"]["_"]
    assert len(client.get(f"{API}/{sid}").get_json()["deals"]) == 1
    # the same key on another sheet is another save
    sid2 = new_sheet(client)["id"]
    assert client.post(f"{API}/{sid2}/deals", json=GRAND, headers=h).status_code == 201


def test_changed_form_under_a_used_key_comes_back(client: FlaskClient) -> None:
    sid = new_sheet(client)["id"]
    form = {"kind": "game", "declarer": "B", "game": "grand", "with": "true", "matadors": "1",
            "declarer_points": "70", "bid": "18", "idem": "form-key-1"}  # fmt: skip
    assert client.post(f"/sheets/{sid}/deals", data=form).status_code in (302, 303)
    r = client.post(f"/sheets/{sid}/deals", data={**form, "declarer_points": "80"})
    assert r.status_code == 409
    page = r.data.decode()
    assert "schon als Spiel 1 gespeichert" in page and 'value="80"' in page
    assert 'name="idem" value="form-key-1"' not in page  # a new key for the new save
    assert len(client.get(f"{API}/{sid}").get_json()["deals"]) == 1


# --- 10. An imported sheet is editable by whoever imported it ---------------------------------


def test_lan_import_through_the_page_sets_the_edit_cookie(fresh_db: Callable[[str], str]) -> None:
    app = lan_app(fresh_db)
    owner = app.test_client()
    data = exported(owner)
    r = owner.post("/sheets/import", data={"file": (io.BytesIO(json.dumps(data).encode()),
                                                    "evening.json")},
                   content_type="multipart/form-data")  # fmt: skip
    assert r.status_code in (302, 303)
    sid = int(r.headers["Location"].rstrip("/").split("/")[-1])
    assert any(c.startswith(f"edit_{sid}=") for c in r.headers.getlist("Set-Cookie"))
    page = owner.get(f"/sheets/{sid}").data.decode()
    assert f"/sheets/{sid}/edit/" in page  # the edit link is shown
    assert owner.post(f"/sheets/{sid}/deals", data={"kind": "passed"}).status_code in (302, 303)


# --- 11. Sheet ids are never reused -----------------------------------------------------------


def test_sheet_ids_are_never_reused(client: FlaskClient) -> None:
    new_sheet(client)
    second = new_sheet(client)["id"]
    client.post(f"/sheets/{second}/delete")
    assert client.get(f"{API}/{second}").status_code == 404
    third = new_sheet(client)["id"]
    assert third > second
    # a retried save for the deleted sheet does not land in the new one
    assert client.post(f"{API}/{second}/deals", json=GRAND).status_code == 404
    assert client.get(f"{API}/{third}").get_json()["deals"] == []


def test_autoincrement_migration_keeps_old_data_and_foreign_keys(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite")
    db = store.connect(path)
    upto = [m.name for m in schema.migrations._migrations].index("m009_sheet_ids_never_reused")
    schema.migrations.apply(db, stop_before="m009_sheet_ids_never_reused")
    assert upto > 0
    old = sheet_store.create_sheet(db, "Alt", "skat", ["A", "B", "C"], "A", {"ramsch": False})
    sheet_store.add_deal(db, old.id, "A", ["B", "C", "A"], {"passed": True})
    gone = sheet_store.create_sheet(db, "Weg", "skat", ["A", "B", "C"], "A", {})
    with db.atomic():  # as the code of that time deleted a sheet
        db.execute("delete from history where sheet_id = ?", [gone.id])
        db.execute("delete from sheets where id = ?", [gone.id])
    db.close()
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "x"})
    c = app.test_client()
    s = c.get(f"{API}/{old.id}").get_json()
    assert s["name"] == "Alt" and len(s["deals"]) == 1 and s["history"]
    con = sqlite3.connect(path)
    try:
        sql = con.execute("select sql from sqlite_master where name = 'sheets'").fetchone()[0]
        assert "AUTOINCREMENT" in sql.upper()
        assert con.execute("pragma foreign_key_check").fetchall() == []
        assert con.execute("pragma integrity_check").fetchone() == ("ok",)
        fks = con.execute("pragma foreign_key_list(deals)").fetchall()
        assert any(fk[2] == "sheets" for fk in fks)
    finally:
        con.close()
    fresh = new_sheet(c)["id"]
    assert fresh > old.id


# --- 12. Small ones ---------------------------------------------------------------------------


def test_bearer_is_case_insensitive(fresh_db: Callable[[str], str]) -> None:
    c = lan_app(fresh_db).test_client()
    sheet = new_sheet(c)
    for scheme in ("bearer", "BEARER", "Bearer"):
        r = c.post(f"{API}/{sheet['id']}/deals", json={"passed": True},
                   headers={"Authorization": f"{scheme} {sheet['edit_token']}"})  # fmt: skip
        assert r.status_code == 201, scheme
    r = c.post(f"{API}/{sheet['id']}/deals", json={"passed": True},
               headers={"Authorization": f"Basic {sheet['edit_token']}"})  # fmt: skip
    assert r.status_code == 403


def test_page_with_the_edit_link_is_not_stored(fresh_db: Callable[[str], str]) -> None:
    c = lan_app(fresh_db).test_client()
    sheet = new_sheet(c)
    c.get(f"/sheets/{sheet['id']}/edit/{sheet['edit_token']}")
    r = c.get(f"/sheets/{sheet['id']}")
    assert sheet["edit_token"] in r.data.decode()
    assert "no-store" in r.headers["Cache-Control"]


def test_lan_with_host_binds_what_was_asked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr("waitress.serve", lambda app, **kw: seen.update(kw))
    db = str(tmp_path / "h.sqlite")
    r = CliRunner().invoke(cli, ["serve", "--lan", "--host", "127.0.0.1", "--db", db])
    assert r.exit_code == 0, r.output
    assert seen["host"] == "127.0.0.1"
    r = CliRunner().invoke(cli, ["serve", "--lan", "--db", db])
    assert seen["host"] == "0.0.0.0"
    r = CliRunner().invoke(cli, ["serve", "--db", db])
    assert seen["host"] == "127.0.0.1"
    assert seen["connection_limit"] >= 500 and seen["channel_timeout"] <= 60


# --- 6. The list of sheets and big PDFs -------------------------------------------------------


def test_sheet_list_computes_each_sheet_once_per_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skatcalc.services import sheets as service
    from skatcalc.web import sheets

    path = str(tmp_path / "list.sqlite")
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False})  # fmt: skip
    c = app.test_client()
    ids = [new_sheet(c)["id"] for _ in range(12)]
    for sid in ids[:3]:
        for _ in range(5):
            c.post(f"{API}/{sid}/deals", json={"passed": True})
    calls: list[int] = []
    real = service.computed_sheet

    def counting(db: Any, sheet: service.Sheet, lang: str) -> Any:
        calls.append(sheet.id)
        return real(db, sheet, lang)

    monkeypatch.setattr(sheets.service, "computed_sheet", counting)
    cache.SUMMARIES.clear()
    assert c.get("/sheets").status_code == 200
    assert sorted(calls) == sorted(ids)
    calls.clear()
    page = c.get("/sheets").data.decode()
    assert calls == [] and len(re.findall(r'class="n"[^>]*>5<', page)) == 3  # counts, cached
    c.post(f"{API}/{ids[0]}/deals", json={"passed": True})
    calls.clear()  # (the API's answer is the computed sheet)
    c.get("/sheets")
    assert calls == [ids[0]]  # only the sheet that changed
    calls.clear()
    cache.SUMMARIES.clear()  # a restart: the summaries table is what is left
    restarted = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "x"})
    assert restarted.test_client().get("/sheets").status_code == 200
    assert calls == []
    assert c.post(f"/sheets/{ids[1]}/delete").status_code in (302, 303)  # its summary goes too
    assert c.get("/sheets").status_code == 200


def test_pdf_is_rendered_once_per_revision_and_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading
    import time

    from skatcalc import exports
    from skatcalc.exports import pdf

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "pdf.sqlite"),
                      "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False})  # fmt: skip
    c = app.test_client()
    ids = [new_sheet(c)["id"] for _ in range(4)]
    real = pdf.render_pdf
    running: list[int] = []
    peak: list[int] = [0]
    renders: list[int] = []
    lock = threading.Lock()

    def slow(sheet: dict[str, Any], rules: list[str], lang: str, rows: Any,
             tlist: Any = None) -> bytes:  # fmt: skip
        with lock:
            running.append(1)
            peak[0] = max(peak[0], len(running))
            renders.append(sheet["id"])
        time.sleep(0.15)
        with lock:
            running.pop()
        return real(sheet, rules, lang, rows)

    monkeypatch.setattr(pdf, "render_pdf", slow)
    assert c.get(f"/sheets/{ids[0]}/export.pdf").data[:4] == b"%PDF"
    assert c.get(f"{API}/{ids[0]}/export.pdf").data[:4] == b"%PDF"
    assert renders == [ids[0]]  # the same revision: the same bytes, not rendered again
    c.post(f"{API}/{ids[0]}/deals", json={"passed": True})
    c.get(f"/sheets/{ids[0]}/export.pdf")
    assert renders == [ids[0], ids[0]]
    codes: list[int] = []
    threads = [threading.Thread(target=lambda sid=sid: codes.append(
        app.test_client().get(f"/sheets/{sid}/export.pdf").status_code)) for sid in ids * 2]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes == [200] * 8 and peak[0] == 1
    assert sorted(renders[2:]) == sorted(ids[1:])  # each sheet once; the rest waited for it
    # no turn within the wait: told to come back, not left hanging
    monkeypatch.setattr(exports, "PDF_WAIT", 0.01)
    assert exports.PDF_RENDERS.acquire()
    try:
        c.post(f"{API}/{ids[1]}/deals", json={"passed": True})
        r = c.get(f"/sheets/{ids[1]}/export.pdf")
        assert r.status_code == 503 and int(r.headers["Retry-After"]) >= 1
        r = c.get(f"{API}/{ids[1]}/export.pdf")
        assert r.status_code == 503 and r.get_json()["errors"]["_"]
    finally:
        exports.PDF_RENDERS.release()


def test_pdf_downloads_waiting_for_their_turn_are_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each waiting download holds a server thread: beyond ``PDF_WAITERS`` waiting at once, a
    download is told to come back at once, so a flood of them leaves threads to the reads."""
    import threading
    import time

    from skatcalc import exports

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "pdfw.sqlite"),
                      "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False,
                      "PDF_WAITERS": 1})  # fmt: skip
    c = app.test_client()
    ids = [new_sheet(c)["id"] for _ in range(3)]
    codes: list[int] = []
    assert exports.PDF_RENDERS.acquire()  # a render in progress
    try:
        waiter = threading.Thread(target=lambda: codes.append(
            app.test_client().get(f"/sheets/{ids[0]}/export.pdf").status_code))  # fmt: skip
        waiter.start()
        deadline = time.monotonic() + 10
        while exports._WAITING[0] < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        t0 = time.monotonic()
        r = c.get(f"/sheets/{ids[1]}/export.pdf")
        assert r.status_code == 503 and int(r.headers["Retry-After"]) >= 1
        assert time.monotonic() - t0 < 2  # at once, not after PDF_WAIT
        assert c.get(f"/api/v1/sheets/{ids[2]}").status_code == 200  # reads go on
    finally:
        exports.PDF_RENDERS.release()
    waiter.join(timeout=30)
    assert codes == [200]  # the one waiting got its turn
