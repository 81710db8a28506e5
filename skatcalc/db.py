"""Persistence: every read and write of the SQLite database lives here (sqlite-utils 4)."""

from __future__ import annotations

import json
import secrets
import sqlite3
from datetime import UTC, datetime
from typing import Any

import click
from flask import Flask, current_app, g
from sqlite_utils import Database, Migrations

migrations = Migrations("skatcalc")


@migrations(transactional=False)
def m001_enable_wal(db: Database) -> None:
    db.enable_wal()


@migrations()
def m002_sheets_deals_history(db: Database) -> None:
    db["sheets"].create(
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
    db["deals"].create(
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
    db["deals"].create_index(["sheet_id", "n"], unique=True)
    db["history"].create(
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
    db["history"].create_index(["sheet_id"])


@migrations()
def m003_idempotency_keys(db: Database) -> None:
    # A re-sent "save" carries the same key and finds the deal it already stored.
    db["deals"].add_column("idem_key", str)
    db["deals"].create_index(["sheet_id", "idem_key"], unique=True)


@migrations()
def m004_sheet_revision(db: Database) -> None:
    # Bumped by every write to a sheet, so computed views of it can be cached by revision.
    db["sheets"].add_column("rev", int, not_null_default=0)


@migrations()
def m005_players_groups(db: Database) -> None:
    # Players across evenings and the groups (series of sheets) they play in. A sheet keeps
    # its names as typed; each seat points at a player. Merged players stay as rows that
    # point at the survivor, so their old ids and names still lead to the right person.
    from .players import link_sheet_players

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
        link_sheet_players(db, int(row["id"]), json.loads(row["players"]))


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


def connect(path: str) -> Database:
    """One connection with the settings every connection needs."""
    conn = sqlite3.connect(path, timeout=15, check_same_thread=False)
    db = Database(conn, execute_plugins=False)
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA busy_timeout=15000")
    db.execute("PRAGMA synchronous=NORMAL")
    return db


def migrate(path: str) -> None:
    db = connect(path)
    try:
        migrations.apply(db)
    finally:
        db.close()


def get_db() -> Database:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    # SQLite checkpoints and removes the WAL whenever the last connection to a database
    # closes: with one connection per request that is every request (~1 ms). One idle
    # connection, never used for queries, keeps the WAL open for the app's lifetime.
    keeper = sqlite3.connect(app.config["DATABASE"], check_same_thread=False)
    keeper.execute("select count(*) from sqlite_master").fetchall()  # attaches it to the WAL
    app.extensions["skatcalc_wal_keeper"] = keeper
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)


@click.command("init-db")
def init_db_command() -> None:
    """Create or upgrade the database schema."""
    migrate(current_app.config["DATABASE"])
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# --- Sheets -----------------------------------------------------------------------------------


class NotFound(Exception):
    pass


class Taken(Exception):
    """The deal number a save named is not the next one: ``n`` asked, ``next_n`` free."""

    def __init__(self, n: int, next_n: int) -> None:
        super().__init__(f"deal {n} asked, {next_n} is next")
        self.n = n
        self.next_n = next_n


class Conflict(Exception):
    def __init__(self, current: dict[str, Any]) -> None:
        super().__init__("conflict")
        self.current = current


def _sheet(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["players"] = json.loads(row["players"])
    out["rules"] = json.loads(row["rules"])
    return out


def _deal(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "n": row["n"],
        "dealer": row["dealer"],
        "active": json.loads(row["active"]),
        "input": json.loads(row["input"]),
        "struck": bool(row["struck"]),
        "version": row["version"],
        "created": row["created"],
        "updated": row["updated"],
    }


def create_sheet(
    db: Database,
    name: str,
    game: str,
    players: list[str],
    first_dealer: str,
    rules: dict[str, Any],
    group_id: int | None = None,
) -> dict[str, Any]:
    """A new sheet, its seats linked to players by name (found or created), in its group."""
    from .players import link_sheet_players

    at = now()
    with db.atomic():
        table = db["sheets"]
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
            }
        )
        sheet_id = table.last_pk
        link_sheet_players(db, int(sheet_id), players)
    return get_sheet(db, int(sheet_id))


def get_sheet(db: Database, sheet_id: int) -> dict[str, Any]:
    rows = list(db.query("select * from sheets where id = ?", [sheet_id]))
    if not rows:
        raise NotFound(sheet_id)
    return _sheet(rows[0])


def list_sheets(db: Database) -> list[dict[str, Any]]:
    return [
        _sheet(r)
        for r in db.query(
            "select s.*, (select count(*) from deals d where d.sheet_id = s.id) as deal_count "
            "from sheets s order by s.created desc, s.id desc"
        )
    ]


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
        db.execute("delete from history where sheet_id = ?", [sheet_id])
        db.execute("delete from deals where sheet_id = ?", [sheet_id])
        db.execute("delete from sheets where id = ?", [sheet_id])


def get_deals(db: Database, sheet_id: int) -> list[dict[str, Any]]:
    return [
        _deal(r) for r in db.query("select * from deals where sheet_id = ? order by n", [sheet_id])
    ]


def last_counting_deal(db: Database, sheet_id: int) -> dict[str, Any] | None:
    """The last deal that is not struck (struck deals were never really dealt)."""
    rows = list(
        db.query(
            "select * from deals where sheet_id = ? and struck = 0 order by n desc limit 1",
            [sheet_id],
        )
    )
    return _deal(rows[0]) if rows else None


def deal_count(db: Database, sheet_id: int) -> int:
    (count,) = next(iter(db.execute("select count(*) from deals where sheet_id = ?", [sheet_id])))
    return int(count)


def get_history(db: Database, sheet_id: int) -> list[dict[str, Any]]:
    return [
        {
            "at": r["at"],
            "action": r["action"],
            "n": r["n"],
            "before": json.loads(r["before"]) if r["before"] else None,
        }
        for r in db.query("select * from history where sheet_id = ? order by id", [sheet_id])
    ]


def _touch(db: Database, sheet_id: int, at: str) -> None:
    # Writing first takes SQLite's write lock at the start of the transaction, so two
    # devices adding at once queue up instead of failing on a stale read.
    cur = db.execute("update sheets set updated = ?, rev = rev + 1 where id = ?", [at, sheet_id])
    if cur.rowcount == 0:
        raise NotFound(sheet_id)


def _log(db: Database, sheet_id: int, n: int, action: str, at: str, before: Any) -> None:
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
    body: dict[str, Any],
    struck: bool,
    version: int,
    at: str,
    idem_key: str | None = None,
) -> None:
    db.execute(
        "insert into deals (sheet_id, n, dealer, active, input, struck, version, created, "
        "updated, idem_key) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            sheet_id,
            n,
            dealer,
            json.dumps(active, ensure_ascii=False),
            json.dumps(body, ensure_ascii=False, sort_keys=True),
            int(struck),
            version,
            at,
            at,
            idem_key or None,
        ],
    )


