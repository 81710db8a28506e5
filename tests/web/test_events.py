"""Club nights and Preisskat end to end: whole events from data files worked out by hand,
registration, seating refusals, edit rights on the network, pages and files."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

DATA = Path(__file__).parents[1] / "data"


def load(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def run_event(client: FlaskClient, data: dict[str, Any]) -> int:
    """Create, register, seat every series, enter every table's deals, close."""
    r = client.post("/api/v1/events", json=data["event"])
    assert r.status_code == 201, r.json
    event_id = r.json["id"]
    assert r.json["edit_token"]
    r = client.post(f"/api/v1/events/{event_id}/players", json={"names": data["players"]})
    assert r.status_code == 200, r.json
    assert r.json["players"] == data["players"]
    for n, series in enumerate(data["series"], start=1):
        if "ranking_before" in series:
            rows = client.get(f"/api/v1/events/{event_id}/ranking").json["rows"]
            assert [row["player"] for row in rows] == series["ranking_before"]
        body: dict[str, Any] = {"seating": series["seating"]}
        if "seed" in series:
            body["seed"] = series["seed"]
        r = client.post(f"/api/v1/events/{event_id}/series", json=body)
        assert r.status_code == 201, r.json
        assert r.json["n"] == n
        if "seed" in series:
            assert r.json["seed"] == series["seed"]
        tables = r.json["tables"]
        assert [t["players"] for t in tables] == [t["players"] for t in series["tables"]]
        assert [t["table"] for t in tables] == list(range(1, len(tables) + 1))
        seated = sorted(p for t in tables for p in t["players"])
        assert seated == sorted(data["players"])  # everybody at exactly one table
        for table, expected in zip(tables, series["tables"], strict=True):
            for deal in expected["deals"]:
                r = client.post(f"/api/v1/sheets/{table['sheet']}/deals", json=deal["body"])
                assert r.status_code == 201, (deal["note"], r.json)
            totals = client.get(f"/api/v1/sheets/{table['sheet']}").json["totals"]
            key = "seeger_fabian" if data["event"]["game"] == "skat" else "balance"
            assert totals[key] == expected[key if key == "balance" else "seeger_fabian"]
    return int(event_id)


