"""Double entry and sign-off at a club night: two lists per table compared deal by deal, the
ranking counting only what both lists agree on, the table's confirmation and its lock."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from skatcalc import create_app
from skatcalc.rules.double_entry import compare, counted
from skatcalc.rules.sheet import DealRecord, SheetSpec, compute_sheet
from skatcalc.rules.sheet import game as game_kind

DATA = Path(__file__).parents[1] / "data"
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]

# Eight deals at a table of four (every player deals twice), the declarer always forehand (the seat after the dealer);
# deal 3 is where list B slips (a Grand instead of Kreuz: −96 instead of −72).
DEALS: list[dict[str, Any]] = [
    {"declarer": 1, "game": "grand", "with": True, "matadors": 1, "declarer_points": 75},
    {"declarer": 2, "game": "hearts", "with": False, "matadors": 2, "declarer_points": 70},
    {"declarer": 3, "game": "clubs", "with": True, "matadors": 2, "declarer_points": 45},
    {"passed": True},
    {"declarer": 1, "game": "diamonds", "with": True, "matadors": 1, "declarer_points": 61},
    {"declarer": 2, "game": "null", "won": True},
    {"declarer": 3, "game": "spades", "with": False, "matadors": 1, "declarer_points": 80},
    {"passed": True},
]
SLIP = {"declarer": 3, "game": "grand", "with": True, "matadors": 1, "declarer_points": 45}
PASSED = {"passed": True}


def bodies(players: list[str], deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deals with their declarer's seat named (seat 0 deals first)."""
    return [{**d, "declarer": players[d["declarer"]]} if "declarer" in d else d for d in deals]


