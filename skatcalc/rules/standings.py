"""Players across sheets: a player's figures per sheet, their sums, and a group's standings.

Pure: everything comes in as the figures ``compute_sheet`` produced for each sheet (its typed
:class:`~skatcalc.rules.sheet.ComputedSheet`), so a correction on any sheet changes what comes
out here; what differs between games (the figures a game keeps and ranks by, its partner
games) its :class:`~skatcalc.rules.sheet.GameKind` says. Decisions where the rule book is silent:

* A series is 36 deals at a three-table and 48 at a four-table (RULES.md 1.9); "per series"
  divides a sum by the number of series the player's sheets of three or four make up
  (deals that count, passed deals included, struck deals not).
* Standings: ``score`` sums the ``rank_by`` figure over the counted sheets (all, or the best
  ``best`` by that figure). Rows with at least ``min_sheets`` sheets are ranked by score,
  equal scores share a rank (1, 1, 3); the others follow unranked. Among equal scores the
  row with more games won, then fewer lost, then the name comes first (SkWO's tie order).
* A sheet without the figure (Seeger-Fabian at a five-table) is not part of that ranking.
* An evening is a sheet, or all the tables of one club night (``event``): a club night's
  series are summed into one evening (:func:`evenings`), dated with the event's date. The
  number of evenings (``sheets``), ``min_sheets``, ``best`` and the best and worst evening
  count evenings, not sheets.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from .common import Errors
from .ranking import competition_ranks as competition_ranks  # the standings' ranks, one rule
from .ranking import order_key, rank_figure
from .sheet import ComputedSheet, GameKind
from .sheet import game as game_kind

# a series at a three- and a four-table (RULES.md 1.9): Skat's club-night series, one table
#: a series of the official list (ISkO): 36 deals at a table of three, 48 at four; the unit
#: of every per-series figure (and Skat's series at a club night)
SERIES_DEALS: Mapping[int, int] = {4: 48, 3: 36}


class RankBy(Enum):
    SEEGER_FABIAN = "seeger_fabian"
    LIST = "list"
    BALANCE = "balance"


@dataclass(frozen=True)
class ClubRules:
    rank_by: RankBy
    min_sheets: int = 0
    best: int | None = None

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ClubRules:
        best = data.get("best")
        return ClubRules(RankBy(data["rank_by"]), int(data.get("min_sheets") or 0),
                         None if best is None else int(best))  # fmt: skip


def default_rank_by(game: str) -> RankBy:
    """The figure a group of this game ranks by unless it says otherwise.

    >>> default_rank_by("skat"), default_rank_by("schafkopf")
    (<RankBy.SEEGER_FABIAN: 'seeger_fabian'>, <RankBy.BALANCE: 'balance'>)
    """
    return RankBy(rank_figure(game))


def normalize_group_rules(game: str, data: object, e: Errors) -> dict[str, object]:
    """A group's club rules with every key filled in; problems go to ``e`` as ``rules.<key>``."""
    out: dict[str, object] = {"rank_by": default_rank_by(game).value, "min_sheets": 0, "best": None}
    if data is None:
        return out
    if not isinstance(data, Mapping):
        e.add("rules", "Die Regeln sind ein Objekt.")
        return out
    for k in data:
        if k not in out:
            e.add(f"rules.{k}", "Unbekannte Regel.")
    if "rank_by" in data:
        allowed = list(game_kind(game).rank_figures)
        if data["rank_by"] not in allowed:
            e.add("rules.rank_by", "Möglich: %(allowed)s.", allowed=', '.join(allowed))  # fmt: skip
        else:
            out["rank_by"] = data["rank_by"]
    for k, lo in (("min_sheets", 0), ("best", 1)):
        if k not in data or (k == "best" and data[k] is None):
            continue
        v = data[k]
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= 1000:
            e.add(f"rules.{k}", "Eine ganze Zahl von %(lo)s bis 1000.", lo=lo)  # fmt: skip
        else:
            out[k] = v
    return out


# --- One player on one sheet ------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    games: int = 0
    won: int = 0

    def add(self, won: bool) -> Tally:
        return Tally(self.games + 1, self.won + int(won))

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.games + other.games, self.won + other.won)


