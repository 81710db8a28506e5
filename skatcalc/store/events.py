"""Club nights: every SQL statement about events, their registrations, series, tables,
sign-off, fee ticks and history (no Flask, no rules).

The service ``skatcalc.services.events`` decides (seating, checks, the derived ranking); this
module reads and writes rows. An event is decoded in one place (:func:`decode_event`) into one
shape: deals per table size with int keys, its JSON columns decoded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from sqlite_utils import Database

from ..jsontypes import JSONObject, JSONValue
from .club_records import (
    Event,
    EventLogEntry,
    EventRef,
    PenaltyRow,
    PrizePlanJSON,
    Registration,
    SeriesRow,
    SeriesTable,
    TableOfSheet,
    TableRow,
    decode_deals,
    decode_event,
    decode_event_log,
    decode_registration,
    decode_series,
    encode_deals,
)
from .records import DealRow
from .records import sheet_of as decode_sheet

# --- Events -----------------------------------------------------------------------------------


def insert_event(db: Database, values: Mapping[str, object]) -> int:
    """A new event row from its column values (JSON columns already encoded)."""
    cols = list(values)
    cur = db.execute(
        f"insert into events ({', '.join(cols)}) values ({', '.join('?' * len(cols))})",
        [values[c] for c in cols],
    )
    return int(cur.lastrowid or 0)


def set_double_entry(db: Database, event_id: int) -> None:
    db.execute("update events set double_entry = 1 where id = ?", [event_id])


def get_event(db: Database, event_id: int) -> Event | None:
    rows = list(db.query("select * from events where id = ?", [event_id]))
    return decode_event(rows[0]) if rows else None


def list_events(db: Database) -> list[Event]:
    """Every event, newest day first, with ``player_count`` and ``series_count``."""
    return [
        decode_event(r)
        for r in db.query(
            "select e.*, (select count(*) from event_players p where p.event_id = e.id) "
            "as player_count, (select count(*) from event_series s where s.event_id = e.id) "
            "as series_count from events e order by e.day desc, e.id desc"
        )
    ]


def bump(db: Database, event_id: int) -> bool:
    """A new revision of the event (False: no such event). Written first in a transaction,
    it takes SQLite's write lock: two devices writing at once queue up."""
    return db.execute("update events set rev = rev + 1 where id = ?", [event_id]).rowcount > 0


def set_money(
    db: Database, event_id: int, payout: Mapping[str, object], pot_cents: int | None
) -> None:
    db.execute(
        "update events set payout = ?, pot_cents = ? where id = ?",
        [json.dumps(payout), pot_cents, event_id],
    )


def set_closed(db: Database, event_id: int, at: str | None) -> bool:
    """Close (``at``) or reopen (None); False when the event already was so."""
    cur = db.execute(
        "update events set closed = ? where id = ? and (closed is null) = ?",
        [at, event_id, int(at is not None)],
    )
    return cur.rowcount > 0


def set_prize_plan(db: Database, event_id: int, plan: PrizePlanJSON) -> None:
    db.execute(
        "update events set prize_plan = ? where id = ?",
        [json.dumps(plan, ensure_ascii=False) if plan else None, event_id],
    )


def add_log(db: Database, event_id: int, action: str, at: str, detail: object = None) -> None:
    db.execute(
        "insert into event_log (event_id, at, action, detail) values (?, ?, ?, ?)",
        [event_id, at, action, None if detail is None else json.dumps(detail)],
    )


def event_log(db: Database, event_id: int) -> list[EventLogEntry]:
    """The event's history, oldest first."""
    return [
        decode_event_log(r)
        for r in db.query("select * from event_log where event_id = ? order by id", [event_id])
    ]


def delete_event(db: Database, event_id: int) -> None:
    """The event's own rows (its tables' sheets are the caller's: deleted before)."""
    for table in ("event_penalties", "event_series", "event_players", "event_log",
                  "event_fee_paid"):  # fmt: skip
        db.execute(f"delete from {table} where event_id = ?", [event_id])
    db.execute("delete from events where id = ?", [event_id])


