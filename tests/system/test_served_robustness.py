"""What an attack run against a real server found, each pinned by the test that failed before."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc.exports import formats


def _seat(client: FlaskClient, event_id: int, seed: int) -> None:
    """The next series; seating over an unfinished series asks for the organiser's "force"."""
    url = f"/api/v1/events/{event_id}/series"
    r = client.post(url, json={"seating": "draw", "seed": seed})
    if r.status_code == 409:
        r = client.post(url, json={"seating": "draw", "seed": seed, "force": True})
    assert r.status_code == 201, r.json


def test_event_pdf_has_room_for_any_number_of_series(client: FlaskClient) -> None:
    ev = client.post("/api/v1/events", json={"name": "Lange Nacht", "game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{ev}/players", json={"names": ["Anna", "Bernd", "Carla"]})
    for n in range(1, 15):
        _seat(client, ev, n)
        if n in (4, 6, 7, 9, 12, 14):
            r = client.get(f"/events/{ev}/event.pdf")
            assert r.status_code == 200 and r.data.startswith(b"%PDF"), n


NAMES = ["Łódź Skat", "Клуб", "Ελλάδα", 'Quote"Back\\slash']


def _disposition(r: Any) -> tuple[str, str]:
    """(the ASCII fallback, the UTF-8 name) of a download; the header must travel as Latin-1
    (waitress encodes it so; a name outside it failed the whole answer)."""
    from urllib.parse import unquote

    assert r.status_code == 200
    header = r.headers["Content-Disposition"]
    header.encode("ascii")
    assert header.startswith('attachment; filename="')
    plain = header.split('filename="')[1].split('"')[0]
    return plain, unquote(header.split("filename*=UTF-8''")[1])


@pytest.mark.parametrize("name", NAMES)
def test_every_download_names_its_file_in_any_script(client: FlaskClient, name: str) -> None:
    group = client.post("/api/v1/groups", json={"name": name, "game": "skat"}).json["id"]
    plain, full = _disposition(client.get(f"/groups/{group}/standings.pdf"))
    assert plain.endswith(".pdf") and full.endswith(".pdf")
    if name != NAMES[-1]:
        assert full.startswith(name.replace(" ", "_"))
    ev = client.post("/api/v1/events", json={"name": name, "game": "skat"}).json["id"]
    for url in (f"/events/{ev}/event.pdf", f"/events/{ev}/ranking.csv"):
        plain, full = _disposition(client.get(url))
        assert '"' not in plain and "\\" not in plain
    seats = [name[:3] + "a", name[:3] + "b", name[:3] + "c"]
    sheet = client.post("/api/v1/sheets", json={"game": "skat", "players": seats}).json["id"]
    for ext in [f.extension for f in formats()]:
        plain, full = _disposition(client.get(f"/sheets/{sheet}/export.{ext}"))
        assert plain.endswith("." + ext) and full.endswith("." + ext)


@pytest.mark.parametrize("path", ["/%5Cevil.example/x", "/%2F%2Fevil.example", "/%5C%5Cevil.example",
                                  "/sheets?x=%5C%5Cevil.example"])  # fmt: skip
def test_language_links_stay_on_this_site(client: FlaskClient, path: str) -> None:
    import re
    from urllib.parse import urljoin, urlsplit

    page = "http://skat.test" + path
    html = client.get(path).get_data(as_text=True) + client.get(
        path + ("&" if "?" in path else "?") + "lang=en"
    ).get_data(as_text=True)
    for lang in ("en", "de"):
        href = re.search(r'<a href="([^"]*)" hreflang="' + lang, html)
        assert href is not None
        # a browser reads a backslash as a slash in an http address
        target = urljoin(page, href.group(1).replace("&amp;", "&").replace("\\", "/"))
        assert urlsplit(target).netloc == "skat.test", target
        assert f"lang={lang}" in target


@pytest.mark.parametrize("bad", ["2026-W01-1", "20260131", "2026-001", "2026-1-31", "٢٠٢٦-٠١-٣١"])
def test_dates_are_yyyy_mm_dd_only(client: FlaskClient, bad: str) -> None:
    group = client.post("/api/v1/groups", json={"name": "Club", "game": "skat"}).json["id"]
    r = client.get(f"/api/v1/groups/{group}/standings", query_string={"from": bad})
    assert r.status_code == 422 and "from" in r.json["errors"]
    r = client.get(f"/groups/{group}", query_string={"to": bad})
    assert "Bitte ein Datum wie 2026-01-31." in r.get_data(as_text=True)
    r = client.post("/api/v1/events", json={"name": "E", "game": "skat", "date": bad})
    assert r.status_code == 422 and "date" in r.json["errors"]
    good = client.get(f"/api/v1/groups/{group}/standings", query_string={"from": "2026-01-31"})
    assert good.status_code == 200


def test_stored_player_figures_follow_any_change_of_the_rules_code(tmp_path: Path) -> None:
    """The figures kept per sheet are keyed by a fingerprint of the code that made them; a
    change in rules/sheet/ (how a sheet counts) must change it as much as one in rules/."""
    import shutil

    import skatcalc
    from skatcalc.services import season

    root = tmp_path / "skatcalc"
    shutil.copytree(Path(skatcalc.__file__).parent, root,
                    ignore=shutil.ignore_patterns("__pycache__", "fonts", "translations"))  # fmt: skip
    assert season.code_version(root) == season.CODE_VERSION
    for changed in ("rules/sheet/compute.py", "games/skat/values.py", "rules/standings.py",
                    "services/season.py"):  # fmt: skip
        path = root / changed
        before = season.code_version(root)
        path.write_text(path.read_text() + "\n# a changed rule\n")
        assert season.code_version(root) != before, changed


def test_secret_key_lives_beside_the_database(tmp_path: Path, monkeypatch: Any) -> None:
    from click.testing import CliRunner

    from skatcalc import create_app
    from skatcalc.server.cli import main

    instance = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(instance))
    db_path = tmp_path / "club" / "skat.sqlite"
    r = CliRunner().invoke(main, ["init-db", "--db", str(db_path)])
    assert r.exit_code == 0, r.output
    key = db_path.parent / "secret_key"
    assert key.exists() and not (instance / "secret_key").exists()
    app = create_app({"DATABASE": str(db_path)})
    assert app.config["SECRET_KEY"] == key.read_text().strip()
    # unreadable (a folder, not text, empty): one line naming the file, no traceback
    # (the tests may run as root, who reads any file whatever its mode)
    key.unlink()
    for spoil in ("folder", "binary", "empty"):
        if spoil == "folder":
            key.mkdir()
        else:
            key.rmdir() if key.is_dir() else None
            key.write_bytes(b"\xff\xfe\x00" if spoil == "binary" else b"  \n")
        r = CliRunner().invoke(main, ["init-db", "--db", str(db_path)])
        assert r.exit_code == 1 and isinstance(r.exception, SystemExit), (spoil, r.output)
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and str(key) in lines[0], (spoil, r.output)


