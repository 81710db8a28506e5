"""Sheets, their deals, history, rule changes and idempotency keys: every SQL statement of the
sheet side. Records out (``store.records``); the service (``skatcalc.services.sheets``) is the only
caller."""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext

from sqlite_utils import Database

from ..jsontypes import JSONObject
from . import NotFound, body_hash, cache_write, now, select
from .records import (
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
    deal_of,
    history_of,
    sheet_of,
)


class Taken(Exception):
    """The deal number a save named is not the next one: ``n`` asked, ``next_n`` free."""

    def __init__(self, n: int, next_n: int) -> None:
        super().__init__(f"deal {n} asked, {next_n} is next")
        self.n = n
        self.next_n = next_n


class NotNext(Exception):
    """``append_deal``'s number was taken after all: deals were written without the sheet's
    revision going up (by hand, another tool), so what the caller knew of them is not so."""


class KeyReused(Exception):
    """An Idempotency-Key came back with a different body than the one it stored."""

    def __init__(self, n: int) -> None:
        super().__init__("idempotency key reused")
        self.n = n


class Conflict(Exception):
    def __init__(self, current: Deal) -> None:
        super().__init__("conflict")
        self.current = current


def create_sheet(
    db: Database,
    name: str,
    game: str,
    players: list[str],
    first_dealer: str,
    rules: JSONObject,
    group_id: int | None = None,
    day: str | None = None,
) -> Sheet:
    """A new sheet in its group; ``day`` (YYYY-MM-DD) is the day it belongs to when not the
    day it is made (a club night's tables: the event's date). Its seats are linked to players
    by the caller, in the same transaction (``service.create_sheet``)."""
    at = now()
    with db.atomic():
        table = db.table("sheets")
        table.insert(
            {
                "name": name,
                "game": game,
                "players": json.dumps(players, ensure_ascii=False),
                "first_dealer": first_dealer,
                "rules": json.dumps(rules, ensure_ascii=False, sort_keys=True),
                "edit_token": secrets.token_urlsafe(18),
                "share_token": secrets.token_urlsafe(12),
                "created": at,
                "updated": at,
                "group_id": group_id,
                # only when given: a sheet of its own day is written as before m013
                **({"day": day} if day is not None else {}),
            }
        )
        sheet_id = int(table.last_pk or 0)
    return get_sheet(db, sheet_id)


def get_sheet(db: Database, sheet_id: int) -> Sheet:
    rows = select(db, "select * from sheets where id = ?", [sheet_id])
    if not rows:
        raise NotFound(sheet_id)
    return sheet_of(rows[0])


def list_sheets(db: Database) -> list[Sheet]:
    return [
        sheet_of(r)
        for r in db.query(
            "select s.*, (select count(*) from deals d where d.sheet_id = s.id and not d.struck) as deal_count "
            "from sheets s order by s.created desc, s.id desc"
        )
    ]


_CODE = "_code"  # beside a stored summary: the fingerprint of the code that made it


def sheet_summaries(
    db: Database,
    summarize: Callable[[Sheet], JSONObject],
    code: str = "",
    memo: dict[int, tuple[str, int, str, JSONObject]] | None = None,
    memo_lock: AbstractContextManager[object] | None = None,
) -> list[tuple[Sheet, JSONObject]]:
    """Every sheet with its summary (what the list of sheets shows of it).

    Summaries are derived from the deals and kept per revision, in memory and in the
    ``sheet_summaries`` table (so a restart does not compute every sheet again). Only a sheet
    whose revision moved on, or that was summarized by other code (``code``, the fingerprint
    of the code that summarizes), is summarized anew. Writing the cache never makes a reader wait:
    when another writer holds the database, the row is simply written another time. ``memo``
    (guarded by ``memo_lock``) is the process's memory of them (``cache.SUMMARIES``)."""
    memo = {} if memo is None else memo
    guard = nullcontext() if memo_lock is None else memo_lock
    sheets = [sheet_of(r) for r in db.query("select * from sheets order by created desc, id desc")]
    stored = {
        r["sheet_id"]: (r["rev"], r["summary"])
        for r in db.query("select sheet_id, rev, summary from sheet_summaries")
    }
    out = []
    fresh: list[tuple[int, int, str]] = []
    for s in sheets:
        key = (s.share_token, s.rev, code)
        with guard:
            hit = memo.get(s.id)
        if hit is not None and hit[:3] == key:
            out.append((s, hit[3]))
            continue
        row = stored.get(s.id)
        summary: JSONObject | None = None
        if row is not None and row[0] == s.rev:
            kept = json.loads(row[1])
            if isinstance(kept, dict) and kept.pop(_CODE, None) == code:
                summary = kept
        if summary is None:
            summary = summarize(s)
            kept = {**summary, _CODE: code}
            fresh.append((s.id, s.rev, json.dumps(kept, ensure_ascii=False)))
        with guard:
            memo[s.id] = (*key, summary)
        out.append((s, summary))
    if fresh:
        _store_summaries(db, fresh)
    return out


