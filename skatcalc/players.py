"""Players across evenings and groups of sheets: storage and lookups (no Flask).

API for other modules (all take a sqlite-utils ``Database``; ids are ints)::

    name_key(name) -> str                     # rules.common: "  anna  " and "Anna" one key
    player_for_name(db, name) -> int          # find (case/space-insensitive) or create
    find_player(db, name) -> int | None       # find only; follows merges
    resolve(db, player_id) -> int             # the surviving id after merges (NotFound)
    get_player(db, player_id) -> dict         # id, name, key, created, merged_into
    list_players(db) -> list[dict]            # id, name, sheets (merged entries hidden)
    link_sheet_players(db, sheet_id, names)   # seat i -> player of names[i]
    sheet_player_ids(db, sheet_id) -> list[int]           # by seat
    sheets_of_player(db, player_id) -> list[dict]         # sheet rows + "seat", "typed"
    rename_player(db, player_id, name)        # InvalidDeal("name") if another has it
    merge_players(db, keep_id, drop_id)       # drop's seats move to keep; logged on both
    player_log(db, player_id) -> list[dict]   # at, action, detail (dict)
    create_group(db, name, game, rules) -> dict  # rules as normalize_group gives them
    normalize_group(data) -> (name, game, rules)  # InvalidDeal with field names
    get_group(db, group_id) -> dict           # id, name, game, rules (dict), created, edit_token
    list_groups(db) -> list[dict]             # + "sheets" count
    check_group(db, group_id, game) -> int    # InvalidDeal("group") for unknown/other game
    join_group(db, sheet_id, group_id | None) # an existing sheet into a group (or out)
    form_group(db, raw, game) -> int | None   # the new-sheet form's group select
    preselect_group(db, form, raw)            # /sheets?group=<id> preselects it
    update_group(db, group_id, name, rules)   # after normalize_group
    ungrouped_sheets(db, game) -> list[dict]  # sheets of a game in no group
    group_sheets(db, group_id, start, end) -> list[dict]  # sheet rows by their day
    sheet_day(sheet) -> date                  # the day a sheet belongs to (a club night's)

``service.create_sheet(..., group_id=...)`` links the players itself; callers need not.
"""

from __future__ import annotations

import json
import secrets
from datetime import date, datetime
from typing import Any

from sqlite_utils import Database

from .rules.common import Errors, clean_name, name_key
from .rules.sheet import BAD_NAME_MSG, GAMES, MAX_NAME, bad_name_char
from .rules.standings import normalize_group_rules
from .store import NotFound, is_id, now

__all__ = ["NotFound", "clean_name", "name_key"]


def _now() -> str:
    return now()


def find_player(db: Database, name: str) -> int | None:
    rows = list(db.query("select id from players where key = ?", [name_key(name)]))
    return resolve(db, int(rows[0]["id"])) if rows else None


def player_for_name(db: Database, name: str) -> int:
    found = find_player(db, name)
    if found is not None:
        return found
    cur = db.execute(
        "insert into players (name, key, created) values (?, ?, ?)",
        [clean_name(name), name_key(name), _now()],
    )
    return int(cur.lastrowid or 0)


def resolve(db: Database, player_id: int) -> int:
    """Follow merges to the entry that holds the player's sheets now."""
    seen: set[int] = set()
    pid = player_id
    while True:
        rows = list(db.query("select merged_into from players where id = ?", [pid]))
        if not rows:
            raise NotFound(player_id)
        nxt = rows[0]["merged_into"]
        if nxt is None or pid in seen:
            return pid
        seen.add(pid)
        pid = int(nxt)


def get_player(db: Database, player_id: int) -> dict[str, Any]:
    rows = list(db.query("select * from players where id = ?", [player_id]))
    if not rows:
        raise NotFound(player_id)
    return dict(rows[0])