def test_event_ids_are_never_reused(client: FlaskClient) -> None:
    """A new event after the newest was deleted got its id, and with it its cached PDF."""
    client.post("/api/v1/events", json={"name": "Erste", "game": "skat"})
    gone = client.post("/api/v1/events", json={"name": "Alte Nacht", "game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{gone}/players", json={"names": ["Anna", "Bernd", "Carla"]})
    old_pdf = client.get(f"/events/{gone}/event.pdf").data
    assert client.post(f"/events/{gone}/delete").status_code == 302
    new = client.post("/api/v1/events", json={"name": "Neue Nacht", "game": "skat"}).json["id"]
    assert new > gone
    assert client.get(f"/events/{gone}/event.pdf").status_code == 404
    assert client.get(f"/events/{new}/event.pdf").data != old_pdf


def test_id_migration_keeps_events_groups_and_their_links(tmp_path: Path) -> None:
    import sqlite3

    from skatcalc import create_app, store
    from skatcalc.store import migrations as schema

    path = str(tmp_path / "old.sqlite")
    db = store.connect(path)
    schema.migrations.apply(db, stop_before="m015_event_and_group_ids_never_reused")
    db.close()
    # rows as the code of that time wrote them; the newest group deleted
    rules = '{"rank_by": "seeger_fabian", "min_sheets": 0, "best": null}'
    con = sqlite3.connect(path)
    con.execute(
        "insert into groups (id, name, game, rules, created) values "
        "(1, 'Club', 'skat', ?, '2026-01-01'), (2, 'Weg', 'skat', ?, '2026-01-01')",
        [rules, rules],
    )
    con.execute("delete from groups where id = 2")
    con.commit()
    con.close()
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False})  # fmt: skip
    c = app.test_client()
    assert c.get("/api/v1/groups/1/standings").status_code == 200
    sheet = c.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"],
                                           "group": 1}).json  # fmt: skip
    assert sheet["group"] == 1
    ev = c.post("/api/v1/events", json={"name": "E", "game": "skat", "group": 1}).json["id"]
    assert (
        c.post(f"/api/v1/events/{ev}/players", json={"names": ["A", "B", "C"]}).status_code == 200
    )
    # ids deleted before the migration are not known to it; from now on none comes back
    assert c.post("/api/v1/groups", json={"name": "Neu", "game": "skat"}).json["id"] == 2
    con = sqlite3.connect(path)
    con.execute("delete from groups where id = 2")
    con.commit()
    con.close()
    assert c.post("/api/v1/groups", json={"name": "Neuer", "game": "skat"}).json["id"] == 3
    con = sqlite3.connect(path)
    try:
        for table in ("events", "groups", "sheets"):
            sql = con.execute("select sql from sqlite_master where name = ?", [table]).fetchone()
            assert "AUTOINCREMENT" in sql[0].upper(), table
        assert con.execute("pragma foreign_key_check").fetchall() == []
        assert con.execute("pragma integrity_check").fetchone() == ("ok",)
        assert any(
            fk[2] == "events" for fk in con.execute("pragma foreign_key_list(event_players)")
        )
        assert any(fk[2] == "groups" for fk in con.execute("pragma foreign_key_list(sheets)"))
    finally:
        con.close()


