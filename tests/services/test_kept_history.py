"""A sheet's history is kept per revision and a save continues it with its own entry
(``cache.HISTORIES``): after any change, what the answer shows is the history as stored."""

from __future__ import annotations

from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcalc.services import cache
from skatcalc.services import sheets as service
from skatcalc.store import sheets as store

API = "/api/v1/sheets"
PLAYERS = ["Anna", "Bernd", "Clara"]
GRAND = {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75}

changes = st.lists(
    st.sampled_from(
        ["add", "add", "add", "correct", "strike", "restore", "rules", "close", "clear", "get"]
    ),  # fmt: skip
    min_size=1,
    max_size=12,
)


def stored(app: Flask, sid: int) -> tuple[list[Any], list[Any]]:
    with app.test_request_context():
        db = service.get_db()
        return service.history(db, service.load_sheet(db, sid)), store.get_history(db, sid)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=changes)
def test_the_history_shown_is_the_stored_one(app: Flask, steps: list[str]) -> None:
    c = app.test_client()
    sid = c.post(API, json={"game": "skat", "players": PLAYERS}).get_json()["id"]
    c.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "Anna"})
    closed = False
    for k, step in enumerate(steps):
        if step == "add":
            r = c.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": PLAYERS[k % 3]})
        elif step == "correct":
            r = c.put(f"{API}/{sid}/deals/1", json={**GRAND, "declarer": PLAYERS[k % 3]})
        elif step == "strike":
            r = c.delete(f"{API}/{sid}/deals/1")
        elif step == "restore":
            r = c.post(f"{API}/{sid}/deals/1/restore", json={})
        elif step == "rules":
            r = c.patch(f"{API}/{sid}", json={"rules": {"stake_cents": k}})
        elif step == "close":
            r = c.post(f"{API}/{sid}/{'reopen' if closed else 'close'}", json={})
            closed = not closed
        elif step == "clear":
            cache.clear()
            continue
        else:
            r = c.get(f"{API}/{sid}")
        assert r.status_code < 500, r.get_json()
        kept, read = stored(app, sid)
        assert kept == read, step
        answer = c.get(f"{API}/{sid}").get_json()["history"]
        assert answer == [
            {"at": h.at, "action": h.action, "n": h.n, "before": h.before} for h in read
        ]


def test_a_save_reads_no_history(app: Flask, monkeypatch: Any) -> None:
    c = app.test_client()
    sid = c.post(API, json={"game": "skat", "players": PLAYERS}).get_json()["id"]
    c.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "Anna"})
    assert c.get(f"{API}/{sid}").status_code == 200  # its history kept
    read: list[int] = []
    real = store.get_history
    monkeypatch.setattr(store, "get_history", lambda db, s: read.append(s) or real(db, s))
    r = c.post(f"{API}/{sid}/deals", json={**GRAND, "declarer": "Bernd"})
    assert r.status_code == 201 and read == []
    assert [h["n"] for h in r.get_json()["history"]] == [1, 2]
    kept, stored_now = stored(app, sid)
    assert kept == stored_now
