"""Every event setting on the new-event page: the one mapping of page fields and API body
(round trips as laws), the page's checks, goods prizes (in the rules, the API, the close
page, the CSV and the PDF, never money) and the ranking page's full fee rule."""

from __future__ import annotations

import copy
import io
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from skatcalc.rules.events import (
    Payout,
    PayoutKind,
    PrizePlan,
    RankRow,
    award,
    normalize_event,
)
from skatcalc.web.event_settings import FIELDS, settings_body, settings_fields
from tests.web.test_events import load, run_event

cents = st.integers(1, 1_000_000)
goods = st.sampled_from(["Gans", "Präsentkorb", "Ente mit Rotkohl", "Buch", "Wein 2x"])
names = st.sampled_from(["Anna", "Bernd", "Carla", "Dieter", "Eva", "Fritz", "Gerd", "Hanna"])


@st.composite
def payouts(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["fixed", "shares"]))
    money = st.integers(0, 30) if kind == "shares" else st.integers(0, 10_000_000)
    values = draw(st.lists(st.one_of(money, goods), min_size=1, max_size=3))
    out: dict[str, Any] = {"kind": kind, "values": values}
    extra = draw(st.sampled_from([None, "places", "per_players"]))
    if extra is not None:
        out[extra] = draw(st.integers(1, 3 if kind == "shares" else 1000))
    return out


@st.composite
def bodies(draw: st.DrawFn) -> dict[str, Any]:
    """The mapping's part of valid API bodies, as the page can hold them (at most four tiers,
    no separators inside names)."""
    body: dict[str, Any] = {}
    fees: dict[str, Any] = {}
    for key in ("entry_cents", "table_cents", "team_cents"):
        if draw(st.booleans()):
            fees[key] = draw(cents)
    starts = draw(st.lists(st.integers(2, 40), max_size=3, unique=True))
    if starts:
        fees["lost_game_tiers"] = [{"from": s, "cents": draw(st.integers(0, 100_000))}
                                   for s in [1, *sorted(starts)]]  # fmt: skip
    elif draw(st.booleans()):
        fees["lost_game_cents"] = draw(cents)
    if fees:
        body["fees"] = fees
    for key in ("payout", "series_prizes", "team_payout"):
        if draw(st.booleans()):
            body[key] = draw(payouts())
    if draw(st.booleans()):
        body["categories"] = draw(st.lists(st.sampled_from(["Damen", "Senioren", "Jugend",
                                                            "Herren 60+"]), min_size=1,
                                           unique=True))  # fmt: skip
        if draw(st.booleans()):
            body["category_prizes"] = draw(payouts())
    if draw(st.booleans()):
        players = draw(st.lists(names, min_size=2, max_size=8, unique=True))
        size = draw(st.sampled_from([2, 4]))
        groups = [players[i : i + size] for i in range(0, len(players) - size + 1, size)]
        if groups:
            body["teams"] = [{"name": f"Team {i + 1}", "members": g} for i, g in enumerate(groups)]
    if draw(st.booleans()):
        body["pot_cents"] = draw(st.integers(0, 100_000_000))
    if draw(st.booleans()):
        body["double_entry"] = True
    return body


@settings(max_examples=150, deadline=None)
@given(bodies(), st.sampled_from(["de", "en"]))
def test_body_to_page_to_body_and_page_to_body_to_page(body: dict[str, Any], lang: str) -> None:
    normalize_event({"game": "skat", **body}, "2026-11-21")  # a body the API takes
    fields = settings_fields(body, lang)
    assert set(fields) == set(FIELDS)
    again, errors = settings_body(fields, lang)
    assert errors == []
    assert again == body
    assert settings_fields(again, lang) == fields


def test_a_page_form_reads_as_the_api_body() -> None:
    form = {"entry": "10", "lost_fee": "0,50", "tier_from": "4", "tier_fee": "1",
            "tier3_from": "7", "tier3_fee": "1,50", "table_fee": "2", "team_fee": "5",
            "payout_kind": "shares", "payout": "40 / 25 / Gans", "payout_places": "5",
            "series_kind": "fixed", "series_values": "10 / Präsentkorb",
            "categories": "Damen, Senioren ,Jugend", "category_kind": "fixed",
            "category_values": "Sekt", "teams": "Nord: Anna, Bernd\nSüd: Carla; Dieter",
            "team_kind": "fixed", "team_values": "20", "pot": "300,00", "double_entry": "y"}  # fmt: skip
    body, errors = settings_body(form, "de")
    assert errors == []
    assert body == {
        "fees": {"entry_cents": 1000, "table_cents": 200, "team_cents": 500,
                 "lost_game_tiers": [{"from": 1, "cents": 50}, {"from": 4, "cents": 100},
                                     {"from": 7, "cents": 150}]},
        "payout": {"kind": "shares", "values": [40, 25, "Gans"], "places": 5},
        "series_prizes": {"kind": "fixed", "values": [1000, "Präsentkorb"]},
        "categories": ["Damen", "Senioren", "Jugend"],
        "category_prizes": {"kind": "fixed", "values": ["Sekt"]},
        "teams": [{"name": "Nord", "members": ["Anna", "Bernd"]},
                  {"name": "Süd", "members": ["Carla", "Dieter"]}],
        "team_payout": {"kind": "fixed", "values": [2000]},
        "pot_cents": 30000,
        "double_entry": True,
    }  # fmt: skip


