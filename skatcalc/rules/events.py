"""Club nights and Preisskat: seating, the event's ranking and the prize list.

Pure functions over names and the tables' sheet totals; the figures of every table come
from :func:`skatcalc.rules.sheet.compute_sheet` (Seeger-Fabian for Skat, the zero-sum balance
for Schafkopf), so an event never scores a deal itself.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import Enum

from .common import Errors, clean_name
from .inputs import Reader
from .sheet import GAMES, SCHAFKOPF, SKAT, HouseRules, read_rules
from .sheet import game as game_kind

MAX_EVENT_PLAYERS = 400
SKAT_DEFAULT_DEALS = dict(SKAT.series_deals)
SCHAFKOPF_DEFAULT_DEALS = dict(SCHAFKOPF.series_deals)


class Seating(Enum):
    DRAW = "draw"
    RANKING = "ranking"


class PayoutKind(Enum):
    FIXED = "fixed"  # amounts in cents, place by place
    SHARES = "shares"  # percent of the pot, place by place


@dataclass(frozen=True)
class Table:
    number: int  # 1-based; table 1 is the top table when seated by the ranking
    players: tuple[str, ...]  # seat order, clockwise
    first_dealer: str


def table_sizes(game: str, count: int) -> tuple[int, ...]:
    """Tables for ``count`` players, tables of four first.

    Skat: as many tables of four as possible and tables of three only where needed
    (10 → 4+3+3, 11 → 4+4+3); fewer than three players or exactly five cannot all play.
    Schafkopf: tables of four only."""
    e = Errors()
    if 3 not in game_kind(game).event_tables:
        if count < 4 or count % 4:
            short = 4 - count % 4
            if count > 4:
                e.add("players", "Schafkopf braucht Tische zu viert: %(count)s Spieler gehen "
                      "nicht auf (es fehlen %(short)s oder %(fewer)s weniger).",
                      count=count, short=short, fewer=count % 4)  # fmt: skip
            else:
                e.add("players", "Schafkopf braucht Tische zu viert: %(count)s Spieler gehen "
                      "nicht auf (es fehlen %(short)s).", count=count, short=short)  # fmt: skip
            e.raise_if_any()
        return (4,) * (count // 4)
    # 4a + 3b = count with the fewest tables of three: b ≡ −count (mod 4)
    threes = (-count) % 4
    if count < 3 or 3 * threes > count:
        e.add(
            "players",
            "Mit %(count)s Spielern geht es nicht auf: Skat braucht Tische zu dritt oder zu viert (mindestens 3 Spieler, und 5 lassen sich nicht teilen).",
            count=count,
        )
        e.raise_if_any()
    fours = (count - 3 * threes) // 4
    return (4,) * fours + (3,) * threes


def seat(game: str, ordered: Sequence[str]) -> tuple[Table, ...]:
    """Fill the tables in this order: the first four (or three) at table 1, and so on. The
    player in seat 1 deals first, as on a tournament list."""
    sizes = table_sizes(game, len(ordered))
    tables = []
    at = 0
    for i, size in enumerate(sizes, start=1):
        names = tuple(ordered[at : at + size])
        tables.append(Table(i, names, names[0]))
        at += size
    return tuple(tables)


def draw(game: str, players: Sequence[str], seed: int) -> tuple[Table, ...]:
    """Tables and seats drawn at random; the same seed and players give the same tables."""
    table_sizes(game, len(players))  # refuse before drawing
    order = list(players)
    random.Random(seed).shuffle(order)
    return seat(game, order)


def by_ranking(game: str, ranked: Sequence[str]) -> tuple[Table, ...]:
    """The best at table 1: ``ranked`` is the current ranking, best first."""
    return seat(game, ranked)


def deals_for(size: int, deals: Mapping[int, int]) -> int:
    """Deals a table of this size plays in one series."""
    return int(deals.get(size, 0))


# --- Ranking ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    """One table's sheet totals in one series: ``score`` is Seeger-Fabian (Skat) or the
    balance (Schafkopf), ``won``/``lost`` the sheet's own counts."""

    series: int  # 1-based
    players: tuple[str, ...]
    score: Mapping[str, int]
    won: Mapping[str, int]
    lost: Mapping[str, int]


@dataclass(frozen=True)
class Fees:
    entry_cents: int
    lost_game_cents: int

    def owed(self, lost: int) -> int:
        return self.entry_cents + lost * self.lost_game_cents


@dataclass(frozen=True)
class RankRow:
    rank: int
    player: str
    score: int
    won: int
    lost: int
    fees_cents: int
    series: tuple[int, ...]  # score per series, 0 where the player did not play it
    played: tuple[bool, ...]  # per series: seated or not


