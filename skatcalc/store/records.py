"""Typed records out of the store: one frozen dataclass per stored thing and ONE decoder each
(a row -> the record), used by every query that reads such a row.

The JSON inside a row (a sheet's players, rules and rule changes, a deal's input) is decoded
here; the rules and deal bodies stay dicts (JSON edges: the API's bodies, the stored rules).

Records also answer ``record["field"]``, ``record.get("field")``, ``{**record}`` and compare
equal to the dict of their fields, so that code written for the dicts they replace (the club
night's and the players' modules, tests, templates) reads them unchanged while it moves to
attributes."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from typing import Any

# a record class's field names, read once (``dataclasses.fields`` on every ``record["x"]`` made a
# sheet page's render a tenth slower than with the dicts before); not in services/cache.py: a
# constant of the code, not derived data (and the store imports nothing above it)
_NAMES: dict[type, tuple[str, ...]] = {}


def _names_of(cls: type) -> tuple[str, ...]:
    names = _NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


class _Fields:
    """Read access by name, as the dicts before the records had it."""

    __slots__ = ()

    def __getitem__(self, key: str) -> Any:
        if key not in self._names():
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self._names() else default

    def keys(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, key: object) -> bool:
        return key in self._names()

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._names()}

    def __eq__(self, other: object) -> bool:
        # equal to a record of its kind with the same fields, and to the dict it replaces
        if isinstance(other, Mapping):
            return self.as_dict() == dict(other)
        if type(other) is type(self):
            return self.as_dict() == other.as_dict()
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def _names(cls) -> tuple[str, ...]:
        return _NAMES.get(cls) or _names_of(cls)


@dataclass(frozen=True, eq=False)
class Sheet(_Fields):
    """A sheet as stored: its seats' names as typed, the rules in force now (JSON object) and
    the rules' changes during the evening (``{"from_n", "before"}``, oldest first)."""

    id: int
    name: str
    game: str
    players: list[str]
    first_dealer: str
    rules: dict[str, Any]
    edit_token: str
    share_token: str
    created: str
    updated: str
    rev: int = 0
    rule_changes: list[dict[str, Any]] | None = None
    group_id: int | None = None
    closed: str | None = None  # when it was closed; None while open
    day: str | None = None  # the day it belongs to when not that of ``created``
    deal_count: int | None = None  # only where a listing counted them


@dataclass(frozen=True, eq=False)
class Deal(_Fields):
    """A stored deal: its body exactly as entered (the source of every total)."""

    n: int
    dealer: str
    active: list[str]
    input: dict[str, Any]
    struck: bool
    version: int
    created: str
    updated: str


@dataclass(frozen=True, eq=False)
class DealHead(_Fields):
    """What tells whether an earlier computation still holds, and who deals next."""

    n: int
    version: int
    struck: bool
    dealer: str


@dataclass(frozen=True, eq=False)
class HistoryEntry(_Fields):
    """One change of a sheet: add, correct, strike, restore, rules, close, reopen; ``before``
    the deal (or the rules) before it, None for an add."""

    at: str
    action: str
    n: int
    before: dict[str, Any] | None


def _json_list(raw: Any) -> list[Any]:
    return list(json.loads(raw)) if isinstance(raw, str) else list(raw or [])


def sheet_of(row: Mapping[str, Any]) -> Sheet:
    """The one decoder of a ``sheets`` row (any query selecting ``sheets.*``; columns an old
    schema lacks are left at their defaults)."""
    changes = row.get("rule_changes")
    count = row.get("deal_count")
    group = row.get("group_id")
    return Sheet(
        id=int(row["id"]),
        name=str(row["name"]),
        game=str(row["game"]),
        players=_json_list(row["players"]),
        first_dealer=str(row["first_dealer"]),
        rules=json.loads(row["rules"]) if isinstance(row["rules"], str) else dict(row["rules"]),
        edit_token=str(row["edit_token"]),
        share_token=str(row["share_token"]),
        created=str(row["created"]),
        updated=str(row["updated"]),
        rev=int(row.get("rev") or 0),
        rule_changes=_json_list(changes),
        group_id=None if group is None else int(group),
        closed=row.get("closed"),
        day=row.get("day"),
        deal_count=None if count is None else int(count),
    )


def deal_of(row: Mapping[str, Any]) -> Deal:
    """The one decoder of a ``deals`` row."""
    return Deal(
        n=int(row["n"]),
        dealer=str(row["dealer"]),
        active=_json_list(row["active"]),
        input=json.loads(row["input"]),
        struck=bool(row["struck"]),
        version=int(row["version"]),
        created=str(row["created"]),
        updated=str(row["updated"]),
    )


def history_of(row: Mapping[str, Any]) -> HistoryEntry:
    """The one decoder of a ``history`` row."""
    return HistoryEntry(
        at=str(row["at"]),
        action=str(row["action"]),
        n=int(row["n"]),
        before=json.loads(row["before"]) if row["before"] else None,
    )


# What the computations read of a sheet by name: the stored record, or such a record copied
# into a dict with a page's own fields beside it (a player's seat, a club night's table).
AnySheet = Sheet | dict[str, Any]
