"""House rules and stake that change during the evening (docs/rules.md Part 3): a change
applies from the next deal on, earlier deals keep the rules they were played under, queued
Bock rounds stay, the stake settles the whole evening; through the API (PATCH), the
"Hausregeln" page, the history, and the JSON round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from skatcalc.rules.sheet import (
    DealRecord,
    RuleChange,
    SheetSpec,
    compute_sheet,
    default_active,
)

SKAT3 = ["A", "B", "C"]
SKAT4 = ["A", "B", "C", "D"]
SK4 = ["A", "B", "C", "D"]
SK5 = ["A", "B", "C", "D", "E"]


def kreuz(declarer: str, kontra: bool = False) -> dict[str, Any]:
    """Kreuz mit 1 won: 24 (with Kontra 48)."""
    body = {"declarer": declarer, "game": "clubs", "matadors": 1, "with": True,
            "declarer_points": 70}  # fmt: skip
    if kontra:
        body["kontra"] = True
    return body


def sau(a: str, b: str, won: bool = True) -> dict[str, Any]:
    return {"game": "sauspiel", "declarers": [a, b], "won": won}


def new_sheet(client: FlaskClient, game: str, players: list[str],
              rules: dict[str, Any] | None = None) -> int:  # fmt: skip
    r = client.post("/api/v1/sheets", json={"game": game, "players": players,
                                            "rules": rules or {}})  # fmt: skip
    assert r.status_code == 201, r.get_json()
    return int(r.get_json()["id"])


def add(client: FlaskClient, sid: int, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    r = client.post(f"/api/v1/sheets/{sid}/deals", json=body)
    assert r.status_code == status, r.get_json()
    return r.get_json()  # type: ignore[no-any-return]


def patch(client: FlaskClient, sid: int, rules: Any, status: int = 200) -> dict[str, Any]:
    r = client.patch(f"/api/v1/sheets/{sid}", json={"rules": rules})
    assert r.status_code == status, r.get_json()
    return r.get_json()  # type: ignore[no-any-return]


# --- The rules engine: each deal under its own rules --------------------------------------


# (id, game, players, rules before, rules from deal 3, bodies, each deal's list/deltas of A)
WORKED = [
    ("Skat at 3: Kontra/Re from deal 3 on", "skat", SKAT3, {}, {"kontra_re": True},
     [kreuz("A"), kreuz("A"), kreuz("A", kontra=True)], [48, 48, 96]),
    ("Skat at 4: Kontra/Re from deal 3 on (the one sitting out pays too)", "skat", SKAT4, {},
     {"kontra_re": True}, [kreuz("D"), kreuz("D"), kreuz("D", kontra=True)], [-24, -24, -48]),
    ("Schafkopf at 4: the Sauspiel costs 20 from deal 3 on", "schafkopf", SK4, {},
     {"tariffs": {"sauspiel": 20}}, [sau("A", "B"), sau("A", "C"), sau("A", "D")], [10, 10, 20]),
    ("Schafkopf at 5: the Sauspiel costs 20 from deal 3 on (A deals deal 1, sits out)",
     "schafkopf", SK5, {}, {"tariffs": {"sauspiel": 20}},
     [sau("B", "C"), sau("A", "C"), sau("A", "D")], [0, 10, 20]),
]  # fmt: skip


@pytest.mark.parametrize(("game", "players", "before", "after", "bodies", "of_a"),
                         [w[1:] for w in WORKED], ids=[w[0] for w in WORKED])  # fmt: skip
def test_a_rule_change_applies_from_its_deal_on(
    game: str, players: list[str], before: dict[str, Any], after: dict[str, Any],
    bodies: list[dict[str, Any]], of_a: list[int],
) -> None:  # fmt: skip
    old = SheetSpec(game, tuple(players), "A", before)
    new = SheetSpec(game, tuple(players), "A", {**old.rules.to_json(), **after})
    spec = SheetSpec(game, tuple(players), "A", new.rules, [RuleChange(3, old.rules, new.rules)])
    deals, dealer = [], "A"
    for n, body in enumerate(bodies, start=1):
        deals.append(DealRecord(n, dealer, default_active(spec, dealer), body))
        dealer = players[(players.index(dealer) + 1) % len(players)]
    out = compute_sheet(spec, deals)
    assert [r.error for r in out.rows] == [None] * len(bodies)
    assert [r.deltas["A"] for r in out.rows] == of_a
    # under the old rules alone the last deal is refused or costs what it did before
    alone = compute_sheet(old, deals)
    assert alone.rows[-1].error is not None or alone.rows[-1].deltas["A"] != of_a[-1]


# --- The API ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [SKAT3, SKAT4], ids=["three", "four"])
def test_patch_turns_kontra_on_in_the_middle_of_a_skat_sheet(
    client: FlaskClient, players: list[str]
) -> None:
    sid = new_sheet(client, "skat", players)
    add(client, sid, kreuz("C"))
    add(client, sid, kreuz("C", kontra=True), status=422)  # not agreed yet
    data = patch(client, sid, {"kontra_re": True, "stake_cents": 10})
    assert data["rules"]["kontra_re"] is True
    assert data["rule_changes"][0]["from_n"] == 2
    assert data["rule_changes"][0]["rules"]["kontra_re"] is True
    assert data["rule_changes"][0]["before"]["kontra_re"] is False
    data = add(client, sid, kreuz("C", kontra=True))
    assert [d["deltas"]["C"] for d in data["deals"]] == [
        24 * (len(players) - 1), 48 * (len(players) - 1)]  # fmt: skip
    # the stake is the evening's: deal 1 is settled at 10 cents too
    owed = sum(t["cents"] for t in data["totals"]["settlement"] if t["to"] == "C")
    assert owed == 72 * (len(players) - 1) * 10
    # deal 1 was played without Kontra: a correction to one with Kontra is refused
    r = client.put(f"/api/v1/sheets/{sid}/deals/1", json=kreuz("C", kontra=True))
    assert r.status_code == 422
    r = client.put(f"/api/v1/sheets/{sid}/deals/2", json=kreuz("A", kontra=True))
    assert r.status_code == 200
    history = client.get(f"/api/v1/sheets/{sid}").get_json()["history"]
    assert [(h["action"], h["n"]) for h in history] == [("add", 1), ("rules", 2), ("add", 2),
                                                        ("correct", 2)]  # fmt: skip
    assert history[1]["before"]["kontra_re"] is False


@pytest.mark.parametrize("players", [SK4, SK5], ids=["four", "five"])
def test_patch_merges_tariffs_key_by_key_in_the_middle_of_a_schafkopf_sheet(
    client: FlaskClient, players: list[str]
) -> None:
    sid = new_sheet(client, "schafkopf", players, {"tariffs": {"solo": 50}})
    add(client, sid, sau("C", "D"))
    data = patch(client, sid, {"tariffs": {"sauspiel": 20}, "stock": 10})
    assert data["rules"]["tariffs"]["sauspiel"] == 20
    assert data["rules"]["tariffs"]["solo"] == 50  # merged, not replaced
    assert data["rules"]["stock"]["cents"] == 10
    add(client, sid, {"passed": True})
    data = add(client, sid, sau("D", "A"))
    first, passed, third = data["deals"]
    assert first["value"] == 10 and third["value"] == 20
    assert passed["stock"] == 40 and third["stock"] == -40
    assert third["deltas"]["D"] == 20 + 20


def test_patch_keeps_queued_bock_rounds(client: FlaskClient) -> None:
    sid = new_sheet(client, "schafkopf", SK4, {"bock": ["value-100"]})
    data = add(client, sid, {"game": "solo", "declarers": ["A"], "won": True, "tout": True,
                             "gestellt": 1})  # fmt: skip
    assert data["bock_pending"] == 4
    data = patch(client, sid, {"bock": [], "tariffs": {"sauspiel": 20}})
    assert data["bock_pending"] == 4
    data = add(client, sid, sau("A", "B"))
    assert data["deals"][-1]["bock"] is True and data["deals"][-1]["value"] == 40


@pytest.mark.parametrize(
    ("rules", "field"),
    [({"kontra_re": 1}, "rules.kontra_re"), ({"nonsense": True}, "rules.nonsense"),
     ({"stake_cents": -1}, "rules.stake_cents"), ({"bock": ["re-lost"]}, "rules.bock")],
)  # fmt: skip
def test_patch_with_bad_rules_stores_nothing(client: FlaskClient, rules: dict[str, Any],
                                             field: str) -> None:  # fmt: skip
    sid = new_sheet(client, "skat", SKAT3)
    add(client, sid, kreuz("A"))
    before = client.get(f"/api/v1/sheets/{sid}").get_json()
    out = patch(client, sid, rules, status=422)
    assert field in out["errors"]
    after = client.get(f"/api/v1/sheets/{sid}").get_json()
    assert after == before


@pytest.mark.parametrize("body", [[], {"rules": 3}, {"rules": {}, "name": "x"}, "rules"])
def test_patch_takes_an_object_with_rules(client: FlaskClient, body: Any) -> None:
    sid = new_sheet(client, "skat", SKAT3)
    r = client.patch(f"/api/v1/sheets/{sid}", json=body)
    assert r.status_code == 422


def test_patch_that_changes_nothing_or_only_the_stake_records_no_rule_change(
    client: FlaskClient,
) -> None:
    sid = new_sheet(client, "skat", SKAT3)
    add(client, sid, kreuz("A"))
    data = patch(client, sid, {"kontra_re": False})
    assert data["rule_changes"] == [] and [h["action"] for h in data["history"]] == ["add"]
    data = patch(client, sid, {"stake_cents": 5})
    assert data["rule_changes"] == [] and data["history"][-1]["action"] == "rules"
    # two changes before the next deal are one change; taken back, none
    patch(client, sid, {"kontra_re": True})
    data = patch(client, sid, {"ramsch": True})
    assert [c["from_n"] for c in data["rule_changes"]] == [2]
    data = patch(client, sid, {"kontra_re": False, "ramsch": False})
    assert data["rule_changes"] == []


def test_a_change_before_the_first_deal_is_the_sheets_rules(client: FlaskClient) -> None:
    sid = new_sheet(client, "skat", SKAT3)
    data = patch(client, sid, {"kontra_re": True})
    assert data["rule_changes"] == [] and data["rules"]["kontra_re"] is True
    add(client, sid, kreuz("A", kontra=True))


def test_patch_needs_the_edit_right(tmp_path: Any) -> None:
    from skatcalc import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "lan.sqlite"),
                      "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "LAN": True})  # fmt: skip
    c = app.test_client()
    r = c.post("/api/v1/sheets", json={"game": "skat", "players": SKAT3})
    sid, token = r.get_json()["id"], r.get_json()["edit_token"]
    c.delete_cookie(f"edit_{sid}")
    r = c.patch(f"/api/v1/sheets/{sid}", json={"rules": {"kontra_re": True}})
    assert r.status_code == 403
    r = c.patch(f"/api/v1/sheets/{sid}", json={"rules": {"kontra_re": True}},
                headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert r.status_code == 200
    assert c.get(f"/sheets/{sid}/rules").status_code == 403


def test_on_a_club_nights_table_only_the_organiser_changes_rules(tmp_path: Any) -> None:
    from skatcalc import create_app, store
    from skatcalc.services import sheets as service

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "ev.sqlite"),
                      "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "LAN": True})  # fmt: skip
    c = app.test_client()
    r = c.post("/api/v1/sheets", json={"game": "skat", "players": SKAT3})
    sid, token = r.get_json()["id"], r.get_json()["edit_token"]
    with app.app_context():
        conn = store.get_db()
        conn.execute(
            "insert into events (id, name, day, game, deals, rules, entry_cents, "
            "lost_game_cents, payout, edit_token, created) values (7, 'Clubabend', "
            "'2026-11-25', 'skat', '{}', '{}', 0, 0, '[]', 'organiser', '2026-11-25')"
        )
        conn.execute("insert into event_tables (event_id, series, n, sheet_id) values (7, 1, 1, ?)",
                     [sid])  # fmt: skip
        assert service.rules_event(conn, service.load_sheet(conn, sid)).id == 7
    c.delete_cookie(f"edit_{sid}")
    r = c.patch(f"/api/v1/sheets/{sid}", json={"rules": {"kontra_re": True}},
                headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert r.status_code == 403  # the table's own edit link is not enough
    r = c.patch(f"/api/v1/sheets/{sid}", json={"rules": {"kontra_re": True}},
                headers={"Authorization": "Bearer organiser"})  # fmt: skip
    assert r.status_code == 200
    r = c.post(f"/api/v1/sheets/{sid}/deals", json=kreuz("B", kontra=True),
               headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert r.status_code == 201
    # the club night reads its tables with a query of its own: the change counts there too,
    # also when nothing of the sheet is kept in memory (a restart)
    service._CACHE.clear()
    service._LATEST.clear()
    r = c.get("/api/v1/events/7")
    assert r.status_code == 200, r.get_data(as_text=True)


def test_export_and_import_keep_each_change(client: FlaskClient) -> None:
    sid = new_sheet(client, "schafkopf", SK5, {"stock": 10})
    add(client, sid, {"passed": True})
    patch(client, sid, {"tariffs": {"sauspiel": 20, "schneider": 30}})
    add(client, sid, sau("C", "D"))
    patch(client, sid, {"stock": None, "ramsch": True})
    add(client, sid, sau("D", "E", won=False))
    patch(client, sid, {"tariffs": {"laufende": 5}})  # from deal 4, none played yet
    exported = json.loads(client.get(f"/api/v1/sheets/{sid}/export.json").data)
    r = client.post("/api/v1/sheets/import", json=exported)
    assert r.status_code == 201, r.get_json()
    copy = r.get_json()
    assert [c["from_n"] for c in copy["rule_changes"]] == [2, 3, 4]
    for key in ("rules", "rule_changes", "totals", "deals"):
        assert copy[key] == exported[key], key
    again = json.loads(client.get(f"/api/v1/sheets/{copy['id']}/export.json").data)
    assert again["rule_changes"] == exported["rule_changes"]


@pytest.mark.parametrize(
    "changes",
    [[{"from_n": 1, "before": {}}], [{"from_n": 3, "before": {}}, {"from_n": 2, "before": {}}],
     [{"from_n": 9, "before": {}}], [{"from_n": 2, "before": {"kontra_re": 4}}], {"x": 1},
     [{"from_n": 2}]],
)  # fmt: skip
def test_import_refuses_broken_rule_changes(client: FlaskClient, changes: Any) -> None:
    sid = new_sheet(client, "skat", SKAT3)
    for _ in range(3):
        add(client, sid, kreuz("A"))
    exported = json.loads(client.get(f"/api/v1/sheets/{sid}/export.json").data)
    r = client.post("/api/v1/sheets/import", json={**exported, "rule_changes": changes})
    assert r.status_code == 422
    assert "rule_changes" in r.get_json()["errors"]


def test_import_checks_each_deal_under_its_rules(client: FlaskClient) -> None:
    sid = new_sheet(client, "skat", SKAT3)
    add(client, sid, kreuz("A"))
    patch(client, sid, {"kontra_re": True})
    add(client, sid, kreuz("A", kontra=True))
    exported = json.loads(client.get(f"/api/v1/sheets/{sid}/export.json").data)
    assert client.post("/api/v1/sheets/import", json=exported).status_code == 201
    exported["deals"][0]["input"]["kontra"] = True  # deal 1 was played without Kontra
    r = client.post("/api/v1/sheets/import", json=exported)
    assert r.status_code == 422 and "deals[1]" in r.get_json()["errors"]


# --- The pages --------------------------------------------------------------------------------


def test_the_hausregeln_page_changes_the_rules_from_the_next_deal(client: FlaskClient) -> None:
    sid = new_sheet(client, "skat", SKAT3)
    add(client, sid, kreuz("A"))
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    assert f"/sheets/{sid}/rules" in page
    # Kontra is not offered before the change
    assert 'name="kontra"' not in page
    form = client.get(f"/sheets/{sid}/rules")
    assert form.status_code == 200
    assert "ab Spiel 2" in form.get_data(as_text=True)
    r = client.post(f"/sheets/{sid}/rules", data={"kontra_re": "y", "stake_cents": "5"})
    assert r.status_code == 302
    data = client.get(f"/api/v1/sheets/{sid}").get_json()
    assert data["rules"]["kontra_re"] is True and data["rules"]["stake_cents"] == 5
    assert data["rule_changes"][0]["from_n"] == 2
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    assert 'name="kontra"' in page  # the entry form offers Kontra now
    add(client, sid, kreuz("A", kontra=True))
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    assert "neue Regeln" in page and "Hausregeln geändert ab" in page


def test_the_hausregeln_page_shows_errors_and_stores_nothing(client: FlaskClient) -> None:
    sid = new_sheet(client, "schafkopf", SK4)
    r = client.post(f"/sheets/{sid}/rules", data={"t_sauspiel": "zehn", "t_solo": "20"})
    assert r.status_code == 422
    r = client.post(f"/sheets/{sid}/rules", data={"t_sauspiel": "10", "stock_cents": "0"})
    assert r.status_code == 422
    assert "Stock: 1 bis 100000 Cent je Spieler." in r.get_data(as_text=True)
    assert client.get(f"/api/v1/sheets/{sid}").get_json()["history"] == []


def test_the_hausregeln_page_needs_its_csrf_token(csrf_app: Flask) -> None:
    c = csrf_app.test_client()
    r = c.post("/api/v1/sheets", json={"game": "skat", "players": SKAT3})
    sid = r.get_json()["id"]
    r = c.post(f"/sheets/{sid}/rules", data={"kontra_re": "y"})
    assert r.status_code == 400
    assert c.get(f"/api/v1/sheets/{sid}").get_json()["rules"]["kontra_re"] is False


def test_the_new_sheet_form_has_three_big_toggles_first(client: FlaskClient) -> None:
    page = client.get("/sheets").get_data(as_text=True)
    form = page[page.index('class="newsheet"') :]
    toggles = form.index('class="toggles"')
    assert toggles < form.index('name="p1"')
    block = form[toggles : form.index("</div>\n<p", toggles)]
    for name in ("kontra_re", "ramsch", "bock_on"):
        assert f'name="{name}"' in block
    r = client.post("/sheets", data={"game": "skat", "p1": "A", "p2": "B", "p3": "C",
                                     "first_dealer": "1", "bock_on": "y"})  # fmt: skip
    sid = int(r.headers["Location"].rsplit("/", 1)[1])
    assert client.get(f"/api/v1/sheets/{sid}").get_json()["rules"]["bock"] == [
        "60-60", "grand-hand-won", "kontra-lost", "value-100"]  # fmt: skip


def test_a_group_and_a_club_night_read_sheets_whose_rules_changed(client: FlaskClient) -> None:
    # groups and club nights read their sheets with queries of their own: the changes come
    # as the stored text there, and each deal still counts under its own rules
    g = client.post("/api/v1/groups", json={"name": "Stammtisch", "game": "schafkopf"})
    assert g.status_code == 201, g.get_json()
    r = client.post("/api/v1/sheets", json={"game": "schafkopf", "players": SK4,
                                            "group": g.get_json()["id"]})  # fmt: skip
    sid = r.get_json()["id"]
    add(client, sid, sau("B", "C"))
    patch(client, sid, {"tariffs": {"sauspiel": 20}})
    add(client, sid, sau("C", "D"))
    from skatcalc.services import sheets as service

    service._CACHE.clear()  # nothing of the sheet kept in memory (a restart)
    service._LATEST.clear()
    standings = client.get(f"/api/v1/groups/{g.get_json()['id']}/standings")
    assert standings.status_code == 200
    text = json.dumps(standings.get_json())
    assert "-30" in text or "−30" in text  # A: −10 then −20
    assert client.get(f"/groups/{g.get_json()['id']}").status_code == 200


def test_a_closed_sheet_keeps_its_rules(client: FlaskClient) -> None:
    """A closed evening is settled: a change of its rules answers 409 and stores nothing,
    as every other write does; reopened, the change goes through."""
    sid = new_sheet(client, "skat", ["Anna", "Bernd", "Clara"])
    add(client, sid, kreuz("Anna"))
    assert client.post(f"/api/v1/sheets/{sid}/close", json={}).status_code == 200
    r = client.patch(f"/api/v1/sheets/{sid}", json={"rules": {"kontra_re": True}})
    assert r.status_code == 409 and r.json["errors"]["_"] and r.json["sheet"]["closed"]
    assert r.json["sheet"]["rule_changes"] == []
    assert client.post(f"/api/v1/sheets/{sid}/reopen", json={}).status_code == 200
    assert patch(client, sid, {"kontra_re": True})["rules"]["kontra_re"] is True