def test_reads_that_keep_a_cache_never_wait_for_another_writer(tmp_path: Path) -> None:
    """Another program holds the write lock: the pages that keep derived figures (a group's
    standings, a player's page) answer at once, without keeping them."""
    import sqlite3
    import time

    from skatcalc import create_app

    path = str(tmp_path / "locked.sqlite")
    config = {"TESTING": True, "DATABASE": path, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    c = create_app(config).test_client()
    group = c.post("/api/v1/groups", json={"name": "Club", "game": "skat"}).json["id"]
    for _ in range(3):
        sheet = c.post("/api/v1/sheets", json={"game": "skat", "group": group,
                                                "players": ["Anna", "Bernd", "Carla"]})  # fmt: skip
        _grand(c, sheet.json["id"], "Anna")
    c = create_app(config).test_client()  # a restart: nothing kept in memory
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("begin immediate")
    try:
        for url in (f"/groups/{group}", "/players/1", "/players/2", "/sheets"):
            start = time.monotonic()
            r = c.get(url)
            assert r.status_code == 200, url
            assert time.monotonic() - start < 2, url  # a busy timeout is 5 s per sheet
    finally:
        other.execute("rollback")
        other.close()
    assert "Anna" in c.get(f"/groups/{group}").get_data(as_text=True)


def _grand(client: FlaskClient, sheet_id: int, declarer: str) -> None:
    r = client.post(f"/api/v1/sheets/{sheet_id}/deals", json={
        "game": "grand", "matadors": 1, "with": True, "declarer_points": 70,
        "declarer": declarer})  # fmt: skip
    assert r.status_code == 201, r.json


def test_standings_pdf_is_rendered_once_per_state_of_the_group(
    app: Flask, client: FlaskClient, monkeypatch: Any
) -> None:
    """Anyone may ask for it, and a render is a tenth of a second of CPU: kept per state."""
    from skatcalc.exports import standings_pdf
    from skatcalc.services import players
    from skatcalc.services import sheets as service

    calls: list[int] = []
    real = standings_pdf.render_standings_pdf

    def counting(*args: Any, **kwargs: Any) -> bytes:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(standings_pdf, "render_standings_pdf", counting)
    group = client.post("/api/v1/groups", json={"name": "Club", "game": "skat"}).json["id"]
    sheet = client.post("/api/v1/sheets", json={"game": "skat", "group": group,
                                                 "players": ["Anna", "Bernd", "Carla"]})  # fmt: skip
    url = f"/groups/{group}/standings.pdf"
    first = client.get(url)
    for _ in range(3):
        assert client.get(url).data == first.data
    assert len(calls) == 1

    def in_app(change: Any) -> Any:
        def run() -> None:
            with app.app_context():
                change(service.get_db())

        return run

    changes = [
        lambda: _grand(client, sheet.json["id"], "Anna"),  # a deal
        lambda: client.get(url + "?lang=en"),  # another language is another file
        lambda: client.get(url + "?lang=de&from=2020-01-01"),  # another period too
        in_app(lambda db: players.rename_player(db, 1, "Anne")),
        in_app(
            lambda db: players.update_group(
                db, group, "Klub", {"rank_by": "balance", "min_sheets": 0, "best": None}
            )
        ),  # fmt: skip
        lambda: client.post(
            "/api/v1/sheets",
            json={"game": "skat", "group": group, "players": ["Dora", "Emil", "Fritz"]},
        ),  # fmt: skip
    ]
    for n, change in enumerate(changes, start=2):
        change()
        client.get(url)
        client.get(url)
        assert len(calls) == n, n


ENTRY = {"kind": "game", "declarer": "Bernd", "game": "grand", "with": "true", "matadors": "1",
         "declarer_points": "77", "bid": "18", "idem": "typed-1", "n": "1"}  # fmt: skip


@pytest.mark.parametrize("refusal", ["write slots taken", "write limit"])
def test_a_page_save_turned_away_keeps_what_was_typed(tmp_path: Path, refusal: str) -> None:
    """Every answer that stores nothing gives the typed entry back, with its deal number and
    key: a busy write slot (503) and the write limit (429) as a locked database does."""
    from skatcalc import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "busy.sqlite"),
                      "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "WRITE_SLOTS": 1,
                      "WRITE_LIMIT": 2, "WRITE_WAIT": 0.2})  # fmt: skip
    c = app.test_client()
    sid = c.post("/api/v1/sheets", json={"game": "skat",
                                         "players": ["Anna", "Bernd", "Carla"]}).json["id"]  # fmt: skip
    slots = app.extensions["skatcalc_write_slots"]
    if refusal == "write slots taken":
        slots.busy = slots.limit  # every slot held by a write under way
        expected, text = 503, "Die Liste ist gerade belegt"
    else:
        c.post(f"/sheets/{sid}/rename", data={"name": "Freitag"})  # the last write allowed
        expected, text = 429, "Zu viele Änderungen"
    r = c.post(f"/sheets/{sid}/deals", data=ENTRY)
    assert r.status_code == expected and int(r.headers["Retry-After"]) >= 1
    page = r.get_data(as_text=True)
    assert text in page
    assert 'value="77"' in page and 'name="idem" value="typed-1"' in page
    assert 'name="n" value="1"' in page
    assert 'value="Bernd" checked' in page
    slots.busy = 0
    assert c.get(f"/api/v1/sheets/{sid}").json["deals"] == []


