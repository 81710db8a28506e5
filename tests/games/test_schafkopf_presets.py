"""The Schafkopf tournament scales by name (docs/rules.md 2.8): each preset's figures as its
source writes them, worked examples, "nur Gute" (only the winners write) on a sheet, in an
event's ranking, its CSV and PDF, and the presets on the new-event page."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from skatcalc.games.schafkopf.tournament import PRESETS, PointScale, read_scale, scale_value
from skatcalc.games.schafkopf.values import SchafkopfDeal, SKGame
from skatcalc.rules.common import Errors, InvalidDeal

SEATS = ("A", "B", "C", "D")
G = SKGame


def deal(game: SKGame, *declarers: str, **kw: Any) -> SchafkopfDeal:
    return SchafkopfDeal(game, tuple(declarers), **kw)


# (what, preset, deal, points of A, B, C, D: plus/minus, or what each writes on "nur Gute")
WORKED = [
    # SELF (Schafkopfturnier 2022)
    ("SELF Rufspiel plain", "self", deal(G.SAUSPIEL, "A", "C", won=True), (1, -1, 1, -1)),
    ("SELF Rufspiel Schneider", "self", deal(G.SAUSPIEL, "A", "C", player_points=95),
     (2, -2, 2, -2)),
    ("SELF Rufspiel lost Schwarz", "self", deal(G.SAUSPIEL, "B", "D", won=False, schwarz=True),
     (3, -3, 3, -3)),
    ("SELF Solo won +15/-5", "self", deal(G.SOLO, "A", won=True, suit="gras"),
     (15, -5, -5, -5)),
    ("SELF Wenz won Schneider +18/-6", "self", deal(G.WENZ, "B", player_points=92),
     (-6, 18, -6, -6)),
    ("SELF Solo lost Schwarz -21/+7", "self", deal(G.SOLO, "C", won=False, schwarz=True,
                                                   suit="eichel"), (7, 7, -21, 7)),
    ("SELF Tout +42/-14", "self", deal(G.SOLO, "D", won=True, tout=True, suit="herz"),
     (-14, -14, -14, 42)),
    ("SELF Sie +84/-28", "self", deal(G.SOLO, "A", won=True, sie=True, suit="gras"),
     (84, -28, -28, -28)),
    ("SELF no Kontra", "self", deal(G.SOLO, "A", won=True, kontra=1, suit="gras"),
     (15, -5, -5, -5)),
    ("SELF Bettel as a plain Solo", "self", deal(G.BETTEL, "B", won=False), (5, -15, 5, 5)),
    # Donauries-Schafkopfcup (Turnierregeln 2019/2020)
    ("Donauries Solo won plain", "donauries", deal(G.SOLO, "A", won=True, suit="gras"),
     (15, -5, -5, -5)),
    ("Donauries Tout +30/-10", "donauries", deal(G.SOLO, "A", won=True, tout=True, suit="gras"),
     (30, -10, -10, -10)),
    ("Donauries Tout lost -30/+10", "donauries", deal(G.WENZ, "B", won=False, tout=True),
     (10, -30, 10, 10)),
    ("Donauries Sie +60/-20", "donauries", deal(G.SOLO, "C", won=True, sie=True, suit="gras"),
     (-20, -20, 60, -20)),
    ("Donauries no Laufende", "donauries",
     deal(G.SAUSPIEL, "A", "B", won=True, laufende=5, suit="gras"), (1, 1, -1, -1)),
    ("Donauries Solo Schneider still counts", "donauries",
     deal(G.SOLO, "D", player_points=100, suit="gras"), (-6, -6, -6, 18)),
    # the default (Grossreuth, Münchsmünster, Vohenstrauß)
    ("default Solo +6/-2", "default", deal(G.SOLO, "A", won=True, suit="gras"), (6, -2, -2, -2)),
    ("default Tout +24/-8", "default", deal(G.SOLO, "A", won=True, tout=True, suit="gras"),
     (24, -8, -8, -8)),
    # nur Gute (TSG Niederfüllbach): what each player writes
    ("nur Gute Rufspiel won: the two winners 5", "nur-gute",
     deal(G.SAUSPIEL, "A", "C", won=True, suit="gras"), (5, 0, 5, 0)),
    ("nur Gute Rufspiel lost: the two opponents 5", "nur-gute",
     deal(G.SAUSPIEL, "A", "C", player_points=50, suit="gras"), (0, 5, 0, 5)),
    ("nur Gute Rufspiel Schneider 10", "nur-gute",
     deal(G.SAUSPIEL, "B", "D", player_points=91, suit="eichel"), (0, 10, 0, 10)),
    ("nur Gute Rufspiel Schwarz 15", "nur-gute",
     deal(G.SAUSPIEL, "B", "D", won=True, schwarz=True, suit="eichel"), (0, 15, 0, 15)),
    ("nur Gute Solo won: the player 20", "nur-gute",
     deal(G.SOLO, "A", player_points=61, suit="gras"), (20, 0, 0, 0)),
    ("nur Gute Solo lost: each opponent 20", "nur-gute",
     deal(G.SOLO, "A", player_points=60, suit="gras"), (0, 20, 20, 20)),
    ("nur Gute Solo Schneider counts not: 20", "nur-gute",
     deal(G.WENZ, "D", player_points=95), (0, 0, 0, 20)),
    ("nur Gute Herz-Solo 30", "nur-gute", deal(G.SOLO, "B", won=True, suit="herz"),
     (0, 30, 0, 0)),
    ("nur Gute Herz-Solo lost: 30 each", "nur-gute", deal(G.SOLO, "B", won=False, suit="herz"),
     (30, 0, 30, 30)),
    ("nur Gute 2 Laufende: 5 + 10", "nur-gute",
     deal(G.SAUSPIEL, "A", "B", won=True, laufende=2, suit="gras"), (15, 15, 0, 0)),
    ("nur Gute 3 Laufende: 5 + 15", "nur-gute",
     deal(G.SAUSPIEL, "A", "B", won=True, laufende=3, suit="gras"), (20, 20, 0, 0)),
    ("nur Gute 6 Laufende count as 4: 5 + 20", "nur-gute",
     deal(G.SAUSPIEL, "A", "B", won=True, laufende=6, suit="gras"), (25, 25, 0, 0)),
    ("nur Gute Wenz with 2 Laufende: 20 + 10", "nur-gute",
     deal(G.WENZ, "C", won=True, laufende=2), (0, 0, 30, 0)),
    ("nur Gute Tout doubles: 40", "nur-gute", deal(G.SOLO, "A", won=True, tout=True, suit="gras"),
     (40, 0, 0, 0)),
    ("nur Gute Herz-Solo Tout: 60", "nur-gute",
     deal(G.SOLO, "A", won=True, tout=True, suit="herz"), (60, 0, 0, 0)),
]  # fmt: skip


@pytest.mark.parametrize(("what", "preset", "d", "points"), WORKED, ids=[w[0] for w in WORKED])
def test_each_preset_gives_the_figures_of_its_source(
    what: str, preset: str, d: SchafkopfDeal, points: tuple[int, ...]
) -> None:
    res = scale_value(d, PRESETS[preset])
    if PRESETS[preset].written:
        assert res.written is not None
        assert tuple(res.written[p] for p in SEATS) == points, what
        assert set(res.deltas.values()) == {0}  # nothing changes hands
    else:
        assert tuple(res.deltas[p] for p in SEATS) == points, what
        assert res.written is None


def test_nur_gute_asks_for_the_suit_of_a_solo() -> None:
    with pytest.raises(InvalidDeal) as exc:
        scale_value(deal(G.SOLO, "A", won=True), PRESETS["nur-gute"])
    assert [i.field for i in exc.value.errors] == ["suit"]
    # a Wenz has no suit to name; the other presets take a Solo without one, as before
    scale_value(deal(G.WENZ, "A", won=True), PRESETS["nur-gute"])
    scale_value(deal(G.SOLO, "A", won=True), PRESETS["self"])


def test_a_preset_reads_back_and_single_figures_override_it() -> None:
    for name, scale in PRESETS.items():
        e = Errors()
        assert read_scale(scale.to_json(), e) == scale and not e.items, name
        assert read_scale({"preset": name}, e) == scale
    e = Errors()
    own = read_scale({"preset": "self", "solo": {"plain": 4}, "kontra": 2}, e)
    assert not e.items
    assert own.solo == (4, 6, 7) and own.kontra == 2 and own.preset == "self"
    assert own.bettel == 5  # the rest stays the preset's
    e = Errors()
    read_scale({"preset": "skat", "tout_level": "x", "written": 1, "laufende_max": 0}, e, "s")
    assert [i.field for i in e.items] == ["s.preset", "s.laufende_max", "s.tout_level",
                                          "s.written"]  # fmt: skip


@st.composite
def written_deals(draw: st.DrawFn) -> SchafkopfDeal:
    game = draw(st.sampled_from(list(SKGame)))
    declarers = tuple(draw(st.permutations(SEATS))[: 2 if game.partner_game else 1])
    kw: dict[str, Any] = {"kontra": draw(st.integers(0, 2)), "won": draw(st.booleans())}
    if game.row.names_suit:
        kw["suit"] = draw(st.sampled_from(["eichel", "gras", "schellen"] + (
            [] if game is SKGame.SAUSPIEL else ["herz"])))  # fmt: skip
    if not game.bettel_class:
        kw["laufende"] = draw(st.integers(0, game.max_laufende))
        kw["schneider"] = draw(st.booleans())
    return SchafkopfDeal(game, declarers, **kw)


@given(written_deals())
def test_on_nur_gute_only_the_winners_write_and_nothing_changes_hands(d: SchafkopfDeal) -> None:
    res = scale_value(d, PRESETS["nur-gute"])
    assert res.written is not None and sum(res.deltas.values()) == 0
    assert set(res.deltas.values()) == {0}
    winners = {p for p in SEATS if (p in d.declarers) == res.won}
    assert {p for p, v in res.written.items() if v} == winners
    assert len(set(res.written[p] for p in winners)) == 1  # each winner writes the same
    assert res.value == res.written[next(iter(winners))]


# --- in an event --------------------------------------------------------------------------


def new_event(client: FlaskClient, scoring: dict[str, Any], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/v1/events", json={"game": "schafkopf", "deals": {"4": 4},
                                            "scoring": scoring, **extra})  # fmt: skip
    assert r.status_code == 201, r.json
    return dict(r.json)


@pytest.mark.parametrize("name", list(PRESETS))
def test_an_event_takes_a_preset_by_name(client: FlaskClient, name: str) -> None:
    event = new_event(client, {"kind": "points", "preset": name})
    assert event["scoring"] == {"kind": "points", "preset": name,
                                "scale": PRESETS[name].to_json()}  # fmt: skip
    own = new_event(client, {"kind": "points", "preset": name, "scale": {"tout": 3}})
    assert own["scoring"]["scale"] == {**PRESETS[name].to_json(), "tout": 3}


@pytest.mark.parametrize(
    ("scoring", "field"),
    [
        ({"kind": "points", "preset": "skat"}, "scoring.preset"),
        ({"kind": "points", "preset": 3}, "scoring.preset"),
        ({"kind": "money", "preset": "self"}, "scoring.preset"),
        ({"kind": "points", "preset": "self", "scale": {"preset": "donauries"}},
         "scoring.scale.preset"),
        ({"kind": "points", "preset": "self", "scale": "x"}, "scoring.scale"),
        ({"kind": "points", "scale": {"written": "yes"}}, "scoring.scale.written"),
        ({"kind": "points", "scale": {"tout_level": "solo"}}, "scoring.scale.tout_level"),
        ({"kind": "points", "scale": {"herz_solo": -1}}, "scoring.scale.herz_solo"),
        ({"kind": "points", "scale": {"laufende_max": 15}}, "scoring.scale.laufende_max"),
    ],
)  # fmt: skip
def test_a_bad_preset_answers_422_on_its_field(
    client: FlaskClient, scoring: dict[str, Any], field: str
) -> None:
    r = client.post("/api/v1/events", json={"game": "schafkopf", "scoring": scoring})
    assert r.status_code == 422, r.json
    assert field in r.json["errors"], r.json["errors"]
    assert client.get("/api/v1/events").json["events"] == []


# Two tables of "nur Gute", one series of 4 deals each: (body with seats 1-4, written per seat)
NUR_GUTE_DEALS = [
    ({"game": "sauspiel", "declarers": [1, 3], "suit": "gras", "player_points": 95},
     [10, 0, 10, 0]),
    ({"game": "solo", "declarers": [2], "suit": "herz", "won": True, "laufende": 3},
     [0, 45, 0, 0]),
    ({"game": "wenz", "declarers": [4], "player_points": 40}, [20, 20, 20, 0]),
    ({"passed": True}, [0, 0, 0, 0]),
]  # fmt: skip


def test_a_nur_gute_tournament_ranks_by_what_the_winners_wrote(client: FlaskClient) -> None:
    event = new_event(client, {"kind": "points", "preset": "nur-gute"},
                      fees={"entry_cents": 500})  # fmt: skip
    eid = event["id"]
    names = ["Anna", "Bert", "Carl", "Dina", "Emma", "Fritz", "Gabi", "Hans"]
    client.post(f"/api/v1/events/{eid}/players", json={"names": names})
    series = client.post(f"/api/v1/events/{eid}/series", json={"seating": "draw", "seed": 5}).json
    written: dict[str, int] = dict.fromkeys(names, 0)
    for table in series["tables"]:
        seats = table["players"]
        for body, points in NUR_GUTE_DEALS:
            if "declarers" in body:
                body = {**body, "declarers": [seats[i - 1] for i in body["declarers"]]}
            r = client.post(f"/api/v1/sheets/{table['sheet']}/deals", json=body)
            assert r.status_code == 201, r.json
            row = r.json["deals"][-1]  # the answer is the sheet
            assert row["written"] == dict(zip(seats, points, strict=True))
            assert set(row["deltas"].values()) == {0}
            for p, v in zip(seats, points, strict=True):
                written[p] += v
        sheet = client.get(f"/api/v1/sheets/{table['sheet']}").json
        assert sheet["totals"]["written"] == {p: written[p] for p in seats}
        assert set(sheet["totals"]["balance"].values()) == {0}
        assert sheet["totals"]["settlement"] == []
        assert all(sum(d["deltas"].values()) == 0 for d in sheet["deals"])
        assert [sum(d["written"].values()) for d in sheet["deals"]] == [20, 45, 60, 0]
    # seat 2 wrote 65, seats 1 and 3 30, seat 4 0 at each table; ties share a rank
    rows = client.get(f"/api/v1/events/{eid}/ranking").json["rows"]
    assert [r["score"] for r in rows] == [65, 65, 30, 30, 30, 30, 0, 0]
    assert [r["rank"] for r in rows] == [1, 1, 3, 3, 3, 3, 7, 7]
    assert {r["player"]: r["score"] for r in rows} == written
    ranked = list(csv.reader(io.StringIO(
        client.get(f"/events/{eid}/ranking.csv").data.decode("utf-8-sig")), delimiter=";"))  # fmt: skip
    assert [int(r[2]) for r in ranked[1:]] == [65, 65, 30, 30, 30, 30, 0, 0]
    assert [r[1] for r in ranked[1:]] == [r["player"] for r in rows]
    pdf = client.get(f"/events/{eid}/event.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    text = " ".join(
        " ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf.data)).pages
    )
    assert "geschriebene Punkte (nur Gute)" in text
    ranked_pdf = [name for name in text.split() if name in written]
    assert ranked_pdf[: len(rows)] == [r["player"] for r in rows]
    # a table's list as a file: what each player wrote per deal, their sums, the total
    sheet_id = series["tables"][0]["sheet"]
    seats = series["tables"][0]["players"]
    lines = list(csv.reader(io.StringIO(
        client.get(f"/api/v1/sheets/{sheet_id}/export.csv").data.decode("utf-8-sig")),
        delimiter=";"))  # fmt: skip
    cols = [lines[0].index(f"{p} ±") for p in seats]
    assert [[int(r[c]) for c in cols] for r in lines[1:5]] == [p for _, p in NUR_GUTE_DEALS]
    assert [int(x) for x in lines[4][cols[-1] + 1 : cols[-1] + 5]] == [30, 65, 30, 0]
    total = next(r for r in lines if r and r[0] == "Geschrieben (nur Gute)")
    assert [int(x) for x in total[-4:]] == [30, 65, 30, 0]
    sheet_pdf = client.get(f"/api/v1/sheets/{sheet_id}/export.pdf").data
    text = " ".join(
        " ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(sheet_pdf)).pages
    )
    assert "Geschrieben (nur Gute) 30 65 30 0" in text
    # the event's sheets name the scale
    sheet_page = client.get(f"/sheets/{series['tables'][0]['sheet']}").get_data(as_text=True)
    assert "nur Gute" in sheet_page


def test_a_solo_without_its_suit_is_refused_on_nur_gute(client: FlaskClient) -> None:
    event = new_event(client, {"kind": "points", "preset": "nur-gute"})
    client.post(f"/api/v1/events/{event['id']}/players", json={"names": list("ABCD")})
    r = client.post(f"/api/v1/events/{event['id']}/series", json={"seating": "draw"})
    table = r.json["tables"][0]
    r = client.post(f"/api/v1/sheets/{table['sheet']}/deals",
                    json={"game": "solo", "declarers": ["A"], "won": True})  # fmt: skip
    assert r.status_code == 422 and "suit" in r.json["errors"], r.json
    assert client.get(f"/api/v1/sheets/{table['sheet']}").json["deals"] == []


def test_a_scale_that_only_sets_written_keeps_its_other_figures(client: FlaskClient) -> None:
    event = new_event(client, {"kind": "points", "scale": {"written": True}})
    assert event["scoring"]["scale"]["written"] is True
    assert event["scoring"]["scale"]["solo"] == PointScale().to_json()["solo"]


def test_with_two_lists_a_nur_gute_table_counts_what_both_lists_wrote(
    client: FlaskClient,
) -> None:
    event = new_event(client, {"kind": "points", "preset": "nur-gute"}, double_entry=True)
    eid = event["id"]
    client.post(f"/api/v1/events/{eid}/players", json={"names": list("ABCD")})
    table = client.post(f"/api/v1/events/{eid}/series", json={"seating": "draw"}).json
    table = table["tables"][0]
    seats = table["players"]
    solo = {"game": "solo", "declarers": [seats[1]], "suit": "herz", "won": True, "laufende": 3}
    client.post(f"/api/v1/sheets/{table['sheet']}/deals", json=solo)
    ranking = client.get(f"/api/v1/events/{eid}/ranking").json["rows"]
    assert {r["player"]: r["score"] for r in ranking} == dict.fromkeys(seats, 0)  # on list A only
    r = client.post(f"/api/v1/sheets/{table['sheet_b']}/deals", json=solo)
    assert r.status_code == 201, r.json
    ranking = client.get(f"/api/v1/events/{eid}/ranking").json["rows"]
    assert {r["player"]: r["score"] for r in ranking} == {**dict.fromkeys(seats, 0), seats[1]: 45}


# One table on each preset, four deals (seats 1-4), each player's total worked out by hand:
# 1 Sauspiel 1+3 won with 95 and 3 Laufende, 2 Eichel-Solo 2 Tout won, 3 Wenz 4 lost with 40
# and 2 Laufende, 4 Gras-Solo 1 Sie won
PRESET_TABLE = [
    {"game": "sauspiel", "declarers": [1, 3], "suit": "gras", "player_points": 95, "laufende": 3},
    {"game": "solo", "declarers": [2], "suit": "eichel", "won": True, "tout": True},
    {"game": "wenz", "declarers": [4], "player_points": 40, "laufende": 2},
    {"game": "solo", "declarers": [1], "suit": "gras", "won": True, "sie": True},
]
PRESET_TOTALS = {
    # (2 + 3) ; Tout 4 x 2 ; Wenz lost 2 + 2 ; Sie 4 x 4
    "default": [5 - 8 + 4 + 48, -5 + 24 + 4 - 16, 5 - 8 + 4 - 16, -5 - 8 - 12 - 16],
    # (2 + 3) ; Tout 7 x 2 ; Wenz lost 5 + 2 ; Sie 7 x 4
    "self": [5 - 14 + 7 + 84, -5 + 42 + 7 - 28, 5 - 14 + 7 - 28, -5 - 14 - 21 - 28],
    # 2, no Laufende ; Tout 5 x 2 ; Wenz lost 5 ; Sie 5 x 4
    "donauries": [2 - 10 + 5 + 60, -2 + 30 + 5 - 20, 2 - 10 + 5 - 20, -2 - 10 - 15 - 20],
    # written: 10 + 3 x 5 by 1 and 3 ; 20 x 2 by 2 ; 20 + 2 x 5 by 1, 2, 3 ; 20 x 4 by 1
    "nur-gute": [25 + 30 + 80, 40 + 30, 25 + 30, 0],
}


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_tournament_table_on_each_preset_gives_its_sources_figures(
    client: FlaskClient, name: str
) -> None:
    event = new_event(client, {"kind": "points", "preset": name})
    eid = event["id"]
    client.post(f"/api/v1/events/{eid}/players", json={"names": ["Anna", "Bert", "Carl", "Dora"]})
    table = client.post(f"/api/v1/events/{eid}/series", json={"seating": "draw"}).json
    table = table["tables"][0]
    seats = table["players"]
    for body in PRESET_TABLE:
        body = {**body, "declarers": [seats[i - 1] for i in body["declarers"]]}
        r = client.post(f"/api/v1/sheets/{table['sheet']}/deals", json=body)
        assert r.status_code == 201, r.json
    totals = client.get(f"/api/v1/sheets/{table['sheet']}").json["totals"]
    want = dict(zip(seats, PRESET_TOTALS[name], strict=True))
    assert totals["written" if name == "nur-gute" else "balance"] == want
    rows = client.get(f"/api/v1/events/{eid}/ranking").json["rows"]
    assert [(r["player"], r["score"]) for r in rows] == list(want.items())


def test_a_group_ranks_a_nur_gute_evening_by_what_was_written(client: FlaskClient) -> None:
    """A "nur Gute" sheet moves no balance (every delta 0): in a group's standings, ranked by
    balance, its evening counts what each player wrote, and no money changes hands."""
    group = client.post("/api/v1/groups", json={"name": "Preisschafkopf", "game": "schafkopf"})
    assert group.status_code == 201, group.json
    seats = ["Anna", "Bert", "Carl", "Dina"]
    sheet = client.post("/api/v1/sheets", json={
        "game": "schafkopf", "players": seats, "group": group.json["id"],
        "rules": {"scale": PRESETS["nur-gute"].to_json()}}).json  # fmt: skip
    for body, _points in NUR_GUTE_DEALS:
        if "declarers" in body:
            body = {**body, "declarers": [seats[i - 1] for i in body["declarers"]]}
        assert client.post(f"/api/v1/sheets/{sheet['id']}/deals", json=body).status_code == 201
    rows = client.get(f"/api/v1/groups/{group.json['id']}/standings").json["rows"]
    assert {r["player"]: r["score"] for r in rows} == {
        "Anna": 30,
        "Bert": 65,
        "Carl": 30,
        "Dina": 0,
    }
    assert [r["player"] for r in rows][:1] == ["Bert"]
    assert {r["cents"] for r in rows} == {0}
