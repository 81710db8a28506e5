"""The tournament list (DSkV Spielliste, docs/rules.md 1.9) on a club night's table and on a
sheet in a group ranked by Seeger-Fabian: the strip shows Seeger-Fabian, the "Spielliste"
pane and the PDF table pages write the declarer's value per deal and the foot's columns —
every figure the API's own (the worked evenings of tests/data/)."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask.testing import FlaskClient
from pypdf import PdfReader

from skatcalc.games.skat import tournament_list
from skatcalc.rules.common import number
from skatcalc.rules.sheet import (
    DealRecord,
    SheetSpec,
    compute_sheet,
    default_active,
)
from tests.known_good import evening
from tests.web.test_events import load, run_event

FOOT = ("Summe", "gewonnen", "verloren", "+50 × gew.", "−50 × verl.", "Gegner verl.", "Gesamt")


class ListTable(HTMLParser):
    """The cells of the page's tournament list, by part (thead, tbody, tfoot) and row."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: dict[str, list[list[str]]] = {"thead": [], "tbody": [], "tfoot": []}
        self.inside = False
        self.part = ""
        self.cell: list[str] | None = None
        self.sf: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("data-sf") is not None and a.get("data-p"):
            self.sf[str(a["data-p"])] = int(str(a["data-sf"]))
        if tag == "table" and a.get("id") == "tournament-list":
            self.inside = True
        elif self.inside and tag in self.parts:
            self.part = tag
        elif self.inside and tag == "tr":
            self.parts[self.part].append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []
        elif self.cell is not None and tag in ("b", "i", "small"):
            self.cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.parts[self.part][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def page_list(client: FlaskClient, url: str) -> ListTable:
    r = client.get(url)
    assert r.status_code == 200
    parser = ListTable()
    parser.feed(r.get_data(as_text=True))
    return parser


def expected_foot(totals: dict[str, Any], players: list[str], bonus: int) -> dict[str, list[str]]:
    """The foot's rows as the API's totals give them (Seeger-Fabian from the API, the rest its
    parts: list points, won, lost)."""
    won, lost, sf, li = totals["won"], totals["lost"], totals["seeger_fabian"], totals["list"]
    # the games the others lost follow from the API's figures: SF − list − 50 × (won − lost)
    others = {p: (sf[p] - li[p] - 50 * (won[p] - lost[p])) // bonus for p in players}
    return {
        "Summe": [number(li[p]) for p in players],
        "gewonnen": [str(won[p]) for p in players],
        "verloren": [str(lost[p]) for p in players],
        "+50 × gew.": [number(50 * won[p], signed=True) for p in players],
        "−50 × verl.": [number(-50 * lost[p], signed=True) for p in players],
        f"{bonus} × Gegner verl.": [
            f"{number(bonus * others[p], signed=True)} {others[p]}×" for p in players
        ],  # fmt: skip
        "Gesamt": [number(sf[p]) for p in players],
    }


def group_sheet(client: FlaskClient, players: list[str], rank_by: str = "seeger_fabian") -> int:
    r = client.post("/api/v1/groups", json={"name": "Skatrunde", "game": "skat",
                                            "rules": {"rank_by": rank_by}})  # fmt: skip
    assert r.status_code == 201, r.json
    r = client.post("/api/v1/sheets", json={"game": "skat", "players": players,
                                            "first_dealer": players[0], "group": r.json["id"]})  # fmt: skip
    assert r.status_code == 201, r.json
    return int(r.json["id"])


def play(client: FlaskClient, sheet_id: int, deals: list[dict[str, Any]]) -> dict[str, Any]:
    for deal in deals:
        r = client.post(f"/api/v1/sheets/{sheet_id}/deals", json=deal["body"])
        assert r.status_code == 201, r.json
    sheet: dict[str, Any] = client.get(f"/api/v1/sheets/{sheet_id}").json
    return sheet


def check_page(client: FlaskClient, sheet: dict[str, Any], url: str) -> None:
    players = sheet["players"]
    bonus = 40 if len(players) == 3 else 30
    got = page_list(client, url)
    totals = sheet["totals"]
    assert got.sf == totals["seeger_fabian"]  # the strip: Seeger-Fabian per player
    assert [c for c in got.parts["thead"][0][1:]] == players
    foot = {row[0]: row[1:] for row in got.parts["tfoot"]}
    assert foot == expected_foot(totals, players, bonus)
    # one line per deal; each counted game writes its list entry into the declarer's column
    lines = got.parts["tbody"]
    assert [int(r[0]) for r in lines] == [d["n"] for d in sheet["deals"]]
    for row, d in zip(lines, sheet["deals"], strict=True):
        if d["kind"] == "passed" and not d["struck"]:
            assert row[1:] == ["eingepasst"]  # one cell across the players' columns
            continue
        for p, cell in zip(players, row[1:], strict=True):
            v = d["list"].get(p, 0) if not d["struck"] else 0
            if v:
                assert cell.split()[0] == number(v, signed=True), (d["n"], p, cell)
            else:
                assert not cell
    # the last line's running totals are the list points
    last_running = {p: number(totals["list"][p]) for p in players}
    for p, cell in zip(players, lines[-1][1:], strict=True):
        if cell:
            assert cell.split()[-1] == last_running[p]


@pytest.mark.parametrize("name", ["skat_36_three_table", "skat_48_four_table"])
def test_a_group_sheet_ranked_by_seeger_fabian_shows_the_tournament_list(
    client: FlaskClient, name: str
) -> None:
    ev = evening(name)
    sid = group_sheet(client, ev["players"])
    sheet = play(client, sid, ev["deals"])
    check_page(client, sheet, f"/sheets/{sid}")


def test_the_share_view_shows_the_tournament_list(client: FlaskClient) -> None:
    ev = evening("skat_36_three_table")
    sid = group_sheet(client, ev["players"])
    sheet = play(client, sid, ev["deals"][:8])
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    share = re.search(r'href="[^"]*(/sheets/\d+/share/[^"]+)"', page)
    assert share
    check_page(client, sheet, share.group(1))


@pytest.mark.parametrize("rank_by", [None, "list", "balance"])
def test_other_sheets_keep_the_balance_strip(client: FlaskClient, rank_by: str | None) -> None:
    ev = evening("skat_36_three_table")
    if rank_by is None:
        r = client.post("/api/v1/sheets", json={"game": "skat", "players": ev["players"]})
        sid = int(r.json["id"])
    else:
        sid = group_sheet(client, ev["players"], rank_by)
    play(client, sid, ev["deals"][:6])
    got = page_list(client, f"/sheets/{sid}")
    assert got.sf == {} and got.parts["tfoot"] == []
    assert 'id="tlist"' not in client.get(f"/sheets/{sid}").get_data(as_text=True)


@pytest.mark.parametrize("name", ["event_skat.json", "event_skat_fees_prizes.json"])
def test_every_club_night_table_keeps_the_tournament_list(client: FlaskClient, name: str) -> None:
    data = load(name)
    event_id = run_event(client, data)
    tables = event_tables(client, event_id)
    assert tables
    for t in tables:
        sheet = client.get(f"/api/v1/sheets/{t['sheet']}").json
        check_page(client, sheet, f"/sheets/{t['sheet']}")


def event_tables(client: FlaskClient, event_id: int) -> list[dict[str, Any]]:
    series = client.get(f"/api/v1/events/{event_id}").json["series"]
    return [t for s in series for t in s["tables"]]


def pdf_text(data: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(data)).pages]


def foot_lines(text: str, players: list[str], totals: dict[str, Any]) -> None:
    """The foot rows on a PDF page: label, then one figure per player."""
    bonus = 40 if len(players) == 3 else 30
    want = expected_foot(totals, players, bonus)
    want["Gesamt (Seeger-Fabian)"] = want.pop("Gesamt")
    want[f"{bonus} × Gegner verl."] = [
        f"{number(bonus * int(c.split()[1][:-1]), signed=True)} ({c.split()[1][:-1]})"
        for c in want[f"{bonus} × Gegner verl."]
    ]
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for label, cells in want.items():
        assert f"{label} {' '.join(cells)}" in lines, (label, cells, lines[-12:])


def test_the_event_pdf_table_pages_are_tournament_lists(client: FlaskClient) -> None:
    data = load("event_skat.json")
    event_id = run_event(client, data)
    pages = pdf_text(client.get(f"/events/{event_id}/event.pdf").data)
    assert "Platz" in pages[0] and "Gesamt (Seeger-Fabian)" not in pages[0]  # first: ranking
    tables = event_tables(client, event_id)
    table_pages = [p for p in pages[1:] if "Gesamt (Seeger-Fabian)" in p]
    assert len(table_pages) == len(tables)
    for t, text in zip(tables, table_pages, strict=True):
        sheet = client.get(f"/api/v1/sheets/{t['sheet']}").json
        assert sheet["name"] in text
        foot_lines(text, sheet["players"], sheet["totals"])
        assert "Verlauf der Stände" not in text and "Stand (Nullsumme)" not in text


def test_a_tournament_sheet_pdf_is_the_list(client: FlaskClient) -> None:
    ev = evening("skat_48_four_table")
    sid = group_sheet(client, ev["players"])
    sheet = play(client, sid, ev["deals"])
    text = "\n".join(pdf_text(client.get(f"/sheets/{sid}/export.pdf").data))
    foot_lines(text, sheet["players"], sheet["totals"])


def test_the_foot_is_the_totals_seeger_fabian() -> None:
    """The rules' one computation: the foot's total is the sheet totals' seeger_fabian, and
    its parts add up to it, for both worked evenings."""
    for name in ("skat_36_three_table", "skat_48_four_table"):
        ev = evening(name)
        spec = SheetSpec("skat", tuple(ev["players"]), ev["first_dealer"], ev["rules"])
        deals = [DealRecord(k, d["dealer"], default_active(spec, d["dealer"]), d["body"])
                 for k, d in enumerate(ev["deals"], start=1)]  # fmt: skip
        computed = compute_sheet(spec, deals)
        t = tournament_list(spec, computed)
        assert t is not None
        sf = computed.totals.get("seeger_fabian")
        assert sf is not None
        for p, f in t.foot.items():
            assert f.total == sf[p]
            assert f.total == f.list_points + f.won_points + f.lost_points + f.others_points
        assert dict(t.lines[-1].running) == dict(computed.totals.get("list") or {})