def test_a_stale_entry_form_stores_nothing_twice(client: FlaskClient) -> None:
    """The old form itself coming back (a browser's back-forward cache) names its deal number
    and key: sent again it is the same save; corrected, it is refused, nothing stored."""
    sid = client.post("/api/v1/sheets", json={"game": "skat",
                                              "players": ["Anna", "Bernd", "Carla"]}).json["id"]  # fmt: skip
    assert client.post(f"/sheets/{sid}/deals", data=ENTRY).status_code == 302
    again = client.post(f"/sheets/{sid}/deals", data=ENTRY)
    assert again.status_code == 302 and again.headers["Location"].endswith("saved=1")
    corrected = client.post(f"/sheets/{sid}/deals", data={**ENTRY, "declarer": "Carla"})
    assert corrected.status_code == 409
    other_key = client.post(f"/sheets/{sid}/deals", data={**ENTRY, "idem": "typed-2"})
    assert other_key.status_code == 409
    assert "Spiel 1 ist schon eingetragen" in other_key.get_data(as_text=True)
    deals = client.get(f"/api/v1/sheets/{sid}").json["deals"]
    assert [(d["n"], d["dealer"], d["input"]["declarer"]) for d in deals] == [(1, "Anna", "Bernd")]


def test_downloads_named_in_any_script_through_skatcalc_serve(tmp_path: Path) -> None:
    """waitress sends header values as Latin-1: a name outside it was a 500 there, though the
    test client (no waitress) never showed it."""
    import subprocess
    import sys
    from urllib.parse import unquote

    from tests.system.test_serve_processes import ROOT, call, free_port, wait_for

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "skatcalc.server.cli", "serve", "--port", str(port),
         "--db", str(tmp_path / "names.sqlite"), "--threads", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        wait_for(lambda: _answers(port), "the server to answer")
        for name in NAMES[:3]:
            _status, body, _r = call(port, "POST", "/api/v1/groups",
                                     {"name": name, "game": "skat"})  # fmt: skip
            group = json.loads(body)["id"]
            _status, body, _r = call(port, "POST", "/api/v1/events", {"name": name, "game": "skat"})
            event = json.loads(body)["id"]
            seats = [name[:3] + s for s in "abc"]
            _status, body, _r = call(port, "POST", "/api/v1/sheets",
                                     {"game": "skat", "players": seats})  # fmt: skip
            sheet = json.loads(body)["id"]
            for url in (f"/groups/{group}/standings.pdf", f"/events/{event}/event.pdf",
                        f"/events/{event}/ranking.csv", f"/sheets/{sheet}/export.pdf"):  # fmt: skip
                status, _body, r = call(port, "GET", url)
                assert status == 200, (name, url)
                full = unquote(r.headers["Content-Disposition"].split("filename*=UTF-8''")[1])
                assert name[:3] in full, (name, url)
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def _answers(port: int) -> bool:
    from tests.system.test_serve_processes import call

    try:
        return call(port, "GET", "/api/v1/sheets/0")[0] == 404
    except OSError:
        return False


@pytest.mark.parametrize("names", [["Łódź", "Żaneta", "Grześ"], ["Иван", "Ольга", "Пётр"],
                                   ["Νίκος", "Ελένη", "Γιώργος"]])  # fmt: skip
def test_pdfs_print_names_of_any_european_script(client: FlaskClient, names: list[str]) -> None:
    """The bundled fonts carry Latin Extended, Greek and Cyrillic: a name prints as typed,
    not as empty boxes (the Latin-1 subset dropped them)."""
    import io

    from pypdf import PdfReader

    sheet = client.post("/api/v1/sheets", json={"game": "skat", "players": names}).json["id"]
    body = {"game": "grand", "matadors": 2, "with": True, "won": True, "declarer": names[0]}
    assert client.post(f"/api/v1/sheets/{sheet}/deals", json=body).status_code == 201
    group = client.post("/api/v1/groups", json={"name": names[1], "game": "skat"}).json["id"]
    for url in (f"/sheets/{sheet}/export.pdf", f"/groups/{group}/standings.pdf"):
        r = client.get(url)
        assert r.status_code == 200
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(r.data)).pages)
        wanted = names if "sheets" in url else names[1:2]
        assert all(n in text for n in wanted), (url, text[:300])
