"""The error page is kept per code, message, language and root with the link to the other
language cut out (``web/http.py`` ``error_page``): every error answer is byte for byte the
page rendered afresh, whatever the request's arguments, language or flashes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc import create_app
from skatcalc.services import cache
from tests.support import law_client

# (method, path): pages that are not there, a method a page does not take, a write to a sheet
# that is not there, an API path (JSON, not the page). (A form posted without its CSRF token
# gets its own page back with a new token, not the error page.)
REQUESTS = [("GET", "/nowhere"), ("GET", "/sheets/999999"), ("DELETE", "/sheets"),
            ("POST", "/sheets/999999/undo"), ("GET", "/players/x/y"),
            ("GET", "/api/v1/nowhere")]  # fmt: skip
args = st.dictionaries(st.sampled_from(["lang", "x", "ä", "n", "<b>"]),
                       st.sampled_from(["de", "en", "fr", "", "ä€", '"><script>', "1"]),
                       max_size=3)  # fmt: skip


@pytest.fixture(scope="module")
def csrf_client() -> Iterator[Any]:
    with law_client() as client:  # CSRF on, as a browser meets the app
        yield client


@settings(max_examples=60, deadline=None)
@given(req=st.sampled_from(REQUESTS), query=args,
       accept=st.sampled_from([None, "en", "de", "fr"]), cookie=st.sampled_from([None, "en", "de"]))  # fmt: skip
def test_law_every_error_page_is_the_page_rendered_afresh(
    csrf_client: Any, req: tuple[str, str], query: dict[str, str], accept: str | None,
    cookie: str | None,
) -> None:  # fmt: skip
    client = csrf_client
    method, path = req
    url = path + ("?" + urlencode(query) if query else "")
    headers = {"Accept-Language": accept} if accept else {}
    if cookie:
        client.set_cookie("lang", cookie)
    else:
        client.delete_cookie("lang")
    kept = client.open(url, method=method, headers=headers)
    again = client.open(url, method=method, headers=headers)
    cache.clear()
    fresh = client.open(url, method=method, headers=headers)
    assert kept.status_code == again.status_code == fresh.status_code >= 400
    assert kept.data == again.data == fresh.data


def test_the_other_languages_link_carries_this_requests_arguments(app: Flask) -> None:
    c = app.test_client()
    first = c.get("/nowhere?x=1").data.decode()
    second = c.get("/nowhere?y=%22%3E2").data.decode()
    assert 'href="?x=1&amp;lang=en"' in first
    assert 'href="?y=%22%3E2&amp;lang=en"' in second and "x=1" not in second
    english = c.get("/nowhere?lang=en").data.decode()
    assert "Not found" in english and 'href="?lang=de"' in english


def test_a_message_to_show_once_comes_with_the_error_page(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "f.sqlite"),
                      "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})  # fmt: skip
    c = app.test_client()
    assert c.get("/nowhere").status_code == 404  # kept now
    with c.session_transaction() as session:
        session["_flashes"] = [("message", "Spiel 1 korrigiert.")]
    page = c.get("/nowhere").data.decode()
    assert "Spiel 1 korrigiert." in page  # shown once, with the page
    assert "Spiel 1 korrigiert." not in c.get("/nowhere").data.decode()


def test_messages_a_failed_page_took_are_never_kept_for_others(tmp_path: Path) -> None:
    """A page that fails after it drew its messages (they are on the request then, no longer
    in the session) gets an error page with them, which is not kept for anyone else."""
    from flask import flash, get_flashed_messages

    app = create_app({"TESTING": False, "DATABASE": str(tmp_path / "m.sqlite"),
                      "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})  # fmt: skip

    @app.route("/t/flash")
    def flashing() -> str:
        flash("Nachricht nur für Anna")
        return "ok"

    @app.route("/t/fails-after-drawing")
    def fails_after_drawing() -> str:
        get_flashed_messages()  # as a page's frame does
        raise RuntimeError("the page failed after its messages")

    @app.route("/t/fails")
    def fails() -> str:
        raise RuntimeError("a page failed")

    anna, ben = app.test_client(), app.test_client()
    anna.get("/t/flash")
    assert anna.get("/t/fails-after-drawing").status_code == 500
    r = ben.get("/t/fails")
    assert r.status_code == 500 and "Nachricht nur für Anna" not in r.data.decode()
