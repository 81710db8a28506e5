"""The JSON shapes of the rules' objects (docs/api.md), in one place.

The rules compute language-free objects (``skatcalc.rules``: results, rows, the computed
sheet, house rules, all texts as ``Msg``); the API, the pages, CSV, PDF, seasons and events
read them as the dicts made here, in the language asked for. Pure: no Flask, no database.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from skatcalc.text import field_errors, translate

from .rules.cite import Step
from .rules.sheet import ComputedSheet, HouseRules, Row, Totals, Transfer
from .rules.sheet.base import Result

JSON = dict[str, object]


class _StepTexts:
    """Steps' texts and rules in one language, each step translated once: a row's result and
    the row itself show the same steps (the very objects), twice each."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        # by the step's id, with the step itself, so no id is another object's meanwhile
        self._done: dict[int, tuple[Step, tuple[str, str]]] = {}

    def of(self, steps: Sequence[Step]) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for step in steps:
            held = self._done.get(id(step))
            if held is None or held[0] is not step:
                held = (step, (translate(step.text, self.lang), translate(step.rule, self.lang)))
                self._done[id(step)] = held
            out.append(held[1])
        return out


def result_json(
    res: Result | None, lang: str = "de", explain: bool = True, texts: _StepTexts | None = None
) -> JSON | None:
    """A deal's result: ``POST /api/v1/<game>/value``'s answer, and a row's ``result``: the
    game's figures (``json_fields``), then the explanation in ``lang`` (empty without
    ``explain``: a PDF shows none, and they are most of a row's text). ``texts``: the
    translations of the steps made so far (a row's)."""
    if res is None:
        return None
    steps = (texts or _StepTexts(lang)).of(res.steps) if explain else []
    return {
        **res.json_fields(),
        "explanation": [text for text, _rule in steps],
        "steps": [{"text": text, "rule": rule} for text, rule in steps],
    }


def rules_json(rules: HouseRules) -> JSON:
    """A sheet's house rules as stored and as the API shows them."""
    return dict(rules.to_json())


def row_json(row: Row, lang: str = "de", explain: bool = True) -> JSON:
    """One row of ``deals`` in a sheet (docs/api.md), texts in ``lang``.

    The keys a row has depend on what it is, exactly as the API has always shaped them: a
    counted row names the Bock triggers it met, a struck one shows its deal without them, and
    a stored deal that no longer evaluates carries ``error`` instead of a description.
    Without ``explain`` the explanations are left empty (``result_json``)."""
    out: JSON = {
        "n": row.n,
        "dealer": row.dealer,
        "active": list(row.active),
        "declarer": row.declarer if row.error is None else None,
        "passed": row.outcome is not None and row.outcome.kind == "passed",
        "struck": row.struck,
        "bock": row.bock,
        "input": dict(row.input),
    }
    texts = _StepTexts(lang)
    counted = {
        "result": result_json(row.result, lang, explain, texts),
        "list": dict(row.list),
        "deltas": dict(row.deltas),
        "totals": dict(row.totals),
    }
    if row.error is not None:
        out.update(counted)
        out.update(error=field_errors(row.error, lang), title="?", explanation=[], steps=[])
    elif row.struck:
        out.update(counted)
        out.update(_described(row, lang, explain, texts))
    else:
        out.update(_described(row, lang, explain, texts))
        out.update(counted)
        out["bock_trigger"] = [t.value for t in row.bock_trigger or ()]
    if row.ramsch_round:
        out["bockramsch"] = True  # a deal of a Bockramsch round (docs/rules.md 1.11)
    if row.bierlachs:
        out["bierlachs"] = list(row.bierlachs)  # who became Bierlachs with this deal
    if row.stock is not None:  # on sheets that keep a Stock: deltas + stock sum to 0
        out["stock"] = row.stock
    if row.written:  # "nur Gute": what each player wrote with this deal (docs/rules.md 2.8)
        out["written"] = dict(row.list)
        out["written_totals"] = dict(row.written_totals or {})
    if row.version is not None:
        out["version"] = row.version
    return out


def _described(row: Row, lang: str, explain: bool, texts: _StepTexts) -> JSON:
    """What a row says about its deal: the same for counted and for struck deals."""
    steps = texts.of(row.steps) if explain else []
    return {
        "title": translate(row.title, lang),
        "explanation": [text for text, _rule in steps],
        "steps": [{"text": text, "rule": rule} for text, rule in steps],
        "kind": row.kind.value,
        "declarer": row.declarer,
        "passed": row.outcome is not None and row.outcome.kind == "passed",
        "party": list(row.party),
        "won": row.won,
        "value": row.value,
    }


def settlement_json(settlement: Sequence[Transfer]) -> list[JSON]:
    return [{"from": t.frm, "to": t.to, "cents": t.cents} for t in settlement]


def totals_json(totals: Totals) -> JSON:
    """``totals`` of a sheet: balance, the game's extra figures (Skat: list, Seeger-Fabian),
    games won and lost, and the settlement."""
    out: JSON = {"balance": dict(totals.balance)}
    for name, figures in totals.extra:
        out[name] = dict(figures)
    out["won"] = dict(totals.won)
    out["lost"] = dict(totals.lost)
    out["settlement"] = settlement_json(totals.settlement)
    if totals.bierlachs is not None:
        b = totals.bierlachs
        out["bierlachs"] = {"round": b.round, "minus": dict(b.minus), "lost": dict(b.lost)}
    if totals.stock is not None:  # the Stock as it stands, and who gets what of it back
        out["stock"] = totals.stock
        out["stock_back"] = dict(totals.stock_back or {})
    return out


def computed_json(
    computed: ComputedSheet,
    lang: str = "de",
    before: tuple[Sequence[Row], Sequence[JSON]] | None = None,
    explain: bool = True,
) -> JSON:
    """The computed part of a sheet: ``deals``, ``totals``, ``bock_pending``, ``next_dealer``.

    ``before`` is an earlier serialisation in the same language (its rows and their dicts):
    the dicts of rows that are the very same objects (a computation resumed after appended
    deals keeps them) are reused, so an added deal is serialised once, not the whole sheet.
    Without ``explain`` the rows' explanations are left empty (``row_json``)."""
    done = 0
    old: Sequence[JSON] = ()
    if before is not None:
        old_rows, old = before
        limit = min(len(old_rows), len(computed.rows), len(old))
        rows = computed.rows
        if all(map(operator.is_, old_rows[:limit], rows[:limit])):  # a save: all of them
            done = limit
        while done < limit and old_rows[done] is rows[done]:
            done += 1
    deals = [*old[:done], *(row_json(r, lang, explain) for r in computed.rows[done:])]
    out: JSON = {
        "deals": deals,
        "totals": totals_json(computed.totals),
        "bock_pending": computed.bock_pending,
        "next_dealer": computed.next_dealer,
    }
    if computed.bockramsch:
        out["bockramsch_pending"] = computed.ramsch_pending
        out["next_bockramsch"] = computed.next_ramsch_round
    return out