@pytest.mark.parametrize("name", ["event_skat.json", "event_schafkopf.json"])
def test_whole_event_against_hand_worked_figures(client: FlaskClient, name: str) -> None:
    data = load(name)
    event_id = run_event(client, data)
    expected = data["expected"]
    ranking = client.get(f"/api/v1/events/{event_id}/ranking").json
    assert ranking["rows"] == expected["ranking"]
    assert ranking["fees_total_cents"] == expected["fees_total_cents"]
    # nothing left to play: every table has entered its deals
    event = client.get(f"/api/v1/events/{event_id}").json
    assert all(t["left"] == 0 for s in event["series"] for t in s["tables"])
    r = client.post(f"/api/v1/events/{event_id}/close", json=data["close"])
    assert r.status_code == 200, r.json
    prizes = r.json
    want = expected["prizes"]
    assert prizes["pot_cents"] == want["pot_cents"]
    assert prizes["paid_cents"] == want["paid_cents"]
    assert prizes["rest_cents"] == want["rest_cents"]
    assert prizes["fees_total_cents"] == expected["fees_total_cents"]
    got = {row["player"]: row["cents"] for row in prizes["rows"] if row["cents"]}
    assert got == want["cents"]
    assert [row["rank"] for row in prizes["rows"]] == [row["rank"] for row in expected["ranking"]]
    assert client.get(f"/api/v1/events/{event_id}").json["closed"]
    # closed: no more registrations or series
    r = client.post(f"/api/v1/events/{event_id}/players", json={"names": ["Zoe"]})
    assert r.status_code == 422
    # the pages and files show the same figures
    page = client.get(f"/events/{event_id}/close").get_data(as_text=True)
    for player, cents in want["cents"].items():
        assert player in page
        euros, rest = divmod(cents, 100)
        assert f"{euros},{rest:02d}" in page
    rows = list(csv.reader(io.StringIO(
        client.get(f"/events/{event_id}/ranking.csv").data.decode("utf-8-sig")), delimiter=";"))  # fmt: skip
    assert [r[1] for r in rows[1:]] == [r["player"] for r in expected["ranking"]]
    assert [int(r[2]) for r in rows[1:]] == [r["score"] for r in expected["ranking"]]
    pdf = client.get(f"/events/{event_id}/event.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf.data))
    text = "\n".join(p.extract_text() for p in reader.pages)
    n_tables = sum(len(s["tables"]) for s in data["series"])
    assert len(reader.pages) >= 1 + n_tables  # the ranking, then every table's list
    assert data["event"]["name"] in text
    assert "Serie 2 · Tisch 3" in text or "Serie 2 · Tisch 2" in text
    show = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert expected["ranking"][0]["player"] in show


def test_tables_sheets_join_the_events_group(client: FlaskClient) -> None:
    from skatcalc import store
    from skatcalc.services import players as people

    with client.application.app_context():
        conn = store.get_db()
        skat_group = people.create_group(conn, "Skatclub", "skat", {}).id
        sk_group = people.create_group(conn, "Schafkopfrunde", "schafkopf", {}).id
    body = {"name": "Preisskat", "game": "skat", "group": skat_group}
    r = client.post("/api/v1/events", json=body)
    assert r.status_code == 201
    event_id = r.json["id"]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCDEFG")})
    tables = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw"}).json
    assert [len(t["players"]) for t in tables["tables"]] == [4, 3]
    assert isinstance(tables["seed"], int)
    with client.application.app_context():
        conn = store.get_db()
        groups = {r["group_id"] for r in conn.query(
            "select group_id from sheets where id in (select sheet_id from event_tables)")}  # fmt: skip
    assert groups == {skat_group}
    # a Schafkopf group does not take a Skat event
    r = client.post("/api/v1/events", json={**body, "group": sk_group})
    assert r.status_code == 422 and "group" in r.json["errors"]


@pytest.mark.parametrize(
    ("game", "count", "ok"),
    [("skat", 2, False), ("skat", 5, False), ("skat", 3, True), ("skat", 10, True),
     ("schafkopf", 7, False), ("schafkopf", 8, True), ("schafkopf", 3, False)],
)  # fmt: skip
def test_seating_refusals_are_clear(client: FlaskClient, game: str, count: int, ok: bool) -> None:
    event_id = client.post("/api/v1/events", json={"game": game}).json["id"]
    names = [f"Spieler {i}" for i in range(1, count + 1)]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": names})
    r = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw", "seed": 1})
    if ok:
        assert r.status_code == 201
    else:
        assert r.status_code == 422
        assert str(count) in r.json["errors"]["players"][0]
        assert client.get(f"/api/v1/events/{event_id}").json["series"] == []


def test_same_seed_same_tables(client: FlaskClient) -> None:
    out = []
    for _ in range(2):
        event_id = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
        client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCDEFGHIJK")})
        r = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw", "seed": 77})
        out.append([t["players"] for t in r.json["tables"]])
    assert out[0] == out[1]


def test_late_arrival_joins_at_the_next_series(client: FlaskClient) -> None:
    event_id = client.post("/api/v1/events", json={"game": "skat", "deals": {"4": 4, "3": 3}}).json["id"]  # fmt: skip
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCDEF")})
    s1 = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw"}).json
    assert [len(t["players"]) for t in s1["tables"]] == [3, 3]
    r = client.post(f"/api/v1/events/{event_id}/players", json={"names": ["  g ", "A", "H"]})
    assert r.json["players"] == list("ABCDEF") + ["g", "H"]
    regs = {x["name"]: x["from_series"] for x in r.json["registrations"]}
    assert regs["g"] == 2 and regs["A"] == 1
    ranking = client.get(f"/api/v1/events/{event_id}/ranking").json
    assert {row["player"] for row in ranking["rows"]} == set("ABCDEF") | {"g", "H"}
    # series 1 was not played: seating series 2 over it needs the organiser's "force"
    s2 = client.post(f"/api/v1/events/{event_id}/series",
                     json={"seating": "ranking", "force": True}).json  # fmt: skip
    assert [len(t["players"]) for t in s2["tables"]] == [4, 4]
    # late arrivals come after everybody who has played when seated by the ranking
    assert s2["tables"][1]["players"][-2:] == ["g", "H"]


def test_bad_event_input_answers_422_with_fields(client: FlaskClient) -> None:
    cases = [
        ({"game": "poker"}, "game"),
        ({"game": "skat", "deals": {"4": 0}}, "deals.4"),
        ({"game": "skat", "deals": {"5": 10}}, "deals"),
        ({"game": "skat", "fees": {"entry_cents": -1}}, "fees.entry_cents"),
        ({"game": "skat", "date": "22.11.2026"}, "date"),
        ({"game": "skat", "rules": {"kontra_re": "ja"}}, "rules.kontra_re"),
        ({"game": "skat", "payout": {"kind": "shares", "values": [80, 30]}}, "payout.values"),
        ({"game": "skat", "group": 999}, "group"),
        ({"game": "skat", "colour": "red"}, "colour"),
        ([], "_"),
    ]
    for body, field in cases:
        r = client.post("/api/v1/events", json=body)
        assert r.status_code == 422, body
        assert field in r.json["errors"], (body, r.json)
    event_id = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
    for body in [{"names": "Anna"}, {"names": []}, {"names": ["x" * 41]}, {"nam": ["A"]}]:
        assert client.post(f"/api/v1/events/{event_id}/players", json=body).status_code == 422
    for body in [{"seating": "sorted"}, {"seating": "draw", "seed": "x"}, {}]:
        assert client.post(f"/api/v1/events/{event_id}/series", json=body).status_code == 422
    assert client.get("/api/v1/events/999/ranking").status_code == 404
    assert client.post("/api/v1/events/999/players", json={"names": ["A"]}).status_code == 404
    r = client.post("/api/v1/events", data="x", content_type="text/plain")
    assert r.status_code == 415


# lan_app: conftest's (a copy of the migrated template, as ``skatcalc serve --lan`` runs it)


def test_event_writes_need_the_event_token_on_the_network(lan_app: Flask) -> None:
    c = lan_app.test_client()
    r = c.post("/api/v1/events", json={"game": "skat"})
    event_id, token = r.json["id"], r.json["edit_token"]
    stranger = lan_app.test_client()
    names = {"names": list("ABC")}
    assert stranger.post(f"/api/v1/events/{event_id}/players", json=names).status_code == 403
    auth = {"Authorization": f"Bearer {token}"}
    assert stranger.post(f"/api/v1/events/{event_id}/players", json=names,
                         headers=auth).status_code == 200  # fmt: skip
    assert stranger.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw"}).status_code == 403  # fmt: skip
    assert stranger.get(f"/events/{event_id}/players").status_code == 403
    assert stranger.get(f"/api/v1/events/{event_id}/ranking").status_code == 200
    assert stranger.get(f"/events/{event_id}").status_code == 200
    # the event's edit link gives this browser the rights
    assert stranger.get(f"/events/{event_id}/edit/wrong").status_code == 403
    stranger.get(f"/events/{event_id}/edit/{token}")
    r = stranger.post(f"/events/{event_id}/series", data={"seating": "draw", "seed": "5"})
    assert r.status_code == 302
    # the series page shows each table's edit link (and QR code) to the organiser only
    page = stranger.get(f"/events/{event_id}/series/1").get_data(as_text=True)
    assert "/edit/" in page and "<svg" in page
    other = lan_app.test_client().get(f"/events/{event_id}/series/1").get_data(as_text=True)
    assert "/edit/" not in other
    # the table's phone: its QR link lets it enter deals on that table's sheet only
    sheet_id = c.get(f"/api/v1/events/{event_id}").json["series"][0]["tables"][0]["sheet"]
    link = page.split('class="link-edit">')[1].split("<")[0]
    phone = lan_app.test_client()
    assert phone.get(link.replace("http://localhost", "")).status_code == 302
    deal = {"declarer": "A", "game": "grand", "with": True, "matadors": 1, "declarer_points": 75}
    r = phone.post(f"/api/v1/sheets/{sheet_id}/deals", json={**deal, "declarer": "A"})
    assert r.status_code in (201, 422)  # 422 only when A is not at this table's first deal
    assert r.status_code != 403


def test_registration_page_suggests_known_players(client: FlaskClient) -> None:
    client.post("/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla"]})
    r = client.post("/events", data={"name": "Freitag", "game": "skat", "deals4": "48",
                                     "deals3": "36", "entry": "5", "lost_fee": "0,50"})  # fmt: skip
    assert r.status_code == 302
    players_url = r.headers["Location"]
    page = client.get(players_url).get_data(as_text=True)
    assert '<datalist id="known-players">' in page and 'value="Bernd"' in page
    r = client.post(players_url, data={"names": "anna , Dora\nEmil"})
    assert r.status_code == 302
    page = client.get(players_url).get_data(as_text=True)
    assert "Anna" in page and "anna" not in page  # the known player's spelling
    assert "Es spielen 3 Spieler · Tische: 3" in page
    r = client.post(players_url, data={"names": "x" * 41})
    assert r.status_code == 422 and "40 Zeichen" in r.get_data(as_text=True)
    event_id = int(players_url.split("/")[2])
    api = client.get(f"/api/v1/events/{event_id}").json
    assert api["fees"] == {"entry_cents": 500, "lost_game_cents": 50}
    assert api["players"] == ["Anna", "Dora", "Emil"]


