"""The one door to the sheets: every read a view needs and every write, with their policies.

Views (every module with a Blueprint) come here and never to ``db``: they load a sheet once per
request (``load_sheet``) and hand that sheet to what they call next; every write takes the
loaded sheet and gives back the sheet as the write left it (its new revision), so nothing is
read again by id. The sheet-name policy is here and nowhere else (``sheet_name``).

Totals are never stored: every read recomputes them from the deals with the rules engine
(once per revision, see ``derived``).
"""

from __future__ import annotations

import dataclasses
import json
import operator
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Any, NamedTuple, TypeVar, cast

from sqlite_utils import Database

from skatcalc import serialize
from skatcalc.jsontypes import JSONObject
from skatcalc.rules import marks
from skatcalc.rules.common import Errors, InvalidDeal, Msg
from skatcalc.rules.sheet import (
    MAX_DEALS,
    ComputedSheet,
    DealRecord,
    Row,
    RuleChange,
    SheetSpec,
    check_placement,
    compute_sheet,
    continue_sheet,
    dealer_after,
    default_active,
    evaluate_deal,
    merge_rules,
    play_rules,
    read_rules,
    seat_names,
)
from skatcalc.rules.sheet import game as game_kind
from skatcalc.rules.stats import statistics
from skatcalc.services import cache
from skatcalc.services import players as people
from skatcalc.store import MAX_ID, NotFound, body_hash, fault_of, get_db, is_id, settings
from skatcalc.store import sheets as store
from skatcalc.store.records import (
    Deal,
    DealFile,
    DealHead,
    HistoryEntry,
    HistoryFile,
    RuleChangeJSON,
    Sheet,
    SheetLock,
    TableEvent,
    TableLock,
)
from skatcalc.store.sheets import Conflict, KeyReused, Taken
from skatcalc.text import translate

T = TypeVar("T")


def spec_of(sheet: Sheet) -> SheetSpec:
    """The sheet's rules engine spec: the rules in force now, and the changes of the rules
    during the evening (each deal is computed under the rules it was played under)."""
    changes = stored_changes(sheet)
    return _spec(sheet.game, tuple(sheet.players), sheet.first_dealer, rules_key(sheet),
                 json.dumps(changes, sort_keys=True) if changes else "")  # fmt: skip


def rules_key(sheet: Sheet) -> str:
    """The sheet's house rules as one text, the same for the same rules: a key of what is kept
    per rules (the spec here, the page's rows, history and entry form)."""
    return json.dumps(sheet.rules, sort_keys=True)


def stored_changes(sheet: Sheet) -> list[RuleChangeJSON]:
    """The sheet's stored rule changes (``{"from_n", "before"}``, oldest first), whether the
    sheet came through ``db`` (a list) or as a bare row of another query (JSON text)."""
    raw = sheet.rule_changes or []
    return json.loads(raw) if isinstance(raw, str) else list(raw)


def _spec(game: str, players: tuple[str, ...], first_dealer: str, rules: str,
          changes: str = "") -> SheetSpec:  # fmt: skip
    # A request asks for its sheet's spec several times (page, form, rows, history): the
    # house rules are read from their JSON once per sheet, not each time (a spec is frozen).
    return cache.kept(cache.SPECS, (game, players, first_dealer, rules, changes),
                      lambda: _read_spec(game, players, first_dealer, rules, changes))  # fmt: skip


def _read_spec(game: str, players: tuple[str, ...], first_dealer: str, rules: str,
               changes: str) -> SheetSpec:  # fmt: skip
    cls = game_kind(game).rules_class
    now = cls.from_stored(json.loads(rules))
    stored = sorted(json.loads(changes) if changes else [], key=lambda c: c["from_n"])
    befores = [cls.from_stored(c["before"]) for c in stored]
    # The rules from a change on are the ones the next change replaced, or those of now.
    afters = [*befores[1:], now]
    typed = [
        RuleChange(int(c["from_n"]), b, a) for c, b, a in zip(stored, befores, afters, strict=False)
    ]
    return SheetSpec(game, players, first_dealer, now, typed)


def rule_changes_json(sheet: Sheet) -> list[JSONObject]:
    """The sheet's ``rule_changes`` (docs/api.md): from which deal on, the rules from there,
    and the rules before it."""
    if not sheet.rule_changes:  # the rules never changed (most sheets): no spec to read
        return []
    return [
        {"from_n": c.from_n, "rules": c.rules.to_json(), "before": c.before.to_json()}
        for c in spec_of(sheet).changes
    ]


def head_records(heads: list[DealHead]) -> list[DealRecord]:
    """Deals already evaluated in a computation that is resumed: they are not read again."""
    return [DealRecord(h.n, h.dealer, (), {}, h.struck) for h in heads]


def records(deals: list[Deal], versions: bool = False) -> list[DealRecord]:
    """Stored deals as the rules read them; with ``versions`` their rows carry the version
    (the sheet as stored does, a preview of a deal that is not stored does not)."""
    return [
        DealRecord(d.n, d.dealer, tuple(d.active), d.input, d.struck,
                   d.version if versions else None)
        for d in deals
    ]  # fmt: skip


# The per-revision cache and the last computations live in ``cache`` with every other process
# cache; these names stay for the code and tests that reach them here.
_CACHE = cache.PER_REVISION
_CACHE_SHEETS = cache.SHEETS_KEPT
_LATEST: cache.ByteBounded[str, tuple[tuple[tuple[int, int, bool], ...], ComputedSheet]] = (
    cache.LATEST_COMPUTED
)
_LATEST_JSON: cache.ByteBounded[
    tuple[str, str], tuple[tuple[Row, ...], list[serialize.JSON], int]
] = cache.LATEST_JSON


def derived(sheet: Sheet, what: str, make: Callable[[], T], *key: object) -> T:
    """``make()`` once per revision of the sheet: views derived from its deals.

    Derived data only: the deals stay the one source of truth, and every write bumps the
    revision, so a cached result is never older than the deals it came from. Results are
    shared between requests: callers read them and never change them (``cache.derived``)."""
    return cache.derived(sheet.share_token, sheet.rev, (what, *key), make)


