"""Rows that explain themselves: the contract, marks and shown value of computed sheet rows
(rules/marks.py), and that page, CSV and PDF say the same."""

from __future__ import annotations

import io
from typing import Any

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

from skatcalc.rules.marks import describe_row
from skatcalc.rules.sheet import DealRecord, Row, SheetSpec, compute_sheet, default_active
from skatcalc.text import translate

SKAT = SheetSpec("skat", ("A", "B", "C", "D"), "A",
                 {"kontra_re": True, "ramsch": True, "bock": ["kontra-lost"], "stake_cents": 0})  # fmt: skip
SK = SheetSpec("schafkopf", ("A", "B", "C", "D"), "A",
               {"tariffs": {"sauspiel": 10, "solo": 20, "bettel": 20, "extra": 10, "ramsch": 10},
                "laufende_min": {"sauspiel": 3, "hochzeit": 3, "solo": 3, "farbwenz": 3,
                                 "farbgeier": 3, "wenz": 2, "geier": 2},
                "tout_counts_schneider_schwarz": True, "ramsch": True, "bock": [],
                "stake_cents": 1})  # fmt: skip


def rows(spec: SheetSpec, bodies: list[dict[str, Any]], struck: int | None = None
         ) -> list[Row]:  # fmt: skip
    deals = []
    dealer = spec.first_dealer
    for n, body in enumerate(bodies, start=1):
        active = default_active(spec, dealer)
        deals.append(DealRecord(n, dealer, active, body, n == struck))
        dealer = spec.players[(spec.players.index(dealer) + 1) % len(spec.players)]
    return list(compute_sheet(spec, deals).rows)


# deal bodies at four (A deals first and sits out: B, C, D play deal 1; C, D, A deal 2 …)
SKAT_CASES = [
    # body, contract, marks (German), shown value
    ({"game": "grand", "matadors": 2, "with": True, "won": True, "declarer": "B"},
     "Grand mit 2", [], 72),
    ({"game": "clubs", "matadors": 3, "with": False, "hand": True, "won": True,
      "schneider": True, "declarer": "B"}, "Kreuz ohne 3", ["Hand", "Schn."], 72),
    ({"game": "spades", "matadors": 2, "with": True, "won": True, "kontra": True, "re": True,
      "declarer": "B"}, "Pik mit 2", ["Kontra", "Re"], 132),
    ({"game": "diamonds", "matadors": 1, "with": True, "bid": 24, "won": True,
      "declarer": "B"}, "Karo mit 1", ["überr.", "verl."], 27),
    ({"game": "hearts", "matadors": 1, "with": True, "ouvert": True, "won": True,
      "all_tricks": "declarer", "declarer": "B"}, "Herz mit 1", ["ouvert"], 80),
    ({"game": "grand", "matadors": 1, "with": True, "hand": True, "schneider_announced": True,
      "won": True, "schneider": True, "declarer": "B"}, "Grand mit 1", ["Hand", "Schn. ang."],
     120),
    ({"game": "null", "hand": True, "ouvert": True, "won": False, "declarer": "B"}, "Null",
     ["Hand", "ouvert", "verl."], 59),
    ({"ramsch": {"points": {"B": 30, "C": 62, "D": 28}, "jungfrau": [], "durchmarsch": None}},
     "Ramsch: C verliert (62 Augen)", [], None),
]  # fmt: skip


@pytest.mark.parametrize(("body", "contract", "marks", "value"), SKAT_CASES)
def test_skat_rows_name_contract_marks_and_value(
    body: dict[str, Any], contract: str, marks: list[str], value: int | None
) -> None:
    row = rows(SKAT, [body])[0]
    text = describe_row("skat", row)
    assert text.contract.de == contract
    assert [m.de for m in text.marks] == marks
    assert text.value == value


