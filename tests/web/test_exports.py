"""The evening as files: CSV parsed back, PDF text, JSON round trip, hostile imports."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.known_good import evening

SEED = evening("seed_schafkopf")
API = "/api/v1/sheets"
NAMES = {"A": "Änne", "B": "Bärbel", "C": "=Cäsar", "D": "Dörte"}


@pytest.fixture
def evening(client: FlaskClient) -> dict[str, Any]:
    """The seed evening twice over, with umlauts, a formula-like name, a correction and a strike."""
    r = client.post(API, json={"game": "schafkopf", "players": list(NAMES.values()),
                               "first_dealer": "Änne", "name": "Hirsch <Stammtisch>"})  # fmt: skip
    sid = r.get_json()["id"]
    for deal in SEED["deals"] * 2:
        body = dict(deal["body"], declarers=[NAMES[x] for x in deal["body"]["declarers"]])
        assert client.post(f"{API}/{sid}/deals", json=body).status_code == 201
    fix = dict(SEED["deals"][0]["body"], declarers=["Änne", "Dörte"], gestellt=2)
    assert client.put(f"{API}/{sid}/deals/6", json=fix).status_code == 200
    assert client.delete(f"{API}/{sid}/deals/7").status_code == 200
    return client.get(f"{API}/{sid}").get_json()


def test_csv_parses_back_to_the_sheet(client: FlaskClient, evening: dict[str, Any]) -> None:
    r = client.get(f"/sheets/{evening['id']}/export.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert (
        "2026" in r.headers["Content-Disposition"]
        or "attachment" in r.headers["Content-Disposition"]
    )
    text = r.data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    players = evening["players"]
    header = rows[0]
    assert header[:4] == ["Nr", "Geber", "Spieler", "Spiel"]
    assert "'=Cäsar ±" in header  # formula injection neutralised, umlauts intact
    body = rows[1 : 1 + len(evening["deals"])]
    for row, deal in zip(body, evening["deals"], strict=True):
        assert int(row[0]) == deal["n"]
        assert row[1] == deal["dealer"].replace("=", "'=")
        k = 6
        deltas = [int(x) for x in row[k : k + len(players)]]
        totals = [int(x) for x in row[k + len(players) : k + 2 * len(players)]]
        assert deltas == [deal["deltas"][p] for p in players]
        assert totals == [deal["totals"][p] for p in players]
        assert (row[5] == "ja") == deal["struck"]
    final = next(r for r in rows if r and r[0] == "Endstand")
    assert [int(x) for x in final[-len(players) :]] == [
        evening["totals"]["balance"][p] for p in players
    ]


def test_pdf_has_every_player_total_and_value(client: FlaskClient, evening: dict[str, Any]) -> None:
    r = client.get(f"{API}/{evening['id']}/export.pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert (
        "Änne" in r.headers["Content-Disposition"]
        or "%C3%84nne" in r.headers["Content-Disposition"]
    )
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(r.data)).pages)
    norm = text.replace("\u2212", "-")
    for p in evening["players"]:
        assert p in text
    for p, v in evening["totals"]["balance"].items():
        assert (f"+{v}" if v > 0 else str(v)) in norm, (p, v)
    for d in evening["deals"]:
        assert str(d["value"]) in norm
    assert "Hirsch <Stammtisch>" in text
    assert "Abrechnung" in text and "Statistik" in text


def test_long_pdf_repeats_the_heading(client: FlaskClient) -> None:
    r = client.post(API, json={"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A"})
    sid = r.get_json()["id"]
    for _ in range(48):
        client.post(f"{API}/{sid}/deals", json={"game": "grand", "matadors": 1, "with": True,
                                                "declarer_points": 70, "declarer": "B"})  # fmt: skip
    pages = PdfReader(io.BytesIO(client.get(f"{API}/{sid}/export.pdf").data)).pages
    assert len(pages) >= 2
    for page in pages[:2]:
        assert "Geber" in page.extract_text() and "Seeger-Fabian" not in page.extract_text()[:40]


def strip(sheet: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sheet.items() if k not in ("id", "created", "updated")}


def test_json_export_import_export_is_identical(
    client: FlaskClient, evening: dict[str, Any]
) -> None:
    first = client.get(f"{API}/{evening['id']}/export.json")
    assert first.status_code == 200
    r = client.post(f"{API}/import", data=first.data, content_type="application/json")
    assert r.status_code == 201
    new_id = r.get_json()["id"]
    assert new_id != evening["id"]
    second = client.get(f"{API}/{new_id}/export.json")
    a, b = json.loads(first.data), json.loads(second.data)
    assert strip(a) == strip(b)
    dump = lambda s: json.dumps(strip(s), ensure_ascii=False, indent=2)  # noqa: E731
    assert dump(a) == dump(b)


def test_import_through_the_page(client: FlaskClient, evening: dict[str, Any]) -> None:
    data = client.get(f"{API}/{evening['id']}/export.json").data
    r = client.post("/sheets/import", data={"file": (io.BytesIO(data), "abend.json")},
                    content_type="multipart/form-data")  # fmt: skip
    assert r.status_code in (302, 303)
    r = client.post("/sheets/import", data={"file": (io.BytesIO(b"{nope"), "x.json")},
                    content_type="multipart/form-data")  # fmt: skip
    assert r.status_code == 422 and "kein gültiges JSON" in r.data.decode()


def deep(n: int) -> str:
    return "[" * n + "]" * n


@pytest.mark.parametrize(
    "payload",
    [
        "[]",
        '"sheet"',
        '{"game": "skat"}',
        '{"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A", "rules": {}, "deals": "x"}',
        '{"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A", "rules": {}, "deals": [{"n": 2}]}',
        '{"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A", "rules": {}, "deals": [{"n": 1, "dealer": "A", "active": ["A", "B", "C"], "input": {"game": "grand", "matadors": 9, "with": true, "declarer_points": 70, "declarer": "B"}, "struck": false}]}',
        '{"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A", "rules": {}, "deals": [{"n": 1, "dealer": "Z", "active": ["A", "B", "C"], "input": {"passed": true}, "struck": false}]}',
        '{"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A", "rules": {}, "deals": [], "history": [{"action": "drop table"}]}',
        '{"game": "skat", "players": ["<script>", "B", "C"], "first_dealer": "<script>", "rules": {"kontra_re": "yes"}, "deals": []}',
        deep(5000),
        '{"game": "skat", "players": ["A", "B", "C"], "first_dealer": "A", "deals": [' + ",".join(['{"n": 1}'] * 1001) + "]}",
    ],
)  # fmt: skip
def test_malformed_imports_are_refused(client: FlaskClient, payload: str) -> None:
    before = client.get("/sheets").data.count(b"<tr>")
    r = client.post(f"{API}/import", data=payload, content_type="application/json")
    assert r.status_code == 422
    assert r.get_json()["errors"]
    assert client.get("/sheets").data.count(b"<tr>") == before


def test_struck_deal_keeps_its_contract_and_is_counted_apart(client: FlaskClient) -> None:
    """A struck "Kreuz mit 3 Hand" stays "Kreuz mit 3 Hand" (struck through) on the page, in
    the CSV and the PDF; every count of deals leaves it out and names it apart."""
    sid = client.post("/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla"],
                                              "first_dealer": "Anna"}).get_json()["id"]  # fmt: skip
    for body in ({"declarer": "Bernd", "game": "clubs", "matadors": 3, "with": True, "hand": True,
                  "won": True},
                 {"declarer": "Carla", "game": "grand", "matadors": 1, "with": True, "won": True}):  # fmt: skip
        assert client.post(f"/api/v1/sheets/{sid}/deals", json=body).status_code == 201
    assert client.delete(f"/api/v1/sheets/{sid}/deals/1").status_code == 200
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    row = page[page.index('id="deal-1"') :].split("</tr>", 1)[0]
    assert 'class="struck"' in row and "Kreuz mit 3" in row and "Hand" in row, row
    assert "1 Spiel (1 gestrichen)" in page
    assert '<span class="count">1</span>' in page
    listing = client.get("/sheets").get_data(as_text=True)
    assert "1 (1 gestrichen)" in listing
    csv_text = client.get(f"/sheets/{sid}/export.csv").get_data(as_text=True)
    assert "Kreuz mit 3" in csv_text
    pdf = client.get(f"/sheets/{sid}/export.pdf")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert "Kreuz mit 3" in text


def test_csv_has_the_list_entry_of_each_deal_and_the_settlement(client: FlaskClient) -> None:
    sid = client.post("/api/v1/sheets", json={"game": "skat", "players": ["Anna", "Bernd", "Carla"],
                      "first_dealer": "Anna", "rules": {"stake_cents": 10}}).get_json()["id"]  # fmt: skip
    for body in ({"declarer": "Bernd", "game": "grand", "matadors": 2, "with": True, "won": True},
                 {"declarer": "Carla", "game": "hearts", "matadors": 1, "with": True,
                  "won": False}):  # fmt: skip
        assert client.post(f"/api/v1/sheets/{sid}/deals", json=body).status_code == 201
    text = client.get(f"/sheets/{sid}/export.csv").data.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[0][-1] == "Liste"
    assert [rows[1][-1], rows[2][-1]] == ["72", "-40"]
    at = next(i for i, r in enumerate(rows) if r and r[0] == "Abrechnung")
    payments = [r for r in rows[at + 1 :] if r]
    assert payments and all(r[1] in ("Anna", "Carla") and r[2] == "Bernd" for r in payments)
    assert all("€" in r[3] for r in payments)


def test_pdf_column_headings_keep_long_names_whole(client: FlaskClient) -> None:
    names = ["Maximiliane-Friederike", "Bartholomäus", "Cornelius", "Dorothea", "Emil"]
    sid = client.post("/api/v1/sheets", json={"game": "skat", "players": names,
                                              "first_dealer": "Emil"}).get_json()["id"]  # fmt: skip
    client.post(f"/api/v1/sheets/{sid}/deals", json={"declarer": "Bartholomäus", "game": "grand",
                                                    "matadors": 1, "with": True, "won": True})  # fmt: skip
    pdf = client.get(f"/sheets/{sid}/export.pdf")
    text = PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text()
    for name in names:
        assert name in text, name
    assert "Grand" in text
