"""marks, stats and standings read the typed rows of ``compute_sheet``; before, they read the
rows as the API shapes them. These tests keep the dict-reading code of before as the reference
and check, on the worked evenings of tests/data (with a struck deal, and a stored deal that no
longer evaluates), that the typed reading gives the very same figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.rules.sheet import (
    ComputedSheet,
    DealRecord,
    compute_sheet,
    dealer_after,
    default_active,
    normalize_sheet,
)
from skatcalc.rules.standings import SheetFigures, Tally, sheet_figures
from skatcalc.rules.stats import statistics
from skatcalc.serialize import computed_json
from tests.known_good import EVENINGS, evening

PARTNER_GAMES = {"sauspiel", "hochzeit"}


def old_statistics(game: str, players: list[str], deals: list[Mapping[str, Any]]
                   ) -> dict[str, dict[str, Any]]:  # fmt: skip
    """rules/stats.py as it was, on the API's rows."""
    out: dict[str, dict[str, Any]] = {
        p: {"played": 0, "own": 0, "won": 0, "lost": 0, "won_pct": None,
            "best": None, "worst": None, "grands": 0, "nulls": 0, "solos": 0, "sauspiele": 0}
        for p in players
    }  # fmt: skip
    for row in deals:
        if row.get("struck") or "deltas" not in row or row.get("error"):
            continue
        for p in players:
            s = out[p]
            if p in row.get("active", ()):
                s["played"] += 1
            delta = row["deltas"].get(p, 0)
            if p in row.get("active", ()) or delta:
                if s["best"] is None or delta > s["best"]["delta"]:
                    s["best"] = {"n": row["n"], "delta": delta}
                if s["worst"] is None or delta < s["worst"]["delta"]:
                    s["worst"] = {"n": row["n"], "delta": delta}
            if row.get("kind") != "game" or p not in row.get("party", ()):
                continue
            s["own"] += 1
            s["won" if row.get("won") else "lost"] += 1
            kind = row.get("input", {}).get("game")
            if game == "skat":
                s["grands"] += kind == "grand"
                s["nulls"] += kind == "null"
            elif kind in PARTNER_GAMES:
                s["sauspiele"] += 1
            else:
                s["solos"] += 1
    for s in out.values():
        if s["own"]:
            s["won_pct"] = round(100 * s["won"] / s["own"])
    return out


def old_sheet_figures(game: str, players: Sequence[str], totals: Mapping[str, Any],
                      rows: Sequence[Mapping[str, Any]], me: str, stake: int) -> SheetFigures:  # fmt: skip
    """rules/standings.sheet_figures as it was, on the API's rows and totals."""
    declared: dict[str, Tally] = {}
    lost_c: dict[str, int] = {}
    partners: dict[str, Tally] = {}
    opponents: dict[str, Tally] = {}
    ramsch = Tally()
    value_sum = deals = played = 0
    for row in rows:
        if row.get("struck") or row.get("error") or "deltas" not in row:
            continue
        deals += 1
        active = row.get("active") or ()
        if me in active:
            played += 1
        kind = row.get("kind")
        if kind == "ramsch" and me in active:
            ramsch = ramsch.add(me not in (row.get("party") or ()))
        if kind != "game" or row.get("won") is None:
            continue
        party = row.get("party") or ()
        won = bool(row["won"])
        if me in party:
            c = (row.get("input") or {}).get("game")
            c = c if isinstance(c, str) else "?"
            declared[c] = declared.get(c, Tally()).add(won)
            if not won:
                lost_c[c] = lost_c.get(c, 0) + 1
            value_sum += int(row.get("value") or 0)
            if game == "schafkopf" and (row.get("input") or {}).get("game") in PARTNER_GAMES:
                for p in party:
                    if p != me:
                        partners[p] = partners.get(p, Tally()).add(won)
        if game == "schafkopf" and me in active:
            for p in active:
                if p != me and (p in party) != (me in party):
                    opponents[p] = opponents.get(p, Tally()).add(won == (me in party))
    list_t = totals.get("list")
    sf = totals.get("seeger_fabian")
    balance = int(totals["balance"][me])
    return SheetFigures(
        sheet_id=1, day="2026-11-21", game=game, table=len(players), deals=deals, played=played,
        balance=balance, cents=balance * stake, won=int(totals["won"][me]),
        lost=int(totals["lost"][me]), list_points=None if list_t is None else int(list_t[me]),
        seeger_fabian=None if sf is None else int(sf[me]), declared=declared,
        lost_by_contract=lost_c, value_sum=value_sum, ramsch=ramsch, partners=partners,
        opponents=opponents,
    )  # fmt: skip


