"""Fees by tiers with a table and a team fee, the organiser's paid ticks and the cash check,
and prize plans (places, one prize per N players, series, category and team prizes): a whole
event worked out by hand through the API and the event PDF, the rules as tables of worked
examples, and the laws every prize plan keeps."""

from __future__ import annotations

import io
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from skatcalc.rules.common import Errors, InvalidDeal
from skatcalc.rules.events import (
    Fees,
    FeeTier,
    Payout,
    PayoutKind,
    PrizeKind,
    PrizePlan,
    TableResult,
    Team,
    award,
    cash_check,
    normalize_event,
    rank_event,
    read_fees,
)
from tests.web.test_events import load, run_event

DATA = "event_skat_fees_prizes.json"


def euro(cents: int) -> str:
    whole, rest = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}{whole},{rest:02d}"


def test_fee_tiers_and_prize_plan_of_a_whole_event(client: FlaskClient) -> None:
    data = load(DATA)
    event_id = run_event(client, data)
    for name, category in data["categories"].items():
        r = client.post(f"/api/v1/events/{event_id}/players/category",
                        json={"player": name, "category": category})  # fmt: skip
        assert r.status_code == 200, r.json
    expected = data["expected"]
    ranking = client.get(f"/api/v1/events/{event_id}/ranking").json
    assert ranking["rows"] == expected["ranking"]
    assert ranking["fees_total_cents"] == expected["fees_total_cents"]
    event = client.get(f"/api/v1/events/{event_id}").json
    assert event["fees"] == data["event"]["fees"]
    assert event["teams"] == data["event"]["teams"]
    assert event["payout"] == data["event"]["payout"]
    for player, series in data["ticks"]:
        r = client.post(f"/api/v1/events/{event_id}/fees/paid",
                        json={"player": player, "series": series, "paid": True})  # fmt: skip
        assert r.status_code == 200, r.json
    history = client.get(f"/api/v1/events/{event_id}").json["history"]
    assert sum(1 for h in history if h["action"] == "paid") == len(data["ticks"])
    assert {"player": "Anna", "series": 0, "cents": 700}.items() <= next(
        h for h in history if h["action"] == "paid" and h["player"] == "Anna").items()  # fmt: skip
    cash = client.get(f"/api/v1/events/{event_id}/fees").json
    want = expected["cash"]
    assert (cash["due_cents"], cash["collected_cents"], cash["open_cents"]) == (
        want["due_cents"], want["collected_cents"], want["open_cents"])  # fmt: skip
    assert {p["player"]: [p["due_cents"], p["collected_cents"]] for p in cash["players"]} == (
        want["players"])  # fmt: skip
    prizes = client.post(f"/api/v1/events/{event_id}/close", json=data["close"]).json
    want_p = expected["prizes"]
    assert (prizes["pot_cents"], prizes["paid_cents"], prizes["rest_cents"]) == (
        want_p["pot_cents"], want_p["paid_cents"], want_p["rest_cents"])  # fmt: skip
    assert prizes["prizes"] == want_p["list"]
    assert prizes["teams"] == want_p["teams"]
    assert {r["player"]: r["cents"] for r in prizes["rows"] if r["cents"]} == want_p["cents"]
    assert client.get(f"/api/v1/events/{event_id}/prizes").json["prizes"] == want_p["list"]
    # ticks still count after closing: the money is counted at the end
    r = client.post(f"/api/v1/events/{event_id}/fees/paid",
                    json={"player": "Carla", "series": 1})  # fmt: skip
    assert r.status_code == 200 and r.json["open_cents"] == want["open_cents"] - 300
    # each player's page lists the club night: place, points, prize, series
    regs = {r["name"]: r["player"] for r in client.get(f"/api/v1/events/{event_id}").json[
        "registrations"]}  # fmt: skip
    nights = client.get(f"/api/v1/players/{regs['Anna']}").json["events"]
    assert [(n["event"], n["place"], n["players"], n["score"], n["series"], n["prize_cents"])
            for n in nights] == [(event_id, 7, 7, -210, [120, -330], 500)]  # fmt: skip
    assert nights[0]["prizes"] == [
        {"kind": "series", "place": 1, "cents": 500}
    ]  # Anna & Bernd won no team prize
    fritz = client.get(f"/api/v1/players/{regs['Fritz']}").json["events"][0]
    assert fritz["prize_cents"] == 0
    assert fritz["prizes"] == [{"kind": "team", "place": 1, "cents": 500, "team": "Eva & Fritz"}]
    page = client.get(f"/players/{regs['Anna']}").get_data(as_text=True)
    assert data["event"]["name"] in page and "7. / 7" in page and "5,00" in page
    # the close page and the event PDF show the prizes by kind and the cash check
    page = client.get(f"/events/{event_id}/close").get_data(as_text=True)
    assert "Kassenprüfung" in page and euro(want["due_cents"]) in page
    pdf = client.get(f"/events/{event_id}/event.pdf")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    for line in ("Kassenprüfung", "Eva & Fritz", "Serie 1", "Damen"):
        assert line in text, line
    assert euro(want["due_cents"]) in text
    assert euro(want["collected_cents"] + 300) in text