def _store_summaries(db: Database, rows: list[tuple[int, int, str]]) -> None:
    with cache_write(db):
        db.conn.executemany(
            "insert or replace into sheet_summaries (sheet_id, rev, summary) "
            "select ?1, ?2, ?3 where exists (select 1 from sheets where id = ?1)",
            rows,
        )


def set_rules(
    db: Database,
    sheet_id: int,
    rules: JSONObject,
    changes: list[RuleChangeJSON],
    from_n: int,
    before: JSONObject,
) -> None:
    """The sheet's rules in force from deal ``from_n`` on, its list of rule changes, and the
    change in the history (``before``: the rules up to then), in one transaction."""
    at = now()
    with db.atomic():
        _touch(db, sheet_id, at)
        db.execute(
            "update sheets set rules = ?, rule_changes = ? where id = ?",
            [
                json.dumps(rules, ensure_ascii=False, sort_keys=True),
                json.dumps(changes, ensure_ascii=False, sort_keys=True) if changes else None,
                sheet_id,
            ],
        )
        _log(db, sheet_id, from_n, "rules", at, before)


def event_of_table(db: Database, sheet_id: int) -> TableEvent | None:
    """The event whose table the sheet is: its id and edit token, or None."""
    row = db.execute(
        "select e.id, e.edit_token from event_tables t join events e on e.id = t.event_id "
        "where t.sheet_id = ?",
        [sheet_id],
    ).fetchone()
    return None if row is None else TableEvent(id=int(row[0]), edit_token=str(row[1]))


def set_rule_changes(db: Database, sheet_id: int, changes: list[RuleChangeJSON]) -> None:
    """An imported sheet's rule changes, inside the import's transaction."""
    db.execute(
        "update sheets set rule_changes = ? where id = ?",
        [json.dumps(changes, ensure_ascii=False, sort_keys=True) if changes else None, sheet_id],
    )


def rename_sheet(db: Database, sheet_id: int, name: str) -> None:
    with db.atomic():
        cur = db.execute(
            "update sheets set name = ?, updated = ?, rev = rev + 1 where id = ?",
            [name, now(), sheet_id],
        )
        if cur.rowcount == 0:
            raise NotFound(sheet_id)


def delete_sheet(db: Database, sheet_id: int) -> None:
    with db.atomic():
        get_sheet(db, sheet_id)
        db.execute("delete from sheet_summaries where sheet_id = ?", [sheet_id])
        db.execute("delete from history where sheet_id = ?", [sheet_id])
        db.execute("delete from deals where sheet_id = ?", [sheet_id])
        db.execute("delete from sheets where id = ?", [sheet_id])


def get_deals(db: Database, sheet_id: int, after: int = 0) -> list[Deal]:
    """The sheet's deals in order; with ``after``, only those numbered above it."""
    return [
        deal_of(r)
        for r in select(
            db, "select * from deals where sheet_id = ? and n > ? order by n", [sheet_id, after]
        )
    ]


def deal_heads(db: Database, sheet_id: int) -> list[DealHead]:
    """Number, version, struck flag and dealer of every deal, in order: enough to tell whether
    a computation made earlier still holds, and who deals next, without reading any input."""
    rows = db.execute(
        "select n, version, struck, dealer from deals where sheet_id = ? order by n", [sheet_id]
    ).fetchall()
    return [DealHead(int(n), int(v), bool(s), str(d)) for n, v, s, d in rows]


def last_counting_deal(db: Database, sheet_id: int) -> Deal | None:
    """The last deal that is not struck (struck deals were never really dealt)."""
    rows = select(
        db,
        "select * from deals where sheet_id = ? and struck = 0 order by n desc limit 1",
        [sheet_id],
    )
    return deal_of(rows[0]) if rows else None


