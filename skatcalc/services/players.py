"""Players across evenings and groups of sheets: the service (no Flask, no SQL: the rows are
``store.players``' and ``store.groups``', typed records in and out).

API for other modules (all take a sqlite-utils ``Database``; ids are ints)::

    name_key(name) -> str                     # rules.common: "  anna  " and "Anna" one key
    player_for_name(db, name) -> int          # find (case/space-insensitive) or create
    find_player(db, name) -> int | None       # find only; follows merges
    resolve(db, player_id) -> int             # the surviving id after merges (NotFound)
    get_player(db, player_id) -> Player       # id, name, key, created, merged_into
    list_players(db) -> list[PlayerSummary]   # id, name, sheets (merged entries hidden)
    link_sheet_players(db, sheet_id, names)   # seat i -> player of names[i]
    sheet_player_ids(db, sheet_id) -> list[int]           # by seat
    sheets_of_player(db, player_id) -> list[SeatedSheet]  # sheet, seat, name typed there
    rename_player(db, player_id, name)        # InvalidDeal("name") if another has it
    merge_players(db, keep_id, drop_id)       # drop's seats move to keep; logged on both
    player_log(db, player_id) -> list[PlayerLogEntry]  # at, action, detail (dict)
    create_group(db, name, game, rules) -> Group  # rules as normalize_group gives them
    normalize_group(data) -> (name, game, rules)  # InvalidDeal with field names
    get_group(db, group_id) -> Group          # id, name, game, rules (dict), created, edit_token
    list_groups(db) -> list[Group]            # + "sheets" count
    check_group(db, group_id, game) -> int    # InvalidDeal("group") for unknown/other game
    join_group(db, sheet_id, group_id | None) # an existing sheet into a group (or out);
                                              # NotMovable: closed, or a club night's table
    form_group(db, raw, game) -> int | None   # the new-sheet form's group select
    preselect_group(db, form, raw)            # /sheets?group=<id> preselects it
    update_group(db, group_id, name, rules)   # after normalize_group
    ungrouped_sheets(db, game) -> list[Sheet]  # sheets of a game in no group
    group_sheets(db, group_id, start, end) -> list[Sheet]  # sheets by their day
    sheet_day(sheet) -> date                  # the day a sheet belongs to (a club night's)

``service.create_sheet(..., group_id=...)`` links the players itself; callers need not.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from sqlite_utils import Database

from skatcalc.games import first as first_game
from skatcalc.jsontypes import JSONObject
from skatcalc.rules.common import Errors, Msg, clean_name, name_key
from skatcalc.rules.sheet import BAD_NAME_MSG, GAMES, MAX_NAME, bad_name_char
from skatcalc.rules.standings import normalize_group_rules
from skatcalc.store import NotFound, is_id, now
from skatcalc.store import groups as group_rows
from skatcalc.store import players as rows
from skatcalc.store.club_records import Group as Group  # the pages take the record from here
from skatcalc.store.club_records import Player, PlayerLogEntry, PlayerSummary
from skatcalc.store.records import Sheet as Sheet  # web/request_state.py takes it from here

__all__ = ["NotFound", "clean_name", "name_key"]


def _now() -> str:
    return now()


def find_player(db: Database, name: str) -> int | None:
    found = rows.id_by_key(db, name_key(name))
    return None if found is None else resolve(db, found)


def player_for_name(db: Database, name: str) -> int:
    found = find_player(db, name)
    if found is not None:
        return found
    return rows.insert_player(db, clean_name(name), name_key(name), _now())


def resolve(db: Database, player_id: int) -> int:
    """Follow merges to the entry that holds the player's sheets now."""
    seen: set[int] = set()
    pid = player_id
    while True:
        player = rows.get_player(db, pid)
        if player is None:
            raise NotFound(player_id)
        nxt = player.merged_into
        if nxt is None or pid in seen:
            return pid
        seen.add(pid)
        pid = nxt


def get_player(db: Database, player_id: int) -> Player:
    player = rows.get_player(db, player_id)
    if player is None:
        raise NotFound(player_id)
    return player


def list_players(db: Database) -> list[PlayerSummary]:
    return rows.list_players(db)


def link_sheet_players(db: Database, sheet_id: int, names: list[str]) -> None:
    with db.atomic():
        rows.clear_seats(db, sheet_id)  # first: a name's entry may change hands below
        rows.set_seats(db, sheet_id, [player_for_name(db, name) for name in names])


def sheet_player_ids(db: Database, sheet_id: int) -> list[int]:
    return rows.sheet_player_ids(db, sheet_id)


@dataclass(frozen=True, slots=True)
class SeatedSheet:
    """A sheet a player sits at: the sheet, his seat, and his name as typed there."""

    sheet: Sheet
    seat: int
    typed: str


def sheets_of_player(db: Database, player_id: int) -> list[SeatedSheet]:
    """The player's sheets, oldest first, each with the seat and the name as typed there."""
    seated = [SeatedSheet(sheet, seat, sheet.players[seat])
              for sheet, seat in rows.sheets_of_player(db, player_id)]  # fmt: skip
    return sorted(seated, key=lambda s: _day_order(s.sheet))


def _log(db: Database, player_id: int, action: str, detail: JSONObject) -> None:
    rows.add_log(db, player_id, _now(), action, detail)


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
        if player.merged_into is not None:
            raise NotFound(player_id)
        key = name_key(name)
        other = rows.other_id_by_key(db, key, player_id)
        if other is not None:
            if resolve(db, other) != player_id:
                e.add(
                    "name",
                    "Diesen Namen hat schon ein anderer Spieler; zusammenführen statt umbenennen.",
                )
                e.raise_if_any()
            # The name of an entry merged into this one: that entry gives the name up.
            rows.set_key(db, other, f"{key}\x00{other}")
        rows.set_name(db, player_id, clean_name(name), key)
        _log(db, player_id, "rename", {"from": player.name, "to": clean_name(name)})


