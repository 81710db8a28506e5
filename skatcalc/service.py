"""Sheets as the pages and the API see them: stored rows in, computed sheet out.

Totals are never stored: every read recomputes them from the deals with the rules engine.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import date
from typing import Any, TypeVar

from sqlite_utils import Database

from . import db as store
from .rules import marks
from .rules.common import Errors, InvalidDeal
from .rules.sheet import (
    MAX_DEALS,
    DealRecord,
    SheetSpec,
    check_placement,
    compute_sheet,
    dealer_after,
    default_active,
    evaluate_deal,
)

T = TypeVar("T")


def spec_of(sheet: dict[str, Any]) -> SheetSpec:
    return SheetSpec(sheet["game"], tuple(sheet["players"]), sheet["first_dealer"], sheet["rules"])


def head_records(heads: list[dict[str, Any]]) -> list[DealRecord]:
    """Deals already evaluated in a computation that is resumed: they are not read again."""
    return [DealRecord(h["n"], h["dealer"], (), {}, h["struck"]) for h in heads]


def records(deals: list[dict[str, Any]]) -> list[DealRecord]:
    return [
        DealRecord(d["n"], d["dealer"], tuple(d["active"]), d["input"], d["struck"]) for d in deals
    ]


# Per sheet (by its random share token): the revision the entries belong to, and the entries.
# A write bumps the revision, after which nothing older can be asked for, so the first use of
# a newer revision drops the older one's entries: memory follows the sheets, not the writes.
_CACHE: OrderedDict[str, tuple[int, dict[tuple[Any, ...], Any]]] = OrderedDict()
# Sheets kept at once (least recently used go first): a club night's tables and the list page
# fit; the bound only stops hundreds of imported evenings from all staying in memory.
_CACHE_SHEETS = 128
_CACHE_LOCK = threading.Lock()


def derived(sheet: dict[str, Any], what: str, make: Callable[[], T], *key: Any) -> T:
    """``make()`` once per revision of the sheet: views derived from its deals.

    Derived data only: the deals stay the one source of truth, and every write bumps the
    revision, so a cached result is never older than the deals it came from. Results are
    shared between requests: callers read them and never change them. The share token is
    random per sheet, where SQLite may give a deleted sheet's id to a new one."""
    token, rev, entry = sheet["share_token"], sheet["rev"], (what, *key)
    with _CACHE_LOCK:
        held = _CACHE.get(token)
        if held is not None and held[0] == rev and entry in held[1]:
            _CACHE.move_to_end(token)
            return held[1][entry]  # type: ignore[no-any-return]
    value = make()
    with _CACHE_LOCK:
        held = _CACHE.get(token)
        if held is None or held[0] < rev:
            held = (rev, {})
            _CACHE[token] = held
        if held[0] == rev:  # a request that read an older revision does not store its result
            held[1][entry] = value
        _CACHE.move_to_end(token)
        while len(_CACHE) > _CACHE_SHEETS:
            _CACHE.popitem(last=False)
    return value


# The last computed sheet per sheet and language, whatever its revision: an append-only change
# continues from it. Same bound as above, for the same reason.
_LATEST: OrderedDict[tuple[str, str], tuple[tuple[tuple[int, int, bool], ...], dict[str, Any]]] = (
    OrderedDict()
)


def computed_sheet(db: Database, sheet: dict[str, Any], lang: str) -> dict[str, Any]:
    """compute_sheet for the sheet's current revision.

    After deals were only appended (the usual save), the pass goes on from the last result
    instead of starting over; any other change (a correction, a strike) starts from deal 1.
    Which it is comes from the stored deals themselves: number, version and struck flag."""

    def make() -> dict[str, Any]:
        heads = store.deal_heads(db, sheet["id"])
        signature = tuple((h["n"], h["version"], h["struck"]) for h in heads)
        resume = None
        with _CACHE_LOCK:
            latest = _LATEST.get((sheet["share_token"], lang))
        if latest is not None:
            old_sig, old = latest
            if signature[: len(old_sig)] == old_sig:
                resume = old["state"]
        done = resume.count if resume is not None else 0
        # Only the deals after the resume point are read in full and evaluated; of the others
        # only the dealer and struck flag still count (who deals next).
        tail = store.get_deals(db, sheet["id"], after=heads[done - 1]["n"] if done else 0)
        deals = [*head_records(heads[:done]), *records(tail)]
        signature = signature[:done] + tuple((d["n"], d["version"], d["struck"]) for d in tail)
        computed = compute_sheet(spec_of(sheet), deals, lang, resume)
        for row, sig in zip(computed["deals"], signature, strict=True):
            row.setdefault("version", sig[1])
        with _CACHE_LOCK:
            _LATEST[(sheet["share_token"], lang)] = (signature, computed)
            _LATEST.move_to_end((sheet["share_token"], lang))
            while len(_LATEST) > 2 * _CACHE_SHEETS:
                _LATEST.popitem(last=False)
        return computed

    return derived(sheet, "computed", make, lang)


