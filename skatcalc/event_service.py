"""Club nights and Preisskat: storage and the event's derived views (no Flask).

An event is a name, a day, a game, its money and its tables' sheet rules; players register
by name; each series seats them at tables, and each table keeps an ordinary sheet. The
ranking, the tables' progress, the fees and the prize list are derived from those sheets'
deals on every read (the sheets' computed totals are cached per revision in ``service``).
"""

from __future__ import annotations

import json
import secrets
from datetime import date
from typing import Any

from sqlite_utils import Database

from . import players as people
from . import service, store
from .recent import Recent
from .rules.common import Errors, Msg, clean_name
from .rules.double_entry import compare, counted
from .rules.events import (
    MAX_EVENT_PLAYERS,
    MAX_SERIES_DEALS,
    CashCheck,
    EventSpec,
    Fees,
    FeeTier,
    Payout,
    PrizePlan,
    Prizes,
    RankRow,
    Seating,
    Table,
    TableResult,
    Team,
    award,
    by_ranking,
    cash_check,
    deals_for,
    draw,
    fees_total,
    rank_event,
    ranking_order,
    team_fee_payers,
    team_scores,
)
from .rules.ranking import rank_figure
from .rules.sheet import BAD_NAME_MSG, MAX_NAME, bad_name_char
from .rules.sheet import game as game_kind
from .store import sheets as sheet_store

MAX_SEED = 999_999  # short enough to read out and type in again


class NotFound(store.NotFound):
    pass


class Unfinished(Exception):
    """Series ``n`` still has tables with deals to play (``tables``: number, played, planned):
    the next series is seated only when the organiser confirms (``force``)."""

    def __init__(self, n: int, tables: list[tuple[int, int, int]]) -> None:
        super().__init__(n)
        self.n = n
        self.tables = tables