def test_event_sheets_cannot_be_deleted_alone(client: FlaskClient) -> None:
    event_id = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABC")})
    sheet = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw"}).json[
        "tables"][0]["sheet"]  # fmt: skip
    r = client.post(f"/sheets/{sheet}/delete")
    assert r.status_code == 302
    assert client.get(f"/api/v1/sheets/{sheet}").status_code == 200
    r = client.post(f"/events/{event_id}/delete")
    assert r.status_code == 302
    assert client.get(f"/api/v1/sheets/{sheet}").status_code == 404
    assert client.get(f"/api/v1/events/{event_id}").status_code == 404


def test_pages_in_english_and_the_live_token_moves(client: FlaskClient) -> None:
    data = load("event_skat.json")
    r = client.post("/api/v1/events", json=data["event"])
    event_id = r.json["id"]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": data["players"]})
    tables = client.post(f"/api/v1/events/{event_id}/series",
                         json={"seating": "draw", "seed": 2026}).json["tables"]  # fmt: skip
    token = client.get(f"/events/{event_id}/live").json["live"]
    client.post(f"/api/v1/sheets/{tables[0]['sheet']}/deals",
                json=data["series"][0]["tables"][0]["deals"][0]["body"])  # fmt: skip
    assert client.get(f"/events/{event_id}/live").json["live"] != token
    # the table's phone sees where it stands in the event and how many deals are left
    sheet_page = client.get(f"/sheets/{tables[0]['sheet']}").get_data(as_text=True)
    assert "Serie 1, Tisch 1" in sheet_page and "noch 3 Spiele" in sheet_page
    part = client.get(f"/events/{event_id}/part?lang=en").get_data(as_text=True)
    assert "3 of 3 tables still playing" in part
    screen = client.get(f"/events/{event_id}/screen").get_data(as_text=True)
    assert "Gabi" in screen
    for url in ("/events", f"/events/{event_id}", f"/events/{event_id}/series/1",
                f"/events/{event_id}/close", f"/events/{event_id}/players"):  # fmt: skip
        assert client.get(url + "?lang=en").status_code == 200