@dataclass(frozen=True)
class SheetFigures:
    """One player's results on one sheet, all read from the computed sheet."""

    sheet_id: int
    day: str  # ISO date the sheet belongs to
    game: str
    table: int  # players on the sheet
    deals: int  # deals that count (struck ones do not)
    played: int  # deals the player took part in
    balance: int
    cents: int
    won: int
    lost: int
    list_points: int | None = None  # Skat
    seeger_fabian: int | None = None  # Skat at three or four
    declared: Mapping[str, Tally] = field(default_factory=dict)  # contract -> own games
    lost_by_contract: Mapping[str, int] = field(default_factory=dict)
    value_sum: int = 0  # game values of own games
    ramsch: Tally = Tally()  # Ramsch deals played and "won" (not the one who paid)
    partners: Mapping[str, Tally] = field(default_factory=dict)  # Schafkopf partner games
    opponents: Mapping[str, Tally] = field(default_factory=dict)  # games on opposite sides
    event: int | None = None  # the club night the sheet is a table of
    sheet_ids: tuple[int, ...] = ()  # an evening of several sheets: all of them

    def figure(self, rank_by: RankBy) -> int | None:
        if rank_by is RankBy.SEEGER_FABIAN:
            return self.seeger_fabian
        if rank_by is RankBy.LIST:
            return self.list_points
        return self.balance


def _contract(inp: Mapping[str, object]) -> str:
    """The contract as the deal's input names it (Skat and Schafkopf use distinct names)."""
    kind = inp.get("game")
    return kind if isinstance(kind, str) else "?"


@dataclass
class _Counts:
    """One player's counts over a sheet's rows (what :func:`sheet_figures` adds up)."""

    declared: dict[str, Tally] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    partners: dict[str, Tally] = field(default_factory=dict)
    opponents: dict[str, Tally] = field(default_factory=dict)
    ramsch: Tally = Tally()
    value_sum: int = 0
    deals: int = 0
    played: int = 0


def _count_rows(computed: ComputedSheet, me: str, kind_of: GameKind,
                names: Mapping[str, str]) -> _Counts:  # fmt: skip
    """The deals counted, those ``me`` played, own games by contract (won, lost, values),
    partners, opponents and Ramsch."""
    c = _Counts()
    for row in computed.rows:
        if not row.counts:
            continue
        c.deals += 1
        active = row.active
        if me in active:
            c.played += 1
        if row.kind == "ramsch" and me in active:
            c.ramsch = c.ramsch.add(me not in row.party)
        won = row.outcome.party_won if row.outcome is not None else None
        if won is None:  # no one's game: counts as neither won nor lost
            continue
        party = row.party
        if row.own_result(me) is not None:
            contract = _contract(row.input)
            c.declared[contract] = c.declared.get(contract, Tally()).add(won)
            if not won:
                c.lost[contract] = c.lost.get(contract, 0) + 1
            c.value_sum += row.value
            if contract in kind_of.partner_contracts:
                for p in party:
                    if p != me:
                        key = names.get(p, p)
                        c.partners[key] = c.partners.get(key, Tally()).add(won)
        if kind_of.counts_opponents and me in active:
            for p in active:
                if p != me and (p in party) != (me in party):
                    key = names.get(p, p)
                    c.opponents[key] = c.opponents.get(key, Tally()).add(won == (me in party))
    return c


def sheet_figures(
    sheet_id: int,
    day: str,
    game: str,
    players: Sequence[str],
    computed: ComputedSheet,
    me: str,
    stake_cents: int,
    canonical: Mapping[str, str] | None = None,
) -> SheetFigures:
    """``me`` (as typed on the sheet) on a computed sheet; ``canonical`` maps the sheet's names
    to the players' names, so partners across sheets meet under one name."""
    c = _count_rows(computed, me, game_kind(game), canonical or {})
    table = len(players)
    totals = computed.totals
    list_t = totals.get("list")
    sf = totals.get("seeger_fabian")
    balance = int(totals.balance[me])
    back = int((totals.stock_back or {}).get(me, 0))  # a Stock left at the end goes back
    # the settlement's cents (Bierlachs: per Bierlachs), else balance × stake
    cents = int(totals.cents[me]) if totals.cents is not None else (balance + back) * stake_cents
    written = totals.get("written")
    if written is not None:  # "nur Gute": no balance moves; the evening is what was written
        balance = int(written[me])
    return SheetFigures(
        sheet_id=sheet_id, day=day, game=game, table=table, balance=balance, won=int(totals.won[me]),
        cents=cents,
        lost=int(totals.lost[me]),
        list_points=None if list_t is None else int(list_t[me]),
        seeger_fabian=None if sf is None else int(sf[me]),
        deals=c.deals, played=c.played, declared=c.declared, lost_by_contract=c.lost,
        value_sum=c.value_sum, ramsch=c.ramsch, partners=c.partners, opponents=c.opponents,
    )  # fmt: skip


