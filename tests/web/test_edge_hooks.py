"""The hooks every answer passes (web/http.py, web/i18n.py): the security headers once each, a
view's own kept, and the language cookie only where ``?lang=`` chose one."""

from __future__ import annotations

from flask import Flask, Response
from flask.testing import FlaskClient

from skatcalc.web.http import CSP, security_headers

ALWAYS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
          "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY"}  # fmt: skip


def test_every_answer_says_each_header_once(client: FlaskClient) -> None:
    sid = client.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"]})
    for url in ("/", "/api/v1/sheets/999999", f"/api/v1/sheets/{sid.get_json()['id']}",
                "/no/such/page", "/static/style.css"):  # fmt: skip
        with client.get(url) as r:  # a static file's answer holds the file open
            for name, value in ALWAYS.items():
                assert r.headers.getlist(name) == [value], (url, name)


def test_a_views_own_header_stays(app: Flask) -> None:
    with app.test_request_context("/"):
        resp = Response("x", headers={"x-frame-options": "SAMEORIGIN", "Referrer-Policy": "x"})
        out = security_headers(resp)
        assert out.headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]
        assert out.headers.getlist("Referrer-Policy") == ["x"]
        assert out.headers.getlist("Content-Security-Policy") == [CSP]
        names = [name for name, _value in out.headers.items()]
        assert names[-2:] == ["Content-Security-Policy", "X-Content-Type-Options"]


def test_the_language_cookie_only_where_lang_chose_it(client: FlaskClient) -> None:
    assert "lang=en" in client.get("/?lang=en").headers.get("Set-Cookie", "")
    assert "Set-Cookie" not in client.get("/?lang=en").headers  # remembered already
    assert "Set-Cookie" not in client.get("/?lang=xx").headers
    client.delete_cookie("lang")
    assert "Set-Cookie" not in client.get("/").headers
    assert "Set-Cookie" not in client.get("/api/v1/sheets/999999").headers
    assert "lang=de" in client.get("/?x=1&lang=de").headers.get("Set-Cookie", "")