def test_a_tick_keeps_what_was_due_and_a_correction_shows(client: FlaskClient) -> None:
    data = load(DATA)
    event_id = run_event(client, data)
    r = client.post(f"/api/v1/events/{event_id}/fees/paid", json={"player": "Fritz", "series": 2})
    assert r.json["open_cents"] == 6000 - 150
    # Fritz's lost game of series 2 is corrected to a won one: 0,50 € less due
    sheet = client.get(f"/api/v1/events/{event_id}").json["series"][1]["tables"][1]["sheet"]
    deals = client.get(f"/api/v1/sheets/{sheet}").json["deals"]
    last = deals[-1]
    body = {**data["series"][1]["tables"][1]["deals"][2]["body"], "declarer_points": 75}
    r = client.put(f"/api/v1/sheets/{sheet}/deals/{last['n']}", json=body)
    assert r.status_code == 200, r.json
    cash = client.get(f"/api/v1/events/{event_id}/fees").json
    fritz = next(p for p in cash["players"] if p["player"] == "Fritz")
    item = next(i for i in fritz["items"] if i["series"] == 2)
    assert (item["due_cents"], item["collected_cents"], fritz["open_cents"]) == (100, 150, 550)
    # untick: back to nothing collected
    r = client.post(f"/api/v1/events/{event_id}/fees/paid",
                    json={"player": "Fritz", "series": 2, "paid": False})  # fmt: skip
    assert r.json["collected_cents"] == 0


def test_paid_ticks_need_the_organiser_and_a_played_series(client: FlaskClient) -> None:
    data = load(DATA)
    event_id = run_event(client, data)
    for body, field in [
        ({"player": "Nobody", "series": 1}, "player"),
        ({"player": "Anna", "series": 3}, "series"),
        ({"player": "Anna", "series": -1}, "series"),
        ({"player": "Anna", "series": 1, "paid": "yes"}, "paid"),
        ({"player": "Anna", "series": 1, "extra": 1}, "extra"),
    ]:
        r = client.post(f"/api/v1/events/{event_id}/fees/paid", json=body)
        assert r.status_code == 422 and field in r.json["errors"], (body, r.json)
    r = client.post(f"/api/v1/events/{event_id}/players/category",
                    json={"player": "Anna", "category": "Kinder"})  # fmt: skip
    assert r.status_code == 422 and "category" in r.json["errors"]
    r = client.post(f"/api/v1/events/{event_id}/teams",
                    json={"teams": [{"name": "X", "members": ["Anna", "Zoe"]}]})  # fmt: skip
    assert r.status_code == 422 and "teams.0.members" in r.json["errors"]


