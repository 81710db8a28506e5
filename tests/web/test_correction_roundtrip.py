"""A correction saved untouched gives back the same deal and the same value: for every deal
body of both games under every house rule, the correction page's form (as a browser without
JavaScript sends it) stores the same normalised body, the same dealer and players and the
same row (docs/rules.md "Corrections")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from tests.deal_bodies import (
    SKAT_NAMES,
    form_fields,
    normal,
    schafkopf_deal,
    schafkopf_rules,
    skat_deal,
    skat_rules,
)
from tests.support import law_client

API = "/api/v1/sheets"


@pytest.fixture(scope="module")
def shared() -> Iterator[FlaskClient]:
    """One app for every example of a law (a sheet per example)."""
    with law_client() as client:
        yield client


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
    # nothing changed, nothing written: no new version, no "korrigiert" line, the body as it was
    assert after["version"] == before["version"], (before, after)
    assert after["input"] == before["input"]
    assert [h["action"] for h in client.get(f"{API}/{sid}").get_json()["history"]] == ["add"]
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


def untouched_ok(client: FlaskClient, sid: int, n: int) -> None:
    """Deal n saved untouched through its correction page: the same body and row."""
    before, totals = stored(client, sid, n)
    assert saved_untouched(client, sid, n).status_code == 302
    after, totals_after = stored(client, sid, n)
    dealer = before["dealer"]
    assert normal("skat", after["input"], dealer) == normal("skat", before["input"], dealer)
    assert (after["value"], after["deltas"], totals_after) == (
        before["value"],
        before["deltas"],
        totals,
    )


def test_a_rule_turned_off_since_stays_on_for_the_deals_played_under_it(
    client: FlaskClient,
) -> None:
    """Kontra/Re and Schieberamsch turned off mid-evening: the deals before keep their Kontra
    and their pushes when corrected (the form offers what the deal's rules offered)."""
    rules = {"kontra_re": True, "ramsch": True, "schieberamsch": True}
    sid = client.post(API, json={"game": "skat", "players": ["A", "B", "C"],
                                 "rules": rules}).get_json()["id"]  # fmt: skip
    kontra = {"game": "grand", "with": True, "matadors": 1, "won": False, "kontra": True,
              "re": True, "declarer": "B"}  # fmt: skip
    pushed = {"ramsch": {"points": {"A": 60, "B": 40, "C": 20}, "pushes": 2}}
    for body in (kontra, pushed):
        assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    r = client.patch(f"{API}/{sid}", json={"rules": {"kontra_re": False, "schieberamsch": False}})
    assert r.status_code == 200
    for n in (1, 2):
        untouched_ok(client, sid, n)
    assert stored(client, sid, 1)[0]["input"]["re"] is True
    assert stored(client, sid, 2)[0]["input"]["ramsch"]["pushes"] == 2


def test_a_bockramsch_rounds_ramsch_is_corrected_as_a_ramsch(client: FlaskClient) -> None:
    """Bockramsch without Ramsch otherwise: the round's Ramsch opens as a Ramsch (the kind
    is offered) and its Grand Hand as played, also after Bockramsch was turned off."""
    sid = client.post(API, json={"game": "skat", "players": ["A", "B", "C"],
                                 "rules": {"bock": ["60-60"], "bockramsch": True}}
                      ).get_json()["id"]  # fmt: skip
    clubs = {"game": "clubs", "with": True, "matadors": 1}
    bodies = [{**clubs, "declarer_points": 60, "declarer": "B"}]
    bodies += [{**clubs, "declarer_points": 70, "declarer": p} for p in ("C", "A", "B")]
    bodies += [{"ramsch": {"points": {"C": 60, "A": 40, "B": 20}, "jungfrau": []}},
               {"game": "grand", "matadors": 1, "with": True, "hand": True,
                "declarer_points": 70, "declarer": "A"}]  # fmt: skip
    for body in bodies:
        assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    assert stored(client, sid, 5)[0]["bockramsch"] is True
    for n in (5, 6):
        untouched_ok(client, sid, n)
    client.patch(f"{API}/{sid}", json={"rules": {"bockramsch": False, "bock": []}})
    for n in (5, 6, 1):
        untouched_ok(client, sid, n)


def test_a_correction_refused_as_changed_meanwhile_keeps_what_was_typed(
    client: FlaskClient,
) -> None:
    """409: another phone corrected the deal meanwhile. The page shows the deal as it is
    now on top and the correction as typed below (with the current version), so saving
    again stores exactly what was typed."""
    sid = client.post(API, json={"game": "skat", "players": ["A", "B", "C"]}).get_json()["id"]
    body = {"game": "diamonds", "with": True, "matadors": 3, "won": True, "declarer": "B"}
    assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    page = client.get(f"/sheets/{sid}/deals/1/edit").data.decode()
    mine = [(k, v) for k, v in form_fields(page, f"/sheets/{sid}/deals/1/edit")]
    mine += [("schneider", "y"), ("schwarz", "y")]  # typed: won schneider schwarz (72 → 54)
    other = {**body, "matadors": 2}  # another phone: mit 2
    assert client.put(f"{API}/{sid}/deals/1", json=other).status_code == 200
    r = client.post(f"/sheets/{sid}/deals/1/edit", data=MultiDict(mine))
    assert r.status_code == 409
    html = r.data.decode()
    assert "anderen Gerät" in html
    again = form_fields(html, f"/sheets/{sid}/deals/1/edit")
    assert ("schneider", "y") in again and ("schwarz", "y") in again
    assert ("spitzen", "w3") in again  # what was typed, not the other phone's w2
    assert stored(client, sid)[0]["input"]["matadors"] == 2  # nothing changed by the 409
    assert client.post(f"/sheets/{sid}/deals/1/edit", data=MultiDict(again)).status_code == 302
    deal = stored(client, sid)[0]
    assert (deal["input"]["matadors"], deal["input"]["all_tricks"], deal["value"]) == (
        3,
        "declarer",
        9 * (3 + 1 + 1 + 1),
    )


@pytest.mark.parametrize("dealer", ["0", "Zora", ""])
def test_a_correction_naming_no_player_as_dealer_is_told_not_a_crash(
    client: FlaskClient, dealer: str
) -> None:
    """A correction form whose dealer is no player of the sheet (a hand-made post) is judged
    by the rules as typed: 422 with the message at the field (or, when empty, the stored
    dealer), never 500, and the deal stays as it was."""
    sid = client.post(API, json={"game": "skat", "players": ["A", "B", "C", "D"]}).get_json()["id"]
    body = {"game": "grand", "with": True, "matadors": 2, "won": True, "declarer": "B"}
    assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    before = stored(client, sid)[0]
    page = client.get(f"/sheets/{sid}/deals/1/edit").data.decode()
    fields = [(k, dealer if k == "dealer" else v)
              for k, v in form_fields(page, f"/sheets/{sid}/deals/1/edit")]  # fmt: skip
    r = client.post(f"/sheets/{sid}/deals/1/edit", data=MultiDict(fields))
    assert r.status_code in ((302,) if dealer == "" else (422,)), r.status_code
    assert stored(client, sid)[0]["value"] == before["value"]
    r = client.post(f"/sheets/{sid}/deals/1/edit", data={"dealer": dealer})
    assert r.status_code < 500
