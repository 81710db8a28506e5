"""A session cookie's signature is checked once per signing keys and cookie
(``cache.SESSIONS``, web/http.py ``SessionInterface``): what a request finds in its session is
what Flask's own check gives, for a good, a changed, an expired or a foreign cookie."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from flask import Flask, request, session
from flask.sessions import SecureCookieSessionInterface

from skatcalc import create_app
from skatcalc.services import cache


def _app(tmp_path: Path, key: str = "k1") -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / f"{key}.sqlite"),
                       "SECRET_KEY": key})  # fmt: skip


def _cookie(app: Flask, data: dict[str, object]) -> str:
    signer = SecureCookieSessionInterface().get_signing_serializer(app)
    assert signer is not None
    return str(signer.dumps(data))


def _opened(app: Flask, cookie: str) -> dict[str, object]:
    with app.test_request_context("/sheets", headers={"Cookie": f"session={cookie}"}):
        opened = app.session_interface.open_session(app, request)
        assert opened is not None
        return dict(opened)


def _flask_own(app: Flask, cookie: str) -> dict[str, object]:
    with app.test_request_context("/sheets", headers={"Cookie": f"session={cookie}"}):
        plain = SecureCookieSessionInterface().open_session(app, request)
        assert plain is not None
        return dict(plain)


def test_a_kept_session_is_what_flask_reads_and_a_copy(tmp_path: Path) -> None:
    app = _app(tmp_path)
    cookie = _cookie(app, {"csrf_token": "abc"})
    for _ in range(3):  # the first checks the signature, the others find it kept
        assert _opened(app, cookie) == _flask_own(app, cookie) == {"csrf_token": "abc"}
    with app.test_request_context("/sheets", headers={"Cookie": f"session={cookie}"}):
        session["csrf_token"] = "changed"  # this request's copy only
    assert _opened(app, cookie) == {"csrf_token": "abc"}


def test_a_changed_or_foreign_cookie_opens_an_empty_session(tmp_path: Path) -> None:
    app, other = _app(tmp_path), _app(tmp_path, "k2")
    cookie = _cookie(app, {"csrf_token": "abc"})
    assert _opened(app, cookie) == {"csrf_token": "abc"}  # kept now
    changed = cookie[:-2] + ("A" if cookie[-2] != "A" else "B") + cookie[-1]
    assert _opened(app, changed) == _flask_own(app, changed) == {}
    assert _opened(other, cookie) == _flask_own(other, cookie) == {}  # another signing key


def test_a_kept_session_expires_as_the_cookie_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(tmp_path)
    cookie = _cookie(app, {"csrf_token": "abc"})
    assert _opened(app, cookie) == {"csrf_token": "abc"}  # kept now
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 10
    monkeypatch.setattr(time, "time", lambda: later)
    assert _opened(app, cookie) == _flask_own(app, cookie) == {}


def test_a_session_with_messages_is_read_each_time(tmp_path: Path) -> None:
    app = _app(tmp_path)
    cookie = _cookie(app, {"_flashes": [["message", "Spiel 1 korrigiert."]]})
    cache.SESSIONS.clear()
    assert _opened(app, cookie) == _flask_own(app, cookie)
    assert len(cache.SESSIONS) == 0  # a list is shared by a copy of the dict: not kept