def new_event(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    r = client.post("/api/v1/events", json={"name": "Doppelt", "game": "skat",
                                            "deals": {"4": 8}, **extra})  # fmt: skip
    assert r.status_code == 201, r.json
    event_id = r.json["id"]
    assert client.post(f"/api/v1/events/{event_id}/players",
                       json={"names": PLAYERS}).status_code == 200  # fmt: skip
    r = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw", "seed": 7})
    assert r.status_code == 201, r.json
    return {"id": event_id, "token": None, **r.json["tables"][0]}


def table(client: FlaskClient, event_id: int) -> dict[str, Any]:
    r = client.get(f"/api/v1/events/{event_id}/series/1/tables/1")
    assert r.status_code == 200, r.json
    return r.json  # type: ignore[no-any-return]


def enter(client: FlaskClient, sheet: int, deals: list[dict[str, Any]]) -> None:
    for body in deals:
        r = client.post(f"/api/v1/sheets/{sheet}/deals", json=body)
        assert r.status_code == 201, r.json


def ranking(client: FlaskClient, event_id: int) -> dict[str, int]:
    return {r["player"]: r["score"] for r in client.get(
        f"/api/v1/events/{event_id}/ranking").json["rows"]}  # fmt: skip


def sheet_score(
    client: FlaskClient, players: list[str], deals: list[dict[str, Any]]
) -> dict[str, int]:
    """Seeger-Fabian of a plain sheet holding these deals (the figures that should count)."""
    r = client.post("/api/v1/sheets", json={"game": "skat", "players": players,
                                            "first_dealer": players[0]})  # fmt: skip
    enter(client, r.json["id"], deals)
    return client.get(f"/api/v1/sheets/{r.json['id']}").json["totals"]["seeger_fabian"]  # type: ignore[no-any-return]


def test_an_event_without_double_entry_keeps_one_list(client: FlaskClient) -> None:
    ev = new_event(client)
    assert client.get(f"/api/v1/events/{ev['id']}").json["double_entry"] is False
    t = table(client, ev["id"])
    assert "list_b" not in t and t["signed"] == [] and t["confirmed"] is None


def test_double_entry_must_be_true_or_false(client: FlaskClient) -> None:
    r = client.post("/api/v1/events", json={"game": "skat", "double_entry": "yes"})
    assert r.status_code == 422
    assert "double_entry" in r.json["errors"]


def test_each_table_gets_a_second_list_with_its_own_sheet(client: FlaskClient) -> None:
    ev = new_event(client, double_entry=True)
    event = client.get(f"/api/v1/events/{ev['id']}").json
    assert event["double_entry"] is True
    t = table(client, ev["id"])
    b = t["list_b"]["sheet"]
    assert b != t["sheet"]
    sheet_b = client.get(f"/api/v1/sheets/{b}").json
    assert sheet_b["players"] == t["players"]
    assert sheet_b["name"].endswith("Liste B")
    assert t["list_b"] == {"sheet": b, "played": 0, "agreed": 0, "pending": 0,
                           "differences": [], "messages": []}  # fmt: skip
    # list B counts nowhere else: a player's sheets are list A's only
    pid = client.get("/api/v1/players").json["players"][0]["id"]
    sheets = client.get(f"/api/v1/players/{pid}").json.get("sheets", [])
    assert all(s.get("id", s) != b for s in sheets)


def test_a_difference_shows_until_corrected_and_only_agreed_deals_count(
    client: FlaskClient,
) -> None:
    ev = new_event(client, double_entry=True)
    a = ev["sheet"]
    players = ev["players"]
    assert ev["first_dealer"] == players[0]
    deals = bodies(players, DEALS)
    t = table(client, ev["id"])
    b = t["list_b"]["sheet"]
    enter(client, a, deals[:2])
    t = table(client, ev["id"])
    assert t["list_b"]["pending"] == 2  # on list A only: not counted yet
    assert set(ranking(client, ev["id"]).values()) == {0}
    assert client.get(f"/api/v1/events/{ev['id']}/ranking").json["pending_deals"] == 2
    enter(client, b, deals[:2])
    t = table(client, ev["id"])
    assert (t["list_b"]["agreed"], t["list_b"]["pending"]) == (2, 0)
    assert ranking(client, ev["id"]) == sheet_score(client, players, deals[:2])
    enter(client, a, deals[2:])
    enter(client, b, bodies(players, [SLIP, *DEALS[3:]]))
    t = table(client, ev["id"])
    assert t["list_b"]["differences"] == [
        {"deal": 3, "a": {**dict.fromkeys(players, 0), players[3]: -72},
         "b": {**dict.fromkeys(players, 0), players[3]: -96}}
    ]  # fmt: skip
    assert t["list_b"]["messages"] == ["Spiel 3: Liste A −72, Liste B −96 — bitte prüfen"]
    assert (t["list_b"]["agreed"], t["list_b"]["pending"]) == (7, 1)
    assert t["complete"] is False
    en = client.get(f"/api/v1/events/{ev['id']}/series/1/tables/1?lang=en",
                    headers={"Accept-Language": "en"}).json  # fmt: skip
    assert en["list_b"]["messages"] == ["Deal 3: list A −72, list B −96 — please check"]
    # the ranking counts the five deals both lists agree on, with list A's figures
    # (a passed deal in its place counts nothing either, and keeps the dealers in turn)
    agreed = [PASSED if i == 2 else d for i, d in enumerate(deals)]
    assert ranking(client, ev["id"]) == sheet_score(client, players, agreed)
    # the organiser's view of the event carries the same
    series = client.get(f"/api/v1/events/{ev['id']}").json["series"][0]
    assert series["tables"][0]["list_b"]["differences"][0]["deal"] == 3
    # no sign-off while the lists differ
    r = client.post(f"/api/v1/events/{ev['id']}/series/1/tables/1/confirm",
                    json={"captain": True})  # fmt: skip
    assert r.status_code == 409
    assert "weichen" in r.json["errors"]["_"][0]
    # correcting list B clears it
    r = client.put(f"/api/v1/sheets/{b}/deals/3", json=deals[2])
    assert r.status_code == 200, r.json
    t = table(client, ev["id"])
    assert t["list_b"]["differences"] == [] and t["list_b"]["pending"] == 0
    assert t["complete"] is True
    totals = client.get(f"/api/v1/sheets/{a}").json["totals"]["seeger_fabian"]
    assert ranking(client, ev["id"]) == totals


def test_the_kept_comparison_follows_a_new_deal_on_either_list(
    app: Flask, client: FlaskClient
) -> None:
    """The comparison is kept per revision of both lists (pages and ranking reads between
    two deals share it); a deal or correction on either list is seen at once, on the
    table's API, both lists' pages and the ranking."""
    from skatcalc.services import events as event_service
    from skatcalc.services import sheets as service

    ev = new_event(client, double_entry=True)
    a, players = ev["sheet"], ev["players"]
    deals = bodies(players, DEALS)
    b = table(client, ev["id"])["list_b"]["sheet"]
    enter(client, a, deals[:2])
    enter(client, b, deals[:2])

    def comparison() -> Any:
        with app.app_context():
            db = service.get_db()
            event = event_service.get_event(db, ev["id"])
            entry = event_service.find_table(db, event, 1, 1).double_entry
            assert entry is not None
            return entry.comparison

    first = comparison()
    assert comparison() is first  # kept: nothing changed
    assert (len(first.agreed), first.pending) == (2, 0)
    enter(client, b, bodies(players, [SLIP]))  # list B ahead, with a slip
    assert (table(client, ev["id"])["list_b"]["pending"], comparison().played_b) == (1, 3)
    enter(client, a, [deals[2]])  # list A catches up: the difference shows
    assert [d.n for d in comparison().differences] == [3]
    for sheet in (a, b):
        assert "Liste A −72, Liste B −96" in client.get(f"/sheets/{sheet}").get_data(True)
    assert ranking(client, ev["id"]) == sheet_score(client, players, deals[:2])
    assert client.put(f"/api/v1/sheets/{b}/deals/3", json=deals[2]).status_code == 200
    assert comparison().differences == () and table(client, ev["id"])["list_b"]["agreed"] == 3
    for sheet in (a, b):
        assert "Liste B −96" not in client.get(f"/sheets/{sheet}").get_data(True)
    assert ranking(client, ev["id"]) == sheet_score(client, players, deals[:3])


def test_the_exports_count_what_both_lists_agree_on_and_name_the_rest(
    client: FlaskClient,
) -> None:
    """The event's CSV and PDF rank by the deals both lists agree on, as the ranking does; the
    PDF's table page (list A) names the deals that do not count and the figures taken."""
    ev = new_event(client, double_entry=True)
    a, players = ev["sheet"], ev["players"]
    deals = bodies(players, DEALS)
    b = table(client, ev["id"])["list_b"]["sheet"]
    enter(client, a, deals)
    enter(client, b, bodies(players, [*DEALS[:2], SLIP, *DEALS[3:7]]))  # a slip, one behind
    agreed = [PASSED if i == 2 else d for i, d in enumerate(deals[:7])]
    want = sheet_score(client, players, agreed)
    lines = client.get(f"/events/{ev['id']}/ranking.csv").data.decode("utf-8-sig").splitlines()
    scores = {row.split(";")[1]: int(row.split(";")[2]) for row in lines[1:]}
    assert scores == want
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(
        client.get(f"/events/{ev['id']}/event.pdf").data)).pages)  # fmt: skip
    assert "Liste B: 2 Spiele noch nicht gezählt." in text
    assert "Spiel 3: Liste A −72, Liste B −96 — bitte prüfen" in text
    counted = " · ".join(f"{p} {want[p]}" for p in players).replace("-", "−")
    assert f"In der Rangliste gezählt (Seeger-Fabian): {counted}" in text
    # corrected and caught up: the lists agree, and the page says so
    assert client.put(f"/api/v1/sheets/{b}/deals/3", json=deals[2]).status_code == 200
    enter(client, b, deals[7:])
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(
        client.get(f"/events/{ev['id']}/event.pdf").data)).pages)  # fmt: skip
    assert "Liste B stimmt mit Liste A überein (8 Spiele)." in text
    assert "noch nicht gezählt" not in text