def computed(db: Database, sheet: Sheet) -> ComputedSheet:
    """compute_sheet for the sheet's current revision, once for both languages.

    After deals were only appended (the usual save), the pass goes on from the last result
    instead of starting over; any other change (a correction, a strike) starts from deal 1.
    Which it is comes from the stored deals themselves: number, version and struck flag."""

    def make() -> ComputedSheet:
        token = sheet.share_token
        heads = store.deal_heads(db, sheet.id)
        signature = tuple((h.n, h.version, h.struck) for h in heads)
        resume = None
        latest = _LATEST.get(token)
        if latest is not None:
            old_sig, old = latest
            # the seats count too: the organiser may re-seat a table (event_desk.py)
            same_seats = tuple(old.state.balance) == tuple(sheet.players)
            if same_seats and signature[: len(old_sig)] == old_sig:
                resume = old.state
        done = resume.count if resume is not None else 0
        # Only the deals after the resume point are read in full and evaluated; of the others
        # only the dealer and struck flag still count (who deals next).
        tail = store.get_deals(db, sheet.id, after=heads[done - 1].n if done else 0)
        deals = [*head_records(heads[:done]), *records(tail, versions=True)]
        signature = signature[:done] + tuple((d.n, d.version, d.struck) for d in tail)
        result = compute_sheet(spec_of(sheet), deals, resume)
        _LATEST.put(token, (signature, result))
        return result

    return derived(sheet, "computed", make)


def sheet_statistics(db: Database, sheet: Sheet) -> dict[str, dict[str, Any]]:
    """The sheet's per-player statistics (``rules.stats.statistics``), once per revision.

    After a save that continued the last computation, its rows are the same objects as before
    plus the new ones: the statistics go on from the last ones over the new rows only. Any
    other change (a correction, a strike, the rules) makes new rows from deal 1 on, and the
    statistics are counted afresh."""

    def make() -> dict[str, dict[str, Any]]:
        rows = computed(db, sheet).rows
        key = (sheet.share_token, sheet.game, tuple(sheet.players))
        held = cache.LATEST_STATS.get(key)
        before, done = None, 0
        if held is not None and len(held[0]) <= len(rows):
            if all(a is b for a, b in zip(held[0], rows, strict=False)):
                before, done = cast(dict[str, dict[str, Any]], held[1]), len(held[0])
        # kept as a whole and never changed; its size worked out, not walked (a save's page
        # makes it anew): the dicts, each player's best and worst deal, their own numbers
        counted = statistics(sheet.game, sheet.players, rows[done:], before)
        size = sys.getsizeof(counted)
        for s in counted.values():
            size += sys.getsizeof(s)
            for deal in (s["best"], s["worst"]):
                if deal is not None:
                    size += sys.getsizeof(deal) + 2 * sys.getsizeof(2**20)
        out = cache.known_size(cache.KeptJson(counted), size)
        cache.LATEST_STATS.put(key, (rows, out))
        return cast(dict[str, dict[str, Any]], out)

    return derived(sheet, "statistics", make)


def computed_sheet(db: Database, sheet: Sheet, lang: str) -> dict[str, Any]:
    """The computed sheet as JSON in ``lang`` (serialize.computed_json), once per revision and
    language: deals, totals, bock_pending, next_dealer."""

    def make() -> serialize.JSON:
        result = computed(db, sheet)
        key = (sheet.share_token, lang)
        held = _LATEST_JSON.sized(key)
        before = (held[0][0], held[0][1]) if held is not None else None
        out = serialize.computed_json(result, lang, before)
        # Kept rows come back as they were; a new one becomes a KeptJson, measured once.
        rows = cast(list[serialize.JSON], out["deals"])
        deals: list[serialize.JSON] = [
            d if type(d) is cache.KeptJson else cache.KeptJson(d) for d in rows
        ]
        kept = cache.KeptJson({**out, "deals": deals})
        # After a save, the last rows and one more: sized by arithmetic, not walked (the
        # rest, totals and the like, takes what it took before: the same players' figures).
        size = None if held is None else cache.appended_size(held[0][1], held[1], deals)
        if held is not None and size is not None:
            rest = held[0][2]
            cache.known_size(kept, size + rest)
        else:
            whole = cache.approx_size(kept)  # walked once here, and kept with it
            size = cache.approx_size(deals)
            rest = whole - size
        _LATEST_JSON.put(key, (result.rows, deals, rest), size)
        return kept

    return derived(sheet, "computed-json", make, lang)


def sheet_json(db: Database, sheet: Sheet, lang: str = "de", full: bool = True) -> dict[str, Any]:
    """The sheet exactly as docs/api.md shapes it (plus a few extra keys the pages use)."""
    data = computed_sheet(db, sheet, lang)
    out: dict[str, Any] = {
        "id": sheet.id,
        "name": sheet.name,
        "game": sheet.game,
        "players": sheet.players,
        "first_dealer": sheet.first_dealer,
        "rules": sheet.rules,
        "rule_changes": rule_changes_json(sheet),
        "created": sheet.created,
        "updated": sheet.updated,
        "group": sheet.group_id,
        "closed": bool(sheet.closed),
        "closed_at": sheet.closed,
        "deals": data["deals"],
        "totals": data["totals"],
        "next_dealer": data["next_dealer"],
        "bock_pending": data["bock_pending"],
    }
    for key in ("bockramsch_pending", "next_bockramsch"):  # Bockramsch sheets only
        if key in data:
            out[key] = data[key]
    if full:
        # Field by field, not dataclasses.asdict: that deep-copies each entry's ``before``, which
        # the store has just decoded for this answer alone; a sheet kept through the API has an
        # entry per deal, and asdict made every answer's history ~10 times dearer than this.
        out["history"] = [
            {"at": h.at, "action": h.action, "n": h.n, "before": h.before}
            for h in history(db, sheet)
        ]
    return out


# Stands for the deals in the sheet's JSON while the rest is written: no JSON value of a sheet
# can be this string (names and texts carry no control characters, and the keys written
# before "deals" are the server's own).
_DEALS_MARK = "\x00deals\x00"
# The mark as any JSON writer writes it: a control character only as its ``\u`` escape, and
# NUL's has no letters (where a writer wrote it otherwise, the count below finds no mark and
# the JSON is written whole).
_DEALS_MARK_JSON = '"\\u0000deals\\u0000"'