def computed_evening(name: str) -> tuple[str, list[str], int, ComputedSheet]:
    """The evening with deal 3 struck and a last deal that no longer evaluates."""
    ev = evening(name)
    spec = normalize_sheet({k: ev[k] for k in ("game", "players", "first_dealer", "rules")})
    records = []
    last: str | None = None
    for n, deal in enumerate(ev["deals"], start=1):
        dealer = dealer_after(spec, last)
        records.append(DealRecord(n, dealer, default_active(spec, dealer), deal["body"], n == 3))
        last = dealer if n != 3 else last
    broken = replace(records[0], n=len(records) + 1, input={"game": "no such game"})
    computed = compute_sheet(spec, [*records, broken])
    assert computed.rows[-1].error is not None and computed.rows[2].struck
    return spec.game, list(spec.players), spec.rules.stake_cents, computed


@pytest.mark.parametrize("name", EVENINGS)
def test_statistics_from_typed_rows_equal_those_from_the_api_rows(name: str) -> None:
    game, players, _stake, computed = computed_evening(name)
    api_rows = computed_json(computed)["deals"]
    assert statistics(game, players, computed.rows) == old_statistics(game, players, api_rows)


@pytest.mark.parametrize("name", EVENINGS)
def test_sheet_figures_from_the_typed_sheet_equal_those_from_its_json(name: str) -> None:
    game, players, stake, computed = computed_evening(name)
    data = computed_json(computed)
    for me in players:
        typed = sheet_figures(1, "2026-11-21", game, players, computed, me, stake)
        assert typed == old_sheet_figures(game, players, data["totals"], data["deals"], me,
                                          stake)  # fmt: skip


def test_every_game_of_the_registry_has_its_forms_and_the_same_words() -> None:
    from skatcalc.games.forms import GAME_FORMS
    from skatcalc.rules.sheet import GAMES

    assert list(GAME_FORMS) == list(GAMES)
    for kind in GAMES.values():  # a Ramsch body read back is the Ramsch it was made of
        ramsch = {"points": {"A": 60, "B": 60, "C": 0}, "jungfrau": ["C"], "durchmarsch": None}
        back = kind.ramsch_body(kind.ramsch_deal(ramsch))
        assert back is not None and {k: back[k] for k in ramsch} == ramsch


@pytest.mark.parametrize("name", EVENINGS)
@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=4))
def test_statistics_go_on_from_earlier_ones_as_if_counted_at_once(
    name: str, cuts: list[int]
) -> None:
    """A save counts its new rows only, on top of the statistics of the rows before them
    (services/sheets.py ``sheet_statistics``): the same figures, whatever the pieces, and the
    earlier statistics are left as they were."""
    game, players, _stake, computed = computed_evening(name)
    rows = computed.rows
    ends = sorted({min(c, len(rows)) for c in cuts} | {len(rows)})
    before = None
    done = 0
    for end in ends:
        kept = None if before is None else repr(before)
        out = statistics(game, players, rows[done:end], before)
        assert out == statistics(game, players, rows[:end])
        assert kept is None or repr(before) == kept
        before, done = out, end
