"""The worked evenings of tests/data/ checked directly against the sheet computation (no HTTP)
and through the API: the same deals must give the same, hand-worked totals both ways."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from skatcalc.rules.sheet import (
    DealRecord,
    compute_sheet,
    dealer_after,
    default_active,
    normalize_sheet,
)
from skatcalc.serialize import computed_json
from tests.known_good import EVENINGS, evening


def check_rows(ev: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    players = ev["players"]
    assert len(rows) == len(ev["deals"])
    for row, deal in zip(rows, ev["deals"], strict=True):
        assert row["dealer"] == deal["dealer"], row["n"]
        assert sum(row["deltas"].values()) == 0
        if "list" in deal:  # Skat: the list entry worked out by hand, the declarer's only
            assert row["list"] == {p: deal["list"].get(p, 0) for p in players}, row["n"]
        if "value" in deal:  # Schafkopf: the value and the running totals
            assert row["result"]["value"] == deal["value"], row["n"]
            assert [row["totals"][p] for p in players] == deal["totals"], row["n"]


def check_totals(ev: dict[str, Any], totals: dict[str, Any]) -> None:
    for key, expected in ev["expected"].items():
        assert totals[key] == expected, key
    if ev["game"] == "schafkopf":
        assert "list" not in totals and "seeger_fabian" not in totals


@pytest.mark.parametrize("name", EVENINGS)
def test_evening_by_the_sheet_computation(name: str) -> None:
    ev = evening(name)
    spec = normalize_sheet({k: ev[k] for k in ("game", "players", "first_dealer", "rules")})
    records = []
    last: str | None = None
    for n, deal in enumerate(ev["deals"], start=1):
        dealer = dealer_after(spec, last)  # the rotation, as the sheet proposes it
        records.append(DealRecord(n, dealer, default_active(spec, dealer), deal["body"]))
        last = dealer
    computed = compute_sheet(spec, records)  # once: the computation knows no language
    out = computed_json(computed, "de")
    check_rows(ev, out["deals"])
    check_totals(ev, out["totals"])
    for lang in ("de", "en"):  # the language changes words, never a number
        assert computed_json(computed, lang)["totals"] == out["totals"]


@pytest.mark.parametrize("name", EVENINGS)
def test_evening_through_the_api(client: FlaskClient, name: str) -> None:
    ev = evening(name)
    r = client.post(
        "/api/v1/sheets", json={k: ev[k] for k in ("game", "players", "first_dealer", "rules")}
    )
    assert r.status_code == 201, r.get_json()
    sid = r.get_json()["id"]
    for deal in ev["deals"]:
        r = client.post(f"/api/v1/sheets/{sid}/deals", json=deal["body"])
        assert r.status_code == 201, r.get_json()
    sheet = client.get(f"/api/v1/sheets/{sid}").get_json()
    check_rows(ev, sheet["deals"])
    check_totals(ev, sheet["totals"])
    en = client.get(f"/api/v1/sheets/{sid}", headers={"Accept-Language": "en"}).get_json()
    assert en["totals"] == sheet["totals"]