def sheet_text(out: dict[str, Any], dumps: Callable[[Any], str]) -> str:
    """``dumps(out)`` for a sheet's JSON (``sheet_json``), the same text, with each deal's row
    written once and kept (``cache.KeptJson``): a save answers the whole sheet, and writing
    48 unchanged rows again was a third of its cost."""
    return "".join(sheet_pieces(out, dumps))


ROWS_PER_PIECE = 50  # a piece of a large sheet's JSON: ~0.2–0.5 MB of text


def sheet_pieces(out: dict[str, Any], dumps: Callable[[Any], str]) -> Iterator[str]:
    """``sheet_text`` in pieces, a few rows each, for the packing (``cache.packed_pieces``):
    each row is written by a call of its own, so other threads run between them, and the
    whole text is never held at once."""
    parts = _around_deals(out, dumps)
    if parts is None:
        yield dumps(out)
        return
    before, after, comma, deals = parts
    yield before + "["
    for i in range(0, len(deals), ROWS_PER_PIECE):
        rows = comma.join(d.encoded(dumps) for d in deals[i : i + ROWS_PER_PIECE])
        yield (comma if i else "") + rows
    yield "]" + after


def sheet_utf8_pieces(out: dict[str, Any], dumps: Callable[[Any], str],
                      kept_as: tuple[str, str] | None = None) -> Iterator[bytes]:  # fmt: skip
    """``sheet_pieces`` as UTF-8, each row's bytes kept with its text: a save answers the
    whole sheet, and encoding the rows' text again was a tenth of its cost. With ``kept_as``
    (the sheet's token and the language) the rows' pieces are kept joined as sent
    (``cache.ROWS_UTF8``): the next answer whose first rows are the very same objects (a save
    after a save) joins only its new rows to them."""
    parts = _around_deals(out, dumps)
    if parts is None:
        yield dumps(out).encode("utf-8")
        return
    before, after, comma, deals = parts
    sep = comma.encode("utf-8")
    yield (before + "[").encode("utf-8")
    held = cache.ROWS_UTF8.get(kept_as) if kept_as is not None else None
    old_rows: Sequence[cache.KeptJson] = ()
    old_pieces: list[bytes] = []
    if held is not None and held[0] == dumps and len(held[1]) <= len(deals):
        if all(map(operator.is_, held[1], deals)):
            old_rows, old_pieces = held[1], held[2]
    pieces: list[bytes] = []
    for k, i in enumerate(range(0, len(deals), ROWS_PER_PIECE)):
        chunk = deals[i : i + ROWS_PER_PIECE]
        done = min(ROWS_PER_PIECE, len(old_rows) - i) if k < len(old_pieces) else 0
        rows = sep.join(d.encoded_utf8(dumps) for d in chunk[done:])
        if done:  # the piece's first rows, as joined before
            rows = old_pieces[k] + sep + rows if rows else old_pieces[k]
        pieces.append(rows)
        yield sep + rows if i else rows
    yield ("]" + after).encode("utf-8")
    if kept_as is not None:
        cache.ROWS_UTF8.put(kept_as, (dumps, tuple(deals), pieces))


def _around_deals(out: dict[str, Any], dumps: Callable[[Any], str]
                  ) -> tuple[str, str, str, list[cache.KeptJson]] | None:  # fmt: skip
    """The sheet's JSON before and after its deals' list, the item separator, and the kept
    rows; None where the deals are not all kept rows (then the JSON is written whole)."""
    deals = out.get("deals")
    if not isinstance(deals, list) or not {*map(type, deals)} <= {cache.KeptJson}:
        return None
    head = dumps({**out, "deals": _DEALS_MARK})
    mark = _DEALS_MARK_JSON
    if head.count(mark) != 1:
        return None
    comma = dumps([0, 0])[2:-2]  # the item separator dumps writes (", ")
    before, after = head.split(mark)
    return before, after, comma, deals


def sheet_bytes(sheet: Sheet, lang: str, shape: str, make: Callable[[], bytes]) -> bytes:
    """A file or answer made of the sheet (``shape`` names which: the API's JSON, the
    export's, packed or not), once per revision and language: every write bumps the
    revision, and a 1,000-deal sheet is ~9 MB of JSON, too much to build for every request."""
    key = (sheet.share_token, sheet.rev, lang, shape)
    data = cache.SHEET_JSON.get(key)
    if data is None:
        data = make()
        cache.SHEET_JSON.put(key, data)
    return data


def sheet_packed(sheet: Sheet, lang: str, shape: str, make: Callable[[], bytes]
                 ) -> tuple[bytes, bool]:  # fmt: skip
    """As ``sheet_bytes``, but a large answer is kept gzipped only; True when these bytes
    are gzipped."""
    return cache.packed((sheet.share_token, sheet.rev, lang, shape), make)


def api_pieces(db: Database, sheet: Sheet, lang: str,
               dumps: Callable[[Any], str]) -> Iterator[bytes]:  # fmt: skip
    """The API's JSON of the sheet (``GET /api/v1/sheets/<id>``) in pieces, as ``jsonify``
    writes it with ``dumps``."""
    yield from sheet_utf8_pieces(sheet_json(db, sheet, lang), dumps, (sheet.share_token, lang))
    yield b"\n"


def kept_packed(sheet: Sheet, lang: str, shape: str) -> tuple[bytes, bool] | None:
    """The bytes ``sheet_packed`` keeps for the sheet's revision, if it has them."""
    key = (sheet.share_token, sheet.rev, lang, shape)
    gz = cache.SHEET_JSON.get((*key, "gz"))
    if gz is not None:
        return gz, True
    data = cache.SHEET_JSON.get(key)
    return None if data is None else (data, False)


def keep_packed(sheet: Sheet, lang: str, shape: str, gz: bytes) -> None:
    """Keep ``gz`` (gzipped, made elsewhere) as ``sheet_packed``'s bytes of the revision."""
    cache.SHEET_JSON.put((sheet.share_token, sheet.rev, lang, shape, "gz"), gz)


def deal_count(db: Database, sheet: Sheet) -> int:
    """How many deals the sheet has (struck ones too)."""
    return store.deal_count(db, sheet.id)