def test_skat_value_counts_kontra_and_bock_like_schafkopf() -> None:
    # deal 1: Pik mit 2 lost with Kontra → Bock round; deal 2 in Bock: Grand mit 2 won
    lost = {"game": "spades", "matadors": 2, "with": True, "won": False, "kontra": True,
            "declarer": "B"}  # fmt: skip
    grand = {"game": "grand", "matadors": 2, "with": True, "won": True, "declarer": "C"}
    r = rows(SKAT, [lost, grand])
    first, second = (describe_row("skat", x) for x in r)
    assert first.value == 66 and [m.de for m in first.marks] == ["Kontra", "verl."]
    assert r[0].list["B"] == -132  # the list entry: lost counts the shown value twice
    assert second.value == 144 and "Bock" in [m.de for m in second.marks]
    assert r[1].list["C"] == 144


def test_schafkopf_rows_and_ramsch_losers() -> None:
    bodies = [
        {"game": "solo", "declarers": ["C"], "won": False, "tout": True, "gestellt": 1,
         "kontra": 1},
        {"game": "sauspiel", "declarers": ["C", "D"], "won": True, "schneider": True,
         "laufende": 5, "gestellt": 2},
        {"game": "ramsch", "points": {"A": 40, "B": 40, "C": 30, "D": 10}},
    ]  # fmt: skip
    r = rows(SK, bodies, struck=2)
    solo, saus, ramsch = (describe_row("schafkopf", x) for x in r)
    assert solo.value == 160 and [m.de for m in solo.marks] == ["gestellt", "Kontra", "verl."]
    assert solo.contract.de == "Solo Tout C"
    assert [m.de for m in saus.marks] == ["Schn.", "5 Laufende", "2× gestellt", "gestrichen"]
    assert ramsch.contract.de == "Ramsch: A, B verlieren (40 Augen)" and ramsch.value is None
    assert translate(ramsch.line(), "en") == "Ramsch: A, B lose (40 points)"


def test_page_csv_and_pdf_show_the_same_marks(client: FlaskClient) -> None:
    r = client.post("/api/v1/sheets", json={"game": "skat", "players": ["A", "B", "C", "D"],
                                            "first_dealer": "A", "rules": {"kontra_re": True}})  # fmt: skip
    sid = r.get_json()["id"]
    body = {"game": "clubs", "matadors": 3, "with": False, "hand": True, "won": True,
            "schneider": True, "kontra": True, "declarer": "B"}  # fmt: skip
    assert client.post(f"/api/v1/sheets/{sid}/deals", json=body).status_code in (200, 201)
    page = client.get(f"/sheets/{sid}").data.decode()
    row = page[page.index('<tr id="deal-1"') :]
    row = row[: row.index("</tr>")]
    for mark in ("Hand", "Schn.", "Kontra"):
        assert f"<span class=mk>{mark}</span>" in row
    assert "<td class=v>144</td>" in row  # Kreuz ohne 3 Hand Schneider: 72, Kontra: 144
    csv = client.get(f"/sheets/{sid}/export.csv").data.decode("utf-8-sig")
    assert "Kreuz ohne 3 (Hand, Schn., Kontra);144" in csv
    pdf = client.get(f"/sheets/{sid}/export.pdf").data
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Kreuz ohne 3 (Hand, Schn., Kontra)" in " ".join(text.split())


def test_the_legend_explains_only_the_marks_of_its_game_without_repeating_words() -> None:
    from skatcalc.rules.marks import legend

    sk = dict(legend("schafkopf", lambda m: translate(m, "de")))
    assert set(sk) == {"Schn.", "Schw.", "verl."}
    assert [s for s, _ in legend("skat", lambda m: translate(m, "de"))] == [
        "Schn.", "Schw.", "Schn. ang.", "Schw. ang.", "überr.", "verl."]  # fmt: skip
    en = legend("skat", lambda m: translate(m, "en"))
    assert all(short != long for short, long in en)
    assert ("overbid", "overbid") not in en and ("lost", "lost") not in en
    assert dict(legend("schafkopf", lambda m: translate(m, "en"))) == {
        "schn.": "schneider",
        "schw.": "schwarz",
    }