def test_the_organiser_ticks_on_the_close_page_and_only_he(lan_app: Flask) -> None:
    c = lan_app.test_client()
    r = c.post("/api/v1/events", json={"game": "skat", "fees": {"entry_cents": 500},
                                       "categories": ["Damen"]})  # fmt: skip
    event_id, token = r.json["id"], r.json["edit_token"]
    auth = {"Authorization": f"Bearer {token}"}
    names = {"names": ["Anna", {"name": "Berta", "category": "Damen"}, "Carl"]}
    r = c.post(f"/api/v1/events/{event_id}/players", json=names, headers=auth)
    assert r.status_code == 200, r.json
    assert r.json["registrations"][1]["category"] == "Damen"
    stranger = lan_app.test_client()
    tick = {"player": "Anna", "series": 0}
    assert stranger.post(f"/api/v1/events/{event_id}/fees/paid", json=tick).status_code == 403
    assert stranger.post(f"/api/v1/events/{event_id}/teams", json={"teams": []}).status_code == 403
    assert stranger.post(f"/api/v1/events/{event_id}/players/category",
                         json={"player": "Anna", "category": None}).status_code == 403  # fmt: skip
    assert stranger.post(f"/events/{event_id}/paid/0", data={"player": "Anna", "paid": "1"}
                         ).status_code == 403  # fmt: skip
    page = stranger.get(f"/events/{event_id}/close").get_data(as_text=True)
    assert "Kassenprüfung" in page and 'name="paid"' not in page
    c.get(f"/events/{event_id}/edit/{token}")
    page = c.get(f"/events/{event_id}/close").get_data(as_text=True)
    assert 'name="paid"' in page
    r = c.post(f"/events/{event_id}/paid/0", data={"player": "Anna", "paid": "1"})
    assert r.status_code == 302
    cash = c.get(f"/api/v1/events/{event_id}/fees").json
    assert (cash["due_cents"], cash["collected_cents"]) == (1500, 500)
    page = c.get(f"/events/{event_id}/close").get_data(as_text=True)
    assert "Anna hat bezahlt: Startgeld, 5,00" in page
    # the organiser sets a category on the registration page
    page = c.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert "<option selected>Damen</option>" in page
    reg = page.split("/players/")[1].split("/")[0]
    r = c.post(f"/events/{event_id}/players/{reg}/category", data={"category": "Damen"})
    assert r.status_code == 302
    regs = c.get(f"/api/v1/events/{event_id}").json["registrations"]
    assert [x.get("category") for x in regs] == ["Damen", "Damen", None]
    assert stranger.post(f"/events/{event_id}/players/{reg}/category",
                         data={"category": ""}).status_code == 403  # fmt: skip


def test_fee_tiers_and_table_fee_from_the_new_event_form(client: FlaskClient) -> None:
    form = {"name": "Stufen", "day": "2026-11-21", "game": "skat", "entry": "5",
            "lost_fee": "0,50", "tier_from": "4", "tier_fee": "1", "table_fee": "1"}  # fmt: skip
    r = client.post("/events", data=form)
    assert r.status_code == 302, r.get_data(as_text=True)
    event_id = int(r.headers["Location"].split("/")[2])
    assert client.get(f"/api/v1/events/{event_id}").json["fees"] == {
        "entry_cents": 500, "table_cents": 100,
        "lost_game_tiers": [{"from": 1, "cents": 50}, {"from": 4, "cents": 100}]}  # fmt: skip
    before = client.get("/api/v1/events").json
    r = client.post("/events", data={**form, "tier_from": "1"})
    assert r.status_code == 422
    assert "ab dem 2. verlorenen Spiel" in r.get_data(as_text=True)
    r = client.post("/events", data={**form, "table_fee": "viel"})
    assert r.status_code == 422
    assert client.get("/api/v1/events").json == before


