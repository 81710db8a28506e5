"""Club nights and Preisskat: the service and the event's derived views (no Flask, no SQL:
its rows live in ``store.events``, typed records in and out).

An event is a name, a day, a game, its money and its tables' sheet rules; players register
by name; each series seats them at tables, and each table keeps an ordinary sheet. The
ranking, the tables' progress, the fees and the prize list are derived from those sheets'
deals on every read (the sheets' computed totals are cached per revision in ``service``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, cast

from sqlite_utils import Database

from skatcalc import store
from skatcalc.jsontypes import JSONObject
from skatcalc.rules.common import Errors, InvalidDeal, Msg, clean_name, money
from skatcalc.rules.double_entry import Comparison, Counted, compare, counted
from skatcalc.rules.events import (
    MAX_EVENT_PLAYERS,
    MAX_PENALTY,
    MAX_SERIES_DEALS,
    CashCheck,
    EventSpec,
    Fees,
    FeeTier,
    Foot,
    Payout,
    Penalty,
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
    check_series_deals,
    deals_for,
    draw,
    fees_total,
    final_table,
    foot_games,
    foot_scores,
    keeps_foot,
    pairs_of,
    rank_event,
    ranking_order,
    read_foot,
    repeated_pairs,
    team_fee_payers,
    team_scores,
)
from skatcalc.rules.inputs import Reader
from skatcalc.rules.ranking import rank_figure
from skatcalc.rules.sheet import BAD_NAME_MSG, MAX_NAME, bad_name_char
from skatcalc.rules.sheet import game as game_kind
from skatcalc.rules.sheet.base import TournamentListView
from skatcalc.rules.standings import RankBy
from skatcalc.services import cache
from skatcalc.services import event_history as history_log
from skatcalc.services import players as people
from skatcalc.services import sheets as service
from skatcalc.store import events as rows_of
from skatcalc.store import players as player_rows
from skatcalc.store import sheets as sheet_store
from skatcalc.store.club_records import Event as Event  # the pages take the records from here
from skatcalc.store.club_records import EventLogEntry, PrizePlanJSON, Registration, SeriesRow
from skatcalc.store.club_records import PenaltyRow as PenaltyRow
from skatcalc.store.club_records import TableOfSheet as TableOfSheet
from skatcalc.store.records import Sheet
from skatcalc.text import translate

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


def payout_of(event: Event) -> Payout:
    return Payout.from_json(event.payout)


def fees_of(event: Event) -> Fees:
    f = event.fee_plan
    tiers = tuple(FeeTier(int(t["from"]), int(t["cents"])) for t in f.get("lost_game_tiers", ()))
    return Fees(event.entry_cents, event.lost_game_cents, tiers,
                int(f.get("table_cents", 0)), int(f.get("team_cents", 0)))  # fmt: skip


def fees_line(event: Event, lang: str) -> str:
    """ "Startgeld 5,00 € · je verlorenes Spiel 0,50 €", or with tiers "… · verlorene Spiele
    je Serie: ab dem 1. 0,50 €, ab dem 3. 1,00 €", and the table and team fees if any."""
    fees = fees_of(event)
    out = translate("Startgeld %(entry)s", lang, entry=money(fees.entry_cents, lang))
    if fees.tiers:
        steps = ", ".join(translate("ab dem %(n)s. %(cents)s", lang, n=t.start,
                                    cents=money(t.cents, lang)) for t in fees.tiers)  # fmt: skip
        out += " · " + translate("verlorene Spiele je Serie: %(steps)s", lang, steps=steps)
    else:
        out += " · " + translate("je verlorenes Spiel %(per_lost)s", lang,
                                 per_lost=money(fees.lost_game_cents, lang))  # fmt: skip
    if fees.table_cents:
        out += " · " + translate("Tischgeld %(cents)s je Serie", lang,
                                 cents=money(fees.table_cents, lang))  # fmt: skip
    if fees.team_cents:
        out += " · " + translate("Mannschaftsgeld %(cents)s", lang,
                                 cents=money(fees.team_cents, lang))  # fmt: skip
    return out


def _payout_or_none(data: Mapping[str, object] | None) -> Payout | None:
    return Payout.from_json(data) if data else None


def plan_of(event: Event) -> PrizePlan:
    p = event.prize_plan
    return PrizePlan(
        payout_of(event),
        _payout_or_none(p.get("series_prizes")),
        tuple(p.get("categories", ())),
        _payout_or_none(p.get("category_prizes")),
        tuple(Team(t["name"], tuple(t["members"])) for t in p.get("teams", ())),
        _payout_or_none(p.get("team_payout")),
    )


def _fee_plan_json(fees: Fees) -> str | None:
    out: dict[str, object] = {}
    if fees.tiers:
        out["lost_game_tiers"] = [{"from": t.start, "cents": t.cents} for t in fees.tiers]
    if fees.table_cents:
        out["table_cents"] = fees.table_cents
    if fees.team_cents:
        out["team_cents"] = fees.team_cents
    return json.dumps(out) if out else None


def _prize_plan_json(plan: PrizePlan) -> PrizePlanJSON:
    out = PrizePlanJSON()
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


def create_event(db: Database, spec: EventSpec) -> Event:
    group = None
    if spec.group is not None:
        group = people.check_group(db, spec.group, spec.game)
    with db.atomic():
        event_id = rows_of.insert_event(
            db,
            {
                "name": spec.name,
                "day": spec.day,
                "game": spec.game,
                "group_id": group,
                "deals": json.dumps({str(k): v for k, v in spec.deals.items()}),
                "rules": json.dumps(spec.rules.to_json(), ensure_ascii=False, sort_keys=True),
                "entry_cents": spec.fees.entry_cents,
                "lost_game_cents": spec.fees.lost_game_cents,
                "payout": json.dumps(spec.payout.to_json()),
                "pot_cents": spec.pot_cents,
                "edit_token": secrets.token_urlsafe(18),
                "created": store.now(),
                "fee_plan": _fee_plan_json(spec.fees),
                "prize_plan": json.dumps(_prize_plan_json(spec.plan()), ensure_ascii=False)
                if _prize_plan_json(spec.plan())
                else None,
            },
        )
        if spec.double_entry:
            rows_of.set_double_entry(db, event_id)
    return get_event(db, event_id)


def get_event(db: Database, event_id: int) -> Event:
    event = rows_of.get_event(db, event_id)
    if event is None:
        raise NotFound(event_id)
    return event


def list_events(db: Database) -> list[Event]:
    return rows_of.list_events(db)


def _bump(db: Database, event_id: int) -> None:
    # Writing first takes SQLite's write lock at the start of the transaction, so two
    # devices registering or seating at once queue up instead of reading stale counts.
    if not rows_of.bump(db, event_id):
        raise NotFound(event_id)


