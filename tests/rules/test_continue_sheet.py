"""The law of the save: the kept computation of a sheet with the next deal appended is the
computation of the sheet with that deal, from deal 1 (``continue_sheet`` against
``compute_sheet``), for generated sheets of both games: Skat at 3-5 with the dealer's
rotation, Bock, Bockramsch, Bierlachs and Seeger-Fabian; Schafkopf at 4-5 with the Stock,
Kontra and the "nur Gute" scale; rules changed during the evening; struck deals; and a
correction before the next deal."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc import serialize
from skatcalc.rules.common import Errors, InvalidDeal
from skatcalc.rules.sheet import (
    ComputedSheet,
    DealRecord,
    Row,
    RuleChange,
    SheetSpec,
    compute_sheet,
    continue_sheet,
    default_active,
    read_rules,
)
from skatcalc.text import field_errors
from tests.deal_bodies import schafkopf_deal, schafkopf_rules, skat_deal, skat_rules

NAMES = ["Anna", "Bernd", "Carla", "Dora", "Emil"]


@st.composite
def sheets(draw: st.DrawFn) -> tuple[SheetSpec, list[dict[str, Any]], list[bool]]:
    """A sheet (game, players, rules, maybe a change of the rules during the evening), the
    bodies of its deals, and which of them are struck."""
    game = draw(st.sampled_from(["skat", "schafkopf"]))
    if game == "skat":
        players = NAMES[: draw(st.integers(3, 5))]
        rules, before = draw(skat_rules()), draw(skat_rules())
        deal = skat_deal
    else:
        players = NAMES[: draw(st.integers(4, 5))]
        rules, before = draw(schafkopf_rules()), draw(schafkopf_rules())
        if draw(st.integers(0, 3)) == 0:  # a tournament's "nur Gute": no Ramsch, no Stock
            rules = {"bock": rules["bock"], "scale": {"preset": "nur-gute"}}
        deal = schafkopf_deal
    first = draw(st.sampled_from(players))
    count = draw(st.integers(1, 14))
    bodies = [draw(deal(players, rules)) for _ in range(count)]
    struck = [draw(st.integers(0, 7)) == 0 for _ in range(count)]
    now = read_rules(game, rules, Errors())
    changes = []
    if draw(st.booleans()):
        then = read_rules(game, before, Errors())
        changes = [RuleChange(draw(st.integers(2, count + 1)), then, now)]
    return SheetSpec(game, tuple(players), first, now, changes), bodies, struck


def records(spec: SheetSpec, bodies: list[dict[str, Any]], struck: list[bool],
            start: list[DealRecord] | None = None) -> list[DealRecord]:  # fmt: skip
    """The deals as the sheet stores them: each dealt by the rotation (after the deals
    before it), its players the body's or the rotation's."""
    out = list(start or [])
    for body, gone in zip(bodies, struck, strict=True):
        dealer = compute_sheet(spec, out).next_dealer
        active = tuple(body.get("active") or default_active(spec, dealer))
        out.append(DealRecord(len(out) + 1, dealer, active, body, gone, 1))
    return out


def plain(row: Row) -> tuple[Row, object]:
    """A row comparable across computations: its error (an exception, equal only to itself)
    as the messages it carries."""
    error = None if row.error is None else field_errors(row.error, "de")
    return dataclasses.replace(row, error=None), error


def assert_same(a: ComputedSheet, b: ComputedSheet) -> None:
    assert [plain(r) for r in a.rows] == [plain(r) for r in b.rows]
    rest = ("totals", "bock_pending", "next_dealer", "ramsch_pending", "next_ramsch_round",
            "bockramsch")  # fmt: skip
    assert [getattr(a, k) for k in rest] == [getattr(b, k) for k in rest]
    sa = dataclasses.replace(a.state, rows=())
    sb = dataclasses.replace(b.state, rows=())
    assert sa == sb
    for lang in ("de", "en"):
        assert serialize.computed_json(a, lang) == serialize.computed_json(b, lang)


def check_next(spec: SheetSpec, deals: list[DealRecord], nxt: DealRecord) -> None:
    """The law for one appended deal on the computation of ``deals``."""
    kept = compute_sheet(spec, deals)
    whole = compute_sheet(spec, [*deals, nxt])
    try:
        grown = continue_sheet(spec, kept, nxt)
    except InvalidDeal as exc:
        # refused: exactly the deal the sheet would show as not evaluating
        assert whole.rows[-1].error is not None and not nxt.struck
        assert field_errors(exc, "de") == field_errors(whole.rows[-1].error, "de")
        return
    assert_same(grown, whole)
    assert grown.rows[: len(deals)] == kept.rows  # the kept rows themselves, not made again
    assert all(a is b for a, b in zip(grown.rows, kept.rows, strict=False))


@settings(max_examples=150)
@given(sheets(), st.data())
def test_continuing_is_computing_from_scratch(
    sheet: tuple[SheetSpec, list[dict[str, Any]], list[bool]], data: st.DataObject
) -> None:
    spec, bodies, struck = sheet
    deals = records(spec, bodies, struck)
    for k in range(len(deals)):
        check_next(spec, deals[:k], dataclasses.replace(deals[k], struck=False))
    # a struck deal appended (an import's order) goes on the same way
    check_next(spec, deals[:-1], dataclasses.replace(deals[-1], struck=True))


@settings(max_examples=80)
@given(sheets(), st.data())
def test_continuing_after_a_correction(
    sheet: tuple[SheetSpec, list[dict[str, Any]], list[bool]], data: st.DataObject
) -> None:
    """A correction computes the sheet from deal 1; the next save goes on from that."""
    spec, bodies, struck = sheet
    deals = records(spec, bodies[:-1], struck[:-1])
    if deals:
        k = data.draw(st.integers(0, len(deals) - 1))
        other = data.draw(st.sampled_from(bodies))
        deals[k] = dataclasses.replace(deals[k], input=other, version=2)
    nxt = records(spec, bodies[-1:], [False], deals)[-1]
    check_next(spec, deals, nxt)


def test_only_the_next_deal_continues() -> None:
    spec = SheetSpec("skat", ("A", "B", "C"), "A")
    kept = compute_sheet(spec, [])
    with pytest.raises(ValueError):
        continue_sheet(spec, kept, DealRecord(2, "A", ("B", "C", "A"), {"passed": True}))