def test_a_taken_back_registration_takes_its_tick_and_categories_stay_once_closed(
    client: FlaskClient,
) -> None:
    r = client.post("/api/v1/events", json={"game": "skat", "fees": {"entry_cents": 500},
                                            "categories": ["Jugend"]})  # fmt: skip
    event_id = r.json["id"]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": ["Anna", "Bernd", "Carl"]})
    client.post(f"/api/v1/events/{event_id}/fees/paid", json={"player": "Carl", "series": 0})
    assert client.get(f"/api/v1/events/{event_id}/fees").json["collected_cents"] == 500
    reg = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    carl = reg.split("Carl")[1].split("/players/")[1].split("/")[0]
    client.post(f"/events/{event_id}/players/{carl}/remove")
    client.post(f"/api/v1/events/{event_id}/players", json={"names": ["Carl"]})
    assert client.get(f"/api/v1/events/{event_id}/fees").json["collected_cents"] == 0
    client.post(f"/api/v1/events/{event_id}/close", json={})
    r = client.post(f"/api/v1/events/{event_id}/players/category",
                    json={"player": "Anna", "category": "Jugend"})  # fmt: skip
    assert r.status_code == 422
    assert "category" not in client.get(f"/api/v1/events/{event_id}").json["registrations"][0]


def test_the_close_page_sets_the_number_of_prizes(client: FlaskClient) -> None:
    event_id = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
    form = {"payout_kind": "fixed", "payout": "20 / 10", "pot": "", "action": "save"}
    r = client.post(f"/events/{event_id}/close", data={**form, "places": "5"})
    assert r.status_code == 302
    payout = client.get(f"/api/v1/events/{event_id}").json["payout"]
    assert payout == {"kind": "fixed", "values": [2000, 1000], "places": 5}
    page = client.get(f"/events/{event_id}/close").get_data(as_text=True)
    assert 'name="places" value="5"' in page
    for bad, field in [({"places": "2", "per_players": "4"}, "f-places"),
                       ({"places": "viele"}, "f-places"),
                       ({"payout_kind": "shares", "payout": "30", "places": "4"}, "f-places"),
                       ({"per_players": "0"}, "f-per_players")]:  # fmt: skip
        r = client.post(f"/events/{event_id}/close", data={**form, **bad})
        assert r.status_code == 422, bad
        assert 'aria-invalid="true"' in r.get_data(as_text=True).split(f'id="{field}"')[1][:400]
    assert client.get(f"/api/v1/events/{event_id}").json["payout"] == payout
    # saving without a number: as many prizes as amounts again
    client.post(f"/events/{event_id}/close", data=form)
    assert client.get(f"/api/v1/events/{event_id}").json["payout"] == {
        "kind": "fixed", "values": [2000, 1000]}  # fmt: skip


def test_the_organiser_enters_teams_on_the_registration_page(client: FlaskClient) -> None:
    event_id = client.post("/api/v1/events", json={"game": "skat"}).json["id"]
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCDEF")})
    r = client.post(
        f"/events/{event_id}/teams", data={"teams": "Tandem 1: a, B\n\nVier: C, D, E, F"}
    )
    assert r.status_code == 302
    teams = client.get(f"/api/v1/events/{event_id}").json["teams"]
    assert teams == [{"name": "Tandem 1", "members": ["A", "B"]},
                     {"name": "Vier", "members": ["C", "D", "E", "F"]}]  # fmt: skip
    page = client.get(f"/events/{event_id}/players").get_data(as_text=True)
    assert "Vier: C, D, E, F" in page
    r = client.post(f"/events/{event_id}/teams", data={"teams": "X: A, B, C\nY: E, Zoe"},
                    follow_redirects=True)  # fmt: skip
    text = r.get_data(as_text=True)
    assert "Zeile 1: Eine Mannschaft hat 2 (Tandem) oder 4 Spieler." in text
    assert client.get(f"/api/v1/events/{event_id}").json["teams"] == teams
    r = client.post(f"/events/{event_id}/teams", data={"teams": "Y: E, Zoe"}, follow_redirects=True)
    assert "Zeile 1: Zoe ist nicht angemeldet." in r.get_data(as_text=True)
    client.post(f"/events/{event_id}/teams", data={"teams": ""})
    assert "teams" not in client.get(f"/api/v1/events/{event_id}").json


# --- The rules, worked examples -----------------------------------------------------------

TIERS = (FeeTier(1, 50), FeeTier(4, 100))


