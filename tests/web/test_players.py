"""Players across sheets, groups, and joining a sheet to a group (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc import store
from skatcalc.rules.common import InvalidDeal
from skatcalc.services import players
from skatcalc.store import migrations as schema
from skatcalc.store import sheets as sheet_store
from skatcalc.text import field_errors
from tests.support import admin_token

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
        assert sheet_store.get_sheet(db, s2["id"]).players == ["carla", "anna", "Dieter"]
        names = {p.name: p.sheets for p in players.list_players(db)}
        assert names == {"Anna": 2, "Bernd": 1, "Carla": 2, "Dieter": 1}


def test_migration_links_sheets_created_before_it(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite")
    db = store.connect(path)
    schema.migrations.apply(db, stop_before="m005_players_groups")
    for names in (["Anna", "Bernd", "Carla"], ["ANNA", "Bernd ", "Dieter", "Eva"]):
        db.execute(
            "insert into sheets (name, game, players, first_dealer, rules, edit_token, "
            "share_token, created, updated) values (?, 'skat', ?, ?, '{}', 'e', 's', "
            "'2025-01-01T18:00:00+00:00', '2025-01-01T18:00:00+00:00')",
            ["old", json.dumps(names), names[0]],
        )
    db.conn.commit()
    schema.migrations.apply(db)
    assert players.sheet_player_ids(db, 1)[0] == players.sheet_player_ids(db, 2)[0]
    assert [p.name for p in players.list_players(db)] == [
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
    sheet = new_sheet(client, group=skat.id)
    assert sheet["group"] == skat.id
    for bad in (sk.id, 999, "1", True):
        resp = client.post("/api/v1/sheets", json={**SKAT, "group": bad})
        assert resp.status_code == 422
        assert "group" in resp.get_json()["errors"]
    with app.app_context():
        assert len(sheet_store.list_sheets(store.get_db())) == 1
        assert [g.sheets for g in players.list_groups(store.get_db())] == [1, 0]


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
    assert f'<option value="{g.id}">Hirsch (Skat)</option>' in html
    form = {"game": "skat", "p1": "anna", "p2": "Bernd", "p3": "Eva", "first_dealer": "1"}
    resp = client.post("/sheets", data={**form, "group": str(sk.id)})
    assert resp.status_code == 422
    assert "anderes Spiel" in resp.get_data(as_text=True)
    resp = client.post("/sheets", data={**form, "group": str(g.id)})
    assert resp.status_code in (302, 303)
    with app.app_context():
        db = store.get_db()
        sheet = sheet_store.list_sheets(db)[0]
        assert sheet.group_id == g.id
        assert players.find_player(db, "ANNA") == players.sheet_player_ids(db, sheet.id)[0]


def test_group_rules_are_checked(app: Flask) -> None:
    ok = players.normalize_group({"name": " Hirsch ", "game": "schafkopf"})
    assert ok == ("Hirsch", "schafkopf", {"rank_by": "balance", "min_sheets": 0, "best": None})
    with pytest.raises(InvalidDeal) as exc:
        players.normalize_group({"name": "", "game": "doppelkopf",
                                 "rules": {"rank_by": "x", "best": 0, "z": 1}})  # fmt: skip
    fields = set(field_errors(exc.value, "de"))
    assert fields == {"name", "game", "rules.rank_by", "rules.best", "rules.z"}


# --- Standings rules (pure) -------------------------------------------------------------------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from skatcalc.rules.standings import (  # noqa: E402
    ClubRules,
    RankBy,
    SheetFigures,
    competition_ranks,
    counted_figures,
    per_series,
    series_count,
    standings,
)


@pytest.mark.parametrize(
    ("scores", "ranks"),
    [
        ([], []),
        ([5], [1]),
        ([9, 9, 3], [1, 1, 3]),
        ([9, 7, 7, 7, 1], [1, 2, 2, 2, 5]),
        ([0, 0, 0], [1, 1, 1]),
        ([10, -3, -3, -8], [1, 2, 2, 4]),
    ],
)
def test_equal_scores_share_a_rank(scores: list[int], ranks: list[int]) -> None:
    assert competition_ranks(scores) == ranks


@pytest.mark.parametrize(
    ("values", "best", "counted"),
    [([3, 9, -1], None, [3, 9, -1]), ([3, 9, -1], 2, [9, 3]), ([3], 5, [3]), ([], 2, [])],
)
def test_best_n_evenings(values: list[int], best: int | None, counted: list[int]) -> None:
    assert counted_figures(values, best) == counted


@given(st.lists(st.integers(-500, 500), max_size=30))
def test_ranks_never_skip_below_position_and_ties_share(scores: list[int]) -> None:
    ordered = sorted(scores, reverse=True)
    ranks = competition_ranks(ordered)
    for i, (s, r) in enumerate(zip(ordered, ranks, strict=True)):
        assert r == 1 + sum(1 for x in ordered if x > s)
        assert r <= i + 1


def fig(
    sid: int, table: int, deals: int, sf: int | None, bal: int = 0, won: int = 0
) -> SheetFigures:
    return SheetFigures(sheet_id=sid, day="2025-01-01", game="skat", table=table, deals=deals,
                        played=deals, balance=bal, cents=bal, won=won, lost=0, list_points=sf,
                        seeger_fabian=sf)  # fmt: skip


@pytest.mark.parametrize(
    ("figs", "series"),
    [
        ([fig(1, 3, 36, 0)], 1.0),
        ([fig(1, 4, 48, 0)], 1.0),
        ([fig(1, 3, 18, 0), fig(2, 4, 24, 0)], 1.0),
        ([fig(1, 4, 12, 0), fig(2, 5, 40, None)], 0.25),  # five-tables have no series
    ],
)
def test_series_are_36_deals_at_three_and_48_at_four(
    figs: list[SheetFigures], series: float
) -> None:
    assert series_count(figs) == series


def test_per_series_normalises_and_needs_a_series() -> None:
    assert per_series(900, 0.5) == 1800.0
    assert per_series(100, 0.0) is None


def test_standings_rank_min_sheets_and_best() -> None:
    data = {
        1: ("Anna", [fig(1, 3, 36, 500), fig(2, 3, 36, 100), fig(3, 3, 36, -50)]),
        2: ("Bernd", [fig(1, 3, 36, 300), fig(2, 3, 36, 250)]),
        3: ("Carla", [fig(1, 3, 36, 600, won=4), fig(2, 3, 36, 0, won=1)]),
        4: ("Gast", [fig(3, 3, 36, 2000)]),
        5: ("Fünf", [fig(9, 5, 36, None)]),  # no Seeger-Fabian at a five-table
    }
    rows = standings(data, ClubRules(RankBy.SEEGER_FABIAN, min_sheets=2, best=2))
    got = [(r.rank, r.player, r.sheets, r.counted, r.score, r.average) for r in rows]
    # Equal scores share rank 1 (more games won first among them); the guest is unranked.
    assert got == [
        (1, "Carla", 2, 2, 600, 300.0),
        (1, "Anna", 3, 2, 600, 300.0),
        (3, "Bernd", 2, 2, 550, 275.0),
        (None, "Gast", 1, 1, 2000, 2000.0),
    ]
    every = standings(data, ClubRules(RankBy.SEEGER_FABIAN))
    assert [(r.rank, r.player, r.score) for r in every][:2] == [
        (1, "Gast", 2000),
        (2, "Carla", 600),
    ]
    assert next(r for r in every if r.player == "Anna").score == 550
    by_balance = standings(data, ClubRules(RankBy.BALANCE))
    assert {r.player for r in by_balance} == {"Anna", "Bernd", "Carla", "Gast", "Fünf"}


# --- Renaming and merging ---------------------------------------------------------------------


def test_rename_keeps_what_the_sheets_say_and_logs_it(app: Flask, client: FlaskClient) -> None:
    sheet = new_sheet(client)
    pid = player_of(client, "Anna")
    resp = client.post(f"/players/{pid}/rename", data={"name": "Anna Lena"})
    assert resp.status_code in (302, 303)
    assert client.get(f"/api/v1/players/{pid}").get_json()["name"] == "Anna Lena"
    assert client.get(f"/api/v1/sheets/{sheet['id']}").get_json()["players"][0] == "Anna"
    page = client.get(f"/players/{pid}").get_data(as_text=True)
    assert "umbenannt von „Anna“ in „Anna Lena“" in page
    # A name another player has: refused next to the field, nothing changed.
    resp = client.post(f"/players/{pid}/rename", data={"name": "bernd"})
    assert resp.status_code == 422
    assert "zusammenführen" in resp.get_data(as_text=True)
    resp = client.post(f"/players/{pid}/rename", data={"name": "   "})
    assert resp.status_code == 422
    assert client.get(f"/api/v1/players/{pid}").get_json()["name"] == "Anna Lena"


def player_of(client: FlaskClient, name: str) -> int:
    players_list = client.get("/api/v1/players").get_json()["players"]
    return next(p["id"] for p in players_list if p["name"] == name)


def test_merge_two_entries_of_one_person(app: Flask, client: FlaskClient) -> None:
    s1 = new_sheet(client, rules={"stake_cents": 1})
    s2 = new_sheet(client, players=["Ana", "Bernd", "Carla"], first_dealer="Ana",
                   rules={"stake_cents": 1})  # fmt: skip
    for sid, who in ((s1["id"], "Anna"), (s2["id"], "Ana")):
        body = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 80,
                "declarer": who}  # fmt: skip
        assert client.post(f"/api/v1/sheets/{sid}/deals", json=body).status_code == 201
    anna, ana = player_of(client, "Anna"), player_of(client, "Ana")
    # Two entries that sat at the same sheet are two people.
    bernd = player_of(client, "Bernd")
    assert client.post(f"/players/{anna}/merge", data={"other": str(bernd)}).status_code in (
        302,
        303,
    )
    assert player_of(client, "Bernd") == bernd
    assert client.post(f"/players/{anna}/merge", data={"other": str(ana)}).status_code in (302, 303)
    names = [p["name"] for p in client.get("/api/v1/players").get_json()["players"]]
    assert "Ana" not in names
    stats = client.get(f"/api/v1/players/{anna}").get_json()["skat"]
    assert stats["sheets"] == 2 and stats["won"] == 2 and stats["balance"] == 2 * 2 * 48
    # The old id leads to the player; the sheet still says "Ana"; typing it again finds Anna.
    assert client.get(f"/api/v1/players/{ana}").get_json()["id"] == anna
    assert client.get(f"/players/{ana}").status_code in (301, 302, 303, 308)
    assert client.get(f"/api/v1/sheets/{s2['id']}").get_json()["players"][0] == "Ana"
    s3 = new_sheet(client, players=["ana", "Eva", "Carla"], first_dealer="ana")
    with app.app_context():
        assert players.sheet_player_ids(store.get_db(), s3["id"])[0] == anna
    page = client.get(f"/players/{anna}").get_data(as_text=True)
    assert "„Ana“ hierher zusammengeführt" in page and "auch eingetragen als" in page


# --- API answers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"game": "skat"}, {"name"}),
        ({"name": "X", "game": "doko"}, {"game"}),
        (
            {"name": "X", "game": "schafkopf", "rules": {"rank_by": "seeger_fabian"}},
            {"rules.rank_by"},
        ),
        ({"name": "X", "game": "skat", "rules": {"min_sheets": -1}}, {"rules.min_sheets"}),
        ({"name": "X", "game": "skat", "rules": {"best": "3"}}, {"rules.best"}),
        ({"name": "X", "game": "skat", "rules": []}, {"rules"}),
        ({"name": "X", "game": "skat", "colour": "red"}, {"colour"}),
        ([1, 2], {"_"}),
    ],
)
def test_bad_groups_are_refused(client: FlaskClient, body: object, fields: set[str]) -> None:
    resp = client.post("/api/v1/groups", json=body)
    assert resp.status_code == 422
    assert set(resp.get_json()["errors"]) == fields
    assert client.get("/api/v1/groups").get_json() == {"groups": []}


def test_group_api_and_standings_period(client: FlaskClient) -> None:
    resp = client.post("/api/v1/groups", json={"name": "Hirsch", "game": "skat",
                                               "rules": {"best": 3}})  # fmt: skip
    assert resp.status_code == 201
    group = resp.get_json()
    assert group["rules"] == {"rank_by": "seeger_fabian", "min_sheets": 0, "best": 3}
    sk = client.post("/api/v1/groups", json={"name": "Ober", "game": "schafkopf"}).get_json()
    assert sk["rules"]["rank_by"] == "balance"
    listed = client.get("/api/v1/groups").get_json()["groups"]
    assert [(g["name"], g["sheets"]) for g in listed] == [("Hirsch", 0), ("Ober", 0)]
    sheet = new_sheet(client, group=group["id"])
    client.post(f"/api/v1/sheets/{sheet['id']}/deals",
                json={"game": "null", "won": False, "declarer": "Bernd"})  # fmt: skip
    out = client.get(f"/api/v1/groups/{group['id']}/standings").get_json()
    year = out["from"][:4]
    assert out["from"] == f"{year}-01-01" and out["to"] == f"{year}-12-31"
    assert [(r["rank"], r["player"], r["score"]) for r in out["rows"]] == [
        (1, "Anna", 40), (1, "Carla", 40), (3, "Bernd", -46 - 50),
    ]  # fmt: skip
    # Only "to" given: "from" stays the default, which is then after it.
    old = client.get(f"/api/v1/groups/{group['id']}/standings?to=2001-12-31")
    assert old.status_code == 422 and "to" in old.get_json()["errors"]
    empty = client.get(f"/api/v1/groups/{group['id']}/standings?from=2001-01-01&to=2001-12-31")
    assert empty.get_json()["rows"] == []
    for query, field in (("from=2025-13-01", "from"), ("to=morgen", "to"),
                         ("from=2025-05-01&to=2025-04-01", "to")):  # fmt: skip
        resp = client.get(f"/api/v1/groups/{group['id']}/standings?{query}")
        assert resp.status_code == 422 and field in resp.get_json()["errors"]
    assert client.get("/api/v1/groups/999/standings").status_code == 404
    assert client.get("/api/v1/players/999").status_code == 404
    assert client.get("/players/999").status_code == 404
    assert client.get("/groups/999").status_code == 404


def test_group_pages_create_and_show(client: FlaskClient) -> None:
    resp = client.post("/groups", data={"name": "", "game": "skat"})
    assert resp.status_code == 422 and "Namen" in resp.get_data(as_text=True)
    resp = client.post("/groups", data={"name": "Hirsch", "game": "skat", "best": "zwei"})
    assert resp.status_code == 422
    resp = client.post("/groups", data={"name": "Hirsch", "game": "skat", "rank_by": "list",
                                        "min_sheets": "2", "best": "10"})  # fmt: skip
    assert resp.status_code in (302, 303)
    gid = int(resp.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    new_sheet(client, group=gid)
    html = client.get(f"/groups/{gid}").get_data(as_text=True)
    assert "Listenpunkte" in html and "Platz ab 2 Abenden" in html and "Anna" in html
    assert client.get(f"/groups/{gid}?from=kaputt").status_code == 422
    en = client.get(f"/groups/{gid}?lang=en").get_data(as_text=True)
    assert "Ranked by" in en


# --- Cached figures ---------------------------------------------------------------------------


def test_figures_are_kept_per_revision_and_recomputed_when_stale(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from skatcalc.services import season
    from skatcalc.services import sheets as service

    gid = client.post("/api/v1/groups", json={"name": "H", "game": "skat"}).get_json()["id"]
    sheet = new_sheet(client, group=gid)
    body = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 70,
            "declarer": "Anna"}  # fmt: skip
    client.post(f"/api/v1/sheets/{sheet['id']}/deals", json=body)
    url = f"/api/v1/groups/{gid}/standings"
    first = client.get(url).get_json()["rows"]
    with app.app_context():
        db = store.get_db()
        (row,) = db.query("select * from sheet_figures_cache")
        assert row["rev"] == sheet_store.get_sheet(db, sheet["id"]).rev
        # A damaged row is not trusted: recomputed from the deals.
        with db.atomic():
            db.execute("update sheet_figures_cache set data = '{\"1\": {}}'")
    service._CACHE.clear()
    assert client.get(url).get_json()["rows"] == first
    # Figures stored by other rules code are not used either.
    with app.app_context():
        db = store.get_db()
        with db.atomic():
            db.execute("update sheet_figures_cache set data = ?",
                       [season._encode({})])  # fmt: skip
    service._CACHE.clear()
    monkeypatch.setattr(season, "CODE_VERSION", "other-rules")
    assert client.get(url).get_json()["rows"] == first
    # A correction is seen at once.
    client.put(f"/api/v1/sheets/{sheet['id']}/deals/1", json={**body, "declarer_points": 40})
    assert client.get(url).get_json()["rows"][0]["player"] != "Anna"


def test_on_the_network_only_the_admin_link_renames_and_merges(lan_app: Flask) -> None:
    """No right from the client's address: loopback (every visitor behind a proxy) is refused
    like any other address; the server's admin link grants it."""
    client = lan_app.test_client()
    client.post("/api/v1/sheets", json=SKAT)
    for addr in ("192.168.1.20", "127.0.0.1", "::1"):
        far = {"REMOTE_ADDR": addr}
        page = client.get("/players/1", environ_base=far).get_data(as_text=True)
        assert "Umbenennen" not in page
        resp = client.post("/players/1/rename", data={"name": "X"}, environ_base=far)
        assert resp.status_code == 403
        assert "Admin-Link" in resp.get_data(as_text=True)
        merge = client.post("/players/1/merge", data={"other": "2"}, environ_base=far)
        assert merge.status_code == 403
    gid = client.post("/api/v1/groups", json={"name": "H", "game": "skat"}).get_json()["id"]
    assert "Gruppe verwalten" not in client.get(f"/groups/{gid}").get_data(as_text=True)
    for path in (f"/groups/{gid}/edit", f"/groups/{gid}/sheets", f"/groups/{gid}/sheets/1/remove"):
        assert client.post(path, data={"name": "X", "sheet": "1"}).status_code == 403
    admin = lan_app.test_client()
    assert admin.get(f"/admin/{admin_token(lan_app)}").status_code == 200
    resp = admin.post("/players/1/rename", data={"name": "Anna B."})
    assert resp.status_code in (302, 303)
    assert "Gruppe verwalten" in admin.get(f"/groups/{gid}").get_data(as_text=True)


