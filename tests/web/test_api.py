"""JSON API v1 as docs/api.md fixes it."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

SKAT = "/api/v1/skat/value"
SK = "/api/v1/schafkopf/value"


@pytest.mark.parametrize(
    ("body", "value", "score", "won", "overbid"),
    [
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 75}, 72, 72, True, False),
        ({"game": "diamonds", "matadors": 1, "with": True, "bid": 22, "declarer_points": 70}, 27, -54, False, True),
        ({"game": "null", "hand": True, "ouvert": True, "won": False}, 59, -118, False, False),
        ({"game": "clubs", "matadors": 2, "with": True, "ouvert": True, "declarer_points": 120, "all_tricks": "declarer"}, 108, 108, True, False),
        ({"game": "grand", "cards": ["CJ", "SJ", "HA", "HT", "HK", "S7", "S8", "D7", "DA", "C9"], "declarer_points": 75}, 72, 72, True, False),
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 75, "kontra": True, "re": True}, 72, 288, True, False),
    ],
)  # fmt: skip
def test_skat_value(client: FlaskClient, body: dict[str, Any], value: int, score: int,
                    won: bool, overbid: bool) -> None:  # fmt: skip
    r = client.post(SKAT, json=body)
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("application/json")
    d = r.get_json()
    assert (d["value"], d["score"], d["won"], d["overbid"]) == (value, score, won, overbid)
    assert set(d) == {"won", "overbid", "base", "matadors", "with", "multiplier", "schneider",
                      "schwarz", "value", "score", "explanation", "steps"}  # fmt: skip
    assert all(isinstance(s, str) for s in d["explanation"])


def test_null_has_nulls(client: FlaskClient) -> None:
    d = client.post(SKAT, json={"game": "null", "won": True}).get_json()
    assert d["base"] is None and d["matadors"] is None and d["with"] is None
    assert d["multiplier"] is None


def test_language(client: FlaskClient) -> None:
    body = {"game": "grand", "matadors": 2, "with": True, "declarer_points": 75}
    de = client.post(SKAT, json=body).get_json()["explanation"]
    en = client.post(SKAT, json=body, headers={"Accept-Language": "en"}).get_json()["explanation"]
    assert "mit 2, Spiel 3 × 24 = 72" in de
    assert "with 2, game 3 × 24 = 72" in en


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 95, "schneider_announced": True}, "schneider_announced"),
        ({"game": "hearts", "matadors": 12, "with": True, "declarer_points": 70}, "matadors"),
        ({"game": "grand", "matadors": 5, "with": True, "declarer_points": 70}, "matadors"),
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 121}, "declarer_points"),
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 80, "all_tricks": "declarer"}, "all_tricks"),
        ({"game": "null", "won": True, "bid": 24}, "bid"),
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 80, "bid": 19}, "bid"),
        ({"game": "grand", "matadors": "2", "with": True, "declarer_points": 80}, "matadors"),
        ({"game": "grand", "matadors": 2, "with": 1, "declarer_points": 80}, "with"),
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 80, "colour": "red"}, "colour"),
        ({"game": "bridge"}, "game"),
        ({"matadors": 2}, "game"),
        ({"game": "null", "matadors": 2, "with": True, "won": True}, "matadors"),
        ({"game": "null", "declarer_points": 10, "won": True}, "declarer_points"),
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 80, "won": True}, "won"),
        ({"game": "grand", "cards": ["CJ", "XX"], "declarer_points": 80}, "cards"),
        ({"game": "grand", "cards": ["CJ"] * 10, "declarer_points": 80}, "cards"),
        ({"game": "grand", "cards": ["CJ", "SJ", "HJ"], "declarer_points": 80}, "cards"),
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 80, "re": True}, "re"),
        ({"game": "grand", "matadors": 2, "with": True, "declarer_points": 10**30}, "declarer_points"),
        ([1, 2, 3], "_"),
    ],
)  # fmt: skip
def test_skat_422(client: FlaskClient, body: Any, field: str) -> None:
    r = client.post(SKAT, json=body)
    assert r.status_code == 422
    errors = r.get_json()["errors"]
    assert field in errors
    assert all(isinstance(m, str) and m for msgs in errors.values() for m in msgs)


def test_415_and_bad_json(client: FlaskClient) -> None:
    r = client.post(SKAT, data="game=grand", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415
    assert "_" in r.get_json()["errors"]
    r = client.post(SKAT, data='{"game": "grand"', content_type="application/json")
    assert r.status_code == 422
    r = client.post(SKAT, data=b"\xff\xfe", content_type="application/json")
    assert r.status_code == 422


def test_404_and_405_are_json(client: FlaskClient) -> None:
    r = client.get("/api/v1/nothing")
    assert r.status_code == 404 and "_" in r.get_json()["errors"]
    r = client.get(SKAT)
    assert r.status_code == 405 and "_" in r.get_json()["errors"]
    assert client.get("/api/v1/sheets/999").status_code == 404


def test_schafkopf_example(client: FlaskClient) -> None:
    body = {"game": "wenz", "players": ["A", "B", "C", "D"], "declarers": ["B"], "won": True,
            "schneider": True, "laufende": 3, "gestellt": 1}  # fmt: skip
    r = client.post(SK, json=body)
    assert r.status_code == 200
    d = r.get_json()
    assert d["value"] == 120 and d["won"] is True
    assert d["deltas"] == {"A": -120, "B": 360, "C": -120, "D": -120}


def test_schafkopf_defaults_and_points(client: FlaskClient) -> None:
    d = client.post(
        SK, json={"game": "sauspiel", "declarers": ["A", "D"], "player_points": 95}
    ).get_json()
    assert d["value"] == 20 and d["deltas"] == {"A": 20, "B": -20, "C": -20, "D": 20}
    d = client.post(SK, json={"game": "solo", "declarers": ["C"], "won": True,
                              "tariffs": {"solo": 50}}).get_json()  # fmt: skip
    assert d["value"] == 50


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "sauspiel", "declarers": ["A", "B"], "won": True, "tout": True}, "tout"),
        ({"game": "wenz", "declarers": ["A"], "won": True, "sie": True}, "sie"),
        ({"game": "wenz", "declarers": ["A"], "won": True, "laufende": 5}, "laufende"),
        ({"game": "solo", "declarers": ["A", "B"], "won": True}, "declarers"),
        ({"game": "solo", "declarers": ["A"], "won": True, "players": ["A", "A", "B", "C"]}, "players"),
        ({"game": "bettel", "declarers": ["A"], "won": True, "laufende": 3}, "laufende"),
        ({"game": "bettel", "declarers": ["A"], "player_points": 3}, "player_points"),
        ({"game": "solo", "declarers": ["A"]}, "_"),
        ({"game": "solo", "declarers": ["A"], "won": True, "player_points": 80}, "_"),
        ({"game": "ramsch", "declarers": ["A"], "won": True}, "game"),
        ({"game": "solo", "declarers": ["A"], "won": True, "gestellt": 9}, "gestellt"),
        ({"game": "solo", "declarers": ["A"], "won": True, "tariffs": {"solo": "x"}}, "tariffs"),
        ({"game": "solo", "declarers": ["A"], "won": True, "tariffs": {"jackpot": 5}}, "tariffs"),
        ({"game": "solo", "declarers": ["A"], "won": True, "laufende_min": {"wenz": 9}}, "laufende_min"),
        ({"game": "solo", "declarers": ["A"], "won": True, "extra": 1}, "extra"),
        ({"game": "solo", "won": True}, "declarers"),
    ],
)  # fmt: skip
def test_schafkopf_422(client: FlaskClient, body: dict[str, Any], field: str) -> None:
    r = client.post(SK, json=body)
    assert r.status_code == 422, r.get_json()
    assert field in r.get_json()["errors"]


def test_schafkopf_suit_is_optional_and_checked(client: FlaskClient) -> None:
    body = {"game": "solo", "declarers": ["C"], "won": True, "suit": "gras"}
    d = client.post(SK, json=body, headers={"Accept-Language": "de"}).get_json()
    assert d["value"] == 20 and d["explanation"][0].startswith("Gras-Solo")
    r = client.post(SK, json={"game": "sauspiel", "declarers": ["A", "B"], "won": True,
                              "suit": "herz"})  # fmt: skip
    assert r.status_code == 422 and "suit" in r.get_json()["errors"]
    r = client.post(SK, json={**body, "suit": "karo"})
    assert r.status_code == 422 and "suit" in r.get_json()["errors"]