def sheet_packed_pieces(sheet: Sheet, lang: str, shape: str,
                        pieces: Callable[[], Iterator[bytes]]) -> tuple[bytes, bool]:  # fmt: skip
    """As ``sheet_packed``, the bytes made piece by piece (``cache.packed_pieces``)."""
    return cache.packed_pieces((sheet.share_token, sheet.rev, lang, shape), pieces)


def default_name(game: str) -> str:
    """A new sheet's name when none is given: the game and today's date."""
    return f"{game_kind(game).label.de} {date.today():%d.%m.%Y}"


def proposed_dealer(db: Database, sheet: Sheet, at: int | None = None) -> str:
    """Who deals next, from one row rather than the whole sheet; with ``at``, who the
    rotation proposed for deal ``at`` (the deals after it not counted)."""
    if at is None:
        last = store.last_counting_deal(db, sheet.id)
    else:
        last = store.counting_deal_before(db, sheet.id, at)
    return dealer_after(spec_of(sheet), last.dealer if last else None)


def keyed_number(db: Database, sheet: Sheet, idem_key: str | None) -> int | None:
    """The number of the deal a save with this key already stored, if one did: a retry after
    a lost answer reads its form with the dealer the rotation proposed for that deal."""
    found = store.keyed_deal(db, sheet.id, idem_key) if idem_key else None
    return None if found is None else found[0]


def placement(
    spec: SheetSpec, body: object, proposed: str, keep: Deal | None = None
) -> tuple[str, tuple[str, ...]]:
    """Dealer and players of a deal: as given, else as before (corrections), else the rotation."""
    e = Errors()
    body_map = body if isinstance(body, dict) else {}
    dealer, active = check_placement(spec, body_map, e)
    e.raise_if_any()
    if dealer is None:
        dealer = keep.dealer if keep else proposed
    if active is None:
        if keep and "dealer" not in body_map:
            active = tuple(keep.active)
        else:
            active = default_active(spec, dealer)
    return dealer, active


def add_deal(
    db: Database,
    sheet: Sheet,
    body: object,
    lang: str = "de",
    idem_key: str | None = None,
    proposed: str | None = None,
) -> Saved:
    """Validate and store the next deal: its number, whether it was stored now (False for a
    re-sent save) and the sheet after it. ``proposed`` is who deals next when the caller
    already worked it out (the entry form does, to read its dealer field)."""
    try:
        return _add_deal(db, sheet, body, idem_key, proposed, resume=True)
    except store.NotNext:
        # Deals were written without the revision going up (by hand, another tool): the kept
        # computation is not the stored deals'. The save goes the long way, reading them.
        return _add_deal(db, sheet, body, idem_key, proposed, resume=False)


def _add_deal(db: Database, sheet: Sheet, body: object, idem_key: str | None,
              proposed: str | None, *, resume: bool) -> Saved:  # fmt: skip
    sheet_id = sheet.id
    spec = spec_of(sheet)
    if idem_key and (found := store.keyed_deal(db, sheet_id, idem_key)) is not None:
        # A re-sent save (its answer was lost): the deal is there, whatever happened since
        # (the next deals, the sheet closed); it is answered without a write and without
        # judging it again as the next deal, which it no longer is.
        n, stored_hash = found
        _n, again = deal_number(body)
        again = seat_names(spec.players, again)
        if stored_hash is not None and stored_hash != body_hash(again):
            raise KeyReused(n)
        return Saved(n, False, sheet)
    grown: ComputedSheet | None = None
    with sheet_write(db, sheet) as state:
        # Nothing written since the sheet was loaded, and its computation kept: the save goes
        # on from it (deal count, next dealer, Bock from there) and reads nothing more.
        kept = _kept_computation(sheet, state) if resume else None
        count = kept.state.count if kept is not None else store.deal_count(db, sheet_id)
        if count >= MAX_DEALS:
            e = Errors()
            e.add(
                "_",
                "Ein Blatt hat höchstens %(max)s Spiele; bitte ein neues Blatt anlegen.",
                max=MAX_DEALS,
            )
            e.raise_if_any()
        # a re-sent save stays one (with ``kept`` its key was looked for at this revision)
        if kept is not None or not (idem_key and store.has_key(db, sheet_id, idem_key)):
            refuse_if_finished(sheet, state)
        expected_n, body = deal_number(body)
        body = seat_names(spec.players, body)
        if proposed is None:
            proposed = kept.next_dealer if kept is not None else proposed_dealer(db, sheet)
        dealer, active = placement(spec, body, proposed)
        if kept is None:
            evaluate_deal(spec, body, active, ramsch_round=in_ramsch_round(db, sheet, spec))
            n, stored = store.add_deal(db, sheet_id, dealer, list(active), _accepted(body),
                                       idem_key, expected_n)  # fmt: skip
            after = _written(db, sheet)
        else:
            n, stored = count + 1, True
            body, text, grown = _appended(spec, kept, n, dealer, active, body)
            if expected_n is not None and expected_n != n:
                raise Taken(expected_n, n)
            at = store.append_deal(db, sheet_id, n, dealer, list(active), body, text, idem_key)
            after = dataclasses.replace(sheet, rev=state.rev + 1, updated=at)
    if kept is not None and grown is not None:  # committed: the new revision's computation
        _keep_computation(after, kept, grown)
        _continue_history(sheet, after, n)
    return Saved(n, stored, after)


def _kept_computation(sheet: Sheet, state: SheetLock) -> ComputedSheet | None:
    """The kept computation of the sheet as loaded, when no write came since (the revision
    under the write lock is the loaded one): it is the computation of the stored deals."""
    if state.rev != sheet.rev:
        return None
    kept = cache.held_derived(sheet.share_token, sheet.rev, ("computed",))
    return kept if isinstance(kept, ComputedSheet) else None


