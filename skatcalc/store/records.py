"""Typed records out of the store: one frozen dataclass per stored thing and ONE decoder each
(a row -> the record), used by every query that reads such a row.

The JSON inside a row (a sheet's players, rules and rule changes, a deal's input) is decoded
here; the rules and deal bodies stay dicts (JSON edges: the API's bodies, the stored rules).

Plain frozen dataclasses: read by attribute, equal to a record of their kind with the same
fields (``dataclasses.asdict`` where a dict is wanted, at a JSON edge)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict, cast

from ..jsontypes import JSONObject, JSONValue

Row = Mapping[str, Any]  # a sqlite-utils query row: its columns as SQLite gives them


class RuleChangeJSON(TypedDict):
    """A stored change of a sheet's rules: from which deal on, and the rules before it."""

    from_n: int
    before: JSONObject


@dataclass(frozen=True, slots=True)
class Sheet:
    """A sheet as stored: its seats' names as typed, the rules in force now (JSON object) and
    the rules' changes during the evening (``{"from_n", "before"}``, oldest first)."""

    id: int
    name: str
    game: str
    players: list[str]
    first_dealer: str
    rules: JSONObject
    edit_token: str
    share_token: str
    created: str
    updated: str
    rev: int = 0
    rule_changes: list[RuleChangeJSON] | None = None
    group_id: int | None = None
    closed: str | None = None  # when it was closed; None while open
    day: str | None = None  # the day it belongs to when not that of ``created``
    deal_count: int | None = None  # only where a listing counted them


@dataclass(frozen=True, slots=True)
class Deal:
    """A stored deal: its body exactly as entered (the source of every total)."""

    n: int
    dealer: str
    active: list[str]
    input: dict[str, Any]
    struck: bool
    version: int
    created: str
    updated: str


@dataclass(frozen=True, slots=True)
class DealHead:
    """What tells whether an earlier computation still holds, and who deals next."""

    n: int
    version: int
    struck: bool
    dealer: str


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One change of a sheet: add, correct, strike, restore, rules, close, reopen; ``before``
    the deal (or the rules) before it, None for an add."""

    at: str
    action: str
    n: int
    before: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class TableLock:
    """A club night's table as a write to one of its sheets sees it under the write lock:
    its event (id, name, when closed), series and table number, the deals planned per table
    size (the series' own length over the event's), when the table confirmed its list, and
    the other list's sheet under double entry."""

    id: int
    name: str
    closed: str | None
    series: int
    table_n: int
    deals: dict[str, int]
    confirmed: str | None
    partner: int | None
    paper: bool = False  # the desk typed the table's paper list: it takes no deals


@dataclass(frozen=True, slots=True)
class SheetLock:
    """What may refuse a write to a sheet, read under SQLite's write lock: when it was
    closed, its number of seats, for a club night's table the table and its deals played
    (struck ones not counted), and the sheet's revision."""

    closed: str | None
    players: int
    played: int  # 0 for a sheet that is no club night's table (nothing counts them there)
    event: TableLock | None
    rev: int  # the sheet's revision: unchanged since the sheet was loaded, nothing else wrote


@dataclass(frozen=True, slots=True)
class TableEvent:
    """The club night whose table a sheet is: its id and edit token (its rights)."""

    id: int
    edit_token: str


class DealFile(TypedDict):
    """A deal of a sheet file, checked by the import: stored as it is."""

    n: int
    dealer: str
    active: list[str]
    input: JSONObject
    struck: bool
    version: NotRequired[int]


class HistoryFile(TypedDict):
    """A history entry of a sheet file, checked by the import."""

    n: int
    action: str
    at: str
    before: NotRequired[JSONObject | None]


class DealRow(TypedDict):
    """A ``deals`` row as stored (its JSON columns as text): what a rename rewrites."""

    id: int
    dealer: str
    active: str
    input: str
    idem_key: str | None


def _json_list(raw: object) -> list[JSONValue]:
    decoded = json.loads(raw) if isinstance(raw, str) else raw
    return list(decoded) if isinstance(decoded, list | tuple) else []


def _names(raw: object) -> list[str]:
    return [str(name) for name in _json_list(raw)]


def sheet_of(row: Row) -> Sheet:
    """The one decoder of a ``sheets`` row (any query selecting ``sheets.*``; columns an old
    schema lacks are left at their defaults)."""
    changes = row.get("rule_changes")
    count = row.get("deal_count")
    group = row.get("group_id")
    return Sheet(
        id=int(row["id"]),
        name=str(row["name"]),
        game=str(row["game"]),
        players=_names(row["players"]),
        first_dealer=str(row["first_dealer"]),
        rules=json.loads(row["rules"]) if isinstance(row["rules"], str) else dict(row["rules"]),
        edit_token=str(row["edit_token"]),
        share_token=str(row["share_token"]),
        created=str(row["created"]),
        updated=str(row["updated"]),
        rev=int(row.get("rev") or 0),
        rule_changes=cast(list[RuleChangeJSON], _json_list(changes)),
        group_id=None if group is None else int(group),
        closed=row.get("closed"),
        day=row.get("day"),
        deal_count=None if count is None else int(count),
    )


def deal_of(row: Row) -> Deal:
    """The one decoder of a ``deals`` row."""
    return Deal(
        n=int(row["n"]),
        dealer=str(row["dealer"]),
        active=_names(row["active"]),
        input=json.loads(row["input"]),
        struck=bool(row["struck"]),
        version=int(row["version"]),
        created=str(row["created"]),
        updated=str(row["updated"]),
    )


def history_of(row: Row) -> HistoryEntry:
    """The one decoder of a ``history`` row."""
    return HistoryEntry(
        at=str(row["at"]),
        action=str(row["action"]),
        n=int(row["n"]),
        before=json.loads(row["before"]) if row["before"] else None,
    )
