"""What a sheet page no longer works out for every view: the signed form token (the same one
for the same session while tokens have no time limit) and whether the sheet is a club night's
table (a sheet is one from its start or never)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask_wtf import csrf

from skatcalc import create_app
from skatcalc.services import cache
from skatcalc.web import sheet_view

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
PLAYERS = ["Anna", "Bernd", "Carla"]


def _app(tmp_path: Path, **config: Any) -> Flask:
    return create_app({"DATABASE": str(tmp_path / "t.sqlite"), "SECRET_KEY": "t", **config})


def _sheet(app: Flask) -> int:
    r = app.test_client().post("/api/v1/sheets", json={"game": "skat", "players": PLAYERS})
    assert r.status_code == 201, r.data
    return int(r.get_json()["id"])


def test_a_sessions_form_token_is_signed_once_and_saves(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    signed: list[object] = []

    class Counted(csrf.URLSafeTimedSerializer):
        def dumps(self, obj: Any, salt: Any = None) -> Any:
            signed.append(obj)
            return super().dumps(obj, salt)

    monkeypatch.setattr(csrf, "URLSafeTimedSerializer", Counted)
    app = _app(tmp_path)
    sid = _sheet(app)
    client = app.test_client()
    first = TOKEN.findall(client.get(f"/sheets/{sid}").get_data(as_text=True))
    pages = []
    for n in (1, 2):
        body = {"game": "grand", "with": True, "matadors": 1, "declarer_points": 80,
                "declarer": "Anna"}  # fmt: skip
        assert app.test_client().post(f"/api/v1/sheets/{sid}/deals", json=body).status_code == 201
        page = client.get(f"/sheets/{sid}").get_data(as_text=True)
        assert f'id="deal-{n}"' in page
        pages.append(TOKEN.findall(page))
    # one token on each page, the one signed for the first
    assert len(set(first)) == 1 and all(set(p) == set(first) for p in pages)
    assert len(signed) == 1
    # and it saves: the form post with it is taken
    r = client.post(f"/sheets/{sid}/deals", data={"csrf_token": first[0], "n": "3",
                                                  "kind": "passed"})  # fmt: skip
    assert r.status_code == 302, r.data[:300]
    # another session: another secret, another token
    other = TOKEN.findall(app.test_client().get(f"/sheets/{sid}").get_data(as_text=True))
    assert other and set(other) != set(first)


def test_a_time_limited_token_is_signed_for_each_page(tmp_path: Path) -> None:
    app = _app(tmp_path, WTF_CSRF_TIME_LIMIT=3600)
    sid = _sheet(app)
    cache.clear()
    page = app.test_client().get(f"/sheets/{sid}").get_data(as_text=True)
    assert TOKEN.search(page) and len(cache.FORM_TOKENS) == 0


def test_a_sheet_seen_as_no_table_is_not_asked_again(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    app = _app(tmp_path, WTF_CSRF_ENABLED=False)
    sid = _sheet(app)
    asked: list[int] = []
    real = sheet_view.event_of_sheet

    def counted(db: Any, sheet_id: int) -> Any:
        asked.append(sheet_id)
        return real(db, sheet_id)

    monkeypatch.setattr(sheet_view, "event_of_sheet", counted)
    client = app.test_client()
    for k in range(3):
        body = {"passed": True}
        assert client.post(f"/api/v1/sheets/{sid}/deals", json=body).status_code == 201
        assert f'id="deal-{k + 1}"' in client.get(f"/sheets/{sid}").get_data(as_text=True)
    assert asked == [sid]
    # a club night's tables are tables from their first page on
    r = client.post("/api/v1/events", json={"game": "skat", "name": "Clubabend"})
    assert r.status_code == 201, r.data
    eid = r.get_json()["id"]
    names = {"names": ["Anna", "Bernd", "Carla", "Dieter"]}
    assert client.post(f"/api/v1/events/{eid}/players", json=names).status_code == 200
    r = client.post(f"/api/v1/events/{eid}/series", json={"seating": "draw", "force": True})
    assert r.status_code == 201, r.data
    table = r.get_json()["tables"][0]["sheet"]
    for _ in range(2):
        assert 'class="eventline"' in client.get(f"/sheets/{table}").get_data(as_text=True)
