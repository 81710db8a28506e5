"""Sheets as the pages and the API see them: stored rows in, computed sheet out.

Totals are never stored: every read recomputes them from the deals with the rules engine.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from . import db as store
from .rules.common import Errors, InvalidDeal
from .rules.sheet import (
    MAX_DEALS,
    DealRecord,
    SheetSpec,
    check_placement,
    compute_sheet,
    default_active,
    evaluate_deal,
    next_dealer,
)


def spec_of(sheet: dict[str, Any]) -> SheetSpec:
    return SheetSpec(sheet["game"], tuple(sheet["players"]), sheet["first_dealer"], sheet["rules"])


def records(deals: list[dict[str, Any]]) -> list[DealRecord]:
    return [
        DealRecord(d["n"], d["dealer"], tuple(d["active"]), d["input"], d["struck"]) for d in deals
    ]


def load(db: Database, sheet_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return store.get_sheet(db, sheet_id), store.get_deals(db, sheet_id)


def sheet_json(db: Database, sheet_id: int, lang: str = "de", full: bool = True) -> dict[str, Any]:
    """The sheet exactly as API.md shapes it (plus a few extra keys the pages use)."""
    sheet, deals = load(db, sheet_id)
    computed = compute_sheet(spec_of(sheet), records(deals), lang)
    for row, stored in zip(computed["deals"], deals, strict=True):
        row["version"] = stored["version"]
    out: dict[str, Any] = {
        "id": sheet["id"],
        "name": sheet["name"],
        "game": sheet["game"],
        "players": sheet["players"],
        "first_dealer": sheet["first_dealer"],
        "rules": sheet["rules"],
        "created": sheet["created"],
        "updated": sheet["updated"],
        "deals": computed["deals"],
        "totals": computed["totals"],
        "next_dealer": computed["next_dealer"],
        "bock_pending": computed["bock_pending"],
    }
    if full:
        out["history"] = store.get_history(db, sheet_id)
    return out


def placement(
    spec: SheetSpec, body: Any, deals: list[dict[str, Any]], keep: dict[str, Any] | None = None
) -> tuple[str, tuple[str, ...]]:
    """Dealer and players of a deal: as given, else as before (corrections), else the rotation."""
    e = Errors()
    body_map = body if isinstance(body, dict) else {}
    dealer, active = check_placement(spec, body_map, e)
    e.raise_if_any()
    if dealer is None:
        dealer = keep["dealer"] if keep else next_dealer(spec, records(deals))
    if active is None:
        if keep and "dealer" not in body_map:
            active = tuple(keep["active"])
        else:
            active = default_active(spec, dealer)
    return dealer, active


def _stored_body(body: dict[str, Any]) -> dict[str, Any]:
    # Dealer and players are kept in their own columns; the input is the deal itself.
    return {k: v for k, v in body.items() if k not in ("dealer", "active")}


def add_deal(
    db: Database, sheet_id: int, body: Any, lang: str = "de", idem_key: str | None = None
) -> tuple[int, bool]:
    """Validate and store the next deal: (n, stored now) — False for a re-sent save."""
    sheet, deals = load(db, sheet_id)
    spec = spec_of(sheet)
    if len(deals) >= MAX_DEALS:
        e = Errors()
        e.add(
            "_",
            f"Ein Blatt hat höchstens {MAX_DEALS} Spiele; bitte ein neues Blatt anlegen.",
            f"A sheet holds at most {MAX_DEALS} deals; please start a new sheet.",
        )
        e.raise_if_any()
    dealer, active = placement(spec, body, deals)
    evaluate_deal(spec, body, active, 0, lang)
    return store.add_deal(db, sheet_id, dealer, list(active), _stored_body(body), idem_key)


def correct_deal(
    db: Database,
    sheet_id: int,
    n: int,
    body: Any,
    lang: str = "de",
    expected_version: int | None = None,
) -> None:
    sheet, deals = load(db, sheet_id)
    spec = spec_of(sheet)
    current = next((d for d in deals if d["n"] == n), None)
    if current is None:
        raise store.NotFound(n)
    dealer, active = placement(spec, body, deals, keep=current)
    evaluate_deal(spec, body, active, 0, lang)
    store.correct_deal(db, sheet_id, n, dealer, list(active), _stored_body(body), expected_version)


def preview(db: Database, sheet_id: int, body: Any, lang: str = "de") -> dict[str, Any]:
    """Score a deal for the live preview without storing it."""
    sheet, deals = load(db, sheet_id)
    spec = spec_of(sheet)
    dealer, active = placement(spec, body, deals)
    out = evaluate_deal(spec, body, active, 0, lang)
    return {
        "title": out.title.text(lang),
        "value": out.value,
        "won": out.won,
        "deltas": out.deltas,
        "list": out.list,
        "explanation": [s.text(lang) for s in out.steps],
    }


__all__ = ["InvalidDeal", "add_deal", "correct_deal", "preview", "sheet_json"]
