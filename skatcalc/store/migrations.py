"""The schema as a series of migrations (sqlite-utils ``Migrations``).

Every database records the names of the migrations it has had, so a migration once released
is never edited or renamed: a change to the schema is a NEW function after the last one.
``store.migrate`` applies them; ``skatcalc init-db`` and every start of the app call it.

Frozen: a migration imports nothing of the app. What it needs of the app's rules (how names
are matched, how a seat finds its player) is copied here as it was when the migration was
written, so a later change of those rules cannot change what an old migration does.
"""

from __future__ import annotations

import json
import re
import secrets
import unicodedata
from datetime import UTC, datetime

from sqlite_utils import Database, Migrations

migrations = Migrations("skatcalc")


@migrations(transactional=False)
def m001_enable_wal(db: Database) -> None:
    db.enable_wal()


@migrations()
def m002_sheets_deals_history(db: Database) -> None:
    db.table("sheets").create(
        {
            "id": int,
            "name": str,
            "game": str,
            "players": str,  # JSON list, seat order
            "first_dealer": str,
            "rules": str,  # JSON object, every rule filled in
            "edit_token": str,
            "share_token": str,
            "created": str,
            "updated": str,
        },
        pk="id",
        not_null={"name", "game", "players", "first_dealer", "rules", "created", "updated"},
    )
    db.table("deals").create(
        {
            "id": int,
            "sheet_id": int,
            "n": int,
            "dealer": str,
            "active": str,  # JSON list
            "input": str,  # JSON object, exactly as entered
            "struck": int,
            "version": int,
            "created": str,
            "updated": str,
        },
        pk="id",
        foreign_keys=[("sheet_id", "sheets", "id")],
        not_null={"sheet_id", "n", "dealer", "active", "input", "struck", "version"},
        defaults={"struck": 0, "version": 1},
    )
    db.table("deals").create_index(["sheet_id", "n"], unique=True)
    db.table("history").create(
        {
            "id": int,
            "sheet_id": int,
            "n": int,
            "action": str,
            "at": str,
            "before": str,  # JSON of the deal before the change, or NULL for an add
        },
        pk="id",
        foreign_keys=[("sheet_id", "sheets", "id")],
        not_null={"sheet_id", "n", "action", "at"},
    )
    db.table("history").create_index(["sheet_id"])


@migrations()
def m003_idempotency_keys(db: Database) -> None:
    # A re-sent "save" carries the same key and finds the deal it already stored.
    db.table("deals").add_column("idem_key", str)
    db.table("deals").create_index(["sheet_id", "idem_key"], unique=True)


@migrations()
def m004_sheet_revision(db: Database) -> None:
    # Bumped by every write to a sheet, so computed views of it can be cached by revision.
    db.table("sheets").add_column("rev", int, not_null_default=0)


@migrations()
def m005_players_groups(db: Database) -> None:
    # Players across evenings and the groups (series of sheets) they play in. A sheet keeps
    # its names as typed; each seat points at a player. Merged players stay as rows that
    # point at the survivor, so their old ids and names still lead to the right person.
    db.execute(
        "create table players (id integer primary key, name text not null, "
        "key text not null unique, created text not null, "
        "merged_into integer references players(id))"
    )
    db.execute(
        "create table sheet_players (sheet_id integer not null references sheets(id) "
        "on delete cascade, seat integer not null, player_id integer not null "
        "references players(id), primary key (sheet_id, seat))"
    )
    db.execute("create index sheet_players_player on sheet_players(player_id)")
    db.execute(
        "create table player_log (id integer primary key, player_id integer not null "
        "references players(id), at text not null, action text not null, detail text)"
    )
    db.execute("create index player_log_player on player_log(player_id)")
    db.execute(
        "create table groups (id integer primary key, name text not null, "
        "game text not null, rules text not null, created text not null)"
    )
    db.execute("alter table sheets add column group_id integer references groups(id)")
    db.execute("create index sheets_group on sheets(group_id)")
    for row in list(db.query("select id, players from sheets order by id")):
        _m005_link_sheet_players(db, int(row["id"]), json.loads(row["players"]))