@pytest.mark.parametrize(
    ("tiers", "flat", "lost", "cents"),
    [
        (TIERS, 0, 0, 0),
        (TIERS, 0, 1, 50),
        (TIERS, 0, 3, 150),  # the first three at 0,50 €
        (TIERS, 0, 4, 250),  # the fourth at 1 €
        (TIERS, 0, 6, 450),
        ((FeeTier(1, 0), FeeTier(2, 30), FeeTier(5, 100)), 0, 5, 190),  # first free, 3 × 30, 100
        ((), 50, 6, 300),  # a flat fee is one tier
        ((), 0, 9, 0),
    ],
)
def test_lost_game_money_by_tiers(
    tiers: tuple[FeeTier, ...], flat: int, lost: int, cents: int
) -> None:
    assert Fees(0, flat, tiers).lost_money(lost) == cents


def test_tiers_count_each_series_afresh_and_the_table_fee_per_series_played() -> None:
    fees = Fees(500, 50, TIERS, table_cents=100)
    results = [TableResult(1, ("A", "B", "C"), {}, {}, {"A": 4}),
               TableResult(2, ("A", "B", "C"), {}, {}, {"A": 4})]  # fmt: skip
    rows = {r.player: r for r in rank_event(["A", "B", "C", "D"], results, 2, fees)}
    assert rows["A"].fees_series == (350, 350)  # 100 table + 3 × 50 + 100, twice; not 8 in a row
    assert rows["A"].fees_cents == 500 + 700
    assert rows["B"].fees_cents == 700
    assert rows["D"].fees_cents == 500  # registered, never seated: the entry fee only


@pytest.mark.parametrize(
    ("fees", "field"),
    [
        ({"lost_game_tiers": [{"from": 2, "cents": 50}]}, "fees.lost_game_tiers"),
        (
            {"lost_game_tiers": [{"from": 1, "cents": 50}, {"from": 1, "cents": 60}]},
            "fees.lost_game_tiers",
        ),  # fmt: skip
        (
            {"lost_game_tiers": [{"from": 1, "cents": 50}, {"from": 4, "cents": -1}]},
            "fees.lost_game_tiers",
        ),  # fmt: skip
        ({"lost_game_tiers": [{"from": 1, "cents": 0.5}]}, "fees.lost_game_tiers"),
        ({"lost_game_tiers": [{"from": 1, "cents": 50, "x": 1}]}, "fees.lost_game_tiers"),
        ({"lost_game_tiers": []}, "fees.lost_game_tiers"),
        ({"lost_game_tiers": "50"}, "fees.lost_game_tiers"),
        (
            {"lost_game_tiers": [{"from": 1, "cents": 50}], "lost_game_cents": 50},
            "fees.lost_game_tiers",
        ),  # fmt: skip
        ({"table_cents": -100}, "fees.table_cents"),
        ({"table_cents": 1.5}, "fees.table_cents"),
        ({"tip_cents": 1}, "fees"),
    ],
)
def test_bad_fees_are_refused_on_their_field(fees: dict[str, Any], field: str) -> None:
    e = Errors()
    read_fees(fees, e)
    assert field in {i.field for i in e.items}


def test_bad_fees_and_plans_answer_422_and_store_nothing(client: FlaskClient) -> None:
    before = client.get("/api/v1/events").json["events"]
    for body, field in [
        ({"fees": {"lost_game_tiers": [{"from": 3, "cents": 50}]}}, "fees.lost_game_tiers"),
        ({"payout": {"kind": "shares", "values": [30], "places": 4}}, "payout.places"),
        (
            {"payout": {"kind": "fixed", "values": [500], "places": 2, "per_players": 4}},
            "payout.places",
        ),  # fmt: skip
        ({"series_prizes": {"kind": "fixed", "values": [-5]}}, "series_prizes.values"),
        ({"category_prizes": {"kind": "fixed", "values": [300]}}, "category_prizes"),
        ({"categories": ["Damen", "Damen"]}, "categories"),
        ({"teams": [{"name": "T", "members": ["A", "B", "C"]}]}, "teams.0.members"),
        (
            {"teams": [{"name": "T", "members": ["A", "B"]}, {"name": "U", "members": ["B", "C"]}]},
            "teams.1.members",
        ),  # fmt: skip
        ({"team_payout": {"kind": "tombola", "values": [1]}}, "team_payout.kind"),
    ]:
        r = client.post("/api/v1/events", json={"game": "skat", **body})
        assert r.status_code == 422 and field in r.json["errors"], (body, r.json)
    assert client.get("/api/v1/events").json["events"] == before