class SeriesTaken(Exception):
    """The series a request meant (``n``) is seated already: a double tap, or another device."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


# --- Events -----------------------------------------------------------------------------------


def _event(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["deals"] = {int(k): v for k, v in json.loads(row["deals"]).items()}
    out["rules"] = json.loads(row["rules"])
    out["payout"] = json.loads(row["payout"])
    out["fee_plan"] = json.loads(row.get("fee_plan") or "{}")
    out["prize_plan"] = json.loads(row.get("prize_plan") or "{}")
    return out


def payout_of(event: dict[str, Any]) -> Payout:
    return Payout.from_json(event["payout"])


def fees_of(event: dict[str, Any]) -> Fees:
    f = event["fee_plan"]
    tiers = tuple(FeeTier(int(t["from"]), int(t["cents"])) for t in f.get("lost_game_tiers", ()))
    return Fees(event["entry_cents"], event["lost_game_cents"], tiers,
                int(f.get("table_cents", 0)), int(f.get("team_cents", 0)))  # fmt: skip


def _payout_or_none(data: Any) -> Payout | None:
    return Payout.from_json(data) if data else None


def plan_of(event: dict[str, Any]) -> PrizePlan:
    p = event["prize_plan"]
    return PrizePlan(
        payout_of(event),
        _payout_or_none(p.get("series_prizes")),
        tuple(p.get("categories", ())),
        _payout_or_none(p.get("category_prizes")),
        tuple(Team(t["name"], tuple(t["members"])) for t in p.get("teams", ())),
        _payout_or_none(p.get("team_payout")),
    )


def _fee_plan_json(fees: Fees) -> str | None:
    out: dict[str, Any] = {}
    if fees.tiers:
        out["lost_game_tiers"] = [{"from": t.start, "cents": t.cents} for t in fees.tiers]
    if fees.table_cents:
        out["table_cents"] = fees.table_cents
    if fees.team_cents:
        out["team_cents"] = fees.team_cents
    return json.dumps(out) if out else None


def _prize_plan_json(plan: PrizePlan) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if plan.series_prizes is not None:
        out["series_prizes"] = plan.series_prizes.to_json()
    if plan.categories:
        out["categories"] = list(plan.categories)
    if plan.category_prizes is not None:
        out["category_prizes"] = plan.category_prizes.to_json()
    if plan.teams:
        out["teams"] = [{"name": t.name, "members": list(t.members)} for t in plan.teams]
    if plan.team_payout is not None:
        out["team_payout"] = plan.team_payout.to_json()
    return out


def create_event(db: Database, spec: EventSpec) -> dict[str, Any]:
    group = None
    if spec.group is not None:
        group = people.check_group(db, spec.group, spec.game)
    with db.atomic():
        cur = db.execute(
            "insert into events (name, day, game, group_id, deals, rules, entry_cents, "
            "lost_game_cents, payout, pot_cents, edit_token, created, fee_plan, prize_plan) "
            "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                spec.name,
                spec.day,
                spec.game,
                group,
                json.dumps({str(k): v for k, v in spec.deals.items()}),
                json.dumps(spec.rules.to_json(), ensure_ascii=False, sort_keys=True),
                spec.fees.entry_cents,
                spec.fees.lost_game_cents,
                json.dumps(spec.payout.to_json()),
                spec.pot_cents,
                secrets.token_urlsafe(18),
                store.now(),
                _fee_plan_json(spec.fees),
                json.dumps(_prize_plan_json(spec.plan()), ensure_ascii=False)
                if _prize_plan_json(spec.plan())
                else None,
            ],
        )
        event_id = int(cur.lastrowid or 0)
        if spec.double_entry:
            db.execute("update events set double_entry = 1 where id = ?", [event_id])
    return get_event(db, event_id)


def get_event(db: Database, event_id: int) -> dict[str, Any]:
    rows = list(db.query("select * from events where id = ?", [event_id]))
    if not rows:
        raise NotFound(event_id)
    return _event(rows[0])


def list_events(db: Database) -> list[dict[str, Any]]:
    return [
        _event(r)
        for r in db.query(
            "select e.*, (select count(*) from event_players p where p.event_id = e.id) "
            "as player_count, (select count(*) from event_series s where s.event_id = e.id) "
            "as series_count from events e order by e.day desc, e.id desc"
        )
    ]


def _bump(db: Database, event_id: int) -> None:
    # Writing first takes SQLite's write lock at the start of the transaction, so two
    # devices registering or seating at once queue up instead of reading stale counts.
    cur = db.execute("update events set rev = rev + 1 where id = ?", [event_id])
    if cur.rowcount == 0:
        raise NotFound(event_id)


def _refuse_if_closed(event: dict[str, Any]) -> None:
    if event["closed"]:
        e = Errors()
        e.add("_", "Die Veranstaltung ist abgeschlossen.")
        e.raise_if_any()


def set_money(db: Database, event_id: int, payout: Payout, pot_cents: int | None) -> None:
    with db.atomic():
        _bump(db, event_id)
        db.execute(
            "update events set payout = ?, pot_cents = ? where id = ?",
            [json.dumps(payout.to_json()), pot_cents, event_id],
        )  # fmt: skip


def set_closed(db: Database, event_id: int, closed: bool) -> bool:
    """Close the event (its tables' sheets become read-only, service.sheet_write) or reopen
    it, in the event's history and each table's; False when it already was so (a second
    close keeps the first one's time)."""
    at = store.now()
    with db.atomic():
        _bump(db, event_id)
        cur = db.execute(
            "update events set closed = ? where id = ? and (closed is null) = ?",
            [at if closed else None, event_id, int(closed)],
        )
        if cur.rowcount == 0:
            return False
        log_event(db, event_id, "close" if closed else "reopen", at)
        for sid in table_sheet_ids(db, event_id):
            sheet_store.set_sheet_closed(db, sid, closed, at)
    return True


def log_event(db: Database, event_id: int, action: str, at: str, detail: Any = None) -> None:
    db.execute(
        "insert into event_log (event_id, at, action, detail) values (?, ?, ?, ?)",
        [event_id, at, action, None if detail is None else json.dumps(detail)],
    )


def event_history(db: Database, event_id: int) -> list[dict[str, Any]]:
    """The event's own changes, oldest first: closing, reopening, lengthening a series."""
    return [
        {"at": r["at"], "action": r["action"],
         **(json.loads(r["detail"]) if r["detail"] else {})}
        for r in db.query("select * from event_log where event_id = ? order by id", [event_id])
    ]  # fmt: skip


def series_deals(event: dict[str, Any], override: str | None) -> dict[int, int]:
    """Deals per table size in one series: the event's, or the series' own if lengthened."""
    own = {int(k): int(v) for k, v in json.loads(override).items()} if override else {}
    return {**event["deals"], **own}


def lengthen_series(db: Database, event_id: int, n: int, deals: dict[int, int]) -> None:
    """Set the deals per table size of series ``n`` (the organiser lengthens a series whose
    tables want to play on); never below what a table of that size has played already."""
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        _refuse_if_closed(event)
        rows = list(db.query(
            "select deals from event_series where event_id = ? and n = ?", [event_id, n]))  # fmt: skip
        if not rows:
            raise NotFound(n)
        tables = [t for t in tables_of(db, event) if t["series"] == n]
        e = Errors()
        sizes = game_kind(event["game"]).event_tables
        for size, value in deals.items():
            played = max((t["played"] for t in tables if len(t["players"]) == size), default=0)
            if size not in sizes:
                e.add(f"deals.{size}", "Tische zu %(size)s gibt es hier nicht.", size=size)
            elif not max(1, played) <= value <= MAX_SERIES_DEALS:
                e.add(f"deals.{size}", "Spiele je Serie: %(min)s bis %(max)s (so viele sind gespielt).",
                      min=max(1, played), max=MAX_SERIES_DEALS)  # fmt: skip
        if not deals:
            e.add("deals", 'Bitte die Spiele je Tischgröße angeben, z. B. {"4": 52}.')
        e.raise_if_any()
        merged = series_deals(event, rows[0]["deals"])
        merged.update(deals)
        db.execute(
            "update event_series set deals = ? where event_id = ? and n = ?",
            [json.dumps({str(k): v for k, v in sorted(merged.items())}), event_id, n],
        )
        log_event(db, event_id, "lengthen", store.now(),
                  {"series": n, "deals": {str(k): v for k, v in sorted(deals.items())}})  # fmt: skip
        # the tables' pages show how many deals are left: their cached pages go
        db.execute(
            "update sheets set rev = rev + 1 where id in (select sheet_id from event_tables "
            "where event_id = ? and series = ? union select sheet_b from event_tables "
            "where event_id = ? and series = ?)",
            [event_id, n, event_id, n],
        )


def delete_event(db: Database, event_id: int) -> None:
    """The event and its tables' sheets with all their deals."""
    with db.atomic():
        get_event(db, event_id)
        sheet_ids = table_sheet_ids(db, event_id)
        db.execute("delete from event_tables where event_id = ?", [event_id])
        for sid in sheet_ids:
            service.delete_sheet(db, sid)
        db.execute("delete from event_series where event_id = ?", [event_id])
        db.execute("delete from event_players where event_id = ?", [event_id])
        db.execute("delete from event_log where event_id = ?", [event_id])
        db.execute("delete from event_fee_paid where event_id = ?", [event_id])
        db.execute("delete from events where id = ?", [event_id])


def event_of_sheet(db: Database, sheet_id: int) -> dict[str, Any] | None:
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
    out = dict(rows[0])
    out["deals"] = {**json.loads(out["deals"]), **json.loads(out.pop("series_deals") or "{}")}
    return out


# --- Players ----------------------------------------------------------------------------------


def registrations(db: Database, event_id: int) -> list[dict[str, Any]]:
    return [
        dict(r)
        for r in db.query(
            "select id, name, key, player_id, from_series, away, registered, category, start_no "
            "from event_players "
            "where event_id = ? order by id",
            [event_id],
        )
    ]


def known_names(db: Database) -> list[str]:
    """Names to suggest at registration: the known players."""
    return [p["name"] for p in people.list_players(db)]


def check_names(raw: object, e: Errors, field: str = "names") -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        e.add(field, "Erwartet: eine Liste von Namen.")
        return []
    bad = any(bad_name_char(x) for x in raw)  # as typed: refused, not made a space
    names = [clean_name(x) for x in raw]
    names = [n for n in names if n]
    if not names:
        e.add(field, "Bitte mindestens einen Namen.")
    elif len(names) > MAX_EVENT_PLAYERS:
        e.add(field, "Höchstens %(max)s Namen.", max=MAX_EVENT_PLAYERS)
    if bad:
        e.add(field, BAD_NAME_MSG)
    too_long = [n for n in names if len(n) > MAX_NAME]
    if too_long:
        e.add(field, "Höchstens %(max)s Zeichen je Name: „%(v)s…“.", max=MAX_NAME, v=too_long[0][:50])  # fmt: skip
    return names


def register(
    db: Database, event_id: int, names: list[str], categories: dict[str, str] | None = None
) -> tuple[list[str], list[str]]:
    """Register walk-ins: (names added, names already registered). A known player's name is
    taken as the player list spells it; late arrivals join at the next series."""
    added: list[str] = []
    already: list[str] = []
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        _refuse_if_closed(event)
        have = {r["key"] for r in registrations(db, event_id)}
        (series,) = next(iter(db.execute(
            "select count(*) from event_series where event_id = ?", [event_id])))  # fmt: skip
        if len(have) + len(names) > MAX_EVENT_PLAYERS:
            e = Errors()
            e.add("names", "Höchstens %(max)s Spieler je Veranstaltung.", max=MAX_EVENT_PLAYERS)  # fmt: skip
            e.raise_if_any()
        for name in names:
            key = people.name_key(name)
            if key in have:
                already.append(name)
                continue
            # A known player keeps the player list's spelling; a new name becomes a player
            # when it first sits at a table (a typo taken back leaves no trace there).
            player_id = people.find_player(db, name)
            shown = people.get_player(db, player_id)["name"] if player_id else name
            category = (categories or {}).get(name)
            if category is not None and category not in plan_of(event).categories:
                e = Errors()
                e.add("names", "Kategorien dieser Veranstaltung: %(cats)s.",
                      cats=", ".join(plan_of(event).categories) or "–")  # fmt: skip
                e.raise_if_any()
            db.execute(
                "insert into event_players (event_id, name, key, player_id, from_series, "
                "registered, category, start_no) values (?, ?, ?, ?, ?, ?, ?, (select "
                "coalesce(max(start_no), 0) + 1 from event_players where event_id = ?))",
                [event_id, shown, key, player_id, int(series) + 1, store.now(), category, event_id],
            )
            have.add(key)
            added.append(shown)
    return added, already


def set_away(db: Database, event_id: int, name: str, away: bool) -> None:
    """A player who left (or is back): not seated in the next series; scores stay."""
    with db.atomic():
        _bump(db, event_id)
        cur = db.execute(
            "update event_players set away = ? where event_id = ? and key = ?",
            [int(away), event_id, people.name_key(name)],
        )
        if cur.rowcount == 0:
            raise NotFound(name)


def unregister(db: Database, event_id: int, name: str) -> None:
    """Take back a registration (a typo, a no-show) while the player has sat at no table."""
    with db.atomic():
        _bump(db, event_id)
        key = people.name_key(name)
        rows = [r for r in registrations(db, event_id) if r["key"] == key]
        if not rows:
            raise NotFound(name)
        if any(rows[0]["name"] in t.players for t in _seated_tables(db, event_id)):
            e = Errors()
            e.add("_", "%(name)s hat schon an einem Tisch gespielt.", name=rows[0]['name'])  # fmt: skip
            e.raise_if_any()
        db.execute("delete from event_players where id = ?", [rows[0]["id"]])
        db.execute(
            "delete from event_fee_paid where event_id = ? and key = ?", [event_id, key]
        )  # a tick for the entry fee goes with the registration


def _seated_tables(db: Database, event_id: int) -> list[Table]:
    out = []
    for r in db.query(
        "select t.n, s.players, s.first_dealer from event_tables t join sheets s "
        "on s.id = t.sheet_id where t.event_id = ?",
        [event_id],
    ):
        out.append(Table(int(r["n"]), tuple(json.loads(r["players"])), r["first_dealer"]))
    return out


# --- Series -----------------------------------------------------------------------------------


def start_series(
    db: Database, event_id: int, seating: Seating, seed: int | None = None,
    expected: int | None = None, force: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """Seat everybody present at the tables of the next series, each table with its sheet.

    ``expected`` is the number of the series the caller means: seated already → SeriesTaken,
    beyond the next → InvalidDeal("n"). It is checked under the write lock, so two taps on the
    same button seat one series. While the series before still has deals to play,
    :class:`Unfinished` unless ``force`` (the organiser confirmed)."""
    if seed is None:
        seed = secrets.randbelow(MAX_SEED) + 1
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        _refuse_if_closed(event)
        (count,) = next(iter(db.execute(
            "select count(*) from event_series where event_id = ?", [event_id])))  # fmt: skip
        n = int(count) + 1
        if expected is not None and expected < n:
            raise SeriesTaken(expected)
        if expected is not None and expected > n:
            e = Errors()
            e.add("n", "Die nächste Serie ist Nummer %(n)s.", n=n)
            e.raise_if_any()
        if n > 1 and not force:
            open_tables = [(t["table"], t["played"], t["planned"]) for t in tables_of(db, event)
                           if t["series"] == n - 1 and t["left"] > 0]  # fmt: skip
            if open_tables:
                raise Unfinished(n - 1, open_tables)
        regs = registrations(db, event_id)
        present = [r["name"] for r in regs if r["from_series"] <= n and not r["away"]]
        if seating is Seating.RANKING and n > 1:
            rows = ranking_rows(db, event)
            order = [p for p in ranking_order(rows) if p in set(present)]
            tables = by_ranking(event["game"], order)
        else:
            tables = draw(event["game"], present, seed)
            seating = Seating.DRAW
        db.execute(
            "insert into event_series (event_id, n, seating, seed, created) values (?, ?, ?, ?, ?)",
            # kept for a seating by the ranking too (it draws nothing): the answer always
            # names a seed, and the list shows how each series was seated
            [event_id, n, seating.value, seed, store.now()],
        )
        short = event["name"][:50]
        for t in tables:
            name = f"{short} · Serie {n} · Tisch {t.number}"
            # the table's sheet belongs to the event's date, not the day it was seated
            sheet = service.create_sheet(db, name, event["game"], list(t.players),
                                         t.first_dealer, event["rules"], event["group_id"],
                                         day=event["day"])  # fmt: skip
            db.execute(
                "insert into event_tables (event_id, series, n, sheet_id) values (?, ?, ?, ?)",
                [event_id, n, t.number, sheet["id"]],
            )
            if event.get("double_entry"):
                add_list_b(db, event, n, t.number, sheet)
        for reg in regs:  # the sheets have linked (or created) every seated player
            if reg["player_id"] is None and reg["name"] in present:
                db.execute(
                    "update event_players set player_id = ? where id = ?",
                    [people.find_player(db, reg["name"]), reg["id"]],
                )
    return series_json(db, event_id, n)


def series_json(db: Database, event_id: int, n: int) -> dict[str, Any]:
    rows = list(db.query("select * from event_series where event_id = ? and n = ?", [event_id, n]))
    if not rows:
        raise NotFound(n)
    tables = [
        {"table": t["table"], "players": t["players"], "sheet": t["sheet"],
         "first_dealer": t["first_dealer"],
         **({"sheet_b": t["double_entry"]["sheet_b"]["id"]} if t["double_entry"] else {})}
        for t in tables_of(db, get_event(db, event_id)) if t["series"] == n
    ]  # fmt: skip
    return {"n": n, "seating": rows[0]["seating"],
            "seed": rows[0]["seed"], "tables": tables}  # fmt: skip


# --- Derived views ----------------------------------------------------------------------------


def _table_sheets(db: Database, event_id: int) -> list[dict[str, Any]]:
    out = []
    for r in db.query(
        "select t.series, t.n as table_n, es.deals as series_deals, t.sheet_b, t.signed, "
        "t.confirmed, s.* from event_tables t "
        "join sheets s on s.id = t.sheet_id left join event_series es on "
        "es.event_id = t.event_id and es.n = t.series where t.event_id = ? "
        "order by t.series, t.n",
        [event_id],
    ):
        sheet = dict(r)
        sheet["players"] = json.loads(r["players"])
        sheet["rules"] = json.loads(r["rules"])
        out.append(sheet)
    return out


def tables_of(db: Database, event: dict[str, Any]) -> list[dict[str, Any]]:
    """Every table of every series with its sheet's totals and how far it has got."""
    out = []
    for sheet in _table_sheets(db, event["id"]):
        computed = service.computed_sheet(db, sheet, "de")
        totals = computed["totals"]
        played = sum(1 for d in computed["deals"] if not d["struck"])
        planned = deals_for(len(sheet["players"]), series_deals(event, sheet["series_deals"]))
        score_key = rank_figure(event["game"])
        entry = double_entry_of(db, event, sheet, computed) if sheet["sheet_b"] else None
        out.append(
            {
                "series": sheet["series"],
                "table": sheet["table_n"],
                "players": sheet["players"],
                "first_dealer": sheet["first_dealer"],
                "sheet": sheet["id"],
                "sheet_row": sheet,
                "planned": planned,
                "played": played,
                "left": max(0, planned - played),
                "next_dealer": computed["next_dealer"],
                "score": entry["counted"].score if entry else totals[score_key],
                "won": entry["counted"].won if entry else totals["won"],
                "lost": entry["counted"].lost if entry else totals["lost"],
                "double_entry": entry,
                "signed": json.loads(sheet["signed"] or "[]"),
                "confirmed": sheet["confirmed"],
            }
        )
    return out


def series_count(db: Database, event_id: int) -> int:
    (count,) = next(iter(db.execute(
        "select count(*) from event_series where event_id = ?", [event_id])))  # fmt: skip
    return int(count)


def ranking_rows(db: Database, event: dict[str, Any]) -> tuple[RankRow, ...]:
    return snapshot(db, event)["rows"]  # type: ignore[no-any-return]


_SNAPSHOTS: Recent[tuple[str, str], dict[str, Any]] = Recent(32)


def snapshot(db: Database, event: dict[str, Any]) -> dict[str, Any]:
    """The event's tables, registrations and ranking as of its live token, computed once per
    token: the big screen, the organiser's phone and the API read between two deals share it.
    Derived data only (the sheets' deals stay the source); the key holds the event's random
    token, so a deleted event's id reused by a new one never finds the old figures."""
    token = live_token(db, event["id"])  # read first: a change after this shows next time
    key = (event["edit_token"], token)
    held = _SNAPSHOTS.get(key)
    if held is not None:
        return held
    tables = tables_of(db, event)
    regs = registrations(db, event["id"])
    n_series = series_count(db, event["id"])
    results = [
        TableResult(t["series"], tuple(t["players"]), t["score"], t["won"], t["lost"])
        for t in tables
    ]
    rows = rank_event([r["name"] for r in regs], results, n_series, fees_of(event))
    snap = {"token": token, "tables": tables, "regs": regs, "n_series": n_series, "rows": rows}
    _SNAPSHOTS.put(key, snap)
    return snap


def pot_of(event: dict[str, Any], rows: tuple[RankRow, ...]) -> int:
    """The organiser's pot if set, else every fee due: entry, table and lost-game money and
    the team fees."""
    if event["pot_cents"] is not None:
        return int(event["pot_cents"])
    return fees_total(rows) + sum(team_fee_payers(fees_of(event), plan_of(event).teams).values())


def ranking_json(rows: tuple[RankRow, ...]) -> dict[str, Any]:
    return {
        "rows": [
            {"rank": r.rank, "player": r.player, "score": r.score, "won": r.won, "lost": r.lost,
             "fees_cents": r.fees_cents, "series": list(r.series)}
            for r in rows
        ],
        "fees_total_cents": fees_total(rows),
    }  # fmt: skip


def live_token(db: Database, event_id: int) -> str:
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
    if not rows:
        raise NotFound(event_id)
    return f"{rows[0]['rev']}.{rows[0]['sheets']}"


def fees_json(event: dict[str, Any]) -> dict[str, Any]:
    """The fees as the event was made: flat (``lost_game_cents``) or by tiers; the table and
    team fees when there are any."""
    plan = event["fee_plan"]
    out: dict[str, Any] = {"entry_cents": event["entry_cents"]}
    if plan.get("lost_game_tiers"):
        out["lost_game_tiers"] = plan["lost_game_tiers"]
    else:
        out["lost_game_cents"] = event["lost_game_cents"]
    return {**out, **{k: v for k, v in plan.items() if k != "lost_game_tiers"}}


def event_json(db: Database, event_id: int) -> dict[str, Any]:
    event = get_event(db, event_id)
    tables = tables_of(db, event)
    regs = registrations(db, event_id)
    series = []
    for s in db.query("select * from event_series where event_id = ? order by n", [event_id]):
        series.append(
            {
                "n": s["n"],
                "seating": s["seating"],
                "seed": s["seed"],
                "deals": {str(k): v for k, v in series_deals(event, s["deals"]).items()},
                "tables": [
                    {"table": t["table"], "players": t["players"], "sheet": t["sheet"],
                     "first_dealer": t["first_dealer"], "deals": t["planned"],
                     "played": t["played"], "left": t["left"], **sign_off_json(t)}
                    for t in tables if t["series"] == s["n"]
                ],
            }
        )  # fmt: skip
    return {
        "id": event["id"],
        "name": event["name"],
        "date": event["day"],
        "game": event["game"],
        "group": event["group_id"],
        "deals": {str(k): v for k, v in event["deals"].items()},
        "fees": fees_json(event),
        "rules": event["rules"],
        "payout": event["payout"],
        **event["prize_plan"],
        "pot_cents": event["pot_cents"],
        "double_entry": bool(event.get("double_entry")),
        "created": event["created"],
        "closed": event["closed"],
        "history": event_history(db, event_id),
        "players": [r["name"] for r in regs],
        "registrations": [
            {
                "name": r["name"],
                "player": r["player_id"],
                "from_series": r["from_series"],
                "away": bool(r["away"]),
                "start_no": r["start_no"],
                **({"category": r["category"]} if r["category"] else {}),
            }
            for r in regs
        ],  # fmt: skip
        "series": series,
    }


def categories_of(regs: list[dict[str, Any]]) -> dict[str, str]:
    return {r["name"]: r["category"] for r in regs if r.get("category")}


def prizes_of(db: Database, event: dict[str, Any], rows: tuple[RankRow, ...]) -> Prizes:
    regs = registrations(db, event["id"])
    return award(rows, plan_of(event), pot_of(event, rows), categories_of(regs))


def prizes_json(db: Database, event: dict[str, Any], rows: tuple[RankRow, ...]) -> dict[str, Any]:
    """The prize list: ``rows`` the ranking with each player's own prize, ``prizes`` every
    prize with its kind (overall, series, category, team), ``teams`` the team ranking, and
    the cash check."""
    won = prizes_of(db, event, rows)
    plan = plan_of(event)
    cash = cash_of(db, event, rows)
    return {
        "closed": event["closed"],
        "pot_cents": won.pot_cents,
        "fees_total_cents": fees_total(rows),
        "paid_cents": won.paid_cents,
        "rest_cents": won.rest_cents,
        "payout": event["payout"],
        "rows": [
            {"rank": r.rank, "player": r.player, "score": r.score, "cents": won.cents_of(r.player)}
            for r in rows
        ],
        "prizes": [
            {"kind": p.kind.value, "place": p.place,
             **({"team": p.winner, "members": list(p.members)} if p.members
                else {"player": p.winner}),
             "score": p.score, "cents": p.cents,
             **({"series": p.series} if p.series is not None else {}),
             **({"category": p.category} if p.category is not None else {})}
            for p in won.prizes
        ],
        "teams": [
            {"team": t.name, "members": list(t.members), "score": score}
            for t, score in team_scores(rows, plan.teams)
        ],
        "cash": cash_json(cash),
    }  # fmt: skip


# --- Fees: what is due, the paid ticks, the cash check ----------------------------------------


def paid_ticks(db: Database, event_id: int) -> dict[tuple[str, int], int]:
    names = {r["key"]: r["name"] for r in registrations(db, event_id)}
    return {
        (names[r["key"]], int(r["series"])): int(r["cents"])
        for r in db.query(
            "select key, series, cents from event_fee_paid where event_id = ?", [event_id]
        )
        if r["key"] in names
    }


def cash_of(db: Database, event: dict[str, Any], rows: tuple[RankRow, ...]) -> CashCheck:
    return cash_check(rows, fees_of(event), plan_of(event).teams, paid_ticks(db, event["id"]))


def cash_json(cash: CashCheck) -> dict[str, Any]:
    return {
        "due_cents": cash.due_cents,
        "collected_cents": cash.paid_cents,
        "open_cents": cash.open_cents,
        "players": [
            {"player": c.player, "due_cents": c.due_cents, "collected_cents": c.paid_cents,
             "open_cents": c.open_cents,
             "items": [{"series": i.series, "due_cents": i.due_cents, "paid": i.paid_cents
                        is not None, "collected_cents": i.paid_cents or 0} for i in c.items]}
            for c in cash.rows
        ],
    }  # fmt: skip


def set_paid(db: Database, event_id: int, name: str, series: int, paid: bool) -> None:
    """The organiser ticks (or unticks) that a player paid for a series (0: the entry fee):
    the tick keeps what was due at that moment; in the event's history."""
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        key = people.name_key(name)
        reg = next((r for r in registrations(db, event_id) if r["key"] == key), None)
        if reg is None:
            raise NotFound(name)
        rows = ranking_rows(db, event)
        cash = cash_of(db, event, rows)
        row = next(c for c in cash.rows if c.player == reg["name"])
        item = next((i for i in row.items if i.series == series), None)
        if item is None:
            e = Errors()
            e.add("series", "%(name)s hat Serie %(n)s nicht gespielt.", name=reg["name"], n=series)
            e.raise_if_any()
        assert item is not None
        at = store.now()
        if paid:
            db.execute(
                "insert into event_fee_paid (event_id, key, series, cents, at) values (?, ?, ?, ?, ?) "
                "on conflict (event_id, key, series) do update set cents = excluded.cents, "
                "at = excluded.at",
                [event_id, key, series, item.due_cents, at],
            )
        else:
            db.execute(
                "delete from event_fee_paid where event_id = ? and key = ? and series = ?",
                [event_id, key, series],
            )
        log_event(db, event_id, "paid" if paid else "unpaid", at,
                  {"player": reg["name"], "series": series,
                   "cents": item.due_cents if paid else item.paid_cents or 0})  # fmt: skip


def set_category(db: Database, event_id: int, name: str, category: str | None) -> None:
    """A registration's category (one of the event's categories, or none)."""
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        _refuse_if_closed(event)  # the categories decide prizes: settled stays settled
        if category is not None and category not in plan_of(event).categories:
            e = Errors()
            e.add("category", "Kategorien dieser Veranstaltung: %(cats)s.",
                  cats=", ".join(plan_of(event).categories) or "–")  # fmt: skip
            e.raise_if_any()
        cur = db.execute(
            "update event_players set category = ? where event_id = ? and key = ?",
            [category, event_id, people.name_key(name)],
        )
        if cur.rowcount == 0:
            raise NotFound(name)


def set_teams(db: Database, event_id: int, teams: tuple[Team, ...]) -> None:
    """The event's teams (replacing those before); every member must be registered, and
    takes the registration's spelling."""
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        _refuse_if_closed(event)
        names = {r["key"]: r["name"] for r in registrations(db, event_id)}
        e = Errors()
        fixed: list[Team] = []
        for i, t in enumerate(teams):
            missing = [m for m in t.members if people.name_key(m) not in names]
            if missing:
                e.add(f"teams.{i}.members", "%(name)s ist nicht angemeldet.", name=missing[0])
            fixed.append(Team(t.name, tuple(names.get(people.name_key(m), m) for m in t.members)))
        e.raise_if_any()
        plan = event["prize_plan"]
        plan["teams"] = [{"name": t.name, "members": list(t.members)} for t in fixed]
        if not fixed:
            del plan["teams"]
        db.execute(
            "update events set prize_plan = ? where id = ?",
            [json.dumps(plan, ensure_ascii=False) if plan else None, event_id],
        )


def player_events(db: Database, player_id: int) -> list[dict[str, Any]]:
    """The club nights a player sat at (also under a name merged into his), newest first:
    place, score, the field, his prize, his score per series (None: not played)."""
    out = []
    for r in db.query(
        "select p.event_id, p.name from event_players p join events e on e.id = p.event_id "
        "where p.player_id = ? or p.player_id in (select id from players where merged_into = ?) "
        "order by e.day desc, e.id desc",
        [player_id, player_id],
    ):
        event = get_event(db, int(r["event_id"]))
        rows = ranking_rows(db, event)
        row = next((x for x in rows if x.player == r["name"]), None)
        if row is None or not any(row.played):
            continue
        won = prizes_of(db, event, rows)
        out.append({
            "event": event["id"], "name": event["name"], "date": event["day"],
            "game": event["game"], "closed": event["closed"], "place": row.rank,
            "players": sum(1 for x in rows if any(x.played)), "score": row.score,
            "series": [s if played else None for s, played in zip(row.series, row.played,
                                                                  strict=True)],
            "prize_cents": won.cents_of(row.player),
            "prizes": [{"kind": p.kind.value, "place": p.place, "cents": p.cents,
                        **({"team": p.winner} if p.members else {})}
                       for p in won.prizes if p.winner == row.player or row.player in p.members],
        })  # fmt: skip
    return out


# --- Double entry and sign-off -----------------------------------------------------------------


class SignOffRefused(Exception):
    """A confirmation (or unlock) that cannot be taken now; answered 409 with ``msg``."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.de)
        self.msg = msg


def table_sheet_ids(db: Database, event_id: int) -> list[int]:
    """Every sheet of the event's tables: list A and, with double entry, list B."""
    out: list[int] = []
    for r in db.query("select sheet_id, sheet_b from event_tables where event_id = ?", [event_id]):
        out.append(int(r["sheet_id"]))
        if r["sheet_b"] is not None:
            out.append(int(r["sheet_b"]))
    return out


def add_list_b(db: Database, event: dict[str, Any], n: int, table: int,
               sheet_a: dict[str, Any]) -> None:  # fmt: skip
    """List B of a table: a sheet of its own (own edit link) with the same seats and rules.
    Its seats are not linked to players: the deals are the same as list A's, and a
    player's pages and standings count each deal once (from list A)."""
    sheet_b = service.create_sheet(db, f"{sheet_a['name']} · Liste B", event["game"],
                                   list(sheet_a["players"]), sheet_a["first_dealer"],
                                   event["rules"], None, day=event["day"])  # fmt: skip
    db.execute("delete from sheet_players where sheet_id = ?", [sheet_b["id"]])
    db.execute(
        "update event_tables set sheet_b = ? where event_id = ? and series = ? and n = ?",
        [sheet_b["id"], event["id"], n, table],
    )


def double_entry_of(db: Database, event: dict[str, Any], sheet_a: dict[str, Any],
                    computed_a: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """Both lists of a table compared (rules/double_entry.py) and the figures that count."""
    sheet_b = service.load_sheet(db, int(sheet_a["sheet_b"]))
    rows_a = service.computed(db, sheet_a).rows
    rows_b = service.computed(db, sheet_b).rows
    players = list(sheet_a["players"])
    cmp = compare(players, rows_a, rows_b, sheet_b["players"])
    return {
        "sheet_b": sheet_b,
        "comparison": cmp,
        "counted": counted(event["game"], players, rows_a, cmp.agreed),
    }


def pending_deals(db: Database, event: dict[str, Any]) -> int:
    """Deals the ranking does not count yet: on one list only, or differing."""
    return sum(t["double_entry"]["comparison"].pending for t in snapshot(db, event)["tables"]
               if t["double_entry"] is not None)  # fmt: skip


def find_table(db: Database, event: dict[str, Any], n: int, table: int,
               shared: bool = False) -> dict[str, Any]:  # fmt: skip
    """Table ``table`` of series ``n`` with its sign-off; ``shared``: from the event's
    snapshot (pages read between two writes share it), else computed now (inside a write)."""
    for t in snapshot(db, event)["tables"] if shared else tables_of(db, event):
        if t["series"] == n and t["table"] == table:
            return t
    raise NotFound(table)


def table_complete(t: dict[str, Any]) -> bool:
    """The table has played its series on every list it keeps, and the lists agree."""
    entry = t["double_entry"]
    if t["left"] > 0 or t["planned"] == 0:
        return False
    if entry is None:
        return True
    cmp = entry["comparison"]
    return cmp.clean and cmp.played_b >= t["planned"]


def sign_off_json(t: dict[str, Any]) -> dict[str, Any]:
    """A table's double entry and sign-off, as the API and the pages read them."""
    entry = t["double_entry"]
    out: dict[str, Any] = {
        "signed": t["signed"],
        "confirmed": t["confirmed"],
        "complete": table_complete(t),
    }
    if entry is not None:
        cmp = entry["comparison"]
        out["list_b"] = {
            "sheet": entry["sheet_b"]["id"],
            "played": cmp.played_b,
            "agreed": len(cmp.agreed),
            "pending": cmp.pending,
            "differences": [{"deal": d.n, "a": dict(d.a), "b": dict(d.b)} for d in cmp.differences],
        }
    return out


def _lock_table(db: Database, event_id: int, n: int, table: int) -> dict[str, Any]:
    _bump(db, event_id)  # the write lock first: two taps at once queue up
    event = get_event(db, event_id)
    rows = list(db.query(
        "select sheet_id, sheet_b from event_tables where event_id = ? and series = ? and n = ?",
        [event_id, n, table]))  # fmt: skip
    if not rows:
        raise NotFound(table)
    return event


def _touch_lists(db: Database, t: dict[str, Any]) -> None:
    """Both lists' pages show the sign-off: new revisions."""
    sheet_store.bump_sheet(db, int(t["sheet"]))
    if t["double_entry"] is not None:
        sheet_store.bump_sheet(db, int(t["double_entry"]["sheet_b"]["id"]))


def confirm_table(db: Database, event_id: int, n: int, table: int, player: str | None,
                  captain: bool) -> dict[str, Any]:  # fmt: skip
    """A player of the table confirms its list of series ``n`` (or the table captain for all
    of them). Once every player has (or the captain did), the table is confirmed: its lists
    take no writes (service.sheet_write) until the organiser unlocks it. Refused
    (:class:`SignOffRefused`) while the event is closed, the series is not complete on every
    list, or the lists differ. A second tap by the same player changes nothing."""
    with db.atomic():
        event = _lock_table(db, event_id, n, table)
        if event["closed"]:
            raise SignOffRefused(Msg("Die Veranstaltung ist abgeschlossen. Nichts bestätigt."))
        t = find_table(db, event, n, table)
        if t["confirmed"]:
            return t
        who = None
        if not captain:
            who = next((p for p in t["players"]
                        if people.name_key(p) == people.name_key(player or "")), None)  # fmt: skip
            if who is None:
                e = Errors()
                e.add("player", "%(name)s sitzt nicht an diesem Tisch.", name=(player or "")[:50])
                e.raise_if_any()
        if not table_complete(t):
            if t["double_entry"] is not None and t["double_entry"]["comparison"].differences:
                raise SignOffRefused(
                    Msg("Die Listen A und B weichen noch ab. Erst prüfen, dann bestätigen.")
                )
            raise SignOffRefused(Msg("Die Serie ist an diesem Tisch noch nicht fertig."))
        signed = list(t["signed"])
        if who is not None and who not in signed:
            signed.append(who)
        at = store.now()
        done = captain or all(p in signed for p in t["players"])
        db.execute(
            "update event_tables set signed = ?, confirmed = ? where event_id = ? and "
            "series = ? and n = ?",
            [json.dumps(signed, ensure_ascii=False), at if done else None, event_id, n, table],
        )
        log_event(db, event_id, "confirm" if done else "sign",
                  at, {"series": n, "table": table,
                       **({"captain": True} if captain else {"player": who})})  # fmt: skip
        _touch_lists(db, t)
        return find_table(db, event, n, table)


def unlock_table(db: Database, event_id: int, n: int, table: int) -> dict[str, Any]:
    """The organiser takes a table's confirmation back: its lists take writes again and the
    players confirm anew. Refused while the event is closed."""
    with db.atomic():
        event = _lock_table(db, event_id, n, table)
        if event["closed"]:
            raise SignOffRefused(Msg("Die Veranstaltung ist abgeschlossen. Nichts geändert."))
        t = find_table(db, event, n, table)
        db.execute(
            "update event_tables set signed = null, confirmed = null where event_id = ? and "
            "series = ? and n = ?",
            [event_id, n, table],
        )
        if t["confirmed"] or t["signed"]:
            log_event(db, event_id, "unlock", store.now(), {"series": n, "table": table})
        _touch_lists(db, t)
        return find_table(db, event, n, table)


def today() -> str:
    return date.today().isoformat()