def live_token(db: Database, event_id: int) -> str | None:
    """Changes whenever the event or any of its tables' sheets changes (one small query)."""
    rows = list(
        db.query(
            "select e.rev, (select coalesce(sum(s.rev), 0) || '.' || count(*) from "
            "event_tables t join sheets s on s.id = t.sheet_id or s.id = t.sheet_b "
            "where t.event_id = e.id) as sheets "
            "from events e where e.id = ?",
            [event_id],
        )
    )
    return f"{rows[0]['rev']}.{rows[0]['sheets']}" if rows else None


def events_of_sheets(db: Database, sheet_ids: Sequence[int]) -> dict[int, EventRef]:
    """sheet id -> the club night it is a table of, in one query."""
    if not sheet_ids:
        return {}
    marks = ",".join("?" * len(sheet_ids))
    return {
        int(r["sheet_id"]): EventRef(int(r["id"]), str(r["name"]), str(r["day"]))
        for r in db.query(
            f"select t.sheet_id, e.id, e.name, e.day from event_tables t join events e "
            f"on e.id = t.event_id where t.sheet_id in ({marks})",
            list(sheet_ids),
        )
    }


def player_event_names(db: Database, player_id: int) -> list[tuple[int, str]]:
    """(event id, registered name) of the events a player (or an entry merged into his) is
    registered at, newest first."""
    return [
        (int(r["event_id"]), str(r["name"]))
        for r in db.query(
            "select p.event_id, p.name from event_players p join events e on e.id = p.event_id "
            "where p.player_id = ? or p.player_id in (select id from players where "
            "merged_into = ?) order by e.day desc, e.id desc",
            [player_id, player_id],
        )
    ]


# --- Registrations ----------------------------------------------------------------------------


def registrations(db: Database, event_id: int) -> list[Registration]:
    return [
        decode_registration(r)
        for r in db.query(
            "select id, name, key, player_id, from_series, away, registered, category, start_no, "
            "member_no, club from event_players where event_id = ? order by id",
            [event_id],
        )
    ]


def insert_registration(
    db: Database, event_id: int, name: str, key: str, player_id: int | None, from_series: int,
    at: str, category: str | None, member_no: str | None = None, club: str | None = None,
) -> None:  # fmt: skip
    """A registration with the event's next start number."""
    db.execute(
        "insert into event_players (event_id, name, key, player_id, from_series, "
        "registered, category, start_no, member_no, club) values (?, ?, ?, ?, ?, ?, ?, "
        "(select coalesce(max(start_no), 0) + 1 from event_players where event_id = ?), ?, ?)",
        [event_id, name, key, player_id, from_series, at, category, event_id, member_no, club],
    )


def set_away(db: Database, event_id: int, key: str, away: bool) -> bool:
    cur = db.execute(
        "update event_players set away = ? where event_id = ? and key = ?",
        [int(away), event_id, key],
    )
    return cur.rowcount > 0


def set_category(db: Database, event_id: int, key: str, category: str | None) -> bool:
    cur = db.execute(
        "update event_players set category = ? where event_id = ? and key = ?",
        [category, event_id, key],
    )
    return cur.rowcount > 0


def delete_registration(db: Database, event_id: int, reg_id: int, key: str) -> None:
    """The registration and its fee ticks (the entry fee's tick goes with it)."""
    db.execute("delete from event_penalties where reg_id = ?", [reg_id])
    db.execute("delete from event_players where id = ?", [reg_id])
    db.execute("delete from event_fee_paid where event_id = ? and key = ?", [event_id, key])


def set_registration_player(db: Database, reg_id: int, player_id: int | None) -> None:
    db.execute("update event_players set player_id = ? where id = ?", [player_id, reg_id])


def rename_registration(
    db: Database, reg_id: int, name: str, key: str, player_id: int | None
) -> None:
    db.execute(
        "update event_players set name = ?, key = ?, player_id = ? where id = ?",
        [name, key, player_id, reg_id],
    )


# --- Fee ticks --------------------------------------------------------------------------------


def fee_ticks(db: Database, event_id: int) -> list[tuple[str, int, int]]:
    """(name key, series, cents) of every paid tick."""
    return [
        (str(r["key"]), int(r["series"]), int(r["cents"]))
        for r in db.query(
            "select key, series, cents from event_fee_paid where event_id = ?", [event_id]
        )
    ]


