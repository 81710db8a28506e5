"""Typed records of the club's storage: players, groups, club nights (events), their
registrations and tables, as ``store.players``, ``store.groups`` and ``store.events`` read and
write them. Frozen: a service that needs another value makes a new record
(``dataclasses.replace``). JSON columns are decoded once, here (one decoder per record), into
TypedDicts where their shape is the store's (the fee and prize plans); a group's and an event's
rules stay free JSON objects, read by the pure rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar, cast

from ..jsontypes import JSONObject
from .records import Row, Sheet

J = TypeVar("J")


def _json_or(text: object, empty: J) -> J:
    # the JSON edge: a column holds what its record's field says (the store wrote it so)
    return cast(J, json.loads(str(text))) if text else empty


FeeTierJSON = TypedDict("FeeTierJSON", {"from": int, "cents": int})


class FeePlanJSON(TypedDict, total=False):
    """An event's stored fee plan (``rules.events.Fees`` beyond the entry and per lost game)."""

    lost_game_tiers: list[FeeTierJSON]
    table_cents: int
    team_cents: int


class TeamJSON(TypedDict):
    name: str
    members: list[str]


class PrizePlanJSON(TypedDict, total=False):
    """An event's stored prize plan beyond its payout; each payout as ``Payout.to_json`` makes it."""

    series_prizes: dict[str, object]
    categories: list[str]
    category_prizes: dict[str, object]
    teams: list[TeamJSON]
    team_payout: dict[str, object]


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    key: str
    created: str
    merged_into: int | None


def decode_player(row: Row) -> Player:
    merged = row["merged_into"]
    return Player(int(row["id"]), str(row["name"]), str(row["key"]), str(row["created"]),
                  None if merged is None else int(merged))  # fmt: skip


@dataclass(frozen=True)
class PlayerSummary:
    """A player on the players list: ``sheets`` the evenings played (a club night once)."""

    id: int
    name: str
    sheets: int


@dataclass(frozen=True)
class PlayerLogEntry:
    at: str
    action: str
    detail: JSONObject


def decode_player_log(row: Row) -> PlayerLogEntry:
    return PlayerLogEntry(str(row["at"]), str(row["action"]), _json_or(row["detail"], {}))


@dataclass(frozen=True)
class Group:
    """A group of sheets with its club rules (free JSON, read by ``rules.standings``);
    ``sheets`` its evenings where a list counted them, else None."""

    id: int
    name: str
    game: str
    rules: dict[str, Any]
    created: str
    edit_token: str
    sheets: int | None = None


def decode_group(row: Row) -> Group:
    sheets = row.get("sheets")
    return Group(int(row["id"]), str(row["name"]), str(row["game"]), json.loads(row["rules"]),
                 str(row["created"]), str(row["edit_token"]),
                 None if sheets is None else int(sheets))  # fmt: skip


@dataclass(frozen=True, slots=True)
class EventLogEntry:
    """A line of a club night's history: when, what (``action``) and the detail's own keys
    (free JSON, as stored: the series, the table, the player, the cents …)."""

    at: str
    action: str
    detail: JSONObject


def decode_event_log(row: Row) -> EventLogEntry:
    return EventLogEntry(str(row["at"]), str(row["action"]), _json_or(row["detail"], {}))


@dataclass(frozen=True)
class Registration:
    """A player registered at a club night, under the name the event knows him by."""

    id: int
    name: str
    key: str
    player_id: int | None
    from_series: int
    away: bool
    registered: str
    category: str | None
    start_no: int | None
    member_no: str | None = None
    club: str | None = None


def decode_registration(row: Row) -> Registration:
    pid, no = row["player_id"], row["start_no"]
    return Registration(
        int(row["id"]), str(row["name"]), str(row["key"]), None if pid is None else int(pid),
        int(row["from_series"]), bool(row["away"]), str(row["registered"]),
        row["category"] or None, None if no is None else int(no),
        row.get("member_no") or None, row.get("club") or None,
    )  # fmt: skip


@dataclass(frozen=True)
class PenaltyRow:
    """Penalty points given to a registered player for one series, with the reason."""

    id: int
    player: str
    series: int
    points: int
    reason: str
    at: str