def test_new_sheet_from_the_group_page_preselects_the_group(client: FlaskClient) -> None:
    client.post("/api/v1/groups", json={"name": "Hirsch", "game": "skat"})
    gid = client.post("/api/v1/groups", json={"name": "Ober", "game": "schafkopf"}).get_json()["id"]
    assert f"/sheets?group={gid}#new" in client.get(f"/groups/{gid}").get_data(as_text=True)
    html = client.get(f"/sheets?group={gid}").get_data(as_text=True)
    assert f'<option value="{gid}" selected>' in html
    assert 'value="schafkopf" checked' in html
    assert client.get("/sheets?group=abc").status_code == 200
    assert client.get("/sheets?group=99").status_code == 200


def test_group_page_adds_removes_sheets_and_changes_rules(client: FlaskClient) -> None:
    gid = client.post("/api/v1/groups", json={"name": "Hirsch", "game": "skat"}).get_json()["id"]
    late = new_sheet(client, name="Vergessen")
    sk = client.post("/api/v1/sheets", json={"game": "schafkopf", "players": ["A", "B", "C", "D"]})
    page = client.get(f"/groups/{gid}").get_data(as_text=True)
    assert "Vergessen" in page and f'<option value="{sk.get_json()["id"]}">' not in page
    resp = client.post(f"/groups/{gid}/sheets", data={"sheet": str(late["id"])})
    assert resp.status_code in (302, 303)
    assert client.get(f"/api/v1/sheets/{late['id']}").get_json()["group"] == gid
    # A sheet of the other game is refused with the reason.
    client.post(f"/groups/{gid}/sheets", data={"sheet": str(sk.get_json()["id"])})
    assert "anderes Spiel" in client.get(f"/groups/{gid}").get_data(as_text=True)
    assert client.get(f"/api/v1/sheets/{sk.get_json()['id']}").get_json()["group"] is None
    rows = client.get(f"/api/v1/groups/{gid}/standings").get_json()["rows"]
    assert len(rows) == 3
    # New rules: the standings follow at once.
    resp = client.post(f"/groups/{gid}/edit", data={"name": "Hirsch 2026", "rank_by": "list",
                                                     "min_sheets": "2", "best": ""})  # fmt: skip
    assert resp.status_code in (302, 303)
    group = client.get(f"/api/v1/groups/{gid}").get_json()
    assert group["name"] == "Hirsch 2026"
    assert group["rules"] == {"rank_by": "list", "min_sheets": 2, "best": None}
    rows = client.get(f"/api/v1/groups/{gid}/standings").get_json()["rows"]
    assert [r["rank"] for r in rows] == [None, None, None]
    resp = client.post(f"/groups/{gid}/edit", data={"name": "", "best": "0"})
    assert resp.status_code == 422
    assert client.get(f"/api/v1/groups/{gid}").get_json()["name"] == "Hirsch 2026"
    resp = client.post(f"/groups/{gid}/sheets/{late['id']}/remove")
    assert resp.status_code in (302, 303)
    assert client.get(f"/api/v1/groups/{gid}/standings").get_json()["rows"] == []
    assert client.post(f"/groups/{gid}/sheets/{late['id']}/remove").status_code == 404
    assert client.post(f"/groups/{gid}/sheets", data={"sheet": "999"}).status_code == 404
    assert client.post(f"/groups/{gid}/sheets", data={"sheet": "x"}).status_code == 400