def counting_deal_before(db: Database, sheet_id: int, n: int) -> Deal | None:
    """The last deal before deal ``n`` that is not struck: whose seat dealt before it."""
    rows = select(
        db,
        "select * from deals where sheet_id = ? and n < ? and struck = 0 order by n desc limit 1",
        [sheet_id, n],
    )
    return deal_of(rows[0]) if rows else None


def deal_count(db: Database, sheet_id: int) -> int:
    (count,) = next(iter(db.execute("select count(*) from deals where sheet_id = ?", [sheet_id])))
    return int(count)


def get_history(db: Database, sheet_id: int) -> list[HistoryEntry]:
    return [
        history_of(r)
        for r in select(db, "select * from history where sheet_id = ? order by id", [sheet_id])
    ]


def _touch(db: Database, sheet_id: int, at: str) -> None:
    # Writing first takes SQLite's write lock at the start of the transaction, so two
    # devices adding at once queue up instead of failing on a stale read.
    cur = db.execute("update sheets set updated = ?, rev = rev + 1 where id = ?", [at, sheet_id])
    if cur.rowcount == 0:
        raise NotFound(sheet_id)


def _log(db: Database, sheet_id: int, n: int, action: str, at: str, before: object) -> None:
    db.execute(
        "insert into history (sheet_id, n, action, at, before) values (?, ?, ?, ?, ?)",
        [
            sheet_id,
            n,
            action,
            at,
            None if before is None else json.dumps(before, ensure_ascii=False, sort_keys=True),
        ],
    )


def _insert_deal(
    db: Database,
    sheet_id: int,
    n: int,
    dealer: str,
    active: list[str],
    body: JSONObject,
    struck: bool,
    version: int,
    at: str,
    idem_key: str | None = None,
    text: str | None = None,
) -> None:
    db.execute(
        "insert into deals (sheet_id, n, dealer, active, input, struck, version, created, "
        "updated, idem_key, idem_hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            sheet_id,
            n,
            dealer,
            json.dumps(active, ensure_ascii=False),
            body_text(body) if text is None else text,
            int(struck),
            version,
            at,
            at,
            idem_key or None,
            body_hash(body) if idem_key else None,
        ],
    )


def add_deal(
    db: Database,
    sheet_id: int,
    dealer: str,
    active: list[str],
    body: JSONObject,
    idem_key: str | None = None,
    expected_n: int | None = None,
) -> tuple[int, bool]:
    """Store the next deal; (n, False) when ``idem_key`` was already used for this sheet
    with the same body. The same key with another body raises KeyReused: the client reused
    a key by mistake, and replaying the old deal would silently drop the new one. Keys live
    as long as their deal, far longer than the 24 hours a client may take to retry.
    With ``expected_n`` (the number the entry form showed) raise :class:`Taken` instead of
    storing when that is not the next number: two phones entering the same deal."""
    at = now()
    with db.atomic():
        _touch(db, sheet_id, at)
        if idem_key:
            seen = list(
                db.query(
                    "select n, idem_hash from deals where sheet_id = ? and idem_key = ?",
                    [sheet_id, idem_key],
                )
            )
            if seen:
                stored_hash = seen[0]["idem_hash"]
                if stored_hash is not None and stored_hash != body_hash(body):
                    raise KeyReused(int(seen[0]["n"]))
                return int(seen[0]["n"]), False
        (last,) = next(
            iter(db.execute("select coalesce(max(n), 0) from deals where sheet_id = ?", [sheet_id]))
        )
        n = int(last) + 1
        if expected_n is not None and expected_n != n:
            raise Taken(expected_n, n)
        _insert_deal(db, sheet_id, n, dealer, active, body, False, 1, at, idem_key)
        _log(db, sheet_id, n, "add", at, None)
    return n, True


def body_text(body: JSONObject) -> str:
    """A deal body as a deal row stores it (``input``): what a read of the deal decodes."""
    return json.dumps(body, ensure_ascii=False, sort_keys=True)


