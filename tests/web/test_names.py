"""One name rule everywhere (rules.common.clean_name): trimmed, every run of whitespace of any
kind one space, Unicode NFC; stored so (the typed case kept), matched case-folded, the
40-character limit counted after it — for seats, the first dealer, a deal's players,
registrations, groups and the player list."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from skatcalc import store
from skatcalc.rules.common import clean_name, name_key
from skatcalc.services import players
from skatcalc.store import migrations as schema
from skatcalc.store import sheets as sheet_store

NBSP, EM_SPACE, NFD_E = "\u00a0", "\u2003", "e\u0301"


# --- the rule ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Dora Lena", "Dora Lena"),
        ("Dora  Lena", "Dora Lena"),
        ("Dora\tLena", "Dora Lena"),
        (f"Dora{NBSP}Lena", "Dora Lena"),
        (f" Dora {EM_SPACE}\n Lena{NBSP}", "Dora Lena"),
        ("Dora\u3000Lena", "Dora Lena"),
        (f"Jos{NFD_E}", "Jos\u00e9"),
        ("dieter ", "dieter"),  # the case as typed
        ("", ""),
        (" \t ", ""),
    ],
)
def test_the_name_rule(typed: str, stored: str) -> None:
    assert clean_name(typed) == stored


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("dieter ", "Dieter"),
        ("DORA  LENA", "dora lena"),
        (f"JOS{NFD_E.upper()}", "josé"),
        (f"Dora{NBSP}Lena", "Dora\tLena"),
    ],  # fmt: skip
)
def test_names_match_on_their_case_folded_form(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_the_name_rule_is_idempotent_and_leaves_no_stray_whitespace(text: str) -> None:
    once = clean_name(text)
    assert clean_name(once) == once
    assert once == once.strip()
    assert "  " not in once
    assert all(not ch.isspace() or ch == " " for ch in once)
    assert unicodedata.is_normalized("NFC", once)
    assert name_key(once) == name_key(text)


# --- seats of a sheet --------------------------------------------------------------------------


def new_sheet(client: FlaskClient, names: list[str], **extra: Any) -> Any:
    return client.post("/api/v1/sheets", json={"game": "skat", "players": names, **extra})


@pytest.mark.parametrize(
    "seats",
    [
        ["Dora Lena", "Dora  Lena", "Emil"],
        ["Dora Lena", "Dora\tLena", "Emil"],
        ["Dora Lena", f"Dora{NBSP}Lena", "Emil"],
        ["Jos\u00e9", f"Jos{NFD_E}", "Emil"],
        ["Anna", "anna ", "Emil"],
    ],
    ids=["double-space", "tab", "nbsp", "nfd-vs-nfc", "case-and-trailing-space"],
)
def test_two_seats_that_come_out_equal_are_refused(client: FlaskClient, seats: list[str]) -> None:
    r = new_sheet(client, seats)
    assert r.status_code == 422
    assert "players" in r.json["errors"]
    assert client.get("/api/v1/players").json["players"] == []  # nothing stored


def test_seats_are_stored_after_the_rule_with_their_case(client: FlaskClient) -> None:
    r = new_sheet(client, [f" anna{NBSP}Maria ", f"Jos{NFD_E}", "Bernd\t"])
    assert r.status_code == 201, r.json
    assert r.json["players"] == ["anna Maria", "Jos\u00e9", "Bernd"]
    names = [p["name"] for p in client.get("/api/v1/players").json["players"]]
    assert set(names) == {"anna Maria", "Bernd", "Jos\u00e9"}


@pytest.mark.parametrize(
    ("name", "status"),
    [
        ("A" * 40, 201),
        ("A" * 20 + "   " + "B" * 19, 201),  # 42 typed, 40 after the rule
        (" " * 5 + "A" * 40 + "\t", 201),
        ("A" * 41, 422),
        ("A" * 20 + " " + "B" * 20, 422),  # 41 after the rule
    ],
)
def test_the_40_character_limit_counts_after_the_rule(
    client: FlaskClient, name: str, status: int
) -> None:
    r = new_sheet(client, [name, "Bernd", "Carla"])
    assert r.status_code == status, r.json
    if status == 201:
        assert r.json["players"][0] == clean_name(name)
    else:
        assert "players" in r.json["errors"]


@pytest.mark.parametrize("typed", ["dieter ", "DIETER", f"Dieter{NBSP}", " dieter\t"])
def test_a_player_typed_as_in_the_list_is_the_first_dealer(client: FlaskClient, typed: str) -> None:
    r = new_sheet(client, ["Anna", "Bernd", "Dieter"], first_dealer=typed)
    assert r.status_code == 201, r.json
    assert r.json["first_dealer"] == "Dieter"
    assert r.json["next_dealer"] == "Dieter"


def test_an_unknown_first_dealer_is_still_refused(client: FlaskClient) -> None:
    r = new_sheet(client, ["Anna", "Bernd", "Dieter"], first_dealer="Dietrich")
    assert r.status_code == 422 and "first_dealer" in r.json["errors"]


@pytest.mark.parametrize("typed", ["dieter ", "DIETER", f"Dieter{NBSP}", "dieter"])
def test_a_player_typed_as_in_the_list_is_the_declarer(client: FlaskClient, typed: str) -> None:
    sid = new_sheet(client, ["Anna", "Bernd", "Dieter"], first_dealer="Anna").json["id"]
    body = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 80,
            "declarer": typed}  # fmt: skip
    preview = client.post(f"/api/v1/sheets/{sid}/preview", json=body)
    assert preview.status_code == 200, preview.json
    r = client.post(f"/api/v1/sheets/{sid}/deals", json={**body, "dealer": "anna "})
    assert r.status_code == 201, r.json
    sheet = client.get(f"/api/v1/sheets/{sid}").json
    deal = sheet["deals"][0]
    assert deal["input"]["declarer"] == "Dieter"  # stored as the seat is called
    assert deal["dealer"] == "Anna"
    assert sheet["totals"]["balance"]["Dieter"] > 0
    # a correction names the player the same way
    r = client.put(f"/api/v1/sheets/{sid}/deals/1", json={**body, "declarer": "bernd "})
    assert r.status_code == 200, r.json
    assert client.get(f"/api/v1/sheets/{sid}").json["deals"][0]["input"]["declarer"] == "Bernd"


def test_schafkopf_declarers_and_ramsch_name_the_seats(client: FlaskClient) -> None:
    r = client.post("/api/v1/sheets", json={"game": "schafkopf",
                    "players": ["Anna", "Bernd", "Carla", "Dieter"],
                    "rules": {"ramsch": True}})  # fmt: skip
    assert r.status_code == 201, r.json
    sid = r.json["id"]
    game = {"game": "sauspiel", "declarers": ["anna ", f"Bernd{NBSP}"], "player_points": 70}
    r = client.post(f"/api/v1/sheets/{sid}/deals", json=game)
    assert r.status_code == 201, r.json
    ramsch = {"game": "ramsch", "points": {"anna": 40, "BERND": 50, "Carla ": 0, "dieter": 30},
              "jungfrau": ["carla"]}  # fmt: skip
    r = client.post(f"/api/v1/sheets/{sid}/deals", json=ramsch)
    assert r.status_code == 201, r.json
    deals = client.get(f"/api/v1/sheets/{sid}").json["deals"]
    assert deals[0]["input"]["declarers"] == ["Anna", "Bernd"]
    assert deals[1]["input"]["points"] == {"Anna": 40, "Bernd": 50, "Carla": 0, "Dieter": 30}
    assert deals[1]["input"]["jungfrau"] == ["Carla"]


def test_two_ramsch_keys_for_one_seat_are_refused(client: FlaskClient) -> None:
    sid = client.post("/api/v1/sheets", json={"game": "schafkopf",
                      "players": ["Anna", "Bernd", "Carla", "Dieter"],
                      "rules": {"ramsch": True}}).json["id"]  # fmt: skip
    body = {"game": "ramsch", "points": {"Anna": 30, "anna": 30, "Bernd": 40, "Carla": 20}}
    r = client.post(f"/api/v1/sheets/{sid}/deals", json=body)
    assert r.status_code == 422


# --- the player list, registrations, groups ---------------------------------------------------


def test_a_name_in_another_spacing_or_form_is_the_same_player(client: FlaskClient) -> None:
    assert new_sheet(client, ["Dora Lena", "Jos\u00e9", "Emil"]).status_code == 201
    assert (
        new_sheet(client, [f"dora{NBSP} lena", f"JOS{NFD_E.upper()}", "emil\t"]).status_code == 201
    )
    listed = client.get("/api/v1/players").json["players"]
    assert [(p["name"], p["sheets"]) for p in listed] == [
        ("Dora Lena", 2), ("Emil", 2), ("Jos\u00e9", 2)
    ]  # fmt: skip


def test_registrations_take_the_rule(client: FlaskClient) -> None:
    new_sheet(client, ["Dora Lena", "Bernd", "Carla"])
    event = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
    r = client.post(f"/api/v1/events/{event}/players",
                    json={"names": [f"dora{NBSP}lena", "Emil\t Franz", "emil franz",
                                    f"Jos{NFD_E}"]})  # fmt: skip
    assert r.status_code == 200, r.json
    assert r.json["players"] == ["Dora Lena", "Emil Franz", "Jos\u00e9"]
    too_long = client.post(f"/api/v1/events/{event}/players",
                           json={"names": ["A" * 20 + "    " + "B" * 20]})  # fmt: skip
    assert too_long.status_code == 422


def test_a_registration_over_the_limit_keeps_what_was_typed_in_the_form(
    client: FlaskClient,
) -> None:
    event = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
    typed = "Anna, " + "Maximiliane " + "Z" * 30
    r = client.post(f"/events/{event}/players", data={"names": typed})
    assert r.status_code == 422
    page = r.data.decode()
    assert f'value="{typed}"' in page and "40 Zeichen" in page
    assert client.get(f"/api/v1/events/{event}").json["players"] == []


def test_group_names_take_the_rule(client: FlaskClient) -> None:
    r = client.post("/api/v1/groups", json={"name": f"  Goldener{NBSP}\tHirsch ", "game": "skat"})
    assert r.status_code == 201, r.json
    assert r.json["name"] == "Goldener Hirsch"


def test_a_player_renamed_takes_the_rule(app: Flask, client: FlaskClient) -> None:
    new_sheet(client, ["Anna", "Bernd", "Carla"])
    pid = client.get("/api/v1/players").json["players"][0]["id"]
    r = client.post(f"/players/{pid}/rename", data={"name": f" Anna{NBSP} Maria\t"})
    assert r.status_code == 302
    assert client.get(f"/api/v1/players/{pid}").json["name"] == "Anna Maria"
    long = "A" * 20 + "   " + "B" * 20  # 43 typed, 41 after the rule
    r = client.post(f"/players/{pid}/rename", data={"name": long})
    assert r.status_code == 422
    page = r.data.decode()
    assert f'value="{long}"' in page  # what was typed stays in the form
    assert "40 Zeichen" in page


def test_a_seat_over_the_limit_keeps_what_was_typed_in_the_form(client: FlaskClient) -> None:
    long = "Maximiliane " + "Z" * 30  # 42 characters
    r = client.post("/sheets", data={"game": "skat", "p1": long, "p2": "Bernd", "p3": "Carla",
                                     "first_dealer": "1"})  # fmt: skip
    assert r.status_code == 422
    page = r.data.decode()
    assert f'value="{long}"' in page
    assert "40 Zeichen" in page
    assert client.get("/api/v1/players").json["players"] == []
    # the same name within the limit after the rule is taken
    r = client.post("/sheets", data={"game": "skat", "p1": "Dora\u00a0\u00a0Lena", "p2": "Bernd",
                                     "p3": "Carla", "first_dealer": "1"})  # fmt: skip
    assert r.status_code == 302
    names = {p["name"] for p in client.get("/api/v1/players").json["players"]}
    assert "Dora Lena" in names


def test_old_players_are_found_by_the_new_rule(tmp_path: Path) -> None:
    """A database from before the rule: a player stored with a decomposed é and its old key
    (spaces collapsed, case-folded, no NFC) is found when the name is typed composed."""
    path = str(tmp_path / "old.sqlite")
    db = store.connect(path)
    schema.migrations.apply(db, stop_before="m014_name_keys")
    old = f"Jos{NFD_E}"
    for pid, name in ((1, old), (2, "Anna"), (3, "Jos\u00e9")):  # 3: the same person, composed
        db.execute("insert into players (id, name, key, created) values (?, ?, ?, '2025-01-01')",
                   [pid, name, " ".join(name.split()).casefold()])  # fmt: skip
    # an entry merged into Anna that gave its name up when she was renamed to it
    db.execute("insert into players (id, name, key, created, merged_into) values "
               "(4, 'anna', ?, '2025-01-01', 2)", ["anna\x004"])  # fmt: skip
    db.execute(
        "insert into sheets (id, name, game, players, first_dealer, rules, edit_token, "
        "share_token, created, updated) values (1, 'old', 'skat', ?, 'Anna', '{}', 'e', 's', "
        "'2025-01-01T18:00:00+00:00', '2025-01-01T18:00:00+00:00')",
        [json.dumps([old, "Anna", "Carla"])],
    )
    db.conn.commit()
    schema.migrations.apply(db)
    assert players.find_player(db, "jos\u00e9 ") == 1  # the older entry keeps the name
    assert players.find_player(db, old) == 1
    assert players.find_player(db, "ANNA") == 2
    keys = [r["key"] for r in db.query("select key from players order by id")]
    assert len(set(keys)) == 4  # the younger twin keeps a key of its own: nobody merged
    assert keys[3] == "anna\x004"  # a name given up stays given up
    db.close()


def test_old_sheets_with_spaced_seats_still_take_deals(app: Flask, client: FlaskClient) -> None:
    """A sheet stored before the rule keeps its seats as typed; deals name them as before."""
    with app.app_context():
        db = store.get_db()
        sheet = sheet_store.create_sheet(db, "old", "skat", ["Dora  Lena", "Bernd", "Carla"],
                                   "Bernd", {})  # fmt: skip
        sid = sheet.id
    body = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 80}
    r = client.post(f"/api/v1/sheets/{sid}/deals", json={**body, "declarer": "Dora  Lena"})
    assert r.status_code == 201, r.json
    r = client.post(f"/api/v1/sheets/{sid}/deals", json={**body, "declarer": "dora lena"})
    assert r.status_code == 201, r.json
    deals = client.get(f"/api/v1/sheets/{sid}").json["deals"]
    assert [d["input"]["declarer"] for d in deals] == ["Dora  Lena", "Dora  Lena"]