def rows_of(scores: dict[str, list[int]]) -> tuple[Any, ...]:
    """Players with their score per series, each series at one table."""
    players = list(scores)
    n = len(next(iter(scores.values())))
    results = [TableResult(s + 1, tuple(players), {p: scores[p][s] for p in players}, {}, {})
               for s in range(n)]  # fmt: skip
    return rank_event(players, results, n, Fees(0))


FIXED = PayoutKind.FIXED
SHARES = PayoutKind.SHARES


@pytest.mark.parametrize(
    ("payout", "scores", "pot", "want"),
    [
        # one prize per 2 players, rounded up: 5 players → 3 prizes, the last value repeats
        (
            Payout(FIXED, (300, 100), per_players=2),
            [50, 40, 30, 20, 10],
            0,
            [300, 100, 100, 0, 0],
        ),  # fmt: skip
        (Payout(SHARES, (50,), places=2), [50, 40, 30], 1000, [500, 500, 0]),
        # places 2 and 3 tie beyond the last prize: they share the second prize
        (Payout(FIXED, (300, 100), places=2), [50, 40, 40], 0, [300, 50, 50]),
        # shares never pay more than the pot: the third place gets what is left
        (Payout(SHARES, (60, 30), per_players=1), [3, 2, 1], 1000, [600, 300, 100]),
    ],
)
def test_overall_places_and_prizes_per_players(
    payout: Payout, scores: list[int], pot: int, want: list[int]
) -> None:
    names = [f"P{i}" for i in range(len(scores))]
    rows = rows_of({n: [s] for n, s in zip(names, scores, strict=True)})
    got = award(rows, PrizePlan(payout), pot, {})
    assert [got.cents_of(n) for n in names] == want


@pytest.mark.parametrize(
    ("plan", "cats", "want"),
    [
        # A wins overall and series 1; the series prize moves to the next in line, B
        (
            PrizePlan(Payout(FIXED, (100,)), Payout(FIXED, (10,))),
            {},
            {"A": ("overall", 100), "B": ("series", 10), "C": ("series", 10)},
        ),  # fmt: skip
        # the category prize goes to the best of the category without a prize
        (
            PrizePlan(Payout(FIXED, (100,)), None, ("Damen",), Payout(FIXED, (5,))),
            {"A": "Damen", "C": "Damen", "D": "Damen"},
            {"A": ("overall", 100), "C": ("category", 5)},
        ),  # fmt: skip
        # series before category: D takes series 2 and leaves the category to E
        (
            PrizePlan(
                Payout(FIXED, (100,)), Payout(FIXED, (10,)), ("Jugend",), Payout(FIXED, (5,))
            ),
            {"C": "Jugend", "E": "Jugend", "B": "Jugend"},
            {"A": ("overall", 100), "B": ("series", 10), "C": ("series", 10), "E": ("category", 5)},
        ),  # fmt: skip
    ],
)
def test_a_player_takes_his_highest_prize_only(
    plan: PrizePlan, cats: dict[str, str], want: dict[str, tuple[str, int]]
) -> None:
    # series 1: A 30, B 20, C 10 ...; series 2: A 30, C 20, B 5 ...
    rows = rows_of({"A": [30, 30], "B": [20, 5], "C": [10, 20], "D": [0, 0], "E": [-10, -20]})
    got = award(rows, plan, 0, cats)
    assert {p.winner: (p.kind.value, p.cents) for p in got.prizes if p.cents} == want
    assert len({p.winner for p in got.prizes}) == len(got.prizes)


