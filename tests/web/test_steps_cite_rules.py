"""Explanations cite the rule (docs/rules.md Part 4): every step of a value's explanation
names the rule it rests on, in the calculators' API answers, each deal of a sheet, the
calculator pages and a deal's page; ``explanation`` stays the list of the steps' texts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given

from skatcalc import create_app, serialize
from skatcalc.games.skat.values import SkatDeal, skat_value
from skatcalc.rules.sheet import (
    DealRecord,
    compute_sheet,
    dealer_after,
    default_active,
    normalize_sheet,
)
from skatcalc.text import translate
from tests.games.test_skat_rules import valid_deals
from tests.known_good import EVENINGS, evening
from tests.support import live_server

SKAT = "/api/v1/skat/value"
SK = "/api/v1/schafkopf/value"
SHEETS = "/api/v1/sheets"
EN = {"Accept-Language": "en"}


def rules_of(answer: dict[str, Any]) -> list[tuple[str, str]]:
    return [(s["text"], s["rule"]) for s in answer["steps"]]


def rule_for(answer: dict[str, Any], text_start: str) -> str:
    """The rule of the (first) step whose text starts so."""
    return next(rule for text, rule in rules_of(answer) if text.startswith(text_start))


# (endpoint, body, language, the start of a step's text, the rule it must cite)
VALUE_CASES = [
    # overbid: bid 22, Karo mit 1 is worth 18 → ISkO 5.4, lost double by rule book 1.5
    (SKAT, {"game": "diamonds", "matadors": 1, "with": True, "bid": 22, "declarer_points": 70},
     "de", "überreizt", "ISkO 5.4"),
    (SKAT, {"game": "diamonds", "matadors": 1, "with": True, "bid": 22, "declarer_points": 70},
     "de", "verloren: Überreizt", "ISkO 5.4"),
    (SKAT, {"game": "diamonds", "matadors": 1, "with": True, "bid": 22, "declarer_points": 70},
     "de", "verloren doppelt", "1.5 Verlorene Spiele"),
    (SKAT, {"game": "diamonds", "matadors": 1, "with": True, "bid": 22, "declarer_points": 70},
     "en", "lost, counted double", "1.5 Lost games"),
    # Null: fixed values, ISkO 5.2.7
    (SKAT, {"game": "null", "hand": True, "won": True}, "de", "Null Hand: fester Wert", "ISkO 5.2.7"),
    (SKAT, {"game": "null", "won": False}, "de", "verloren: Der Alleinspieler", "ISkO 5.2.7"),
    # Grand Hand Schneider: base 5.1, the levels 5.2, winning 5.2.2–5.2.4
    (SKAT, {"game": "grand", "matadors": 2, "with": True, "hand": True, "declarer_points": 95},
     "de", "Grand: Grundwert 24", "ISkO 5.1"),
    (SKAT, {"game": "grand", "matadors": 2, "with": True, "hand": True, "declarer_points": 95},
     "de", "mit 2, Spiel 3, Hand 4, Schneider 5", "ISkO 5.2"),
    (SKAT, {"game": "grand", "matadors": 2, "with": True, "hand": True, "declarer_points": 95},
     "de", "Alleinspieler: 95 Augen", "ISkO 5.2.2–5.2.4"),
    # matadors found from the cards: ISkO 2.4
    (SKAT, {"game": "grand", "cards": ["CJ", "SJ", "CA", "CT", "CK", "CQ", "C9", "C8", "C7", "SA"],
            "declarer_points": 70}, "de",
     "Spitzen aus den Karten", "ISkO 2.4"),
    # Kontra/Re: the rule book's 1.10 (the ISkO is silent)
    (SKAT, {"game": "clubs", "matadors": 1, "with": True, "declarer_points": 70, "kontra": True,
            "re": True}, "de", "Kontra × 2", "1.10 Kontra/Re"),
    (SKAT, {"game": "clubs", "matadors": 1, "with": True, "declarer_points": 70, "kontra": True,
            "re": True}, "en", "Re × 2", "1.10 Kontra/Re"),
    # Schafkopf Solo Tout with Laufende: the rule book's Part 2
    (SK, {"game": "solo", "declarers": ["A"], "won": True, "tout": True, "laufende": 5}, "de",
     "Solo: 20 [Solo]", "2.4 Wert und Zahlung"),
    (SK, {"game": "solo", "declarers": ["A"], "won": True, "tout": True, "laufende": 5}, "de",
     "Tout × 2", "2.4 Wert und Zahlung"),
    (SK, {"game": "solo", "declarers": ["A"], "won": True, "tout": True, "laufende": 5}, "en",
     "won: A", "2.2 Winning, Schneider, Schwarz"),
    (SK, {"game": "solo", "declarers": ["A"], "player_points": 70, "laufende": 2}, "de",
     "2 Laufende zählen", "2.3 Laufende"),
    (SK, {"game": "solo", "declarers": ["A"], "won": True, "tout": True,
          "tout_counts_schneider_schwarz": False}, "de",
     "Tout: Schneider und Schwarz", "Hausregel: Tout: Schneider/Schwarz inbegriffen"),
]  # fmt: skip


@pytest.mark.parametrize(("url", "body", "lang", "text", "rule"), VALUE_CASES)
def test_value_answers_cite_the_rule_of_each_step(
    client: FlaskClient, url: str, body: dict[str, Any], lang: str, text: str, rule: str
) -> None:
    r = client.post(url, json=body, headers=EN if lang == "en" else {})
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert rule_for(answer, text) == rule
    assert [s["text"] for s in answer["steps"]] == answer["explanation"]
    assert all(s["rule"] for s in answer["steps"])


def sheet(client: FlaskClient, game: str, players: str, rules: dict[str, Any]) -> int:
    r = client.post(SHEETS, json={"game": game, "players": list(players), "rules": rules})
    assert r.status_code == 201, r.get_json()
    return int(r.get_json()["id"])


def add(client: FlaskClient, sid: int, body: dict[str, Any], lang: str = "de") -> dict[str, Any]:
    r = client.post(f"{SHEETS}/{sid}/deals", json=body, headers=EN if lang == "en" else {})
    assert r.status_code == 201, r.get_json()
    return dict(r.get_json()["deals"][-1])


LOST_60 = {"game": "grand", "matadors": 1, "with": True, "declarer_points": 60, "declarer": "A"}
CLUBS = {"game": "clubs", "matadors": 1, "with": True, "declarer_points": 70, "declarer": "B"}


@pytest.mark.parametrize(
    ("rules", "first", "body", "lang", "text", "rule"),
    [
        # Bock: the sheet's house rule, by its name
        ({"bock": ["60-60"]}, LOST_60, CLUBS, "de", "Bock × 2", "Hausregel: Bock"),
        ({"bock": ["60-60"]}, LOST_60, CLUBS, "en", "Bock × 2", "House rule: Bock"),
        # a Ramsch with Jungfrau: Hausregel Ramsch
        ({"ramsch": True}, None, {"ramsch": {"points": {"A": 80, "B": 40, "C": 0},
                                             "jungfrau": ["C"]}},
         "de", "Jungfrau C", "Hausregel: Ramsch"),
        ({"ramsch": True}, None, {"ramsch": {"points": {"A": 80, "B": 40, "C": 0}}},
         "de", "Ramsch: A hat die meisten", "Hausregel: Ramsch"),
        # Schieberamsch and the cap, each named as on the sheet
        ({"ramsch": True, "schieberamsch": True, "ramsch_cap": 250}, None,
         {"ramsch": {"points": {"A": 103, "B": 17, "C": 0}, "jungfrau": ["C"], "pushes": 1}},
         "de", "1× geschoben", "Hausregel: Schieberamsch"),
        ({"ramsch": True, "schieberamsch": True, "ramsch_cap": 250}, None,
         {"ramsch": {"points": {"A": 103, "B": 17, "C": 0}, "jungfrau": ["C"], "pushes": 1}},
         "de", "A: −412, höchstens −250", "Hausregel: Ramsch-Verlust höchstens 250"),
        ({"ramsch": True, "ramsch_loser": "each"}, None,
         {"ramsch": {"points": {"A": 60, "B": 40, "C": 20}}},
         "de", "Ramsch: jeder", "Hausregel: Ramsch: jeder schreibt seine Augen minus"),
        # a passed deal: ISkO 3.2.16
        ({}, None, {"passed": True}, "de", "eingepasst", "ISkO 3.2.16"),
        # Kontra on a sheet: the rule book's 1.10
        ({"kontra_re": True}, None, {**CLUBS, "kontra": True}, "de", "Kontra × 2",
         "1.10 Kontra/Re"),
    ],
)  # fmt: skip
def test_each_deal_of_a_skat_sheet_cites_the_rule_of_each_step(
    client: FlaskClient,
    rules: dict[str, Any],
    first: dict[str, Any] | None,
    body: dict[str, Any],
    lang: str,
    text: str,
    rule: str,
) -> None:
    sid = sheet(client, "skat", "ABC", rules)
    if first is not None:
        add(client, sid, first)
    deal = add(client, sid, body, lang)
    assert rule_for(deal, text) == rule
    assert [s["text"] for s in deal["steps"]] == deal["explanation"]


def test_a_bockramsch_round_cites_bockramsch_where_the_evening_plays_no_ramsch(
    client: FlaskClient,
) -> None:
    sid = sheet(client, "skat", "ABC", {"bock": ["60-60"], "bockramsch": True})
    add(client, sid, {**LOST_60, "declarer": "B"})
    for declarer in ("C", "A", "B"):  # the Bock round
        add(client, sid, {**CLUBS, "declarer": declarer})
    deal = add(client, sid, {"ramsch": {"points": {"C": 60, "A": 40, "B": 20}}})
    assert rules_of(deal) == [
        ("Bockramsch-Runde", "Hausregel: Bockramsch"),
        ("Ramsch: C hat die meisten Augen (60): −60", "Hausregel: Bockramsch"),
    ]


def test_a_schafkopf_sheet_cites_bock_and_its_ramsch(client: FlaskClient) -> None:
    sid = sheet(client, "schafkopf", "ABCD", {"ramsch": True, "bock": ["60-60"]})
    add(client, sid, {"game": "sauspiel", "declarers": ["A", "B"], "player_points": 60})
    deal = add(client, sid, {"game": "ramsch", "points": {"A": 60, "B": 40, "C": 20, "D": 0},
                             "jungfrau": ["D"]})  # fmt: skip
    assert rule_for(deal, "Jungfrau D") == "2.5 Ramsch (Schafkopf)"
    deal = add(client, sid, {"game": "wenz", "declarers": ["C"], "won": True})
    assert rule_for(deal, "Bock × 2") == "Hausregel: Bock"


@pytest.mark.parametrize("name", EVENINGS)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_step_of_every_deal_of_the_known_evenings_names_its_rule(
    name: str, lang: str
) -> None:
    ev = evening(name)
    spec = normalize_sheet({k: ev[k] for k in ("game", "players", "first_dealer", "rules")})
    records, last = [], None
    for n, deal in enumerate(ev["deals"], start=1):
        dealer = dealer_after(spec, last)
        records.append(DealRecord(n, dealer, default_active(spec, dealer), deal["body"]))
        last = dealer
    out = serialize.computed_json(compute_sheet(spec, records), lang)
    steps = 0
    for deal in out["deals"]:
        assert [s["text"] for s in deal["steps"]] == deal["explanation"]
        assert all(s["rule"].strip() and s["text"] for s in deal["steps"])
        if deal["result"] is not None:
            assert all(s["rule"].strip() for s in deal["result"]["steps"])
        steps += len(deal["steps"])
    assert steps >= len(out["deals"])  # every deal explains itself, a passed one too


def test_the_calculator_and_the_deal_page_show_the_rule_beside_each_step(
    client: FlaskClient,
) -> None:
    html = client.get("/skat?game=diamonds&spitzen=w1&declarer_points=70&bid=22").data.decode()
    assert '<small class="rule">ISkO 5.4</small>' in html
    sid = sheet(client, "skat", "ABC", {"bock": ["60-60"]})
    add(client, sid, LOST_60)
    add(client, sid, CLUBS)
    html = client.get(f"/sheets/{sid}/deals/2/edit").data.decode()
    assert '<small class="rule">Hausregel: Bock</small>' in html
    html = client.get(f"/sheets/{sid}/deals/2/edit?lang=en").data.decode()
    assert '<small class="rule">House rule: Bock</small>' in html
    args = {"submitted": "1", "p1": "A", "p2": "B", "p3": "C", "p4": "D", "game": "solo",
            "suit": "eichel", "declarers": "A", "outcome": "won", "lang": "en"}  # fmt: skip
    html = client.get("/schafkopf", query_string=args).get_data(as_text=True)
    assert '<small class="rule">2.4 Value and payment</small>' in html


RULES_JS = """() => [...document.querySelectorAll('.steps li')].map((li) => {
  const rule = li.querySelector('.rule');
  const r = rule ? rule.getBoundingClientRect() : null;
  return {rule: rule ? rule.innerText : null,
          size: rule ? parseFloat(getComputedStyle(rule).fontSize) : 0,
          inside: r ? r.left >= 0 && r.right <= innerWidth + 1 && r.width > 0 : false};
})"""


@pytest.mark.browser
def test_each_step_shows_its_rule_small_and_readable_on_a_phone(
    browser: Any, tmp_path: Path
) -> None:
    app = create_app({"DATABASE": str(tmp_path / "steps.sqlite"), "SECRET_KEY": "steps"})
    with live_server(app) as url:
        ctx = browser.new_context(viewport={"width": 375, "height": 667})
        pg = ctx.new_page()
        sid = ctx.request.post(
            f"{url}/api/v1/sheets",
            data={"game": "skat", "players": ["A", "B", "C"],
                  "rules": {"ramsch": True, "schieberamsch": True, "ramsch_cap": 250}},
        ).json()["id"]  # fmt: skip
        ctx.request.post(
            f"{url}/api/v1/sheets/{sid}/deals",
            data={"ramsch": {"points": {"A": 103, "B": 17, "C": 0}, "jungfrau": ["C"],
                             "pushes": 1}},
        )  # fmt: skip
        for path in (
            "/skat?game=diamonds&spitzen=w1&declarer_points=70&bid=22&kontra=y",
            f"/sheets/{sid}/deals/1/edit",
        ):
            pg.goto(f"{url}{path}")
            folded = pg.locator("details.why > summary")
            if folded.count():  # the deal page folds its calculation: one tap opens it
                folded.first.click()
            lines = pg.evaluate(RULES_JS)
            assert lines, path
            for line in lines:
                assert line["rule"], (path, line)  # every step names its rule
                assert 12 <= line["size"] < 17, (path, line)  # small, still readable
                assert line["inside"], (path, line)  # on the screen, no sideways scrolling
            assert pg.evaluate("document.documentElement.scrollWidth") <= 375
        pg.screenshot(path="/tmp/h11_deal.png", full_page=True)
        ctx.close()


@given(valid_deals())
def test_every_skat_step_names_its_rule_and_the_rules_follow_the_game(deal: SkatDeal) -> None:
    res = skat_value(deal)
    rules = [translate(s.rule, "de") for s in res.steps]
    assert all(rules) and len(rules) == len(res.steps)
    assert ("ISkO 5.4" in rules) == res.overbid  # only an overbid rests on 5.4
    assert ("1.5 Verlorene Spiele" in rules) == (not res.won)
    assert rules.count("1.10 Kontra/Re") == deal.kontra + deal.re
    if deal.game.is_null:
        assert set(rules) <= {"ISkO 5.2.7", "1.5 Verlorene Spiele", "1.10 Kontra/Re"}
