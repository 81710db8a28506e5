"""A club's season against figures worked out independently (tests/data/season_expected.py).

The season is imported sheet by sheet (names join their players, as typed), each sheet is put
into its group on its evening's day, and the API's standings and player figures must match
the independent script's, before and after a correction on an old evening.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import store
from skatcalc.services import players

DATA = Path(__file__).resolve().parents[1] / "data"
SEASON = json.loads((DATA / "season.json").read_text())
EXPECTED = json.loads((DATA / "season_expected.json").read_text())
PERIOD = "from=2025-01-01&to=2025-12-31"


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[Flask, dict[str, Any]]:
    path = tmp_path_factory.mktemp("season") / "season.sqlite"
    app = Flask  # placate type checkers; replaced below
    from skatcalc import create_app

    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False})  # fmt: skip
    client = app.test_client()
    groups = {}
    for key, g in SEASON["groups"].items():
        resp = client.post("/api/v1/groups", json=g)
        assert resp.status_code == 201, resp.get_json()
        groups[key] = resp.get_json()["id"]
    sheet_ids = []
    events: dict[str, int] = {}
    for i, e in enumerate(SEASON["evenings"]):
        body = {k: e[k] for k in ("game", "players", "first_dealer", "rules", "deals")}
        body["name"] = f"Abend {i + 1}"
        resp = client.post("/api/v1/sheets/import", json=body)
        assert resp.status_code == 201, resp.get_json()
        sid = resp.get_json()["id"]
        sheet_ids.append(sid)
        with app.app_context():
            db = store.get_db()
            players.join_group(db, sid, groups[e["group"]])
            # The evening's day: a sheet belongs to the day it was created.
            with db.atomic():
                db.execute("update sheets set created = ? where id = ?",
                           [f"{e['date']}T19:30:00", sid])  # fmt: skip
        if "event" in e:  # a club night's table: its sheet is that table's, as if seated
            if e["event"] not in events:
                made = client.post("/api/v1/events", json={
                    "game": e["game"], "name": e["event"], "date": e["date"],
                    "group": groups[e["group"]]})  # fmt: skip
                assert made.status_code == 201, made.get_json()
                events[e["event"]] = made.get_json()["id"]
            with app.app_context():
                db = store.get_db()
                with db.atomic():
                    eid = events[e["event"]]
                    db.execute("insert or ignore into event_series (event_id, n, seating, "
                               "created) values (?, ?, 'draw', ?)",
                               [eid, e["series"], f"{e['date']}T19:30:00"])  # fmt: skip
                    db.execute("insert into event_tables (event_id, series, n, sheet_id) "
                               "values (?, ?, ?, ?)", [eid, e["series"], e["table"], sid])  # fmt: skip
                    db.execute("update sheets set day = ? where id = ?", [e["date"], sid])
    return app, {"groups": groups, "sheets": sheet_ids, "events": events}


def standings(client: FlaskClient, gid: int) -> list[dict[str, Any]]:
    resp = client.get(f"/api/v1/groups/{gid}/standings?{PERIOD}")
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["from"] == "2025-01-01" and body["to"] == "2025-12-31"
    return body["rows"]


def player_ids(client: FlaskClient) -> dict[str, int]:
    return {p["name"]: p["id"] for p in client.get("/api/v1/players").get_json()["players"]}


def check_players(client: FlaskClient, expected: dict[str, Any]) -> None:
    ids = player_ids(client)
    assert set(ids) == set(expected)
    for name, games in expected.items():
        got = client.get(f"/api/v1/players/{ids[name]}").get_json()
        assert got["name"] == name
        for game in ("skat", "schafkopf"):
            if game not in games:
                assert got[game] is None
                continue
            want, have = games[game], got[game]
            for k, v in want.items():
                if k == "partners":
                    assert {p: have["partners"][p] for p in v} == v, name
                else:
                    assert have[k] == v, (name, game, k)


def test_the_season_is_big_enough() -> None:
    hirsch = [e for e in SEASON["evenings"] if e["group"] == "hirsch"]
    assert len(hirsch) >= 20
    assert any(p != p.title() for e in hirsch for p in e["players"])  # names typed loosely
    club = [e for e in hirsch if "event" in e]
    assert len({e["series"] for e in club}) == 2 and len(club) == 4  # one night, 2 series


def test_a_club_night_is_one_evening_of_the_season(season: tuple[Flask, dict[str, Any]]) -> None:
    app, ids = season
    client = app.test_client()
    body = client.get(f"/api/v1/groups/{ids['groups']['hirsch']}/standings?{PERIOD}").get_json()
    club = [e for e in body["evenings"] if "event" in e]
    assert len(club) == 1 and len(club[0]["sheets"]) == 4
    assert club[0]["day"] == "2025-11-27"
    hirsch = [e for e in SEASON["evenings"] if e["group"] == "hirsch" and e["date"] >= "2025"]
    assert len(body["evenings"]) == len(hirsch) - 3  # four tables, one evening
    rows = {r["player"]: r for r in body["rows"]}
    assert rows["Gustav"]["sheets"] == 1 and rows["Gustav"]["rank"] is None  # two series
    anna = client.get(f"/api/v1/players/{player_ids(client)['Anna']}").get_json()["skat"]
    nights = [e for e in anna["evenings"] if e.get("event") == ids["events"]["clubabend"]]
    assert len(nights) == 1 and len(nights[0]["sheets"]) == 2


def test_standings_match_the_independent_figures(season: tuple[Flask, dict[str, Any]]) -> None:
    app, ids = season
    client = app.test_client()
    for key, gid in ids["groups"].items():
        assert standings(client, gid) == EXPECTED["before"]["standings"][key], key
    rows = standings(client, ids["groups"]["hirsch"])
    assert rows[-1]["rank"] is None  # the guest played too few evenings


def test_player_figures_match_the_independent_figures(
    season: tuple[Flask, dict[str, Any]],
) -> None:
    app, _ids = season
    check_players(app.test_client(), EXPECTED["before"]["players"])


def test_pages_show_the_season(season: tuple[Flask, dict[str, Any]]) -> None:
    app, ids = season
    client = app.test_client()
    html = client.get(f"/groups/{ids['groups']['hirsch']}?{PERIOD}").get_data(as_text=True)
    for row in EXPECTED["before"]["standings"]["hirsch"]:
        assert row["player"] in html
    pid = player_ids(client)["Anna"]
    page = client.get(f"/players/{pid}").get_data(as_text=True)
    assert "<svg" in page and "Seeger-Fabian" in page and "Mit wem" in page
    pdf = client.get(f"/groups/{ids['groups']['hirsch']}/standings.pdf?{PERIOD}")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_a_correction_on_an_old_evening_moves_the_standings(
    season: tuple[Flask, dict[str, Any]],
) -> None:
    app, ids = season
    client = app.test_client()
    gid = ids["groups"]["hirsch"]
    before = [r["player"] for r in standings(client, gid)]
    fix = SEASON["correction"]
    sid = ids["sheets"][fix["evening"]]
    resp = client.put(f"/api/v1/sheets/{sid}/deals/{fix['n']}", json=fix["input"])
    assert resp.status_code == 200, resp.get_json()
    after = standings(client, gid)
    assert after == EXPECTED["after"]["standings"]["hirsch"]
    assert [r["player"] for r in after] != before
    check_players(client, EXPECTED["after"]["players"])