def sheet_json(db: Database, sheet_id: int, lang: str = "de", full: bool = True) -> dict[str, Any]:
    """The sheet exactly as docs/api.md shapes it (plus a few extra keys the pages use)."""
    sheet = store.get_sheet(db, sheet_id)
    computed = computed_sheet(db, sheet, lang)
    out: dict[str, Any] = {
        "id": sheet["id"],
        "name": sheet["name"],
        "game": sheet["game"],
        "players": sheet["players"],
        "first_dealer": sheet["first_dealer"],
        "rules": sheet["rules"],
        "created": sheet["created"],
        "updated": sheet["updated"],
        "group": sheet.get("group_id"),
        "deals": computed["deals"],
        "totals": computed["totals"],
        "next_dealer": computed["next_dealer"],
        "bock_pending": computed["bock_pending"],
    }
    if full:
        out["history"] = store.get_history(db, sheet_id)
    return out


def default_name(game: str) -> str:
    """A new sheet's name when none is given: the game and today's date."""
    return f"{'Skat' if game == 'skat' else 'Schafkopf'} {date.today():%d.%m.%Y}"


def proposed_dealer(db: Database, sheet: dict[str, Any]) -> str:
    """Who deals next, from one row rather than the whole sheet."""
    last = store.last_counting_deal(db, sheet["id"])
    return dealer_after(spec_of(sheet), last["dealer"] if last else None)


def placement(
    spec: SheetSpec, body: Any, proposed: str, keep: dict[str, Any] | None = None
) -> tuple[str, tuple[str, ...]]:
    """Dealer and players of a deal: as given, else as before (corrections), else the rotation."""
    e = Errors()
    body_map = body if isinstance(body, dict) else {}
    dealer, active = check_placement(spec, body_map, e)
    e.raise_if_any()
    if dealer is None:
        dealer = keep["dealer"] if keep else proposed
    if active is None:
        if keep and "dealer" not in body_map:
            active = tuple(keep["active"])
        else:
            active = default_active(spec, dealer)
    return dealer, active


def add_deal(
    db: Database, sheet_id: int, body: Any, lang: str = "de", idem_key: str | None = None
) -> tuple[int, bool]:
    """Validate and store the next deal: (n, stored now) — False for a re-sent save."""
    sheet = store.get_sheet(db, sheet_id)
    spec = spec_of(sheet)
    if store.deal_count(db, sheet_id) >= MAX_DEALS:
        e = Errors()
        e.add(
            "_",
            f"Ein Blatt hat höchstens {MAX_DEALS} Spiele; bitte ein neues Blatt anlegen.",
            f"A sheet holds at most {MAX_DEALS} deals; please start a new sheet.",
        )
        e.raise_if_any()
    expected_n, body = deal_number(body)
    dealer, active = placement(spec, body, proposed_dealer(db, sheet))
    evaluate_deal(spec, body, active, 0, lang)
    return store.add_deal(db, sheet_id, dealer, list(active), body, idem_key, expected_n)