def complete(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    ev = new_event(client, **extra)
    ev["deals"] = bodies(ev["players"], DEALS)
    enter(client, ev["sheet"], ev["deals"])
    t = table(client, ev["id"])
    if "list_b" in t:
        enter(client, t["list_b"]["sheet"], ev["deals"])
        ev["b"] = t["list_b"]["sheet"]
    return ev


def confirm(client: FlaskClient, ev: dict[str, Any], body: dict[str, Any], **kw: Any) -> Any:
    return client.post(f"/api/v1/events/{ev['id']}/series/1/tables/1/confirm", json=body, **kw)


def test_every_player_confirms_then_both_lists_are_locked(client: FlaskClient) -> None:
    ev = complete(client, double_entry=True)
    for i, p in enumerate(ev["players"]):
        r = confirm(client, ev, {"player": p.upper() if i == 0 else p})  # the name rule
        assert r.status_code == 200, r.json
        assert r.json["signed"] == ev["players"][: i + 1]
        assert (r.json["confirmed"] is not None) == (i == 3)
    assert confirm(client, ev, {"player": ev["players"][0]}).status_code == 200  # no change
    for sheet in (ev["sheet"], ev["b"]):
        r = client.delete(f"/api/v1/sheets/{sheet}/deals/1")
        assert r.status_code == 409
        assert "Tisch bestätigt" in r.json["errors"]["_"][0]
        r = client.put(f"/api/v1/sheets/{sheet}/deals/1", json=ev["deals"][0])
        assert r.status_code == 409
    history = client.get(f"/api/v1/events/{ev['id']}").json["history"]
    history = [h for h in history if h["action"] != "register"]
    assert [h["action"] for h in history] == [
        "sign",
        "sign",
        "sign",
        "confirm",
    ]
    assert history[0]["player"] == ev["players"][0] and history[-1]["table"] == 1
    # the organiser unlocks: writes go through again, and the table confirms anew
    r = client.post(f"/api/v1/events/{ev['id']}/series/1/tables/1/unlock", json={})
    assert r.status_code == 200, r.json
    assert r.json["confirmed"] is None and r.json["signed"] == []
    assert client.delete(f"/api/v1/sheets/{ev['b']}/deals/1").status_code == 200
    r = confirm(client, ev, {"captain": True})
    assert r.status_code == 409  # list B now lacks a deal
    assert client.post(f"/api/v1/sheets/{ev['b']}/deals/1/restore", json={}).status_code == 200
    r = confirm(client, ev, {"captain": True})
    assert r.status_code == 200 and r.json["confirmed"]
    actions = [h["action"] for h in client.get(f"/api/v1/events/{ev['id']}").json["history"]]
    assert actions[-2:] == ["unlock", "confirm"]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"player": "Zoe"}, 422, "player"),
        ({}, 422, "player"),
        ({"player": 5}, 422, "player"),
        ({"captain": "ja"}, 422, "captain"),
        ({"captain": True, "extra": 1}, 422, "extra"),
    ],
)
def test_a_bad_sign_off_is_refused(client: FlaskClient, body: dict[str, Any], status: int,
                                   field: str) -> None:  # fmt: skip
    ev = complete(client, double_entry=True)
    r = confirm(client, ev, body)
    assert r.status_code == status and field in r.json["errors"]
    assert table(client, ev["id"])["signed"] == []


