"""One place per house rule: an on/off house rule is one ``HouseFlag`` row its rules read,
store and name; the value function gets the sheet's rules, and its result names the deal once
for the API's rows, the page, the CSV and the PDF; a contract's factor is a column of its
table. A house rule of the kind a table adds ("Revolution": a Null ouvert Hand for 92) is
put in here by hand, as the recipe in docs/architecture.md adds it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from skatcalc import serialize
from skatcalc.games.schafkopf import values as sk_values
from skatcalc.games.schafkopf.values import SchafkopfDeal, SKGame, schafkopf_value
from skatcalc.games.skat import values
from skatcalc.games.skat.sheet import SkatHouseRules
from skatcalc.games.skat.values import Game, NullVariant, SkatDeal, skat_value
from skatcalc.rules.common import Errors, InvalidDeal, Msg
from skatcalc.rules.marks import describe_row
from skatcalc.rules.sheet import DealRecord, HouseFlag, SheetSpec, compute_sheet

PLAYERS = ("A", "B", "C")
FLAG = HouseFlag("revolution", Msg("Revolution: Null ouvert Hand zählt 92"))


@pytest.fixture
def revolution(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SkatHouseRules, "FLAGS", (FLAG,))
    house = NullVariant(True, True, 92, Msg("Revolution"), rule="revolution")
    monkeypatch.setattr(values, "NULL_VARIANTS", (*values.NULL_VARIANTS, house))


def test_a_flag_is_read_stored_and_named_by_its_row(revolution: None) -> None:
    e = Errors()
    on = SkatHouseRules.from_json({"revolution": True}, e)
    assert e.items == [] and on.has("revolution") and on.to_json()["revolution"] is True
    assert FLAG.words in on.describe()
    off = SkatHouseRules.from_json({}, e)
    assert not off.has("revolution") and "revolution" not in off.to_json()
    SkatHouseRules.from_json({"revolution": "ja"}, e)
    assert [err.field for err in e.items] == ["rules.revolution"]


def test_a_flag_nobody_declared_is_refused() -> None:
    e = Errors()
    SkatHouseRules.from_json({"revolution": True}, e)
    assert [err.field for err in e.items] == ["rules.revolution"]


def test_the_value_function_plays_by_the_sheets_rules(revolution: None) -> None:
    rules = SkatHouseRules.from_json({"revolution": True}, Errors())
    deal = SkatDeal(Game.NULL, hand=True, ouvert=True, bid=90, won=True)
    r = skat_value(deal, rules)
    assert (r.value, r.score, r.title.de, r.contract.de, r.marks) == (
        92,
        92,
        "Revolution",
        "Revolution",
        (),
    )
    with pytest.raises(InvalidDeal):
        skat_value(deal)  # 90 is out of a Null's reach by the ISkO alone


def test_the_page_the_api_and_the_files_name_the_deal_alike(revolution: None) -> None:
    spec = SheetSpec("skat", PLAYERS, "C", {"revolution": True, "kontra_re": True})
    body = {"game": "null", "hand": True, "ouvert": True, "declarer": "A", "won": False,
            "kontra": True}  # fmt: skip
    computed = compute_sheet(spec, [DealRecord(1, "C", PLAYERS, body)])
    row = computed.rows[0]
    text = describe_row("skat", row)  # the page's row, the CSV's and the PDF's line
    api = serialize.computed_json(computed, "de")["deals"][0]
    assert api["title"] == text.contract.de == "Revolution"
    assert text.line().de == "Revolution (Kontra, verl.)"
    assert (row.list["A"], text.value) == (-368, 184)


def test_a_contracts_factor_is_a_column_of_its_table(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = SchafkopfDeal(SKGame.BETTEL, declarers=("B",), won=True)
    assert schafkopf_value(deal).value == 20
    monkeypatch.setitem(sk_values.BY_KEY, "bettel", replace(sk_values.BY_KEY["bettel"], factor=2))
    r = schafkopf_value(deal)
    assert (r.value, r.deltas["B"]) == (40, 120)
    assert r.steps[1].text.de == "Bettel × 2 = 40"