def rank_event(
    players: Sequence[str], results: Sequence[TableResult], series_count: int, fees: Fees
) -> tuple[RankRow, ...]:
    """Every registered player's score over all tables and series, best first.

    Equal scores share a rank (1, 1, 3). Within equal scores the rows follow the tie-break of
    the tournament list (more games won, then fewer lost), then registration order."""
    index = {p: i for i, p in enumerate(players)}
    score = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    per_series = {p: [0] * series_count for p in players}
    played = {p: [False] * series_count for p in players}
    for t in results:
        for p in t.players:
            if p not in index or not 1 <= t.series <= series_count:
                continue
            s = int(t.score.get(p, 0))
            score[p] += s
            won[p] += int(t.won.get(p, 0))
            lost[p] += int(t.lost.get(p, 0))
            per_series[p][t.series - 1] += s
            played[p][t.series - 1] = True
    order = sorted(players, key=lambda p: (-score[p], -won[p], lost[p], index[p]))
    rows: list[RankRow] = []
    for pos, p in enumerate(order):
        rank = rows[-1].rank if rows and rows[-1].score == score[p] else pos + 1
        rows.append(
            RankRow(
                rank,
                p,
                score[p],
                won[p],
                lost[p],
                fees.owed(lost[p]),
                tuple(per_series[p]),
                tuple(played[p]),
            )  # fmt: skip
        )
    return tuple(rows)


def ranking_order(rows: Sequence[RankRow]) -> tuple[str, ...]:
    """The order for seating by the ranking: the ranking, and after it those who have not
    played yet (late arrivals) in registration order, which is how ``rows`` has them."""
    return tuple(r.player for r in rows if any(r.played)) + tuple(
        r.player for r in rows if not any(r.played)
    )


def fees_total(rows: Sequence[RankRow]) -> int:
    return sum(r.fees_cents for r in rows)


# --- Prize list -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payout:
    """The organiser's scheme: ``values[i]`` is for place i + 1, in cents (fixed) or percent
    of the pot (shares)."""

    kind: PayoutKind
    values: tuple[int, ...]

    def amounts(self, pot_cents: int) -> tuple[int, ...]:
        if self.kind is PayoutKind.FIXED:
            return self.values
        # shares: whole cents, rounded down; what rounding leaves stays in the pot
        return tuple(pot_cents * v // 100 for v in self.values)


@dataclass(frozen=True)
class PrizeRow:
    rank: int
    player: str
    score: int
    cents: int


@dataclass(frozen=True)
class PrizeList:
    rows: tuple[PrizeRow, ...]
    pot_cents: int
    paid_cents: int
    rest_cents: int  # pot − payouts; negative when fixed prizes exceed the pot


def check_payout(kind: str, values: Sequence[int], e: Errors, field: str = "payout") -> None:
    if kind not in ("fixed", "shares"):
        e.add(field, "Auszahlung: fest oder Anteile.")
        return
    if len(values) > 100:
        e.add(field, "Höchstens 100 Preise.")
    if any(v < 0 for v in values):
        e.add(field, "Preise sind nicht negativ.")
    if kind == "shares" and sum(values) > 100:
        e.add(field, "Die Anteile ergeben %(sum)s %%, mehr als der ganze Topf.", sum=sum(values))
    if kind == "fixed" and any(v > 10_000_000 for v in values):
        e.add(field, "Ein Preis ist zu hoch.")


def prize_list(rows: Sequence[RankRow], payout: Payout, pot_cents: int) -> PrizeList:
    """Payouts by place. Players who share a rank share the prizes of the places they hold
    together in equal parts (a cent left over goes to the first of them in the list)."""
    amounts = payout.amounts(pot_cents)
    out: list[PrizeRow] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1].rank == rows[i].rank:
            j += 1
        k = j - i + 1
        total = sum(amounts[i : j + 1])
        each, extra = divmod(total, k)
        for m in range(i, j + 1):
            r = rows[m]
            out.append(PrizeRow(r.rank, r.player, r.score, each + (1 if m - i < extra else 0)))
        i = j + 1
    paid = sum(r.cents for r in out)
    return PrizeList(tuple(out), pot_cents, paid, pot_cents - paid)


# --- A new event ------------------------------------------------------------------------------

MAX_EVENT_NAME = 80
MAX_SERIES_DEALS = 200
MAX_FEE_CENTS = 1_000_000
DEFAULT_PAYOUT = Payout(PayoutKind.SHARES, (50, 30, 20))