def test_away_back_and_taking_back_a_registration(client: FlaskClient) -> None:
    event_id = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCD") + ["Tpyo"]})
    regs = {r["name"]: r for r in client.get(f"/api/v1/events/{event_id}").json["registrations"]}
    assert all(r["player"] is None for r in regs.values())  # nobody known yet
    page = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert f"/events/{event_id}/players/5/remove" in page
    assert client.post(f"/events/{event_id}/players/5/remove").status_code == 302
    names = client.get(f"/api/v1/events/{event_id}").json["players"]
    assert names == list("ABCD")
    # the typo never sat at a table, so it is no player either
    assert "Tpyo" not in [p["name"] for p in client.get("/api/v1/players").json["players"]]
    assert client.post(f"/events/{event_id}/players/4/away").status_code == 302
    s1 = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw"}).json
    assert sorted(p for t in s1["tables"] for p in t["players"]) == list("ABC")
    regs = {r["name"]: r for r in client.get(f"/api/v1/events/{event_id}").json["registrations"]}
    assert regs["A"]["player"] is not None and regs["D"]["player"] is None
    assert regs["D"]["away"] is True
    # a player who has sat at a table cannot be taken back, only marked away
    r = client.post(f"/events/{event_id}/players/1/remove", follow_redirects=True)
    assert "hat schon an einem Tisch gespielt" in r.get_data(as_text=True)
    client.post(f"/events/{event_id}/players/4/back")
    s2 = client.post(f"/api/v1/events/{event_id}/series",
                     json={"seating": "ranking", "force": True}).json  # fmt: skip
    assert sorted(p for t in s2["tables"] for p in t["players"]) == list("ABCD")
    assert client.post(f"/events/{event_id}/players/99/away").status_code == 404
    assert client.post(f"/events/{event_id}/players/1/jump").status_code == 404


