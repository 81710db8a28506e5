"""Players and their seats at sheets: every SQL statement about them (no Flask, no rules).

The service ``skatcalc.services.players`` decides (names, merges, checks); this module only reads and
writes rows and hands back typed records (``store.club_records``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlite_utils import Database

from ..jsontypes import JSONObject
from .club_records import Player, PlayerLogEntry, PlayerSummary, decode_player, decode_player_log
from .records import Sheet
from .records import sheet_of as decode_sheet


def id_by_key(db: Database, key: str) -> int | None:
    """The entry holding this name key (merged or not), or None."""
    rows = list(db.query("select id from players where key = ?", [key]))
    return int(rows[0]["id"]) if rows else None


def other_id_by_key(db: Database, key: str, player_id: int) -> int | None:
    """Another entry than ``player_id`` holding this name key, or None."""
    rows = list(db.query("select id from players where key = ? and id != ?", [key, player_id]))
    return int(rows[0]["id"]) if rows else None


def insert_player(db: Database, name: str, key: str, created: str) -> int:
    cur = db.execute(
        "insert into players (name, key, created) values (?, ?, ?)", [name, key, created]
    )
    return int(cur.lastrowid or 0)


def get_player(db: Database, player_id: int) -> Player | None:
    rows = list(db.query("select * from players where id = ?", [player_id]))
    return decode_player(rows[0]) if rows else None


def list_players(db: Database) -> list[PlayerSummary]:
    """Entries not merged into another, by name; ``sheets``: a club night's tables once."""
    return [
        PlayerSummary(int(r["id"]), str(r["name"]), int(r["sheets"]))
        for r in db.query(
            "select p.id, p.name, (select count(distinct coalesce('e' || t.event_id, "
            "'s' || sp.sheet_id)) from sheet_players sp left join event_tables t "
            "on t.sheet_id = sp.sheet_id where sp.player_id = p.id) as sheets "
            "from players p where p.merged_into is null order by p.name collate nocase, p.id"
        )
    ]


def set_name(db: Database, player_id: int, name: str, key: str) -> None:
    db.execute("update players set name = ?, key = ? where id = ?", [name, key, player_id])


def set_key(db: Database, player_id: int, key: str) -> None:
    db.execute("update players set key = ? where id = ?", [key, player_id])


def merge_entries(db: Database, keep_id: int, drop_id: int) -> int:
    """``drop``'s seats and the entries merged into it go to ``keep``: the seats moved."""
    moved = int(
        db.execute(
            "update sheet_players set player_id = ? where player_id = ?", [keep_id, drop_id]
        ).rowcount
    )
    db.execute("update players set merged_into = ? where id = ?", [keep_id, drop_id])
    db.execute("update players set merged_into = ? where merged_into = ?", [keep_id, drop_id])
    return moved


def share_a_sheet(db: Database, a: int, b: int) -> bool:
    rows = db.query(
        "select a.sheet_id from sheet_players a join sheet_players b "
        "on a.sheet_id = b.sheet_id where a.player_id = ? and b.player_id = ? limit 1",
        [a, b],
    )
    return any(True for _ in rows)


def aliases(db: Database, player_id: int) -> list[str]:
    return [
        str(r["name"])
        for r in db.query(
            "select name from players where merged_into = ? order by name", [player_id]
        )
    ]


def add_log(db: Database, player_id: int, at: str, action: str, detail: JSONObject) -> None:
    db.execute(
        "insert into player_log (player_id, at, action, detail) values (?, ?, ?, ?)",
        [player_id, at, action, json.dumps(detail, ensure_ascii=False)],
    )


def player_log(db: Database, player_id: int) -> list[PlayerLogEntry]:
    return [
        decode_player_log(r)
        for r in db.query(
            "select * from player_log where player_id = ? order by id desc", [player_id]
        )
    ]


# --- Seats ------------------------------------------------------------------------------------


def set_seats(db: Database, sheet_id: int, player_ids: Sequence[int]) -> None:
    """The sheet's seats, in order (seat i: ``player_ids[i]``), replacing those before."""
    db.execute("delete from sheet_players where sheet_id = ?", [sheet_id])
    for seat, pid in enumerate(player_ids):
        db.execute(
            "insert into sheet_players (sheet_id, seat, player_id) values (?, ?, ?)",
            [sheet_id, seat, pid],
        )


def clear_seats(db: Database, sheet_id: int) -> None:
    db.execute("delete from sheet_players where sheet_id = ?", [sheet_id])


def sheet_player_ids(db: Database, sheet_id: int) -> list[int]:
    return [
        int(r["player_id"])
        for r in db.query(
            "select player_id from sheet_players where sheet_id = ? order by seat", [sheet_id]
        )
    ]


def seat_players(db: Database, sheet_ids: Sequence[int]) -> dict[int, list[tuple[int, str]]]:
    """sheet id -> [(player id, player's current name)] by seat, in one query."""
    out: dict[int, list[tuple[int, str]]] = {}
    if not sheet_ids:
        return out
    marks = ",".join("?" * len(sheet_ids))
    for r in db.query(
        f"select sp.sheet_id, sp.seat, p.id, p.name from sheet_players sp "
        f"join players p on p.id = sp.player_id where sp.sheet_id in ({marks}) "
        f"order by sp.sheet_id, sp.seat",
        list(sheet_ids),
    ):
        out.setdefault(int(r["sheet_id"]), []).append((int(r["id"]), str(r["name"])))
    return out


def sheets_of_player(db: Database, player_id: int) -> list[tuple[Sheet, int]]:
    """(sheet row, seat) of every sheet the player sits at, oldest made first."""
    return [
        (decode_sheet(r), int(r["seat"]))
        for r in db.query(
            "select s.*, sp.seat as seat from sheet_players sp join sheets s on s.id = "
            "sp.sheet_id where sp.player_id = ? order by s.created, s.id",
            [player_id],
        )
    ]