def _refuse_if_closed(event: Event) -> None:
    if event.closed:
        e = Errors()
        e.add("_", "Die Veranstaltung ist abgeschlossen.")
        e.raise_if_any()


def set_money(db: Database, event_id: int, payout: Payout, pot_cents: int | None) -> None:
    with db.atomic():
        _bump(db, event_id)
        rows_of.set_money(db, event_id, payout.to_json(), pot_cents)


def set_closed(db: Database, event_id: int, closed: bool) -> bool:
    """Close the event (its tables' sheets become read-only, service.sheet_write) or reopen
    it, in the event's history and each table's; False when it already was so (a second
    close keeps the first one's time)."""
    at = store.now()
    with db.atomic():
        _bump(db, event_id)
        if not rows_of.set_closed(db, event_id, at if closed else None):
            return False
        log_event(db, event_id, "close" if closed else "reopen", at)
        for sid in table_sheet_ids(db, event_id):
            sheet_store.set_sheet_closed(db, sid, closed, at)
    return True


def log_event(
    db: Database, event_id: int, action: str, at: str, detail: Mapping[str, object] | None = None
) -> None:
    """A line of the event's history, with who made it (event_history.record)."""
    history_log.record(db, event_id, action, detail, at)


def event_history(db: Database, event_id: int) -> list[EventLogEntry]:
    """The event's own changes, oldest first, each with who made it (event_history)."""
    return rows_of.event_log(db, event_id)


def history_json(history: list[EventLogEntry]) -> list[dict[str, object]]:
    """The event's history as the API lists it: ``at``, ``action`` and the detail's own keys."""
    return [{"at": h.at, "action": h.action, **h.detail} for h in history]


def series_deals(event: Event, own: Mapping[int, int] | None) -> dict[int, int]:
    """Deals per table size in one series: the event's, or the series' own if lengthened."""
    return {**event.deals, **(own or {})}


def lengthen_series(db: Database, event_id: int, n: int, deals: dict[int, int]) -> None:
    """Set the deals per table size of series ``n`` (the organiser lengthens a series whose
    tables want to play on); never below what a table of that size has played already."""
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        _refuse_if_closed(event)
        row = rows_of.get_series(db, event_id, n)
        if row is None:
            raise NotFound(n)
        tables = [t for t in tables_of(db, event) if t.series == n]
        e = Errors()
        sizes = game_kind(event.game).event_tables
        for size, value in deals.items():
            played = max((t.played for t in tables if len(t.players) == size), default=0)
            if size not in sizes:
                e.add(f"deals.{size}", "Tische zu %(size)s gibt es hier nicht.", size=size)
            elif not max(1, played) <= value <= MAX_SERIES_DEALS:
                e.add(f"deals.{size}", "Spiele je Serie: %(min)s bis %(max)s (so viele sind gespielt).",
                      min=max(1, played), max=MAX_SERIES_DEALS)  # fmt: skip
        if not deals:
            e.add("deals", 'Bitte die Spiele je Tischgröße angeben, z. B. {"4": 52}.')
        check_series_deals(event.game, {s: v for s, v in deals.items()
                                        if s in sizes and not e.has(f"deals.{s}")}, e)  # fmt: skip
        e.raise_if_any()
        merged = series_deals(event, row.deals)
        merged.update(deals)
        rows_of.set_series_deals(db, event_id, n, merged)
        log_event(db, event_id, "lengthen", store.now(),
                  {"series": n, "deals": {str(k): v for k, v in sorted(deals.items())}})  # fmt: skip
        # the tables' pages show how many deals are left: their cached pages go
        rows_of.bump_series_sheets(db, event_id, n)


def delete_event(db: Database, event_id: int) -> None:
    """The event and its tables' sheets with all their deals."""
    with db.atomic():
        get_event(db, event_id)
        sheet_ids = table_sheet_ids(db, event_id)
        rows_of.delete_tables(db, event_id)
        for sid in sheet_ids:
            service.delete_sheet(db, sid)
        rows_of.delete_event(db, event_id)


def event_of_sheet(db: Database, sheet_id: int) -> TableOfSheet | None:
    """The event a sheet is a table of, with its series and table number, or None."""
    return rows_of.table_of_sheet(db, sheet_id)


def ranks_by_seeger_fabian(db: Database, sheet: Sheet, at_event: bool) -> bool:
    """Whether the sheet is kept as a tournament list: a club night's table, or a sheet in a
    group whose standings rank by Seeger-Fabian (the game must have the figure, see
    :func:`tournament_of`)."""
    if at_event:
        return True
    gid = sheet.group_id
    if gid is None:
        return False
    try:
        group = people.get_group(db, gid)
    except service.NotFound:
        return False
    return bool(group.rules.get("rank_by") == RankBy.SEEGER_FABIAN.value)


def tournament_of(db: Database, sheet: Sheet, at_event: bool) -> TournamentListView | None:
    """The official tournament list of a sheet ranked by Seeger-Fabian (its game's
    ``GameKind.tournament_list``: Skat at three or four), else None; once per revision of the
    sheet."""
    kind = game_kind(sheet.game)
    if "seeger_fabian" not in kind.extra_figures:
        return None
    if not ranks_by_seeger_fabian(db, sheet, at_event):
        return None
    return service.derived(
        sheet, "tournament-list",
        lambda: kind.tournament_list(service.spec_of(sheet), service.computed(db, sheet)),
    )  # fmt: skip


def tournament_of_sheet(db: Database, sheet: Sheet) -> TournamentListView | None:
    """:func:`tournament_of` for a sheet whose event is not looked up yet (the exports)."""
    return tournament_of(db, sheet, event_of_sheet(db, sheet.id) is not None)


# --- Players ----------------------------------------------------------------------------------


def registrations(db: Database, event_id: int) -> list[Registration]:
    return rows_of.registrations(db, event_id)


def known_names(db: Database) -> list[str]:
    """Names to suggest at registration: the known players."""
    return [p.name for p in people.list_players(db)]


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
    db: Database,
    event_id: int,
    names: list[str],
    categories: dict[str, str] | None = None,
    members: Mapping[str, tuple[str | None, str | None]] | None = None,
    paid: set[str] | None = None,
) -> tuple[list[str], list[str]]:
    """Register walk-ins: (names added, names already registered). A known player's name is
    taken as the player list spells it; late arrivals join at the next series. ``members``:
    a name's member number and club, for the association's report; ``paid``: names whose
    entry fee is paid at the door (ticked with the registration, in the history)."""
    added: list[str] = []
    already: list[str] = []
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        _refuse_if_closed(event)
        have = {r.key for r in registrations(db, event_id)}
        series = rows_of.series_count(db, event_id)
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
            shown = people.get_player(db, player_id).name if player_id else name
            category = (categories or {}).get(name)
            if category is not None and category not in plan_of(event).categories:
                e = Errors()
                e.add("names", "Kategorien dieser Veranstaltung: %(cats)s.",
                      cats=", ".join(plan_of(event).categories) or "–")  # fmt: skip
                e.raise_if_any()
            member_no, club = (members or {}).get(name, (None, None))
            at = store.now()
            rows_of.insert_registration(db, event_id, shown, key, player_id, series + 1,
                                        at, category, member_no, club)  # fmt: skip
            if name in (paid or set()):
                cents = fees_of(event).entry_cents
                rows_of.set_fee_paid(db, event_id, key, 0, cents, at)
                log_event(db, event_id, "paid", at, {"player": shown, "series": 0, "cents": cents})
            have.add(key)
            added.append(shown)
        if added:  # the entry fees and the prizes per players count the registrations
            log_event(db, event_id, "register", store.now(), {"names": added})
    return added, already