FULL_FORM = {"name": "Preisskat", "day": "2026-11-21", "game": "skat", "deals4": "4",
             "deals3": "3", "entry": "10", "lost_fee": "0,50", "tier_from": "4",
             "tier_fee": "1", "tier3_from": "7", "tier3_fee": "1,50", "table_fee": "2",
             "team_fee": "5", "payout_kind": "shares", "payout": "40 / 25 / Gans",
             "series_kind": "fixed", "series_values": "10", "categories": "Damen, Jugend",
             "category_kind": "fixed", "category_values": "Sekt",
             "teams": "Nord: Anna, Bernd", "team_kind": "fixed", "team_values": "20",
             "double_entry": "y"}  # fmt: skip


def test_every_setting_from_the_new_event_page(client: FlaskClient) -> None:
    r = client.post("/events", data=FULL_FORM)
    assert r.status_code == 302, r.get_data(as_text=True)
    event_id = int(r.headers["Location"].split("/")[2])
    event = client.get(f"/api/v1/events/{event_id}").json
    assert event["fees"] == {"entry_cents": 1000, "table_cents": 200, "team_cents": 500,
                             "lost_game_tiers": [{"from": 1, "cents": 50},
                                                 {"from": 4, "cents": 100},
                                                 {"from": 7, "cents": 150}]}  # fmt: skip
    assert event["payout"] == {"kind": "shares", "values": [40, 25, "Gans"]}
    assert event["series_prizes"] == {"kind": "fixed", "values": [1000]}
    assert event["categories"] == ["Damen", "Jugend"]
    assert event["category_prizes"] == {"kind": "fixed", "values": ["Sekt"]}
    assert event["teams"] == [{"name": "Nord", "members": ["Anna", "Bernd"]}]
    assert event["team_payout"] == {"kind": "fixed", "values": [2000]}
    assert event["double_entry"] is True
    # the ranking page states the fee rule in full: every tier, the table and the team fee
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    for text in ("Startgeld 10,00 €", "ab dem 1. 0,50 €", "ab dem 4. 1,00 €", "ab dem 7. 1,50 €",
                 "Tischgeld 2,00 € je Serie", "Mannschaftsgeld 5,00 €"):  # fmt: skip
        assert text in page, text


def test_a_bad_setting_is_told_beside_its_field_and_nothing_is_made(client: FlaskClient) -> None:
    before = client.get("/api/v1/events").json
    for field, value, told in [
        ("tier3_from", "1", "ab dem 2. verlorenen Spiel"),
        ("tier3_from", "", "Ab welchem verlorenen Spiel"),
        ("tier3_from", "3", "steigen an"),  # 3 after 4: the rules' check
        ("team_fee", "viel", "Betrag in Euro"),
        ("series_values", "10 / ?", "Zahlen oder Sachpreise"),
        ("payout", "60 / 50", "mehr als der ganze Topf"),
        ("teams", "Nord: Anna", "2 (Tandem) oder 4"),
        ("category_values", "Sekt / 1,234", "Zahlen oder Sachpreise"),
        ("categories", "", "brauchen"),
        ("payout_places", "x", "ganze Zahl"),
    ]:
        r = client.post("/events", data={**FULL_FORM, field: value})
        assert r.status_code == 422, (field, value)
        html = r.get_data(as_text=True)
        assert told in html, (field, value)
        at = html.index(told)
        # the message stands right after its field (the rules' tier check after the tiers,
        # category prizes without categories at the category prizes)
        near = {"steigen an": "tier_fee", "brauchen": "category_values"}.get(told, field)
        assert f'name="{near}"' in html[max(0, at - 400) : at], (field, value)
    assert client.get("/api/v1/events").json == before


# --- Goods prizes -------------------------------------------------------------------------------


def _rows(scores: list[int]) -> tuple[RankRow, ...]:
    ordered = sorted(scores, reverse=True)
    return tuple(RankRow(1 + ordered.index(s), f"P{i}", s, 0, 0, 0, (s,), (True,))
                 for i, s in enumerate(ordered))  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=12),
       st.lists(st.one_of(st.integers(0, 40), goods), min_size=1, max_size=5),
       st.sampled_from(list(PayoutKind)), st.integers(0, 100_000))  # fmt: skip