# --- Frozen copies of the app's name rules (rules.common, players.py), as m005/m014 use them ---


def _frozen_clean_name(name: str) -> str:
    # rules.common.clean_name: NFC, trimmed, every run of whitespace one space
    return " ".join(unicodedata.normalize("NFC", name).split())


def _frozen_name_key(name: str) -> str:
    # rules.common.name_key: the clean name, case-folded
    return unicodedata.normalize("NFC", _frozen_clean_name(name).casefold())


def _m005_player_for_name(db: Database, name: str) -> int:
    # players.player_for_name: found by key (following merges), else created
    rows = list(db.query("select id from players where key = ?", [_frozen_name_key(name)]))
    if rows:
        seen: set[int] = set()
        pid = int(rows[0]["id"])
        while True:
            (nxt,) = db.execute("select merged_into from players where id = ?", [pid]).fetchone()
            if nxt is None or pid in seen:
                return pid
            seen.add(pid)
            pid = int(nxt)
    at = datetime.now(UTC).isoformat(timespec="seconds")
    cur = db.execute(
        "insert into players (name, key, created) values (?, ?, ?)",
        [_frozen_clean_name(name), _frozen_name_key(name), at],
    )
    return int(cur.lastrowid or 0)


def _m005_link_sheet_players(db: Database, sheet_id: int, names: list[str]) -> None:
    # players.link_sheet_players: seat i -> the player of names[i]
    db.execute("delete from sheet_players where sheet_id = ?", [sheet_id])
    for seat, name in enumerate(names):
        db.execute(
            "insert into sheet_players (sheet_id, seat, player_id) values (?, ?, ?)",
            [sheet_id, seat, _m005_player_for_name(db, name)],
        )


@migrations()
def m006_events(db: Database) -> None:
    # Club nights and Preisskat (event_service.py): each table of a series is an ordinary
    # sheet; rankings and fees are derived from those sheets, never stored.
    db.execute(
        "create table events (id integer primary key, name text not null, day text not null, "
        "game text not null, group_id integer references groups(id), deals text not null, "
        "rules text not null, entry_cents integer not null, lost_game_cents integer not null, "
        "payout text not null, pot_cents integer, edit_token text not null, "
        "created text not null, closed text, rev integer not null default 0)"
    )
    db.execute(
        "create table event_players (id integer primary key, event_id integer not null "
        "references events(id), name text not null, key text not null, "
        "player_id integer references players(id), from_series integer not null, "
        "away integer not null default 0, registered text not null, unique (event_id, key))"
    )
    db.execute(
        "create table event_series (id integer primary key, event_id integer not null "
        "references events(id), n integer not null, seating text not null, seed integer, "
        "created text not null, unique (event_id, n))"
    )
    db.execute(
        "create table event_tables (id integer primary key, event_id integer not null "
        "references events(id), series integer not null, n integer not null, "
        "sheet_id integer not null unique references sheets(id), unique (event_id, series, n))"
    )


@migrations()
def m007_player_figures_cache(db: Database) -> None:
    # Each sheet's per-player figures (season.py), kept so that the first standings after a
    # restart need not recompute every sheet. A cache only: valid for one revision of the
    # sheet, its seats' players and the rules code; the deals stay the source of truth.
    db.execute(
        "create table sheet_figures_cache (sheet_id integer primary key references sheets(id) "
        "on delete cascade, rev integer not null, seats text not null, code text not null, "
        "data text not null)"
    )


@migrations()
def m008_idempotency_body(db: Database) -> None:
    # A key names one body: the same key with another body is refused, not replayed.
    db.table("deals").add_column("idem_hash", str)


