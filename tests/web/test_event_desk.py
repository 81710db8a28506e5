"""The organiser's desk at a club night: start numbers, table cards, swapping two players and
re-drawing a series before its first deal, the projector's seating, correcting a registered
name everywhere in the event, and long names in the PDFs."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

API = "/api/v1"
GRAND = {"game": "grand", "with": True, "matadors": 1, "declarer_points": 75}
NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gabi"]


def _event(client: FlaskClient, names: list[str] | None = None,
           deals: dict[str, int] | None = None) -> tuple[int, dict[str, Any]]:  # fmt: skip
    """An event with the organiser's cookie, players registered and series 1 drawn."""
    r = client.post(f"{API}/events", json={"name": "Clubabend", "game": "skat",
                                           "deals": deals or {"4": 4, "3": 3}})  # fmt: skip
    assert r.status_code == 201, r.json
    event_id = r.json["id"]
    client.get(f"/events/{event_id}/edit/{r.json['edit_token']}")
    r = client.post(f"{API}/events/{event_id}/players", json={"names": names or NAMES})
    assert r.status_code == 200, r.json
    r = client.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": 7})
    assert r.status_code == 201, r.json
    return event_id, r.json


def _seats(client: FlaskClient, event_id: int, n: int = 1) -> list[list[str]]:
    series = client.get(f"{API}/events/{event_id}").json["series"][n - 1]
    return [t["players"] for t in series["tables"]]


