"""Figures across sheets: a player's statistics and a group's standings, from stored deals.

Every number starts from ``service.computed`` (the rules' typed ``compute_sheet``) and goes
through ``rules.standings``; nothing here is stored. Per sheet the figures are cached by the
sheet's revision and its players' current names, so a correction on an old sheet or a
renamed player is seen at once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date
from typing import Any

from sqlite_utils import Database

from skatcalc.rules.sheet import GAMES
from skatcalc.rules.sheet import game as game_kind
from skatcalc.rules.standings import (
    ClubRules,
    PlayerTotals,
    SheetFigures,
    StandingRow,
    Tally,
    player_totals,
    sheet_figures,
    standings,
)
from skatcalc.rules.standings import evenings as evenings_of
from skatcalc.services import players
from skatcalc.services import sheets as service
from skatcalc.services.cache import CODE_VERSION, code_files, code_version  # noqa: F401  (season.code_version: tests)
from skatcalc.store import events as event_rows
from skatcalc.store import figures as figure_rows
from skatcalc.store import groups as group_rows
from skatcalc.store import players as player_rows
from skatcalc.store.club_records import EventRef, Group
from skatcalc.store.figures import StoredFigures
from skatcalc.store.records import Sheet


@dataclass(frozen=True, slots=True)
class EveningSheet:
    """A sheet with the club night it is a table of (None: an evening of its own)."""

    sheet: Sheet
    event: EventRef | None


def _seat_players(db: Database, sheet_ids: Sequence[int]) -> dict[int, list[tuple[int, str]]]:
    """sheet id -> [(player id, player's current name)] by seat, in one query."""
    return player_rows.seat_players(db, sheet_ids)


def events_of_sheets(db: Database, sheet_ids: Sequence[int]) -> dict[int, EventRef]:
    """sheet id -> the club night it is a table of (id, name, day), in one query."""
    return event_rows.events_of_sheets(db, sheet_ids)


def _in_event(figs: dict[int, SheetFigures], event: EventRef | None
              ) -> dict[int, SheetFigures]:  # fmt: skip
    """A club night's table: its figures name the event, so its series make one evening."""
    if event is None:
        return figs
    return {pid: replace(f, event=event.id) for pid, f in figs.items()}


# The fingerprint of the rules' and games' code lives with every other cache (cache.py).


def _encode(figs: dict[int, SheetFigures]) -> str:
    return json.dumps({str(pid): asdict(f) for pid, f in figs.items()}, ensure_ascii=False)


def _decode(data: str) -> dict[int, SheetFigures]:
    out = {}
    for pid, d in json.loads(data).items():
        tallies = {k: {n: Tally(**t) for n, t in d[k].items()}
                   for k in ("declared", "partners", "opponents")}  # fmt: skip
        out[int(pid)] = SheetFigures(**{**d, **tallies, "ramsch": Tally(**d["ramsch"])})
    return out


def stored_figures(db: Database, sheet_ids: Sequence[int]) -> dict[int, StoredFigures]:
    """The cache rows of these sheets, in one query."""
    return figure_rows.stored_figures(db, sheet_ids)


def figures_of_sheet(
    db: Database,
    sheet: Sheet,
    seats: list[tuple[int, str]],
    stored: StoredFigures | None = None,
) -> dict[int, SheetFigures]:
    """player id -> that player's figures on this sheet.

    Computed from the sheet's deals (``service.computed``); kept in memory and in the database
    for this revision of the sheet, these players and these rules."""
    seats_key = json.dumps(seats, ensure_ascii=False)

    def make() -> dict[int, SheetFigures]:
        if (
            stored is not None
            and stored.rev == sheet.rev
            and stored.seats == seats_key
            and stored.code == CODE_VERSION
        ):
            try:
                return _decode(stored.data)
            except (ValueError, TypeError, KeyError):
                pass  # an unreadable row is recomputed and replaced
        computed = service.computed(db, sheet)
        typed = sheet.players
        canonical = {typed[i]: name for i, (_pid, name) in enumerate(seats) if i < len(typed)}
        stake = int(sheet.rules.get("stake_cents") or 0)
        day = players.sheet_day(sheet).isoformat()
        figs = {
            pid: sheet_figures(
                sheet.id,
                day,
                sheet.game,
                typed,
                computed,
                typed[i],
                stake,
                canonical,
            )  # fmt: skip
            for i, (pid, _name) in enumerate(seats)
            if i < len(typed)
        }
        # a busy or read-only database: the figures are still right, just not kept
        figure_rows.keep_figures(db, sheet.id, sheet.rev, seats_key, CODE_VERSION,
                                 _encode(figs))  # fmt: skip
        return figs

    return service.derived(sheet, "player-figures", make, seats_key)


def player_figures(db: Database, player_id: int) -> list[tuple[EveningSheet, SheetFigures]]:
    """(sheet, figures) for every sheet of the player, oldest first."""
    sheets = [seated.sheet for seated in players.sheets_of_player(db, player_id)]
    ids = [s.id for s in sheets]
    seats = _seat_players(db, ids)
    stored = stored_figures(db, ids)
    events = events_of_sheets(db, ids)
    out = []
    for sheet in sheets:
        s = EveningSheet(sheet, events.get(sheet.id))
        figs = _in_event(figures_of_sheet(db, sheet, seats.get(sheet.id, []), stored.get(sheet.id)),
                         s.event)  # fmt: skip
        if player_id in figs:
            out.append((s, figs[player_id]))
    return out


def _tallies(m: Any) -> dict[str, dict[str, int]]:
    return {k: {"games": t.games, "won": t.won} for k, t in sorted(m.items())}


def game_json(t: PlayerTotals, sheets: list[tuple[EveningSheet, SheetFigures]]
              ) -> dict[str, Any]:  # fmt: skip
    """A player's figures in one game, as the API answers them: ``sheets`` the player's
    sheets with their figures; a club night's tables are one evening."""

    def evening(s: EveningSheet, f: SheetFigures) -> dict[str, Any]:
        e: dict[str, Any] = {"sheet": s.sheet.id, "name": s.sheet.name, "day": f.day,
                             "table": f.table, "deals": f.deals, "played": f.played,
                             "balance": f.balance, "cents": f.cents, "won": f.won,
                             "lost": f.lost}  # fmt: skip
        if f.event is not None and s.event:
            e.update(event=f.event, name=s.event.name, sheets=list(f.sheet_ids))
        if "list" in game_kind(f.game).extra_figures:  # Skat: the list and Seeger-Fabian
            e["list"] = f.list_points
            e["seeger_fabian"] = f.seeger_fabian
        return e

    by_id = {s.sheet.id: s for s, _f in sheets}
    evenings = [(by_id[f.sheet_id], f) for f in evenings_of([f for _s, f in sheets])]
    out: dict[str, Any] = {
        "sheets": t.sheets,
        "deals": t.deals,
        "won": t.won,
        "lost": t.lost,
        "win_rate": t.win_rate,
        "average_value": t.average_value,
        "balance": t.balance,
        "cents": t.cents,
        "games": {
            k: {"declared": v.games, "won": v.won, "lost": v.games - v.won}
            for k, v in t.declared.items()
        },
        "ramsch": {"played": t.ramsch.games, "won": t.ramsch.won},
        "best": None if t.best is None else evening(by_id[t.best.sheet_id], t.best),
        "worst": None if t.worst is None else evening(by_id[t.worst.sheet_id], t.worst),
        "evenings": [evening(s, f) for s, f in evenings],
    }
    kind = game_kind(t.game)
    if "list" in kind.extra_figures:
        out.update(
            list=t.list_points,
            seeger_fabian=t.seeger_fabian,
            series=t.series,
            list_per_series=t.list_per_series,
            seeger_fabian_per_series=t.seeger_fabian_per_series,
        )
    if kind.counts_opponents:
        out["partners"] = _tallies(t.partners)
        out["opponents"] = _tallies(t.opponents)
    return out


def player_stats(db: Database, player_id: int) -> dict[str, Any]:
    """The player's page and API answer: per game the totals (or None) and the evenings."""
    pid = players.resolve(db, player_id)
    player = players.get_player(db, pid)
    all_figs = player_figures(db, pid)
    out: dict[str, Any] = {"id": pid, "name": player.name}
    totals: dict[str, PlayerTotals] = {}
    for game in GAMES:
        # a sheet without a deal was never played: no evening, no best or worst evening
        evenings = [(s, f) for s, f in all_figs if f.game == game and f.deals > 0]
        if not evenings:
            out[game] = None
            continue
        totals[game] = player_totals(game, [f for _s, f in evenings])
        out[game] = game_json(totals[game], evenings)
    out["_totals"] = totals
    return out


def public(stats: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in stats.items() if not k.startswith("_")}


# --- Groups -----------------------------------------------------------------------------------


def default_period(today: date | None = None) -> tuple[date, date]:
    today = today or date.today()
    return date(today.year, 1, 1), date(today.year, 12, 31)


def group_standings(
    db: Database, group: Group, start: date, end: date
) -> tuple[tuple[StandingRow, ...], list[EveningSheet]]:
    """The standings over the period and the sheets they come from."""
    group_sheets = players.group_sheets(db, group.id, start, end)
    ids = [s.id for s in group_sheets]
    seats = _seat_players(db, ids)
    stored = stored_figures(db, ids)
    events = events_of_sheets(db, ids)
    # the sheets with their club night beside them
    sheets = [EveningSheet(s, events.get(s.id)) for s in group_sheets]
    by_player: dict[int, tuple[str, list[SheetFigures]]] = {}
    for s in sheets:
        sp = seats.get(s.sheet.id, [])
        names = dict(sp)
        figures = _in_event(figures_of_sheet(db, s.sheet, sp, stored.get(s.sheet.id)), s.event)
        for pid, figs in figures.items():
            by_player.setdefault(pid, (names[pid], []))[1].append(figs)
    rules = ClubRules.from_json(group.rules)
    return standings(by_player, rules), sheets


def group_evenings(sheets: list[EveningSheet]) -> list[dict[str, Any]]:
    """The evenings the group's sheets make (``group_standings``' sheets, oldest first): a
    sheet, or a club night with all its tables (``"event"``, ``"sheets"``), dated with the
    day it belongs to."""
    out: list[dict[str, Any]] = []
    by_event: dict[int, dict[str, Any]] = {}
    for evening in sheets:
        s, event = evening.sheet, evening.event
        day = players.sheet_day(s).isoformat()
        if event is None:
            out.append({"sheet": s.id, "name": s.name, "day": day,
                        "players": list(s.players), "sheets": [s]})  # fmt: skip
            continue
        held = by_event.get(event.id)
        if held is None:
            held = by_event[event.id] = {"event": event.id, "name": event.name,
                                         "day": event.day, "players": [], "sheets": []}  # fmt: skip
            out.append(held)
        held["sheets"].append(s)
        held["players"] += [p for p in s.players if p not in held["players"]]
    return out


def evening_json(e: dict[str, Any]) -> dict[str, Any]:
    """An evening as the standings API lists it."""
    out = {k: v for k, v in e.items() if k != "sheets"}
    out["sheets"] = [s.id for s in e["sheets"]]
    return out


def group_version(db: Database, group_id: int) -> str:
    """Changes whenever anything a group's standings show can change: the group (name, rules),
    its sheets (each write moves a revision), their players' names and merges, its events.
    Small queries, no figures: what a kept standings PDF is checked against."""
    return group_rows.group_fingerprint(db, group_id, CODE_VERSION)


def row_json(r: StandingRow) -> dict[str, Any]:
    d = asdict(r)
    d.pop("player_id")
    return d


def group_json(group: Group) -> dict[str, Any]:
    out: dict[str, Any] = {"id": group.id, "name": group.name, "game": group.game,
                           "rules": group.rules, "created": group.created}  # fmt: skip
    if group.sheets is not None:
        out["sheets"] = group.sheets
    return out
