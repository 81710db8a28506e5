"""A correction that changes nothing writes nothing: the same deal saved again (through the API
or the correction page untouched) keeps its version, adds no history line and leaves the sheet's
revision, so no page, list or partner list is told of a change nobody made."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from skatcalc.services import sheets as service
from tests.deal_bodies import form_fields

API = "/api/v1/sheets"
# the cards as an app may send them: not in the order the page lists them
GRAND = {"game": "grand", "declarer": "B", "declarer_points": 75,
         "cards": ["SJ", "CA", "CT", "CK", "CQ", "C9", "C8", "C7", "SA", "CJ"]}  # fmt: skip


def _sheet(client: FlaskClient) -> int:
    r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A"})
    assert r.status_code == 201
    sid = int(r.get_json()["id"])
    assert client.post(f"{API}/{sid}/deals", json=GRAND).status_code == 201
    return sid


def _state(client: FlaskClient, sid: int) -> tuple[dict[str, Any], list[str], int]:
    """Deal 1, the history's actions and the sheet's stored revision."""
    sheet = client.get(f"{API}/{sid}").get_json()
    with client.application.app_context():
        rev = service.load_sheet(service.get_db(), sid).rev
    return sheet["deals"][0], [h["action"] for h in sheet["history"]], rev


def test_the_same_body_again_through_the_api_stores_nothing(client: FlaskClient) -> None:
    sid = _sheet(client)
    before = _state(client, sid)
    for body in (GRAND, {**GRAND, "n": 1, "dealer": "A"}, {**GRAND, "active": ["B", "C", "A"]}):
        r = client.put(f"{API}/{sid}/deals/1", json=body, headers={"If-Match": "1"})
        assert r.status_code == 200, r.get_json()
        assert r.get_json()["deals"][0]["version"] == 1
        assert _state(client, sid) == before
    # a real change is stored as before: a new version and a history line
    r = client.put(f"{API}/{sid}/deals/1", json={**GRAND, "declarer_points": 80})
    assert r.status_code == 200
    deal, actions, rev = _state(client, sid)
    assert (deal["version"], actions) == (2, ["add", "correct"]) and rev > before[2]


def test_an_unchanged_body_on_a_stale_version_is_still_a_conflict(client: FlaskClient) -> None:
    sid = _sheet(client)
    r = client.put(f"{API}/{sid}/deals/1", json=GRAND, headers={"If-Match": "7"})
    assert r.status_code == 409  # the caller learns its version is not the deal's


def test_the_correction_page_saved_untouched_stores_nothing(client: FlaskClient) -> None:
    sid = _sheet(client)
    before = _state(client, sid)
    action = f"/sheets/{sid}/deals/1/edit"
    fields = form_fields(client.get(action).data.decode(), action)
    r = client.post(action, data=MultiDict(fields))
    assert r.status_code == 302
    assert _state(client, sid) == before
    page = client.get(f"/sheets/{sid}").data.decode()
    assert "Spiel 1 unverändert: nichts gespeichert." in page
    assert "korrigiert" not in page
    # the same form with one thing changed is a correction
    changed = [(k, "90" if k == "declarer_points" else v) for k, v in fields]
    assert client.post(action, data=MultiDict(changed)).status_code == 302
    deal, actions, _rev = _state(client, sid)
    assert (deal["version"], deal["input"]["declarer_points"], actions) == (
        2,
        90,
        ["add", "correct"],
    )


def test_an_unchanged_save_on_a_closed_sheet_is_refused_as_any_write(client: FlaskClient) -> None:
    sid = _sheet(client)
    action = f"/sheets/{sid}/deals/1/edit"
    fields = form_fields(client.get(action).data.decode(), action)
    assert client.post(f"{API}/{sid}/close", json={}).status_code == 200
    assert client.post(action, data=MultiDict(fields)).status_code == 409
    assert client.put(f"{API}/{sid}/deals/1", json=GRAND).status_code == 409


def test_an_untouched_form_never_undoes_a_change_made_meanwhile(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Phone 1 opens deal 1 (version 1); phone 2 corrects it before phone 1 saves its form
    untouched: phone 1 is told of the other change (409), phone 2's correction stays."""
    sid = _sheet(client)
    action = f"/sheets/{sid}/deals/1/edit"
    fields = form_fields(client.get(action).data.decode(), action)
    real = service.correct_deal

    def meanwhile(db: Any, sheet: Any, n: int, body: Any, *args: Any, **kwargs: Any) -> Any:
        real(db, sheet, n, {**GRAND, "declarer_points": 90}, "de", None)  # phone 2
        monkeypatch.setattr(service, "correct_deal", real)
        return real(db, sheet, n, body, *args, **kwargs)

    monkeypatch.setattr(service, "correct_deal", meanwhile)
    assert client.post(action, data=MultiDict(fields)).status_code == 409
    deal, actions, _rev = _state(client, sid)
    assert (deal["version"], deal["input"]["declarer_points"], actions) == (
        2,
        90,
        ["add", "correct"],
    )
