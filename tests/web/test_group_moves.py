"""A sheet moves into a group only with the group's right and its own (its edit link or the
admin's): a group's link alone pulls no one else's evening into its standings. A closed sheet
or a club night's table is never moved, in or out (409), and nothing changes on a refusal."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.support import admin_token

API = "/api/v1"
SKAT = {"game": "skat", "players": ["Anna", "Bernd", "Carla"]}
SHEET_REFUSED = "Ein Blatt kommt nur mit seinem Bearbeitungs-Link in eine Gruppe."
LOOPBACK = {"REMOTE_ADDR": "127.0.0.1"}


def _group(client: FlaskClient, name: str = "Stammtisch") -> dict[str, Any]:
    r = client.post(f"{API}/groups", json={"name": name, "game": "skat"})
    assert r.status_code == 201
    client.get(f"/groups/{r.json['id']}/edit/{r.json['edit_token']}")  # the group's cookie
    return dict(r.json)


def _sheet(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    r = client.post(f"{API}/sheets", json={**SKAT, **extra})
    assert r.status_code == 201, r.json
    return dict(r.json)


def _group_of(client: FlaskClient, sheet_id: int) -> int | None:
    group = client.get(f"{API}/sheets/{sheet_id}").json["group"]
    return None if group is None else int(group)


def _table(client: FlaskClient, group: int | None = None) -> tuple[int, list[int]]:
    """A club night with one series seated (list B kept too): its id and its tables' sheets."""
    body: dict[str, Any] = {"game": "skat", "deals": {"4": 4, "3": 3}}
    r = client.post(f"{API}/events", json=body if group is None else {**body, "group": group})
    assert r.status_code == 201, r.json
    event_id = r.json["id"]
    client.get(f"/events/{event_id}/edit/{r.json['edit_token']}")  # the organiser's cookie
    client.post(f"{API}/events/{event_id}/players", json={"names": list("ABCD")})
    r = client.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": 1})
    assert r.status_code == 201, r.json
    return event_id, [t["sheet"] for t in r.json["tables"]]


def test_a_group_link_alone_pulls_no_one_elses_sheet(lan_app: Flask) -> None:
    owner = lan_app.test_client()
    group = _group(owner)
    stranger = lan_app.test_client()
    theirs = _sheet(stranger)  # made by another browser: its edit link is theirs
    before = stranger.get(f"{API}/sheets/{theirs['id']}").json
    resp = owner.post(f"/groups/{group['id']}/sheets", data={"sheet": str(theirs["id"])})
    assert resp.status_code == 403 and SHEET_REFUSED in resp.get_data(as_text=True)
    assert _group_of(owner, theirs["id"]) is None
    assert stranger.get(f"{API}/sheets/{theirs['id']}").json == before  # nothing changed
    # the group page offers only the sheets this browser may move
    page = owner.get(f"/groups/{group['id']}").get_data(as_text=True)
    assert f'<option value="{theirs["id"]}">' not in page
    # with the sheet's edit link as well, it joins
    owner.get(f"/sheets/{theirs['id']}/edit/{theirs['edit_token']}")
    page = owner.get(f"/groups/{group['id']}").get_data(as_text=True)
    assert f'<option value="{theirs["id"]}">' in page
    resp = owner.post(f"/groups/{group['id']}/sheets", data={"sheet": str(theirs["id"])})
    assert resp.status_code == 302 and _group_of(owner, theirs["id"]) == group["id"]


def test_the_admin_right_moves_any_sheet_and_another_groups_sheet_needs_its_edit_link(
    lan_app: Flask,
) -> None:
    owner = lan_app.test_client()
    mine = _group(owner, "Meine Runde")
    other = lan_app.test_client()
    theirs = _group(other, "Fremde Runde")
    evening = _sheet(other, group=theirs["id"], group_token=theirs["edit_token"])
    # their season's evening is not pulled out of their standings by my group's link
    resp = owner.post(f"/groups/{mine['id']}/sheets", data={"sheet": str(evening["id"])})
    assert resp.status_code == 403 and _group_of(owner, evening["id"]) == theirs["id"]
    admin = lan_app.test_client()
    admin.get(f"/admin/{admin_token(lan_app)}")
    loose = _sheet(other)
    resp = admin.post(f"/groups/{mine['id']}/sheets", data={"sheet": str(loose["id"])})
    assert resp.status_code == 302 and _group_of(admin, loose["id"]) == mine["id"]


def test_a_closed_sheet_is_not_moved_in_or_out(client: FlaskClient) -> None:
    group = _group(client)
    closed = _sheet(client)
    assert client.post(f"{API}/sheets/{closed['id']}/close", json={}).status_code == 200
    resp = client.post(f"/groups/{group['id']}/sheets", data={"sheet": str(closed["id"])})
    assert resp.status_code == 409 and "abgeschlossen" in resp.get_data(as_text=True)
    assert _group_of(client, closed["id"]) is None
    page = client.get(f"/groups/{group['id']}").get_data(as_text=True)
    assert f'<option value="{closed["id"]}">' not in page  # not offered either
    inside = _sheet(client, group=group["id"])
    assert client.post(f"{API}/sheets/{inside['id']}/close", json={}).status_code == 200
    resp = client.post(f"/groups/{group['id']}/sheets/{inside['id']}/remove")
    assert resp.status_code == 409 and _group_of(client, inside["id"]) == group["id"]
    # reopened, it moves again
    assert client.post(f"{API}/sheets/{inside['id']}/reopen", json={}).status_code == 200
    resp = client.post(f"/groups/{group['id']}/sheets/{inside['id']}/remove")
    assert resp.status_code == 302 and _group_of(client, inside["id"]) is None


def test_a_club_nights_table_is_not_moved(client: FlaskClient) -> None:
    group = _group(client)
    _event, tables = _table(client)
    resp = client.post(f"/groups/{group['id']}/sheets", data={"sheet": str(tables[0])})
    assert resp.status_code == 409 and "Tisch" in resp.get_data(as_text=True)
    assert _group_of(client, tables[0]) is None
    page = client.get(f"/groups/{group['id']}").get_data(as_text=True)
    assert f'<option value="{tables[0]}">' not in page
    # a table in the group through its event stays there: its group is the event's
    _event2, (table,) = _table(client, group["id"])
    assert _group_of(client, table) == group["id"]
    resp = client.post(f"/groups/{group['id']}/sheets/{table}/remove")
    assert resp.status_code == 409 and _group_of(client, table) == group["id"]


def test_a_closed_tournaments_table_is_not_moved(client: FlaskClient) -> None:
    group = _group(client)
    event_id, (table,) = _table(client)
    assert client.post(f"{API}/events/{event_id}/close", json={}).status_code == 200
    resp = client.post(f"/groups/{group['id']}/sheets", data={"sheet": str(table)})
    assert resp.status_code == 409 and _group_of(client, table) is None


def test_moves_without_the_group_right_are_refused_before_the_sheet_is_read(
    lan_app: Flask,
) -> None:
    owner = lan_app.test_client()
    group = _group(owner)
    sheet = _sheet(owner)
    other = lan_app.test_client()
    for data in ({"sheet": str(sheet["id"])}, {"sheet": "999"}):
        resp = other.post(f"/groups/{group['id']}/sheets", data=data, environ_base=LOOPBACK)
        assert resp.status_code == 403
    assert _group_of(owner, sheet["id"]) is None