MAX_MEMBER_NO = 20
MAX_CLUB = 60


def read_member(item: Mapping[str, object], e: Errors) -> tuple[str | None, str | None]:
    """A registration's optional ``member_no`` and ``club`` (text, spaces collapsed; empty is
    none), as the association's report carries them."""
    out: list[str | None] = []
    for key, most in (("member_no", MAX_MEMBER_NO), ("club", MAX_CLUB)):
        raw = item.get(key)
        if raw is None:
            out.append(None)
        elif not isinstance(raw, str) or bad_name_char(raw):
            e.add(f"names.{key}", "Erwartet: Text.")
            out.append(None)
        elif len(clean_name(raw)) > most:
            e.add(f"names.{key}", "Höchstens %(max)s Zeichen.", max=most)
            out.append(None)
        else:
            out.append(clean_name(raw) or None)
    return out[0], out[1]


def set_away(db: Database, event_id: int, name: str, away: bool) -> None:
    """A player who left (or is back): not seated in the next series; scores stay."""
    with db.atomic():
        _bump(db, event_id)
        _refuse_if_closed(get_event(db, event_id))
        if not rows_of.set_away(db, event_id, people.name_key(name), away):
            raise NotFound(name)


def unregister(db: Database, event_id: int, name: str) -> None:
    """Take back a registration (a typo, a no-show) while the player has sat at no table
    and the event is open: a registration counts in the entry fees, the pot and the prizes
    per players, so a closed event keeps it."""
    with db.atomic():
        _bump(db, event_id)
        key = people.name_key(name)
        rows = [r for r in registrations(db, event_id) if r.key == key]
        if not rows:
            raise NotFound(name)
        if get_event(db, event_id).closed:
            e = Errors()
            e.add("_", "Die Veranstaltung ist abgeschlossen: %(name)s bleibt angemeldet, "
                  "Startgelder und Preise bleiben, wie sie sind. Erst wieder öffnen.",
                  name=rows[0].name)  # fmt: skip
            e.raise_if_any()
        if any(rows[0].name in t.players for t in _seated_tables(db, event_id)):
            e = Errors()
            e.add("_", "%(name)s hat schon an einem Tisch gespielt.", name=rows[0].name)  # fmt: skip
            e.raise_if_any()
        # a tick for the entry fee goes with the registration
        rows_of.delete_registration(db, event_id, rows[0].id, key)
        log_event(db, event_id, "unregister", store.now(), {"player": rows[0].name})


def _seated_tables(db: Database, event_id: int) -> list[Table]:
    return [Table(n, tuple(players), first)
            for n, players, first in rows_of.seated_tables(db, event_id)]  # fmt: skip


# --- Series -----------------------------------------------------------------------------------


