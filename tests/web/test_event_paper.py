"""Paper lists typed at the desk (docs/rules.md 1.12, docs/api.md "Paper lists"), penalty
points, and the registration's member number and club."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from skatcalc.rules.common import InvalidDeal
from skatcalc.rules.events import Foot, FootLine, foot_scores, read_foot

API = "/api/v1"
DATA = json.loads((Path(__file__).parent.parent / "data" / "preisskat_13_paper.json").read_text())


def _open(client: FlaskClient, body: dict[str, Any]) -> int:
    r = client.post(f"{API}/events", json=body)
    assert r.status_code == 201, r.json
    client.get(f"/events/{r.json['id']}/edit/{r.json['edit_token']}")
    return int(r.json["id"])


def _preisskat(client: FlaskClient, paper: bool) -> tuple[int, list[dict[str, Any]]]:
    """The 13-player Preisskat of tests/data: every table by phone, or the paper tables'
    feet typed at the desk."""
    event_id = _open(client, DATA["event"])
    r = client.post(f"{API}/events/{event_id}/players", json={"names": DATA["players"]})
    assert r.status_code == 200, r.json
    r = client.post(
        f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": DATA["seed"]}
    )
    assert r.status_code == 201, r.json
    seated = r.json["tables"]
    assert [t["players"] for t in seated] == [t["players"] for t in DATA["tables"]]
    for t, plan in zip(seated, DATA["tables"], strict=True):
        if paper and plan["paper"]:
            r = client.put(f"{API}/events/{event_id}/series/1/tables/{t['table']}/foot",
                           json=plan["foot"])  # fmt: skip
            assert r.status_code == 200, r.json
            continue
        for declarer, key in plan["deals"]:
            deal = (
                {"passed": True}
                if key == "passed"
                else {"declarer": declarer, **DATA["games"][key]}
            )
            r = client.post(f"{API}/sheets/{t['sheet']}/deals", json=deal)
            assert r.status_code == 201, r.json
    for pen in DATA["penalties"]:
        r = client.post(f"{API}/events/{event_id}/penalties", json=pen)
        assert r.status_code == 201, r.json
    return event_id, seated


def _closed_or_not(value: Any) -> Any:
    """The answer with each ``closed`` time as whether it is closed: two events closed one
    after the other may fall on two seconds, and the time is no figure of the tournament."""
    if isinstance(value, dict):
        return {
            k: (v is not None if k == "closed" else _closed_or_not(v)) for k, v in value.items()
        }
    if isinstance(value, list):
        return [_closed_or_not(v) for v in value]
    return value


def _figures(client: FlaskClient, event_id: int) -> dict[str, Any]:
    ranking = client.get(f"{API}/events/{event_id}/ranking").json
    fees = client.get(f"{API}/events/{event_id}/fees").json
    prizes = client.get(f"{API}/events/{event_id}/prizes").json
    text = client.get(f"/events/{event_id}/ranking.csv").data.decode("utf-8-sig")
    answers = {"ranking": ranking, "fees": fees, "prizes": prizes}
    return {**_closed_or_not(answers), "csv": text}


def test_the_13_player_preisskat_on_paper_gives_the_phones_figures(client: FlaskClient) -> None:
    phone, _ = _preisskat(client, paper=False)
    paper, seated = _preisskat(client, paper=True)
    by_phone, on_paper = _figures(client, phone), _figures(client, paper)
    assert on_paper == by_phone
    rows = on_paper["ranking"]["rows"]
    assert {r["player"]: r["score"] for r in rows} == DATA["scores"]
    assert [r["player"] for r in rows][:3] == ["Anna", "Dieter", "Jens"]
    assert next(r for r in rows if r["player"] == "Karl")["penalty"] == 10
    # lost-game money by the tiers from the feet's "lost": one lost game costs 50 cents
    assert next(r for r in rows if r["player"] == "Emil")["fees_cents"] == 1050
    assert on_paper["prizes"]["rows"][0]["cents"] == by_phone["prizes"]["rows"][0]["cents"] > 0
    # the figures stay the same when both events close
    for event_id in (phone, paper):
        assert client.post(f"{API}/events/{event_id}/close", json={}).status_code == 200
    assert _figures(client, paper) == _figures(client, phone)
    event = client.get(f"{API}/events/{paper}").json
    tables = event["series"][0]["tables"]
    assert [t["played"] for t in tables] == [8, 6, 6, 6]
    assert all(t["complete"] for t in tables)


def test_a_paper_table_takes_no_deals_and_a_phone_table_no_foot(client: FlaskClient) -> None:
    event_id, seated = _preisskat(client, paper=True)
    paper, phone = seated[0], seated[3]
    r = client.post(f"{API}/sheets/{paper['sheet']}/deals", json={"passed": True})
    assert r.status_code == 409
    assert "Papier" in r.json["errors"]["_"][0]
    r = client.put(f"{API}/events/{event_id}/series/1/tables/4/foot", json={
        "players": {p: {"points": 0, "won": 0, "lost": 0} for p in phone["players"]},
        "passed": 6})  # fmt: skip
    assert r.status_code == 409
    assert r.json["table"]["played"] == 6
    assert "paper" not in client.get(f"{API}/events/{event_id}/series/1/tables/4").json


def test_the_foot_answers_each_players_score(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    t = client.get(f"{API}/events/{event_id}/series/1/tables/1").json
    assert t["paper"] is True
    assert t["foot"]["players"]["Anna"] == {"points": 102, "won": 3, "lost": 0, "score": 312}
    assert t["foot"]["passed"] == 1
    assert (t["played"], t["left"], t["complete"]) == (8, 0, True)


def test_a_foot_can_be_corrected_until_the_event_closes(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    foot = json.loads(json.dumps(DATA["tables"][1]["foot"]))
    foot["players"]["Heinz"]["points"] = 60
    url = f"{API}/events/{event_id}/series/1/tables/2/foot"
    r = client.put(url, json=foot)
    assert r.status_code == 200
    assert r.json["foot"]["players"]["Heinz"]["score"] == 150
    ranking = client.get(f"{API}/events/{event_id}/ranking").json["rows"]
    assert next(x for x in ranking if x["player"] == "Heinz")["score"] == 150
    history = client.get(f"{API}/events/{event_id}").json["history"]
    assert [h["action"] for h in history if h["action"].startswith("foot")] == [
        "foot", "foot", "foot", "foot-corrected"]  # fmt: skip
    last = history[-1]
    assert last["table"] == 2 and last["players"]["Heinz"]["points"] == 60
    client.post(f"{API}/events/{event_id}/close", json={})
    r = client.put(url, json=DATA["tables"][1]["foot"])
    assert r.status_code == 409
    ranking = client.get(f"{API}/events/{event_id}/ranking").json["rows"]
    assert next(x for x in ranking if x["player"] == "Heinz")["score"] == 150


@pytest.mark.parametrize(
    ("change", "field", "text"),
    [
        (lambda f: f.update(passed=0), "passed", "Die Liste hat 5 Spiele, die Serie 6."),
        (lambda f: f.update(passed=7), "passed", "Erlaubt: 0 bis 6."),
        (lambda f: f["players"].pop("Mia"), "players", "Es fehlt: Mia."),
        (
            lambda f: f["players"].update(Otto={"points": 0, "won": 0, "lost": 0}),
            "players",
            "Otto sitzt nicht an diesem Tisch.",
        ),
        (
            lambda f: f["players"]["Mia"].update(points=100_001),
            "players.Mia.points",
            "Erlaubt: −100000 bis 100000.",
        ),
        (
            lambda f: f["players"]["Mia"].update(won="1"),
            "players.Mia.won",
            "Erwartet: eine ganze Zahl.",
        ),
        (lambda f: f["players"]["Mia"].update(lost=-1), "players.Mia.lost", "Erlaubt: 0 bis 6."),
        (lambda f: f["players"]["Mia"].pop("won"), "players.Mia.won", "Dieses Feld fehlt."),
        (lambda f: f.update(sum=1), "sum", "Unbekanntes Feld."),
        (
            lambda f: f.update(players=[]),
            "players",
            "Erwartet: ein Objekt mit einem Eintrag je Spieler am Tisch.",
        ),
    ],
)
def test_a_foot_that_does_not_check_is_refused_and_nothing_changes(
    client: FlaskClient, change: Any, field: str, text: str
) -> None:
    event_id, _ = _preisskat(client, paper=True)
    before = client.get(f"{API}/events/{event_id}/ranking").json
    foot = json.loads(json.dumps(DATA["tables"][1]["foot"]))
    change(foot)
    r = client.put(f"{API}/events/{event_id}/series/1/tables/2/foot", json=foot)
    assert r.status_code == 422, r.json
    assert text in r.json["errors"][field]
    assert client.get(f"{API}/events/{event_id}/ranking").json == before


def test_names_in_a_foot_match_as_typed_names_do(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    foot = {"players": {" heinz ": {"points": 30, "won": 1, "lost": 0},
                        "FRIEDA": {"points": 72, "won": 2, "lost": 0},
                        "mia": {"points": 0, "won": 1, "lost": 1}}, "passed": 1}  # fmt: skip
    r = client.put(f"{API}/events/{event_id}/series/1/tables/2/foot", json=foot)
    assert r.status_code == 200, r.json
    assert set(r.json["foot"]["players"]) == {"Heinz", "Frieda", "Mia"}


def test_only_the_organiser_types_a_foot(lan_app: Flask) -> None:
    organiser = lan_app.test_client()
    event_id = _open(organiser, DATA["event"])
    organiser.post(f"{API}/events/{event_id}/players", json={"names": DATA["players"]})
    organiser.post(
        f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": DATA["seed"]}
    )
    other = lan_app.test_client()
    r = other.put(f"{API}/events/{event_id}/series/1/tables/1/foot", json=DATA["tables"][0]["foot"])
    assert r.status_code == 403
    r = other.post(f"{API}/events/{event_id}/penalties", json=DATA["penalties"][0])
    assert r.status_code == 403
    r = organiser.put(f"{API}/events/{event_id}/series/1/tables/1/foot",
                      json=DATA["tables"][0]["foot"])  # fmt: skip
    assert r.status_code == 200


def test_a_foot_of_an_unknown_table_is_not_found(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=False)
    r = client.put(
        f"{API}/events/{event_id}/series/2/tables/1/foot", json=DATA["tables"][0]["foot"]
    )
    assert r.status_code == 404


def test_a_schafkopf_table_keeps_no_foot(client: FlaskClient) -> None:
    event_id = _open(client, {"game": "schafkopf", "deals": {"4": 4}})
    client.post(f"{API}/events/{event_id}/players", json={"names": ["A", "B", "C", "D"]})
    client.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": 1})
    r = client.put(
        f"{API}/events/{event_id}/series/1/tables/1/foot",
        json={"players": {p: {"points": 0, "won": 0, "lost": 0} for p in "ABCD"}, "passed": 4},
    )
    assert r.status_code == 422
    assert "nur für Skat" in r.json["errors"]["_"][0]


# --- The foot's law ------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.integers(3, 4), st.data())
def test_a_foots_scores_are_seeger_fabian_by_the_rule_book(size: int, data: Any) -> None:
    """docs/rules.md 1.12: Summe + 50 × won − 50 × lost + 40 (three) / 30 (four) per game
    another player lost; and a foot read back from its JSON is the same foot."""
    names = [f"P{i}" for i in range(size)]
    lines = {p: FootLine(data.draw(st.integers(-100_000, 100_000)), data.draw(st.integers(0, 20)),
                         data.draw(st.integers(0, 20))) for p in names}  # fmt: skip
    passed = data.draw(st.integers(0, 10))
    foot = Foot(lines, passed)
    scores = foot_scores("skat", foot)
    bonus = 40 if size == 3 else 30
    for p, f in lines.items():
        others = sum(g.lost for q, g in lines.items() if q != p)
        assert scores[p] == f.points + 50 * f.won - 50 * f.lost + bonus * others
    deals = sum(f.won + f.lost for f in lines.values()) + passed
    assert read_foot(foot.to_json(), names, deals) == foot
    if deals > 0:
        with pytest.raises(InvalidDeal):
            read_foot(foot.to_json(), names, deals + 1)


# --- Penalty points ------------------------------------------------------------------------------


def test_a_penalty_drops_the_series_score_and_can_be_taken_back(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    r = client.post(f"{API}/events/{event_id}/penalties",
                    json={"player": "anna", "series": 1, "points": 100, "reason": "zu spät"})  # fmt: skip
    assert r.status_code == 201
    assert (r.json["player"], r.json["points"], r.json["reason"]) == ("Anna", 100, "zu spät")
    rows = client.get(f"{API}/events/{event_id}/ranking").json["rows"]
    anna = next(x for x in rows if x["player"] == "Anna")
    assert (anna["score"], anna["series"], anna["penalty"]) == (212, [212], 100)
    assert rows[0]["player"] == "Dieter"
    listed = client.get(f"{API}/events/{event_id}/penalties").json["penalties"]
    assert [p["player"] for p in listed] == ["Karl", "Anna"]
    r = client.delete(f"{API}/events/{event_id}/penalties/{listed[1]['id']}", json={})
    assert r.status_code == 200
    rows = client.get(f"{API}/events/{event_id}/ranking").json["rows"]
    assert rows[0]["player"] == "Anna" and rows[0]["score"] == 312
    assert client.delete(f"{API}/events/{event_id}/penalties/{listed[1]['id']}",
                         json={}).status_code == 404  # fmt: skip
    actions = [h["action"] for h in client.get(f"{API}/events/{event_id}").json["history"]]
    assert actions.count("penalty") == 2 and actions.count("penalty-taken-back") == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"player": "Anna", "series": 1, "points": 0, "reason": "x"}, "points"),
        ({"player": "Anna", "series": 1, "points": 1001, "reason": "x"}, "points"),
        ({"player": "Anna", "series": 1, "points": "5", "reason": "x"}, "points"),
        ({"player": "Anna", "series": 1, "points": 5, "reason": " "}, "reason"),
        ({"player": "Anna", "series": 1, "points": 5}, "reason"),
        ({"player": "Otto", "series": 1, "points": 5, "reason": "x"}, "player"),
        ({"player": "Anna", "series": 2, "points": 5, "reason": "x"}, "series"),
        ({"player": 7, "series": 1, "points": 5, "reason": "x"}, "player"),
        ({"player": "Anna", "series": 1, "points": 5, "reason": "x", "at": 1}, "at"),
    ],
)
def test_a_wrong_penalty_is_refused(client: FlaskClient, body: dict[str, Any], field: str) -> None:
    event_id, _ = _preisskat(client, paper=True)
    r = client.post(f"{API}/events/{event_id}/penalties", json=body)
    assert r.status_code == 422, r.json
    assert field in r.json["errors"]
    assert len(client.get(f"{API}/events/{event_id}/penalties").json["penalties"]) == 1


def test_a_closed_event_takes_no_penalty(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    client.post(f"{API}/events/{event_id}/close", json={})
    r = client.post(f"{API}/events/{event_id}/penalties", json=DATA["penalties"][0])
    assert r.status_code == 409
    pid = client.get(f"{API}/events/{event_id}/penalties").json["penalties"][0]["id"]
    assert client.delete(f"{API}/events/{event_id}/penalties/{pid}", json={}).status_code == 409


# --- The desk's page -----------------------------------------------------------------------------


def _seated(client: FlaskClient) -> int:
    event_id = _open(client, DATA["event"])
    client.post(f"{API}/events/{event_id}/players", json={"names": DATA["players"]})
    client.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": DATA["seed"]})
    return event_id


def _form(foot: dict[str, Any], players: list[str]) -> dict[str, str]:
    form = {"passed": str(foot["passed"])}
    for i, p in enumerate(players):
        for c in ("points", "won", "lost"):
            form[f"p{i}_{c}"] = str(foot["players"][p][c])
    return form


def test_the_desk_page_types_a_foot_as_the_api_does(client: FlaskClient) -> None:
    event_id = _seated(client)
    page = client.get(f"/events/{event_id}/series/1/paper").get_data(as_text=True)
    assert page.count('<form method="post"') == 4
    assert 'name="p0_points"' in page and "autofocus" in page
    plan = DATA["tables"][0]
    form = _form(plan["foot"], plan["players"])
    form["p3_points"] = "−96"  # a typed minus sign reads as minus
    r = client.post(f"/events/{event_id}/series/1/paper/1", data=form)
    assert r.status_code == 302
    assert r.headers["Location"].endswith("/paper?next=2")
    t = client.get(f"{API}/events/{event_id}/series/1/tables/1").json
    assert t["foot"]["players"]["Anna"]["score"] == 312
    assert t["foot"]["players"]["Emil"]["points"] == -96
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Tisch 1 gespeichert." in page
    # the focus is on table 2's first field now
    second = page[page.index('id="paper-2"') : page.index('id="paper-3"')]
    assert "autofocus" in second
    assert "312" in page[page.index('id="paper-1"') : page.index('id="paper-2"')]


def test_blank_counts_are_0_on_the_page_but_a_blank_summe_is_missing(client: FlaskClient) -> None:
    event_id = _seated(client)
    form = {"p0_points": "30", "p0_won": "1", "p1_points": "72", "p1_won": "2",
            "p2_points": "", "p2_won": "1", "p2_lost": "1", "passed": "1"}  # fmt: skip
    r = client.post(f"/events/{event_id}/series/1/paper/2", data=form)
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert 'id="e-2-p2_points">Dieses Feld fehlt.' in page
    assert 'value="72"' in page  # the typed figures come back
    assert "paper" not in client.get(f"{API}/events/{event_id}/series/1/tables/2").json
    form["p2_points"] = "0"
    assert client.post(f"/events/{event_id}/series/1/paper/2", data=form).status_code == 302
    assert client.get(f"{API}/events/{event_id}/series/1/tables/2").json["paper"] is True


def test_the_page_shows_the_check_sum_beside_passed(client: FlaskClient) -> None:
    event_id = _seated(client)
    plan = DATA["tables"][1]
    form = _form(plan["foot"], plan["players"]) | {"passed": "0"}
    r = client.post(f"/events/{event_id}/series/1/paper/2", data=form)
    assert r.status_code == 422
    assert 'id="e-2-passed">Die Liste hat 5 Spiele, die Serie 6.' in r.get_data(as_text=True)


def test_the_preview_gives_the_servers_scores_as_typed(client: FlaskClient) -> None:
    event_id = _seated(client)
    plan = DATA["tables"][0]
    form = _form(plan["foot"], plan["players"])
    r = client.post(f"/events/{event_id}/series/1/paper/1/preview", data=form)
    assert r.json == {"scores": {"0": "−68", "1": "232", "2": "312", "3": "−116"},
                      "check": "8 von 8 Spielen", "ok": True, "errors": {}}  # fmt: skip
    r = client.post(f"/events/{event_id}/series/1/paper/1/preview", data=form | {"passed": "0"})
    assert r.json["ok"] is False and r.json["check"] == "7 von 8 Spielen"
    assert r.json["scores"]["2"] == "312"
    r = client.post(f"/events/{event_id}/series/1/paper/1/preview", data=form | {"p0_won": "x"})
    assert r.json["scores"] == {} and "p0_won" in r.json["errors"]
    assert "paper" not in client.get(f"{API}/events/{event_id}/series/1/tables/1").json


def test_the_desk_page_is_the_organisers(lan_app: Flask) -> None:
    organiser = lan_app.test_client()
    event_id = _seated(organiser)
    other = lan_app.test_client()
    assert other.get(f"/events/{event_id}/series/1/paper").status_code == 403
    plan = DATA["tables"][1]
    r = other.post(
        f"/events/{event_id}/series/1/paper/2", data=_form(plan["foot"], plan["players"])
    )
    assert r.status_code == 403
    assert organiser.get(f"/events/{event_id}/series/9/paper").status_code == 404
    assert organiser.post(f"/events/{event_id}/series/1/paper/9", data={}).status_code == 404


def test_the_desk_page_needs_its_csrf_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    event_id = _seated(client)
    plan = DATA["tables"][1]
    r = client.post(
        f"/events/{event_id}/series/1/paper/2", data=_form(plan["foot"], plan["players"])
    )
    assert r.status_code == 400
    assert "paper" not in client.get(f"{API}/events/{event_id}/series/1/tables/2").json


# --- The files and the association's report ------------------------------------------------------


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text), delimiter=";"))


def test_the_csv_carries_penalty_member_no_and_club(client: FlaskClient) -> None:
    event_id = _open(client, DATA["event"])
    r = client.post(f"{API}/events/{event_id}/players", json={"names": [
        {"name": "Anna", "member_no": " 4711 ", "club": "Skatfreunde  Kiel"},
        {"name": "Bernd", "club": "=cmd"}, "Carla"]})  # fmt: skip
    assert r.status_code == 200, r.json
    regs = {x["name"]: x for x in r.json["registrations"]}
    assert (regs["Anna"]["member_no"], regs["Anna"]["club"]) == ("4711", "Skatfreunde Kiel")
    assert "member_no" not in regs["Carla"] and "club" not in regs["Carla"]
    client.post(f"{API}/events/{event_id}/series", json={"seating": "draw", "seed": 1})
    client.post(f"{API}/events/{event_id}/penalties",
                json={"player": "Anna", "series": 1, "points": 25, "reason": "zu spät"})  # fmt: skip
    rows = _rows(client.get(f"/events/{event_id}/ranking.csv").data.decode("utf-8-sig"))
    assert rows[0][-3:] == ["Strafpunkte", "Mitgliedsnummer", "Verein"]
    by_name = {r[1]: r for r in rows[1:]}
    assert by_name["Anna"][-3:] == ["25", "4711", "Skatfreunde Kiel"]
    assert by_name["Anna"][2] == "-25"
    assert by_name["Bernd"][-3:] == ["0", "", "'=cmd"]
    en = client.get(f"/events/{event_id}/ranking.csv?lang=en", headers={"Accept-Language": "en"})
    assert en.status_code == 200


@pytest.mark.parametrize(
    ("item", "field"),
    [
        ({"name": "Anna", "member_no": 4711}, "names.member_no"),
        ({"name": "Anna", "member_no": "1" * 21}, "names.member_no"),
        ({"name": "Anna", "club": "K" * 61}, "names.club"),
        ({"name": "Anna", "club": "Kiel\x00"}, "names.club"),
    ],
)
def test_a_wrong_member_no_or_club_is_refused(
    client: FlaskClient, item: dict[str, Any], field: str
) -> None:
    event_id = _open(client, DATA["event"])
    r = client.post(f"{API}/events/{event_id}/players", json={"names": [item]})
    assert r.status_code == 422
    assert field in r.json["errors"]
    assert client.get(f"{API}/events/{event_id}").json["players"] == []


def test_the_event_pdf_shows_penalties_and_the_paper_lists(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    data = client.get(f"/events/{event_id}/event.pdf").data
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    assert "Strafpunkte" in text and "Karl, Serie 1: −10 (Handy am Tisch)" in text
    assert "Serie 1, Tisch 2: Papierliste" in text
    assert "Frieda" in text and "212" in text


# --- The desk's money ----------------------------------------------------------------------------


def test_the_entry_fee_is_ticked_at_registration(client: FlaskClient) -> None:
    event_id = _open(client, DATA["event"])
    r = client.post(f"{API}/events/{event_id}/players",
                    json={"names": [{"name": "Anna", "paid": True}, "Bernd"]})  # fmt: skip
    assert r.status_code == 200, r.json
    cash = {c["player"]: c for c in client.get(f"{API}/events/{event_id}/fees").json["players"]}
    assert cash["Anna"]["items"][0] == {"series": 0, "due_cents": 1000, "paid": True,
                                        "collected_cents": 1000}  # fmt: skip
    assert cash["Bernd"]["items"][0]["paid"] is False
    history = client.get(f"{API}/events/{event_id}").json["history"]
    # the registration and its paid tick are both in the history (who and when with each)
    paid = {"action": "paid", "player": "Anna", "series": 0, "cents": 1000}
    assert [h for h in history if paid.items() <= h.items()]
    assert history[-1]["action"] == "register" and history[-1]["names"] == ["Anna", "Bernd"]
    r = client.post(f"{API}/events/{event_id}/players", json={"names": [{"name": "C", "paid": 1}]})
    assert r.status_code == 422 and "names.paid" in r.json["errors"]
    # the registration page: a checkbox ticks the fee of every name registered with it
    r = client.post(f"/events/{event_id}/players", data={"names": "Carla, Dieter", "paid": "y"})
    assert r.status_code == 302
    cash = {c["player"]: c for c in client.get(f"{API}/events/{event_id}/fees").json["players"]}
    assert cash["Carla"]["items"][0]["paid"] and cash["Dieter"]["items"][0]["paid"]
    page = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert "✓ Startgeld 10,00 €" in page and "Startgeld bezahlt" in page
    # a tick on the registration list leads back to it
    r = client.post(f"/events/{event_id}/paid/0", data={"player": "Bernd", "paid": "1",
                                                        "back": "players"})  # fmt: skip
    assert r.headers["Location"].endswith(f"/events/{event_id}/players#regs")


def test_the_close_page_shows_the_lost_game_money_per_table(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    page = client.get(f"/events/{event_id}/close").get_data(as_text=True)
    section = page[page.index('id="tablemoney"') :]
    section = section[: section.index("</section>")]
    # table 1 on paper: Gabi and Emil lost one game each (50 cents), table 4 by phone: Bernd
    assert "Gabi 1× 0,50 €" in section and "Emil 1× 0,50 €" in section
    assert "Bernd 1× 0,50 €" in section
    assert section.count("<tr>") == 5  # the head and four tables


def test_the_table_cards_show_the_lost_game_money_once_played(client: FlaskClient) -> None:
    event_id = _seated(client)
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(
        client.get(f"/events/{event_id}/series/1/cards.pdf").data)).pages)  # fmt: skip
    assert "einsammeln" not in text  # printed before the first game: nothing to collect yet
    client.put(f"{API}/events/{event_id}/series/1/tables/1/foot", json=DATA["tables"][0]["foot"])
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(
        client.get(f"/events/{event_id}/series/1/cards.pdf").data)).pages)  # fmt: skip
    assert text.count("Verlorene Spiele einsammeln") == 1
    assert "Verlorene Spiele einsammeln: 1,00 €" in text  # Gabi and Emil, 0,50 € each


def test_a_closed_events_desk_page_shows_the_feet_and_takes_none(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    client.post(f"{API}/events/{event_id}/close", json={})
    page = client.get(f"/events/{event_id}/series/1/paper").get_data(as_text=True)
    assert '<form method="post"' not in page and "312" in page
    plan = DATA["tables"][1]
    form = _form(plan["foot"], plan["players"]) | {"p0_points": "60"}
    r = client.post(f"/events/{event_id}/series/1/paper/2", data=form)
    assert r.status_code == 302
    assert "abgeschlossen" in client.get(r.headers["Location"]).get_data(as_text=True)
    t = client.get(f"{API}/events/{event_id}/series/1/tables/2").json
    assert t["foot"]["players"]["Heinz"]["points"] == 30
    series = client.get(f"/events/{event_id}/series/1").get_data(as_text=True)
    assert "/series/1/paper" not in series


def test_penalties_from_the_close_page_and_on_the_ranking_page(client: FlaskClient) -> None:
    event_id, _ = _preisskat(client, paper=True)
    page = client.get(f"/events/{event_id}/close").get_data(as_text=True)
    assert "Karl, Serie 1: −10 (Handy am Tisch)" in page
    r = client.post(f"/events/{event_id}/penalties",
                    data={"player": "Anna", "series": "1", "points": "12", "reason": "laut"})  # fmt: skip
    assert r.status_code == 302 and r.headers["Location"].endswith("#penalties")
    rows = client.get(f"{API}/events/{event_id}/ranking").json["rows"]
    assert next(x for x in rows if x["player"] == "Anna")["score"] == 300
    ranking = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert "Strafpunkte −12" in ranking and "Strafpunkte −10" in ranking
    r = client.post(f"/events/{event_id}/penalties",
                    data={"player": "Anna", "series": "1", "points": "abc", "reason": ""})  # fmt: skip
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Erwartet: eine ganze Zahl." in page and "Bitte den Grund angeben." in page
    pid = client.get(f"{API}/events/{event_id}/penalties").json["penalties"][-1]["id"]
    r = client.post(f"/events/{event_id}/penalties/{pid}/delete")
    assert "Strafpunkte zurückgenommen." in client.get(r.headers["Location"]).get_data(as_text=True)
    rows = client.get(f"{API}/events/{event_id}/ranking").json["rows"]
    assert next(x for x in rows if x["player"] == "Anna")["score"] == 312
    assert client.post(f"/events/{event_id}/penalties/999/delete").status_code == 404


def test_a_struck_deal_does_not_hold_a_foot_back_nor_come_back_after_it(
    client: FlaskClient,
) -> None:
    event_id = _seated(client)
    sheet = client.get(f"{API}/events/{event_id}/series/1/tables/2").json["sheet"]
    assert client.post(f"{API}/sheets/{sheet}/deals", json={"passed": True}).status_code == 201
    assert client.delete(f"{API}/sheets/{sheet}/deals/1").status_code == 200
    r = client.put(
        f"{API}/events/{event_id}/series/1/tables/2/foot", json=DATA["tables"][1]["foot"]
    )
    assert r.status_code == 200, r.json
    r = client.post(f"{API}/sheets/{sheet}/deals/1/restore", json={})
    assert r.status_code == 409
    assert client.get(f"{API}/sheets/{sheet}").json["deals"][0]["struck"] is True


def test_member_number_and_club_are_typed_on_the_registration_page(client: FlaskClient) -> None:
    """The registration page takes what the API takes: a member number for one name, a club
    for every name typed; both show in the list and in the ranking CSV."""
    event_id = _open(client, {"game": "skat"})
    r = client.post(f"/events/{event_id}/players",
                    data={"names": "Anna", "member_no": " 4711 ", "club": "Skatfreunde  Au"})  # fmt: skip
    assert r.status_code == 302
    r = client.post(f"/events/{event_id}/players", data={"names": "Bernd, Clara", "club": "Kreuz"})
    assert r.status_code == 302
    regs = {x["name"]: x for x in client.get(f"{API}/events/{event_id}").json["registrations"]}
    assert (regs["Anna"].get("member_no"), regs["Anna"].get("club")) == ("4711", "Skatfreunde Au")
    assert "member_no" not in regs["Bernd"] and regs["Clara"]["club"] == "Kreuz"
    page = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert "4711 · Skatfreunde Au" in page and "Mitgliedsnummer (optional)" in page
    # one member number for two names is told beside the field; nothing is registered and the
    # names stay as typed
    r = client.post(f"/events/{event_id}/players",
                    data={"names": "Dora, Emil", "member_no": "12"})  # fmt: skip
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "bitte einzeln anmelden" in page
    assert 'value="Dora, Emil"' in page
    r = client.post(f"/events/{event_id}/players", data={"names": "Dora", "club": "x" * 61})
    assert r.status_code == 422 and "Höchstens 60 Zeichen" in r.get_data(as_text=True)
    names = {x["name"] for x in client.get(f"{API}/events/{event_id}").json["registrations"]}
    assert names == {"Anna", "Bernd", "Clara"}