def _appended(spec: SheetSpec, kept: ComputedSheet, n: int, dealer: str,
              active: tuple[str, ...], body: object,
              ) -> tuple[JSONObject, str, ComputedSheet]:  # fmt: skip
    """The next deal checked and computed at once, on the kept computation: the body as
    stored and read back (its keys sorted), its stored text, and the sheet with it. The deal
    is evaluated once, as the sheet counts it (with the Bock in force); a body it refuses is
    judged again as sent, for the same errors as ever."""
    if isinstance(body, dict):
        text = store.body_text(body)
        deal = DealRecord(n, dealer, active, json.loads(text), False, 1)
        try:
            return body, text, continue_sheet(spec, kept, deal)
        except InvalidDeal:
            pass
    in_round = bockramsch_of(spec) and kept.next_ramsch_round
    evaluate_deal(spec, body, active, ramsch_round=in_round)  # the errors, as sent
    # Not refused as sent: stored as before, its row tells what is wrong with it.
    accepted = _accepted(body)
    text = store.body_text(accepted)
    deal = DealRecord(n, dealer, active, json.loads(text), False, 1)
    return accepted, text, compute_sheet(spec, [*_heads(kept), deal], kept.state)


def _heads(computed: ComputedSheet) -> list[DealRecord]:
    """The deals of a computation as a resumed one reads them (number, dealer, struck)."""
    return [DealRecord(r.n, r.dealer, (), {}, r.struck) for r in computed.rows]


def _keep_computation(sheet: Sheet, kept: ComputedSheet, grown: ComputedSheet) -> None:
    """Keep ``grown`` (``kept`` and one appended deal) as the computation of the sheet's new
    revision and as the last one, with its size worked out, not walked."""
    token = sheet.share_token
    rows = grown.rows
    cache.grown_size(kept, grown, rows[-1:], rows[-1 - cache.LIKE_SIBLINGS : -1], holders=2)
    latest = _LATEST.get(token, touch=False)
    if latest is not None and latest[1] is kept:
        _LATEST.put(token, ((*latest[0], (rows[-1].n, 1, False)), grown))
    elif all(r.version is not None for r in rows):
        _LATEST.put(token, (tuple((r.n, r.version or 0, r.struck) for r in rows), grown))
    cache.keep_derived(token, sheet.rev, ("computed",), grown)


def preview_deal(db: Database, sheet: Sheet, body: object, lang: str = "de") -> dict[str, Any]:
    """The row a deal body would become, Bock included, without storing anything: the entry
    form's live preview (Ramsch has no value route). As the sheet's next deal, or, with
    ``"n"`` of a stored deal, as the correction of that deal."""
    sheet_id = sheet.id
    spec = spec_of(sheet)
    n, body = deal_number(body)
    body = seat_names(spec.players, body)
    if n is not None:
        count = store.deal_count(db, sheet_id)
        if n <= count:
            return _preview_correction(db, spec, sheet_id, n, body, lang)
        if n > count + 1:
            e = Errors()
            e.add("n", "Das nächste Spiel ist Nummer %(count)s, nicht %(n)s.", count=count + 1, n=n)  # fmt: skip
            e.raise_if_any()
    dealer, active = placement(spec, body, proposed_dealer(db, sheet))
    evaluate_deal(spec, body, active, ramsch_round=in_ramsch_round(db, sheet, spec))
    current = computed(db, sheet)
    heads = store.deal_heads(db, sheet_id)
    if current.state.count == len(heads):  # the current result covers every deal
        before = head_records(heads)
    else:  # a deal came in meanwhile: read them all
        before = records(store.get_deals(db, sheet_id))
    nxt = DealRecord(len(before) + 1, dealer, active, _accepted(body))
    out = compute_sheet(spec, [*before, nxt], current.state)
    return serialize.row_json(out.rows[-1], lang)


def _preview_correction(db: Database, spec: SheetSpec, sheet_id: int, n: int, body: object,
                        lang: str) -> dict[str, Any]:  # fmt: skip
    """Deal n as the correction ``body`` would make it (its dealer, Bock and running totals)."""
    deals = store.get_deals(db, sheet_id)
    old = deals[n - 1]
    dealer, active = placement(spec, body, old.dealer, keep=old)
    recs = records(deals)
    # under the rules deal n was played under
    evaluate_deal(spec.at(n), body, active, ramsch_round=_round_at(spec, recs, n))
    recs[n - 1] = DealRecord(n, dealer, active, _accepted(body), old.struck)
    return serialize.row_json(compute_sheet(spec, recs[:n]).rows[n - 1], lang)


def bockramsch_of(spec: SheetSpec) -> bool:
    """Whether the sheet plays Bockramsch (docs/rules.md 1.11; Skat's house rule), now or
    under rules it had earlier in the evening."""
    every = [spec.rules, *(c.before for c in spec.changes)]
    return any(getattr(r, "bockramsch", False) for r in every)


def in_ramsch_round(db: Database, sheet: Sheet, spec: SheetSpec) -> bool:
    """Whether the sheet's next deal belongs to a Bockramsch round: where it does, a deal is
    checked as such (a Ramsch or a Grand Hand)."""
    return bockramsch_of(spec) and computed(db, sheet).next_ramsch_round


def _round_at(spec: SheetSpec, recs: list[DealRecord], n: int) -> bool:
    """Whether deal ``n`` of these belongs to a Bockramsch round (the deals before it say)."""
    return bockramsch_of(spec) and compute_sheet(spec, recs[: n - 1]).next_ramsch_round


def _accepted(body: object) -> JSONObject:
    """A deal body as :func:`evaluate_deal` accepted it: a JSON object (it refuses any other
    value with this very message, so this is never the one to refuse it)."""
    if isinstance(body, dict):
        return body
    e = Errors()
    e.add("_", "Erwartet wird ein JSON-Objekt mit Feldern.")
    raise InvalidDeal(list(e.items))


def deal_number(body: object, must_be: int | None = None) -> tuple[int | None, object]:
    """The optional ``"n"`` of a deal body (the number the deal gets, API.md Additions) and
    the body without it: the number is where the deal goes, not part of the deal."""
    if not isinstance(body, dict) or "n" not in body:
        return None, body
    rest = {k: v for k, v in body.items() if k != "n"}
    n = body["n"]
    e = Errors()
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_DEALS:
        e.add("n", "„n“ ist die Nummer des Spiels: 1 bis %(max)s.", max=MAX_DEALS)  # fmt: skip
    elif must_be is not None and n != must_be:
        e.add("n", "Dies ist Spiel %(must_be)s, nicht %(n)s.", must_be=must_be, n=n)
    e.raise_if_any()
    return n, rest