def _pdf_text(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


# --- Start numbers ----------------------------------------------------------------------------


def test_start_numbers_are_given_at_registration_and_stay(client: FlaskClient) -> None:
    r = client.post(f"{API}/events", json={"game": "skat"})
    event_id = r.json["id"]
    client.get(f"/events/{event_id}/edit/{r.json['edit_token']}")
    client.post(f"{API}/events/{event_id}/players", json={"names": ["Anna", "Bernd", "Carla"]})
    client.post(f"/events/{event_id}/players/2/remove")  # Bernd was a typo
    r = client.post(f"{API}/events/{event_id}/players", json={"names": ["Dieter", "Emil"]})
    got = {x["name"]: x["start_no"] for x in r.json["registrations"]}
    assert got == {"Anna": 1, "Carla": 3, "Dieter": 4, "Emil": 5}


def test_start_numbers_show_on_the_lists_and_the_event_pdf(client: FlaskClient) -> None:
    event_id, series = _event(client)
    numbers = {x["name"]: x["start_no"]
               for x in client.get(f"{API}/events/{event_id}").json["registrations"]}  # fmt: skip
    assert numbers == {n: i for i, n in enumerate(NAMES, start=1)}
    tag = f'<span class="startno">{numbers["Gabi"]}</span> Gabi'
    for url in (f"/events/{event_id}/players", f"/events/{event_id}/series/1",
                f"/events/{event_id}/screen", f"/events/{event_id}"):  # fmt: skip
        page = client.get(url).get_data(as_text=True)
        assert tag in page or f'<span class="startno">{numbers["Gabi"]}</span> <b>Gabi' in page, url
    text = _pdf_text(client.get(f"/events/{event_id}/event.pdf").data)
    assert f"Gabi · Nr. {numbers['Gabi']}" in text


# --- Table cards ------------------------------------------------------------------------------


def test_table_cards_one_per_table_with_seats_numbers_dealer_and_qr(client: FlaskClient) -> None:
    event_id, series = _event(client)
    page = client.get(f"/events/{event_id}/series/1").get_data(as_text=True)
    assert f"/events/{event_id}/series/1/cards.pdf" in page
    r = client.get(f"/events/{event_id}/series/1/cards.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert "no-store" in r.headers["Cache-Control"]  # the cards carry the tables' edit links
    reader = PdfReader(io.BytesIO(r.data))
    assert len(reader.pages) == 1  # two tables, two cards to a page
    text = _pdf_text(r.data)
    for t in series["tables"]:
        assert f"Tisch {t['table']}" in text
        for seat, name in enumerate(t["players"], start=1):  # seat, start number, name
            assert f"{seat}. {NAMES.index(name) + 1}" in text and name in text
        assert "gibt zuerst" in text
    assert text.count("Unterschrift") == 2
    images = [img for p in reader.pages for img in p.images]
    assert len(images) == 2  # one QR code a card
    assert client.get(f"/events/{event_id}/series/2/cards.pdf").status_code == 404


def test_table_cards_only_for_the_organiser(lan_app: Flask) -> None:
    organiser = lan_app.test_client()
    event_id, _series = _event(organiser)
    stranger = lan_app.test_client()
    assert stranger.get(f"/events/{event_id}/series/1/cards.pdf").status_code == 403
    assert "cards.pdf" not in stranger.get(f"/events/{event_id}/series/1").get_data(as_text=True)


def test_names_of_any_length_fit_the_table_cards(client: FlaskClient) -> None:
    long = ["Maximiliane " + c * 28 for c in "ABCDEFG"]  # 40 characters, the longest allowed
    event_id, _series = _event(client, long)
    r = client.get(f"/events/{event_id}/series/1/cards.pdf")
    lines = _pdf_text(r.data).splitlines()
    for name in long:  # each on one line, whole: set smaller, not cut or broken
        assert any(name in line for line in lines), name


# --- Swap -------------------------------------------------------------------------------------


def test_swap_two_players_of_two_tables_before_the_first_deal(client: FlaskClient) -> None:
    event_id, series = _event(client)
    (t1, t2) = series["tables"]
    a, b = t1["players"][0], t2["players"][1]  # a deals first at table 1
    assert t1["first_dealer"] == a
    r = client.post(f"{API}/events/{event_id}/series/1/swap", json={"a": a, "b": b})
    assert r.status_code == 200, r.json
    new1, new2 = r.json["tables"]
    assert new1["players"] == [b, *t1["players"][1:]]
    assert new2["players"] == [t2["players"][0], a, *t2["players"][2:]]
    assert new1["first_dealer"] == b  # the seat deals first, whoever sits in it
    assert [t["sheet"] for t in r.json["tables"]] == [t1["sheet"], t2["sheet"]]  # same links
    sheet = client.get(f"{API}/sheets/{t1['sheet']}").json
    assert sheet["players"] == new1["players"] and sheet["first_dealer"] == b
    # the table plays with its new seats: b deals (and sits out), the next declares
    r = client.post(f"{API}/sheets/{t1['sheet']}/deals",
                    json={"declarer": new1["players"][1], **GRAND})  # fmt: skip
    assert r.status_code == 201, r.json
    deal = client.get(f"{API}/sheets/{t1['sheet']}").json["deals"][0]
    assert deal["dealer"] == b and b not in deal["active"]
    history = client.get(f"{API}/events/{event_id}").json["history"]
    assert [h["action"] for h in history if h["action"] != "register"] == ["swap"]


def test_swap_within_one_table_and_refusals(client: FlaskClient) -> None:
    event_id, series = _event(client)
    t1 = series["tables"][0]
    a, b = t1["players"][0], t1["players"][2]
    r = client.post(f"{API}/events/{event_id}/series/1/swap", json={"a": a, "b": b})
    assert r.json["tables"][0]["players"] == [b, t1["players"][1], a, t1["players"][3]]
    url = f"{API}/events/{event_id}/series/1/swap"
    assert client.post(url, json={"a": a, "b": "Nobody"}).json["errors"].keys() == {"b"}
    assert client.post(url, json={"a": a, "b": a}).status_code == 422
    assert client.post(url, json={"a": a}).json["errors"].keys() == {"b"}
    assert client.post(url, json={"a": a, "b": b, "c": 1}).status_code == 422
    assert client.post(f"{API}/events/{event_id}/series/9/swap",
                       json={"a": a, "b": b}).status_code == 404  # fmt: skip


def test_swap_refused_once_either_table_has_a_deal(client: FlaskClient) -> None:
    event_id, series = _event(client)
    t1, t2 = series["tables"]
    client.post(f"{API}/sheets/{t2['sheet']}/deals", json={"passed": True})
    client.delete(f"{API}/sheets/{t2['sheet']}/deals/1")  # struck: it was entered all the same
    before = _seats(client, event_id)
    r = client.post(f"{API}/events/{event_id}/series/1/swap",
                    json={"a": t1["players"][0], "b": t2["players"][0]})  # fmt: skip
    assert r.status_code == 409
    assert "Tisch 2" in r.json["errors"]["_"][0] and r.json["event"]["id"] == event_id
    assert _seats(client, event_id) == before
    # two seats of the table without deals may still be swapped
    r = client.post(f"{API}/events/{event_id}/series/1/swap",
                    json={"a": t1["players"][0], "b": t1["players"][1]})  # fmt: skip
    assert r.status_code == 200


def test_swap_and_redraw_only_for_the_organiser(lan_app: Flask) -> None:
    organiser = lan_app.test_client()
    event_id, series = _event(organiser)
    stranger = lan_app.test_client()
    a, b = series["tables"][0]["players"][:2]
    assert stranger.post(f"{API}/events/{event_id}/series/1/swap",
                         json={"a": a, "b": b}).status_code == 403  # fmt: skip
    assert stranger.post(f"{API}/events/{event_id}/series/1/redraw", json={}).status_code == 403
    assert stranger.post(f"{API}/events/{event_id}/players/rename",
                         json={"from": a, "to": "X"}).status_code == 403  # fmt: skip
    assert (
        stranger.post(f"/events/{event_id}/series/1/swap", data={"a": a, "b": b}).status_code == 403
    )
    assert stranger.post(f"/events/{event_id}/series/1/redraw", data={}).status_code == 403
    assert stranger.get(f"/events/{event_id}/registrations/1/name").status_code == 403
    assert _seats(organiser, event_id) == [t["players"] for t in series["tables"]]


@pytest.mark.parametrize("what", ["swap", "redraw", "rename"])
def test_a_closed_event_refuses_the_desk(client: FlaskClient, what: str) -> None:
    event_id, series = _event(client)
    client.post(f"{API}/events/{event_id}/close", json={})
    a, b = series["tables"][0]["players"][:2]
    body = {"swap": {"a": a, "b": b}, "redraw": {}, "rename": {"from": a, "to": "Zoe"}}[what]
    url = {"swap": "series/1/swap", "redraw": "series/1/redraw", "rename": "players/rename"}[what]
    r = client.post(f"{API}/events/{event_id}/{url}", json=body)
    assert r.status_code == 409 and "abgeschlossen" in r.json["errors"]["_"][0]
    assert _seats(client, event_id) == [t["players"] for t in series["tables"]]


def test_the_swap_and_redraw_controls_on_the_series_page(client: FlaskClient) -> None:
    event_id, series = _event(client)
    page = client.get(f"/events/{event_id}/series/1").get_data(as_text=True)
    assert 'id="swap"' in page and 'id="redraw"' in page
    t1, t2 = series["tables"]
    a, b = t1["players"][1], t2["players"][0]
    r = client.post(f"/events/{event_id}/series/1/swap", data={"a": a, "b": b})
    assert r.status_code == 302
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert f"Getauscht: {a} und {b}." in page
    assert _seats(client, event_id)[0][1] == b
    r = client.post(f"/events/{event_id}/series/1/redraw", data={"seed": "12345"})
    assert r.status_code == 302
    assert "neu ausgelost (Startwert 12345)" in client.get(r.headers["Location"]).get_data(
        as_text=True
    )
    assert client.get(f"{API}/events/{event_id}").json["series"][0]["seed"] == 12345
    client.post(f"{API}/sheets/{t1['sheet']}/deals", json={"passed": True})
    page = client.get(f"/events/{event_id}/series/1").get_data(as_text=True)
    assert 'id="swap"' not in page and "nur vor dem ersten Spiel" in page
    before = _seats(client, event_id)
    r = client.post(f"/events/{event_id}/series/1/swap", data={"a": a, "b": b})
    assert "schon ein Spiel eingetragen" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert _seats(client, event_id) == before


# --- Re-draw ----------------------------------------------------------------------------------


def test_redraw_a_series_with_no_deals(client: FlaskClient) -> None:
    event_id, series = _event(client)
    r = client.post(f"{API}/events/{event_id}/series/1/redraw", json={"seed": 99})
    assert r.status_code == 200, r.json
    assert r.json["seed"] == 99 and r.json["seating"] == "draw"
    seats = [t["players"] for t in r.json["tables"]]
    assert seats != [t["players"] for t in series["tables"]]
    assert sorted(p for t in seats for p in t) == sorted(NAMES)
    assert [len(t) for t in seats] == [4, 3]
    assert [t["sheet"] for t in r.json["tables"]] == [t["sheet"] for t in series["tables"]]
    # the same seed draws as a new series with that seed would
    other, _ = _event(client)
    again = client.post(f"{API}/events/{other}/series/1/redraw", json={"seed": 99}).json
    assert [t["players"] for t in again["tables"]] == seats
    # without a seed: a new random one
    r = client.post(f"{API}/events/{event_id}/series/1/redraw", json={})
    assert r.status_code == 200 and isinstance(r.json["seed"], int)
    assert client.post(f"{API}/events/{event_id}/series/1/redraw",
                       json={"seed": -1}).status_code == 422  # fmt: skip
    history = client.get(f"{API}/events/{event_id}").json["history"]
    assert [(h["action"], h["series"]) for h in history
            if h["action"] != "register"] == [("redraw", 1), ("redraw", 1)]  # fmt: skip


def test_redraw_refused_once_any_deal_is_entered(client: FlaskClient) -> None:
    event_id, series = _event(client)
    client.post(f"{API}/sheets/{series['tables'][1]['sheet']}/deals", json={"passed": True})
    r = client.post(f"{API}/events/{event_id}/series/1/redraw", json={"seed": 5})
    assert r.status_code == 409 and "Tisch 2" in r.json["errors"]["_"][0]
    assert _seats(client, event_id) == [t["players"] for t in series["tables"]]


# --- The projector ----------------------------------------------------------------------------


def test_the_screen_shows_each_new_seating(client: FlaskClient) -> None:
    event_id, series = _event(client)
    token = client.get(f"/events/{event_id}/live").json["live"]
    part = client.get(f"/events/{event_id}/screen/part").get_data(as_text=True)
    assert "Sitzordnung Serie 1" in part
    t1, t2 = series["tables"]
    a, b = t1["players"][0], t2["players"][0]
    client.post(f"{API}/events/{event_id}/series/1/swap", json={"a": a, "b": b})
    after = client.get(f"/events/{event_id}/live").json["live"]
    assert after != token  # the screen's poll sees the change and fetches the part
    part = client.get(f"/events/{event_id}/screen/part").get_data(as_text=True)
    seating = part[part.index("Sitzordnung") : part.index("</section>")]
    table1 = seating[seating.index("Tisch 1") : seating.index("Tisch 2")]
    assert b in table1 and a not in table1
    client.post(f"{API}/events/{event_id}/series/1/redraw", json={"seed": 3})
    assert client.get(f"/events/{event_id}/live").json["live"] != after
    # once every table has started, the ranking has the screen to itself
    for t in series["tables"]:
        client.post(f"{API}/sheets/{t['sheet']}/deals", json={"passed": True})
    assert "Sitzordnung" not in client.get(f"/events/{event_id}/screen/part").get_data(as_text=True)


# --- Correcting a registered name -------------------------------------------------------------


def test_a_corrected_name_reaches_every_page_of_the_event(client: FlaskClient) -> None:
    names = ["Anna", "Bernt", "Carla", "Dieter"]
    event_id, series = _event(client, names, deals={"4": 4})
    sheet = series["tables"][0]["sheet"]
    if series["tables"][0]["players"][2] != "Bernt":  # Bernt plays the first two deals
        other = series["tables"][0]["players"][2]
        client.post(f"{API}/events/{event_id}/series/1/swap", json={"a": "Bernt", "b": other})
    seats = client.get(f"{API}/sheets/{sheet}").json["players"]
    for _ in range(2):
        r = client.post(f"{API}/sheets/{sheet}/deals", json={"declarer": "Bernt", **GRAND})
        assert r.status_code == 201, r.json
    r = client.put(f"{API}/sheets/{sheet}/deals/2", json={"declarer": seats[3], **GRAND})
    assert r.status_code == 200, r.json
    before = client.get(f"{API}/sheets/{sheet}").json
    r = client.post(
        f"{API}/events/{event_id}/players/rename", json={"from": "Bernt", "to": "Bernd"}
    )
    assert r.status_code == 200, r.json
    assert "Bernd" in r.json["players"] and "Bernt" not in r.json["players"]
    reg = next(x for x in r.json["registrations"] if x["name"] == "Bernd")
    assert reg["start_no"] == 2
    assert r.json["history"][-1] == {"at": r.json["history"][-1]["at"], "action": "rename",
                                     "from": "Bernt", "to": "Bernd", "by": "organiser"}  # fmt: skip
    after = client.get(f"{API}/sheets/{sheet}").json
    assert "Bernd" in after["players"] and "Bernt" not in after["players"]
    assert after["totals"]["balance"]["Bernd"] == before["totals"]["balance"]["Bernt"]
    assert [d["declarer"] for d in after["deals"]] == ["Bernd", seats[3]]
    assert "Bernt" not in json.dumps(after)  # seats, deals and their history
    ranking = client.get(f"{API}/events/{event_id}/ranking").json["rows"]
    assert "Bernd" in [x["player"] for x in ranking] and "Bernt" not in str(ranking)
    client.post(f"{API}/events/{event_id}/close", json={"payout": {"kind": "shares",
                                                                    "values": [100]}})  # fmt: skip
    prizes = client.get(f"{API}/events/{event_id}/prizes").json
    assert prizes["rows"][0]["player"] == "Bernd"
    for url in (f"/events/{event_id}", f"/events/{event_id}/series/1", f"/sheets/{sheet}",
                f"/events/{event_id}/close", f"/events/{event_id}/screen"):  # fmt: skip
        page = client.get(url).get_data(as_text=True)
        page = page.split('<details class="history">')[0]  # the history tells what was
        assert "Bernd" in page and "Bernt" not in page, url
    for url in (f"/events/{event_id}/event.pdf", f"/sheets/{sheet}/export.pdf"):
        r = client.get(url)
        if r.status_code == 404:
            continue
        text = _pdf_text(r.data)
        assert "Bernd" in text and "Bernt" not in text, url
    # the table goes on under the corrected name (the event was reopened for it)
    client.post(f"{API}/events/{event_id}/reopen", json={})
    r = client.post(f"{API}/sheets/{sheet}/deals", json={"declarer": "Bernd", **GRAND})
    assert r.status_code == 422 and "declarer" in r.json["errors"]  # Bernd deals the third
    r = client.post(f"{API}/sheets/{sheet}/deals", json={"declarer": seats[3], **GRAND})
    assert r.status_code == 201, r.json
    r = client.post(f"{API}/sheets/{sheet}/deals", json={"declarer": "Bernd", **GRAND})
    assert r.status_code == 201, r.json
    # the player list: the new spelling has its own player with the table; the old one stays
    players = {p["name"]: p["sheets"] for p in client.get(f"{API}/players").json["players"]}
    assert players.get("Bernd") == 1


def test_correcting_a_name_refusals(client: FlaskClient) -> None:
    event_id, _series = _event(client)
    url = f"{API}/events/{event_id}/players/rename"
    assert client.post(url, json={"from": "Anna", "to": "bernd"}).json["errors"].keys() == {"to"}
    assert client.post(url, json={"from": "Anna", "to": " "}).json["errors"].keys() == {"to"}
    assert client.post(url, json={"from": "Anna", "to": "x" * 41}).status_code == 422
    assert client.post(url, json={"from": "Anna", "to": "A\u0007"}).status_code == 422
    assert client.post(url, json={"from": "Nobody", "to": "Zoe"}).status_code == 404
    assert client.post(url, json={"to": "Zoe"}).json["errors"].keys() == {"from"}
    # spacing and case are tidied: "anna " → "Anna" is a correction of the case
    r = client.post(url, json={"from": "anna", "to": "  ANNA  "})
    assert r.status_code == 200 and "ANNA" in r.json["players"]


def test_the_name_correction_page(client: FlaskClient) -> None:
    event_id, series = _event(client)
    players = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert f"/events/{event_id}/registrations/1/name" in players
    page = client.get(f"/events/{event_id}/registrations/1/name").get_data(as_text=True)
    assert 'value="Anna"' in page
    r = client.post(f"/events/{event_id}/registrations/1/name", data={"name": "Bernd"})
    assert r.status_code == 422 and "schon angemeldet" in r.get_data(as_text=True)
    r = client.post(f"/events/{event_id}/registrations/1/name", data={"name": "Annabell"})
    assert r.status_code == 302
    assert "Annabell" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Annabell" in [p for t in _seats(client, event_id) for p in t]
    assert client.get(f"/events/{event_id}/registrations/99/name").status_code == 404


def test_a_corrected_name_in_a_schafkopf_table_and_its_ramsch(client: FlaskClient) -> None:
    r = client.post(f"{API}/events", json={"game": "schafkopf", "deals": {"4": 3},
                                           "rules": {"ramsch": True}})  # fmt: skip
    event_id = r.json["id"]
    client.get(f"/events/{event_id}/edit/{r.json['edit_token']}")
    client.post(f"{API}/events/{event_id}/players", json={"names": ["Ann", "Bea", "Cid", "Dan"]})
    table = client.post(
        f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": 1}
    ).json["tables"][0]
    sheet = table["sheet"]
    r = client.post(f"{API}/sheets/{sheet}/deals",
                    json={"game": "sauspiel", "suit": "eichel", "declarers": ["Bea", "Cid"],
                          "won": True})  # fmt: skip
    assert r.status_code == 201, r.json
    r = client.post(f"{API}/sheets/{sheet}/deals", json={"game": "ramsch", "points": {
        "Ann": 30, "Bea": 40, "Cid": 0, "Dan": 50}, "jungfrau": ["Cid"]})  # fmt: skip
    assert r.status_code == 201, r.json
    before = client.get(f"{API}/sheets/{sheet}").json["totals"]["balance"]
    r = client.post(f"{API}/events/{event_id}/players/rename", json={"from": "Bea", "to": "Beate"})
    assert r.status_code == 200, r.json
    after = client.get(f"{API}/sheets/{sheet}").json
    assert after["totals"]["balance"]["Beate"] == before["Bea"]
    assert "Bea" not in after["players"]


# --- Long names in the event PDF --------------------------------------------------------------


def test_names_of_any_length_fit_the_event_pdf(client: FlaskClient) -> None:
    """The dealer column broke a 40-character name into seven lines: now a long name is set
    smaller, so a list of long names takes no more pages than one of short names."""
    long = ["Maximiliane " + c * 28 for c in "ABCD"]
    short = ["Anna", "Bernd", "Carla", "Dieter"]
    pages = {}
    for kind, names in (("long", long), ("short", short)):
        event_id, series = _event(client, names, deals={"4": 40})
        sheet = series["tables"][0]["sheet"]
        seats = series["tables"][0]["players"]
        for i in range(40):  # seat i deals deal i (mod 4), the next seat declares
            body = {"declarer": seats[(i + 1) % 4], **GRAND}
            assert client.post(f"{API}/sheets/{sheet}/deals", json=body).status_code == 201
        data = client.get(f"/events/{event_id}/event.pdf").data
        pages[kind] = len(PdfReader(io.BytesIO(data)).pages)
        text = _pdf_text(data)
        if kind == "long":
            lines = [" ".join(line.split()) for line in text.splitlines()]
            assert all(n in " ".join(lines) for n in long)  # the ranking
            for c in "ABCD":
                # each dealer's name on two lines with its long word whole (ten deals each;
                # it was broken into seven short pieces); only the player's column head,
                # on each page, breaks the word into short pieces
                assert lines.count(c * 28) >= 10
                pieces = [x for x in lines if x and set(x) == {c} and len(x) < 20]
                assert len(pieces) <= 3 * pages["long"], (c, pieces)
    assert pages["long"] <= pages["short"] + 1


def test_registrations_before_the_upgrade_are_numbered_in_registration_order(
    tmp_path: Path,
) -> None:
    from skatcalc import store
    from skatcalc.store import migrations as schema

    db = store.connect(str(tmp_path / "old.sqlite"))
    schema.migrations.apply(db, stop_before="m017_start_numbers")
    at = "2026-11-27T20:00:00+00:00"
    for eid in (1, 2):
        db.execute(
            "insert into events (id, name, day, game, deals, rules, entry_cents, "
            "lost_game_cents, payout, edit_token, created) values (?, 'E', '2026-11-27', "
            "'skat', '{}', '{}', 0, 0, '{\"kind\": \"shares\", \"values\": [100]}', 't', ?)",
            [eid, at],
        )
    for rid, eid, name in ((1, 1, "Anna"), (2, 2, "Zoe"), (3, 1, "Bernd"), (5, 1, "Carla")):
        db.execute(
            "insert into event_players (id, event_id, name, key, from_series, registered) "
            "values (?, ?, ?, ?, 1, ?)",
            [rid, eid, name, name.lower(), at],
        )
    db.conn.commit()
    schema.migrations.apply(db)
    got = {r["name"]: r["start_no"] for r in db.query("select * from event_players")}
    assert got == {"Anna": 1, "Bernd": 2, "Carla": 3, "Zoe": 1}