def append_deal(
    db: Database,
    sheet_id: int,
    n: int,
    dealer: str,
    active: list[str],
    body: JSONObject,
    text: str,
    idem_key: str | None = None,
) -> str:
    """Store deal ``n`` when the caller knows under the sheet's write lock that it is the next
    one and that no deal has ``idem_key`` (the sheet's revision is the one it read them at);
    ``text`` is ``body_text(body)``. No read: the revision goes one up and the time of the
    change, returned, is the sheet's ``updated``. Inside the caller's transaction (the
    sheet's write lock) no savepoint of its own: ``NotNext`` goes through that transaction,
    which rolls back all of it."""
    at = now()
    try:
        with nullcontext() if db.conn.in_transaction else db.atomic():
            _touch(db, sheet_id, at)
            _insert_deal(db, sheet_id, n, dealer, active, body, False, 1, at, idem_key, text)
            _log(db, sheet_id, n, "add", at, None)
    except sqlite3.IntegrityError as exc:  # rolled back: nothing of it is written
        raise NotNext(n) from exc
    return at


def get_deal(db: Database, sheet_id: int, n: int) -> Deal:
    rows = select(db, "select * from deals where sheet_id = ? and n = ?", [sheet_id, n])
    if not rows:
        raise NotFound(n)
    return deal_of(rows[0])


def _snapshot(deal: Deal) -> dict[str, object]:
    return {"dealer": deal.dealer, "active": deal.active, "input": deal.input,
            "struck": deal.struck, "version": deal.version}  # fmt: skip


def correct_deal(
    db: Database,
    sheet_id: int,
    n: int,
    dealer: str,
    active: list[str],
    body: JSONObject,
    expected_version: int | None = None,
) -> bool:
    """Store deal ``n`` as corrected; False, and nothing written, when that is what is stored
    (:func:`unchanged`). A version other than ``expected_version`` is a :class:`Conflict`."""
    at = now()
    with db.atomic():
        cur = get_deal(db, sheet_id, n)
        if expected_version is not None and cur.version != expected_version:
            raise Conflict(cur)
        if unchanged(cur, dealer, active, body):
            return False
        _touch(db, sheet_id, at)
        db.execute(
            "update deals set dealer = ?, active = ?, input = ?, version = version + 1, "
            "updated = ? where sheet_id = ? and n = ?",
            [
                dealer,
                json.dumps(active, ensure_ascii=False),
                json.dumps(body, ensure_ascii=False, sort_keys=True),
                at,
                sheet_id,
                n,
            ],
        )
        _log(db, sheet_id, n, "correct", at, _snapshot(cur))
    return True


def unchanged(cur: Deal, dealer: str, active: Sequence[str], body: JSONObject) -> bool:
    """Whether ``body`` with ``dealer`` and ``active`` is what deal ``cur`` stores: the same
    dealer and players and the same body (a ``"dealer"`` or ``"active"`` in it that names them
    again aside)."""
    if dealer != cur.dealer or list(active) != list(cur.active):
        return False

    def plain(b: Mapping[str, object]) -> dict[str, object]:
        return {k: v for k, v in b.items()
                if not (k == "dealer" and v == dealer) and not (k == "active" and v == list(active))}  # fmt: skip

    return plain(body) == plain(cur.input)


def set_struck(db: Database, sheet_id: int, n: int, struck: bool) -> bool:
    """Strike or restore; False when the deal already was in that state."""
    at = now()
    with db.atomic():
        _touch(db, sheet_id, at)
        cur = get_deal(db, sheet_id, n)
        if cur.struck == struck:
            return False
        db.execute(
            "update deals set struck = ?, version = version + 1, updated = ? "
            "where sheet_id = ? and n = ?",
            [int(struck), at, sheet_id, n],
        )
        _log(db, sheet_id, n, "strike" if struck else "restore", at, _snapshot(cur))
    return True


def import_sheet(
    db: Database,
    name: str,
    game: str,
    players: list[str],
    first_dealer: str,
    rules: JSONObject,
    deals: Sequence[DealFile],
    history: Sequence[HistoryFile],
) -> int:
    """A whole sheet in one transaction: either all of it is stored or nothing."""
    with db.atomic():
        sheet = create_sheet(db, name, game, players, first_dealer, rules)
        fill_sheet(db, sheet.id, deals, history)
    return int(sheet.id)


def fill_sheet(
    db: Database, sheet_id: int, deals: Sequence[DealFile], history: Sequence[HistoryFile]
) -> None:
    """The deals and history of an imported sheet, into the new, empty sheet ``sheet_id``;
    inside the caller's transaction. The revision stays: nothing of the sheet was computed yet."""
    at = now()
    with db.atomic():
        for d in deals:
            _insert_deal(db, sheet_id, d["n"], d["dealer"], d["active"], d["input"], d["struck"],
                         d.get("version", 1), at)  # fmt: skip
        for h in history:
            _log(db, sheet_id, h["n"], h["action"], h["at"], h.get("before"))