@dataclass(frozen=True)
class EventSpec:
    name: str
    day: str  # YYYY-MM-DD
    game: str
    group: int | None
    deals: Mapping[int, int]  # deals per series at a table of four and of three
    rules: HouseRules  # the sheet rules of every table
    fees: Fees
    payout: Payout
    pot_cents: int | None  # None: the pot is the fees collected
    #: two lists per table, compared deal by deal (rules/double_entry.py)
    double_entry: bool = False


def default_deals(game: str) -> dict[int, int]:
    """Deals per series at a table of four and of three, unless the event says otherwise.

    >>> default_deals("skat"), default_deals("schafkopf")
    ({4: 48, 3: 36}, {4: 32, 3: 0})
    """
    return dict(game_kind(game).series_deals)


def normalize_event(data: object, today: str) -> EventSpec:
    """Check a new event as the API sends it (the page builds the same object)."""
    r = Reader(data)
    e = r.errors
    game = r.choice("game", {k: k for k in GAMES})
    raw_name = r.data.get("name")
    r.seen.add("name")
    name = ""
    if raw_name is not None and not isinstance(raw_name, str):
        e.add("name", "Der Name ist Text.")
    elif isinstance(raw_name, str):
        name = clean_name(raw_name)
        if len(name) > MAX_EVENT_NAME:
            e.add("name", "Höchstens %(chars)s Zeichen.", chars=MAX_EVENT_NAME)
    day = today
    raw_day = r.data.get("date")
    r.seen.add("date")
    if raw_day is not None:
        try:
            day = date.fromisoformat(raw_day).isoformat() if isinstance(raw_day, str) else ""
        except ValueError:
            day = ""
        if not day:
            e.add("date", "Datum als JJJJ-MM-TT.")
    group = r.integer("group")
    deals = default_deals(game or "skat")
    raw_deals = r.int_map("deals")
    if raw_deals is not None:
        for key, value in raw_deals.items():
            if key not in ("3", "4"):
                e.add("deals", "Spiele je Serie: „4“ und „3“.")
            elif not 1 <= value <= MAX_SERIES_DEALS:
                e.add(
                    f"deals.{key}",
                    "Spiele je Serie: 1 bis %(max)s.",
                    max=MAX_SERIES_DEALS,
                )
            else:
                deals[int(key)] = value
    if game is not None:
        for size in deals:
            if size not in game_kind(game).event_tables:
                deals[size] = 0  # Schafkopf has no tables of three
    fee_map = r.int_map("fees") or {}
    for key, value in fee_map.items():
        if key not in ("entry_cents", "lost_game_cents"):
            e.add("fees", "Gebühren: entry_cents, lost_game_cents.")  # fmt: skip
        elif not 0 <= value <= MAX_FEE_CENTS:
            e.add(f"fees.{key}", "Gebühr: 0 bis 10000 €.")
    fees = Fees(max(0, fee_map.get("entry_cents", 0)), max(0, fee_map.get("lost_game_cents", 0)))
    rules_in = r.data.get("rules")
    r.seen.add("rules")
    rules = read_rules(game or "skat", rules_in, e if game else Errors())
    payout = read_payout(r.data.get("payout"), e)
    r.seen.add("payout")
    pot = r.integer("pot_cents")
    if pot is not None and not 0 <= pot <= 100 * MAX_FEE_CENTS:
        e.add("pot_cents", "Topf: 0 bis 1000000 €.")
    double_entry = bool(r.boolean("double_entry"))
    r.reject_unknown()
    e.raise_if_any()
    assert game is not None
    if not name:
        name = f"{game_kind(game).label.de} {date.fromisoformat(day):%d.%m.%Y}"
    return EventSpec(name, day, game, group, deals, rules, fees, payout, pot, double_entry)


def read_payout(data: object, e: Errors, field: str = "payout") -> Payout:
    """``{"kind": "fixed"|"shares", "values": [int, ...]}``; missing: 50/30/20 % of the pot."""
    if data is None:
        return DEFAULT_PAYOUT
    r = Reader(data, Errors())
    kind = r.choice("kind", {"fixed": "fixed", "shares": "shares"})
    raw = r.data.get("values")
    r.seen.add("values")
    values: list[int] = []
    if not isinstance(raw, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in raw
    ):
        r.errors.add("values", "Erwartet: eine Liste ganzer Zahlen.")  # fmt: skip
    else:
        values = list(raw)
    r.reject_unknown()
    if kind is not None and not r.errors:
        check_payout(kind, values, r.errors, "values")
    for err in r.errors.items:
        sub = f"{field}.{err.field}" if err.field != "_" else field
        e.items.append(type(err)(sub, err.msg))
    if r.errors or kind is None:
        return DEFAULT_PAYOUT
    return Payout(PayoutKind(kind), tuple(values))