def add_deal(
    db: Database,
    sheet_id: int,
    dealer: str,
    active: list[str],
    body: dict[str, Any],
    idem_key: str | None = None,
    expected_n: int | None = None,
) -> tuple[int, bool]:
    """Store the next deal; (n, False) when ``idem_key`` was already used for this sheet.
    With ``expected_n`` (the number the entry form showed) raise :class:`Taken` instead of
    storing when that is not the next number: two phones entering the same deal."""
    at = now()
    with db.atomic():
        _touch(db, sheet_id, at)
        if idem_key:
            seen = list(
                db.query(
                    "select n from deals where sheet_id = ? and idem_key = ?", [sheet_id, idem_key]
                )
            )
            if seen:
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


def get_deal(db: Database, sheet_id: int, n: int) -> dict[str, Any]:
    rows = list(db.query("select * from deals where sheet_id = ? and n = ?", [sheet_id, n]))
    if not rows:
        raise NotFound(n)
    return _deal(rows[0])


def _snapshot(deal: dict[str, Any]) -> dict[str, Any]:
    return {k: deal[k] for k in ("dealer", "active", "input", "struck", "version")}


def correct_deal(
    db: Database,
    sheet_id: int,
    n: int,
    dealer: str,
    active: list[str],
    body: dict[str, Any],
    expected_version: int | None = None,
) -> None:
    at = now()
    with db.atomic():
        _touch(db, sheet_id, at)
        cur = get_deal(db, sheet_id, n)
        if expected_version is not None and cur["version"] != expected_version:
            raise Conflict(cur)
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


def set_struck(db: Database, sheet_id: int, n: int, struck: bool) -> bool:
    """Strike or restore; False when the deal already was in that state."""
    at = now()
    with db.atomic():
        _touch(db, sheet_id, at)
        cur = get_deal(db, sheet_id, n)
        if cur["struck"] == struck:
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
    rules: dict[str, Any],
    deals: list[dict[str, Any]],
    history: list[dict[str, Any]],
) -> int:
    """A whole sheet in one transaction: either all of it is stored or nothing."""
    at = now()
    with db.atomic():
        sheet = create_sheet(db, name, game, players, first_dealer, rules)
        sid = sheet["id"]
        for d in deals:
            _insert_deal(db, sid, d["n"], d["dealer"], d["active"], d["input"], d["struck"],
                         int(d.get("version", 1)), at)  # fmt: skip
        for h in history:
            _log(db, sid, h["n"], h["action"], h["at"], h.get("before"))
    return int(sid)
