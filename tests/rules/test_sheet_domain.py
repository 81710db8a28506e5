"""The typed sheet domain (skatcalc/rules/sheet/): the games registry, house rules as frozen
dataclasses, and one language-free computation serialised in either language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc import serialize
from skatcalc.games.schafkopf import SchafkopfHouseRules
from skatcalc.games.skat import SkatHouseRules
from skatcalc.rules.common import Errors, InvalidDeal, Msg
from skatcalc.rules.inputs import Reader
from skatcalc.rules.sheet import (
    GAMES,
    BockTrigger,
    ComputedSheet,
    DealKind,
    DealOutcome,
    DealRecord,
    GameKind,
    HouseRules,
    Row,
    SheetSpec,
    compute_sheet,
    dealer_after,
    default_active,
    game,
    normalize_sheet,
    register,
)
from skatcalc.rules.sheet.base import zero_sum
from skatcalc.text import catalog, field_errors, translate
from tests.known_good import EVENINGS, evening

# --- The registry -----------------------------------------------------------------------------


def test_both_games_are_registered_in_order() -> None:
    assert list(GAMES) == ["skat", "schafkopf"]
    assert game("skat").rules_class is SkatHouseRules
    assert game("schafkopf").rules_class is SchafkopfHouseRules
    assert game("skat").player_counts == (3, 4, 5)
    assert game("schafkopf").players_per_deal == 4
    assert [t.value for t in game("skat").bock_triggers] == [
        "60-60", "grand-hand-won", "kontra-lost", "value-100",
        "schneider-lost", "grand-hand-lost", "re",
    ]  # fmt: skip
    assert [t.value for t in game("schafkopf").bock_triggers] == [
        "60-60", "kontra-lost", "value-100"
    ]  # fmt: skip
    with pytest.raises(ValueError):
        register(game("skat"))
    with pytest.raises(KeyError):
        game("doppelkopf")


@dataclass(frozen=True)
class DuelRules(HouseRules):
    """A made-up two-player game: one house rule of its own."""

    double_all: bool = False
    TRIGGERS: ClassVar[tuple[BockTrigger, ...]] = (BockTrigger.VALUE_100,)

    @classmethod
    def _read(cls, r: Reader, *, ramsch: bool, bock: tuple[BockTrigger, ...],
              stake_cents: int) -> DuelRules:  # fmt: skip
        return cls(ramsch, bock, stake_cents, bool(r.boolean("double_all")))

    def _own_json(self) -> dict[str, Any]:
        return {"double_all": self.double_all}


class Duel(GameKind):
    key = "duel"
    label = Msg("Duell")
    player_counts = (2,)
    player_count_msg = Msg("Zu zweit.")
    players_per_deal = 2
    rules_class = DuelRules

    def evaluate(
        self, spec: SheetSpec, r: Reader, active: tuple[str, ...], bock: int
    ) -> DealOutcome:
        winner = r.choice("winner", {p: p for p in spec.players})
        points = r.integer("points")
        r.reject_unknown()
        r.errors.raise_if_any()
        assert isinstance(winner, str) and points is not None
        assert isinstance(spec.rules, DuelRules)
        value = points * 2**bock * (2 if spec.rules.double_all else 1)
        entries = {p: value if p == winner else 0 for p in spec.players}
        triggers = (BockTrigger.VALUE_100,) if value >= 100 else ()
        return DealOutcome(DealKind.GAME, winner, (winner,), None, entries,
                           zero_sum(spec.players, entries), True, value,
                           Msg("%(winner)s gewinnt", winner=winner), (), triggers)  # fmt: skip


# A new game brings its English along, as a real one adds it to messages.po.
DUEL_ENGLISH = {
    "Duell": "Duel",
    "Zu zweit.": "Two players.",
    "%(winner)s gewinnt": "%(winner)s wins",
}


@pytest.fixture
def duel(monkeypatch: pytest.MonkeyPatch) -> Iterator[GameKind]:
    english = catalog("en")._catalog  # type: ignore[attr-defined]
    for de, en in DUEL_ENGLISH.items():
        monkeypatch.setitem(english, de, en)
    kind = register(Duel())
    try:
        yield kind
    finally:
        GAMES.pop("duel")


def test_a_new_game_is_a_module_that_registers_itself(duel: GameKind) -> None:
    spec = normalize_sheet({"game": "duel", "players": ["A", "B"],
                            "rules": {"double_all": True, "bock": ["value-100"]}})  # fmt: skip
    assert spec.rules.to_json() == {"double_all": True, "ramsch": False,
                                    "bock": ["value-100"], "stake_cents": 0}  # fmt: skip
    assert default_active(spec, "A") == ("B", "A")
    deals = [DealRecord(1, "A", ("B", "A"), {"winner": "A", "points": 60}),
             DealRecord(2, "B", ("A", "B"), {"winner": "B", "points": 10}),
             DealRecord(3, "A", ("B", "A"), {"winner": "B", "points": 10}, struck=True)]  # fmt: skip
    out = serialize.computed_json(compute_sheet(spec, deals), "en")
    assert [r["title"] for r in out["deals"]] == ["A wins", "B wins", "B wins"]
    assert out["deals"][1]["bock"] is True  # 120 points started a Bock round of 2
    assert out["totals"]["balance"] == {"A": 80, "B": -80}
    assert out["next_dealer"] == "A"
    with pytest.raises(InvalidDeal) as exc:
        normalize_sheet({"game": "duel", "players": ["A", "B", "C"]})
    assert field_errors(exc.value, "en") == {"players": ["Two players."]}
    with pytest.raises(InvalidDeal) as exc:
        normalize_sheet({"game": "duel", "players": ["A", "B"], "rules": {"bock": ["60-60"]}})
    assert field_errors(exc.value, "en") == {"rules.bock": ["Bock triggers: value-100."]}


def test_an_unregistered_game_is_refused_with_the_registered_ones() -> None:
    with pytest.raises(InvalidDeal) as exc:
        normalize_sheet({"game": "duel", "players": ["A", "B"]})
    assert field_errors(exc.value, "en")["game"] == ["Allowed values: skat, schafkopf."]


# --- House rules ------------------------------------------------------------------------------

bock_lists = st.lists(st.sampled_from([t.value for t in BockTrigger]), max_size=5)
skat_rules = st.fixed_dictionaries(
    {},
    optional={
        "kontra_re": st.booleans(),
        "ramsch": st.booleans(),
        "bock": bock_lists,
        "stake_cents": st.integers(0, 100_000),
    },
)
tariff_keys = st.sampled_from(["sauspiel", "solo", "bettel", "extra", "ramsch"])
lauf_keys = st.sampled_from(["sauspiel", "hochzeit", "solo", "farbwenz", "farbgeier"])
schafkopf_rules = st.fixed_dictionaries(
    {},
    optional={
        "tariffs": st.dictionaries(tariff_keys, st.integers(0, 100_000)),
        "laufende_min": st.dictionaries(lauf_keys, st.integers(1, 8)),
        "tout_counts_schneider_schwarz": st.booleans(),
        "ramsch": st.booleans(),
        "bock": bock_lists,
        "stake_cents": st.integers(0, 100_000),
    },
)


@settings(max_examples=80, deadline=None)
@given(st.one_of(st.tuples(st.just("skat"), skat_rules),
                 st.tuples(st.just("schafkopf"), schafkopf_rules)))  # fmt: skip
def test_house_rules_round_trip(case: tuple[str, dict[str, Any]]) -> None:
    key, data = case
    cls = game(key).rules_class
    e = Errors()
    rules = cls.from_json(data, e)
    if e:  # a trigger the game does not know
        assert [x.field for x in e.items] == ["rules.bock"]
        assert any(b not in cls.TRIGGERS for b in data["bock"])
        return
    stored = rules.to_json()
    assert cls.from_json(stored, Errors()) == rules
    assert cls.from_stored(json.loads(json.dumps(stored))) == rules
    assert cls.from_json(stored, Errors()).to_json() == stored
    for k, v in data.items():
        if k in ("tariffs", "laufende_min"):
            assert v.items() <= stored[k].items()
        else:
            assert stored[k] == v
    assert len(rules.describe()) >= 3


def test_house_rules_refused_field_by_field() -> None:
    e = Errors()
    SkatHouseRules.from_json({"bock": ["x"], "stake_cents": -1, "kontra_re": 3, "zz": 1}, e)
    assert [(x.field, translate(x.msg, "en")) for x in e.items] == [
        (
            "rules.bock",
            "Bock triggers: 60-60, grand-hand-won, kontra-lost, value-100, "
            "schneider-lost, grand-hand-lost, re.",
        ),
        ("rules.stake_cents", "Stake: 0 to 100000 cents."),
        ("rules.kontra_re", "Expected true or false."),
        ("rules.zz", "Unknown field."),
    ]
    e = Errors()
    SchafkopfHouseRules.from_json({"tariffs": {"solo": -5}, "laufende_min": {"wenz": 9}}, e)
    assert [(x.field, x.msg.de) for x in e.items] == [
        ("rules.tariffs", "Tarife: 0 bis 100000 Cent."),
        ("rules.laufende_min", "Laufende im wenz: 1 bis 4."),
    ]
    e = Errors()
    SkatHouseRules.from_json([], e)
    assert [x.field for x in e.items] == ["rules"]


def test_house_rules_describe() -> None:
    skat = SkatHouseRules(ramsch=True, bock=(BockTrigger.GRAND_HAND_WON,), stake_cents=5,
                          kontra_re=True)  # fmt: skip
    assert [m.de for m in skat.describe()] == [
        "Kontra/Re: ja", "Ramsch statt Einpassen", "Bock nach: gewonnener Grand Hand",
        "Einsatz: 5 Cent je Punkt",
    ]  # fmt: skip
    sk = SchafkopfHouseRules.from_json({"ramsch": True, "tariffs": {"ramsch": 30}}, Errors())
    assert [translate(m, "en") for m in sk.describe()] == [
        "Tariffs: Sauspiel 10, solo 20, Bettel 20, extra 10",
        "Laufende from 3 (Wenz/Geier from 2)",
        "Tout: schneider/schwarz count extra",
        "Ramsch: yes, tariff 30",
        "no Bock rounds",
        "Stake: 1 cents per point",
    ]


def test_bock_triggers_are_their_stored_strings() -> None:
    assert [t.value for t in BockTrigger] == ["60-60", "grand-hand-won", "kontra-lost",
                                              "value-100", "schneider-lost", "grand-hand-lost",
                                              "re"]  # fmt: skip
    assert BockTrigger("kontra-lost") == "kontra-lost"
    assert json.dumps([BockTrigger.SIXTY_SIXTY]) == '["60-60"]'


# --- One computation, two languages -----------------------------------------------------------


def _computed(name: str) -> tuple[dict[str, Any], ComputedSheet]:
    ev = evening(name)
    spec = normalize_sheet({k: ev[k] for k in ("game", "players", "first_dealer", "rules")})
    records, last = [], None
    for n, deal in enumerate(ev["deals"], start=1):
        dealer = dealer_after(spec, last)
        records.append(DealRecord(n, dealer, default_active(spec, dealer), deal["body"]))
        last = dealer
    return ev, compute_sheet(spec, records)


@pytest.mark.parametrize("name", EVENINGS)
def test_the_computed_sheet_holds_messages_not_text(name: str) -> None:
    _ev, computed = _computed(name)
    for row in computed.rows:
        assert isinstance(row, Row)
        assert isinstance(row.title, Msg)
        assert all(isinstance(s.text, Msg) and isinstance(s.rule, Msg) for s in row.steps)
    de = serialize.computed_json(computed, "de")
    en = serialize.computed_json(computed, "en")
    assert de["totals"] == en["totals"]
    for a, b in zip(de["deals"], en["deals"], strict=True):
        assert {
            k: v for k, v in a.items() if k not in ("title", "explanation", "steps", "result")
        } == {k: v for k, v in b.items() if k not in ("title", "explanation", "steps", "result")}


@pytest.mark.parametrize("name", EVENINGS)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_one_computation_serialised_is_what_the_api_shows(
    client: FlaskClient, name: str, lang: str
) -> None:
    ev, computed = _computed(name)
    r = client.post("/api/v1/sheets", json={k: ev[k] for k in ("game", "players",
                                                               "first_dealer", "rules")})  # fmt: skip
    sid = r.get_json()["id"]
    for deal in ev["deals"]:
        assert client.post(f"/api/v1/sheets/{sid}/deals", json=deal["body"]).status_code == 201
    api = client.get(f"/api/v1/sheets/{sid}", headers={"Accept-Language": lang}).get_json()
    ours = serialize.computed_json(computed, lang)
    assert [{k: v for k, v in row.items() if k != "version"} for row in api["deals"]] == ours[
        "deals"
    ]
    for key in ("totals", "bock_pending", "next_dealer"):
        assert api[key] == ours[key]
    assert api["rules"] == computed_rules(ev)


def computed_rules(ev: dict[str, Any]) -> dict[str, Any]:
    spec = normalize_sheet({k: ev[k] for k in ("game", "players", "first_dealer", "rules")})
    return serialize.rules_json(spec.rules)


def test_resuming_after_appended_deals_reuses_rows_and_their_json() -> None:
    _ev, full = _computed("skat_48_four_table")
    ev = evening("skat_48_four_table")
    spec = normalize_sheet({k: ev[k] for k in ("game", "players", "first_dealer", "rules")})
    records = [DealRecord(r.n, r.dealer, r.active, r.input) for r in full.rows]
    half = compute_sheet(spec, records[:30])
    half_json = serialize.computed_json(half, "de")
    resumed = compute_sheet(spec, records, half.state)
    assert resumed.rows[:30] == half.rows and resumed.rows[29] is half.rows[29]
    again = serialize.computed_json(resumed, "de", (half.rows, half_json["deals"]))
    assert again["deals"][29] is half_json["deals"][29]
    assert again == serialize.computed_json(full, "de")