def start_series(
    db: Database, event_id: int, seating: Seating, seed: int | None = None,
    expected: int | None = None, force: bool = False,
) -> int:  # fmt: skip
    """Seat everybody present at the tables of the next series, each table with its sheet;
    the series' number.

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
        n = _next_series(db, event, expected, force)
        regs = registrations(db, event_id)
        present = [r.name for r in regs if r.from_series <= n and not r.away]
        tables, seating = _seated(db, event, n, seating, seed, present)
        # the seed is kept for a seating by the ranking too (it draws nothing): the answer
        # always names a seed, and the list shows how each series was seated
        rows_of.insert_series(db, event_id, n, seating.value, seed, store.now())
        _open_tables(db, event, n, tables)
        for reg in regs:  # the sheets have linked (or created) every seated player
            if reg.player_id is None and reg.name in present:
                rows_of.set_registration_player(db, reg.id, people.find_player(db, reg.name))
    return n


def _next_series(db: Database, event: Event, expected: int | None, force: bool) -> int:
    """The number of the series to seat now, or why none may be: the caller meant another
    (:class:`SeriesTaken`, or ``n`` beyond the next), the final was played, or the series
    before still has deals to play (:class:`Unfinished` unless ``force``)."""
    n = rows_of.series_count(db, event.id) + 1
    if expected is not None and expected < n:
        raise SeriesTaken(expected)
    if expected is not None and expected > n:
        e = Errors()
        e.add("n", "Die nächste Serie ist Nummer %(n)s.", n=n)
        e.raise_if_any()
    if final_series(db, event.id) is not None:
        e = Errors()
        e.add("seating", "Nach dem Finale gibt es keine Serie mehr.")
        e.raise_if_any()
    if n > 1 and not force:
        open_tables = [(t.table, t.played, t.planned) for t in tables_of(db, event)
                       if t.series == n - 1 and t.left > 0]  # fmt: skip
        if open_tables:
            raise Unfinished(n - 1, open_tables)
    return n


def _seated(db: Database, event: Event, n: int, seating: Seating, seed: int,
            present: list[str]) -> tuple[tuple[Table, ...], Seating]:  # fmt: skip
    """The tables of series ``n`` as ``seating`` asks, and how they were seated: the first
    series is always drawn, and so is a series seated by the ranking before there is one."""
    if seating is Seating.FINAL:
        if n == 1:
            e = Errors()
            e.add("seating", "Das Finale folgt auf mindestens eine Serie.")
            e.raise_if_any()
        rows = ranking_rows(db, event)
        # the best four who played before the final and are present
        ranked = [r.player for r in rows if any(r.played) and r.player in set(present)]
        return final_table(event.game, ranked), seating
    if seating is Seating.RANKING and n > 1:
        rows = ranking_rows(db, event)
        order = [p for p in ranking_order(rows) if p in set(present)]
        return by_ranking(event.game, order), seating
    # from the second series on: no two who shared a table share one again
    return draw(event.game, present, seed, met_before(db, event, n)), Seating.DRAW


def _open_tables(db: Database, event: Event, n: int, tables: tuple[Table, ...]) -> None:
    """Each table of series ``n`` with its sheet (and list B's under double entry)."""
    short = event.name[:50]
    for t in tables:
        name = f"{short} · Serie {n} · Tisch {t.number}"
        # the table's sheet belongs to the event's date, not the day it was seated
        sheet = service.create_sheet(db, name, event.game, list(t.players),
                                     t.first_dealer, event.rules, event.group_id,
                                     day=event.day)  # fmt: skip
        rows_of.insert_table(db, event.id, n, t.number, sheet.id)
        cache.NOT_TABLES.put(sheet.share_token, False)  # a table now (web/sheet_view.py)
        if event.double_entry:
            add_list_b(db, event, n, t.number, sheet)


def final_series(db: Database, event_id: int) -> int | None:
    """The number of the event's final (seated from the ranking's best four), if any."""
    return rows_of.final_series(db, event_id, Seating.FINAL.value)


def scoring_json(event: Event) -> dict[str, object]:
    """How the event counts: money (the tables' tariffs) or points on a scale."""
    scale = event.rules.get("scale")
    if not scale:
        return {"kind": "money"}
    return {"kind": "points", "preset": scale.get("preset", "default"), "scale": scale}


def get_series(db: Database, event_id: int, n: int) -> SeriesRow:
    row = rows_of.get_series(db, event_id, n)
    if row is None:
        raise NotFound(n)
    return row


def entered_counts(db: Database, event_id: int, n: int) -> dict[int, int]:
    """sheet id -> deals entered at series ``n``'s tables (struck ones too: the desk's swap
    and re-draw wait for none)."""
    return rows_of.entered_counts(db, event_id, n)


def met_before(db: Database, event: Event, n: int) -> frozenset[frozenset[str]]:
    """Every two players who shared a table in a series before ``n`` (the fair draw's)."""
    return pairs_of([t.players for t in tables_of(db, event) if t.series < n])


def series_json(db: Database, event_id: int, n: int) -> dict[str, object]:
    row = rows_of.get_series(db, event_id, n)
    if row is None:
        raise NotFound(n)
    event = get_event(db, event_id)
    seated = [t for t in tables_of(db, event) if t.series == n]
    tables = [
        {"table": t.table, "players": list(t.players), "sheet": t.sheet,
         "first_dealer": t.first_dealer,
         **({"sheet_b": t.double_entry.sheet_b.id} if t.double_entry else {})}
        for t in seated
    ]  # fmt: skip
    return {"n": n, "seating": row.seating, "seed": row.seed, "tables": tables,
            "repeated_pairs": repeated_at(db, event, n)}  # fmt: skip


def repeated_at(db: Database, event: Event, n: int) -> int:
    """How many pairs at series ``n``'s tables already shared a table in an earlier series."""
    tables = tables_of(db, event)
    return repeated_pairs([t.players for t in tables if t.series == n],
                          pairs_of([t.players for t in tables if t.series < n]))  # fmt: skip


# --- Derived views ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DoubleEntry:
    """A table's two lists compared (``rules.double_entry``): list B's sheet, where the lists
    stand, and list A's figures over the deals both agree on (what the ranking counts)."""

    sheet_b: Sheet
    comparison: Comparison
    counted: Counted


@dataclass(frozen=True, slots=True)
class EventTable:
    """A table of a series with its sheet's totals and how far it has got: ``sheet`` the id of
    its sheet (list A), ``sheet_row`` that sheet; ``score``/``won``/``lost`` per player over
    the deals that count (with double entry: those both lists agree on); ``signed`` who
    confirmed the list, ``confirmed`` when the table was confirmed."""

    series: int
    table: int
    players: tuple[str, ...]
    first_dealer: str
    sheet: int
    sheet_row: Sheet
    planned: int
    played: int
    left: int
    next_dealer: str | None
    score: Mapping[str, int]
    won: Mapping[str, int]
    lost: Mapping[str, int]
    double_entry: DoubleEntry | None
    signed: tuple[str, ...]
    confirmed: str | None
    foot: Foot | None  # a paper table: the foot the desk typed, its only figures


def tables_of(db: Database, event: Event,
              only: tuple[int, int] | None = None) -> list[EventTable]:  # fmt: skip
    """Every table of every series with its sheet's totals and how far it has got; ``only``
    (series, table): that one table (a sheet page needs its own table, not the event's)."""
    out = []
    for table in rows_of.table_sheets(db, event.id, only):
        sheet = table.sheet
        planned = deals_for(len(sheet.players), series_deals(event, table.series_deals))
        if table.foot is not None:
            out.append(_paper_table(event, table.series, table.n, sheet, planned, table.foot,
                                    table.signed, table.confirmed))  # fmt: skip
            continue
        computed = service.computed_sheet(db, sheet, "de")
        totals = computed["totals"]
        played = sum(1 for d in computed["deals"] if not d["struck"])
        # "nur Gute" (docs/rules.md 2.8): the ranking counts what the winners wrote
        score_key = "written" if "written" in totals else rank_figure(event.game)
        entry = double_entry_of(db, event, sheet, table.sheet_b) if table.sheet_b else None
        out.append(
            EventTable(
                series=table.series,
                table=table.n,
                players=tuple(sheet.players),
                first_dealer=sheet.first_dealer,
                sheet=sheet.id,
                sheet_row=sheet,
                planned=planned,
                played=played,
                left=max(0, planned - played),
                next_dealer=computed["next_dealer"],
                score=entry.counted.score if entry else totals[score_key],
                won=entry.counted.won if entry else totals["won"],
                lost=entry.counted.lost if entry else totals["lost"],
                double_entry=entry,
                signed=tuple(table.signed),
                confirmed=table.confirmed,
                foot=None,
            )
        )
    return out


def _paper_table(event: Event, series: int, n: int, sheet: Sheet, planned: int,
                 stored: Mapping[str, object], signed: tuple[str, ...],
                 confirmed: str | None) -> EventTable:  # fmt: skip
    """A table kept on paper: its figures are its foot's, by the game's own tournament
    figure; it has played its series (the foot's check sum is the series' deals)."""
    foot = Foot.from_json(stored)
    return EventTable(
        series=series, table=n, players=tuple(sheet.players), first_dealer=sheet.first_dealer,
        sheet=sheet.id, sheet_row=sheet, planned=planned, played=planned, left=0,
        next_dealer=None, score=foot_scores(event.game, foot),
        won={p: f.won for p, f in foot.lines.items()},
        lost={p: f.lost for p, f in foot.lines.items()},
        double_entry=None, signed=signed, confirmed=confirmed, foot=foot,
    )  # fmt: skip


def series_count(db: Database, event_id: int) -> int:
    return rows_of.series_count(db, event_id)


def ranking_rows(db: Database, event: Event) -> tuple[RankRow, ...]:
    return snapshot(db, event).rows


@dataclass(frozen=True, slots=True)
class EventSnapshot:
    """The event as of its live token ``token``: every table of every series, the
    registrations, the number of series seated and the ranking."""

    token: str
    tables: tuple[EventTable, ...]
    regs: list[Registration]
    n_series: int
    rows: tuple[RankRow, ...]


_SNAPSHOTS = cache.EVENT_SNAPSHOTS  # kept in cache.py with every other process cache


def snapshot(db: Database, event: Event) -> EventSnapshot:
    """The event's tables, registrations and ranking as of its live token, computed once per
    token: the big screen, the organiser's phone and the API read between two deals share it.
    Derived data only (the sheets' deals stay the source); the key holds the event's random
    token, so a deleted event's id reused by a new one never finds the old figures."""
    token = live_token(db, event.id)  # read first: a change after this shows next time
    key = (event.edit_token, token)
    held = _SNAPSHOTS.get(key)
    if isinstance(held, EventSnapshot):
        return held
    tables = tables_of(db, event)
    regs = registrations(db, event.id)
    n_series = series_count(db, event.id)
    results = [TableResult(t.series, t.players, t.score, t.won, t.lost) for t in tables]
    given = [Penalty(p.player, p.series, p.points, p.reason) for p in penalties(db, event.id)]
    rows = rank_event([r.name for r in regs], results, n_series, fees_of(event),
                      final_series(db, event.id), given)  # fmt: skip
    snap = EventSnapshot(token, tuple(tables), regs, n_series, rows)
    _SNAPSHOTS.put(key, snap)
    return snap


def pot_of(event: Event, rows: tuple[RankRow, ...]) -> int:
    """The organiser's pot if set, else every fee due: entry, table and lost-game money and
    the team fees."""
    if event.pot_cents is not None:
        return int(event.pot_cents)
    return fees_total(rows) + sum(team_fee_payers(fees_of(event), plan_of(event).teams).values())


def ranking_json(rows: tuple[RankRow, ...]) -> dict[str, object]:
    return {
        "rows": [
            {"rank": r.rank, "player": r.player, "score": r.score, "won": r.won, "lost": r.lost,
             "fees_cents": r.fees_cents, "series": list(r.series),
             **({"penalty": r.penalty} if r.penalty else {})}
            for r in rows
        ],
        "fees_total_cents": fees_total(rows),
    }  # fmt: skip


def live_token(db: Database, event_id: int) -> str:
    """Changes whenever the event or any of its tables' sheets changes (one small query)."""
    token = rows_of.live_token(db, event_id)
    if token is None:
        raise NotFound(event_id)
    return token


def fees_json(event: Event) -> dict[str, object]:
    """The fees as the event was made: flat (``lost_game_cents``) or by tiers; the table and
    team fees when there are any."""
    plan = event.fee_plan
    out: dict[str, object] = {"entry_cents": event.entry_cents}
    if plan.get("lost_game_tiers"):
        out["lost_game_tiers"] = plan["lost_game_tiers"]
    else:
        out["lost_game_cents"] = event.lost_game_cents
    return {**out, **{k: v for k, v in plan.items() if k != "lost_game_tiers"}}


def event_json(db: Database, event_id: int) -> dict[str, object]:
    event = get_event(db, event_id)
    tables = tables_of(db, event)
    regs = registrations(db, event_id)
    series = []
    for s in rows_of.list_series(db, event_id):
        series.append(
            {
                "n": s.n,
                "seating": s.seating,
                "seed": s.seed,
                "deals": {str(k): v for k, v in series_deals(event, s.deals).items()},
                "tables": [
                    {"table": t.table, "players": list(t.players), "sheet": t.sheet,
                     "first_dealer": t.first_dealer, "deals": t.planned,
                     "played": t.played, "left": t.left, **sign_off_json(t)}
                    for t in tables if t.series == s.n
                ],
            }
        )  # fmt: skip
    return {
        "id": event.id,
        "name": event.name,
        "date": event.day,
        "game": event.game,
        "group": event.group_id,
        "deals": {str(k): v for k, v in event.deals.items()},
        "fees": fees_json(event),
        "rules": event.rules,
        "scoring": scoring_json(event),
        "payout": event.payout,
        **event.prize_plan,
        "pot_cents": event.pot_cents,
        "double_entry": bool(event.double_entry),
        "created": event.created,
        "closed": event.closed,
        "history": history_json(event_history(db, event_id)),
        "players": [r.name for r in regs],
        "registrations": [
            {
                "name": r.name,
                "player": r.player_id,
                "from_series": r.from_series,
                "away": r.away,
                "start_no": r.start_no,
                **({"category": r.category} if r.category else {}),
                **({"member_no": r.member_no} if r.member_no else {}),
                **({"club": r.club} if r.club else {}),
            }
            for r in regs
        ],  # fmt: skip
        "series": series,
    }


def categories_of(regs: list[Registration]) -> dict[str, str]:
    return {r.name: r.category for r in regs if r.category}


def prizes_of(db: Database, event: Event, rows: tuple[RankRow, ...]) -> Prizes:
    regs = registrations(db, event.id)
    return award(rows, plan_of(event), pot_of(event, rows), categories_of(regs))


@dataclass(frozen=True, slots=True)
class PrizeList:
    """What a closing shows beside the ranking: every prize won, the teams with their
    scores (best first) and the cash check."""

    won: Prizes
    teams: tuple[tuple[Team, int], ...]
    cash: CashCheck
    fees_total_cents: int  # every fee the ranking's rows are due


def prize_list(db: Database, event: Event, rows: tuple[RankRow, ...]) -> PrizeList:
    return PrizeList(prizes_of(db, event, rows), team_scores(rows, plan_of(event).teams),
                     cash_of(db, event, rows), fees_total(rows))  # fmt: skip


def prizes_json(db: Database, event: Event, rows: tuple[RankRow, ...]) -> dict[str, object]:
    """The prize list: ``rows`` the ranking with each player's own prize, ``prizes`` every
    prize with its kind (overall, series, category, team), ``teams`` the team ranking, and
    the cash check."""
    listed = prize_list(db, event, rows)
    won, cash = listed.won, listed.cash
    return {
        "closed": event.closed,
        "pot_cents": won.pot_cents,
        "fees_total_cents": listed.fees_total_cents,
        "paid_cents": won.paid_cents,
        "rest_cents": won.rest_cents,
        "payout": event.payout,
        "rows": [
            {"rank": r.rank, "player": r.player, "score": r.score, "cents": won.cents_of(r.player),
             **({"goods": g} if (g := won.goods_of(r.player)) else {})}
            for r in rows
        ],
        "prizes": [
            {"kind": p.kind.value, "place": p.place,
             **({"team": p.winner, "members": list(p.members)} if p.members
                else {"player": p.winner}),
             "score": p.score, "cents": p.cents,
             **({"series": p.series} if p.series is not None else {}),
             **({"category": p.category} if p.category is not None else {}),
             **({"goods": p.goods} if p.goods else {})}
            for p in won.prizes
        ],
        "teams": [
            {"team": t.name, "members": list(t.members), "score": score}
            for t, score in listed.teams
        ],
        "cash": cash_json(cash),
    }  # fmt: skip


# --- Fees: what is due, the paid ticks, the cash check ----------------------------------------


def paid_ticks(db: Database, event_id: int) -> dict[tuple[str, int], int]:
    names = {r.key: r.name for r in registrations(db, event_id)}
    return {
        (names[key], series): cents
        for key, series, cents in rows_of.fee_ticks(db, event_id)
        if key in names
    }


def cash_of(db: Database, event: Event, rows: tuple[RankRow, ...]) -> CashCheck:
    return cash_check(rows, fees_of(event), plan_of(event).teams, paid_ticks(db, event.id))


def cash_json(cash: CashCheck) -> dict[str, object]:
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
        reg = next((r for r in registrations(db, event_id) if r.key == key), None)
        if reg is None:
            raise NotFound(name)
        rows = ranking_rows(db, event)
        cash = cash_of(db, event, rows)
        row = next(c for c in cash.rows if c.player == reg.name)
        item = next((i for i in row.items if i.series == series), None)
        if item is None:
            e = Errors()
            e.add("series", "%(name)s hat Serie %(n)s nicht gespielt.", name=reg.name, n=series)
            e.raise_if_any()
        assert item is not None
        at = store.now()
        if paid:
            rows_of.set_fee_paid(db, event_id, key, series, item.due_cents, at)
        else:
            rows_of.delete_fee_paid(db, event_id, key, series)
        log_event(db, event_id, "paid" if paid else "unpaid", at,
                  {"player": reg.name, "series": series,
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
        if not rows_of.set_category(db, event_id, people.name_key(name), category):
            raise NotFound(name)
        reg = next(r for r in registrations(db, event_id) if r.key == people.name_key(name))
        log_event(db, event_id, "category", store.now(),
                  {"player": reg.name, "category": category})  # fmt: skip


def set_teams(db: Database, event_id: int, teams: tuple[Team, ...]) -> None:
    """The event's teams (replacing those before); every member must be registered, and
    takes the registration's spelling."""
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        _refuse_if_closed(event)
        names = {r.key: r.name for r in registrations(db, event_id)}
        e = Errors()
        fixed: list[Team] = []
        for i, t in enumerate(teams):
            missing = [m for m in t.members if people.name_key(m) not in names]
            if missing:
                e.add(f"teams.{i}.members", "%(name)s ist nicht angemeldet.", name=missing[0])
            fixed.append(Team(t.name, tuple(names.get(people.name_key(m), m) for m in t.members)))
        e.raise_if_any()
        plan = event.prize_plan.copy()  # the record stays as read
        plan["teams"] = [{"name": t.name, "members": list(t.members)} for t in fixed]
        if not fixed:
            del plan["teams"]
        rows_of.set_prize_plan(db, event_id, plan)
        log_event(db, event_id, "teams", store.now(), {"teams": plan.get("teams", [])})


@dataclass(frozen=True, slots=True)
class PlayerPrize:
    """A prize a player won at a club night (``team``: won with that team, else alone)."""

    kind: str
    place: int
    cents: int
    team: str | None


@dataclass(frozen=True, slots=True)
class PlayerEvent:
    """A club night as a player's page lists it: his place among ``players`` who played, his
    score, his score per series (None: not played), his prize money and his prizes."""

    event: int
    name: str
    date: str
    game: str
    closed: str | None
    place: int
    players: int
    score: int
    series: tuple[int | None, ...]
    prize_cents: int
    prizes: tuple[PlayerPrize, ...]


def player_events(db: Database, player_id: int) -> list[PlayerEvent]:
    """The club nights a player sat at (also under a name merged into his), newest first:
    place, score, the field, his prize, his score per series (None: not played)."""
    out = []
    for event_id, name in rows_of.player_event_names(db, player_id):
        event = get_event(db, event_id)
        rows = ranking_rows(db, event)
        row = next((x for x in rows if x.player == name), None)
        if row is None or not any(row.played):
            continue
        won = prizes_of(db, event, rows)
        out.append(PlayerEvent(
            event=event.id, name=event.name, date=event.day,
            game=event.game, closed=event.closed, place=row.rank,
            players=sum(1 for x in rows if any(x.played)), score=row.score,
            series=tuple(s if played else None for s, played in zip(row.series, row.played,
                                                                    strict=True)),
            prize_cents=won.cents_of(row.player),
            prizes=tuple(PlayerPrize(p.kind.value, p.place, p.cents,
                                     p.winner if p.members else None)
                         for p in won.prizes if p.winner == row.player or row.player in p.members),
        ))  # fmt: skip
    return out


def player_events_json(lines: list[PlayerEvent]) -> list[dict[str, object]]:
    """A player's club nights as the API lists them."""
    return [
        {"event": e.event, "name": e.name, "date": e.date, "game": e.game, "closed": e.closed,
         "place": e.place, "players": e.players, "score": e.score, "series": list(e.series),
         "prize_cents": e.prize_cents,
         "prizes": [{"kind": p.kind, "place": p.place, "cents": p.cents,
                     **({"team": p.team} if p.team is not None else {})} for p in e.prizes]}
        for e in lines
    ]  # fmt: skip


# --- Double entry and sign-off -----------------------------------------------------------------


class SignOffRefused(Exception):
    """A confirmation (or unlock) that cannot be taken now; answered 409 with ``msg``."""

    def __init__(self, msg: Msg) -> None:
        super().__init__(msg.de)
        self.msg = msg


def table_sheet_ids(db: Database, event_id: int) -> list[int]:
    """Every sheet of the event's tables: list A and, with double entry, list B."""
    return rows_of.table_sheet_ids(db, event_id)


def add_list_b(db: Database, event: Event, n: int, table: int,
               sheet_a: Sheet) -> None:  # fmt: skip
    """List B of a table: a sheet of its own (own edit link) with the same seats and rules.
    Its seats are not linked to players: the deals are the same as list A's, and a
    player's pages and standings count each deal once (from list A)."""
    sheet_b = service.create_sheet(db, f"{sheet_a.name} · Liste B", event.game,
                                   list(sheet_a.players), sheet_a.first_dealer,
                                   event.rules, None, day=event.day)  # fmt: skip
    player_rows.clear_seats(db, sheet_b.id)
    rows_of.set_list_b(db, event.id, n, table, sheet_b.id)
    cache.NOT_TABLES.put(sheet_b.share_token, False)  # a table's list now (sheet_view.py)


def double_entry_of(db: Database, event: Event, sheet_a: Sheet,
                    sheet_b_id: int) -> DoubleEntry:  # fmt: skip
    """Both lists of a table compared (rules/double_entry.py) and the figures that count.

    Once per revision of both lists (service.derived on list A, list B's revision in the
    key): every ranking read between two deals and every poll of the table's pages would
    otherwise compare all the event's lists again. A deal on either list bumps both lists'
    revisions (service.sheet_write), so a kept comparison is never older than the deals."""
    sheet_b = service.load_sheet(db, sheet_b_id)
    players = list(sheet_a.players)

    def make() -> tuple[Comparison, Counted]:
        rows_a = service.computed(db, sheet_a).rows
        rows_b = service.computed(db, sheet_b).rows
        cmp = compare(players, rows_a, rows_b, sheet_b.players)
        return cmp, counted(event.game, players, rows_a, cmp.agreed)

    cmp, figures = service.derived(sheet_a, "double-entry", make, sheet_b.share_token,
                                   sheet_b.rev, tuple(players), tuple(sheet_b.players),
                                   event.game)  # fmt: skip
    return DoubleEntry(sheet_b, cmp, figures)


def pending_deals(db: Database, event: Event) -> int:
    """Deals the ranking does not count yet: on one list only, or differing."""
    return sum(t.double_entry.comparison.pending for t in snapshot(db, event).tables
               if t.double_entry is not None)  # fmt: skip


def find_table(db: Database, event: Event, n: int, table: int,
               shared: bool = False) -> EventTable:  # fmt: skip
    """Table ``table`` of series ``n`` with its sign-off; ``shared``: from the event's
    snapshot (pages read between two writes share it), else computed now (inside a write),
    that table alone."""
    for t in snapshot(db, event).tables if shared else tables_of(db, event, (n, table)):
        if t.series == n and t.table == table:
            return t
    raise NotFound(table)


def table_complete(t: EventTable) -> bool:
    """The table has played its series on every list it keeps, and the lists agree."""
    entry = t.double_entry
    if t.left > 0 or t.planned == 0:
        return False
    if entry is None:
        return True
    cmp = entry.comparison
    return bool(cmp.clean and cmp.played_b >= t.planned)


def sign_off_json(t: EventTable) -> dict[str, Any]:
    """A table's double entry and sign-off, as the API and the pages read them."""
    entry = t.double_entry
    out: dict[str, Any] = {
        "signed": list(t.signed),
        "confirmed": t.confirmed,
        "complete": table_complete(t),
    }
    if entry is not None:
        cmp = entry.comparison
        out["list_b"] = {
            "sheet": entry.sheet_b.id,
            "played": cmp.played_b,
            "agreed": len(cmp.agreed),
            "pending": cmp.pending,
            "differences": [{"deal": d.n, "a": dict(d.a), "b": dict(d.b)} for d in cmp.differences],
        }
    return out


def _lock_table(db: Database, event_id: int, n: int, table: int) -> Event:
    _bump(db, event_id)  # the write lock first: two taps at once queue up
    event = get_event(db, event_id)
    if not rows_of.has_table(db, event_id, n, table):
        raise NotFound(table)
    return event


def _touch_lists(db: Database, t: EventTable) -> None:
    """Both lists' pages show the sign-off: new revisions."""
    sheet_store.bump_sheet(db, t.sheet)
    if t.double_entry is not None:
        sheet_store.bump_sheet(db, t.double_entry.sheet_b.id)


def confirm_table(db: Database, event_id: int, n: int, table: int, player: str | None,
                  captain: bool) -> EventTable:  # fmt: skip
    """A player of the table confirms its list of series ``n`` (or the table captain for all
    of them). Once every player has (or the captain did), the table is confirmed: its lists
    take no writes (service.sheet_write) until the organiser unlocks it. Refused
    (:class:`SignOffRefused`) while the event is closed, the series is not complete on every
    list, or the lists differ. A second tap by the same player changes nothing."""
    with db.atomic():
        event = _lock_table(db, event_id, n, table)
        if event.closed:
            raise SignOffRefused(Msg("Die Veranstaltung ist abgeschlossen. Nichts bestätigt."))
        t = find_table(db, event, n, table)
        if t.confirmed:
            return t
        who = None
        if not captain:
            who = next((p for p in t.players
                        if people.name_key(p) == people.name_key(player or "")), None)  # fmt: skip
            if who is None:
                e = Errors()
                e.add("player", "%(name)s sitzt nicht an diesem Tisch.", name=(player or "")[:50])
                e.raise_if_any()
        if not table_complete(t):
            if t.double_entry is not None and t.double_entry.comparison.differences:
                raise SignOffRefused(
                    Msg("Die Listen A und B weichen noch ab. Erst prüfen, dann bestätigen.")
                )
            raise SignOffRefused(Msg("Die Serie ist an diesem Tisch noch nicht fertig."))
        signed = list(t.signed)
        if who is not None and who not in signed:
            signed.append(who)
        at = store.now()
        done = captain or all(p in signed for p in t.players)
        rows_of.set_sign_off(db, event_id, n, table, signed, at if done else None)
        log_event(db, event_id, "confirm" if done else "sign",
                  at, {"series": n, "table": table,
                       **({"captain": True} if captain else {"player": who})})  # fmt: skip
        _touch_lists(db, t)
        return find_table(db, event, n, table)


def unlock_table(db: Database, event_id: int, n: int, table: int) -> EventTable:
    """The organiser takes a table's confirmation back: its lists take writes again and the
    players confirm anew. Refused while the event is closed."""
    with db.atomic():
        event = _lock_table(db, event_id, n, table)
        if event.closed:
            raise SignOffRefused(Msg("Die Veranstaltung ist abgeschlossen. Nichts geändert."))
        t = find_table(db, event, n, table)
        rows_of.set_sign_off(db, event_id, n, table, None, None)
        if t.confirmed or t.signed:
            log_event(db, event_id, "unlock", store.now(), {"series": n, "table": table})
        _touch_lists(db, t)
        return find_table(db, event, n, table)


# --- The lost-game money per table, for its captain to collect --------------------------------


@dataclass(frozen=True, slots=True)
class TableMoney:
    """A table of a series and the lost-game money each of its players owes for it (by the
    event's tiers, the same figures as the fees), with the table's total."""

    series: int
    table: int
    players: tuple[tuple[str, int, int], ...]  # (player, lost games, cents)
    total_cents: int


def table_money(event: Event, tables: Sequence[EventTable]) -> list[TableMoney]:
    fees = fees_of(event)
    out = []
    for t in tables:
        owed = tuple((p, int(t.lost.get(p, 0)), fees.lost_money(int(t.lost.get(p, 0))))
                     for p in t.players)  # fmt: skip
        out.append(TableMoney(t.series, t.table, owed, sum(c for _, _, c in owed)))
    return out


# --- Paper lists typed at the desk, penalty points ----------------------------------------------


class FootRefused(SignOffRefused):
    """A foot the table cannot take (it has deals, the event is closed): answered 409."""


def log_paper(db: Database, event_id: int, action: str, detail: dict[str, object]) -> None:
    """The one place a foot's or a penalty's change goes into the event's history (who and
    when: the desk's history joins here)."""
    log_event(db, event_id, action, store.now(), detail)


def set_foot(db: Database, event_id: int, n: int, table: int, data: object) -> EventTable:
    """The desk types a paper list's foot (docs/rules.md 1.12) for table ``table`` of series
    ``n``, or corrects it: checked as the list's own check sums are, then the table's
    figures are the foot's. Refused (:class:`FootRefused`) when the event is closed or the
    table has deals entered; in the event's history each time."""
    with db.atomic():
        event = _lock_table(db, event_id, n, table)
        if event.closed:
            raise FootRefused(Msg("Die Veranstaltung ist abgeschlossen. Nichts gespeichert."))
        t = find_table(db, event, n, table)
        if not keeps_foot(event.game, len(t.players)):
            e = Errors()
            e.add("_", "Einen Listenfuß gibt es nur für Skat-Tische zu dritt oder zu viert.")
            e.raise_if_any()
        if t.foot is None and t.played:
            raise FootRefused(Msg(
                "An diesem Tisch sind schon %(n)s Spiele eingetragen: er führt seine Liste "
                "am Handy, nicht auf Papier.", n=t.played))  # fmt: skip
        if t.confirmed:
            raise FootRefused(Msg(
                "Tisch bestätigt: die Liste dieser Serie ist abgezeichnet. Nichts gespeichert; "
                "die Turnierleitung kann sie wieder freigeben."))  # fmt: skip
        foot = read_foot(data, t.players, t.planned)
        rows_of.set_foot(db, event_id, n, table, cast(JSONObject, foot.to_json()))
        # the table's sheet: a new revision (the live token moves) and the write lock a
        # phone's deal takes, so a deal saved at this moment is refused or seen
        _touch_lists(db, t)
        log_paper(db, event_id, "foot" if t.foot is None else "foot-corrected",
                  {"series": n, "table": table, **foot.to_json()})  # fmt: skip
        return find_table(db, event, n, table)


@dataclass(frozen=True, slots=True)
class FootPreview:
    """What the desk's page shows while a foot is typed: each player's score once every
    line reads (else empty), the games the foot accounts for so far, and its errors."""

    scores: Mapping[str, int]
    games: int | None
    deals: int
    errors: InvalidDeal | None


def preview_foot(db: Database, event: Event, n: int, table: int, data: object) -> FootPreview:
    """A foot's scores as typed, nothing stored; the check sum's error once the lines read."""
    t = find_table(db, event, n, table, shared=True)
    if not keeps_foot(event.game, len(t.players)):
        return FootPreview({}, None, t.planned, None)
    try:
        lines = read_foot(data, t.players, t.planned, check_sum=False)
    except InvalidDeal as exc:
        return FootPreview({}, None, t.planned, exc)
    try:
        read_foot(data, t.players, t.planned)
        errors = None
    except InvalidDeal as exc:
        errors = exc
    return FootPreview(foot_scores(event.game, lines), foot_games(lines), t.planned, errors)


def foot_json(t: EventTable) -> dict[str, object] | None:
    """A paper table's foot with each player's score, as typed; None for a phone table."""
    if t.foot is None:
        return None
    return {
        "players": {p: {"points": f.points, "won": f.won, "lost": f.lost,
                        "score": int(t.score[p])} for p, f in t.foot.lines.items()},
        "passed": t.foot.passed,
    }  # fmt: skip


def penalties(db: Database, event_id: int) -> list[PenaltyRow]:
    return rows_of.penalties(db, event_id)


def penalty_json(p: PenaltyRow) -> dict[str, object]:
    return {"id": p.id, "player": p.player, "series": p.series, "points": p.points,
            "reason": p.reason, "at": p.at}  # fmt: skip


MAX_REASON = 200


def add_penalty(db: Database, event_id: int, data: object) -> PenaltyRow:
    """Penalty points (1–1000) for a player in a series he played, with a reason; they come
    off his score of that series. Refused while the event is closed; in its history."""
    r = Reader(data)
    e = r.errors
    player = r.data.get("player")
    reason = r.data.get("reason")
    r.seen.update(("player", "reason"))
    series = r.integer("series")
    points = r.integer("points")
    r.reject_unknown()
    if not isinstance(player, str) or not clean_name(player):
        e.add("player", "Wer bekommt die Strafpunkte? Ein Name.")
    for name, value in (("series", series), ("points", points)):
        if value is None and r.data.get(name) is None:
            e.add(name, "Dieses Feld fehlt.")
    if points is not None and not 1 <= points <= MAX_PENALTY:
        e.add("points", "Erlaubt: 1 bis %(max)s.", max=MAX_PENALTY)
    if not isinstance(reason, str) or not " ".join(reason.split()):
        e.add("reason", "Bitte den Grund angeben.")
    elif len(reason) > MAX_REASON:
        e.add("reason", "Höchstens %(max)s Zeichen.", max=MAX_REASON)
    e.raise_if_any()
    assert isinstance(player, str) and isinstance(reason, str)
    assert series is not None and points is not None
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        if event.closed:
            raise FootRefused(Msg("Die Veranstaltung ist abgeschlossen. Nichts gespeichert."))
        key = people.name_key(player)
        reg = next((x for x in registrations(db, event_id) if x.key == key), None)
        if reg is None:
            e.add("player", "%(name)s ist nicht angemeldet.", name=clean_name(player)[:50])
            e.raise_if_any()
        assert reg is not None
        seated = any(t.series == series and reg.name in t.players
                     for t in tables_of(db, event))  # fmt: skip
        if not seated:
            e.add("series", "%(name)s hat Serie %(n)s nicht gespielt.", name=reg.name, n=series)
            e.raise_if_any()
        text = " ".join(reason.split())
        pid = rows_of.insert_penalty(db, event_id, reg.id, series, points, text, store.now())
        log_paper(db, event_id, "penalty", {"id": pid, "player": reg.name, "series": series,
                                            "points": points, "reason": text})  # fmt: skip
    return next(p for p in penalties(db, event_id) if p.id == pid)


def delete_penalty(db: Database, event_id: int, penalty_id: int) -> None:
    """Take a penalty back; in the event's history. Refused while the event is closed."""
    with db.atomic():
        _bump(db, event_id)
        event = get_event(db, event_id)
        if event.closed:
            raise FootRefused(Msg("Die Veranstaltung ist abgeschlossen. Nichts gespeichert."))
        given = next((p for p in penalties(db, event_id) if p.id == penalty_id), None)
        if given is None or not rows_of.delete_penalty(db, event_id, penalty_id):
            raise NotFound(penalty_id)
        log_paper(db, event_id, "penalty-taken-back", penalty_json(given))


def today() -> str:
    return date.today().isoformat()