def describe_row(game: str, row: Row, lang: str = "de") -> str:
    """One line naming a computed deal, for messages: "Bernd: Grand mit 2 (72)"; contract,
    marks and value as the sheet's row shows them (rules/marks.py)."""
    text = marks.describe_row(game, row)
    who = f"{row.declarer}: " if game_kind(game).keeps_list and row.declarer else ""
    shown = [m for m in text.marks if m is not marks.STRUCK]
    flags = "".join(f" {translate(m, lang)}" for m in shown)
    value = f" ({text.value})" if text.value else ""
    struck = " — " + translate("gestrichen", lang) if row.struck else ""
    return f"{who}{translate(text.contract, lang)}{flags}{value}{struck}"


def correct_deal(
    db: Database,
    sheet: Sheet,
    n: int,
    body: object,
    lang: str = "de",
    expected_version: int | None = None,
    current: Deal | None = None,
) -> Sheet:
    """Validate and store a correction of deal ``n``; the sheet after it. ``current`` is the
    deal as the caller already read it (its dealer and players stay unless the body names
    them); ``expected_version`` makes a change made meanwhile a :class:`Conflict`. A correction
    that would store what is stored (``store.correct_deal``) writes nothing: the same sheet,
    same revision, is returned."""
    spec = spec_of(sheet)
    try:
        return _correct(db, sheet, n, body, spec, expected_version, current)
    except _Unchanged:
        return sheet


def _correct(db: Database, sheet: Sheet, n: int, body: object, spec: SheetSpec,
             expected_version: int | None, current: Deal | None) -> Sheet:  # fmt: skip
    sheet_id = sheet.id
    with sheet_write(db, sheet):
        if current is None:
            current = get_deal(db, sheet, n)
        _n, body = deal_number(body, must_be=n)
        body = seat_names(spec.players, body)
        dealer, active = placement(spec, body, current.dealer, keep=current)
        in_round = (_round_at(spec, records(store.get_deals(db, sheet_id)), n)
                    if bockramsch_of(spec) else False)  # fmt: skip
        evaluate_deal(spec.at(n), body, active, ramsch_round=in_round)  # its rules
        if not store.correct_deal(db, sheet_id, n, dealer, list(active), _accepted(body),
                                  expected_version):  # fmt: skip
            # nothing stored: no new version, no history line, the revision stays (and a
            # double-entry partner's page is not told of a change)
            raise _Unchanged
        return _written(db, sheet)


class _Unchanged(Exception):
    """A correction that stores what is stored: the write's transaction is left untouched."""


# --- The one door: reads ----------------------------------------------------------------------


def load_sheet(db: Database, sheet_id: int) -> Sheet:
    """The sheet as stored; :class:`NotFound` when there is none. A request loads its sheet
    once, here, and passes it on."""
    return store.get_sheet(db, sheet_id)


def list_sheets(db: Database) -> list[Sheet]:
    """Every sheet, newest first, with its ``deal_count``."""
    return store.list_sheets(db)


def sheet_summaries(
    db: Database, summarize: Callable[[Sheet], dict[str, Any]]
) -> list[tuple[Sheet, dict[str, Any]]]:
    """Every sheet with what the list of sheets shows of it (kept per revision, see db)."""
    return store.sheet_summaries(
        db, summarize, cache.CODE_VERSION, cache.SUMMARIES, cache.SUMMARIES_LOCK
    )


def history(db: Database, sheet: Sheet) -> list[HistoryEntry]:
    """The sheet's changes, oldest first: add, correct, strike, restore (with the deal before).
    Read once per revision and kept (``cache.HISTORIES``; callers never change it); a save
    continues the kept one with its entry (``_continue_history``)."""
    held = cache.HISTORIES.get(sheet.share_token)
    if held is not None and held[0] == sheet.rev:
        return held[1]
    entries = store.get_history(db, sheet.id)
    cache.HISTORIES.put(sheet.share_token, (sheet.rev, entries), cache.history_size(entries))
    return entries


def _continue_history(before: Sheet, after: Sheet, n: int) -> None:
    """Keep the history of ``after`` (``before`` and the deal ``n`` that a save appended, the
    one entry it wrote) when that of ``before`` is kept: not read again for the answer and
    the page."""
    held = cache.HISTORIES.sized(before.share_token)
    if held is None or held[0][0] != before.rev:
        return
    (_rev, entries), size = held
    entry = HistoryEntry(at=after.updated, action="add", n=n, before=None)
    grown = [*entries, entry]
    size += cache.history_entry_size(entry) + sys.getsizeof(grown) - sys.getsizeof(entries)
    cache.HISTORIES.put(after.share_token, (after.rev, grown), size)


def get_deal(db: Database, sheet: Sheet, n: int) -> Deal:
    """Deal ``n`` of the sheet as stored; :class:`NotFound` when there is none."""
    return store.get_deal(db, sheet.id, n)


# --- The one door: the sheet's name -----------------------------------------------------------

MAX_SHEET_NAME = 80
IMPORT_SUFFIX = " (Import)"  # the page's import: the copy is told apart from its original
IMPORT_NAME = "Import"  # an imported file without a name


class BadName(ValueError):
    """A new name for a sheet that is empty or longer than :data:`MAX_SHEET_NAME`."""


def sheet_name(given: object, game: str, suffix: str = "", fallback: str | None = None) -> str:
    """The one name policy for a new sheet (the page's form, the API, an import, a club
    night's tables): the given text without surrounding blanks, cut to ``MAX_SHEET_NAME``
    with ``suffix`` still in it; none given (or only blanks, or not text) gives ``fallback``,
    by default the game and today's date ("Skat 21.11.2026")."""
    if isinstance(given, str) and given.strip():
        return given.strip()[: MAX_SHEET_NAME - len(suffix)] + suffix
    return default_name(game) if fallback is None else fallback


def new_name(given: str | None) -> str:
    """A rename's name: the same policy, but refused (:class:`BadName`) rather than cut or
    made up, since the person typed it to be the name."""
    name = (given or "").strip()
    if not name or len(name) > MAX_SHEET_NAME:
        raise BadName(name)
    return name


# --- The one door: writes ---------------------------------------------------------------------