def test_goods_prizes_are_never_money(scores: list[int], values: list[int | str],
                                      kind: PayoutKind, pot: int) -> None:  # fmt: skip
    rows = _rows(scores)
    with_goods = award(rows, PrizePlan(Payout(kind, tuple(values))), pot, {})
    as_zero = award(rows, PrizePlan(Payout(kind, tuple(0 if isinstance(v, str) else v
                                                       for v in values))), pot, {})  # fmt: skip
    assert [p.cents for p in with_goods.prizes] == [p.cents for p in as_zero.prizes]
    assert with_goods.paid_cents == sum(p.cents for p in with_goods.prizes)
    assert with_goods.rest_cents == pot - with_goods.paid_cents
    # a goods prize alone is worth 0 cents (with a tie its winner shares the places' money)
    alone = {r.rank for r in rows if sum(1 for o in rows if o.rank == r.rank) == 1}
    assert all(p.cents == 0 for p in with_goods.prizes if p.goods and p.place in alone)
    # each goods prize goes to the player in its place (ties too: goods are not shared)
    placed = [(p.winner, p.goods) for p in with_goods.prizes if p.goods]
    assert placed == [(rows[i].player, v) for i, v in enumerate(values[: len(rows)])
                      if isinstance(v, str)]  # fmt: skip


def test_goods_prizes_through_the_api_the_close_page_csv_and_pdf(client: FlaskClient) -> None:
    data = copy.deepcopy(load("event_skat_fees_prizes.json"))
    money = copy.deepcopy(data)
    data["event"]["payout"] = {"kind": "shares", "values": [30, 20, "Gans"]}
    money["event"]["payout"] = {"kind": "shares", "values": [30, 20, 0]}
    won = {}
    for name, d in (("goods", data), ("money", money)):
        event_id = run_event(client, d)
        for player, category in d["categories"].items():
            client.post(f"/api/v1/events/{event_id}/players/category",
                        json={"player": player, "category": category})  # fmt: skip
        won[name] = (event_id, client.post(f"/api/v1/events/{event_id}/close", json={}).json)
    event_id, prizes = won["goods"]
    _, plain = won["money"]
    third = prizes["prizes"][2]
    assert (third["kind"], third["place"], third["cents"], third["goods"]) == (
        "overall", 3, 0, "Gans")  # fmt: skip
    assert "goods" not in plain["prizes"][2]
    # never added to money: the same sums as a prize of 0 €
    for key in ("pot_cents", "paid_cents", "rest_cents"):
        assert prizes[key] == plain[key], key
    assert [p["cents"] for p in prizes["prizes"]] == [p["cents"] for p in plain["prizes"]]
    row = next(r for r in prizes["rows"] if r["player"] == third["player"])
    assert (row["cents"], row["goods"]) == (0, "Gans")
    page = client.get(f"/events/{event_id}/close").get_data(as_text=True)
    assert "Gans" in page
    csv = client.get(f"/events/{event_id}/ranking.csv").get_data(as_text=True)
    head = csv.splitlines()[0].split(";")
    line = next(x for x in csv.splitlines() if x.split(";")[1] == third["player"]).split(";")
    # the money column says 0 and the goods prize stands in its own column beside it
    money, goods = head.index("Preis (Cent)"), head.index("Sachpreis")
    assert goods == money + 1 and (line[money], line[goods]) == ("0", "Gans")
    pdf = client.get(f"/events/{event_id}/event.pdf").data
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages[:2])
    assert "Gans" in text
    # the close page's form takes goods too, and shows them again (a closed event keeps its
    # payout: the organiser reopens it first)
    assert client.post(f"/api/v1/events/{event_id}/reopen", json={}).status_code == 200
    r = client.post(f"/events/{event_id}/close",
                    data={"payout_kind": "fixed", "payout": "20 / Präsentkorb",
                          "action": "save"})  # fmt: skip
    assert r.status_code == 302
    assert client.get(f"/api/v1/events/{event_id}").json["payout"] == {
        "kind": "fixed", "values": [2000, "Präsentkorb"]}  # fmt: skip
    assert "20 / Präsentkorb" in client.get(f"/events/{event_id}/close").get_data(as_text=True)


def test_a_goods_prize_needs_a_name_with_letters(client: FlaskClient) -> None:
    for bad in ["", "   ", "12", "Buch/CD", "x" * 41, "Gans\x00"]:
        r = client.post(
            "/api/v1/events", json={"game": "skat", "payout": {"kind": "fixed", "values": [bad]}}
        )
        assert r.status_code == 422, bad
        assert "payout.values" in r.json["errors"], bad
    r = client.post("/api/v1/events", json={"game": "skat", "payout": {
        "kind": "fixed", "values": [5000, "  Gans   mit Rotkohl "]}})  # fmt: skip
    assert r.status_code == 201
    assert r.json["payout"]["values"] == [5000, "Gans mit Rotkohl"]


typed = st.one_of(st.text(max_size=30), st.sampled_from(["0", "1", "2,5", "Gans", "10 / Gans",
                                                         "-1", "1e9", "99999999999", "a: b"]))  # fmt: skip


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.dictionaries(st.sampled_from([f for f in FIELDS if f != "double_entry"]), typed,
                       max_size=8))  # fmt: skip
def test_any_text_in_the_settings_is_made_or_told_never_500(
    client: FlaskClient, fields: dict[str, str]
) -> None:
    r = client.post("/events", data={"game": "skat", **fields})
    assert r.status_code in (302, 422), r.get_data(as_text=True)[:500]
