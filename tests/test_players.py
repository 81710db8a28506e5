"""Players across sheets, groups, and joining a sheet to a group (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import db as store
from skatcalc import players
from skatcalc.rules.common import InvalidDeal

SKAT = {"game": "skat", "players": ["Anna", "Bernd", "Carla"]}


def new_sheet(client: FlaskClient, **extra: object) -> dict:
    resp = client.post("/api/v1/sheets", json={**SKAT, **extra})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


@pytest.mark.parametrize(
    ("a", "b"),
    [("Anna", "anna"), ("anna ", "Anna"), ("  Anna  Lena ", "anna lena"), ("ÄNNE", "änne")],
)
def test_names_match_case_and_space_insensitively(app: Flask, a: str, b: str) -> None:
    with app.app_context():
        db = store.get_db()
        assert players.player_for_name(db, a) == players.player_for_name(db, b)


def test_sheets_link_their_seats_to_players(app: Flask, client: FlaskClient) -> None:
    s1 = new_sheet(client)
    s2 = new_sheet(client, players=["carla", "anna ", "Dieter"])
    with app.app_context():
        db = store.get_db()
        ids1 = players.sheet_player_ids(db, s1["id"])
        ids2 = players.sheet_player_ids(db, s2["id"])
        assert ids2[1] == ids1[0] and ids2[0] == ids1[2]
        assert len({*ids1, *ids2}) == 4
        # The sheet keeps the names as typed.
        assert store.get_sheet(db, s2["id"])["players"] == ["carla", "anna", "Dieter"]
        names = {p["name"]: p["sheets"] for p in players.list_players(db)}
        assert names == {"Anna": 2, "Bernd": 1, "Carla": 2, "Dieter": 1}


def test_migration_links_sheets_created_before_it(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite")
    db = store.connect(path)
    store.migrations.apply(db, stop_before="m005_players_groups")
    for names in (["Anna", "Bernd", "Carla"], ["ANNA", "Bernd ", "Dieter", "Eva"]):
        db.execute(
            "insert into sheets (name, game, players, first_dealer, rules, edit_token, "
            "share_token, created, updated) values (?, 'skat', ?, ?, '{}', 'e', 's', "
            "'2025-01-01T18:00:00+00:00', '2025-01-01T18:00:00+00:00')",
            ["old", json.dumps(names), names[0]],
        )
    db.conn.commit()
    store.migrations.apply(db)
    assert players.sheet_player_ids(db, 1)[0] == players.sheet_player_ids(db, 2)[0]
    assert [p["name"] for p in players.list_players(db)] == [
        "Anna", "Bernd", "Carla", "Dieter", "Eva"
    ]  # fmt: skip
    db.close()


def test_imported_sheets_join_players_by_name(app: Flask, client: FlaskClient) -> None:
    s1 = new_sheet(client)
    exported = client.get(f"/api/v1/sheets/{s1['id']}/export.json").get_json()
    exported["players"] = ["ANNA", "Bernd", "Carla"]
    exported["first_dealer"] = "ANNA"
    for d in exported["deals"]:
        d["dealer"] = "ANNA" if d["dealer"] == "Anna" else d["dealer"]
    resp = client.post("/api/v1/sheets/import", json=exported)
    assert resp.status_code == 201, resp.get_json()
    with app.app_context():
        db = store.get_db()
        assert players.sheet_player_ids(db, resp.get_json()["id"]) == players.sheet_player_ids(
            db, s1["id"]
        )


def test_sheet_joins_a_group_of_its_game_only(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        db = store.get_db()
        skat = players.create_group(db, "Goldener Hirsch", "skat", {"rank_by": "list",
                                    "min_sheets": 0, "best": None})  # fmt: skip
        sk = players.create_group(db, "Schafkopfrunde", "schafkopf", {"rank_by": "balance",
                                  "min_sheets": 0, "best": None})  # fmt: skip
    sheet = new_sheet(client, group=skat["id"])
    assert sheet["group"] == skat["id"]
    for bad in (sk["id"], 999, "1", True):
        resp = client.post("/api/v1/sheets", json={**SKAT, "group": bad})
        assert resp.status_code == 422
        assert "group" in resp.get_json()["errors"]
    with app.app_context():
        assert len(store.list_sheets(store.get_db())) == 1
        assert [g["sheets"] for g in players.list_groups(store.get_db())] == [1, 0]


def test_new_sheet_form_offers_groups_and_known_players(app: Flask, client: FlaskClient) -> None:
    new_sheet(client)
    with app.app_context():
        db = store.get_db()
        g = players.create_group(db, "Hirsch", "skat", {"rank_by": "seeger_fabian",
                                 "min_sheets": 0, "best": None})  # fmt: skip
        sk = players.create_group(db, "Ober", "schafkopf", {"rank_by": "balance",
                                  "min_sheets": 0, "best": None})  # fmt: skip
    html = client.get("/sheets").get_data(as_text=True)
    assert '<datalist id="known-players"><option value="Anna">' in html
    assert 'list="known-players"' in html
    assert f'<option value="{g["id"]}">Hirsch (Skat)</option>' in html
    form = {"game": "skat", "p1": "anna", "p2": "Bernd", "p3": "Eva", "first_dealer": "1"}
    resp = client.post("/sheets", data={**form, "group": str(sk["id"])})
    assert resp.status_code == 422
    assert "anderes Spiel" in resp.get_data(as_text=True)
    resp = client.post("/sheets", data={**form, "group": str(g["id"])})
    assert resp.status_code in (302, 303)
    with app.app_context():
        db = store.get_db()
        sheet = store.list_sheets(db)[0]
        assert sheet["group_id"] == g["id"]
        assert players.find_player(db, "ANNA") == players.sheet_player_ids(db, sheet["id"])[0]


def test_group_rules_are_checked(app: Flask) -> None:
    ok = players.normalize_group({"name": " Hirsch ", "game": "schafkopf"})
    assert ok == ("Hirsch", "schafkopf", {"rank_by": "balance", "min_sheets": 0, "best": None})
    with pytest.raises(InvalidDeal) as exc:
        players.normalize_group({"name": "", "game": "doppelkopf",
                                 "rules": {"rank_by": "x", "best": 0, "z": 1}})  # fmt: skip
    fields = set(exc.value.by_field())
    assert fields == {"name", "game", "rules.rank_by", "rules.best", "rules.z"}