def test_an_unfinished_series_cannot_be_confirmed(client: FlaskClient) -> None:
    ev = new_event(client)
    deals = bodies(ev["players"], DEALS)
    enter(client, ev["sheet"], deals[:5])
    r = confirm(client, ev, {"captain": True})
    assert r.status_code == 409 and "nicht fertig" in r.json["errors"]["_"][0]
    enter(client, ev["sheet"], deals[5:])
    assert confirm(client, ev, {"captain": True}).status_code == 200  # one list: no B needed


def test_a_closed_event_refuses_sign_offs_and_unlocks(client: FlaskClient) -> None:
    ev = complete(client, double_entry=True)
    # not confirmed: closed only on the organiser's word
    assert client.post(f"/api/v1/events/{ev['id']}/close", json={}).status_code == 409
    r = client.post(f"/api/v1/events/{ev['id']}/close", json={"force": True})
    assert r.status_code == 200
    r = confirm(client, ev, {"captain": True})
    assert r.status_code == 409 and "abgeschlossen" in r.json["errors"]["_"][0]
    r = client.post(f"/api/v1/events/{ev['id']}/series/1/tables/1/unlock", json={})
    assert r.status_code == 409
    # list B is closed with the event
    assert client.delete(f"/api/v1/sheets/{ev['b']}/deals/1").status_code == 409