@migrations(transactional=False)
def m009_sheet_ids_never_reused(db: Database) -> None:
    """Sheet ids from AUTOINCREMENT: a retried save for a deleted sheet 2 must not land in a
    new sheet 2. SQLite cannot add AUTOINCREMENT to a table, so the table is rebuilt the way
    SQLite documents (foreign keys off, rebuild in one transaction, check, keys on) keeping
    every column, index and trigger other migrations gave it."""
    row = db.execute("select sql from sqlite_master where type = 'table' and name = 'sheets'")
    (create_sql,) = row.fetchone()
    if "AUTOINCREMENT" in create_sql.upper():
        return  # done by an earlier run that stopped before recording itself
    new_sql, count = re.subn(
        r"^(\s*CREATE\s+TABLE\s+)(\[sheets\]|\"sheets\"|sheets)",
        r"\1[sheets_new]",
        create_sql,
        flags=re.IGNORECASE,
    )
    new_sql, count2 = re.subn(
        r"((?:\[id\]|\"id\"|\bid\b)\s+INTEGER\s+PRIMARY\s+KEY)",
        r"\1 AUTOINCREMENT",
        new_sql,
        count=1,
        flags=re.IGNORECASE,
    )
    if count != 1 or count2 != 1:
        raise RuntimeError(f"unexpected schema of sheets: {create_sql}")
    extras = [
        sql
        for (sql,) in db.execute(
            "select sql from sqlite_master where tbl_name = 'sheets' and type in "
            "('index', 'trigger') and sql is not null"
        ).fetchall()
    ]
    db.execute("PRAGMA foreign_keys=OFF")  # only takes effect outside a transaction
    try:
        with db.atomic():
            db.execute(new_sql)
            db.execute("insert into sheets_new select * from sheets")
            db.execute("drop table sheets")
            db.execute("alter table sheets_new rename to sheets")
            for sql in extras:
                db.execute(sql)
            problems = db.execute("PRAGMA foreign_key_check").fetchall()
            if problems:
                raise RuntimeError(f"foreign keys broken by the rebuild: {problems[:5]}")
    finally:
        db.execute("PRAGMA foreign_keys=ON")


@migrations()
def m010_sheet_summaries(db: Database) -> None:
    # What the list of sheets shows of each sheet, computed from its deals once per revision.
    # Derived data: it can be dropped at any time and is computed again.
    db.table("sheet_summaries").create(
        {"sheet_id": int, "rev": int, "summary": str},
        pk="sheet_id",
        foreign_keys=[("sheet_id", "sheets", "id")],
        not_null={"rev", "summary"},
    )


@migrations()
def m011_settled(db: Database) -> None:
    # Settled results stay settled: a sheet can be closed (its time, NULL while open), and
    # then every write to it is refused until it is reopened. A club night's tables close with
    # their event, so the tables of events closed before this migration are closed with them.
    # A series may be lengthened by the organiser (its own deals per table size, NULL: the
    # event's). The event's own history: closing, reopening, lengthening.
    db.execute("alter table sheets add column closed text")
    db.execute("alter table event_series add column deals text")
    db.execute(
        "create table event_log (id integer primary key, event_id integer not null "
        "references events(id), at text not null, action text not null, detail text)"
    )
    db.execute("create index event_log_event on event_log(event_id)")
    db.execute(
        "update sheets set closed = (select e.closed from event_tables t join events e "
        "on e.id = t.event_id where t.sheet_id = sheets.id) where closed is null"
    )


@migrations()
def m012_rights_by_link(db: Database) -> None:
    # Rights come from links, never from the client's address (rights.py): the server's
    # admin link (its token in ``settings``, made once per database, so a backup carries it)
    # and a link per group, which changing the group and putting sheets or events into it
    # need. Groups of older databases get their token here; the admin link finds it.
    db.execute("create table settings (key text primary key, value text not null)")
    db.execute(
        "insert into settings (key, value) values ('admin_token', ?)", [secrets.token_urlsafe(24)]
    )
    db.execute("alter table groups add column edit_token text")
    for (gid,) in db.execute("select id from groups").fetchall():
        db.execute(
            "update groups set edit_token = ? where id = ?", [secrets.token_urlsafe(18), gid]
        )