class Saved(NamedTuple):
    n: int  # the deal's number
    stored: bool  # False: a re-sent save found the deal its key had stored
    sheet: Sheet  # the sheet after the save


class Changed(NamedTuple):
    changed: bool  # False: the deal already was in that state
    sheet: Sheet  # the sheet after the write


def _written(db: Database, sheet: Sheet, **fields: Any) -> Sheet:
    """The loaded sheet as a write just left it, inside the write's transaction: the new
    revision and time (and ``fields`` the write set), without loading the sheet again."""
    rev, updated = store.sheet_revision(db, sheet.id)
    return dataclasses.replace(sheet, **fields, rev=rev, updated=updated)


# --- The one door: settled results stay settled ------------------------------------------------


class Settled(Exception):
    """A write refused because what it would change is settled: the sheet is closed, its
    club night is closed, or its series is finished. Answered 409 with the sheet as it is
    (errors.py); nothing was stored. ``msg`` is language-free (``text.translate``)."""

    def __init__(self, sheet_id: int, msg: Msg) -> None:
        super().__init__(msg.de)
        self.sheet_id = sheet_id
        self.msg = msg


@contextmanager
def sheet_write(db: Database, sheet: Sheet) -> Iterator[SheetLock]:
    """The one write path to a stored sheet, the central guard of settled results: every
    write (add, correct, strike, restore, undo, rename, and any later one such as a change of
    the rules) runs its storing inside ``with sheet_write(db, sheet) as state:``. One
    transaction; SQLite's write lock is taken first, then a closed sheet or closed club night
    raises :class:`Settled` before anything is written. ``state`` (db.lock_sheet) tells the
    write more that may refuse it: the deals played, the table's event and planned deals."""
    with db.atomic():
        state = store.lock_sheet(db, sheet.id)
        refuse_if_closed(sheet, state)
        refuse_if_confirmed(sheet, state)
        yield state
        partner = state.event.partner if state.event is not None else None
        if partner is not None:  # double entry: the other list's page compares with this one
            store.bump_sheet(db, partner)


def refuse_if_confirmed(sheet: Sheet, state: SheetLock) -> None:
    """A club night's table that confirmed its list of the series takes no writes (either
    list) until the organiser unlocks it (event_service.unlock_table)."""
    event = state.event
    if event is not None and event.confirmed:
        raise Settled(sheet.id, Msg(
            "Tisch bestätigt: die Liste dieser Serie ist abgezeichnet. Nichts gespeichert; "
            "die Turnierleitung kann sie wieder freigeben."))  # fmt: skip


def refuse_if_closed(sheet: Sheet, state: SheetLock) -> None:
    event = state.event
    if event is not None and (event.closed or state.closed):
        raise Settled(sheet.id, Msg(
            "Das Turnier ist abgeschlossen. Nichts gespeichert; die Turnierleitung kann es "
            "wieder öffnen."))  # fmt: skip
    if state.closed:
        raise Settled(sheet.id, Msg(
            "Der Abend ist abgeschlossen. Nichts gespeichert; wer das Blatt ändern darf, kann "
            "ihn wieder öffnen."))  # fmt: skip


def planned_deals(state: SheetLock) -> int | None:
    """Deals a club night's table plays in its series (the series' own length if the
    organiser lengthened it); None for any other sheet, or a table size without a plan."""
    event = state.event
    if event is None:
        return None
    planned = int(event.deals.get(str(state.players), 0))
    return planned or None


def refuse_if_paper(sheet: Sheet, state: SheetLock) -> None:
    """A club night's table kept on paper (the desk typed its foot) takes no deals: its
    figures are the foot's alone."""
    if state.event is not None and state.event.paper:
        raise Settled(sheet.id, Msg(
            "Dieser Tisch spielt auf Papier: die Turnierleitung hat den Fuß seiner Liste "
            "eingetragen. Nichts gespeichert."))  # fmt: skip


def refuse_if_finished(sheet: Sheet, state: SheetLock) -> None:
    """A club night's table takes no deal beyond its series' planned length (struck deals
    do not count: they were never dealt)."""
    refuse_if_paper(sheet, state)
    planned = planned_deals(state)
    if planned is not None and state.played >= planned:
        raise Settled(sheet.id, Msg(
            "Serie fertig: %(played)s von %(planned)s Spielen. Nichts gespeichert; die "
            "Turnierleitung kann die Serie verlängern.",
            played=state.played, planned=planned,
        ))  # fmt: skip


class TableOfEvent(Exception):
    """A club night's table closes and reopens only with its event."""

    def __init__(self, event: TableLock) -> None:
        super().__init__(event.name)
        self.event = event


def close_sheet(db: Database, sheet: Sheet, closed: bool = True) -> Changed:
    """Close the sheet ("Abend abschließen": every later write is refused) or reopen it;
    ``changed`` False when it already was so. A club night's table: :class:`TableOfEvent`."""
    with db.atomic():
        state = store.lock_sheet(db, sheet.id)
        if state.event is not None:
            raise TableOfEvent(state.event)
        changed = store.set_sheet_closed(db, sheet.id, closed)
        rev, updated = store.sheet_revision(db, sheet.id)
        row = store.get_sheet(db, sheet.id)
        return Changed(
            changed, dataclasses.replace(sheet, closed=row.closed, rev=rev, updated=updated)
        )


def create_sheet(
    db: Database,
    name: object,
    game: str,
    players: list[str],
    first_dealer: str,
    rules: JSONObject,
    group_id: int | None = None,
    suffix: str = "",
    fallback: str | None = None,
    day: str | None = None,
) -> Sheet:
    """A new sheet (players and rules already checked by ``normalize_sheet``), named by
    :func:`sheet_name` from ``name`` as given; its seats linked to players, in its group;
    ``day`` the day it belongs to if not today (a club night's date)."""
    title = sheet_name(name, game, suffix, fallback)
    with db.atomic():
        sheet = store.create_sheet(db, title, game, players, first_dealer, rules, group_id, day)
        # its seats linked to players by name (found or created)
        people.link_sheet_players(db, sheet.id, players)
    return sheet


