"""Schafkopf tournaments: the point scale's worked examples, the sum-to-zero law, the scale
in an event's body, and a whole tournament (rounds of 32 games, a re-draw, the final of the
best four) against figures worked out by hand in tests/data/event_schafkopf_points.json."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from skatcalc.games.schafkopf.tournament import (
    DEFAULT_SCALE,
    PointScale,
    check_zero_sum,
    read_scale,
    scale_value,
)
from skatcalc.games.schafkopf.values import SchafkopfDeal, SKGame
from skatcalc.rules.common import Errors, InvalidDeal

DATA = Path(__file__).parents[1] / "data"
SEATS = ("A", "B", "C", "D")
G = SKGame


def deal(game: SKGame, *declarers: str, **kw: Any) -> SchafkopfDeal:
    return SchafkopfDeal(game, tuple(declarers), **kw)


# (what, deal, scale, points of A, B, C, D) — the default scale unless named
WORKED = [
    ("Rufspiel won plain: 1 each", deal(G.SAUSPIEL, "A", "C", won=True), None, (1, -1, 1, -1)),
    ("Rufspiel won Schneider (91)", deal(G.SAUSPIEL, "A", "C", player_points=91), None,
     (2, -2, 2, -2)),
    ("Rufspiel lost Schwarz", deal(G.SAUSPIEL, "B", "D", won=False, schwarz=True), None,
     (3, -3, 3, -3)),
    ("Rufspiel 60:60 is lost", deal(G.SAUSPIEL, "A", "B", player_points=60), None,
     (-1, -1, 1, 1)),
    ("Rufspiel, 4 Laufende: 1 + 4", deal(G.SAUSPIEL, "A", "B", won=True, laufende=4), None,
     (5, 5, -5, -5)),
    ("Rufspiel, 2 Laufende count from 3", deal(G.SAUSPIEL, "A", "B", won=True, laufende=2),
     None, (1, 1, -1, -1)),
    ("Hochzeit as a Rufspiel", deal(G.HOCHZEIT, "C", "D", won=False), None, (1, 1, -1, -1)),
    ("Solo won plain: 6 / 2 each", deal(G.SOLO, "A", won=True, suit="gras"), None,
     (6, -2, -2, -2)),
    ("Solo lost Schneider (30)", deal(G.SOLO, "B", player_points=30), None, (3, -9, 3, 3)),
    ("Solo won Schwarz", deal(G.SOLO, "C", player_points=120, schwarz=True), None,
     (-4, -4, 12, -4)),
    ("Wenz won plain", deal(G.WENZ, "D", won=True), None, (-2, -2, -2, 6)),
    ("Wenz, 2 Laufende: 2 + 2",
     deal(G.WENZ, "D", won=True, laufende=2), None, (-4, -4, -4, 12)),
    ("Geier lost Schneider", deal(G.GEIER, "A", won=False, schneider=True), None,
     (-9, 3, 3, 3)),
    ("Farbwenz won, 3 Laufende: 2 + 3", deal(G.FARBWENZ, "B", won=True, laufende=3), None,
     (-5, 15, -5, -5)),
    ("Farbgeier lost", deal(G.FARBGEIER, "C", won=False), None, (2, 2, -6, 2)),
    ("Bettel won: a plain solo", deal(G.BETTEL, "A", won=True), None, (6, -2, -2, -2)),
    ("Bettel lost", deal(G.BETTEL, "D", won=False), None, (2, 2, 2, -6)),
    ("Tout won: Schwarz 4 x 2 = 8 each, 24", deal(G.SOLO, "A", won=True, tout=True), None,
     (24, -8, -8, -8)),
    ("Tout lost: 24 to pay", deal(G.WENZ, "B", won=False, tout=True), None, (8, -24, 8, 8)),
    ("Tout by points: 120 and Schwarz", deal(G.SOLO, "A", player_points=120, schwarz=True,
                                             tout=True), None, (24, -8, -8, -8)),
    ("Tout with 3 Laufende: (4 + 3) x 2", deal(G.SOLO, "A", won=True, tout=True, laufende=3),
     None, (42, -14, -14, -14)),
    ("Sie won: 4 x 4 = 16 each, 48", deal(G.SOLO, "D", won=True, sie=True), None,
     (-16, -16, -16, 48)),
    ("Kontra doubles a Rufspiel", deal(G.SAUSPIEL, "A", "B", won=False, kontra=1), None,
     (-2, -2, 2, 2)),
    ("Kontra and Re: x 4", deal(G.SOLO, "C", won=True, kontra=2), None, (-8, -8, 24, -8)),
    ("own scale: Rufspiel 2/4/6", deal(G.SAUSPIEL, "A", "D", won=True, schneider=True),
     PointScale(rufspiel=(2, 4, 6)), (4, -4, -4, 4)),
    ("own scale: Solo 5/10/15 from each", deal(G.SOLO, "B", won=True), PointScale(solo=(5, 10, 15)),
     (-5, 15, -5, -5)),
    ("own scale: Laufende 2 in a solo", deal(G.SOLO, "B", won=True, laufende=3),
     PointScale(laufender_solo=2), (-8, 24, -8, -8)),
    ("own scale: Tout x 3, Kontra x 3", deal(G.SOLO, "A", won=True, tout=True, kontra=1),
     PointScale(tout=3, kontra=3), (36 * 3, -36, -36, -36)),
    ("own scale: Bettel 3", deal(G.BETTEL, "A", won=False), PointScale(bettel=3),
     (-9, 3, 3, 3)),
]  # fmt: skip


@pytest.mark.parametrize(("what", "d", "scale", "points"), WORKED, ids=[w[0] for w in WORKED])
def test_the_scale_worked_examples(
    what: str, d: SchafkopfDeal, scale: PointScale | None, points: tuple[int, ...]
) -> None:
    res = scale_value(d, scale or DEFAULT_SCALE)
    assert tuple(res.deltas[p] for p in SEATS) == points, what
    assert check_zero_sum(res.deltas)


SOLO_GAMES = [G.SOLO, G.WENZ, G.GEIER, G.FARBWENZ, G.FARBGEIER]


@st.composite
def scale_deals(draw: st.DrawFn) -> tuple[SchafkopfDeal, PointScale]:
    game = draw(st.sampled_from(list(SKGame)))
    if game.partner_game:
        declarers = tuple(draw(st.permutations(SEATS))[:2])
    else:
        declarers = (draw(st.sampled_from(SEATS)),)
    kw: dict[str, Any] = {"kontra": draw(st.integers(0, 4)), "gestellt": draw(st.integers(0, 2))}
    if not game.bettel_class:
        kw["laufende"] = draw(st.integers(0, game.max_laufende))
        if draw(st.booleans()):
            kw["player_points"] = draw(st.integers(0, 120))
        else:
            kw["won"] = draw(st.booleans())
            kw["schneider"] = draw(st.booleans())
        if game in SOLO_GAMES and draw(st.booleans()):
            kw["tout"] = True
    else:
        kw["won"] = draw(st.booleans())
    levels = st.tuples(*[st.integers(0, 1000)] * 3)
    scale = PointScale(
        rufspiel=draw(levels), solo=draw(levels), bettel=draw(st.integers(0, 1000)),
        laufender_rufspiel=draw(st.integers(0, 1000)), laufender_solo=draw(st.integers(0, 1000)),
        tout=draw(st.integers(1, 10)), sie=draw(st.integers(1, 10)),
        kontra=draw(st.integers(1, 10)),
    )  # fmt: skip
    return SchafkopfDeal(game, declarers, **kw), scale


@given(scale_deals())
def test_every_deal_on_any_scale_sums_to_zero(case: tuple[SchafkopfDeal, PointScale]) -> None:
    d, scale = case
    res = scale_value(d, scale)
    assert sum(res.deltas.values()) == 0
    opponents = {v for p, v in res.deltas.items() if p not in d.declarers}
    assert len(opponents) == 1  # every opponent pays (or gets) the same
    if not d.game.partner_game:
        assert res.deltas[d.declarers[0]] == -3 * opponents.pop()


def test_the_scale_reads_back_what_it_writes_and_names_bad_fields() -> None:
    scale = PointScale((1, 3, 5), (2, 4, 6), 3, 2, 1, 3, 5, 3)
    e = Errors()
    assert read_scale(scale.to_json(), e) == scale and not e
    assert read_scale(None, e) == DEFAULT_SCALE
    e = Errors()
    read_scale({"rufspiel": {"plain": True}, "kontra": 0, "laufende_min": {"wenz": 9}}, e, "s")
    assert [i.field for i in e.items] == ["s.rufspiel.plain", "s.kontra", "s.laufende_min.wenz"]


def test_a_bad_deal_is_refused_as_by_the_money_rules() -> None:
    with pytest.raises(InvalidDeal):
        scale_value(deal(G.BETTEL, "A", won=True, laufende=3), DEFAULT_SCALE)


# --- the scale in an event's body -------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"scoring": {"kind": "dollars"}}, "scoring.kind"),
        ({"scoring": {"kind": "points", "scale": {"solo": {"schwarz": -4}}}},
         "scoring.scale.solo.schwarz"),
        ({"scoring": {"kind": "points", "scale": {"sie": 11}}}, "scoring.scale.sie"),
        ({"scoring": {"kind": "points", "scale": {"bettel": "2"}}}, "scoring.scale.bettel"),
        ({"scoring": {"kind": "points", "scale": {"ramsch": 1}}}, "scoring.scale"),
        ({"scoring": {"kind": "points", "scale": []}}, "scoring.scale"),
        ({"scoring": {"kind": "money", "scale": {}}}, "scoring.scale"),
        ({"scoring": {"kind": "points", "extra": 1}}, "scoring"),
        ({"scoring": {"kind": "points"}, "rules": {"ramsch": True}}, "rules.ramsch"),
        ({"scoring": {"kind": "points"}, "rules": {"stock": 20}}, "rules.stock"),
        ({"scoring": {"kind": "points"}, "game": "skat"}, "scoring.kind"),
    ],
)  # fmt: skip
def test_a_bad_scale_answers_422_on_its_field(
    client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    r = client.post("/api/v1/events", json={"game": "schafkopf", **body})
    assert r.status_code == 422, r.json
    assert field in r.json["errors"], r.json["errors"]
    assert client.get("/api/v1/events").json["events"] == []


def test_an_event_answers_how_it_counts(client: FlaskClient) -> None:
    money = client.post("/api/v1/events", json={"game": "schafkopf"}).json
    assert money["scoring"] == {"kind": "money"}
    scale = {"rufspiel": {"plain": 2}, "tout": 3}
    points = client.post("/api/v1/events", json={"game": "schafkopf",
                                                  "scoring": {"kind": "points", "scale": scale}}).json  # fmt: skip
    assert points["scoring"]["kind"] == "points"
    assert points["scoring"]["scale"]["rufspiel"] == {"plain": 2, "schneider": 2, "schwarz": 3}
    assert points["scoring"]["scale"]["tout"] == 3
    assert points["rules"]["stake_cents"] == 0  # points are not money: no settlement


# --- a whole tournament -----------------------------------------------------------------------


def seat_body(body: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """A cycle's deal with seat numbers 1-4 for the table's players."""
    out = dict(body)
    if "declarers" in out:
        out["declarers"] = [players[i - 1] for i in out["declarers"]]
    return out


def test_a_tournament_of_rounds_with_a_redraw_and_a_final_of_the_best_four(
    client: FlaskClient,
) -> None:
    data = json.loads((DATA / "event_schafkopf_points.json").read_text(encoding="utf-8"))
    r = client.post("/api/v1/events", json=data["event"])
    assert r.status_code == 201, r.json
    event_id = r.json["id"]
    assert r.json["scoring"]["kind"] == "points"
    r = client.post(f"/api/v1/events/{event_id}/players", json={"names": data["players"]})
    assert r.status_code == 200, r.json
    sheets = []
    for n, series in enumerate(data["series"], start=1):
        if "ranking_before" in series:
            rows = client.get(f"/api/v1/events/{event_id}/ranking").json["rows"]
            assert [row["player"] for row in rows] == series["ranking_before"]
        body = {"seating": series["seating"], **({"seed": series["seed"]} if "seed" in series else {})}  # fmt: skip
        r = client.post(f"/api/v1/events/{event_id}/series", json=body)
        assert r.status_code == 201, r.json
        assert r.json["n"] == n and r.json["seating"] == series["seating"]
        if "repeated_pairs" in series:
            assert r.json["repeated_pairs"] == series["repeated_pairs"]
        if series["seating"] == "final":  # seated from the ranking: not drawn again
            redraw = client.post(f"/api/v1/events/{event_id}/series/{n}/redraw", json={})
            assert redraw.status_code == 409, redraw.json
        tables = r.json["tables"]
        assert [t["players"] for t in tables] == [t["players"] for t in series["tables"]]
        for table, want in zip(tables, series["tables"], strict=True):
            players = table["players"]
            cycle = data["cycles"][want["cycle"]]
            for _ in range(32 // len(cycle)):  # a round of 32 games
                for d in cycle:
                    r = client.post(f"/api/v1/sheets/{table['sheet']}/deals",
                                    json=seat_body(d["body"], players))  # fmt: skip
                    assert r.status_code == 201, (d["note"], r.json)
            sheet = client.get(f"/api/v1/sheets/{table['sheet']}").json
            assert len(sheet["deals"]) == 32
            for row, d in zip(sheet["deals"], cycle * 4, strict=True):
                # the list: each player's plus or minus points, and every deal sums to 0
                assert [row["deltas"][p] for p in players] == d["points"], d["note"]
                assert sum(row["deltas"].values()) == 0
            assert sheet["totals"]["balance"] == want["balance"]
            assert sheet["totals"]["settlement"] == []  # points, no money
            sheets.append(table["sheet"])
    expected = data["expected"]
    ranking = client.get(f"/api/v1/events/{event_id}/ranking").json
    assert ranking["rows"] == expected["ranking"]
    assert ranking["fees_total_cents"] == expected["fees_total_cents"]
    # after the final no series is seated any more
    r = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw"})
    assert r.status_code == 422 and "seating" in r.json["errors"]
    event = client.get(f"/api/v1/events/{event_id}").json
    assert [s["seating"] for s in event["series"]] == ["draw", "draw", "final"]
    assert all(t["left"] == 0 for s in event["series"] for t in s["tables"])
    prizes = client.post(f"/api/v1/events/{event_id}/close", json={}).json
    assert {p["player"]: p["cents"] for p in prizes["rows"] if p["cents"]} == expected["prizes"]
    assert [p["player"] for p in prizes["rows"]] == [p["player"] for p in expected["ranking"]]
    # the table's list as a file: plus and minus points per player and deal, each row 0
    players = data["series"][2]["tables"][0]["players"]
    rows = list(csv.reader(io.StringIO(
        client.get(f"/api/v1/sheets/{sheets[-1]}/export.csv").data.decode("utf-8-sig")),
        delimiter=";"))  # fmt: skip
    head = rows[0]
    cols = [head.index(f"{p} ±") for p in players]
    deals = rows[1:33]
    assert [[int(r[c]) for c in cols] for r in deals[:8]] == [
        d["points"] for d in data["cycles"]["A"]
    ]
    assert all(sum(int(r[c]) for c in cols) == 0 for r in deals)
    ranked = list(csv.reader(io.StringIO(
        client.get(f"/events/{event_id}/ranking.csv").data.decode("utf-8-sig")), delimiter=";"))  # fmt: skip
    assert [r[1] for r in ranked[1:]] == [r["player"] for r in expected["ranking"]]
    assert [int(r[2]) for r in ranked[1:]] == [r["score"] for r in expected["ranking"]]
    pdf = client.get(f"/events/{event_id}/event.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    series_page = client.get(f"/events/{event_id}/series/3").get_data(as_text=True)
    assert "Finale der besten vier" in series_page


def test_the_new_event_page_offers_the_point_scale(client: FlaskClient) -> None:
    form = {"name": "Preisschafkopf", "game": "schafkopf", "entry": "", "lost_fee": "",
            "table_fee": "", "tier_fee": "", "points": "y"}  # fmt: skip
    r = client.post("/events", data={**form, "ramsch": "y"})
    assert r.status_code == 422
    assert "Auf der Turnierwertung wird kein Ramsch gespielt." in r.get_data(as_text=True)
    r = client.post("/events", data=form)
    assert r.status_code == 302, r.get_data(as_text=True)
    event_id = int(r.headers["Location"].split("/")[2])
    event = client.get(f"/api/v1/events/{event_id}").json
    assert event["scoring"] == {"kind": "points", "preset": "default",
                                "scale": DEFAULT_SCALE.to_json()}  # fmt: skip


def test_a_final_needs_a_series_before_it_and_four_ranked_players(client: FlaskClient) -> None:
    event_id = client.post("/api/v1/events", json={"game": "schafkopf", "deals": {"4": 1},
                                                    "scoring": {"kind": "points"}}).json["id"]  # fmt: skip
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCDEFGH")})
    r = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "final"})
    assert r.status_code == 422 and "seating" in r.json["errors"]
    assert client.get(f"/api/v1/events/{event_id}").json["series"] == []
    tables = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "draw"}).json
    for t in tables["tables"]:
        client.post(f"/api/v1/sheets/{t['sheet']}/deals", json={"passed": True})
    regs = client.get(f"/api/v1/events/{event_id}").json["registrations"]
    assert [r["name"] for r in regs] == list("ABCDEFGH")
    for reg_id in range(1, 6):  # five away: three ranked players are present
        r = client.post(f"/events/{event_id}/players/{reg_id}/away")
        assert r.status_code == 302
    assert (
        sum(r["away"] for r in client.get(f"/api/v1/events/{event_id}").json["registrations"]) == 5
    )
    r = client.post(f"/api/v1/events/{event_id}/series", json={"seating": "final"})
    assert r.status_code == 422 and "seating" in r.json["errors"], r.json