# --- Evenings: a sheet, or a club night's tables ---------------------------------------------


def _sum_optional(values: Iterable[int | None]) -> int | None:
    given = [v for v in values if v is not None]
    return sum(given) if given else None


def one_evening(figures: Sequence[SheetFigures]) -> SheetFigures:
    """One player's sheets of one evening (a club night's series) summed into one: every
    count, balance and tally added; the day, game and id of the first sheet, the largest
    table; ``sheet_ids`` names them all.

    >>> a = SheetFigures(1, "2026-11-27", "skat", 4, 48, 36, 30, 0, 3, 1, 40, 500, event=7)
    >>> b = SheetFigures(2, "2026-11-27", "skat", 3, 36, 36, -10, 0, 2, 2, -5, 300, event=7)
    >>> e = one_evening([a, b])
    >>> e.deals, e.balance, e.won, e.seeger_fabian, e.table, e.sheet_ids, e.event
    (84, 20, 5, 800, 4, (1, 2), 7)
    """
    first = figures[0]
    if len(figures) == 1:
        return first if first.sheet_ids else replace(first, sheet_ids=(first.sheet_id,))
    ramsch = Tally()
    for f in figures:
        ramsch = ramsch + f.ramsch
    lost_c: dict[str, int] = {}
    for f in figures:
        for k, v in f.lost_by_contract.items():
            lost_c[k] = lost_c.get(k, 0) + v
    return SheetFigures(
        sheet_id=first.sheet_id, day=first.day, game=first.game,
        table=max(f.table for f in figures), deals=sum(f.deals for f in figures),
        played=sum(f.played for f in figures), balance=sum(f.balance for f in figures),
        cents=sum(f.cents for f in figures), won=sum(f.won for f in figures),
        lost=sum(f.lost for f in figures),
        list_points=_sum_optional(f.list_points for f in figures),
        seeger_fabian=_sum_optional(f.seeger_fabian for f in figures),
        declared=_sum_tallies(f.declared for f in figures), lost_by_contract=lost_c,
        value_sum=sum(f.value_sum for f in figures), ramsch=ramsch,
        partners=_sum_tallies(f.partners for f in figures),
        opponents=_sum_tallies(f.opponents for f in figures),
        event=first.event, sheet_ids=tuple(f.sheet_id for f in figures),
    )  # fmt: skip


def evenings(figures: Sequence[SheetFigures]) -> list[SheetFigures]:
    """The evenings these sheets make, in the order each first appears: every sheet of one
    club night is one evening (:func:`one_evening`), any other sheet is one of its own.

    >>> figs = [SheetFigures(i, "2026-11-27", "skat", 4, 1, 1, i, 0, 0, 0, event=e)
    ...         for i, e in ((1, 7), (2, None), (3, 7))]
    >>> [(f.sheet_ids, f.balance) for f in evenings(figs)]
    [((1, 3), 4), ((2,), 2)]
    """
    groups: dict[tuple[str, int], list[SheetFigures]] = {}
    for f in figures:
        key = ("event", f.event) if f.event is not None else ("sheet", f.sheet_id)
        groups.setdefault(key, []).append(f)
    return [one_evening(g) for g in groups.values()]


# --- A player over many sheets ----------------------------------------------------------------


@dataclass(frozen=True)
class PlayerTotals:
    game: str
    sheets: int  # evenings: a club night's tables are one
    deals: int  # deals played (taken part in)
    won: int
    lost: int
    balance: int
    cents: int
    win_rate: float | None  # percent of own games won
    average_value: float | None  # mean game value of own games
    list_points: int | None  # over sheets of three or four
    seeger_fabian: int | None
    series: float  # series the sheets of three or four make up
    list_per_series: float | None
    seeger_fabian_per_series: float | None
    declared: Mapping[str, Tally]
    ramsch: Tally
    partners: Mapping[str, Tally]
    opponents: Mapping[str, Tally]
    best: SheetFigures | None  # the evening (:func:`one_evening`) by balance
    worst: SheetFigures | None