def test_unknown_tables_are_404(client: FlaskClient) -> None:
    ev = complete(client)
    assert client.get(f"/api/v1/events/{ev['id']}/series/1/tables/9").status_code == 404
    assert confirm(client, {"id": ev["id"]}, {"captain": True}).status_code == 200
    r = client.post(f"/api/v1/events/{ev['id']}/series/2/tables/1/confirm", json={"captain": True})
    assert r.status_code == 404


@pytest.fixture
def lan(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "lan.sqlite"),
                       "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "LAN": True})  # fmt: skip


def test_rights_come_from_the_tables_links(lan: Flask) -> None:
    client = lan.test_client()
    r = client.post("/api/v1/events", json={"game": "skat", "deals": {"4": 8},
                                            "double_entry": True})  # fmt: skip
    ev_id, token = r.json["id"], r.json["edit_token"]
    org = {"Authorization": f"Bearer {token}"}
    client.post(f"/api/v1/events/{ev_id}/players", json={"names": PLAYERS}, headers=org)
    t = client.post(f"/api/v1/events/{ev_id}/series", json={"seating": "draw"},
                    headers=org).json["tables"][0]  # fmt: skip
    with lan.app_context():
        from skatcalc.services import sheets as service

        db = service.get_db()
        tok_a = service.load_sheet(db, t["sheet"]).edit_token
        b = client.get(f"/api/v1/events/{ev_id}/series/1/tables/1").json["list_b"]["sheet"]
        tok_b = service.load_sheet(db, b).edit_token
    for sheet, tok in ((t["sheet"], tok_a), (b, tok_b)):
        for body in bodies(t["players"], DEALS):
            r = client.post(f"/api/v1/sheets/{sheet}/deals", json=body,
                            headers={"Authorization": f"Bearer {tok}"})  # fmt: skip
            assert r.status_code == 201
    url = f"/api/v1/events/{ev_id}/series/1/tables/1"
    assert client.post(f"{url}/confirm", json={"captain": True}).status_code == 403
    r = client.post(f"{url}/confirm", json={"player": t["players"][0]},
                    headers={"Authorization": f"Bearer {tok_b}"})  # fmt: skip
    assert r.status_code == 200
    r = client.post(f"{url}/confirm", json={"captain": True},
                    headers={"Authorization": f"Bearer {tok_a}"})  # fmt: skip
    assert r.status_code == 200 and r.json["confirmed"]
    # only the organiser unlocks
    r = client.post(f"{url}/unlock", json={}, headers={"Authorization": f"Bearer {tok_a}"})
    assert r.status_code == 403
    assert client.post(f"{url}/unlock", json={}, headers=org).status_code == 200