def set_fee_paid(db: Database, event_id: int, key: str, series: int, cents: int, at: str) -> None:
    db.execute(
        "insert into event_fee_paid (event_id, key, series, cents, at) values (?, ?, ?, ?, ?) "
        "on conflict (event_id, key, series) do update set cents = excluded.cents, "
        "at = excluded.at",
        [event_id, key, series, cents, at],
    )


def delete_fee_paid(db: Database, event_id: int, key: str, series: int) -> None:
    db.execute(
        "delete from event_fee_paid where event_id = ? and key = ? and series = ?",
        [event_id, key, series],
    )


# --- Series and tables ------------------------------------------------------------------------


def series_count(db: Database, event_id: int) -> int:
    (count,) = next(iter(db.execute(
        "select count(*) from event_series where event_id = ?", [event_id])))  # fmt: skip
    return int(count)


def get_series(db: Database, event_id: int, n: int) -> SeriesRow | None:
    rows = list(db.query("select * from event_series where event_id = ? and n = ?", [event_id, n]))
    return decode_series(rows[0]) if rows else None


def list_series(db: Database, event_id: int) -> list[SeriesRow]:
    return [
        decode_series(r)
        for r in db.query("select * from event_series where event_id = ? order by n", [event_id])
    ]


def insert_series(db: Database, event_id: int, n: int, seating: str, seed: int, at: str) -> None:
    db.execute(
        "insert into event_series (event_id, n, seating, seed, created) values (?, ?, ?, ?, ?)",
        [event_id, n, seating, seed, at],
    )


def set_series_deals(db: Database, event_id: int, n: int, deals: dict[int, int]) -> None:
    db.execute(
        "update event_series set deals = ? where event_id = ? and n = ?",
        [encode_deals(deals), event_id, n],
    )


def set_series_drawn(db: Database, event_id: int, n: int, seed: int) -> None:
    db.execute(
        "update event_series set seating = 'draw', seed = ? where event_id = ? and n = ?",
        [seed, event_id, n],
    )


def bump_series_sheets(db: Database, event_id: int, n: int) -> None:
    """New revisions for every list of series ``n``'s tables (their pages change)."""
    db.execute(
        "update sheets set rev = rev + 1 where id in (select sheet_id from event_tables "
        "where event_id = ? and series = ? union select sheet_b from event_tables "
        "where event_id = ? and series = ?)",
        [event_id, n, event_id, n],
    )


def insert_table(db: Database, event_id: int, series: int, n: int, sheet_id: int) -> None:
    db.execute(
        "insert into event_tables (event_id, series, n, sheet_id) values (?, ?, ?, ?)",
        [event_id, series, n, sheet_id],
    )


def set_list_b(db: Database, event_id: int, series: int, n: int, sheet_b: int) -> None:
    db.execute(
        "update event_tables set sheet_b = ? where event_id = ? and series = ? and n = ?",
        [sheet_b, event_id, series, n],
    )


def delete_tables(db: Database, event_id: int) -> None:
    db.execute("delete from event_tables where event_id = ?", [event_id])


def table_sheet_ids(db: Database, event_id: int) -> list[int]:
    """Every sheet of the event's tables: list A and, with double entry, list B."""
    out: list[int] = []
    for r in db.query("select sheet_id, sheet_b from event_tables where event_id = ?", [event_id]):
        out.append(int(r["sheet_id"]))
        if r["sheet_b"] is not None:
            out.append(int(r["sheet_b"]))
    return out


def has_table(db: Database, event_id: int, series: int, n: int) -> bool:
    rows = db.query(
        "select 1 from event_tables where event_id = ? and series = ? and n = ?",
        [event_id, series, n],
    )
    return any(True for _ in rows)


def set_sign_off(
    db: Database, event_id: int, series: int, n: int, signed: list[str] | None,
    confirmed: str | None,
) -> None:  # fmt: skip
    """Who of the table signed its list (None: nobody) and when it was confirmed."""
    db.execute(
        "update event_tables set signed = ?, confirmed = ? where event_id = ? and "
        "series = ? and n = ?",
        [None if signed is None else json.dumps(signed, ensure_ascii=False), confirmed,
         event_id, series, n],
    )  # fmt: skip


