"""The Schafkopf Ramsch tariff as a key of its own (docs/rules.md 2.5): default the Sauspiel
tariff; sheets stored before the key existed compute as before."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from skatcalc.games.schafkopf.values import schafkopf_ramsch
from skatcalc.rules.sheet import DealRecord, SheetSpec, compute_sheet, normalize_sheet
from skatcalc.serialize import computed_json

API = "/api/v1/sheets"
PLAYERS = ["A", "B", "C", "D"]
# A loses the Ramsch; D took no trick (Jungfrau) and receives double.
RAMSCH = {"game": "ramsch", "points": {"A": 60, "B": 40, "C": 20, "D": 0}, "jungfrau": ["D"]}


def create(client: FlaskClient, rules: dict[str, Any]) -> dict[str, Any]:
    r = client.post(API, json={"game": "schafkopf", "players": PLAYERS, "rules": rules})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


@pytest.mark.parametrize(
    ("tariffs", "stated", "a_pays"),
    [
        ({}, 10, 40),  # the Sauspiel tariff: 10 to B, 10 to C, 20 to the Jungfrau D
        ({"sauspiel": 15}, 15, 60),  # follows the Sauspiel tariff when not set
        ({"ramsch": 30}, 30, 120),  # its own tariff
        ({"sauspiel": 15, "ramsch": 5}, 5, 20),
    ],
)
def test_ramsch_costs_its_tariff(
    client: FlaskClient, tariffs: dict[str, int], stated: int, a_pays: int
) -> None:
    sheet = create(client, {"ramsch": True, "tariffs": tariffs})
    assert sheet["rules"]["tariffs"]["ramsch"] == stated  # filled in, as every rule
    r = client.post(f"{API}/{sheet['id']}/deals", json=RAMSCH)
    assert r.status_code == 201, r.get_json()
    deltas = r.get_json()["deals"][0]["deltas"]
    assert deltas == {"A": -a_pays, "B": stated, "C": stated, "D": 2 * stated}


def test_without_ramsch_the_tariffs_stay_as_they_were(client: FlaskClient) -> None:
    sheet = create(client, {})
    assert sheet["rules"]["tariffs"] == {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10}
    given = create(client, {"tariffs": {"ramsch": 25}})
    assert given["rules"]["tariffs"]["ramsch"] == 25


def test_a_sheet_stored_without_the_key_computes_as_before() -> None:
    old_rules = {"tariffs": {"sauspiel": 20, "solo": 50, "bettel": 50, "extra": 10},
                 "tout_counts_schneider_schwarz": True, "laufende_min": {}, "ramsch": True,
                 "bock": [], "stake_cents": 1}  # fmt: skip
    spec = SheetSpec("schafkopf", tuple(PLAYERS), "A", old_rules)
    out = computed_json(compute_sheet(spec, [DealRecord(1, "A", ("B", "C", "D", "A"), RAMSCH)]))
    assert out["deals"][0]["deltas"] == {"A": -80, "B": 20, "C": 20, "D": 40}
    # Normalising the same rules again (an import) states the tariff it already used.
    again = normalize_sheet({"game": "schafkopf", "players": PLAYERS, "rules": old_rules})
    assert again.rules.to_json()["tariffs"]["ramsch"] == 20
    assert (
        computed_json(compute_sheet(again, [DealRecord(1, "A", ("B", "C", "D", "A"), RAMSCH)]))[
            "totals"
        ]
        == out["totals"]
    )


def test_bock_and_durchmarsch_with_the_ramsch_tariff() -> None:
    t = {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10, "ramsch": 30}
    bock = schafkopf_ramsch(tuple(PLAYERS), RAMSCH["points"], ("D",), None, t, bock=1)
    assert bock.deltas == {"A": -240, "B": 60, "C": 60, "D": 120}
    # A Durchmarsch is paid like a Solo won schwarz, whatever the Ramsch tariff.
    durch = schafkopf_ramsch(tuple(PLAYERS), {"A": 120, "B": 0, "C": 0, "D": 0}, (), "A", t)
    assert durch.deltas == {"A": 120, "B": -40, "C": -40, "D": -40}


def test_the_calculator_takes_the_key(client: FlaskClient) -> None:
    body = {"game": "sauspiel", "declarers": ["A", "B"], "player_points": 70,
            "tariffs": {"ramsch": 30, "sauspiel": 20}}  # fmt: skip
    r = client.post("/api/v1/schafkopf/value", json=body)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["value"] == 20


@pytest.mark.parametrize("bad", [-1, 100_001, "x"])
def test_bad_ramsch_tariffs_are_refused(client: FlaskClient, bad: object) -> None:
    r = client.post(API, json={"game": "schafkopf", "players": PLAYERS,
                               "rules": {"ramsch": True, "tariffs": {"ramsch": bad}}})  # fmt: skip
    assert r.status_code == 422 and "rules.tariffs" in r.get_json()["errors"]
    r = client.post("/api/v1/schafkopf/value", json={"game": "solo", "declarers": ["A"],
                                                     "won": True, "tariffs": {"ramsch": bad}})  # fmt: skip
    assert r.status_code == 422 and "tariffs" in r.get_json()["errors"]


FORM = {"game": "schafkopf", "p1": "A", "p2": "B", "p3": "C", "p4": "D", "first_dealer": "1",
        "ramsch": "y", "t_sauspiel": "10", "t_solo": "20", "t_bettel": "20", "t_extra": "10",
        "tout_counts": "y"}  # fmt: skip


def sheet_id(location: str) -> int:
    return int(location.rstrip("/").split("/")[-1])


def test_new_sheet_form_has_the_ramsch_tariff(client: FlaskClient) -> None:
    html = client.get("/sheets").data.decode()
    assert 'name="t_ramsch"' in html and 'placeholder="wie Sauspiel"' in html
    assert 'name="t_ramsch"' not in client.get("/schafkopf").data.decode()  # sheets only
    r = client.post("/sheets", data={**FORM, "t_ramsch": "25"})
    assert r.status_code in (302, 303)
    sheet = client.get(f"{API}/{sheet_id(r.headers['Location'])}").get_json()
    assert sheet["rules"]["tariffs"]["ramsch"] == 25
    page = client.get(f"/sheets/{sheet['id']}").data.decode()
    assert "Ramsch: ja, Tarif 25" in page
    r = client.post("/sheets", data={**FORM, "t_ramsch": ""})  # empty: as the Sauspiel
    sheet = client.get(f"{API}/{sheet_id(r.headers['Location'])}").get_json()
    assert sheet["rules"]["tariffs"]["ramsch"] == 10


def test_new_sheet_form_checks_the_ramsch_tariff(client: FlaskClient) -> None:
    r = client.post("/sheets", data={**FORM, "t_ramsch": "viel"})
    assert r.status_code == 422
    html = r.data.decode()
    field = html.index('name="t_ramsch"')
    assert "Bitte eine ganze Zahl eingeben." in html[field:]
    assert client.get(API.replace("/sheets", "/sheets/1")).status_code == 404  # nothing stored
