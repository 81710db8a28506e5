"""The Skat house rules of real tables through the API, the pages and the files: rules on a new
sheet, Ramsch ``pushes``, ``ramsch_cap``, ``ramsch_loser``, ``bockramsch``, the triggers
``schneider-lost``, ``grand-hand-lost``, ``re``, and ``bierlachs``; JSON export → import."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

API = "/api/v1/sheets"
CLUBS = {"game": "clubs", "matadors": 1, "with": True}


def create(client: FlaskClient, players: str = "ABC", **rules: Any) -> dict[str, Any]:
    r = client.post(API, json={"game": "skat", "players": list(players), "rules": rules})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def add(client: FlaskClient, sid: int, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    r = client.post(f"{API}/{sid}/deals", json=body)
    assert r.status_code == status, r.get_json()
    return r.get_json()


def ramsch(points: dict[str, int], **more: Any) -> dict[str, Any]:
    return {"ramsch": {"points": points, **more}}


def test_the_new_rules_are_off_unless_turned_on_and_answered_when_set(client: FlaskClient) -> None:
    plain = create(client)
    assert plain["rules"] == {"kontra_re": False, "ramsch": False, "bock": [], "stake_cents": 0}
    rules = {"ramsch": True, "schieberamsch": True, "ramsch_cap": 250, "ramsch_loser": "each",
             "bockramsch": True, "bierlachs": 301, "stake_cents": 50,
             "bock": ["schneider-lost", "grand-hand-lost", "re"]}  # fmt: skip
    sheet = create(client, **rules)
    assert sheet["rules"] == {"kontra_re": False, **rules}
    assert sheet["bockramsch_pending"] == 0 and sheet["next_bockramsch"] is False
    assert sheet["totals"]["bierlachs"] == {"round": 1, "minus": {"A": 0, "B": 0, "C": 0},
                                            "lost": {"A": 0, "B": 0, "C": 0}}  # fmt: skip
    assert "bockramsch_pending" not in plain and "bierlachs" not in plain["totals"]
    page = client.get(f"/sheets/{sheet['id']}").get_data(as_text=True)
    for named in ("Schieberamsch", "Ramsch-Verlust höchstens 250",
                  "jeder schreibt seine Augen minus", "Bockramsch: nach jeder Bockrunde",
                  "Bierlachs bis 301", "Einsatz: 50 Cent je Bierlachs", "verlorener Grand Hand",
                  "Re gesagt", "Alleinspieler Schneider"):  # fmt: skip
        assert named in page, named


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"schieberamsch": "ja"}, "rules.schieberamsch"),
        ({"ramsch_cap": 0}, "rules.ramsch_cap"),
        ({"ramsch_cap": "250"}, "rules.ramsch_cap"),
        ({"ramsch_loser": "least"}, "rules.ramsch_loser"),
        ({"bockramsch": 1}, "rules.bockramsch"),
        ({"bierlachs": -301}, "rules.bierlachs"),
        ({"bock": ["schneider-won"]}, "rules.bock"),
    ],
)  # fmt: skip
def test_bad_new_rules_are_refused_by_field(
    client: FlaskClient, rules: dict[str, Any], field: str
) -> None:
    r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"], "rules": rules})
    assert r.status_code == 422 and list(r.get_json()["errors"]) == [field]


def test_pushes_double_the_ramsch_and_need_the_rule(client: FlaskClient) -> None:
    s = create(client, ramsch=True, schieberamsch=True, ramsch_cap=250)
    pts = {"A": 103, "B": 17, "C": 0}
    sheet = add(client, s["id"], ramsch(pts, jungfrau=["C"], pushes=1))
    deal = sheet["deals"][0]
    assert deal["list"] == {"A": -250, "B": 0, "C": 0}  # −412 capped
    assert deal["deltas"] == {"A": -500, "B": 250, "C": 250}
    assert deal["input"]["ramsch"]["pushes"] == 1
    assert any("1× geschoben" in line for line in deal["explanation"])
    assert add(client, s["id"], ramsch(pts, pushes=4), 422)["errors"] == {
        "ramsch.pushes": ["Geschoben: 0 bis 3 Mal."]}  # fmt: skip
    plain = create(client, ramsch=True)
    err = add(client, plain["id"], ramsch(pts, pushes=2), 422)["errors"]
    assert err == {"ramsch.pushes": ["Schieberamsch ist an diesem Tisch nicht vereinbart."]}
    assert add(client, plain["id"], ramsch(pts, pushes=0))["deals"][0]["list"]["A"] == -103


def test_ramsch_cap_and_loser_each_through_the_api(client: FlaskClient) -> None:
    s = create(client, "ABCD", ramsch=True, ramsch_loser="each", ramsch_cap=50)
    # A deals and sits out: B, C, D play
    sheet = add(client, s["id"], ramsch({"B": 60, "C": 40, "D": 20}))
    assert sheet["deals"][0]["list"] == {"A": 0, "B": -50, "C": -40, "D": -20}
    assert sheet["deals"][0]["party"] == ["B", "C", "D"]
    assert sum(sheet["deals"][0]["deltas"].values()) == 0
    csv_text = client.get(f"{API}/{s['id']}/export.csv").data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(csv_text), delimiter=";"))
    assert any("Ramsch: B, C, D verlieren" in cell for row in rows for cell in row)


def test_the_three_new_triggers_through_the_api(client: FlaskClient) -> None:
    s = create(client, kontra_re=True, bock=["schneider-lost", "grand-hand-lost", "re"])
    sid = s["id"]
    sheet = add(client, sid, {**CLUBS, "declarer_points": 25, "declarer": "B"})
    assert sheet["deals"][-1]["bock_trigger"] == ["schneider-lost"]
    assert sheet["bock_pending"] == 3
    sheet = add(client, sid, {"game": "grand", "matadors": 1, "with": True, "hand": True,
                              "declarer_points": 50, "declarer": "C"})  # fmt: skip
    assert sheet["deals"][-1]["bock"] and sheet["deals"][-1]["bock_trigger"] == ["grand-hand-lost"]
    sheet = add(client, sid, {**CLUBS, "declarer_points": 70, "kontra": True, "re": True,
                              "declarer": "A"})  # fmt: skip
    assert sheet["deals"][-1]["bock_trigger"] == ["re"]
    assert sheet["bock_pending"] == 3 - 2 + 3 + 3


def test_bockramsch_round_through_the_api(client: FlaskClient) -> None:
    s = create(client, bock=["60-60"], bockramsch=True)  # no Ramsch otherwise
    sid = s["id"]
    add(client, sid, {**CLUBS, "declarer_points": 60, "declarer": "B"})  # A deals: 60:60
    err = add(client, sid, ramsch({"C": 60, "A": 40, "B": 20}), 422)["errors"]
    assert err == {"ramsch": ["Ramsch ist an diesem Tisch nicht vereinbart."]}
    for declarer in ("C", "A", "B"):  # the Bock round
        sheet = add(client, sid, {**CLUBS, "declarer_points": 70, "declarer": declarer})
    assert [d["bock"] for d in sheet["deals"]] == [False, True, True, True]
    assert sheet["next_bockramsch"] is True and sheet["bockramsch_pending"] == 3
    # deal 5, B deals: C, A, B play
    err = add(client, sid, {**CLUBS, "declarer_points": 70, "declarer": "C"}, 422)["errors"]
    assert err == {"game": ["In der Bockramsch-Runde wird Ramsch gespielt, oder ein Grand Hand."]}
    r = client.post(f"{API}/{sid}/deals", json={"passed": True},
                    headers={"Accept-Language": "en"})  # fmt: skip
    assert r.status_code == 422
    assert r.get_json()["errors"] == {
        "passed": ["A Bockramsch round plays Ramsch, or a Grand Hand."]
    }
    sheet = add(client, sid, ramsch({"C": 60, "A": 40, "B": 20}))
    deal = sheet["deals"][-1]
    assert deal["bockramsch"] is True and deal["bock"] is False
    assert deal["list"]["C"] == -60 and "bockramsch" not in sheet["deals"][0]
    sheet = add(client, sid, {"game": "grand", "matadors": 1, "with": True, "hand": True,
                              "declarer_points": 70, "declarer": "A"})  # fmt: skip
    assert sheet["deals"][-1]["bockramsch"] and sheet["deals"][-1]["list"]["A"] == 72
    sheet = add(client, sid, ramsch({"A": 60, "B": 40, "C": 20}))
    assert sheet["next_bockramsch"] is False and sheet["bockramsch_pending"] == 0
    # the page offers the next round's deals as Ramsch first
    sheet = create(client, bock=["60-60"], bockramsch=True)
    add(client, sheet["id"], {**CLUBS, "declarer_points": 60, "declarer": "B"})
    for declarer in ("C", "A", "B"):
        add(client, sheet["id"], {**CLUBS, "declarer_points": 70, "declarer": declarer})
    page = client.get(f"/sheets/{sheet['id']}").get_data(as_text=True)
    assert '<input type="radio" name="kind" value="ramsch" checked>' in page
    assert "Bockramsch</span>" in page
    r = client.post(f"/sheets/{sheet['id']}/deals",
                    data={"kind": "ramsch", "r0": "40", "r1": "20", "r2": "60"})  # fmt: skip
    assert r.status_code in (302, 303)
    last = client.get(f"{API}/{sheet['id']}").get_json()["deals"][-1]
    assert last["bockramsch"] and last["list"] == {"A": 0, "B": 0, "C": -60}


def test_bierlachs_through_the_api(client: FlaskClient) -> None:
    s = create(client, bierlachs=96, stake_cents=100)
    sid = s["id"]
    add(client, sid, {"game": "grand", "matadors": 2, "with": True, "declarer_points": 70,
                      "declarer": "B"})  # fmt: skip
    sheet = add(client, sid, {**CLUBS, "declarer_points": 70, "declarer": "C"})
    assert sheet["deals"][1]["bierlachs"] == ["A"] and "bierlachs" not in sheet["deals"][0]
    t = sheet["totals"]
    assert t["bierlachs"] == {"round": 2, "minus": {"A": 0, "B": 0, "C": 0},
                              "lost": {"A": 1, "B": 0, "C": 0}}  # fmt: skip
    assert t["list"] == {"A": 0, "B": 72, "C": 24}  # the evening's list is unchanged
    assert sorted((x["from"], x["to"], x["cents"]) for x in t["settlement"]) == [
        ("A", "B", 100), ("A", "C", 100)]  # fmt: skip
    sheet = add(client, sid, {**CLUBS, "declarer_points": 50, "declarer": "A"})  # lost: A 48
    assert sheet["totals"]["bierlachs"]["minus"] == {"A": 48, "B": 0, "C": 0}
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    strip = page.split('id="standings"', 1)[1].split("</div>\n<p", 1)[0]
    assert 'Bierlachs </span>\u221248 · <span class="w">noch </span>48' in strip
    assert 'Bierlachs </span>0 · <span class="w">noch </span>96' in strip
    assert "Bierlachse (Runde 2)" in page
    assert "Bierlachs: A" in page  # the row where the round ended


def test_bierlachs_turned_off_mid_evening_keeps_the_page_and_the_rounds_lost(
    client: FlaskClient,
) -> None:
    s = create(client, bierlachs=96, stake_cents=100)
    sid = s["id"]
    add(client, sid, {"game": "grand", "matadors": 2, "with": True, "declarer_points": 70,
                      "declarer": "B"})  # fmt: skip
    add(client, sid, {**CLUBS, "declarer_points": 70, "declarer": "C"})  # A is Bierlachs
    r = client.patch(f"{API}/{sid}", json={"rules": {"bierlachs": None, "stake_cents": 100}})
    assert r.status_code == 200, r.get_json()
    sheet = add(client, sid, {**CLUBS, "declarer_points": 50, "declarer": "A"})
    assert sheet["rules"].get("bierlachs") is None
    assert sheet["totals"]["bierlachs"]["lost"] == {"A": 1, "B": 0, "C": 0}  # it stays lost
    page = client.get(f"/sheets/{sid}")
    assert page.status_code == 200
    strip = page.get_data(as_text=True).split('id="standings"', 1)[1].split("</div>\n<p", 1)[0]
    assert "Bierlachs </span>0</span>" in strip and "noch" not in strip  # no target any more


def test_json_export_import_keeps_every_new_rule(client: FlaskClient) -> None:
    rules = {"ramsch": True, "schieberamsch": True, "ramsch_cap": 250, "ramsch_loser": "each",
             "bockramsch": True, "bierlachs": 100, "stake_cents": 20, "kontra_re": True,
             "bock": ["60-60", "schneider-lost", "grand-hand-lost", "re"]}  # fmt: skip
    s = create(client, **rules)
    sid = s["id"]
    add(client, sid, {**CLUBS, "declarer_points": 60, "declarer": "B"})
    add(client, sid, ramsch({"C": 60, "A": 40, "B": 20}, pushes=2))
    add(client, sid, {**CLUBS, "declarer_points": 70, "declarer": "A", "kontra": True,
                      "re": True})  # fmt: skip
    first = client.get(f"{API}/{sid}/export.json")
    r = client.post(f"{API}/import", data=first.data, content_type="application/json")
    assert r.status_code == 201, r.get_json()
    again = client.get(f"{API}/{r.get_json()['id']}").get_json()
    before = first.get_json()
    assert again["rules"] == before["rules"] == {**rules}
    assert again["totals"] == before["totals"] and "bierlachs" in again["totals"]
    assert [d["list"] for d in again["deals"]] == [d["list"] for d in before["deals"]]
    assert again["bockramsch_pending"] == before["bockramsch_pending"]
    pdf = client.get(f"{API}/{sid}/export.pdf")
    text = " ".join(
        " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages).split()
    )
    assert "Schieberamsch" in text and "Bierlachs bis 100" in text and "Bierlachse" in text
    csv_text = client.get(f"{API}/{sid}/export.csv").data.decode("utf-8-sig")
    assert "Bierlachse (Runde 3)" in csv_text and "2× geschoben" in csv_text


def test_new_sheet_and_club_night_forms_take_the_new_rules(client: FlaskClient) -> None:
    page = client.get("/sheets").get_data(as_text=True)
    for name in ("schieberamsch", "ramsch_loser", "ramsch_cap", "bockramsch", "bierlachs"):
        assert f'name="{name}"' in page
    assert 'value="schneider-lost"' in page
    r = client.post("/sheets", data={"game": "skat", "p1": "A", "p2": "B", "p3": "C",
                                     "first_dealer": "1", "ramsch": "y", "schieberamsch": "y",
                                     "ramsch_loser": "each", "ramsch_cap": "250",
                                     "bockramsch": "y", "bierlachs": "301",
                                     "bock": ["re", "grand-hand-lost"]})  # fmt: skip
    assert r.status_code in (302, 303), r.get_data(as_text=True)
    sid = int(r.headers["Location"].rstrip("/").split("/")[-1])
    rules = client.get(f"{API}/{sid}").get_json()["rules"]
    assert rules == {"kontra_re": False, "schieberamsch": True, "ramsch_cap": 250,
                     "ramsch_loser": "each", "bockramsch": True, "bierlachs": 301,
                     "ramsch": True, "bock": ["re", "grand-hand-lost"], "stake_cents": 0}  # fmt: skip
    bad = client.post("/sheets", data={"game": "skat", "p1": "A", "p2": "B", "p3": "C",
                                       "first_dealer": "1", "ramsch_cap": "0"})  # fmt: skip
    assert bad.status_code == 422
    assert "Höchstens-Verlust im Ramsch" in bad.get_data(as_text=True)
    # a club night's tables get them too
    assert 'name="bierlachs"' in client.get("/events").get_data(as_text=True)
    r = client.post("/events", data={"name": "Freitag", "game": "skat", "deals4": "48",
                                     "deals3": "36", "entry": "5", "lost_fee": "0,50",
                                     "schieberamsch": "y", "ramsch": "y",
                                     "ramsch_cap": "200"})  # fmt: skip
    assert r.status_code == 302, r.get_data(as_text=True)
    event_id = int(r.headers["Location"].split("/")[2])
    event = client.get(f"/api/v1/events/{event_id}").get_json()
    assert event["rules"]["schieberamsch"] is True and event["rules"]["ramsch_cap"] == 200


def test_push_control_only_on_schieberamsch_sheets_and_it_saves(client: FlaskClient) -> None:
    plain = create(client, ramsch=True)
    assert 'name="pushes"' not in client.get(f"/sheets/{plain['id']}").get_data(as_text=True)
    s = create(client, ramsch=True, schieberamsch=True)
    page = client.get(f"/sheets/{s['id']}").get_data(as_text=True)
    block = page[page.index('id="f-pushes"') :]
    block = block[: block.index("</fieldset>")]
    assert re.findall(r'name="pushes" value="(\d)"', block) == ["0", "1", "2", "3"]
    assert '<input type="radio" name="pushes" value="0" checked>' in block
    r = client.post(f"/sheets/{s['id']}/deals",
                    data={"kind": "ramsch", "r0": "70", "r1": "50", "r2": "0", "jungfrau": "C",
                          "pushes": "2"})  # fmt: skip
    assert r.status_code in (302, 303)
    deal = client.get(f"{API}/{s['id']}").get_json()["deals"][0]
    assert deal["input"]["ramsch"]["pushes"] == 2
    assert deal["list"] == {"A": -560, "B": 0, "C": 0}  # 70 × Jungfrau × 2 pushes
    edit = client.get(f"/sheets/{s['id']}/deals/1/edit").get_data(as_text=True)
    assert '<input type="radio" name="pushes" value="2" checked>' in edit
    row = client.get(f"/sheets/{s['id']}").get_data(as_text=True)
    assert "2× geschoben" in row
    # without a push the body stays as before (no "pushes" key)
    client.post(f"/sheets/{s['id']}/deals",
                data={"kind": "ramsch", "r0": "70", "r1": "50", "r2": "0", "pushes": "0"})  # fmt: skip
    assert "pushes" not in client.get(f"{API}/{s['id']}").get_json()["deals"][1]["input"]["ramsch"]


def test_the_rules_page_turns_the_house_rules_of_real_tables_off(client: FlaskClient) -> None:
    # The page sends the rules whole and they merge into those in force: a rule the page
    # left out when off stayed on (found by doing a new rule in a throwaway clone).
    sheet = create(client, ramsch=True, schieberamsch=True, bockramsch=True, ramsch_cap=250,
                   bierlachs=500, ramsch_loser="each")  # fmt: skip
    r = client.post(f"/sheets/{sheet['id']}/rules", data={"ramsch": "y", "kontra_re": "y"})
    assert r.status_code in (302, 303)
    rules = client.get(f"{API}/{sheet['id']}").get_json()["rules"]
    assert rules == {"bock": [], "kontra_re": True, "ramsch": True, "stake_cents": 0}
    # and on again from the page, each as typed
    r = client.post(f"/sheets/{sheet['id']}/rules", data={
        "ramsch": "y", "schieberamsch": "y", "bockramsch": "y", "ramsch_cap": "300",
        "bierlachs": "700", "ramsch_loser": "each"})  # fmt: skip
    assert r.status_code in (302, 303)
    rules = client.get(f"{API}/{sheet['id']}").get_json()["rules"]
    assert {
        k: rules.get(k)
        for k in ("schieberamsch", "bockramsch", "ramsch_cap", "bierlachs", "ramsch_loser")
    } == {  # fmt: skip
        "schieberamsch": True,
        "bockramsch": True,
        "ramsch_cap": 300,
        "bierlachs": 700,
        "ramsch_loser": "each",
    }
