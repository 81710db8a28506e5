"""Schafkopf house rules of real tables (docs/rules.md 2.7): split prices for Schneider and
Laufende, the Stock, and five at the table; each worked example of the rule book at four and
at five players, the API's answers, and the laws (every row with its Stock sums to 0)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.games.schafkopf.values import SchafkopfDeal, SKGame, schafkopf_ramsch, schafkopf_value
from skatcalc.rules import InvalidDeal
from skatcalc.rules.sheet import DealRecord, SheetSpec, compute_sheet, default_active
from skatcalc.serialize import computed_json

FOUR = ("A", "B", "C", "D")
FIVE = ("A", "B", "C", "D", "E")


def sheet(players: tuple[str, ...], rules: dict[str, Any], bodies: list[dict[str, Any]],
          first: str = "A") -> dict[str, Any]:  # fmt: skip
    """The computed sheet (as the API shapes it) of these deal bodies, dealt in rotation."""
    spec = SheetSpec("schafkopf", players, first, {"stake_cents": 1, **rules})
    deals, dealer = [], first
    for n, body in enumerate(bodies, start=1):
        deals.append(DealRecord(n, dealer, default_active(spec, dealer), body))
        dealer = players[(players.index(dealer) + 1) % len(players)]
    return computed_json(compute_sheet(spec, deals))


def rows(data: dict[str, Any], players: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """Each deal as (its deltas in seat order, its stock)."""
    return [(tuple(d["deltas"][p] for p in players), d.get("stock")) for d in data["deals"]]


# --- Split prices: "schneider" and "laufende" (rules.md 2.7) ---------------------------------

STAMMTISCH = {"sauspiel": 5, "solo": 20, "schneider": 10, "laufende": 5}

# (id, tariffs, deal, value)
PRICES = [
    ("rule-book: Sauspiel won Schneider, 3 Laufende = 5 + 10 + 3 x 5",
     STAMMTISCH, dict(game=SKGame.SAUSPIEL, declarers=("A", "B"), won=True, schneider=True,
                      laufende=3), 30),
    ("Solo won schwarz, 4 Laufende = 20 + 10 + 10 + 4 x 5",
     STAMMTISCH, dict(game=SKGame.SOLO, declarers=("A",), won=True, schneider=True,
                      schwarz=True, laufende=4), 60),
    ("only schneider set: Laufende still cost extra",
     {"schneider": 25}, dict(game=SKGame.WENZ, declarers=("A",), player_points=95,
                             laufende=2), 20 + 25 + 2 * 10),
    ("only laufende set: Schneider still costs extra",
     {"laufende": 1}, dict(game=SKGame.SAUSPIEL, declarers=("A", "B"), player_points=20,
                           laufende=4), 10 + 10 + 4),
    ("neither set: as before (extra for both)",
     {"extra": 7}, dict(game=SKGame.SAUSPIEL, declarers=("A", "B"), player_points=95,
                        laufende=3), 10 + 7 + 3 * 7),
]  # fmt: skip


@pytest.mark.parametrize(("tariffs", "deal", "value"), [p[1:] for p in PRICES],
                         ids=[p[0] for p in PRICES])  # fmt: skip
def test_schneider_and_laufende_have_their_own_prices(
    tariffs: dict[str, int], deal: dict[str, Any], value: int
) -> None:
    assert schafkopf_value(SchafkopfDeal(tariffs=tariffs, **deal)).value == value


@pytest.mark.parametrize("players", [FOUR, FIVE], ids=["four", "five"])
def test_split_prices_on_a_sheet_at_four_and_five(players: tuple[str, ...]) -> None:
    # dealer A: at five A sits out; B+C win the rule book's Sauspiel (30 each)
    body = {"game": "sauspiel", "declarers": ["B", "C"], "won": True, "schneider": True,
            "laufende": 3}  # fmt: skip
    data = sheet(players, {"tariffs": STAMMTISCH}, [body])
    deltas = data["deals"][0]["deltas"]
    assert (deltas["B"], deltas["C"]) == (30, 30)
    assert sum(deltas.values()) == 0
    if len(players) == 5:
        assert deltas["A"] == 0 and deltas["D"] == deltas["E"] == -30
    else:
        assert deltas["A"] == deltas["D"] == -30


@pytest.mark.parametrize(("tariffs", "each"), [({"solo": 20, "schneider": 15}, 50),
                                              ({"solo": 20}, 40)])  # fmt: skip
def test_a_durchmarsch_is_paid_like_a_solo_won_schwarz_at_the_schneider_price(
    tariffs: dict[str, int], each: int
) -> None:
    r = schafkopf_ramsch(FOUR, {"A": 120, "B": 0, "C": 0, "D": 0}, durchmarsch="A",
                         tariffs=tariffs)  # fmt: skip
    assert r.deltas == {"A": 3 * each, "B": -each, "C": -each, "D": -each}


def test_the_old_tariffs_compute_as_before() -> None:
    # no schneider or laufende key: the seed's Wenz (extra 10 for both)
    deal = SchafkopfDeal(SKGame.WENZ, ("B",), won=True, schneider=True, laufende=3, gestellt=1)
    assert schafkopf_value(deal).value == 120


# --- The Stock (rules.md 2.7) -----------------------------------------------------------------

PASS: dict[str, Any] = {"passed": True}


def sau(a: str, b: str, won: bool = True) -> dict[str, Any]:
    return {"game": "sauspiel", "declarers": [a, b], "won": won}


def solo(a: str, won: bool = True, game: str = "solo") -> dict[str, Any]:
    return {"game": game, "declarers": [a], "won": won}


# (id, stock rule, deals, each deal's (deltas A B C D, stock), Stock at the end, what goes back)
STOCKS = [
    ("rule-book evening: passed, then A+B win a Sauspiel and take 40 each",
     {"cents": 20}, {"sauspiel": 20}, [PASS, sau("A", "B")],
     [((-20, -20, -20, -20), 80), ((60, 60, -20, -20), -80)], 0, (0, 0, 0, 0)),
    ("a bare number is short for any/leave; a lost game leaves the Stock",
     20, {}, [PASS, sau("A", "B", won=False), solo("C")],
     [((-20, -20, -20, -20), 80), ((-10, -10, 10, 10), 0), ((-20, -20, 140, -20), -80)],
     0, (0, 0, 0, 0)),
    ("double: the lost soloist pays as much again; the next winners take all",
     {"cents": 10, "lost": "double"}, {}, [PASS, solo("C", won=False), sau("D", "A")],
     [((-10, -10, -10, -10), 40), ((20, 20, -100, 20), 40), ((50, -10, -10, 50), -80)],
     0, (0, 0, 0, 0)),
    ("double by a Sauspiel party: half each",
     {"cents": 10, "lost": "double"}, {}, [PASS, sau("A", "B", won=False)],
     [((-10, -10, -10, -10), 40), ((-30, -30, 10, 10), 40)], 80, (30, 30, 10, 10)),
    ("rufspiel: a won Wenz leaves the Stock, the next won Sauspiel takes it",
     {"cents": 10, "taken_by": "rufspiel"}, {}, [PASS, solo("B", game="wenz"), sau("A", "C")],
     [((-10, -10, -10, -10), 40), ((-20, 60, -20, -20), 0), ((30, -10, 30, -10), -40)],
     0, (0, 0, 0, 0)),
    ("rufspiel and double: a lost Solo leaves the Stock, a lost Sauspiel doubles it",
     {"cents": 10, "taken_by": "rufspiel", "lost": "double"}, {},
     [PASS, solo("B", won=False), sau("C", "D", won=False)],
     [((-10, -10, -10, -10), 40), ((20, -60, 20, 20), 0), ((10, 10, -30, -30), 40)],
     80, (10, 10, 30, 30)),
    ("a Ramsch leaves the Stock; left at the end it goes back as paid in",
     {"cents": 10, "lost": "double"}, {},
     [PASS, {"game": "ramsch", "points": {"A": 60, "B": 20, "C": 20, "D": 20}},
      solo("A", won=False)],
     [((-10, -10, -10, -10), 40), ((-30, 10, 10, 10), 0), ((-100, 20, 20, 20), 40)],
     80, (50, 10, 10, 10)),
]  # fmt: skip


@pytest.mark.parametrize(("stock", "tariffs", "bodies", "expected", "left", "back"),
                         [s[1:] for s in STOCKS], ids=[s[0] for s in STOCKS])  # fmt: skip
def test_the_stock_at_four(stock: object, tariffs: dict[str, int], bodies: list[dict[str, Any]],
                           expected: list[Any], left: int, back: tuple[int, ...]) -> None:  # fmt: skip
    data = sheet(FOUR, {"stock": stock, "tariffs": tariffs, "ramsch": True}, bodies)
    assert rows(data, FOUR) == expected
    for d in data["deals"]:
        assert sum(d["deltas"].values()) + d["stock"] == 0
    assert data["totals"]["stock"] == left
    assert tuple(data["totals"]["stock_back"][p] for p in FOUR) == back


def test_the_stock_at_five_costs_only_the_four_who_play() -> None:
    # dealer A sits out of deal 1, B of deal 2: the passed deal costs B C D E; then the Stock
    # goes to C+D's Sauspiel; the dealer (B) neither pays nor takes
    data = sheet(FIVE, {"stock": 20}, [PASS, sau("C", "D")])
    assert rows(data, FIVE) == [
        ((0, -20, -20, -20, -20), 80),
        ((-10, 0, 50, 50, -10), -80),
    ]
    assert data["totals"]["stock"] == 0


def test_a_stock_left_at_the_end_goes_back_in_the_settlement() -> None:
    # A lost a Solo with the Stock doubled: 80 in it, A paid 50, the others 10 each
    data = sheet(FOUR, {"stock": {"cents": 10, "lost": "double"}}, [PASS, solo("A", won=False)])
    assert data["totals"]["balance"] == {"A": -110, "B": 10, "C": 10, "D": 10}
    assert data["totals"]["stock_back"] == {"A": 50, "B": 10, "C": 10, "D": 10}
    # A pays what he lost, 20 to each: the Stock he put in came back
    assert sorted((t["from"], t["to"], t["cents"]) for t in data["totals"]["settlement"]) == [
        ("A", "B", 20), ("A", "C", 20), ("A", "D", 20)]  # fmt: skip


def test_a_sheet_without_a_stock_answers_as_before() -> None:
    data = sheet(FOUR, {}, [PASS, sau("A", "B")])
    assert "stock" not in data["totals"] and all("stock" not in d for d in data["deals"])


@pytest.mark.parametrize(
    ("stock", "field_ok"),
    [(0, False), (-5, False), ({"cents": 10, "taken_by": "solo"}, False),
     ({"cents": 10, "lost": "burn"}, False), ({"cents": 10, "x": 1}, False), ("10", False),
     (True, False), (None, True), (15, True), ({"cents": 15, "taken_by": "rufspiel"}, True)],
)  # fmt: skip
def test_the_stock_rule_is_checked(client: FlaskClient, stock: object, field_ok: bool) -> None:
    r = client.post("/api/v1/sheets", json={"game": "schafkopf", "players": list(FOUR),
                                            "rules": {"stock": stock}})  # fmt: skip
    if field_ok:
        assert r.status_code == 201
        if stock is None:
            assert "stock" not in r.get_json()["rules"]
        else:
            want = {"cents": 15, "taken_by": "any", "lost": "leave"}
            if isinstance(stock, dict):
                want.update(stock)
            assert r.get_json()["rules"]["stock"] == want
    else:
        assert r.status_code == 422
        assert list(r.get_json()["errors"]) == ["rules.stock"]


DEAL_BODIES = st.one_of(
    st.just(PASS),
    st.builds(lambda a, b, won: sau(a, b, won),
              st.sampled_from(FIVE), st.sampled_from(FIVE), st.booleans()),
    st.builds(lambda a, won, g: solo(a, won, g),
              st.sampled_from(FIVE), st.booleans(), st.sampled_from(["solo", "wenz", "bettel"])),
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([FOUR, FIVE]),
    stock=st.one_of(st.none(), st.integers(1, 50), st.fixed_dictionaries({
        "cents": st.integers(1, 33), "taken_by": st.sampled_from(["any", "rufspiel"]),
        "lost": st.sampled_from(["leave", "double"])})),
    tariffs=st.fixed_dictionaries({}, optional={"schneider": st.integers(0, 30),
                                                "laufende": st.integers(0, 30)}),
    bodies=st.lists(DEAL_BODIES, max_size=14),
)  # fmt: skip
def test_every_row_with_its_stock_sums_to_zero(
    players: tuple[str, ...], stock: object, tariffs: dict[str, int],
    bodies: list[dict[str, Any]],
) -> None:  # fmt: skip
    data = sheet(players, {"stock": stock, "tariffs": tariffs, "bock": ["60-60"]}, bodies)
    in_stock = 0
    for d in data["deals"]:
        if d.get("error"):
            continue  # a sitting-out or doubled declarer: refused, counts nothing
        assert sum(d["deltas"].values()) + d.get("stock", 0) == 0
        in_stock += d.get("stock", 0)
        assert in_stock >= 0
    totals = data["totals"]
    assert sum(totals["balance"].values()) + totals.get("stock", 0) == 0
    assert totals.get("stock", 0) == in_stock
    if "stock" in totals:
        assert sum(totals["stock_back"].values()) == totals["stock"]
    paid = {t["from"]: 0 for t in totals["settlement"]}
    for t in totals["settlement"]:
        paid[t["from"]] += t["cents"]
    net = {p: totals["balance"][p] + totals.get("stock_back", {}).get(p, 0) for p in players}
    assert sum(net.values()) == 0
    assert sum(paid.values()) == sum(v for v in net.values() if v > 0)


# --- Five at the table (rules.md 2.7) ---------------------------------------------------------


def test_at_five_the_dealer_sits_out_in_turn() -> None:
    spec = SheetSpec("schafkopf", FIVE, "A")
    assert [default_active(spec, d) for d in FIVE] == [
        ("B", "C", "D", "E"), ("C", "D", "E", "A"), ("D", "E", "A", "B"),
        ("E", "A", "B", "C"), ("A", "B", "C", "D")]  # fmt: skip


# (id, body, deltas A..E) with A dealing (A sits out)
FIVE_DEALS = [
    ("Sauspiel B+C won", sau("B", "C"), (0, 10, 10, -10, -10)),
    ("Wenz E won", solo("E", game="wenz"), (0, -20, -20, -20, 60)),
    ("Solo D lost", solo("D", won=False), (0, 20, 20, -60, 20)),
    ("Ramsch among the four", {"game": "ramsch", "points": {"B": 50, "C": 30, "D": 20, "E": 20}},
     (0, -30, 10, 10, 10)),
]  # fmt: skip


@pytest.mark.parametrize(("body", "deltas"), [d[1:] for d in FIVE_DEALS],
                         ids=[d[0] for d in FIVE_DEALS])  # fmt: skip
def test_five_at_the_table(body: dict[str, Any], deltas: tuple[int, ...]) -> None:
    data = sheet(FIVE, {"ramsch": True}, [body])
    d = data["deals"][0]
    assert d["active"] == ["B", "C", "D", "E"]
    assert tuple(d["deltas"][p] for p in FIVE) == deltas


@pytest.mark.parametrize("body", [sau("A", "B"), solo("A"),
                                  {"game": "ramsch", "points": {"A": 30, "B": 30, "C": 30, "D": 30}}])  # fmt: skip
def test_a_player_who_sits_out_cannot_play(body: dict[str, Any]) -> None:
    from skatcalc.rules.sheet import evaluate_deal

    spec = SheetSpec("schafkopf", FIVE, "A", {"ramsch": True})
    with pytest.raises(InvalidDeal):
        evaluate_deal(spec, body, ("B", "C", "D", "E"))


@pytest.mark.parametrize(("players", "bock_deals"), [(FOUR, 4), (FIVE, 5)], ids=["four", "five"])
def test_a_bock_round_is_one_deal_per_player_at_the_table(
    players: tuple[str, ...], bock_deals: int
) -> None:
    # deal 1 is worth 100 or more (Solo Tout, 40 × 2 … ): one Bock round follows
    big = {"game": "solo", "declarers": ["C"], "won": True, "tout": True, "gestellt": 1}
    data = sheet(players, {"bock": ["value-100"]}, [big] + [PASS] * 6)
    assert [d["bock"] for d in data["deals"]] == [False] + [True] * bock_deals + [False] * (
        6 - bock_deals
    )


def test_rotation_proposes_who_plays(client: FlaskClient) -> None:
    r = client.post("/api/v1/sheets", json={"game": "schafkopf", "players": list(FIVE),
                                            "first_dealer": "C"})  # fmt: skip
    assert r.status_code == 201
    sid = r.get_json()["id"]
    r = client.post(f"/api/v1/sheets/{sid}/deals", json=sau("D", "E"))
    d = r.get_json()["deals"][0]
    assert (d["dealer"], d["active"]) == ("C", ["D", "E", "A", "B"])
    assert r.get_json()["next_dealer"] == "D"


# --- The API ----------------------------------------------------------------------------------


def new_sheet(client: FlaskClient, players: tuple[str, ...], rules: dict[str, Any]) -> int:
    r = client.post("/api/v1/sheets", json={"game": "schafkopf", "players": list(players),
                                            "rules": rules})  # fmt: skip
    assert r.status_code == 201, r.get_json()
    return int(r.get_json()["id"])


def test_api_value_takes_schneider_and_laufende_tariffs(client: FlaskClient) -> None:
    r = client.post("/api/v1/schafkopf/value", json={
        "game": "sauspiel", "declarers": ["A", "B"], "won": True, "schneider": True,
        "laufende": 3, "tariffs": {"sauspiel": 5, "schneider": 10, "laufende": 5}})  # fmt: skip
    assert r.status_code == 200
    body = r.get_json()
    assert body["value"] == 30
    assert body["deltas"] == {"A": 30, "B": 30, "C": -30, "D": -30}
    assert "5 [Sauspiel] + 10 [Schneider] + 3 × 5 [Laufende] = 30" in body["explanation"][0]
    r = client.post("/api/v1/schafkopf/value", json={
        "game": "sauspiel", "declarers": ["A", "B"], "won": True,
        "tariffs": {"laufende": -1}})  # fmt: skip
    assert r.status_code == 422


@pytest.mark.parametrize("players", [FOUR, FIVE], ids=["four", "five"])
def test_api_sheet_with_split_prices_and_a_stock(client: FlaskClient,
                                                 players: tuple[str, ...]) -> None:  # fmt: skip
    sid = new_sheet(client, players, {"tariffs": {"sauspiel": 20, "schneider": 10,
                                                  "laufende": 5}, "stock": 20})  # fmt: skip
    r = client.get(f"/api/v1/sheets/{sid}")
    assert r.get_json()["rules"]["tariffs"]["schneider"] == 10
    client.post(f"/api/v1/sheets/{sid}/deals", json=PASS)
    r = client.post(f"/api/v1/sheets/{sid}/deals", json={
        "game": "sauspiel", "declarers": ["C", "D"], "won": True, "schneider": True,
        "laufende": 3})  # fmt: skip
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    passed, won = data["deals"]
    assert passed["stock"] == 80 and won["stock"] == -80
    assert won["value"] == 20 + 10 + 15
    assert won["deltas"]["C"] == won["deltas"]["D"] == 45 + 40
    for d in data["deals"]:
        assert sum(d["deltas"].values()) + d["stock"] == 0
    assert data["totals"]["stock"] == 0


def test_api_five_player_sheet_refuses_a_declarer_who_sits_out(client: FlaskClient) -> None:
    sid = new_sheet(client, FIVE, {})
    r = client.post(f"/api/v1/sheets/{sid}/deals", json=sau("A", "B"))  # A deals, sits out
    assert r.status_code == 422
    assert r.get_json()["errors"] == {"declarers": ["A setzt in diesem Spiel aus."]}
    r = client.post(f"/api/v1/sheets/{sid}/deals", json={**sau("A", "B"),
                                                         "active": ["A", "B", "C", "D"]})  # fmt: skip
    assert r.status_code == 201  # the table changed who sits out for this deal


@pytest.mark.parametrize("players", [["A", "B", "C"], ["A", "B", "C", "D", "E", "F"]])
def test_api_schafkopf_takes_four_or_five(client: FlaskClient, players: list[str]) -> None:
    r = client.post("/api/v1/sheets", json={"game": "schafkopf", "players": players})
    assert r.status_code == 422
    assert r.get_json()["errors"]["players"] == [
        "Schafkopf spielen 4 oder 5 (bei 5 setzt der Geber aus)."]  # fmt: skip


def test_the_new_sheet_form_makes_a_schafkopf_table_of_five_with_a_stock(
    client: FlaskClient,
) -> None:
    r = client.post("/sheets", data={
        "game": "schafkopf", "p1": "A", "p2": "B", "p3": "C", "p4": "D", "p5": "E",
        "first_dealer": "5", "stock_cents": "20", "stock_taken_by": "rufspiel",
        "stock_lost": "double", "t_schneider": "20", "t_laufende": "5", "t_sauspiel": "10",
        "t_solo": "20", "t_bettel": "20", "t_extra": "10", "tout_counts": "y"})  # fmt: skip
    assert r.status_code == 302
    sid = int(r.headers["Location"].rsplit("/", 1)[1])
    data = client.get(f"/api/v1/sheets/{sid}").get_json()
    assert data["players"] == list(FIVE) and data["first_dealer"] == "E"
    assert data["rules"]["stock"] == {"cents": 20, "taken_by": "rufspiel", "lost": "double"}
    assert data["rules"]["tariffs"]["schneider"] == 20
    assert data["rules"]["tariffs"]["laufende"] == 5
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    assert "Stock: 20 je Spieler beim Einpassen" in page
    assert "Es spielen (4)" in page


def test_the_calculator_takes_schneider_and_laufende_prices(client: FlaskClient) -> None:
    r = client.get("/schafkopf", query_string={
        "submitted": "1", "p1": "A", "p2": "B", "p3": "C", "p4": "D", "game": "sauspiel",
        "declarers": ["A", "B"], "outcome": "won", "schneider": "y", "laufende": "3",
        "t_sauspiel": "5", "t_solo": "20", "t_bettel": "20", "t_extra": "10",
        "t_schneider": "10", "t_laufende": "5"})  # fmt: skip
    assert r.status_code == 200
    assert "5 [Sauspiel] + 10 [Schneider] + 3 × 5 [Laufende] = 30" in r.get_data(as_text=True)


def test_a_club_night_gives_its_tables_the_stock_and_keeps_tables_of_four(
    client: FlaskClient,
) -> None:
    r = client.post("/events", data={
        "name": "Stammtisch", "day": "2026-11-21", "game": "schafkopf", "deals4": "",
        "entry": "0", "lost_fee": "0", "t_sauspiel": "20", "t_solo": "50", "t_extra": "10",
        "stock_cents": "20", "stock_taken_by": "any", "stock_lost": "double",
        "payout_kind": "shares"})  # fmt: skip
    assert r.status_code == 302, r.get_data(as_text=True)
    event_id = int(r.headers["Location"].split("/")[2])
    event = client.get(f"/api/v1/events/{event_id}").get_json()
    assert event["rules"]["stock"] == {"cents": 20, "taken_by": "any", "lost": "double"}
    client.post(f"/api/v1/events/{event_id}/players", json={"names": list("ABCDEFGH")})
    client.post(f"/events/{event_id}/series", data={"seating": "draw"})
    tables = client.get(f"/api/v1/events/{event_id}").get_json()["series"][0]["tables"]
    assert [len(t["players"]) for t in tables] == [4, 4]  # club nights keep tables of four
    sheet = client.get(f"/api/v1/sheets/{tables[0]['sheet']}").get_json()
    assert sheet["rules"]["stock"]["cents"] == 20


def test_the_entry_form_passes_a_deal_into_the_stock_even_with_ramsch(
    client: FlaskClient,
) -> None:
    sid = new_sheet(client, FOUR, {"ramsch": True, "stock": 10})
    page = client.get(f"/sheets/{sid}").get_data(as_text=True)
    assert 'name="kind" value="passed"' in page and 'name="kind" value="ramsch"' in page
    r = client.post(f"/sheets/{sid}/deals", data={"kind": "passed", "n": "1"})
    assert r.status_code in (302, 303)
    data = client.get(f"/api/v1/sheets/{sid}").get_json()
    assert data["deals"][0]["stock"] == 40 and data["totals"]["stock"] == 40


def test_the_csv_shows_what_each_deal_put_into_the_stock(client: FlaskClient) -> None:
    sid = new_sheet(client, FOUR, {"stock": {"cents": 10, "lost": "double"}})
    client.post(f"/api/v1/sheets/{sid}/deals", json=PASS)
    client.post(f"/api/v1/sheets/{sid}/deals", json=solo("B", won=False))
    text = client.get(f"/api/v1/sheets/{sid}/export.csv").data.decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0].endswith(";Stock")
    assert lines[1].endswith(";40") and lines[2].endswith(";40")
    # the Stock at the end: what goes back to each (A 10, B 50, C 10, D 10), then 80 in it
    # what goes back at the end, before the settlement rows
    assert "Stock;;;;;;;;;;10;50;10;10;80" in lines


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([FOUR, FIVE]),
    before=st.one_of(st.none(), st.integers(1, 30)),
    after=st.one_of(st.none(), st.fixed_dictionaries({
        "cents": st.integers(1, 30), "taken_by": st.sampled_from(["any", "rufspiel"]),
        "lost": st.sampled_from(["leave", "double"])})),
    change_at=st.integers(2, 12),
    bodies=st.lists(DEAL_BODIES, max_size=12),
)  # fmt: skip
def test_rows_sum_to_zero_with_the_stock_when_the_rules_change_midway(
    players: tuple[str, ...], before: object, after: object, change_at: int,
    bodies: list[dict[str, Any]],
) -> None:  # fmt: skip
    from skatcalc.rules.sheet import RuleChange

    old = SheetSpec("schafkopf", players, "A", {"stake_cents": 1, "stock": before})
    new = SheetSpec("schafkopf", players, "A", {"stake_cents": 1, "stock": after,
                                                "tariffs": {"laufende": 3}})  # fmt: skip
    spec = SheetSpec("schafkopf", players, "A", new.rules,
                     [RuleChange(change_at, old.rules, new.rules)])  # fmt: skip
    deals, dealer = [], "A"
    for n, body in enumerate(bodies, start=1):
        deals.append(DealRecord(n, dealer, default_active(spec, dealer), body))
        dealer = players[(players.index(dealer) + 1) % len(players)]
    data = computed_json(compute_sheet(spec, deals))
    for d in data["deals"]:
        assert sum(d["deltas"].values()) + d.get("stock", 0) == 0
    totals = data["totals"]
    assert sum(totals["balance"].values()) + totals.get("stock", 0) == 0
    assert sum(totals.get("stock_back", {}).values()) == totals.get("stock", 0)
