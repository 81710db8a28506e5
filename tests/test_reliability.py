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

from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import db as store
from skatcalc.cli import main as cli

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "skatcalc.cli", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
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


def test_acknowledged_deals_survive_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite"
    port = free_port()
    proc = start(db, port)
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
