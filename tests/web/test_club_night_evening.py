"""A club night is one evening: in a group's standings (its series summed, counted once for
``min_sheets`` and ``best``), in a player's evenings, the group and player lists; and the
event's date is its sheets' day (standings of that day, the table pages, a migrated database).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from skatcalc import store
from skatcalc.services import players
from skatcalc.store import migrations as schema
from skatcalc.store.records import sheet_of

EVENT_DAY = "2026-11-27"  # not the day the test runs: the sheets must carry it
TODAY = date.today().isoformat()
YEAR = f"from={EVENT_DAY[:4]}-01-01&to={EVENT_DAY[:4]}-12-31"


def group(client: FlaskClient, **rules: Any) -> int:
    r = client.post("/api/v1/groups", json={"name": "Goldener Hirsch", "game": "skat",
                                            "rules": {"rank_by": "list", **rules}})  # fmt: skip
    assert r.status_code == 201, r.json
    return int(r.json["id"])


def play(client: FlaskClient, sheet_id: int, wins: dict[str, int]) -> None:
    """Each named player declares and wins a Grand (list +96 at four: 24 × 4 … any fixed value)
    that many times; the dealer of each deal sits out, so the declarer is chosen among the
    others."""
    queue = [p for p, n in wins.items() for _ in range(n)]
    while queue:
        sheet = client.get(f"/api/v1/sheets/{sheet_id}").json
        dealer = sheet["next_dealer"]
        who = next((p for p in queue if p != dealer), None)
        if who is None:  # only the dealer has games left: a passed deal moves the dealer on
            body: dict[str, Any] = {"passed": True}
        else:
            queue.remove(who)
            body = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 80,
                    "declarer": who}  # fmt: skip
        r = client.post(f"/api/v1/sheets/{sheet_id}/deals", json=body)
        assert r.status_code == 201, r.json


def club_night(client: FlaskClient, group_id: int, names: list[str]) -> tuple[int, list[int]]:
    """An event on EVENT_DAY in the group, two series of one table each: (event, sheets)."""
    r = client.post("/api/v1/events", json={"game": "skat", "name": "Clubabend",
                                            "date": EVENT_DAY, "group": group_id})  # fmt: skip
    assert r.status_code == 201, r.json
    event_id = int(r.json["id"])
    assert (
        client.post(f"/api/v1/events/{event_id}/players", json={"names": names}).status_code == 200
    )
    sheets = []
    for _series in (1, 2):
        r = client.post(
            f"/api/v1/events/{event_id}/series", json={"seating": "draw", "force": True}
        )
        assert r.status_code == 201, r.json
        assert len(r.json["tables"]) == 1
        sheets.append(int(r.json["tables"][0]["sheet"]))
    return event_id, sheets


def sheet_in_group(client: FlaskClient, group_id: int, names: list[str]) -> int:
    r = client.post("/api/v1/sheets", json={"game": "skat", "players": names, "group": group_id})
    assert r.status_code == 201, r.json
    return int(r.json["id"])


def test_a_club_night_of_two_series_is_one_evening_in_the_standings(client: FlaskClient) -> None:
    gid = group(client, min_sheets=2)
    event_id, (s1, s2) = club_night(client, gid, ["Anna", "Bernd", "Carla", "Dieter"])
    play(client, s1, {"Anna": 2, "Dieter": 1})
    play(client, s2, {"Anna": 1, "Dieter": 2, "Bernd": 1})
    evening = sheet_in_group(client, gid, ["Anna", "Bernd", "Eva"])
    play(client, evening, {"Anna": 1, "Eva": 1})
    # the ordinary evening belongs to today, the club night to its date: the whole year
    start = min(EVENT_DAY, TODAY)[:4]
    body = client.get(f"/api/v1/groups/{gid}/standings?from={start}-01-01&to=2026-12-31").json
    rows = {r["player"]: r for r in body["rows"]}
    # Anna: the club night (two series) and one more evening = 2 evenings: ranked
    assert rows["Anna"]["sheets"] == 2 and rows["Anna"]["rank"] is not None
    assert rows["Bernd"]["sheets"] == 2 and rows["Bernd"]["rank"] is not None
    # Dieter and Carla played only the club night: one evening, below the minimum of 2
    assert rows["Dieter"]["sheets"] == 1 and rows["Dieter"]["rank"] is None
    assert rows["Carla"]["sheets"] == 1 and rows["Carla"]["rank"] is None
    # the club night's series summed into one value: list points of both sheets
    lists = {}
    for sid in (s1, s2, evening):
        totals = client.get(f"/api/v1/sheets/{sid}").json["totals"]
        lists[sid] = totals["list"]
    assert rows["Dieter"]["score"] == lists[s1]["Dieter"] + lists[s2]["Dieter"]
    assert rows["Anna"]["score"] == lists[s1]["Anna"] + lists[s2]["Anna"] + lists[evening]["Anna"]
    # the evenings the standings come from: the club night once, carrying its event and date
    evenings = body["evenings"]
    club = [e for e in evenings if e.get("event") == event_id]
    assert len(club) == 1 and club[0]["sheets"] == [s1, s2] and club[0]["day"] == EVENT_DAY
    assert len(evenings) == 2


def test_best_evenings_count_a_club_night_once(client: FlaskClient) -> None:
    gid = group(client, best=1)
    _event, (s1, s2) = club_night(client, gid, ["Anna", "Bernd", "Carla", "Dieter"])
    play(client, s1, {"Anna": 1})
    play(client, s2, {"Anna": 1})
    evening = sheet_in_group(client, gid, ["Anna", "Bernd", "Eva"])
    play(client, evening, {"Anna": 1})
    start = min(EVENT_DAY, TODAY)[:4]
    rows = client.get(f"/api/v1/groups/{gid}/standings?from={start}-01-01&to=2026-12-31").json
    anna = next(r for r in rows["rows"] if r["player"] == "Anna")
    club = sum(client.get(f"/api/v1/sheets/{s}").json["totals"]["list"]["Anna"] for s in (s1, s2))
    # the best evening is the whole club night (two Grands), not its better series
    assert (anna["sheets"], anna["counted"], anna["score"]) == (2, 1, club)


def test_a_player_with_a_club_night_and_one_more_evening_has_two_evenings(
    client: FlaskClient,
) -> None:
    gid = group(client)
    event_id, (s1, s2) = club_night(client, gid, ["Anna", "Bernd", "Carla", "Dieter"])
    play(client, s1, {"Anna": 1})
    play(client, s2, {"Anna": 2})
    evening = sheet_in_group(client, gid, ["Anna", "Bernd", "Eva"])
    play(client, evening, {"Anna": 1})
    pid = next(p["id"] for p in client.get("/api/v1/players").json["players"]
               if p["name"] == "Anna")  # fmt: skip
    listed = {p["name"]: p["sheets"] for p in client.get("/api/v1/players").json["players"]}
    assert listed["Anna"] == 2 and listed["Dieter"] == 1
    skat = client.get(f"/api/v1/players/{pid}").json["skat"]
    assert skat["sheets"] == 2
    assert len(skat["evenings"]) == 2
    club = next(e for e in skat["evenings"] if e.get("event") == event_id)
    assert club["sheets"] == [s1, s2] and club["day"] == EVENT_DAY and club["name"] == "Clubabend"
    per_sheet = [client.get(f"/api/v1/sheets/{s}").json["totals"] for s in (s1, s2)]
    assert club["balance"] == sum(t["balance"]["Anna"] for t in per_sheet)
    assert club["won"] == 3
    assert club["deals"] == sum(
        sum(1 for d in client.get(f"/api/v1/sheets/{s}").json["deals"] if not d["struck"])
        for s in (s1, s2)
    )
    assert skat["best"]["event"] == event_id  # +3 Grands beat +1 Grand
    assert "event" not in next(e for e in skat["evenings"] if e["sheet"] == evening)
    # the group list counts evenings too
    groups = client.get("/api/v1/groups").json["groups"]
    assert next(g for g in groups if g["id"] == gid)["sheets"] == 2
    # pages: the player's evening links the event; the group page lists it once
    page = client.get(f"/players/{pid}").data.decode()
    assert f"/events/{event_id}" in page
    gpage = client.get(f"/groups/{gid}?from=2026-01-01&to=2026-12-31").data.decode()
    assert gpage.count(f'href="/events/{event_id}"') == 1
    pdf = client.get(f"/groups/{gid}/standings.pdf?from=2026-01-01&to=2026-12-31")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_the_event_date_is_its_sheets_day(client: FlaskClient) -> None:
    gid = group(client)
    _event, (s1, s2) = club_night(client, gid, ["Anna", "Bernd", "Carla", "Dieter"])
    play(client, s1, {"Anna": 1})
    # the standings of the event's day hold the club night, whatever day it was seated
    day = client.get(f"/api/v1/groups/{gid}/standings?from={EVENT_DAY}&to={EVENT_DAY}").json
    assert {r["player"] for r in day["rows"]} == {"Anna", "Bernd", "Carla", "Dieter"}
    if TODAY != EVENT_DAY:
        today = client.get(f"/api/v1/groups/{gid}/standings?from={TODAY}&to={TODAY}").json
        assert today["rows"] == []
    # the table pages and files print the event's date
    page = client.get(f"/sheets/{s1}").data.decode()
    assert "27.11.2026" in page
    csv = client.get(f"/api/v1/sheets/{s1}/export.csv")
    assert EVENT_DAY in csv.headers["Content-Disposition"]
    assert "27.11.2026" in client.get(f"/groups/{gid}?{YEAR}").data.decode()


def test_existing_club_night_sheets_take_their_event_date(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite")
    db = store.connect(path)
    schema.migrations.apply(db, stop_before="m013_sheet_day")
    for sid in (1, 2, 3):
        db.execute(
            "insert into sheets (id, name, game, players, first_dealer, rules, edit_token, "
            "share_token, created, updated) values (?, 'old', 'skat', ?, 'Anna', '{}', 'e', "
            "'s', '2026-11-25T18:00:00+00:00', '2026-11-25T18:00:00+00:00')",
            [sid, json.dumps(["Anna", "Bernd", "Carla"])],
        )
    db.execute(
        "insert into events (id, name, day, game, deals, rules, entry_cents, lost_game_cents, "
        "payout, edit_token, created) values (1, 'Clubabend', ?, 'skat', '{}', '{}', 0, 0, "
        "'{}', 't', '2026-11-25T18:00:00+00:00')",
        [EVENT_DAY],
    )
    for sid in (1, 2):
        db.execute("insert into event_tables (event_id, series, n, sheet_id) values (1, ?, 1, ?)",
                   [sid, sid])  # fmt: skip
    db.conn.commit()
    schema.migrations.apply(db)
    days = {int(r["id"]): r["day"] for r in db.query("select id, day from sheets")}
    assert days == {1: EVENT_DAY, 2: EVENT_DAY, 3: None}
    sheets = {int(r["id"]): sheet_of(r) for r in db.query("select * from sheets")}
    assert players.sheet_day(sheets[1]) == date(2026, 11, 27)
    assert players.sheet_day(sheets[3]) == date(2026, 11, 25)
    db.close()


def test_pages_of_a_group_without_club_nights_still_list_each_sheet(
    app: Flask, client: FlaskClient
) -> None:
    gid = group(client)
    a = sheet_in_group(client, gid, ["Anna", "Bernd", "Eva"])
    b = sheet_in_group(client, gid, ["Anna", "Bernd", "Eva"])
    page = client.get(f"/groups/{gid}").data.decode()
    assert f'href="/sheets/{a}"' in page and f'href="/sheets/{b}"' in page
    body = client.get(f"/api/v1/groups/{gid}/standings").json
    assert [e["sheets"] for e in body["evenings"]] == [[a], [b]]
    assert all("event" not in e for e in body["evenings"])