def test_schafkopf_event_from_the_form_and_closing_on_the_page(client: FlaskClient) -> None:
    r = client.post("/events", data={
        "name": "Schafkopf-Turnier", "day": "2026-11-21", "game": "schafkopf", "deals4": "",
        "entry": "5", "lost_fee": "0,20", "t_sauspiel": "20", "t_solo": "50", "t_bettel": "",
        "t_extra": "10", "payout_kind": "fixed", "payout": "30 / 15 / 5"})  # fmt: skip
    assert r.status_code == 302, r.get_data(as_text=True)
    event_id = int(r.headers["Location"].split("/")[2])
    event = client.get(f"/api/v1/events/{event_id}").json
    assert event["deals"] == {"3": 0, "4": 32}
    assert event["rules"]["tariffs"]["sauspiel"] == 20 and event["rules"]["tariffs"]["solo"] == 50
    assert event["payout"] == {"kind": "fixed", "values": [3000, 1500, 500]}
    assert event["fees"] == {"entry_cents": 500, "lost_game_cents": 20}
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCDEFG")})
    r = client.post(f"/events/{event_id}/series", data={"seating": "draw"}, follow_redirects=True)
    assert "Schafkopf braucht Tische zu viert: 7 Spieler" in r.get_data(as_text=True)
    client.post(f"/api/v1/events/{event_id}/players", json={"names": ["H"]})
    r = client.post(f"/events/{event_id}/series", data={"seating": "draw", "seed": "99"})
    assert r.headers["Location"].endswith(f"/events/{event_id}/series/1")
    page = client.get(f"/events/{event_id}/series/1").get_data(as_text=True)
    assert '<b class="seed">99</b>' in page
    # bad payout and pot: messages next to the fields, nothing changed
    r = client.post(f"/events/{event_id}/close", data={"payout_kind": "shares",
                    "payout": "60 / 50", "pot": "zehn", "action": "close"})  # fmt: skip
    assert r.status_code == 422
    text = r.get_data(as_text=True)
    assert "110 %" in text and "Betrag in Euro" in text
    assert client.get(f"/api/v1/events/{event_id}").json["closed"] is None
    r = client.post(f"/events/{event_id}/close", data={"payout_kind": "shares",
                    "payout": "60 / 40", "pot": "40", "action": "close"})  # fmt: skip
    assert r.status_code == 302
    prizes = client.get(f"/api/v1/events/{event_id}/prizes").json
    assert prizes["pot_cents"] == 4000 and prizes["fees_total_cents"] == 4000
    # nobody has played: all eight share places 1 and 2 (60 % + 40 % of 40 €) equally
    assert [r["cents"] for r in prizes["rows"]] == [500] * 8
    assert client.get(f"/api/v1/events/{event_id}").json["closed"]
    r = client.post(f"/events/{event_id}/close", data={"payout_kind": "shares",
                    "payout": "60 / 40", "pot": "", "action": "reopen"})  # fmt: skip
    assert client.get(f"/api/v1/events/{event_id}").json["closed"] is None
    r = client.post("/events", data={"game": "skat", "deals4": "x", "entry": "1,234"})
    assert r.status_code == 422