@given(
    st.dictionaries(
        st.integers(1, 8),
        st.lists(st.tuples(st.integers(-300, 300), st.integers(0, 5)), min_size=1, max_size=6),
        max_size=6,
    ),
    st.integers(0, 4),
    st.one_of(st.none(), st.integers(1, 4)),
)
def test_standings_laws(data: dict[int, list[tuple[int, int]]], min_sheets: int,
                        best: int | None) -> None:  # fmt: skip
    players_figs = {
        pid: (f"P{pid}", [fig(k, 3, 36, sf, won=w) for k, (sf, w) in enumerate(rows)])
        for pid, rows in data.items()
    }
    rows = standings(players_figs, ClubRules(RankBy.SEEGER_FABIAN, min_sheets, best))
    assert len(rows) == len(data)
    ranked = [r for r in rows if r.rank is not None]
    assert rows[: len(ranked)] == tuple(ranked)  # ranked rows first, then the others
    for r in rows:
        values = sorted((sf for sf, _w in data[r.player_id]), reverse=True)
        counted = values[:best] if best else values
        assert (r.score, r.counted, r.sheets) == (sum(counted), len(counted), len(values))
        assert (r.rank is None) == (r.sheets < min_sheets)
    for r in ranked:
        assert r.rank == 1 + sum(1 for o in ranked if o.score > r.score)


