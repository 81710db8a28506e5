"""Groups of sheets: every SQL statement about them (no Flask, no rules)."""

from __future__ import annotations

import hashlib
import json

from sqlite_utils import Database

from ..jsontypes import JSONObject
from .club_records import Group, decode_group
from .records import Sheet
from .records import sheet_of as decode_sheet


def _rules_json(rules: JSONObject) -> str:
    return json.dumps(rules, sort_keys=True)


def insert_group(
    db: Database, name: str, game: str, rules: JSONObject, created: str, edit_token: str
) -> int:
    cur = db.execute(
        "insert into groups (name, game, rules, created, edit_token) values (?, ?, ?, ?, ?)",
        [name, game, _rules_json(rules), created, edit_token],
    )
    return int(cur.lastrowid or 0)


def get_group(db: Database, group_id: int) -> Group | None:
    rows = list(db.query("select * from groups where id = ?", [group_id]))
    return decode_group(rows[0]) if rows else None


def list_groups(db: Database, game: str | None = None) -> list[Group]:
    """Groups by name, each with ``sheets``: its evenings (a club night's tables once)."""
    sql = (
        "select g.*, (select count(distinct coalesce('e' || t.event_id, 's' || s.id)) "
        "from sheets s left join event_tables t on t.sheet_id = s.id "
        "where s.group_id = g.id) as sheets from groups g"
    )
    args: list[str] = []
    if game:
        sql += " where g.game = ?"
        args.append(game)
    return [decode_group(r) for r in db.query(sql + " order by g.name collate nocase, g.id", args)]


def update_group(db: Database, group_id: int, name: str, rules: JSONObject) -> bool:
    """False when there is no such group."""
    cur = db.execute(
        "update groups set name = ?, rules = ? where id = ?", [name, _rules_json(rules), group_id]
    )
    return cur.rowcount > 0


def sheet_game(db: Database, sheet_id: int) -> str | None:
    rows = list(db.query("select game from sheets where id = ?", [sheet_id]))
    return str(rows[0]["game"]) if rows else None


def sheet_place(db: Database, sheet_id: int) -> tuple[str, bool, bool] | None:
    """A sheet's game, whether it is closed and whether it is a club night's table (list A
    or B); None when there is no such sheet."""
    rows = list(db.query(
        "select game, closed is not null as closed, exists (select 1 from event_tables t "
        "where t.sheet_id = s.id or t.sheet_b = s.id) as tabled from sheets s where id = ?",
        [sheet_id]))  # fmt: skip
    if not rows:
        return None
    return str(rows[0]["game"]), bool(rows[0]["closed"]), bool(rows[0]["tabled"])


def set_sheet_group(db: Database, sheet_id: int, group_id: int | None, at: str) -> None:
    db.execute(
        "update sheets set group_id = ?, updated = ?, rev = rev + 1 where id = ?",
        [group_id, at, sheet_id],
    )


def ungrouped_sheets(db: Database, game: str, limit: int = 200) -> list[Sheet]:
    """Sheet rows of this game in no group that may join one (open, no club night's table),
    newest first."""
    return [
        decode_sheet(r)
        for r in db.query(
            "select * from sheets s where group_id is null and game = ? and closed is null "
            "and not exists (select 1 from event_tables t "
            "where t.sheet_id = s.id or t.sheet_b = s.id) "
            "order by created desc, id desc limit ?",
            [game, limit],
        )
    ]


def group_sheets(db: Database, group_id: int) -> list[Sheet]:
    """The group's sheet rows, oldest made first."""
    return [
        decode_sheet(r)
        for r in db.query(
            "select * from sheets where group_id = ? order by created, id", [group_id]
        )
    ]


def group_fingerprint(db: Database, group_id: int, code: str) -> str:
    """Changes whenever anything a group's standings show can change: the group (name, rules),
    its sheets (each write moves a revision), their players' names and merges, its events,
    and ``code`` (the code that computes the figures)."""
    parts = [
        list(db.execute("select * from groups where id = ?", [group_id]).fetchall()),
        # every column: what a later schema adds (a sheet's day, its closing) counts too
        list(db.execute("select * from sheets where group_id = ? order by id",
                        [group_id]).fetchall()),
        list(db.execute(
            "select sp.sheet_id, sp.seat, p.id, p.name, p.merged_into, m.name "
            "from sheet_players sp join players p on p.id = sp.player_id "
            "left join players m on m.id = p.merged_into "
            "where sp.sheet_id in (select id from sheets where group_id = ?) "
            "order by sp.sheet_id, sp.seat", [group_id]).fetchall()),
        list(db.execute("select * from events where group_id = ? order by id",
                        [group_id]).fetchall()),
        code,
    ]  # fmt: skip
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()