def import_sheet(
    db: Database,
    name: object,
    game: str,
    players: list[str],
    first_dealer: str,
    rules: JSONObject,
    deals: Sequence[DealFile],
    history: Sequence[HistoryFile],
    suffix: str = "",
    rule_changes: list[RuleChangeJSON] | None = None,
) -> Sheet:
    """A checked sheet file (exports.import_json) stored whole in one transaction, or nothing:
    the name policy with ``suffix``; a file without a name gets "Import". ``rule_changes``
    as stored (``from_n`` and ``before``), checked by the import."""
    with db.atomic():
        sheet = create_sheet(db, name, game, players, first_dealer, rules,
                             suffix=suffix, fallback=IMPORT_NAME)  # fmt: skip
        store.fill_sheet(db, sheet.id, deals, history)
        if rule_changes:
            store.set_rule_changes(db, sheet.id, rule_changes)
            sheet = dataclasses.replace(sheet, rule_changes=rule_changes)
    return sheet


def strike_deal(db: Database, sheet: Sheet, n: int) -> Changed:
    """Strike deal ``n`` (it stays on the sheet, counting nothing); :class:`NotFound` when the
    sheet has no such deal."""
    with sheet_write(db, sheet):
        changed = store.set_struck(db, sheet.id, n, True)
        return Changed(changed, _written(db, sheet))


def restore_deal(db: Database, sheet: Sheet, n: int) -> Changed:
    """Take back the strike of deal ``n``."""
    with sheet_write(db, sheet) as state:
        refuse_if_paper(sheet, state)
        changed = store.set_struck(db, sheet.id, n, False)
        return Changed(changed, _written(db, sheet))


def undo_save(db: Database, sheet: Sheet, n: int) -> Changed:
    """Take back a save: strike deal ``n``, the one the undo named, and nothing else. A
    second tap, or one from a page that was out of date, finds it struck and changes
    nothing (``changed`` False), rather than striking whichever deal is last by then."""
    return strike_deal(db, sheet, n)


def change_rules(db: Database, sheet: Sheet, data: object, whole: bool = False) -> Changed:
    """Change the house rules during the evening (``PATCH`` ``{"rules": {...}}``, the
    "Hausregeln" page): the keys merge one by one into the rules in force (nested objects
    too), the result is checked like a new sheet's rules (:class:`InvalidDeal` with
    ``rules.<field>`` errors, nothing stored). The new rules apply from the next deal on;
    the deals before keep the rules they were played under (a change is recorded with the
    rules before it); queued Bock rounds stay. The stake is the whole evening's, so a change
    of the stake alone records no change of the play. Every change is in the history.
    ``changed`` is False when the rules stay as they were. With ``whole`` the rules are given
    whole (the page's form) and nested objects are not merged but replaced.

    Who may change them is the caller's check (the sheet's edit right; on a club night's
    table the organiser's, see :func:`rules_event`)."""
    e = Errors()
    patch = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(patch, dict):
        e.add("rules", "Bitte die geänderten Regeln als Objekt „rules“ senden.")
    elif set(data) - {"rules"}:
        unknown = ", ".join(sorted(set(data) - {"rules"}))
        e.add("_", "Unbekannte Felder: %(fields)s.", fields=unknown)
    e.raise_if_any()
    assert isinstance(patch, dict)
    game = sheet.game
    current = read_rules(game, sheet.rules, Errors()).to_json()
    merged = {**current, **patch} if whole else merge_rules(current, patch)
    new = read_rules(game, merged, e).to_json()
    e.raise_if_any()
    if new == current:
        return Changed(False, sheet)
    with sheet_write(db, sheet):  # a closed sheet (or club night) keeps its rules
        from_n = store.deal_count(db, sheet.id) + 1
        changes = [c.copy() for c in stored_changes(sheet)]
        if from_n > 1 and play_rules(new) != play_rules(current):
            if changes and changes[-1]["from_n"] == from_n:
                # changed again before a deal was played: one change, from the rules before
                if play_rules(changes[-1]["before"]) == play_rules(new):
                    changes.pop()  # taken back
            else:
                changes.append({"from_n": from_n, "before": current})
        store.set_rules(db, sheet.id, new, changes, from_n, current)
        return Changed(True, _written(db, sheet, rules=new, rule_changes=changes))


def rules_event(db: Database, sheet: Sheet) -> TableEvent | None:
    """The club night a sheet is a table of (its id and the organiser's edit token), or
    None: on a table only the organiser may change the rules."""
    return store.event_of_table(db, sheet.id)


def rename_sheet(db: Database, sheet: Sheet, name: str | None) -> Sheet:
    """Rename the sheet (:func:`new_name`: :class:`BadName` for an empty or too long name)."""
    title = new_name(name)
    with sheet_write(db, sheet):
        store.rename_sheet(db, sheet.id, title)
        return _written(db, sheet, name=title)


def delete_sheet(db: Database, sheet_id: int) -> None:
    """The sheet with its deals, history and summary (its id is never given out again).
    Callers decide whether it may go: a club night's table goes with its event only."""
    store.delete_sheet(db, sheet_id)


__all__ = [
    "MAX_ID",
    "Deal",
    "HistoryEntry",
    "SheetLock",
    "TableEvent",
    "TableLock",
    "Sheet",
    "Conflict",
    "InvalidDeal",
    "KeyReused",
    "NotFound",
    "Taken",
    "fault_of",
    "get_db",
    "is_id",
]


# --- Stored tokens (no request needed) --------------------------------------------------------


def read_admin_token(db: Database) -> str:
    """The server's admin token, as migration m012 stored it with the database."""
    return settings.admin_token(db)


DEFAULT_BASE = "http://127.0.0.1:5000"


def admin_link(db: Database, base: str) -> str:
    """The admin link, ``<base>/admin/<token>``, as ``skatcalc serve`` prints it."""
    return f"{base.rstrip('/')}/admin/{read_admin_token(db)}"


def remember_served_url(db: Database, url: str) -> None:
    """The address ``skatcalc serve`` printed, so ``skatcalc admin-link`` prints the same link."""
    settings.set_served_url(db, url.rstrip("/"))


def served_url(db: Database) -> str:
    """The address of the last ``skatcalc serve`` on this database (or the default one)."""
    return settings.served_url(db) or DEFAULT_BASE