def list_players(db: Database) -> list[dict[str, Any]]:
    return [
        {"id": r["id"], "name": r["name"], "sheets": r["sheets"]}
        for r in db.query(
            # evenings: a club night's tables count once
            "select p.id, p.name, (select count(distinct coalesce('e' || t.event_id, "
            "'s' || sp.sheet_id)) from sheet_players sp left join event_tables t "
            "on t.sheet_id = sp.sheet_id where sp.player_id = p.id) as sheets "
            "from players p where p.merged_into is null order by p.name collate nocase, p.id"
        )
    ]


def link_sheet_players(db: Database, sheet_id: int, names: list[str]) -> None:
    with db.atomic():
        db.execute("delete from sheet_players where sheet_id = ?", [sheet_id])
        for seat, name in enumerate(names):
            db.execute(
                "insert into sheet_players (sheet_id, seat, player_id) values (?, ?, ?)",
                [sheet_id, seat, player_for_name(db, name)],
            )


def sheet_player_ids(db: Database, sheet_id: int) -> list[int]:
    return [
        int(r["player_id"])
        for r in db.query(
            "select player_id from sheet_players where sheet_id = ? order by seat", [sheet_id]
        )
    ]


def _sheet_row(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["players"] = json.loads(row["players"])
    out["rules"] = json.loads(row["rules"])
    return out


def sheets_of_player(db: Database, player_id: int) -> list[dict[str, Any]]:
    """The player's sheets, oldest first, each with the seat and the name as typed there."""
    out = []
    for r in db.query(
        "select s.*, sp.seat as seat from sheet_players sp join sheets s on s.id = sp.sheet_id "
        "where sp.player_id = ? order by s.created, s.id",
        [player_id],
    ):
        sheet = _sheet_row(r)
        sheet["typed"] = sheet["players"][r["seat"]]
        out.append(sheet)
    return by_day(out)


def _log(db: Database, player_id: int, action: str, detail: dict[str, Any]) -> None:
    db.execute(
        "insert into player_log (player_id, at, action, detail) values (?, ?, ?, ?)",
        [player_id, _now(), action, json.dumps(detail, ensure_ascii=False)],
    )


def _name_errors(name: str) -> Errors:
    e = Errors()
    if not clean_name(name):
        e.add("name", "Bitte einen Namen angeben.")
    elif len(clean_name(name)) > MAX_NAME:
        e.add("name", "Höchstens %(max)s Zeichen.", max=MAX_NAME)
    elif bad_name_char(name):  # as typed: a control character is refused, not spaced
        e.add("name", BAD_NAME_MSG)
    return e


def rename_player(db: Database, player_id: int, name: str) -> None:
    """A new spelling of the player's name; the sheets keep the names as typed."""
    e = _name_errors(name)
    e.raise_if_any()
    with db.atomic():
        player = get_player(db, player_id)
        if player["merged_into"] is not None:
            raise NotFound(player_id)
        key = name_key(name)
        other = list(db.query("select id from players where key = ? and id != ?", [key, player_id]))
        if other:
            if resolve(db, int(other[0]["id"])) != player_id:
                e.add(
                    "name",
                    "Diesen Namen hat schon ein anderer Spieler; zusammenführen statt umbenennen.",
                )
                e.raise_if_any()
            # The name of an entry merged into this one: that entry gives the name up.
            db.execute(
                "update players set key = ? where id = ?",
                [f"{key}\x00{other[0]['id']}", other[0]["id"]],
            )
        db.execute(
            "update players set name = ?, key = ? where id = ?", [clean_name(name), key, player_id]
        )
        _log(db, player_id, "rename", {"from": player["name"], "to": clean_name(name)})


def merge_players(db: Database, keep_id: int, drop_id: int) -> None:
    """Two entries are one person: ``drop``'s sheets join ``keep``; its name stays as an alias."""
    with db.atomic():
        keep = get_player(db, keep_id)
        drop = get_player(db, drop_id)
        e = Errors()
        if keep_id == drop_id:
            e.add("other", "Ein Spieler mit sich selbst? Bitte einen anderen wählen.")  # fmt: skip
        elif keep["merged_into"] is not None or drop["merged_into"] is not None:
            raise NotFound(drop_id)
        else:
            shared = list(
                db.query(
                    "select a.sheet_id from sheet_players a join sheet_players b "
                    "on a.sheet_id = b.sheet_id where a.player_id = ? and b.player_id = ? "
                    "limit 1",
                    [keep_id, drop_id],
                )
            )
            if shared:
                e.add("other", "Die beiden saßen am selben Blatt: das sind zwei Personen.")  # fmt: skip
        e.raise_if_any()
        moved = int(
            db.execute(
                "update sheet_players set player_id = ? where player_id = ?", [keep_id, drop_id]
            ).rowcount
        )
        db.execute("update players set merged_into = ? where id = ?", [keep_id, drop_id])
        db.execute("update players set merged_into = ? where merged_into = ?", [keep_id, drop_id])
        _log(db, keep_id, "merge", {"from": drop["name"], "from_id": drop_id, "sheets": moved})
        _log(db, drop_id, "merged", {"into": keep["name"], "into_id": keep_id, "sheets": moved})


def player_log(db: Database, player_id: int) -> list[dict[str, Any]]:
    return [
        {"at": r["at"], "action": r["action"], "detail": json.loads(r["detail"] or "{}")}
        for r in db.query(
            "select * from player_log where player_id = ? order by id desc", [player_id]
        )
    ]


def aliases(db: Database, player_id: int) -> list[str]:
    """Names of entries merged into this player (how else the table has typed them)."""
    return [
        r["name"]
        for r in db.query(
            "select name from players where merged_into = ? order by name", [player_id]
        )
    ]


# --- Groups -----------------------------------------------------------------------------------


def normalize_group(data: object) -> tuple[str, str, dict[str, Any]]:
    """A new group's name, game and club rules (defaults filled in); InvalidDeal otherwise."""
    e = Errors()
    if not isinstance(data, dict):
        e.add("_", "Bitte ein JSON-Objekt senden.")
        e.raise_if_any()
    assert isinstance(data, dict)
    for k in data:
        if k not in ("name", "game", "rules"):
            e.add(k, "Unbekanntes Feld.")
    name = data.get("name")
    if not isinstance(name, str) or not clean_name(name):
        e.add("name", "Bitte der Gruppe einen Namen geben.")
        name = ""
    elif len(clean_name(name)) > 80:
        e.add("name", "Höchstens 80 Zeichen.")
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:  # (a dict or list is no key)
        e.add("game", "Bitte „skat“ oder „schafkopf“.")
        game = None
    rules = normalize_group_rules(game or "skat", data.get("rules"), e)
    e.raise_if_any()
    assert isinstance(game, str)
    return clean_name(name), game, rules


def _group(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["rules"] = json.loads(row["rules"])
    return out


def create_group(db: Database, name: str, game: str, rules: dict[str, Any]) -> dict[str, Any]:
    with db.atomic():
        cur = db.execute(
            "insert into groups (name, game, rules, created, edit_token) values (?, ?, ?, ?, ?)",
            [name, game, json.dumps(rules, sort_keys=True), _now(), secrets.token_urlsafe(18)],
        )
        gid = int(cur.lastrowid or 0)
    return get_group(db, gid)


def get_group(db: Database, group_id: int) -> dict[str, Any]:
    rows = list(db.query("select * from groups where id = ?", [group_id]))
    if not rows:
        raise NotFound(group_id)
    return _group(rows[0])


def list_groups(db: Database, game: str | None = None) -> list[dict[str, Any]]:
    sql = (
        # evenings: a club night's tables count once
        "select g.*, (select count(distinct coalesce('e' || t.event_id, 's' || s.id)) "
        "from sheets s left join event_tables t on t.sheet_id = s.id "
        "where s.group_id = g.id) as sheets from groups g"
    )
    args: list[Any] = []
    if game:
        sql += " where g.game = ?"
        args.append(game)
    return [_group(r) for r in db.query(sql + " order by g.name collate nocase, g.id", args)]


def check_group(db: Database, group: object, game: str) -> int:
    """The id of a group a new sheet of ``game`` may join; InvalidDeal("group") otherwise."""
    e = Errors()
    if isinstance(group, bool) or not isinstance(group, int):
        e.add("group", "Die Gruppe ist eine Nummer.")
        e.raise_if_any()
    assert isinstance(group, int)
    try:
        if not is_id(group):
            raise NotFound(group)
        found = get_group(db, group)
    except NotFound:
        e.add("group", "Diese Gruppe gibt es nicht.")
        e.raise_if_any()
        raise
    if found["game"] != game:
        e.add("group", "Die Gruppe spielt ein anderes Spiel als dieses Blatt.")
        e.raise_if_any()
    return group


def parse_id(raw: str | None) -> int | None:
    """An id typed into a form or a query ("12"), or None when it can name no row."""
    text = (raw or "").strip()
    if not text.isascii() or not text.isdigit():
        return None
    value = int(text) if len(text) <= 20 else -1
    return value if is_id(value) else None


def form_group(db: Database, raw: str | None, game: str) -> int | None:
    """The group chosen on the new-sheet form ("" for none)."""
    if not raw:
        return None
    group = parse_id(raw)
    return check_group(db, -1 if group is None else group, game)


def preselect_group(db: Database, form: Any, raw: str | None) -> None:
    """``/sheets?group=<id>`` (the group page's "new sheet"): that group and its game."""
    gid = parse_id(raw)
    if gid is None:
        return
    try:
        group = get_group(db, gid)
    except NotFound:
        return
    form.group.data = str(group["id"])
    form.game.data = group["game"]


def join_group(db: Database, sheet_id: int, group_id: int | None) -> None:
    with db.atomic():
        rows = list(db.query("select game from sheets where id = ?", [sheet_id]))
        if not rows:
            raise NotFound(sheet_id)
        if group_id is not None:
            check_group(db, group_id, rows[0]["game"])
        db.execute(
            "update sheets set group_id = ?, updated = ?, rev = rev + 1 where id = ?",
            [group_id, _now(), sheet_id],
        )


def update_group(db: Database, group_id: int, name: str, rules: dict[str, Any]) -> None:
    """A new name or new club rules (``normalize_group`` checks both first)."""
    with db.atomic():
        cur = db.execute(
            "update groups set name = ?, rules = ? where id = ?",
            [name, json.dumps(rules, sort_keys=True), group_id],
        )
        if cur.rowcount == 0:
            raise NotFound(group_id)


def ungrouped_sheets(db: Database, game: str) -> list[dict[str, Any]]:
    """Sheets of this game in no group, newest first: candidates to add to one."""
    return [
        _sheet_row(r)
        for r in db.query(
            "select * from sheets where group_id is null and game = ? "
            "order by created desc, id desc limit 200",
            [game],
        )
    ]


def sheet_day(sheet: dict[str, Any]) -> date:
    """The day a sheet belongs to: its ``day`` when it has one (a club night's table: the
    event's date), else the day it was created (the server's local day)."""
    try:
        if sheet.get("day"):
            return date.fromisoformat(sheet["day"])
        return datetime.fromisoformat(sheet["created"]).astimezone().date()
    except (TypeError, ValueError):
        return date.min


def by_day(sheets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sheets oldest first by the day they belong to (then as made)."""
    return sorted(sheets, key=lambda s: (sheet_day(s), s["created"], s["id"]))


def group_sheets(
    db: Database, group_id: int, start: date | None = None, end: date | None = None
) -> list[dict[str, Any]]:
    """The group's sheets created from ``start`` to ``end`` (both days included), oldest first."""
    out = []
    for r in db.query("select * from sheets where group_id = ? order by created, id", [group_id]):
        sheet = _sheet_row(r)
        day = sheet_day(sheet)
        if (start is None or day >= start) and (end is None or day <= end):
            out.append(sheet)
    return by_day(out)
