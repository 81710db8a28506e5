"""Nothing lost: re-sent saves, concurrent corrections, limits, backup, and a killed server."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import store
from skatcalc.server.cli import main as cli
from tests.support import free_port

API = "/api/v1/sheets"
GRAND = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 70, "declarer": "B"}


def new_sheet(client: FlaskClient) -> int:
    return client.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).get_json()["id"]


def test_resent_api_save_is_recorded_once(client: FlaskClient) -> None:
    sid = new_sheet(client)
    h = {"Idempotency-Key": "deal-7f3a"}
    first = client.post(f"{API}/{sid}/deals", json=GRAND, headers=h)
    again = client.post(f"{API}/{sid}/deals", json=GRAND, headers=h)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(again.get_json()["deals"]) == 1
    other = client.post(f"{API}/{sid}/deals", json=GRAND, headers={"Idempotency-Key": "x2"})
    assert len(other.get_json()["deals"]) == 2


def test_double_tapped_form_save_is_recorded_once(client: FlaskClient) -> None:
    sid = new_sheet(client)
    page = client.get(f"/sheets/{sid}").data.decode()
    idem = page.split('name="idem" value="')[1].split('"')[0]
    assert idem
    form = {"kind": "game", "declarer": "B", "game": "grand", "with": "true", "matadors": "1",
            "declarer_points": "70", "bid": "18", "idem": idem}  # fmt: skip
    assert client.post(f"/sheets/{sid}/deals", data=form).status_code in (302, 303)
    r = client.post(f"/sheets/{sid}/deals", data=form, follow_redirects=True)
    assert "schon gespeichert" in r.data.decode()
    assert len(client.get(f"{API}/{sid}").get_json()["deals"]) == 1


def test_concurrent_corrections_conflict(client: FlaskClient) -> None:
    sid = new_sheet(client)
    client.post(f"{API}/{sid}/deals", json=GRAND)
    v = client.get(f"{API}/{sid}").get_json()["deals"][0]["version"]
    ok = client.put(f"{API}/{sid}/deals/1", json={**GRAND, "declarer_points": 80},
                    headers={"If-Match": str(v)})  # fmt: skip
    assert ok.status_code == 200
    late = client.put(f"{API}/{sid}/deals/1", json={**GRAND, "declarer_points": 50},
                      headers={"If-Match": str(v)})  # fmt: skip
    assert late.status_code == 409
    assert late.get_json()["current"]["input"]["declarer_points"] == 80
    assert client.get(f"{API}/{sid}").get_json()["deals"][0]["input"]["declarer_points"] == 80
    # The same through the page: the second device's stale form gets a clear message.
    form = {"kind": "game", "declarer": "B", "game": "grand", "with": "true", "matadors": "1",
            "declarer_points": "90", "bid": "18", "version": str(v)}  # fmt: skip
    r = client.post(f"/sheets/{sid}/deals/1/edit", data=form)
    assert r.status_code == 409 and "anderen Gerät" in r.data.decode()


def test_limits(app: Flask, client: FlaskClient) -> None:
    r = client.post(API, json={"game": "skat", "players": ["x" * 41, "B", "C"]})
    assert r.status_code == 422 and "40" in r.get_json()["errors"]["players"][0]
    r = client.post("/api/v1/skat/value", data=b"{" + b" " * (1024 * 1024 + 10) + b"}",
                    content_type="application/json")  # fmt: skip
    assert r.status_code == 413 and r.get_json()["errors"]["_"]
    sid = new_sheet(client)
    with app.app_context():
        db = store.get_db()
        with db.atomic():
            for n in range(1, 1001):
                db.execute("insert into deals (sheet_id, n, dealer, active, input, struck, version,"
                           " created, updated) values (?, ?, 'A', '[\"B\", \"C\", \"A\"]', "
                           "'{\"passed\": true}', 0, 1, '', '')", [sid, n])  # fmt: skip
    r = client.post(f"{API}/{sid}/deals", json={"passed": True})
    assert r.status_code == 422 and "1000" in r.get_json()["errors"]["_"][0]


def test_backup_command(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    sid = new_sheet(client)
    client.post(f"{API}/{sid}/deals", json=GRAND)
    target = tmp_path / "backup.sqlite"
    result = CliRunner().invoke(cli, ["backup", str(target), "--db", app.config["DATABASE"]])
    assert result.exit_code == 0, result.output
    con = sqlite3.connect(target)
    try:
        assert con.execute("select count(*) from deals").fetchone() == (1,)
        assert con.execute("pragma integrity_check").fetchone() == ("ok",)
    finally:
        con.close()


# --- The real server, killed mid-burst ---------------------------------------------------------


def start(db: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "skatcalc.server.cli", "serve", "--port", str(port), "--db", str(db),
         *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/sheets/0", timeout=1)
        except urllib.error.HTTPError:
            return proc  # answering (404)
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def call(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})  # fmt: skip
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, None


@pytest.mark.parametrize("durable", [(), ("--durable",)], ids=["normal", "durable"])
def test_acknowledged_deals_survive_sigkill(tmp_path: Path, durable: tuple[str, ...]) -> None:
    """The durability promise as far as a test can go: WAL with synchronous=NORMAL (and
    FULL with --durable) loses no acknowledged deal when the process is killed mid-burst.
    A power cut cannot be simulated here; that is what --durable is for."""
    db = tmp_path / "crash.sqlite"
    port = free_port()
    proc = start(db, port, *durable)
    acked: dict[int, list[tuple[int, int]]] = {t: [] for t in range(4)}
    try:
        status, sheet = call(port, "POST", API, {"game": "skat", "players": ["A", "B", "C"]})
        assert status == 201
        sid = sheet["id"]
        stop = threading.Event()

        def burst(t: int) -> None:
            for i in range(60):
                if stop.is_set():
                    return
                # each deal is recognisable: thread t, sequence i → points 30 t + i (mod 121)
                pts = (30 * t + i) % 121
                body = {"game": ["diamonds", "hearts", "spades", "clubs"][t], "matadors": 1,
                        "with": True, "declarer_points": pts, "declarer": "B"}  # fmt: skip
                try:
                    status, s = call(port, "POST", f"{API}/{sid}/deals", body)
                except (OSError, http.client.HTTPException, ValueError):
                    return  # the answer never fully arrived: not acknowledged
                if status == 201:
                    mine = [d["n"] for d in s["deals"] if d["input"] == body]
                    acked[t].append((i, mine[-1]))

        threads = [threading.Thread(target=burst, args=(t,)) for t in range(4)]
        for th in threads:
            th.start()
        time.sleep(1.5)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        stop.set()
        for th in threads:
            th.join(timeout=30)
        assert sum(len(v) for v in acked.values()) > 5, "the burst did not get going"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    proc = start(db, port)
    try:
        status, sheet = call(port, "GET", f"{API}/{sid}")
        assert status == 200
        stored = {d["n"]: d["input"] for d in sheet["deals"]}
        assert sorted(stored) == list(range(1, len(stored) + 1))  # no gaps, in order
        for t, items in acked.items():
            ns = [n for _, n in items]
            assert ns == sorted(ns)  # each device's deals in the order it saved them
            for i, n in items:
                assert stored[n]["declarer_points"] == (30 * t + i) % 121
        assert sum(sum(d["deltas"].values()) for d in sheet["deals"]) == 0
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    con = sqlite3.connect(db)
    try:
        assert con.execute("pragma integrity_check").fetchone() == ("ok",)
    finally:
        con.close()


# --- Storage faults are told, not hidden (issue 12, item 7) ------------------------------------


def fault_app(tmp_path: Path, **extra: Any) -> Flask:
    from skatcalc import create_app

    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "fault.sqlite"),
                       "SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, **extra})  # fmt: skip


FORM = {"kind": "game", "declarer": "B", "game": "grand", "with": "true", "matadors": "1",
        "declarer_points": "77", "bid": "18", "idem": "typed-1"}  # fmt: skip


def counts(path: str) -> tuple[int, int]:
    con = sqlite3.connect(path)
    try:
        deals = con.execute("select count(*) from deals").fetchone()[0]
        history = con.execute("select count(*) from history").fetchone()[0]
        assert con.execute("pragma integrity_check").fetchone() == ("ok",)
        return int(deals), int(history)
    finally:
        con.close()


def test_locked_database_answers_503_and_the_form_comes_back(tmp_path: Path) -> None:
    app = fault_app(tmp_path, DB_BUSY_TIMEOUT=0.2)
    c = app.test_client()
    sid = new_sheet(c)
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the database
    try:
        r = c.post(f"{API}/{sid}/deals", json=GRAND)
        assert r.status_code == 503 and int(r.headers["Retry-After"]) >= 1
        assert r.get_json()["errors"]["_"] == [
            "Die Liste ist gerade belegt – bitte gleich noch einmal speichern."
        ]
        en = c.post(f"{API}/{sid}/deals", json=GRAND, headers={"Accept-Language": "en"})
        assert "busy" in en.get_json()["errors"]["_"][0]
        r = c.post(f"/sheets/{sid}/deals", data=FORM)
        assert r.status_code == 503 and r.headers["Retry-After"]
        page = r.data.decode()
        assert "Die Liste ist gerade belegt – bitte gleich noch einmal speichern." in page
        assert 'value="77"' in page and 'name="idem" value="typed-1"' in page  # as typed
        r = c.post("/sheets", data={"game": "skat", "p1": "Anna", "p2": "Bert", "p3": "Cem",
                                    "name": "Freitag"})  # fmt: skip
        assert r.status_code == 503 and 'value="Freitag"' in r.data.decode()
        assert c.get(f"{API}/{sid}").status_code == 200  # reading goes on meanwhile
    finally:
        other.rollback()
        other.close()
    assert counts(app.config["DATABASE"]) == (0, 0)
    assert c.post(f"/sheets/{sid}/deals", data=FORM).status_code in (302, 303)  # saved again
    assert counts(app.config["DATABASE"]) == (1, 1)


def test_full_disk_is_told_and_nothing_is_half_written(tmp_path: Path) -> None:
    from skatcalc import store

    app = fault_app(tmp_path)
    c = app.test_client()
    sid = new_sheet(c)
    with app.app_context():
        db = store.get_db()  # the connection this thread's requests use
        (pages,) = db.execute("pragma page_count").fetchone()
        db.execute(f"pragma max_page_count = {pages}")
    stored = 0
    for i in range(200):
        body = {**GRAND, "declarer_points": i % 121, "declarer": "B"}
        r = c.post(f"{API}/{sid}/deals", json=body, headers={"Idempotency-Key": "x" * 90 + str(i)})
        if r.status_code == 507:
            break
        assert r.status_code == 201
        stored += 1
    else:
        raise AssertionError("the disk never filled up")
    assert "voll" in r.get_json()["errors"]["_"][0]
    r = c.post(f"/sheets/{sid}/deals", data=FORM)
    assert r.status_code == 507 and 'value="77"' in r.data.decode()
    assert "Speicher des Servers ist voll" in r.data.decode()
    assert counts(app.config["DATABASE"]) == (stored, stored)  # every deal with its history


def test_read_only_database_is_told(tmp_path: Path) -> None:
    from skatcalc import store

    app = fault_app(tmp_path)
    c = app.test_client()
    sid = new_sheet(c)
    with app.app_context():
        store.get_db().execute("pragma query_only = 1")
    r = c.post(f"{API}/{sid}/deals", json=GRAND)
    assert r.status_code == 503 and "schreibgeschützt" in r.get_json()["errors"]["_"][0]
    r = c.post(f"/sheets/{sid}/deals", data=FORM)
    assert r.status_code == 503 and 'value="77"' in r.data.decode()
    assert c.get(f"/sheets/{sid}").status_code == 200
    assert counts(app.config["DATABASE"]) == (0, 0)


def test_unusable_database_path_at_start_is_one_line(tmp_path: Path) -> None:
    not_a_db = tmp_path / "garbage.sqlite"
    not_a_db.write_bytes(b"this is no database" * 100)
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    cases = {
        str(not_a_db): "not a database",
        str(a_file / "sub" / "x.sqlite"): "cannot create the folder",
        str(tmp_path): "folder, not a database",
    }
    for path, reason in cases.items():
        for args in (["serve", "--db", path], ["init-db", "--db", path],
                     ["backup", str(tmp_path / "b.sqlite"), "--db", path]):  # fmt: skip
            r = CliRunner().invoke(cli, args)
            assert r.exit_code == 1, (args, r.output)
            lines = r.output.strip().splitlines()
            assert len(lines) == 1 and path in lines[0] and reason in lines[0], r.output
            assert "Traceback" not in r.output


def test_queued_writers_wait_their_turn_and_do_not_stall_reads(tmp_path: Path) -> None:
    """Six writers against two write slots while another program holds SQLite's write lock
    for a moment: reads go on meanwhile, and every writer waits its turn (a slot, then the
    lock) and stores its deal — none is told to come back."""
    app = fault_app(tmp_path, DB_BUSY_TIMEOUT=5, WRITE_SLOTS=2, WRITE_WAIT=5)
    c = app.test_client()
    sid = new_sheet(c)
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    results: list[int] = []
    writers = [threading.Thread(target=lambda: results.append(
        app.test_client().post(f"{API}/{sid}/deals", json=GRAND).status_code)) for _ in range(6)]  # fmt: skip
    try:
        for w in writers:
            w.start()
        deadline = time.monotonic() + 5
        while app.extensions["skatcalc_write_slots"].busy < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        t0 = time.monotonic()
        assert c.get(f"{API}/{sid}").status_code == 200
        assert c.get("/sheets").status_code == 200
        assert time.monotonic() - t0 < 1.0
        time.sleep(0.5)
        assert results == []  # waiting, not refused
    finally:
        other.rollback()
        other.close()
        for w in writers:
            w.join(timeout=20)
    assert results == [201] * 6
    assert len(c.get(f"{API}/{sid}").json["deals"]) == 6


def test_a_write_waits_the_documented_time_before_503(tmp_path: Path) -> None:
    """Held past the wait, a write answers 503 + Retry-After — after waiting, not at once:
    for a write slot (``WRITE_WAIT``) and for SQLite's lock (``DB_BUSY_TIMEOUT``)."""
    app = fault_app(tmp_path, DB_BUSY_TIMEOUT=0.6, WRITE_SLOTS=1, WRITE_WAIT=0.4)
    c = app.test_client()
    sid = new_sheet(c)
    slots = app.extensions["skatcalc_write_slots"]
    slots.busy = 1  # the only slot held by a write under way
    t0 = time.monotonic()
    r = c.post(f"{API}/{sid}/deals", json=GRAND)
    assert r.status_code == 503 and r.headers["Retry-After"]
    assert time.monotonic() - t0 >= 0.4
    slots.busy = 0
    other = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        t0 = time.monotonic()
        r = c.post(f"{API}/{sid}/deals", json=GRAND)
        assert r.status_code == 503 and r.headers["Retry-After"]
        assert time.monotonic() - t0 >= 0.6
    finally:
        other.rollback()
        other.close()
    assert c.get(f"{API}/{sid}").json["deals"] == []
    assert c.post(f"{API}/{sid}/deals", json=GRAND).status_code == 201