def merge_players(db: Database, keep_id: int, drop_id: int) -> None:
    """Two entries are one person: ``drop``'s sheets join ``keep``; its name stays as an alias."""
    with db.atomic():
        keep = get_player(db, keep_id)
        drop = get_player(db, drop_id)
        e = Errors()
        if keep_id == drop_id:
            e.add("other", "Ein Spieler mit sich selbst? Bitte einen anderen wählen.")  # fmt: skip
        elif keep.merged_into is not None or drop.merged_into is not None:
            raise NotFound(drop_id)
        else:
            if rows.share_a_sheet(db, keep_id, drop_id):
                e.add("other", "Die beiden saßen am selben Blatt: das sind zwei Personen.")  # fmt: skip
        e.raise_if_any()
        moved = rows.merge_entries(db, keep_id, drop_id)
        _log(db, keep_id, "merge", {"from": drop.name, "from_id": drop_id, "sheets": moved})
        _log(db, drop_id, "merged", {"into": keep.name, "into_id": keep_id, "sheets": moved})


def player_log(db: Database, player_id: int) -> list[PlayerLogEntry]:
    return rows.player_log(db, player_id)


def aliases(db: Database, player_id: int) -> list[str]:
    """Names of entries merged into this player (how else the table has typed them)."""
    return rows.aliases(db, player_id)


# --- Groups -----------------------------------------------------------------------------------


def normalize_group(data: object) -> tuple[str, str, JSONObject]:
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
        e.add("game", "Erlaubt sind: %(allowed)s.", allowed=", ".join(GAMES))  # as for a sheet
        game = None
    rules = normalize_group_rules(game or first_game(), data.get("rules"), e)
    e.raise_if_any()
    assert isinstance(game, str)
    return clean_name(name), game, cast(JSONObject, rules)


def create_group(db: Database, name: str, game: str, rules: JSONObject) -> Group:
    with db.atomic():
        gid = group_rows.insert_group(db, name, game, rules, _now(), secrets.token_urlsafe(18))
    return get_group(db, gid)


def get_group(db: Database, group_id: int) -> Group:
    group = group_rows.get_group(db, group_id)
    if group is None:
        raise NotFound(group_id)
    return group


def list_groups(db: Database, game: str | None = None) -> list[Group]:
    return group_rows.list_groups(db, game)


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
    if found.game != game:
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
    form.group.data = str(group.id)
    form.game.data = group.game


class NotMovable(Exception):
    """A sheet whose group is settled elsewhere: a closed evening or a club night's table
    (its group is its event's). Answered 409; nothing was changed. ``msg`` language-free."""

    def __init__(self, sheet_id: int, msg: Msg) -> None:
        super().__init__(msg.de)
        self.sheet_id = sheet_id
        self.msg = msg


def join_group(db: Database, sheet_id: int, group_id: int | None) -> None:
    """An existing sheet into a group (or out of its group, ``None``). The rights (the
    group's and the sheet's) are the caller's to check; what the sheet is decides here:
    NotFound, InvalidDeal("group") for a group of another game, NotMovable for a closed
    sheet or a club night's table."""
    with db.atomic():
        place = group_rows.sheet_place(db, sheet_id)
        if place is None:
            raise NotFound(sheet_id)
        game, closed, tabled = place
        if group_id is not None:
            check_group(db, group_id, game)
        if tabled:
            raise NotMovable(sheet_id, Msg(
                "Diese Liste ist ein Tisch einer Veranstaltung: sie gehört zur Gruppe der "
                "Veranstaltung. Nichts geändert."))  # fmt: skip
        if closed:
            raise NotMovable(sheet_id, Msg(
                "Der Abend ist abgeschlossen; seine Gruppe ändert sich erst, wenn er wieder "
                "geöffnet ist. Nichts geändert."))  # fmt: skip
        group_rows.set_sheet_group(db, sheet_id, group_id, _now())


def update_group(db: Database, group_id: int, name: str, rules: JSONObject) -> None:
    """A new name or new club rules (``normalize_group`` checks both first)."""
    with db.atomic():
        if not group_rows.update_group(db, group_id, name, rules):
            raise NotFound(group_id)


def ungrouped_sheets(db: Database, game: str) -> list[Sheet]:
    """Sheets of this game in no group, newest first: candidates to add to one."""
    return group_rows.ungrouped_sheets(db, game)


def sheet_day(sheet: Sheet) -> date:
    """The day a sheet belongs to: its ``day`` when it has one (a club night's table: the
    event's date), else the day it was created (the server's local day)."""
    try:
        if sheet.day:
            return date.fromisoformat(sheet.day)
        return datetime.fromisoformat(sheet.created).astimezone().date()
    except (TypeError, ValueError):
        return date.min


def _day_order(sheet: Sheet) -> tuple[date, str, int]:
    return sheet_day(sheet), sheet.created, sheet.id


def by_day(sheets: list[Sheet]) -> list[Sheet]:
    """Sheets oldest first by the day they belong to (then as made)."""
    return sorted(sheets, key=_day_order)


def group_sheets(
    db: Database, group_id: int, start: date | None = None, end: date | None = None
) -> list[Sheet]:
    """The group's sheets created from ``start`` to ``end`` (both days included), oldest first."""
    out = []
    for sheet in group_rows.group_sheets(db, group_id):
        day = sheet_day(sheet)
        if (start is None or day >= start) and (end is None or day <= end):
            out.append(sheet)
    return by_day(out)
