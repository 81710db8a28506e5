"""Random input at the players, groups and standings routes: never a 5xx, always the
documented error shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skatcalc import create_app
from tests.web.test_fuzz import json_values, nasty_text

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
group_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"name": nasty_text, "game": st.sampled_from(["skat", "schafkopf", "x"])},
        optional={
            "rules": st.one_of(
                json_values,
                st.dictionaries(
                    st.sampled_from(["rank_by", "min_sheets", "best", "x"]), json_values, max_size=3
                ),
            )
        },
    ),  # fmt: skip
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    path = tmp_path_factory.mktemp("pfuzz") / "p.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "f",
                      "WTF_CSRF_ENABLED": False, "PROPAGATE_EXCEPTIONS": False})  # fmt: skip
    c = app.test_client()
    c.post("/api/v1/groups", json={"name": "G", "game": "skat"})
    c.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C"], "group": 1})
    yield app


@SETTINGS
@given(body=group_bodies)
def test_group_creation_never_fails_badly(app: Flask, body: object) -> None:
    resp = app.test_client().post("/api/v1/groups", json=body)
    assert resp.status_code in (201, 415, 422)  # 415: no JSON body at all (None)
    if resp.status_code == 422:
        assert isinstance(resp.get_json()["errors"], dict)


@SETTINGS
@given(group=json_values)
def test_sheet_group_field_never_fails_badly(app: Flask, group: object) -> None:
    body = {"game": "skat", "players": ["A", "B", "C"], "group": group}
    resp = app.test_client().post("/api/v1/sheets", json=body)
    assert resp.status_code in (201, 422)
    if resp.status_code == 422:  # the group, or a number JSON cannot carry (inf, nan)
        assert set(resp.get_json()["errors"]) & {"group", "_"}


@SETTINGS
@given(start=nasty_text, end=nasty_text, form=st.dictionaries(
    st.sampled_from(["name", "game", "rank_by", "min_sheets", "best", "other", "sheet"]),
    nasty_text, max_size=5))  # fmt: skip
def test_pages_and_standings_never_fail_badly(
    app: Flask, start: str, end: str, form: dict[str, str]
) -> None:
    c = app.test_client()
    q = {"from": start, "to": end}
    assert c.get("/api/v1/groups/1/standings", query_string=q).status_code in (200, 422)
    assert c.get("/groups/1", query_string=q).status_code in (200, 422)
    for path in ("/groups", "/groups/1/edit", "/groups/1/sheets", "/players/1/merge"):
        assert c.post(path, data=form).status_code < 500, path
    assert c.post("/players/2/rename", data=form).status_code < 500