# --- One connection per thread, durability settings -------------------------------------------


def test_one_connection_per_thread_with_its_pragmas(tmp_path: Path) -> None:
    from skatcalc import store

    app = fault_app(tmp_path)
    c = app.test_client()
    sid = new_sheet(c)
    seen: list[int] = []
    with app.app_context():
        first = store.get_db()
    for _ in range(3):
        c.get(f"{API}/{sid}")
        with app.app_context():
            seen.append(id(store.get_db()))
    assert set(seen) == {id(first)}
    other: list[Any] = []

    def in_thread() -> None:
        with app.app_context():
            other.append(store.get_db())

    t = threading.Thread(target=in_thread)
    t.start()
    t.join()
    assert other[0] is not first
    assert first.execute("pragma foreign_keys").fetchone() == (1,)
    assert first.execute("pragma journal_mode").fetchone() == ("wal",)
    assert first.execute("pragma synchronous").fetchone() == (1,)  # NORMAL
    assert first.execute("pragma busy_timeout").fetchone() == (5000,)


def test_durable_means_synchronous_full(tmp_path: Path, monkeypatch: Any) -> None:
    from skatcalc import store

    app = fault_app(tmp_path, DB_DURABLE=True)
    with app.app_context():
        assert store.get_db().execute("pragma synchronous").fetchone() == (2,)  # FULL
    seen: dict[str, Any] = {}
    monkeypatch.setattr("waitress.serve", lambda app, **kw: seen.update(app=app))
    r = CliRunner().invoke(cli, ["serve", "--durable", "--db", str(tmp_path / "d.sqlite")])
    assert r.exit_code == 0, r.output
    assert seen["app"].config["DB_DURABLE"] is True