@migrations()
def m013_sheet_day(db: Database) -> None:
    # The day a sheet belongs to when it is not the day it was made: a club night's tables
    # carry the event's date (seated two days early, they still count on the evening). NULL:
    # the local day of ``created``. Existing club nights' sheets take their event's date.
    db.execute("alter table sheets add column day text")
    db.execute(
        "update sheets set day = (select e.day from event_tables t join events e "
        "on e.id = t.event_id where t.sheet_id = sheets.id) "
        "where id in (select sheet_id from event_tables)"
    )


@migrations()
def m014_name_keys(db: Database) -> None:
    # Names match by rules.common.name_key, which now also folds Unicode forms (NFC) and
    # every kind of space: the stored match keys follow, so old players and registrations are
    # found by the new rule. The names themselves stay as stored. Should two old entries now
    # share a key, the older keeps it and the other one keeps a key of its own (as a renamed
    # player's merged alias does), so nothing is joined without a person deciding it.
    name_key = _frozen_name_key
    taken: set[str] = set()
    # players first, then merged entries (aliases); one that gave its key up keeps it given up
    rows = list(db.query("select id, name, key from players order by merged_into is not null, id"))
    for r in rows:  # out of the way first: the unique index sees each key once
        db.execute("update players set key = ? where id = ?", [f"\x01{r['id']}", r["id"]])
    for r in rows:
        key = name_key(str(r["name"]))
        if key in taken or "\x00" in str(r["key"]):
            key = f"{key}\x00{r['id']}"
        taken.add(key)
        db.execute("update players set key = ? where id = ?", [key, r["id"]])
    regs = list(db.query("select id, event_id, name from event_players order by id"))
    for r in regs:
        db.execute("update event_players set key = ? where id = ?", [f"\x01{r['id']}", r["id"]])
    seen: set[tuple[int, str]] = set()
    for r in regs:
        key = name_key(str(r["name"]))
        if (r["event_id"], key) in seen:
            key = f"{key}\x00{r['id']}"
        seen.add((r["event_id"], key))
        db.execute("update event_players set key = ? where id = ?", [key, r["id"]])


def _rebuild_with_autoincrement(db: Database, table: str) -> None:
    """``table`` rebuilt with ``id INTEGER PRIMARY KEY AUTOINCREMENT``, as m009 did for sheets:
    foreign keys off (the caller), the rebuild in one transaction keeping every column, index
    and trigger, the keys checked. Without AUTOINCREMENT SQLite hands the id of a deleted
    newest row to the next one."""
    row = db.execute("select sql from sqlite_master where type = 'table' and name = ?", [table])
    (create_sql,) = row.fetchone()
    if "AUTOINCREMENT" in create_sql.upper():
        return  # done by an earlier run that stopped before recording itself
    new_sql, count = re.subn(
        rf"^(\s*CREATE\s+TABLE\s+)(\[{table}\]|\"{table}\"|{table}\b)",
        rf"\1[{table}_new]",
        create_sql,
        flags=re.IGNORECASE,
    )
    new_sql, count2 = re.subn(
        r"((?:\[id\]|\"id\"|\bid\b)\s+INTEGER\s+PRIMARY\s+KEY)",
        r"\1 AUTOINCREMENT",
        new_sql,
        count=1,
        flags=re.IGNORECASE,
    )
    if count != 1 or count2 != 1:
        raise RuntimeError(f"unexpected schema of {table}: {create_sql}")
    extras = [
        sql
        for (sql,) in db.execute(
            "select sql from sqlite_master where tbl_name = ? and type in "
            "('index', 'trigger') and sql is not null",
            [table],
        ).fetchall()
    ]
    with db.atomic():
        db.execute(new_sql)
        db.execute(f"insert into [{table}_new] select * from [{table}]")
        db.execute(f"drop table [{table}]")
        db.execute(f"alter table [{table}_new] rename to [{table}]")
        for sql in extras:
            db.execute(sql)
        problems = db.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise RuntimeError(f"foreign keys broken by the rebuild: {problems[:5]}")


