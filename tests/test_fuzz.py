"""Random and malformed input at every route and form: never a 5xx, always the documented
error shape, and a refused request leaves the database as it was."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcalc import create_app

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip

nasty_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["<script>alert(1)</script>", "=1+1", "A", "B", "grand", "null", "ramsch",
                     "declarer", "opponents", "sauspiel", "wenz", "ä" * 50, "\x00", "-1",
                     "1e400", "Ω♣♥"]),
)  # fmt: skip
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(allow_nan=True),
    nasty_text,
)  # fmt: skip
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(nasty_text, inner, max_size=6)
    ),
    max_leaves=20,
)
FIELDS = ["game", "matadors", "with", "cards", "hand", "schneider_announced", "schwarz_announced",
          "ouvert", "bid", "declarer_points", "all_tricks", "won", "kontra", "re", "declarer",
          "players", "declarers", "player_points", "schneider", "schwarz", "laufende", "tout",
          "sie", "gestellt", "tariffs", "laufende_min", "passed", "active", "dealer", "ramsch",
          "points", "jungfrau", "durchmarsch", "first_dealer", "rules", "name", "deals",
          "history", "unknown"]  # fmt: skip
bodies = st.one_of(
    json_values,
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=10),
)


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "f",
                      "WTF_CSRF_ENABLED": False, "PROPAGATE_EXCEPTIONS": False})  # fmt: skip
    c = app.test_client()
    for game, players in (("skat", ["A", "B", "C", "D"]), ("schafkopf", ["A", "B", "C", "D"])):
        r = c.post("/api/v1/sheets", json={"game": game, "players": players,
                                           "rules": {"ramsch": True, "kontra_re": True}
                                           if game == "skat" else {"ramsch": True}})  # fmt: skip
        assert r.status_code == 201
    c.post("/api/v1/sheets/1/deals", json={"passed": True})
    yield app


@pytest.fixture
def fclient(fuzz_app: Flask) -> FlaskClient:
    return fuzz_app.test_client()


def snapshot(app: Flask) -> str:
    con = sqlite3.connect(app.config["DATABASE"])
    try:
        rows = [
            list(con.execute(f"select * from {t} order by 1"))
            for t in ("sheets", "deals", "history")
        ]
    finally:
        con.close()
    return json.dumps(rows, default=str)


ROUTES = [
    ("POST", "/api/v1/skat/value"),
    ("POST", "/api/v1/schafkopf/value"),
    ("POST", "/api/v1/sheets"),
    ("POST", "/api/v1/sheets/1/deals"),
    ("POST", "/api/v1/sheets/2/deals"),
    ("PUT", "/api/v1/sheets/1/deals/1"),
    ("PUT", "/api/v1/sheets/2/deals/1"),
    ("POST", "/api/v1/sheets/import"),
]


def check_error(r: Any) -> None:
    assert r.status_code < 500, r.data[:500]
    if r.status_code >= 400:
        body = r.get_json()
        assert isinstance(body, dict) and isinstance(body["errors"], dict), r.data[:300]
        for field, msgs in body["errors"].items():
            assert isinstance(field, str) and msgs and all(isinstance(m, str) for m in msgs)


@SETTINGS
@given(route=st.sampled_from(ROUTES), body=bodies)
def test_api_routes_with_random_json(fuzz_app: Flask, fclient: FlaskClient, route: tuple[str, str],
                                     body: Any) -> None:  # fmt: skip
    method, path = route
    before = snapshot(fuzz_app)
    try:
        raw = json.dumps(body)
    except ValueError:
        raw = "{"
    r = fclient.open(path, method=method, data=raw, content_type="application/json")
    check_error(r)
    if r.status_code >= 400:
        assert snapshot(fuzz_app) == before


@SETTINGS
@given(route=st.sampled_from(ROUTES),
       raw=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)),
       ctype=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded",
                              "multipart/form-data", ""]))  # fmt: skip
def test_api_routes_with_garbage(fuzz_app: Flask, fclient: FlaskClient, route: tuple[str, str],
                                 raw: bytes, ctype: str) -> None:  # fmt: skip
    method, path = route
    before = snapshot(fuzz_app)
    r = fclient.open(path, method=method, data=raw, content_type=ctype or None)
    check_error(r)
    if r.status_code >= 400:
        assert snapshot(fuzz_app) == before


form_fields = ["kind", "game", "with", "matadors", "cards", "hand", "ouvert", "bid",
               "declarer_points", "all_tricks", "won", "kontra", "re", "declarer", "declarers",
               "outcome", "player_points", "schneider", "schwarz", "laufende", "tout", "sie",
               "gestellt", "dealer", "active", "r0", "r1", "r2", "r3", "jungfrau", "durchmarsch",
               "version", "idem", "p1", "p2", "p3", "p4", "p5", "first_dealer", "stake_cents",
               "t_solo", "t_extra", "bock", "name", "submitted", "lang"]  # fmt: skip
form_data = st.dictionaries(st.sampled_from(form_fields),
                            st.one_of(nasty_text, st.sampled_from(["y", "true", "false", "1", "3",
                                                                   "game", "passed", "ramsch",
                                                                   "grand", "A", "B"])),
                            max_size=14)  # fmt: skip
FORMS = [
    ("GET", "/skat"), ("GET", "/schafkopf"), ("POST", "/sheets"), ("POST", "/sheets/1/deals"),
    ("POST", "/sheets/2/deals"), ("POST", "/sheets/1/deals/1/edit"), ("POST", "/sheets/1/rename"),
    ("GET", "/sheets"), ("GET", "/bids"), ("GET", "/sheets/1/deals/1/edit"),
]  # fmt: skip


@SETTINGS
@given(route=st.sampled_from(FORMS), data=form_data)
def test_forms_with_random_input(fuzz_app: Flask, fclient: FlaskClient, route: tuple[str, str],
                                 data: dict[str, str]) -> None:  # fmt: skip
    method, path = route
    before = snapshot(fuzz_app)
    if method == "GET":
        r = fclient.get(path, query_string=data)
    else:
        r = fclient.post(path, data=data)
    assert r.status_code < 500, r.data[:800]
    if r.status_code >= 400:
        assert snapshot(fuzz_app) == before
        assert b"err" in r.data or r.status_code in (400, 403, 404)


def test_fuzz_database_is_intact(fuzz_app: Flask) -> None:
    con = sqlite3.connect(Path(fuzz_app.config["DATABASE"]))
    try:
        assert con.execute("pragma integrity_check").fetchone() == ("ok",)
    finally:
        con.close()
