"""Busy means wait: eight tables saving at the same moment through ``skatcalc serve`` with its
defaults (8 threads, so 4 write slots) are served one after the other, none told to come
back. Before, the writes beyond the slots got 503 "Die Liste ist gerade belegt" within a few
milliseconds, and a deferred BEGIN meeting another writer failed with "database is locked".
The 30-second run with its figures is ``bench/writers.py``."""

from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path

from tests.support import Served, serve

WRITERS = 8
ROUNDS = 6
PLAYERS = ["Anna", "Bernd", "Carla"]
DEALS = [
    {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75, "declarer": "Anna"},
    {"game": "hearts", "matadors": 1, "with": True, "declarer_points": 50, "declarer": "Bernd"},
    {"game": "null", "hand": True, "won": True, "declarer": "Carla"},
]


def _post(conn: http.client.HTTPConnection, path: str, body: object) -> tuple[int, float, bytes]:
    t0 = time.perf_counter()
    conn.request("POST", path, body=json.dumps(body).encode(),
                 headers={"Content-Type": "application/json"})  # fmt: skip
    resp = conn.getresponse()
    data = resp.read()
    return resp.status, (time.perf_counter() - t0) * 1000, data


def test_eight_simultaneous_writers_wait_their_turn_and_none_is_refused(tmp_path: Path) -> None:
    with serve(tmp_path / "writers.sqlite") as server:
        setup = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        sheets = []
        for _ in range(WRITERS):
            status, _ms, data = _post(setup, "/api/v1/sheets", {"game": "skat", "players": PLAYERS})
            assert status == 201
            sheets.append(json.loads(data)["id"])
        setup.close()
        start = threading.Barrier(WRITERS)
        answers: list[tuple[int, float, bytes]] = []
        lock = threading.Lock()

        def table(sheet: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
            try:
                for k in range(ROUNDS):
                    if k == 0:
                        start.wait()  # every table saves its first deal at the same moment
                    got = _post(conn, f"/api/v1/sheets/{sheet}/deals", DEALS[k % len(DEALS)])
                    with lock:
                        answers.append(got)
            finally:
                conn.close()

        threads = [threading.Thread(target=table, args=(s,)) for s in sheets]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        took = time.monotonic() - t0
        refused = [(s, round(ms, 1), body[:120]) for s, ms, body in answers if s != 201]
        assert not refused, refused
        assert len(answers) == WRITERS * ROUNDS, took
        check = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        for sheet in sheets:
            check.request("GET", f"/api/v1/sheets/{sheet}")
            assert len(json.loads(check.getresponse().read())["deals"]) == ROUNDS
        check.close()
        assert "database is locked" not in server.output()


def test_through_nginx_simultaneous_tables_are_not_refused(behind_nginx: Served) -> None:
    """The same through the documented nginx in front (``--lan``, each phone its own address,
    its sheet's edit token as Bearer): nginx waits for the answer (``proxy_read_timeout``
    60 s, beyond the longest wait), and no save is turned away."""
    tables = []
    for i in range(WRITERS):
        made = behind_nginx.call("POST", "/api/v1/sheets", client=f"127.0.0.{i + 2}",
                                 json_body={"game": "skat", "players": PLAYERS})  # fmt: skip
        assert made.status == 201, made.body
        tables.append(made.json())
    start = threading.Barrier(WRITERS)
    answers: list[tuple[int, bytes]] = []
    lock = threading.Lock()

    def table(i: int, sheet: dict[str, object]) -> None:
        for k in range(ROUNDS // 2):
            if k == 0:
                start.wait()
            got = behind_nginx.call(
                "POST", f"/api/v1/sheets/{sheet['id']}/deals", json_body=DEALS[k % len(DEALS)],
                headers={"Authorization": f"Bearer {sheet['edit_token']}"},
                client=f"127.0.0.{i + 2}", timeout=60,
            )  # fmt: skip
            with lock:
                answers.append((got.status, got.body[:120]))

    threads = [threading.Thread(target=table, args=(i, s)) for i, s in enumerate(tables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert [s for s, _b in answers] == [201] * (WRITERS * (ROUNDS // 2)), answers