# --- The database in the user's data folder (issue 12, item 13) -------------------------------


def test_default_database_lives_in_the_user_data_folder(tmp_path: Path, monkeypatch: Any) -> None:
    from skatcalc import store

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    venv_instance = tmp_path / "venv" / "var" / "skatcalc-instance"
    venv_instance.mkdir(parents=True)
    path, note = store.default_location(str(venv_instance))
    assert path == str(tmp_path / "data" / "skatcalc" / "skatcalc.sqlite") and note is None


def test_database_in_the_old_place_is_moved_and_told(tmp_path: Path, monkeypatch: Any) -> None:
    from skatcalc import store

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    old_dir = tmp_path / "venv" / "var" / "skatcalc-instance"
    old_dir.mkdir(parents=True)
    old = old_dir / "skatcalc.sqlite"
    app = fault_app(tmp_path, DATABASE=str(old))
    sid = new_sheet(app.test_client())
    app.test_client().post(f"{API}/{sid}/deals", json=GRAND)
    (old_dir / "secret_key").write_text("k")
    path, note = store.default_location(str(old_dir))
    assert path.startswith(str(tmp_path / "data")) and note and "Moved" in note and str(old) in note
    assert counts(path) == (1, 1)
    assert not old.exists() and Path(str(old) + ".moved").exists()
    assert (Path(path).parent / "secret_key").read_text() == "k"
    # the next start finds it in its new place, silently
    assert store.default_location(str(old_dir)) == (path, None)
    # a database appearing in the old place again is not left behind silently
    old.write_bytes(Path(path).read_bytes())
    path2, note2 = store.default_location(str(old_dir))
    assert path2 == path and note2 and str(old) in note2