# --- The rules: comparison and what counts --------------------------------------------------


def _tables() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name in ("event_skat.json", "event_schafkopf.json"):
        data = json.loads((DATA / name).read_text(encoding="utf-8"))
        for s in data["series"]:
            for t in s["tables"]:
                out.append((data["event"]["game"], {**t, "rules": data["event"].get("rules")}))
    return out


@pytest.mark.parametrize(("game", "t"), _tables())
def test_counting_every_agreed_deal_gives_the_sheets_own_score(
    game: str, t: dict[str, Any]
) -> None:
    players = tuple(t["players"])
    spec = SheetSpec(game, players, players[0], t["rules"])
    recs, dealer = [], players[0]
    for i, d in enumerate(t["deals"], start=1):
        recs.append(DealRecord(i, dealer, tuple(p for p in players if p != dealer)
                               if len(players) == 4 else players, d["body"]))  # fmt: skip
        dealer = players[i % len(players)]
    sheet = compute_sheet(spec, recs)
    same = compare(players, sheet.rows, sheet.rows)
    assert same.clean and same.pending == 0 and len(same.agreed) == len(recs)
    c = counted(game, players, sheet.rows, same.agreed)
    key = game_kind(game).rank_figures[0]
    want = sheet.totals.balance if key == "balance" else sheet.totals.get(key)
    assert dict(c.score) == dict(want or {})
    assert dict(c.won) == dict(sheet.totals.won) and dict(c.lost) == dict(sheet.totals.lost)
    # one list short by its last deal: that deal is pending, nothing differs
    short = compare(players, sheet.rows, sheet.rows[:-1])
    assert short.pending == 1 and not short.differences and not short.clean


# --- Pages ----------------------------------------------------------------------------------


def test_the_club_night_form_asks_for_two_lists(client: FlaskClient) -> None:
    assert 'name="double_entry"' in client.get("/events").get_data(as_text=True)
    r = client.post("/events", data={"game": "skat", "name": "Doppelt", "deals4": "8",
                                     "deals3": "6", "entry": "0", "lost_fee": "0",
                                     "double_entry": "y"})  # fmt: skip
    assert r.status_code == 302, r.get_data(as_text=True)
    event_id = int(r.headers["Location"].split("/")[2])
    assert client.get(f"/api/v1/events/{event_id}").json["double_entry"] is True


def test_the_pages_show_the_difference_and_take_the_sign_off(client: FlaskClient) -> None:
    ev = complete(client, double_entry=True)
    b = ev["b"]
    r = client.put(f"/api/v1/sheets/{b}/deals/3", json=bodies(ev["players"], [SLIP])[0])
    assert r.status_code == 200
    msg = "Spiel 3: Liste A −72, Liste B −96 — bitte prüfen"
    for sheet in (ev["sheet"], b):
        html = client.get(f"/sheets/{sheet}").get_data(as_text=True)
        assert msg in html and "noch nicht gezählt: 1" in html
        assert "bestätigt" not in html  # no sign-off while the lists differ
    assert "Liste B" in client.get(f"/sheets/{b}").get_data(as_text=True)
    series = client.get(f"/events/{ev['id']}/series/1").get_data(as_text=True)
    assert msg in series and "Abweichungen an Tisch 1" in series
    live = client.get(f"/events/{ev['id']}").get_data(as_text=True)
    assert (
        "Spiele noch nicht gezählt (nur auf einer Liste oder abweichend): 1" in live
        and "Abweichungen an Tisch 1" in live
    )
    assert f"/sheets/{b}/edit/" in series  # list B's own edit link (and QR code)
    client.put(f"/api/v1/sheets/{b}/deals/3", json=ev["deals"][2])
    html = client.get(f"/sheets/{b}").get_data(as_text=True)
    assert msg not in html and "Tischführer bestätigt für alle" in html
    url = f"/events/{ev['id']}/series/1/tables/1/confirm"
    r = client.post(url, data={"player": ev["players"][0], "back": str(b)})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/sheets/{b}#signoff")
    html = client.get(f"/sheets/{ev['sheet']}").get_data(as_text=True)
    assert f"{ev['players'][1]} bestätigt" in html and f"{ev['players'][0]} bestätigt" not in html
    client.post(url, data={"captain": "1", "back": str(ev["sheet"])})
    html = client.get(f"/sheets/{ev['sheet']}").get_data(as_text=True)
    assert "Tisch bestätigt am" in html and "Tischführer" not in html
    series = client.get(f"/events/{ev['id']}/series/1").get_data(as_text=True)
    assert "Bestätigt: 1 von 1 Tischen" in series and "Tisch wieder freigeben" in series
    r = client.post(f"/events/{ev['id']}/series/1/tables/1/unlock")
    assert r.status_code == 302
    assert table(client, ev["id"])["confirmed"] is None