def seated_tables(db: Database, event_id: int) -> list[tuple[int, list[str], str]]:
    """(table number, seats, first dealer) of every table of every series."""
    return [
        (int(r["n"]), list(json.loads(r["players"])), str(r["first_dealer"]))
        for r in db.query(
            "select t.n, s.players, s.first_dealer from event_tables t join sheets s "
            "on s.id = t.sheet_id where t.event_id = ?",
            [event_id],
        )
    ]


# The table's own columns come under names no sheet column has: the rest of the row is the
# sheet's, for the sheets' decoder.
_TABLE_COLS = ("t_series", "t_n", "t_series_deals", "t_sheet_b", "t_signed", "t_confirmed",
               "t_foot")  # fmt: skip


def table_sheets(db: Database, event_id: int,
                 only: tuple[int, int] | None = None) -> list[TableRow]:  # fmt: skip
    """Every table of every series with its list-A sheet, by series and table; ``only``
    (series, table): that one table."""
    where, params = "t.event_id = ?", [event_id]
    if only is not None:
        where += " and t.series = ? and t.n = ?"
        params += list(only)
    out = []
    for r in db.query(
        "select t.series as t_series, t.n as t_n, es.deals as t_series_deals, "
        "t.sheet_b as t_sheet_b, t.signed as t_signed, t.confirmed as t_confirmed, "
        "t.foot as t_foot, s.* "
        "from event_tables t join sheets s on s.id = t.sheet_id left join event_series es "
        f"on es.event_id = t.event_id and es.n = t.series where {where} "
        "order by t.series, t.n",
        params,
    ):
        sheet_b = r["t_sheet_b"]
        out.append(
            TableRow(
                int(r["t_series"]), int(r["t_n"]),
                decode_sheet({k: v for k, v in r.items() if k not in _TABLE_COLS}),
                None if sheet_b is None else int(sheet_b),
                tuple(json.loads(r["t_signed"] or "[]")), r["t_confirmed"],
                decode_deals(r["t_series_deals"]),
                None if r["t_foot"] is None else json.loads(r["t_foot"]),
            )
        )  # fmt: skip
    return out


def series_tables(db: Database, event_id: int, n: int) -> list[SeriesTable]:
    """Series ``n``'s tables in order, with the deals entered at each (struck ones too, on
    list A or list B) and list B's sheet id."""
    own = ("t_n", "t_entered", "t_sheet_b")
    return [
        SeriesTable(
            int(r["t_n"]),
            decode_sheet({k: v for k, v in r.items() if k not in own}),
            int(r["t_entered"]),
            None if r["t_sheet_b"] is None else int(r["t_sheet_b"]),
        )  # fmt: skip
        for r in db.query(
            "select t.n as t_n, t.sheet_b as t_sheet_b, s.*, (select count(*) from deals d "
            "where d.sheet_id = s.id or d.sheet_id = t.sheet_b) as t_entered "
            "from event_tables t join sheets s on s.id = t.sheet_id "
            "where t.event_id = ? and t.series = ? order by t.n",
            [event_id, n],
        )
    ]


def entered_counts(db: Database, event_id: int, n: int) -> dict[int, int]:
    """sheet id -> deals entered at series ``n``'s tables (struck ones too)."""
    return {
        int(r["sheet_id"]): int(r["c"])
        for r in db.query(
            "select t.sheet_id, (select count(*) from deals d where d.sheet_id = t.sheet_id) "
            "as c from event_tables t where t.event_id = ? and t.series = ?",
            [event_id, n],
        )
    }


def table_of_sheet(db: Database, sheet_id: int) -> TableOfSheet | None:
    """The event a sheet is a table of, with its series and table number, or None."""
    rows = list(
        db.query(
            "select e.id, e.name, e.deals, e.closed, t.series, t.n as table_n, "
            "es.deals as series_deals, t.confirmed, t.signed, "
            "case when t.sheet_b = ? then 'B' when t.sheet_b is "
            "not null then 'A' end as list from event_tables t join events e on "
            "e.id = t.event_id left join event_series es on es.event_id = t.event_id and "
            "es.n = t.series where t.sheet_id = ? or t.sheet_b = ?",
            [sheet_id, sheet_id, sheet_id],
        )
    )
    if not rows:
        return None
    r = rows[0]
    return TableOfSheet(
        int(r["id"]), str(r["name"]), r["closed"], int(r["series"]), int(r["table_n"]),
        {**decode_deals(r["deals"]), **decode_deals(r["series_deals"])},
        r["confirmed"], r["signed"], r["list"],
    )  # fmt: skip


