"""Settled stays settled at the close: a double-entry event closes only with every table's
lists agreeing, level and confirmed (or on the organiser's word, ``force``); a closed event
refuses every write to its figures until it is reopened; and every change of a settled
figure is in the event's history with who made it and when."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

API = "/api/v1"
GRAND = {"game": "grand", "with": True, "matadors": 1, "declarer_points": 75}
LOST = {"game": "grand", "with": True, "matadors": 1, "declarer_points": 45}
NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gabi", "Hugo"]


def _event(client: FlaskClient, double: bool = True, names: list[str] = NAMES,
           deals: int = 4) -> tuple[int, list[dict[str, Any]]]:  # fmt: skip
    r = client.post(f"{API}/events", json={"name": "Preisskat", "game": "skat",
                                           "deals": {"4": deals}, "double_entry": double})  # fmt: skip
    assert r.status_code == 201, r.json
    event_id = r.json["id"]
    client.get(f"/events/{event_id}/edit/{r.json['edit_token']}")
    assert client.post(f"{API}/events/{event_id}/players", json={"names": names}).status_code == 200
    r = client.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": 3})
    assert r.status_code == 201, r.json
    return event_id, r.json["tables"]


def _play(client: FlaskClient, sheet: int, seats: list[str], bodies: list[dict[str, Any]]) -> None:
    for i, body in enumerate(bodies):
        declarer = seats[(i + 1) % 4]  # forehand: the seat after the dealer
        r = client.post(f"{API}/sheets/{sheet}/deals", json={"declarer": declarer, **body})
        assert r.status_code == 201, r.json


def _settle(client: FlaskClient, event_id: int, t: dict[str, Any]) -> None:
    """Both lists of a table with the same four deals, confirmed by the captain."""
    for sheet in (t["sheet"], t["sheet_b"]):
        _play(client, sheet, t["players"], [GRAND] * 4)
    r = client.post(f"{API}/events/{event_id}/series/1/tables/{t['table']}/confirm",
                    json={"captain": True})  # fmt: skip
    assert r.status_code == 200, r.json


def test_the_close_names_every_open_table_and_closes_only_with_force(client: FlaskClient) -> None:
    event_id, (t1, t2) = _event(client)
    _settle(client, event_id, t1)
    # table 2: list B differs at deal 2 and lags one deal behind; nobody confirmed
    _play(client, t2["sheet"], t2["players"], [GRAND] * 4)
    _play(client, t2["sheet_b"], t2["players"], [GRAND, LOST, GRAND])
    r = client.post(f"{API}/events/{event_id}/close", json={"pot_cents": 5000})
    assert r.status_code == 409, r.json
    assert r.json["errors"]["_"] == [
        "Tisch 2 (Serie 1): Liste B weicht bei Spiel 2 ab; Liste B hat 3 von 4 Spielen; "
        "nicht bestätigt",
        "Trotzdem abschließen: mit „force“: true.",
    ]
    assert r.json["event"]["closed"] is None and r.json["event"]["pot_cents"] is None
    en = client.post(f"{API}/events/{event_id}/close", json={},
                     headers={"Accept-Language": "en"})  # fmt: skip
    assert en.json["errors"]["_"][0].startswith("Table 2 (series 1): list B differs at deal 2")
    assert client.post(f"{API}/events/{event_id}/close", json={"force": 1}).status_code == 422
    r = client.post(f"{API}/events/{event_id}/close", json={"pot_cents": 5000, "force": True})
    assert r.status_code == 200 and r.json["closed"] and r.json["pot_cents"] == 5000
    history = client.get(f"{API}/events/{event_id}").json["history"]
    assert {"action": "close", "force": True, "open": [{"series": 1, "table": 2}],
            "by": "organiser"}.items() <= history[-1].items()  # fmt: skip


def test_an_agreed_confirmed_event_closes_without_force(client: FlaskClient) -> None:
    event_id, tables = _event(client)
    for t in tables:
        _settle(client, event_id, t)
    assert client.post(f"{API}/events/{event_id}/close", json={}).status_code == 200


def test_an_event_with_one_list_per_table_closes_as_before(client: FlaskClient) -> None:
    event_id, _tables = _event(client, double=False)
    assert client.post(f"{API}/events/{event_id}/close", json={}).status_code == 200


def test_the_close_page_lists_the_open_tables_before_the_button(client: FlaskClient) -> None:
    event_id, (t1, _t2) = _event(client)
    _play(client, t1["sheet"], t1["players"], [GRAND])
    html = client.get(f"/events/{event_id}/close").get_data(as_text=True)
    listed = html.index("Tisch 1 (Serie 1): Liste B hat 0 von 1 Spielen; nicht bestätigt")
    assert listed < html.index('value="close"')
    assert "Tisch 2 (Serie 1): nicht bestätigt" in html
    form = {"payout_kind": "shares", "payout": "50/30/20", "action": "close"}
    r = client.post(f"/events/{event_id}/close", data=form)
    assert r.status_code == 409 and "Trotz offener Listen abschließen" in r.get_data(as_text=True)
    assert client.get(f"{API}/events/{event_id}").json["closed"] is None
    r = client.post(f"/events/{event_id}/close", data={**form, "force": "1"})
    assert r.status_code == 302
    assert client.get(f"{API}/events/{event_id}").json["closed"]


def test_a_closed_event_keeps_its_prizes_until_reopened(client: FlaskClient) -> None:
    event_id, _tables = _event(client, double=False)
    payout = {"kind": "shares", "values": [60, 40]}
    r = client.post(f"{API}/events/{event_id}/close", json={"payout": payout, "pot_cents": 8000})
    assert r.status_code == 200
    closed = client.get(f"{API}/events/{event_id}").json
    # the same close again: nothing changes (as documented, 200)
    again = client.post(f"{API}/events/{event_id}/close",
                        json={"payout": payout, "pot_cents": 8000})  # fmt: skip
    assert again.status_code == 200 and again.json["closed"] == closed["closed"]
    assert client.post(f"{API}/events/{event_id}/close", json={}).status_code == 200
    for body in ({"pot_cents": 9000}, {"payout": {"kind": "shares", "values": [100]}},
                 {"pot_cents": None}):  # fmt: skip
        r = client.post(f"{API}/events/{event_id}/close", json=body)
        assert r.status_code == 409, body
        assert "Erst wieder öffnen" in r.json["errors"]["_"][0]
        assert r.json["event"]["pot_cents"] == 8000
    after = client.get(f"{API}/events/{event_id}").json
    assert after["payout"] == closed["payout"] and after["history"] == closed["history"]
    # the close page's save is refused alike
    r = client.post(f"/events/{event_id}/close",
                    data={"payout_kind": "shares", "payout": "100", "pot": "90"})  # fmt: skip
    assert r.status_code == 409 and "Erst wieder öffnen" in r.get_data(as_text=True)
    assert client.get(f"{API}/events/{event_id}").json["pot_cents"] == 8000
    # reopened, the organiser changes the plan and closes again
    assert client.post(f"{API}/events/{event_id}/reopen", json={}).status_code == 200
    r = client.post(f"{API}/events/{event_id}/close", json={"pot_cents": 9000})
    assert r.status_code == 200 and r.json["pot_cents"] == 9000
    actions = [h["action"] for h in client.get(f"{API}/events/{event_id}").json["history"]]
    assert actions == ["register", "prizes", "close", "reopen", "prizes", "close"]


def test_a_closed_event_keeps_its_registrations(client: FlaskClient) -> None:
    """Taking back a registration (a player who never played) would lower the fees and move
    the prizes per players: a closed event refuses it and says why."""
    event_id, _tables = _event(client, double=False)
    r = client.post(f"{API}/events/{event_id}/players", json={"names": ["Ida"]})
    assert r.status_code == 200
    before = client.get(f"{API}/events/{event_id}/prizes").json
    client.post(f"{API}/events/{event_id}/close", json={})
    regs = client.get(f"{API}/events/{event_id}").json["registrations"]
    reg_id = len(regs)  # Ida, registered last
    for action in ("remove", "away"):
        r = client.post(f"/events/{event_id}/players/{reg_id}/{action}", follow_redirects=True)
        assert "Die Veranstaltung ist abgeschlossen" in r.get_data(as_text=True), action
    event = client.get(f"{API}/events/{event_id}").json
    assert "Ida" in event["players"] and not event["registrations"][-1]["away"]
    assert client.get(f"{API}/events/{event_id}/prizes").json == before | {
        "closed": event["closed"]
    }
    # registering after the close stays 422
    r = client.post(f"{API}/events/{event_id}/players", json={"names": ["Jan"]})
    assert r.status_code == 422
    # reopened, the registration is taken back, in the history
    client.post(f"{API}/events/{event_id}/reopen", json={})
    r = client.post(f"/events/{event_id}/players/{reg_id}/remove", follow_redirects=True)
    assert "Abgemeldet: Ida" in r.get_data(as_text=True)
    history = client.get(f"{API}/events/{event_id}").json["history"]
    assert {"action": "unregister", "player": "Ida", "by": "organiser"}.items() <= history[
        -1
    ].items()


def test_the_history_says_who_and_when(lan_app: Flask) -> None:
    """Every change of a settled figure is in the history with the right it was made with:
    the organiser's link or the admin's."""
    from skatcalc.web.rights import admin_token

    organiser = lan_app.test_client()
    event_id, _tables = _event(organiser, double=False)
    organiser.post(f"{API}/events/{event_id}/fees/paid", json={"player": "Anna", "series": 0})
    organiser.post(f"{API}/events/{event_id}/close", json={"pot_cents": 100})
    admin = lan_app.test_client()
    with lan_app.test_request_context():
        token = admin_token()
    r = admin.post(f"{API}/events/{event_id}/reopen", json={},
                   headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert r.status_code == 200
    history = organiser.get(f"{API}/events/{event_id}").json["history"]
    assert [(h["action"], h.get("by")) for h in history] == [
        ("register", "organiser"), ("paid", "organiser"), ("prizes", "organiser"),
        ("close", "organiser"), ("reopen", "admin")]  # fmt: skip
    assert all(h["at"] for h in history)
    html = organiser.get(f"/events/{event_id}/close").get_data(as_text=True)
    assert "wieder geöffnet (Admin)" in html and "abgeschlossen (Turnierleitung)" in html
    assert "Auszahlung 50 / 30 / 20 %, Topf 1,00 € (Turnierleitung)" in html