def test_lists_compare_player_by_player_by_name() -> None:
    """The lists are compared by the players' names, never by seat position: the same
    figures under the same names agree in any seat order, the same figures in the same seat
    under another name differ (the old seat-by-seat comparison called them equal)."""
    from skatcalc.rules.sheet import Row

    def row(names: tuple[str, ...], v: int) -> Row:
        entries = dict.fromkeys(names, 0) | {names[0]: v}
        return Row(1, names[1], names, {}, False, False, None, entries, entries, {})

    a_names, b_names = ("Anna", "Bernd", "Carla"), ("Anne", "Bernd", "Carla")
    other_names = compare(a_names, [row(a_names, 48)], [row(b_names, 48)], b_names)
    assert not other_names.clean and other_names.agreed == ()
    assert other_names.differences[0].b == {"Anna": 0, "Bernd": 0, "Carla": 0, "Anne": 48}
    turned = ("Carla", "Bernd", "Anna")
    entries = {"Anna": 48, "Bernd": 0, "Carla": 0}
    b_row = Row(1, "Bernd", turned, {}, False, False, None, entries, entries, {})
    assert compare(a_names, [row(a_names, 48)], [b_row], turned).clean


def test_a_table_with_one_list_confirms_on_its_page_once_the_series_is_played(
    client: FlaskClient,
) -> None:
    ev = new_event(client)
    deals = bodies(ev["players"], DEALS)
    enter(client, ev["sheet"], deals[:5])
    html = client.get(f"/sheets/{ev['sheet']}").get_data(as_text=True)
    assert 'id="signoff"' not in html
    enter(client, ev["sheet"], deals[5:])
    html = client.get(f"/sheets/{ev['sheet']}").get_data(as_text=True)
    assert "Tischführer bestätigt für alle" in html and "Liste A" not in html
    client.post(f"/events/{ev['id']}/series/1/tables/1/confirm", data={"captain": "1"})
    html = client.get(f"/sheets/{ev['sheet']}").get_data(as_text=True)
    assert "Tisch bestätigt am" in html
    r = client.post(f"/sheets/{ev['sheet']}/deals/1/strike")
    assert r.status_code == 409 and "Tisch bestätigt" in r.get_data(as_text=True)


def test_the_close_page_lists_the_sign_offs_in_the_history(client: FlaskClient) -> None:
    ev = complete(client, double_entry=True)
    confirm(client, ev, {"player": ev["players"][0]})
    confirm(client, ev, {"captain": True})
    client.post(f"/api/v1/events/{ev['id']}/series/1/tables/1/unlock", json={})
    html = client.get(f"/events/{ev['id']}/close").get_data(as_text=True)
    assert f"Serie 1, Tisch 1: bestätigt von {ev['players'][0]}" in html
    assert "Serie 1, Tisch 1 bestätigt (Tischführer)" in html
    assert "Serie 1, Tisch 1 wieder freigegeben" in html
    assert "verlängert" not in html