def preview_deal(db: Database, sheet_id: int, body: Any, lang: str = "de") -> dict[str, Any]:
    """The row a deal body would become, Bock included, without storing anything: the entry
    form's live preview (Ramsch has no value route). As the sheet's next deal, or, with
    ``"n"`` of a stored deal, as the correction of that deal."""
    sheet = store.get_sheet(db, sheet_id)
    spec = spec_of(sheet)
    n, body = deal_number(body)
    if n is not None:
        count = store.deal_count(db, sheet_id)
        if n <= count:
            return _preview_correction(db, spec, sheet_id, n, body, lang)
        if n > count + 1:
            e = Errors()
            e.add("n", f"Das nächste Spiel ist Nummer {count + 1}, nicht {n}.",
                  f"The next deal is number {count + 1}, not {n}.")  # fmt: skip
            e.raise_if_any()
    dealer, active = placement(spec, body, proposed_dealer(db, sheet))
    evaluate_deal(spec, body, active, 0, lang)
    current = computed_sheet(db, sheet, lang)
    heads = store.deal_heads(db, sheet_id)
    if current["state"].count == len(heads):  # the current result covers every deal
        before = head_records(heads)
    else:  # a deal came in meanwhile: read them all
        before = records(store.get_deals(db, sheet_id))
    nxt = DealRecord(len(before) + 1, dealer, active, body)
    out = compute_sheet(spec, [*before, nxt], lang, current["state"])
    row: dict[str, Any] = out["deals"][-1]
    return row


def _preview_correction(db: Database, spec: SheetSpec, sheet_id: int, n: int, body: Any,
                        lang: str) -> dict[str, Any]:  # fmt: skip
    """Deal n as the correction ``body`` would make it (its dealer, Bock and running totals)."""
    deals = store.get_deals(db, sheet_id)
    old = deals[n - 1]
    dealer, active = placement(spec, body, old["dealer"], keep=old)
    evaluate_deal(spec, body, active, 0, lang)
    recs = records(deals)
    recs[n - 1] = DealRecord(n, dealer, active, body, old["struck"])
    row: dict[str, Any] = compute_sheet(spec, recs[:n], lang)["deals"][n - 1]
    return row


def deal_number(body: Any, must_be: int | None = None) -> tuple[int | None, Any]:
    """The optional ``"n"`` of a deal body (the number the deal gets, API.md Additions) and
    the body without it: the number is where the deal goes, not part of the deal."""
    if not isinstance(body, dict) or "n" not in body:
        return None, body
    rest = {k: v for k, v in body.items() if k != "n"}
    n = body["n"]
    e = Errors()
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_DEALS:
        e.add("n", f"„n“ ist die Nummer des Spiels: 1 bis {MAX_DEALS}.",
              f"“n” is the deal's number: 1 to {MAX_DEALS}.")  # fmt: skip
    elif must_be is not None and n != must_be:
        e.add("n", f"Dies ist Spiel {must_be}, nicht {n}.", f"This is deal {must_be}, not {n}.")
    e.raise_if_any()
    return n, rest


def describe_row(game: str, row: dict[str, Any], lang: str = "de") -> str:
    """One line naming a computed deal, for messages: "Bernd: Grand mit 2 (72)"; contract,
    marks and value as the sheet's row shows them (rules/marks.py)."""
    text = marks.describe_row(game, row)
    who = f"{row['declarer']}: " if game == "skat" and row.get("declarer") else ""
    shown = [m for m in text.marks if m is not marks.STRUCK]
    flags = "".join(f" {m.text(lang)}" for m in shown)
    value = f" ({text.value})" if text.value else ""
    struck = (" — gestrichen" if lang == "de" else " — struck") if row.get("struck") else ""
    return f"{who}{text.contract.text(lang)}{flags}{value}{struck}"


def correct_deal(
    db: Database,
    sheet_id: int,
    n: int,
    body: Any,
    lang: str = "de",
    expected_version: int | None = None,
) -> None:
    sheet = store.get_sheet(db, sheet_id)
    spec = spec_of(sheet)
    current = store.get_deal(db, sheet_id, n)
    _n, body = deal_number(body, must_be=n)
    dealer, active = placement(spec, body, current["dealer"], keep=current)
    evaluate_deal(spec, body, active, 0, lang)
    store.correct_deal(db, sheet_id, n, dealer, list(active), body, expected_version)


__all__ = ["InvalidDeal", "add_deal", "correct_deal", "sheet_json"]
