"""A correction saved untouched gives back the same deal and the same value: for every deal
body of both games under every house rule, the correction page's form (as a browser without
JavaScript sends it) stores the same normalised body, the same dealer and players and the
same row (docs/rules.md "Corrections")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from skatcalc import create_app
from tests.deal_bodies import (
    SKAT_NAMES,
    form_fields,
    normal,
    schafkopf_deal,
    schafkopf_rules,
    skat_deal,
    skat_rules,
)

API = "/api/v1/sheets"


@pytest.fixture(scope="module")
def shared() -> Iterator[FlaskClient]:
    """One app for every example of a law (a sheet per example)."""
    with TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": str(Path(tmp) / "t.sqlite"),
                          "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False})  # fmt: skip
        yield app.test_client()


def stored(client: FlaskClient, sid: int, n: int = 1) -> tuple[dict[str, Any], dict[str, Any]]:
    """Deal ``n`` as the sheet stores it, and the sheet's totals."""
    sheet = client.get(f"{API}/{sid}").get_json()
    return sheet["deals"][n - 1], sheet["totals"]


def saved_untouched(client: FlaskClient, sid: int, n: int = 1) -> Any:
    """Open deal n's correction and save it as the page sends it, untouched."""
    page = client.get(f"/sheets/{sid}/deals/{n}/edit")
    assert page.status_code == 200
    fields = form_fields(page.data.decode(), f"/sheets/{sid}/deals/{n}/edit")
    assert fields, "the correction page has no form"
    return client.post(f"/sheets/{sid}/deals/{n}/edit", data=MultiDict(fields))


def check_roundtrip(client: FlaskClient, game: str, players: list[str],
                    rules: dict[str, Any], body: dict[str, Any]) -> None:  # fmt: skip
    r = client.post(API, json={"game": game, "players": players, "rules": rules})
    assert r.status_code == 201, r.get_json()
    sid = r.get_json()["id"]
    if client.post(f"{API}/{sid}/deals", json=body).status_code != 201:
        reject()  # a body the sheet refuses is no deal to correct
    before, totals_before = stored(client, sid)
    r = saved_untouched(client, sid)
    assert r.status_code == 302, r.data.decode()[:3000]
    after, totals_after = stored(client, sid)
    dealer = before["dealer"]
    assert normal(game, after["input"], dealer) == normal(game, body, dealer)
    # (the order of who played means nothing: Vorhand follows from the seats and the dealer)
    assert (after["dealer"], set(after["active"])) == (before["dealer"], set(before["active"]))
    same = ("value", "deltas", "declarer", "party", "title", "marks", "bock", "kind")
    assert {k: after.get(k) for k in same} == {k: before.get(k) for k in same}
    assert totals_after == totals_before


@st.composite
def skat_cases(draw: st.DrawFn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    players = SKAT_NAMES[: draw(st.sampled_from([3, 3, 4, 5]))]
    rules = draw(skat_rules())
    return players, rules, draw(skat_deal(players, rules))


@st.composite
def schafkopf_cases(draw: st.DrawFn) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    players = SKAT_NAMES[: draw(st.sampled_from([4, 4, 5]))]
    rules = draw(schafkopf_rules())
    return players, rules, draw(schafkopf_deal(players, rules))


@settings(max_examples=100)
@given(skat_cases())
def test_law_skat_correction_saved_untouched_keeps_the_deal(
    shared: FlaskClient, case: tuple[list[str], dict[str, Any], dict[str, Any]]
) -> None:
    check_roundtrip(shared, "skat", *case)


@settings(max_examples=100)
@given(schafkopf_cases())
def test_law_schafkopf_correction_saved_untouched_keeps_the_deal(
    shared: FlaskClient, case: tuple[list[str], dict[str, Any], dict[str, Any]]
) -> None:
    check_roundtrip(shared, "schafkopf", *case)


# The deals of the issue, each named: they failed before the one mapping (the level dropped).
ISSUE_DEALS = [
    {"game": "diamonds", "with": True, "matadors": 3, "won": True, "schneider": True,
     "declarer": "Bernd"},  # 45, not 36
    {"game": "clubs", "with": True, "matadors": 1, "won": True, "all_tricks": "declarer",
     "declarer": "Bernd"},  # 48, not 24
    {"game": "grand", "with": False, "matadors": 2, "won": False, "schneider": True,
     "declarer": "Bernd"},  # lost, the declarer schneider
    {"game": "hearts", "with": True, "matadors": 2, "won": False, "all_tricks": "opponents",
     "declarer": "Bernd"},  # lost schwarz
    {"game": "spades", "with": True, "matadors": 1, "declarer_points": 0,
     "all_tricks": "opponents", "declarer": "Bernd"},
]  # fmt: skip


@pytest.mark.parametrize("body", ISSUE_DEALS)
def test_skat_correction_keeps_schneider_and_schwarz(client: FlaskClient,
                                                     body: dict[str, Any]) -> None:  # fmt: skip
    check_roundtrip(client, "skat", ["Anna", "Bernd", "Carla"], {}, body)


def test_correcting_another_detail_keeps_the_level(client: FlaskClient) -> None:
    """Kreuz mit 1 schwarz, the bid corrected from 18 to 24: still schwarz (48)."""
    sid = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).get_json()["id"]
    body = {"game": "clubs", "with": True, "matadors": 1, "won": True,
            "all_tricks": "declarer", "declarer": "B"}  # fmt: skip
    assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    assert stored(client, sid)[0]["value"] == 48
    page = client.get(f"/sheets/{sid}/deals/1/edit").data.decode()
    fields = [(k, "24" if k == "bid" else v)
              for k, v in form_fields(page, f"/sheets/{sid}/deals/1/edit")]  # fmt: skip
    assert client.post(f"/sheets/{sid}/deals/1/edit", data=MultiDict(fields)).status_code == 302
    deal = stored(client, sid)[0]
    assert (deal["value"], deal["input"]["bid"], deal["input"]["all_tricks"]) == (
        48,
        24,
        "declarer",
    )