def bump_sheet(db: Database, sheet_id: int) -> None:
    """A new revision of the sheet without a change to it: its page shows something else
    that changed (the other list of a double entry, the table's confirmation)."""
    db.execute("update sheets set rev = rev + 1 where id = ?", [sheet_id])


def sheet_revision(db: Database, sheet_id: int) -> tuple[int, str]:
    """The sheet's revision and time of its last change: what a write changed of the sheet's
    row, read inside the write's transaction instead of loading the whole sheet again."""
    row = db.execute("select rev, updated from sheets where id = ?", [sheet_id]).fetchone()
    if row is None:
        raise NotFound(sheet_id)
    return int(row[0]), str(row[1])


def lock_sheet(db: Database, sheet_id: int) -> SheetLock:
    """Read, under the write lock the caller's outermost ``db.atomic()`` took, what may
    refuse a write to the sheet: whether the sheet is closed, and for a club night's
    table its event, series and planned deals. Read under the lock, so a close or a deal
    from another device that came first is seen."""
    # the lock is the transaction's (BEGIN IMMEDIATE): no write of our own needed to take it;
    # the deals are counted for a club night's table only (its planned series), not on every
    # save of every sheet (CASE runs the branch it takes only)
    row = db.execute(
        "select s.closed, s.players, case when t.event_id is null then 0 else (select "
        "count(*) from deals d where d.sheet_id = s.id and d.struck = 0) end, t.event_id, "
        "e.name, e.closed, e.deals, es.deals, t.series, t.n, "
        "t.confirmed, case when t.sheet_id = s.id then t.sheet_b else t.sheet_id end, "
        "t.foot is not null, s.rev from sheets s left join event_tables t on t.sheet_id = s.id or t.sheet_b = s.id "
        "left join events e on e.id = t.event_id "
        "left join event_series es on es.event_id = t.event_id and es.n = t.series "
        "where s.id = ?",
        [sheet_id],
    ).fetchone()
    if row is None:
        raise NotFound(sheet_id)
    (closed, players, played, event_id, name, event_closed, deals, series_deals, series, n,
     confirmed, partner, paper, rev) = row  # fmt: skip
    table = None
    if event_id is not None:
        table = TableLock(
            id=int(event_id), name=name, closed=event_closed, series=int(series),
            table_n=int(n), deals={**json.loads(deals), **json.loads(series_deals or "{}")},
            # double entry: the table's confirmation locks both lists; the other list's
            # page shows this one's figures, so it changes with every write here
            confirmed=confirmed, partner=None if partner is None else int(partner),
            paper=bool(paper),
        )  # fmt: skip
    return SheetLock(closed=closed, players=len(json.loads(players)), played=int(played),
                     event=table, rev=int(rev))  # fmt: skip


def set_sheet_closed(db: Database, sheet_id: int, closed: bool, at: str | None = None) -> bool:
    """Close or reopen the sheet, with its history entry; False when it already was so."""
    at = at or now()
    with db.atomic():
        cur = db.execute(
            "update sheets set closed = ?, updated = ?, rev = rev + 1 where id = ? "
            "and (closed is null) = ?",
            [at if closed else None, at, sheet_id, int(closed)],
        )
        if cur.rowcount == 0:
            get_sheet(db, sheet_id)  # NotFound, else it already was in that state
            return False
        _log(db, sheet_id, 0, "close" if closed else "reopen", at, None)
    return True


def keyed_deal(db: Database, sheet_id: int, idem_key: str) -> tuple[int, str | None] | None:
    """The number of the deal stored with this Idempotency-Key and the hash of its body."""
    row = db.execute(
        "select n, idem_hash from deals where sheet_id = ? and idem_key = ?", [sheet_id, idem_key]
    ).fetchone()
    return None if row is None else (int(row[0]), row[1])


def has_key(db: Database, sheet_id: int, idem_key: str) -> bool:
    """Whether a deal of the sheet was stored with this Idempotency-Key (a re-sent save)."""
    row = db.execute(
        "select 1 from deals where sheet_id = ? and idem_key = ?", [sheet_id, idem_key]
    ).fetchone()
    return row is not None