# --- Paper tables and penalties ----------------------------------------------------------------


def set_foot(db: Database, event_id: int, series: int, n: int, foot: JSONObject) -> None:
    db.execute(
        "update event_tables set foot = ? where event_id = ? and series = ? and n = ?",
        [json.dumps(foot, ensure_ascii=False), event_id, series, n],
    )


def penalties(db: Database, event_id: int) -> list[PenaltyRow]:
    """Every penalty of the event, oldest first, under the registration's name now."""
    return [
        PenaltyRow(
            int(r["id"]),
            str(r["name"]),
            int(r["series"]),
            int(r["points"]),
            str(r["reason"]),
            str(r["at"]),
        )  # fmt: skip
        for r in db.query(
            "select p.id, r.name, p.series, p.points, p.reason, p.at from event_penalties p "
            "join event_players r on r.id = p.reg_id where p.event_id = ? order by p.id",
            [event_id],
        )
    ]


def insert_penalty(db: Database, event_id: int, reg_id: int, series: int, points: int,
                   reason: str, at: str) -> int:  # fmt: skip
    cur = db.execute(
        "insert into event_penalties (event_id, reg_id, series, points, reason, at) "
        "values (?, ?, ?, ?, ?, ?)",
        [event_id, reg_id, series, points, reason, at],
    )
    return int(cur.lastrowid or 0)


def delete_penalty(db: Database, event_id: int, penalty_id: int) -> bool:
    cur = db.execute(
        "delete from event_penalties where event_id = ? and id = ?", [event_id, penalty_id]
    )
    return cur.rowcount > 0


# --- A table's sheet corrected at the desk (seats, a registered name) --------------------------


def reseat_sheet(db: Database, sheet_id: int, players: list[str], first_dealer: str,
                 at: str) -> None:  # fmt: skip
    db.execute(
        "update sheets set players = ?, first_dealer = ?, updated = ?, rev = rev + 1 where id = ?",
        [json.dumps(players, ensure_ascii=False), first_dealer, at, sheet_id],
    )


def deal_rows(db: Database, sheet_id: int) -> list[DealRow]:
    """A sheet's deals as stored (JSON text): what a rename rewrites."""
    return [
        DealRow(id=int(r[0]), dealer=str(r[1]), active=str(r[2]), input=str(r[3]), idem_key=r[4])
        for r in db.execute(
            "select id, dealer, active, input, idem_key from deals where sheet_id = ?", [sheet_id]
        )
    ]


def rewrite_deal(db: Database, deal_id: int, dealer: str, active: list[str], body: JSONValue,
                 idem_hash: str | None) -> None:  # fmt: skip
    """A deal's names rewritten: a new version (a phone holding the old one is told)."""
    db.execute(
        "update deals set dealer = ?, active = ?, input = ?, version = version + 1, "
        "idem_hash = ? where id = ?",
        [dealer, json.dumps(active, ensure_ascii=False),
         json.dumps(body, ensure_ascii=False, sort_keys=True), idem_hash, deal_id],
    )  # fmt: skip


def history_befores(db: Database, sheet_id: int) -> list[tuple[int, JSONValue]]:
    """(history id, decoded ``before``) of a sheet's history entries that keep one."""
    return [
        (int(h["id"]), json.loads(h["before"]))
        for h in db.query(
            "select id, before from history where sheet_id = ? and before is not null",
            [sheet_id],
        )
    ]


def set_history_before(db: Database, history_id: int, before: JSONValue) -> None:
    db.execute(
        "update history set before = ? where id = ?",
        [json.dumps(before, ensure_ascii=False, sort_keys=True), history_id],
    )


def final_series(db: Database, event_id: int, seating: str) -> int | None:
    """The number of the series seated as ``seating`` (the final), if any."""
    rows = list(db.query("select n from event_series where event_id = ? and seating = ?",
                         [event_id, seating]))  # fmt: skip
    return int(rows[0]["n"]) if rows else None
