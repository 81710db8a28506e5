"""Figures across sheets: a player's statistics and a group's standings, from stored deals.

Every number starts from ``service.computed`` (the rules' typed ``compute_sheet``) and goes
through ``rules.standings``; nothing here is stored. Per sheet the figures are cached by the
sheet's revision and its players' current names, so a correction on an old sheet or a
renamed player is seen at once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date

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
class PlayedSheet:
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
        stake_cents = sheet.rules.get("stake_cents") or 0
        stake = int(stake_cents) if isinstance(stake_cents, int | float | str) else 0
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


def player_figures(db: Database, player_id: int) -> list[tuple[PlayedSheet, SheetFigures]]:
    """(sheet, figures) for every sheet of the player, oldest first."""
    sheets = [s.sheet for s in players.sheets_of_player(db, player_id)]
    ids = [s.id for s in sheets]
    seats = _seat_players(db, ids)
    stored = stored_figures(db, ids)
    events = events_of_sheets(db, ids)
    out = []
    for s in sheets:
        played = PlayedSheet(s, events.get(s.id))
        figs = _in_event(figures_of_sheet(db, s, seats.get(s.id, []), stored.get(s.id)),
                         played.event)  # fmt: skip
        if player_id in figs:
            out.append((played, figs[player_id]))
    return out


def _tallies(m: Mapping[str, Tally]) -> dict[str, dict[str, int]]:
    return {k: {"games": t.games, "won": t.won} for k, t in sorted(m.items())}


@dataclass(frozen=True, slots=True)
class PlayerEvening:
    """One evening in a player's figures: a sheet, or a club night's tables together
    (``event`` its id, ``sheets`` the tables' sheets), named as the sheet or the event."""

    sheet: int
    name: str
    figures: SheetFigures
    event: int | None = None
    sheets: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameFigures:
    """A player's figures in one game: the totals, his evenings oldest first, and the best
    and the worst of them by balance."""

    totals: PlayerTotals
    evenings: tuple[PlayerEvening, ...]
    best: PlayerEvening | None
    worst: PlayerEvening | None


def game_figures(t: PlayerTotals, sheets: list[tuple[PlayedSheet, SheetFigures]]) -> GameFigures:
    """``t`` with the player's evenings, from his sheets with their figures (a club night's
    tables are one evening)."""
    by_id = {s.sheet.id: s for s, _f in sheets}

    def evening(f: SheetFigures) -> PlayerEvening:
        s = by_id[f.sheet_id]
        if f.event is not None and s.event:
            return PlayerEvening(s.sheet.id, s.event.name, f, f.event, tuple(f.sheet_ids))
        return PlayerEvening(s.sheet.id, s.sheet.name, f)

    return GameFigures(
        t,
        tuple(evening(f) for f in evenings_of([f for _s, f in sheets])),
        None if t.best is None else evening(t.best),
        None if t.worst is None else evening(t.worst),
    )


def evening_figures_json(e: PlayerEvening) -> dict[str, object]:
    """One evening of a player's figures, as the API answers it."""
    f = e.figures
    out: dict[str, object] = {"sheet": e.sheet, "name": e.name, "day": f.day, "table": f.table,
                           "deals": f.deals, "played": f.played, "balance": f.balance,
                           "cents": f.cents, "won": f.won, "lost": f.lost}  # fmt: skip
    if e.event is not None:
        out.update(event=e.event, sheets=list(e.sheets))
    if "list" in game_kind(f.game).extra_figures:  # Skat: the list and Seeger-Fabian
        out["list"] = f.list_points
        out["seeger_fabian"] = f.seeger_fabian
    return out


def game_json(g: GameFigures) -> dict[str, object]:
    """A player's figures in one game, as the API answers them."""
    t = g.totals
    out: dict[str, object] = {
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
        "best": None if g.best is None else evening_figures_json(g.best),
        "worst": None if g.worst is None else evening_figures_json(g.worst),
        "evenings": [evening_figures_json(e) for e in g.evenings],
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


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's figures: per game (every game, in the registry's order) his figures (None:
    never played it)."""

    id: int
    name: str
    games: dict[str, GameFigures | None]

    @property
    def played(self) -> bool:
        """Whether he has played any evening."""
        return any(g is not None for g in self.games.values())


def player_stats(db: Database, player_id: int) -> PlayerStats:
    """The player's page and API answer: per game the totals (or None) and the evenings."""
    pid = players.resolve(db, player_id)
    player = players.get_player(db, pid)
    all_figs = player_figures(db, pid)
    games: dict[str, GameFigures | None] = {}
    for game in GAMES:
        # a sheet without a deal was never played: no evening, no best or worst evening
        evenings = [(s, f) for s, f in all_figs if f.game == game and f.deals > 0]
        games[game] = (game_figures(player_totals(game, [f for _s, f in evenings]), evenings)
                       if evenings else None)  # fmt: skip
    return PlayerStats(pid, player.name, games)


def player_stats_json(stats: PlayerStats) -> dict[str, object]:
    """The player as the API answers: id, name, and per game his figures (or None)."""
    return {"id": stats.id, "name": stats.name,
            **{k: None if g is None else game_json(g) for k, g in stats.games.items()}}  # fmt: skip


# --- Groups -----------------------------------------------------------------------------------


def default_period(today: date | None = None) -> tuple[date, date]:
    today = today or date.today()
    return date(today.year, 1, 1), date(today.year, 12, 31)


@dataclass(frozen=True, slots=True)
class GroupStandings:
    """A group's standings from ``start`` to ``end`` (both days included): the rows, the
    sheets they come from (each beside its club night) and the evenings those make."""

    group: Group
    start: date
    end: date
    rows: tuple[StandingRow, ...]
    sheets: list[PlayedSheet]
    evenings: list[Evening]


def group_standings(db: Database, group: Group, start: date, end: date) -> GroupStandings:
    """The standings over the period and the sheets they come from."""
    found = players.group_sheets(db, group.id, start, end)
    ids = [s.id for s in found]
    seats = _seat_players(db, ids)
    stored = stored_figures(db, ids)
    events = events_of_sheets(db, ids)
    # the sheets with their club night beside them
    sheets = [PlayedSheet(s, events.get(s.id)) for s in found]
    by_player: dict[int, tuple[str, list[SheetFigures]]] = {}
    for s in sheets:
        sp = seats.get(s.sheet.id, [])
        names = dict(sp)
        figures = _in_event(figures_of_sheet(db, s.sheet, sp, stored.get(s.sheet.id)), s.event)
        for pid, figs in figures.items():
            by_player.setdefault(pid, (names[pid], []))[1].append(figs)
    rules = ClubRules.from_json(group.rules)
    return GroupStandings(group, start, end, standings(by_player, rules), sheets,
                          group_evenings(sheets))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Evening:
    """An evening of a group: one sheet (``sheet`` its id), or a club night with all its
    tables (``event`` its id); named and dated as the sheet or the event, ``players`` everyone
    who sat at its ``sheets`` in order of appearance."""

    sheet: int | None
    event: int | None
    name: str
    day: str
    players: tuple[str, ...]
    sheets: tuple[Sheet, ...]


def group_evenings(sheets: list[PlayedSheet]) -> list[Evening]:
    """The evenings the group's sheets make (``group_standings``' sheets, oldest first): a
    sheet, or a club night with all its tables, dated with the day it belongs to."""
    # in order of each evening's first sheet: a sheet alone, or an event id with its tables
    order: list[Sheet | EventRef] = []
    tables: dict[int, list[Sheet]] = {}
    for s in sheets:
        if s.event is None:
            order.append(s.sheet)
            continue
        if s.event.id not in tables:
            order.append(s.event)
        tables.setdefault(s.event.id, []).append(s.sheet)
    out = []
    for x in order:
        if isinstance(x, EventRef):
            seated = [p for t in tables[x.id] for p in t.players]
            out.append(Evening(None, x.id, x.name, x.day, tuple(dict.fromkeys(seated)),
                               tuple(tables[x.id])))  # fmt: skip
        else:
            out.append(Evening(x.id, None, x.name, players.sheet_day(x).isoformat(),
                               tuple(x.players), (x,)))  # fmt: skip
    return out


def evening_json(e: Evening) -> dict[str, object]:
    """An evening as the standings API lists it."""
    which = {"sheet": e.sheet} if e.event is None else {"event": e.event}
    return {**which, "name": e.name, "day": e.day, "players": list(e.players),
            "sheets": [s.id for s in e.sheets]}  # fmt: skip


def group_version(db: Database, group_id: int) -> str:
    """Changes whenever anything a group's standings show can change: the group (name, rules),
    its sheets (each write moves a revision), their players' names and merges, its events.
    Small queries, no figures: what a kept standings PDF is checked against."""
    return group_rows.group_fingerprint(db, group_id, CODE_VERSION)


def row_json(r: StandingRow) -> dict[str, object]:
    d = asdict(r)
    d.pop("player_id")
    return d


def group_json(group: Group) -> dict[str, object]:
    out: dict[str, object] = {"id": group.id, "name": group.name, "game": group.game,
                           "rules": group.rules, "created": group.created}  # fmt: skip
    if group.sheets is not None:
        out["sheets"] = group.sheets
    return out