def decode_deals(text: object) -> dict[int, int]:
    """Deals per table size, stored as JSON with string keys: the one shape is int keys."""
    return {int(k): int(v) for k, v in _json_or(text, dict[str, int]()).items()}


def encode_deals(deals: Mapping[int, int]) -> str:
    return json.dumps({str(k): v for k, v in sorted(deals.items())})


@dataclass(frozen=True)
class Event:
    """A club night as stored: its money and its tables' sheet rules (free JSON, read by
    ``rules.events`` and the sheets' rules), ``deals`` per table size with int keys (the one
    shape). ``player_count`` and ``series_count`` only where a list counted them."""

    id: int
    name: str
    day: str
    game: str
    group_id: int | None
    deals: dict[int, int]
    rules: dict[str, Any]
    entry_cents: int
    lost_game_cents: int
    payout: dict[str, object]
    pot_cents: int | None
    edit_token: str
    created: str
    closed: str | None
    rev: int
    fee_plan: FeePlanJSON
    prize_plan: PrizePlanJSON
    double_entry: bool
    player_count: int | None = None
    series_count: int | None = None


def _int_or_none(value: object) -> int | None:
    return None if value is None else int(str(value))


def decode_event(row: Row) -> Event:
    return Event(
        id=int(row["id"]),
        name=str(row["name"]),
        day=str(row["day"]),
        game=str(row["game"]),
        group_id=_int_or_none(row["group_id"]),
        deals=decode_deals(row["deals"]),
        rules=json.loads(row["rules"]),
        entry_cents=int(row["entry_cents"]),
        lost_game_cents=int(row["lost_game_cents"]),
        payout=_json_or(row["payout"], {}),
        pot_cents=_int_or_none(row["pot_cents"]),
        edit_token=str(row["edit_token"]),
        created=str(row["created"]),
        closed=row["closed"],
        rev=int(row["rev"]),
        fee_plan=_json_or(row.get("fee_plan"), FeePlanJSON()),
        prize_plan=_json_or(row.get("prize_plan"), PrizePlanJSON()),
        double_entry=bool(row.get("double_entry")),
        player_count=_int_or_none(row.get("player_count")),
        series_count=_int_or_none(row.get("series_count")),
    )


@dataclass(frozen=True)
class EventRef:
    """The club night a sheet is a table of, as lists across sheets name it."""

    id: int
    name: str
    day: str


@dataclass(frozen=True)
class TableOfSheet:
    """A sheet that is a table of a club night: the event, the table's series and number,
    the deals per table size that series plays (the series' own when lengthened), the
    sign-off, and which list the sheet keeps ("A"/"B" with double entry, else None)."""

    event_id: int
    name: str
    closed: str | None
    series: int
    table_n: int
    deals: dict[int, int]
    confirmed: str | None
    signed: str | None
    list: str | None


@dataclass(frozen=True)
class TableRow:
    """A table of a club night's series as stored: its list-A sheet (the row as the sheets'
    decoder gives it), list B's sheet id with double entry, the sign-off (who signed, when
    confirmed), and the deals per table size its series plays on its own (lengthened)."""

    series: int
    n: int
    sheet: Sheet
    sheet_b: int | None
    signed: tuple[str, ...]
    confirmed: str | None
    series_deals: dict[int, int]
    foot: JSONObject | None = None  # a paper table's foot as typed (docs/rules.md 1.12)


@dataclass(frozen=True)
class SeriesTable:
    """A table of one series at the organiser's desk: its number, its list-A sheet row, the
    deals entered there (struck ones too; with double entry on either list) and list B's
    sheet id, if the table keeps one."""

    n: int
    sheet: Sheet
    entered: int
    sheet_b: int | None = None


@dataclass(frozen=True)
class SeriesRow:
    event_id: int
    n: int
    seating: str
    seed: int | None
    created: str
    deals: dict[int, int]  # the series' own deals per table size (lengthened), else empty


def decode_series(row: Row) -> SeriesRow:
    seed = row["seed"]
    return SeriesRow(int(row["event_id"]), int(row["n"]), str(row["seating"]),
                     None if seed is None else int(seed), str(row["created"]),
                     decode_deals(row["deals"]))  # fmt: skip
