"""Defects an attack run against a real server found (review/attack): each one pinned."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

BAD_NAMES = ["A\u0000B", "a\u0007b", "x\u001fy", "p\ufffe", "q\uffff", "r\u0085s"]


def _sheet(client: FlaskClient, players: list[str] | None = None, **extra: Any) -> Any:
    body = {"game": "skat", "players": players or ["Anna", "Bernd", "Carla"], **extra}
    return client.post("/api/v1/sheets", json=body)


def _grand(client: FlaskClient, sheet_id: int, declarer: str) -> None:
    r = client.post(f"/api/v1/sheets/{sheet_id}/deals", json={
        "game": "grand", "matadors": 1, "with": True, "declarer_points": 70,
        "declarer": declarer})  # fmt: skip
    assert r.status_code == 201, r.json


@pytest.mark.parametrize("bad", BAD_NAMES)
def test_control_characters_in_names_refused_at_the_door(client: FlaskClient, bad: str) -> None:
    r = _sheet(client, ["Anna", bad, "Carla"])
    assert r.status_code == 422
    assert "players" in r.json["errors"]
    r = client.post("/sheets", data={"game": "skat", "p1": "Anna", "p2": bad, "p3": "Carla"})
    assert r.status_code == 422
    assert b"Steuerzeichen" in r.data
    ev = client.post("/api/v1/events", json={"name": "E", "game": "skat"}).json["id"]
    r = client.post(f"/api/v1/events/{ev}/players", json={"names": ["Anna", bad]})
    assert r.status_code == 422 and "names" in r.json["errors"]
    r = client.post(f"/events/{ev}/players", data={"names": f"Anna\n{bad}"})
    assert r.status_code == 422 and b"Steuerzeichen" in r.data
    assert client.get(f"/api/v1/events/{ev}").json["players"] == []
    # import of an export whose names were edited by hand
    sid = _sheet(client).json["id"]
    _grand(client, sid, "Bernd")
    data = client.get(f"/api/v1/sheets/{sid}/export.json").json
    data["players"] = ["Anna", bad, "Carla"]
    r = client.post("/api/v1/sheets/import", json=data)
    assert r.status_code == 422 and "players" in r.json["errors"]
    # a player's new spelling
    pid = client.get("/api/v1/players").json["players"][0]["id"]
    r = client.post(f"/players/{pid}/rename", data={"name": bad})
    assert r.status_code == 422 and b"Steuerzeichen" in r.data


def test_stored_name_with_control_character_still_prints(app: Flask, client: FlaskClient) -> None:
    """A name stored before the check (an older import) must not break the PDF."""
    from skatcalc import store
    from skatcalc.store import sheets as sheet_store

    sid = _sheet(client).json["id"]
    _grand(client, sid, "Bernd")
    data = client.get(f"/api/v1/sheets/{sid}/export.json").json
    bad = "Be\u0000rn\u0007d\ufffe\uffff"
    deals = [{**d, "input": {**d["input"], "declarer": bad}} for d in data["deals"]]
    with app.app_context():
        old = sheet_store.import_sheet(store.get_db(), "Alt", "skat", ["Anna", bad, "Carla"], "Anna",
                                 data["rules"], deals, [])  # fmt: skip
    assert client.get(f"/api/v1/sheets/{old}").json["players"][1] == bad
    for lang in ("de", "en"):
        r = client.get(f"/sheets/{old}/export.pdf?lang={lang}")
        assert r.status_code == 200
        assert r.data.startswith(b"%PDF")


def test_chart_svg_leaves_out_what_xml_forbids() -> None:
    from xml.etree import ElementTree

    from skatcalc.exports.charts import running_totals_svg

    names = ["A\u0000B", 'x\u001f<&"', "q\uffff"]
    deals = [{"totals": {n: 10 * i for i, n in enumerate(names)}}]
    svg = running_totals_svg(names, deals, title='T"\u0007')
    ElementTree.fromstring(svg)  # parses


@pytest.mark.parametrize("group", [2**63, -(2**63) - 1, 10**30, -1])
def test_group_outside_sqlite_range_is_422(app: Flask, client: FlaskClient, group: int) -> None:
    from skatcalc import store
    from skatcalc.store import sheets as sheet_store

    assert client.post("/api/v1/groups", json={"name": "G", "game": "skat"}).status_code == 201
    r = _sheet(client, group=group)
    assert r.status_code == 422
    assert list(r.json["errors"]) == ["group"]
    r = client.post("/sheets", data={"game": "skat", "p1": "A", "p2": "B", "p3": "C",
                                     "group": str(group)})  # fmt: skip
    assert r.status_code == 422
    assert b"Diese Gruppe gibt es nicht" in r.data
    assert client.get(f"/sheets?group={group}").status_code == 200
    with app.app_context():
        assert sheet_store.list_sheets(store.get_db()) == []


def test_pages_with_edit_links_are_never_stored_cached_or_not(tmp_path: Any) -> None:
    from skatcalc import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "lan.sqlite"),
                      "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "LAN": True})  # fmt: skip
    c = app.test_client()
    r = _sheet(c)
    assert r.headers["Cache-Control"] == "private, no-store"  # the answer holds the tokens
    s = r.json
    auth = {"Authorization": f"Bearer {s['edit_token']}"}
    for _ in range(3):  # the second view on comes from the page cache
        for enc in ("gzip", "identity"):
            r = c.get(f"/sheets/{s['id']}", headers={**auth, "Accept-Encoding": enc})
            assert r.status_code == 200
            assert enc == "gzip" or s["edit_token"] in r.get_data(as_text=True)
            assert r.headers["Cache-Control"] == "private, no-store"
    viewer = app.test_client().get(f"/sheets/{s['id']}")
    assert s["edit_token"] not in viewer.get_data(as_text=True)
    assert viewer.headers["Cache-Control"] == "private, no-cache"
    # the organiser's series page with every table's edit link and QR code
    r = c.post("/api/v1/events", json={"name": "E", "game": "skat"})
    assert r.headers["Cache-Control"] == "private, no-store"
    ev = r.json
    r = c.get(f"/events/{ev['id']}/edit/{ev['edit_token']}")
    assert r.headers["Cache-Control"] == "private, no-store"  # its cookie holds the token
    c.post(f"/api/v1/events/{ev['id']}/players", json={"names": list("ABCD")},
           headers={"Authorization": f"Bearer {ev['edit_token']}"})  # fmt: skip
    r = c.post(f"/events/{ev['id']}/series", data={"seating": "draw", "n": "1"})
    assert r.status_code == 302 and r.headers["Cache-Control"] == "private, no-store"
    for _ in range(2):
        r = c.get(f"/events/{ev['id']}/series/1")
        assert "/edit/" in r.get_data(as_text=True)
        assert r.headers["Cache-Control"] == "private, no-store"


def test_two_taps_on_seat_series_seat_one(client: FlaskClient, monkeypatch: Any) -> None:
    """The second tap may read the count before the first one's series is stored: the check
    belongs under the write lock, not before it."""
    from skatcalc.services import events as event_service

    ev = client.post("/api/v1/events", json={"name": "E", "game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{ev}/players", json={"names": [f"Q{i}" for i in range(7)]})
    r = client.post(f"/events/{ev}/series", data={"seating": "draw", "n": "1"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/series/1")
    monkeypatch.setattr(event_service, "series_count", lambda db, event_id: 0)  # a stale read
    r = client.post(f"/events/{ev}/series", data={"seating": "draw", "n": "1"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/series/1")
    monkeypatch.undo()
    assert len(client.get(f"/api/v1/events/{ev}").json["series"]) == 1


def test_two_taps_at_once_seat_one_series(app: Flask) -> None:
    from concurrent.futures import ThreadPoolExecutor

    c = app.test_client()
    for trial in range(4):
        ev = c.post("/api/v1/events", json={"name": f"R{trial}", "game": "skat"}).json["id"]
        c.post(f"/api/v1/events/{ev}/players", json={"names": [f"Q{i}" for i in range(7)]})

        def tap(_: int, ev: int = ev) -> int:
            return app.test_client().post(f"/events/{ev}/series",
                                          data={"seating": "draw", "n": "1"}).status_code  # fmt: skip

        with ThreadPoolExecutor(2) as pool:
            assert list(pool.map(tap, range(2))) == [302, 302]
        assert len(c.get(f"/api/v1/events/{ev}").json["series"]) == 1


def test_api_series_takes_the_number_it_means(client: FlaskClient) -> None:
    ev = client.post("/api/v1/events", json={"name": "E", "game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{ev}/players", json={"names": [f"Q{i}" for i in range(7)]})
    url = f"/api/v1/events/{ev}/series"
    assert client.post(url, json={"seating": "draw", "n": 2}).status_code == 422
    assert client.post(url, json={"seating": "draw", "n": 0}).json["errors"].keys() == {"n"}
    r = client.post(url, json={"seating": "draw", "n": 1})
    assert r.status_code == 201 and r.json["n"] == 1
    r = client.post(url, json={"seating": "draw", "n": 1, "seed": 3})
    assert r.status_code == 409
    assert "Serie 1 ist schon gesetzt" in r.json["errors"]["n"][0]
    assert len(r.json["event"]["series"]) == 1
    # without n: the next series (series 1 unplayed: the organiser confirms with "force")
    r = client.post(url, json={"seating": "draw", "force": True})
    assert r.status_code == 201 and r.json["n"] == 2


def test_event_pdf_is_rendered_once_per_state(client: FlaskClient, monkeypatch: Any) -> None:
    from skatcalc.exports import event_pdf

    calls: list[int] = []
    real = event_pdf.render_event_pdf

    def counting(*args: Any, **kwargs: Any) -> bytes:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(event_pdf, "render_event_pdf", counting)
    ev = client.post("/api/v1/events", json={"name": "E", "game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{ev}/players", json={"names": ["Anna", "Bernd", "Carla"]})
    r = client.post(f"/api/v1/events/{ev}/series", json={"seating": "draw", "seed": 1})
    table = r.json["tables"][0]
    first = client.get(f"/events/{ev}/event.pdf")
    again = client.get(f"/events/{ev}/event.pdf")
    assert first.status_code == again.status_code == 200
    assert again.data == first.data and len(calls) == 1
    assert client.get(f"/events/{ev}/event.pdf?lang=en").status_code == 200
    assert len(calls) == 2  # another language is another file
    _grand(client, table["sheet"], table["players"][0])  # a table's deal changes the event
    after = client.get(f"/events/{ev}/event.pdf")
    assert len(calls) == 3 and after.data != first.data
    client.post(f"/api/v1/events/{ev}/players", json={"names": ["Dora"]})  # so does the event
    client.get(f"/events/{ev}/event.pdf")
    assert len(calls) == 4
