"""Double entry at the desk: a table's seating exists once. Every desk change (swap, redraw,
rename, the deals that name the player included) reaches list B exactly as list A, and the
two lists are compared by the players' names, not by seat position."""

from __future__ import annotations

import io
from typing import Any

from flask.testing import FlaskClient
from pypdf import PdfReader

API = "/api/v1"
GRAND = {"game": "grand", "with": True, "matadors": 1, "declarer_points": 75}
NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gabi", "Hugo"]


def _event(client: FlaskClient) -> tuple[int, list[dict[str, Any]]]:
    """A double-entry Skat event (two tables of four, 4 deals a series), organiser's cookie."""
    r = client.post(f"{API}/events", json={"name": "Doppelt", "game": "skat",
                                           "deals": {"4": 4}, "double_entry": True})  # fmt: skip
    assert r.status_code == 201, r.json
    event_id = r.json["id"]
    client.get(f"/events/{event_id}/edit/{r.json['edit_token']}")
    assert client.post(f"{API}/events/{event_id}/players", json={"names": NAMES}).status_code == 200
    r = client.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": 7})
    assert r.status_code == 201, r.json
    return event_id, r.json["tables"]


def _sheet(client: FlaskClient, sheet: int) -> dict[str, Any]:
    return client.get(f"{API}/sheets/{sheet}").json  # type: ignore[no-any-return]


def _same_seating(client: FlaskClient, tables: list[dict[str, Any]]) -> None:
    for t in tables:
        a, b = _sheet(client, t["sheet"]), _sheet(client, t["sheet_b"])
        assert (b["players"], b["first_dealer"]) == (a["players"], a["first_dealer"])
        assert (a["players"], a["first_dealer"]) == (t["players"], t["first_dealer"])


def _declare(client: FlaskClient, sheet: int, who: str) -> None:
    r = client.post(f"{API}/sheets/{sheet}/deals", json={"declarer": who, **GRAND})
    assert r.status_code == 201, r.json


def _tables(client: FlaskClient, event_id: int) -> list[dict[str, Any]]:
    return client.get(f"{API}/events/{event_id}").json["series"][0]["tables"]  # type: ignore[no-any-return]


def test_a_swap_reaches_list_b_and_its_phone_takes_the_new_player(client: FlaskClient) -> None:
    event_id, (t1, t2) = _event(client)
    a, b = t1["players"][0], t2["players"][1]  # a deals first at table 1
    r = client.post(f"{API}/events/{event_id}/series/1/swap", json={"a": a, "b": b})
    assert r.status_code == 200, r.json
    tables = [
        {**t, "sheet_b": old["sheet_b"]} for t, old in zip(r.json["tables"], (t1, t2), strict=True)
    ]
    _same_seating(client, tables)
    assert _sheet(client, t1["sheet_b"])["first_dealer"] == b
    # both phones enter the first deal with the new seats: list B no longer refuses the
    # player who moved in ("Bitte den Alleinspieler wählen")
    new2 = tables[1]["players"]
    for sheet in (t2["sheet"], t2["sheet_b"]):
        _declare(client, sheet, a if new2[1] == a else new2[1])
    t = client.get(f"{API}/events/{event_id}/series/1/tables/2").json
    assert t["list_b"]["differences"] == [] and t["list_b"]["agreed"] == 1


def test_a_redraw_reaches_list_b(client: FlaskClient) -> None:
    event_id, tables = _event(client)
    r = client.post(f"{API}/events/{event_id}/series/1/redraw", json={"seed": 12345})
    assert r.status_code == 200, r.json
    assert [t["players"] for t in r.json["tables"]] != [t["players"] for t in tables]
    _same_seating(client, [{**t, "sheet_b": old["sheet_b"]}
                           for t, old in zip(r.json["tables"], tables, strict=True)])  # fmt: skip


def test_a_deal_on_list_b_alone_stops_swap_and_redraw(client: FlaskClient) -> None:
    """The seats are settled once either list has a deal: list B's counts as list A's."""
    event_id, (t1, t2) = _event(client)
    _declare(client, t1["sheet_b"], t1["players"][1])
    r = client.post(f"{API}/events/{event_id}/series/1/swap",
                    json={"a": t1["players"][0], "b": t2["players"][0]})  # fmt: skip
    assert r.status_code == 409 and "An Tisch 1" in r.json["errors"]["_"][0]
    assert client.post(f"{API}/events/{event_id}/series/1/redraw", json={}).status_code == 409
    assert _sheet(client, t1["sheet_b"])["players"] == t1["players"]


def test_a_rename_reaches_list_b_its_deals_and_the_comparison(client: FlaskClient) -> None:
    event_id, (t1, _t2) = _event(client)
    old = t1["players"][1]
    for sheet in (t1["sheet"], t1["sheet_b"]):
        _declare(client, sheet, old)
    r = client.post(f"{API}/events/{event_id}/players/rename", json={"from": old, "to": "Zora"})
    assert r.status_code == 200, r.json
    a, b = _sheet(client, t1["sheet"]), _sheet(client, t1["sheet_b"])
    assert b["players"] == a["players"] and "Zora" in b["players"] and old not in b["players"]
    assert b["deals"][0]["input"]["declarer"] == "Zora" == a["deals"][0]["input"]["declarer"]
    t = client.get(f"{API}/events/{event_id}/series/1/tables/1").json
    assert t["list_b"]["differences"] == [] and t["list_b"]["agreed"] == 1
    # list B's phone goes on with the new name
    _declare(client, t1["sheet_b"], a["players"][2])
    _declare(client, t1["sheet"], a["players"][2])
    ranking = {row["player"]: row["score"] for row in
               client.get(f"{API}/events/{event_id}/ranking").json["rows"]}  # fmt: skip
    assert ranking["Zora"] > 0 and old not in ranking


def test_the_pdf_does_not_agree_over_other_names(client: FlaskClient) -> None:
    """List B holding another player's name in a seat (kept apart by the old desk) is a
    difference in the event's PDF, not "Liste B stimmt mit Liste A überein"."""
    from skatcalc import store
    from skatcalc.store import events as rows_of

    event_id, (t1, _t2) = _event(client)
    seats_b = [*t1["players"]]
    seats_b[1] = "Xaver"  # as if list B had kept a seat the desk changed on list A only
    with client.application.app_context():
        rows_of.reseat_sheet(store.get_db(), t1["sheet_b"], seats_b, t1["first_dealer"],
                             store.now())  # fmt: skip
    _declare(client, t1["sheet"], t1["players"][1])
    _declare(client, t1["sheet_b"], "Xaver")
    t = client.get(f"{API}/events/{event_id}/series/1/tables/1").json
    assert [d["deal"] for d in t["list_b"]["differences"]] == [1]
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(
        client.get(f"/events/{event_id}/event.pdf").data)).pages)  # fmt: skip
    assert "noch nicht gezählt" in text
    assert text.count("stimmt mit Liste A überein") == 1  # table 2's, with no deals yet