def test_serve_prints_where_the_database_went(tmp_path: Path, monkeypatch: Any) -> None:
    target = str(tmp_path / "data" / "skatcalc.sqlite")
    monkeypatch.setattr(store, "default_location", lambda instance: (target, "Moved it."))
    monkeypatch.setattr("waitress.serve", lambda app, **kw: None)
    r = CliRunner().invoke(cli, ["serve"])
    assert r.exit_code == 0, r.output
    assert "Moved it." in r.output and target in r.output


# --- Slow clients (issue 12, item 5) -----------------------------------------------------------


def test_slow_clients_do_not_lock_others_out(tmp_path: Path) -> None:
    """200 sockets trickle their requests for 10 s (half stuck in the headers, half in a
    body); ordinary requests are still answered within 2 s, on the network setup."""
    port = free_port()
    proc = start(tmp_path / "slow.sqlite", port, "--lan", "--host", "127.0.0.1")
    slow: list[socket.socket] = []
    try:
        status, sheet = call(port, "POST", API, {"game": "skat", "players": ["A", "B", "C"]})
        assert status == 201
        for i in range(200):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            if i % 2:
                s.sendall(b"GET /sheets HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            else:
                s.sendall(b"POST /api/v1/skat/value HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{")  # fmt: skip
            slow.append(s)
        worst = 0.0
        start_t = time.monotonic()
        while time.monotonic() - start_t < 10:
            for s in slow:
                try:
                    s.send(b"a")  # one byte a while: alive, never done
                except OSError:
                    pass
            t0 = time.monotonic()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/sheets/{sheet['id']}",
                                        timeout=2) as r:  # fmt: skip
                assert r.status == 200
            worst = max(worst, time.monotonic() - t0)
            time.sleep(0.5)
        assert worst < 2.0
    finally:
        for s in slow:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)


def test_queue_depth_warnings_do_not_flood_the_log() -> None:
    import logging

    from skatcalc.server.prefork import QueueWarningFilter

    f = QueueWarningFilter(every=60)
    records = [logging.LogRecord("waitress.queue", logging.WARNING, "", 0,
                                 "Task queue depth is %d", (d,), None) for d in (3, 9, 4)]  # fmt: skip
    passed = [f.filter(r) for r in records]
    assert passed == [True, False, False]
    f.last -= 61
    later = logging.LogRecord("waitress.queue", logging.WARNING, "", 0,
                              "Task queue depth is %d", (2,), None)  # fmt: skip
    assert f.filter(later) and later.getMessage() == "Task queue depth is 9"