def test_an_empty_sheet_is_no_evening_and_per_series_needs_a_series(client: FlaskClient) -> None:
    for deals in (0, 2):
        sid = client.post("/api/v1/sheets", json={"game": "skat", "players": ["Ann", "B", "C"],
                                                  "first_dealer": "C"}).get_json()["id"]  # fmt: skip
        for _ in range(deals):
            client.post(
                f"/api/v1/sheets/{sid}/deals",
                json={"declarer": "Ann", "game": "grand", "matadors": 1, "with": True, "won": True},
            )
    pid = next(p["id"] for p in client.get("/api/v1/players").get_json()["players"]
               if p["name"] == "Ann")  # fmt: skip
    stats = client.get(f"/api/v1/players/{pid}").get_json()["skat"]
    assert stats["sheets"] == 1 and len(stats["evenings"]) == 1
    page = client.get(f"/players/{pid}").get_data(as_text=True)
    assert "Listenpunkte je Serie</dt><dd>—</dd>" in page
    assert "Je Serie erst ab einer ganzen Serie." in page


def test_a_group_of_an_unknown_game_is_told_every_game(client: FlaskClient) -> None:
    from skatcalc.games import keys

    for lang, words in (("de", "Erlaubt sind"), ("en", "Allowed values")):
        resp = client.post("/api/v1/groups", json={"name": "X", "game": "doko"},
                           headers={"Accept-Language": lang})  # fmt: skip
        assert resp.status_code == 422
        assert resp.get_json()["errors"]["game"] == [f"{words}: {', '.join(keys())}."]