@migrations(transactional=False)
def m015_event_and_group_ids_never_reused(db: Database) -> None:
    """Event and group ids from AUTOINCREMENT, like sheets' (m009): a new event made after the
    newest was deleted must not inherit its id, and with it its links and cached PDF."""
    db.execute("PRAGMA foreign_keys=OFF")  # only takes effect outside a transaction
    try:
        for table in ("events", "groups"):
            _rebuild_with_autoincrement(db, table)
    finally:
        db.execute("PRAGMA foreign_keys=ON")


@migrations()
def m016_event_fees_prizes(db: Database) -> None:
    # Fee tiers, table and team fees (fee_plan) and the prize plan beside the overall payout
    # (prize_plan: series and category prizes, teams): JSON, NULL for events made before.
    # A registration's category. The organiser's paid ticks: per player and series (0 = the
    # entry fee) what was collected, so a later correction shows in the cash check.
    db.execute("alter table events add column fee_plan text")
    db.execute("alter table events add column prize_plan text")
    db.execute("alter table event_players add column category text")
    db.execute(
        "create table event_fee_paid (id integer primary key, event_id integer not null "
        "references events(id), key text not null, series integer not null, "
        "cents integer not null, at text not null, unique (event_id, key, series))"
    )


@migrations()
def m017_start_numbers(db: Database) -> None:
    # Each registration's start number (event_desk.py): given at registration, never changed,
    # shown on every list of the event. Older events number their players in registration
    # order, as the lists showed them.
    db.execute("alter table event_players add column start_no integer")
    db.execute(
        "update event_players set start_no = (select count(*) from event_players p "
        "where p.event_id = event_players.event_id and p.id <= event_players.id)"
    )


@migrations()
def m018_sheet_rule_changes(db: Database) -> None:
    # House rules changed during the evening (docs/rules.md 1.11): a JSON list of
    # {"from_n", "before", "at"}, oldest first; "before" are the rules the deals before
    # from_n were played under. The sheet's "rules" stay the ones in force now, and the deals
    # the source of every total.
    db.table("sheets").add_column("rule_changes", str)


@migrations()
def m019_double_entry(db: Database) -> None:
    # Double entry and sign-off (docs/api.md "Double entry"): an event may keep two lists per
    # table; ``sheet_b`` is list B's sheet (NULL: one list). ``signed`` the players who
    # confirmed the table's list of its series (JSON), ``confirmed`` when the table was
    # confirmed (then its lists take no writes until the organiser unlocks it).
    db.execute("alter table events add column double_entry integer not null default 0")
    db.execute("alter table event_tables add column sheet_b integer")
    db.execute("alter table event_tables add column signed text")
    db.execute("alter table event_tables add column confirmed text")
    db.execute("create index event_tables_sheet_b on event_tables (sheet_b)")


@migrations()
def paper_table_foot(db: Database) -> None:
    # A table kept on paper (docs/rules.md 1.12): the foot the desk typed, as JSON
    # {"players": {name: {"points", "won", "lost"}}, "passed"}; NULL for a table entered by
    # phone. A paper table takes no deals; its figures come from the foot alone.
    db.execute("alter table event_tables add column foot text")


@migrations()
def paper_penalties(db: Database) -> None:
    # Penalty points (docs/api.md "Penalties"): each drops the player's series score; the
    # registration's id, so a name corrected at the desk keeps its penalties.
    db.execute(
        "create table event_penalties (id integer primary key, event_id integer not null "
        "references events(id), reg_id integer not null references event_players(id), "
        "series integer not null, points integer not null, reason text not null, "
        "at text not null)"
    )
    db.execute("create index event_penalties_event on event_penalties (event_id)")


@migrations()
def paper_member_club(db: Database) -> None:
    # The association's report: a registration's member number and club, both optional.
    db.execute("alter table event_players add column member_no text")
    db.execute("alter table event_players add column club text")
