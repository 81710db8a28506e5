"""An API request with a Bearer token is an app's: the session cookie (the pages' form token,
messages shown once) is neither decoded nor written, and the browser's session stays as it
was (web/http.py ``SessionInterface``)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface

API = "/api/v1/sheets"


def test_a_bearer_api_request_leaves_the_session_alone(
    fresh_db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skatcalc import create_app

    app: Flask = create_app({"TESTING": True, "DATABASE": fresh_db("s.sqlite"),
                             "SECRET_KEY": "test", "LAN": True})  # fmt: skip
    c = app.test_client()
    made = c.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).get_json()
    sid, right = made["id"], {"Authorization": f"Bearer {made['edit_token']}"}
    page = c.get(f"/sheets/{sid}", headers=right)
    assert "session=" in page.headers["Set-Cookie"]  # the page's form token
    form_token = page.data.decode().split('name="csrf_token" type="hidden" value="')[1]
    form_token = form_token.split('"')[0]

    decoded: list[str] = []
    real = SecureCookieSessionInterface.get_signing_serializer

    def counted(self: Any, app: Flask) -> Any:
        from flask import request

        decoded.append(request.path)
        return real(self, app)

    monkeypatch.setattr(SecureCookieSessionInterface, "get_signing_serializer", counted)
    for r in (
        c.post(f"{API}/{sid}/deals", json={"passed": True}, headers=right),
        c.get(f"{API}/{sid}", headers=right),
        c.post(f"{API}/{sid}/deals", json={"passed": "no"}, headers=right),
        c.post(
            f"{API}/{sid}/deals", json={"passed": True}, headers={"Authorization": "Bearer wrong"}
        ),  # fmt: skip
    ):
        assert r.status_code in (200, 201, 403, 422)
        assert "Set-Cookie" not in r.headers
        assert r.headers["Vary"] == "Accept-Encoding"  # not "Cookie": the answer follows none
    assert decoded == []
    # the browser's session is the one it had: its form still posts
    again = c.post(f"/sheets/{sid}/close", data={"csrf_token": form_token}, headers=right)
    assert again.status_code in (302, 303)
    assert decoded  # a page's request reads its session, as ever


def test_an_api_request_reads_its_language_once(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    from werkzeug.datastructures import LanguageAccept

    c = app.test_client()
    sid = c.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).get_json()["id"]
    asked: list[str] = []
    real = LanguageAccept.best_match

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        asked.append("x")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(LanguageAccept, "best_match", counted)
    r = c.post(f"{API}/{sid}/deals", json={"passed": True}, headers={"Accept-Language": "en"})
    assert r.status_code == 201 and r.get_json()["deals"][0]["title"] == "passed"
    assert len(asked) == 1