def test_a_second_tap_does_not_seat_another_series(client: FlaskClient) -> None:
    event_id = client.post("/api/v1/events", json={"game": "skat", "deals": {"4": 4, "3": 3}}).json["id"]  # fmt: skip
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCDEFG")})
    form = {"seating": "draw", "n": "1"}
    first = client.post(f"/events/{event_id}/series", data=form)
    again = client.post(f"/events/{event_id}/series", data=form)
    assert first.headers["Location"] == again.headers["Location"]
    assert len(client.get(f"/api/v1/events/{event_id}").json["series"]) == 1
    # the organiser sees which tables still play before seating the next series
    page = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert "Serie 1 läuft noch: Tisch 1 (noch 4), Tisch 2 (noch 3)." in page
    # "pot_cents": null goes back to the fees collected
    r = client.post(f"/api/v1/events/{event_id}/close", json={"pot_cents": 1234})
    assert r.json["pot_cents"] == 1234
    client.post(f"/api/v1/events/{event_id}/reopen", json={})  # a closed event keeps its pot
    r = client.post(f"/api/v1/events/{event_id}/close", json={"pot_cents": None})
    assert r.json["pot_cents"] == r.json["fees_total_cents"] == 0


def test_the_registration_list_says_who_is_away_and_buttons_say_what_they_do(
    client: FlaskClient,
) -> None:
    event_id = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": ["Anna", "Bernd"]})
    client.post(f"/events/{event_id}/players/2/away")
    for lang, mark, back, status in (("de", "als abwesend melden", "wieder dabei", "nicht da"),
                                     ("en", "mark away", "back in", "away")):  # fmt: skip
        page = client.get(f"/events/{event_id}/players?lang={lang}").get_data(as_text=True)
        regs = page.split('<ol class="regs">', 1)[1].split("</ol>", 1)[0]
        anna, bernd = regs.split("<li", 2)[1:]
        # a present player shows no status, only the button that marks her away
        assert f'aria-label="{mark}: Anna">{mark}</button>' in anna
        assert f'class="tag">{status}<' not in anna
        # an absent one shows the status and the button that brings him back
        assert f'<small class="tag">{status}</small>' in bernd
        assert f'aria-label="{back}: Bernd">{back}</button>' in bernd


def test_a_skat_series_lets_every_player_deal_equally(client: FlaskClient) -> None:
    """At Skat a series is a multiple of the table size (…, 32, 48 at four; …, 24, 36 at
    three), at creation and when lengthened; Schafkopf rounds of 20, 30 or 32 stay free."""
    for deals, field in (({"4": 50}, "deals.4"), ({"3": 35}, "deals.3"), ({"4": 30}, "deals.4")):
        r = client.post("/api/v1/events", json={"game": "skat", "deals": deals})
        assert r.status_code == 422 and list(r.json["errors"]) == [field], (deals, r.json)
    r = client.post("/api/v1/events", json={"game": "skat", "deals": {"4": 50}},
                    headers={"Accept-Language": "en"})  # fmt: skip
    assert "divisible by 4" in r.json["errors"]["deals.4"][0]
    r = client.post("/api/v1/events", json={"game": "skat", "deals": {"4": 50}})
    assert r.json["errors"]["deals.4"] == [
        "Bei 4 Spielern am Tisch muss die Serie durch 4 teilbar sein (z. B. 48 oder 52)."
    ]
    r = client.post("/api/v1/events", json={"game": "skat", "deals": {"4": 32, "3": 24}})
    assert r.status_code == 201 and r.json["deals"] == {"4": 32, "3": 24}
    for rounds in (20, 30, 32):
        r = client.post("/api/v1/events", json={"game": "schafkopf", "deals": {"4": rounds}})
        assert r.status_code == 201, r.json
    event_id = r.json["id"]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCD")})
    client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw"})
    r = client.post(f"/api/v1/events/{event_id}/series/1/lengthen", json={"deals": {"4": 33}})
    assert r.status_code == 200, r.json
    # the page's form says it beside the field
    r = client.post("/events", data={"name": "Freitag", "game": "skat", "deals4": "50",
                                     "deals3": "36", "entry": "5", "lost_fee": "0,50"})  # fmt: skip
    assert r.status_code == 422
    assert "muss die Serie durch 4 teilbar sein" in r.get_data(as_text=True)