def _sum_tallies(maps: Iterable[Mapping[str, Tally]]) -> dict[str, Tally]:
    out: dict[str, Tally] = {}
    for m in maps:
        for k, t in m.items():
            out[k] = out.get(k, Tally()) + t
    return out


def series_count(figures: Sequence[SheetFigures]) -> float:
    """How many series the sheets of three or four make up: 36 or 48 deals each."""
    return sum(f.deals / SERIES_DEALS[f.table] for f in figures if f.table in SERIES_DEALS)


def per_series(total: int, series: float) -> float | None:
    return round(total / series, 1) if series > 0 else None


def player_totals(game: str, figures: Sequence[SheetFigures]) -> PlayerTotals:
    figs = [f for f in figures if f.game == game]
    won = sum(f.won for f in figs)
    lost = sum(f.lost for f in figs)
    own = won + lost
    declared = _sum_tallies(f.declared for f in figs)
    value_sum = sum(f.value_sum for f in figs)
    std = [f for f in figs if f.table in SERIES_DEALS]
    series = series_count(std)
    list_pts = sf = None
    kept = game_kind(game).extra_figures
    if "list" in kept:
        list_pts = sum(f.list_points or 0 for f in std)
    if "seeger_fabian" in kept:
        sf = sum(f.seeger_fabian or 0 for f in std)
    ordered = sorted(evenings(figs), key=lambda f: (f.balance, f.day, f.sheet_id))
    ramsch = Tally()
    for f in figs:
        ramsch = ramsch + f.ramsch
    return PlayerTotals(
        game=game, sheets=len(ordered), deals=sum(f.played for f in figs), won=won, lost=lost,
        balance=sum(f.balance for f in figs), cents=sum(f.cents for f in figs),
        win_rate=round(100 * won / own, 1) if own else None,
        average_value=round(value_sum / own, 1) if own else None,
        list_points=list_pts, seeger_fabian=sf, series=round(series, 3),
        list_per_series=None if list_pts is None else per_series(list_pts, series),
        seeger_fabian_per_series=None if sf is None else per_series(sf, series),
        declared=declared, ramsch=ramsch,
        partners=_sum_tallies(f.partners for f in figs),
        opponents=_sum_tallies(f.opponents for f in figs),
        best=ordered[-1] if ordered else None, worst=ordered[0] if ordered else None,
    )  # fmt: skip


# --- A group's standings ----------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    rank: int | None
    player_id: int
    player: str
    sheets: int
    counted: int
    score: int
    average: float
    won: int
    lost: int
    balance: int
    cents: int


def counted_figures(values: Sequence[int], best: int | None) -> list[int]:
    """All values, or the ``best`` highest of them."""
    if best is None:
        return list(values)
    return sorted(values, reverse=True)[:best]


def standings(
    players: Mapping[int, tuple[str, Sequence[SheetFigures]]], rules: ClubRules
) -> tuple[StandingRow, ...]:
    rows: list[StandingRow] = []
    for pid, (name, figures) in players.items():
        # a club night's series are one evening: one value, one of min_sheets and best
        figs = [f for f in evenings(figures) if f.figure(rules.rank_by) is not None]
        if not figs:
            continue
        values = [f.figure(rules.rank_by) or 0 for f in figs]
        counted = counted_figures(values, rules.best)
        score = sum(counted)
        rows.append(
            StandingRow(
                rank=None,
                player_id=pid,
                player=name,
                sheets=len(figs),
                counted=len(counted),
                score=score,
                average=round(score / len(counted), 2) if counted else 0.0,
                won=sum(f.won for f in figs),
                lost=sum(f.lost for f in figs),
                balance=sum(f.balance for f in figs),
                cents=sum(f.cents for f in figs),
            )  # fmt: skip
        )

    def order(r: StandingRow) -> tuple[int, int, int, str, int]:
        return (*order_key(r.score, r.won, r.lost), r.player.casefold(), r.player_id)

    ranked = sorted((r for r in rows if r.sheets >= rules.min_sheets), key=order)
    others = sorted((r for r in rows if r.sheets < rules.min_sheets), key=order)
    ranks = competition_ranks([r.score for r in ranked])
    out = [
        StandingRow(
            rk,
            r.player_id,
            r.player,
            r.sheets,
            r.counted,
            r.score,
            r.average,
            r.won,
            r.lost,
            r.balance,
            r.cents,
        )  # fmt: skip
        for rk, r in zip(ranks, ranked, strict=True)
    ]
    return tuple(out + others)