def test_teams_rank_by_the_sum_of_their_members() -> None:
    rows = rows_of({"A": [30], "B": [-20], "C": [5], "D": [4], "E": [1], "F": [1]})
    teams = (Team("AB", ("A", "B")), Team("CD", ("C", "D")), Team("EF", ("E", "F")))
    plan = PrizePlan(Payout(FIXED, ()), teams=teams, team_payout=Payout(FIXED, (60, 20)))
    got = award(rows, plan, 0, {})
    assert [(p.kind, p.winner, p.score, p.cents, p.members) for p in got.prizes] == [
        (PrizeKind.TEAM, "AB", 10, 60, ("A", "B")), (PrizeKind.TEAM, "CD", 9, 20, ("C", "D"))]  # fmt: skip
    # a team prize stands beside a member's own prize: not counted as his
    assert got.cents_of("A") == 0
    # teams of four; equal sums share the prizes of their places
    fours = (Team("ABCD", ("A", "B", "C", "D")), Team("EF..", ("E", "F", "G", "H")))
    rows = rows_of({"A": [10], "B": [0], "C": [0], "D": [0], "E": [4], "F": [3], "G": [2],
                    "H": [1]})  # fmt: skip
    plan = PrizePlan(Payout(FIXED, ()), teams=fours, team_payout=Payout(FIXED, (61, 20)))
    assert [(p.place, p.cents) for p in award(rows, plan, 0, {}).prizes] == [(1, 41), (1, 40)]


def test_the_team_fee_is_due_once_per_team_from_its_first_member() -> None:
    fees = Fees(500, 0, team_cents=200)
    rows = rows_of({"A": [1], "B": [2], "C": [3], "D": [4]})
    cash = cash_check(rows, fees, (Team("T", ("C", "A")),), {("C", 0): 700})
    due = {c.player: c.due_cents for c in cash.rows}
    assert due == {"D": 500, "C": 700, "B": 500, "A": 500}
    assert (cash.due_cents, cash.paid_cents, cash.open_cents) == (2200, 700, 1500)


def test_the_flat_lost_game_fee_of_old_events_is_one_tier() -> None:
    spec = normalize_event({"game": "skat", "fees": {"entry_cents": 500, "lost_game_cents": 50}},
                           "2026-11-25")  # fmt: skip
    assert spec.fees.ladder() == (FeeTier(1, 50),)
    with pytest.raises(InvalidDeal):
        normalize_event({"game": "skat", "fees": {"lost_game_tiers": [{"from": 0, "cents": 5}]}},
                        "2026-11-25")  # fmt: skip


# --- Laws ------------------------------------------------------------------------------------

shares = st.builds(
    lambda values, places, per: Payout(SHARES, tuple(values), places, per),
    st.lists(st.integers(0, 60), min_size=1, max_size=5),
    st.none() | st.integers(1, 12),
    st.none() | st.integers(1, 5),
)


@settings(max_examples=150, deadline=None)
@given(
    scores=st.lists(
        st.lists(st.integers(-300, 300), min_size=2, max_size=2), min_size=3, max_size=12
    ),  # fmt: skip
    overall=shares,
    series=st.none() | shares,
    category=st.none() | shares,
    team=st.none() | shares,
    pot=st.integers(0, 100_000),
    cat_of=st.lists(st.sampled_from(["Damen", "Jugend", None]), min_size=12, max_size=12),
)
def test_prizes_never_exceed_the_pot_and_each_goes_to_a_distinct_player(
    scores: list[list[int]], overall: Payout, series: Payout | None, category: Payout | None,
    team: Payout | None, pot: int, cat_of: list[str | None],
) -> None:  # fmt: skip
    names = [f"P{i}" for i in range(len(scores))]
    rows = rows_of(dict(zip(names, scores, strict=True)))
    cats = {n: c for n, c in zip(names, cat_of, strict=False) if c}
    teams = tuple(Team(f"T{i}", (names[i], names[i + 1])) for i in range(0, len(names) - 1, 2))
    plan = PrizePlan(overall, series, ("Damen", "Jugend"), category, teams, team)
    got = award(rows, plan, pot, cats)
    assert got.paid_cents <= pot
    assert got.rest_cents >= 0
    assert all(p.cents >= 0 for p in got.prizes)
    players = [p.winner for p in got.prizes if p.kind is not PrizeKind.TEAM]
    assert len(players) == len(set(players))
