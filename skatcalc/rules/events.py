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
from typing import Any

from .common import Errors, clean_name, name_key, number, parse_day
from .inputs import Reader
from .ranking import order_key, rank_figure
from .sheet import GAMES, HouseRules, Tallies, read_rules
from .sheet import game as game_kind

MAX_EVENT_PLAYERS = 400


class Seating(Enum):
    DRAW = "draw"
    RANKING = "ranking"
    #: one table of the ranking's best four (docs/rules.md 3a, the final); the last series
    FINAL = "final"


FINAL_TABLE = 4


def final_table(game: str, ranked: Sequence[str]) -> tuple[Table, ...]:
    """The final: the best four of the ranking at one table, the best in seat 1 (he deals
    first).

    >>> final_table("schafkopf", ["E", "B", "H", "A", "C"])
    (Table(number=1, players=('E', 'B', 'H', 'A'), first_dealer='E'),)
    """
    if len(ranked) < FINAL_TABLE:
        e = Errors()
        e.add("seating", "Für ein Finale braucht es vier Spieler in der Wertung.")
        e.raise_if_any()
    names = tuple(ranked[:FINAL_TABLE])
    return (Table(1, names, names[0]),)


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


Pair = frozenset[str]

#: how many swaps a fair draw tries at most (each a handful of set look-ups): the search stays
#: about a second at worst on a shared laptop (40 players in their ninth series)
DRAW_BUDGET = 40_000
DRAW_RESTARTS = 30


def pairs_of(tables: Sequence[Sequence[str]]) -> frozenset[Pair]:
    """Every two players who shared one of these tables.

    >>> sorted(sorted(p) for p in pairs_of([("A", "B", "C")]))
    [['A', 'B'], ['A', 'C'], ['B', 'C']]
    """
    return frozenset(frozenset((a, b)) for t in tables for i, a in enumerate(t) for b in t[i + 1 :])


def repeated_pairs(tables: Sequence[Sequence[str]], met: frozenset[Pair]) -> int:
    """How many pairs at these tables already shared a table (``met``).

    >>> repeated_pairs([("A", "B", "C", "D")], pairs_of([("A", "B", "E", "F")]))
    1
    """
    return sum(1 for pair in pairs_of(tables) if pair in met)


def draw(
    game: str, players: Sequence[str], seed: int, met: frozenset[Pair] = frozenset()
) -> tuple[Table, ...]:
    """Tables and seats drawn at random; the same seed, players and ``met`` give the same
    tables. ``met`` (the pairs who already shared a table in this event, from the second
    series on): no two of them are seated together where that is possible, else as few as a
    bounded search from the seed finds (docs/rules.md 3a).

    >>> first = draw("schafkopf", "ABCDEFGH", 1)
    >>> again = draw("schafkopf", "ABCDEFGH", 7, pairs_of([t.players for t in first]))
    >>> repeated_pairs([t.players for t in again], pairs_of([t.players for t in first]))
    4
    """
    sizes = table_sizes(game, len(players))  # refuse before drawing
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    if met and len(sizes) > 1:
        order = _fewest_repeats(order, sizes, met, rng)
    return seat(game, order)


@dataclass
class _Seats:
    """The seats of a draw: where each table begins, the table of each seat, and whom each
    player has met already."""

    bounds: list[int]
    table_of: list[int]
    partners: dict[str, set[str]]

    @classmethod
    def of(cls, order: list[str], sizes: Sequence[int], met: frozenset[Pair]) -> _Seats:
        bounds = [0]
        for size in sizes:
            bounds.append(bounds[-1] + size)
        partners: dict[str, set[str]] = {p: set() for p in order}
        for pair in met:
            a, b = tuple(pair) if len(pair) == 2 else (next(iter(pair)),) * 2
            if a in partners and b in partners and a != b:
                partners[a].add(b)
                partners[b].add(a)
        return cls(bounds, [t for t, size in enumerate(sizes) for _ in range(size)], partners)

    def clash(self, cur: list[str], i: int, t: int) -> int:
        """How many at table ``t`` ``cur[i]`` has met."""
        mine = self.partners[cur[i]]
        return sum(1 for j in range(self.bounds[t], self.bounds[t + 1])
                   if j != i and cur[j] in mine)  # fmt: skip

    def descend(self, cur: list[str], now: int, budget: int) -> tuple[int, int]:
        """Swap two players of different tables while that lowers the repeats (each seat
        takes the best swap it has); ``cur`` is changed in place. The repeats and the budget
        left."""
        improved = True
        while improved and now > 0 and budget > 0:
            improved = False
            for i in range(len(cur)):
                ti = self.table_of[i]
                here = self.clash(cur, i, ti)
                if not here:
                    continue
                pick, gain = -1, 0
                for j in range(len(cur)):
                    tj = self.table_of[j]
                    if tj == ti:
                        continue
                    budget -= 1
                    before = here + self.clash(cur, j, tj)
                    cur[i], cur[j] = cur[j], cur[i]
                    after = self.clash(cur, i, ti) + self.clash(cur, j, tj)
                    cur[i], cur[j] = cur[j], cur[i]
                    if before - after > gain:
                        pick, gain = j, before - after
                if pick >= 0:
                    cur[i], cur[pick] = cur[pick], cur[i]
                    now -= gain
                    improved = True
                if budget <= 0:
                    break
        return now, budget


def _fewest_repeats(
    order: list[str], sizes: Sequence[int], met: frozenset[Pair], rng: random.Random
) -> list[str]:
    """A seating order with as few repeated pairs as the search finds: from the drawn order
    and from fresh shuffles, swap two players of different tables while that lowers the
    repeats; the first order with the fewest wins (so the seed decides, and the plain draw
    stands when it has none)."""
    seats = _Seats.of(order, sizes, met)
    bounds = seats.bounds

    def cost(cur: list[str]) -> int:
        return repeated_pairs([cur[bounds[t] : bounds[t + 1]] for t in range(len(sizes))], met)

    best, best_cost = list(order), cost(order)
    budget = DRAW_BUDGET
    cur = list(order)
    for _ in range(DRAW_RESTARTS):
        now, budget = seats.descend(cur, cost(cur), budget)
        if now < best_cost:
            best, best_cost = list(cur), now
        if best_cost == 0 or budget <= 0:
            break
        cur = list(order)
        rng.shuffle(cur)
    return best


def by_ranking(game: str, ranked: Sequence[str]) -> tuple[Table, ...]:
    """The best at table 1: ``ranked`` is the current ranking, best first."""
    return seat(game, ranked)


def deals_for(size: int, deals: Mapping[int, int]) -> int:
    """Deals a table of this size plays in one series."""
    return int(deals.get(size, 0))


# --- Paper lists typed at the desk (docs/rules.md 1.12) ----------------------------------------

FOOT_POINTS = 100_000  # a list's Summe beyond this is a typing error, not a series


@dataclass(frozen=True)
class FootLine:
    """One player's foot of a paper list: his Summe and his own games won and lost."""

    points: int
    won: int
    lost: int


@dataclass(frozen=True)
class Foot:
    """A paper list's foot as the desk typed it: a line per seated player, in seat order,
    and the passed deals."""

    lines: Mapping[str, FootLine]
    passed: int

    def to_json(self) -> dict[str, object]:
        return {
            "players": {p: {"points": f.points, "won": f.won, "lost": f.lost}
                        for p, f in self.lines.items()},
            "passed": self.passed,
        }  # fmt: skip

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Foot:
        return Foot(
            {str(p): FootLine(int(f["points"]), int(f["won"]), int(f["lost"]))
             for p, f in data["players"].items()},
            int(data["passed"]),
        )  # fmt: skip


def keeps_foot(game: str, size: int) -> bool:
    """Whether a table of this game and size ranks by a figure a paper list's foot gives
    (Seeger-Fabian: Skat at three and four)."""
    names = ("P1", "P2", "P3", "P4", "P5")[:size]
    zero = dict.fromkeys(names, 0)
    figures = dict(game_kind(game).extra_totals(names, Tallies(zero, zero, zero, zero)))
    return rank_figure(game) in figures


def foot_games(foot: Foot) -> int:
    """The deals a foot accounts for: games won and lost of all players and the passed."""
    return sum(f.won + f.lost for f in foot.lines.values()) + foot.passed


def foot_scores(game: str, foot: Foot) -> dict[str, int]:
    """Each player's score from a paper list's foot, by the game's own tournament figure
    (the same function the phone tables' totals take): Summe + 50 × won − 50 × lost + 40 (at
    three) or 30 (at four) for every game another player lost.

    >>> from skatcalc.rules.sheet import game as _g
    >>> foot = Foot({"Anna": FootLine(412, 6, 1), "Bert": FootLine(-96, 0, 1),
    ...              "Cora": FootLine(0, 0, 0), "Dirk": FootLine(48, 1, 1)}, 0)
    >>> foot_scores("skat", foot)["Anna"]  # docs/rules.md 1.12: 412 + 300 − 50 + 2 × 30
    722
    """
    players = tuple(foot.lines)
    won = {p: f.won for p, f in foot.lines.items()}
    lost = {p: f.lost for p, f in foot.lines.items()}
    total_lost = sum(lost.values())
    tallies = Tallies({p: f.points for p, f in foot.lines.items()}, won, lost,
                      {p: total_lost - lost[p] for p in players})  # fmt: skip
    figures = dict(game_kind(game).extra_totals(players, tallies))
    return dict(figures[rank_figure(game)])


def _foot_int(raw: Mapping[str, object], name: str, low: int, top: int, field: str,
              e: Errors) -> int:  # fmt: skip
    v = raw.get(name)
    if v is None:
        e.add(field, "Dieses Feld fehlt.")
    elif isinstance(v, bool) or not isinstance(v, int):
        e.add(field, "Erwartet: eine ganze Zahl.")
    elif not low <= v <= top:
        e.add(field, "Erlaubt: %(low)s bis %(max)s.", low=number(low), max=number(top))
    else:
        return v
    return 0


def read_foot(data: object, seated: Sequence[str], deals: int, check_sum: bool = True) -> Foot:
    """A paper list's foot from its JSON body, checked as the list's own check sums are:
    every seated player once (names matched as typed names are), ``won``, ``lost`` and
    ``passed`` 0 to the series' deals, ``points`` ±100,000, and the games won and lost of all
    players plus the passed deals make the series' deals at that table (not ``check_sum``:
    the desk's preview while the lines are typed). Raises
    :class:`~skatcalc.rules.common.InvalidDeal` with every error.

    >>> read_foot({"players": {"a": {"points": 0, "won": 1, "lost": 0}}, "passed": 1},
    ...           ["A"], 2).lines
    {'A': FootLine(points=0, won=1, lost=0)}
    """
    r = Reader(data)
    e = r.errors
    raw = r.data.get("players")
    r.seen.update(("players", "passed"))
    passed = _foot_int(r.data, "passed", 0, deals, "passed", e)
    r.reject_unknown()
    by_key = {name_key(p): p for p in seated}
    lines: dict[str, FootLine] = {}
    if not isinstance(raw, Mapping):
        e.add("players", "Erwartet: ein Objekt mit einem Eintrag je Spieler am Tisch.")
        raw = {}
    for typed, entry in raw.items():
        name = by_key.get(name_key(str(typed)))
        if name is None:
            e.add("players", "%(name)s sitzt nicht an diesem Tisch.", name=str(typed)[:60])
            continue
        if name in lines:
            e.add("players", "%(name)s steht zweimal in der Liste.", name=name)
            continue
        field = f"players.{name}"
        if not isinstance(entry, Mapping):
            e.add(field, "Erwartet: ein Objekt mit points, won und lost.")
            continue
        points = _foot_int(entry, "points", -FOOT_POINTS, FOOT_POINTS, f"{field}.points", e)
        won = _foot_int(entry, "won", 0, deals, f"{field}.won", e)
        lost = _foot_int(entry, "lost", 0, deals, f"{field}.lost", e)
        for key in entry:
            if key not in ("points", "won", "lost"):
                e.add(f"{field}.{str(key)[:40]}", "Unbekanntes Feld.")
        lines[name] = FootLine(points, won, lost)
    missing = [p for p in seated if p not in lines]
    if missing and isinstance(r.data.get("players"), Mapping):
        e.add("players", "Es fehlt: %(names)s.", names=", ".join(missing))
    e.raise_if_any()
    games = foot_games(Foot(lines, passed))
    if check_sum and games != deals:
        e.add("passed", "Die Liste hat %(n)s Spiele, die Serie %(deals)s.", n=games, deals=deals)
        e.raise_if_any()
    return Foot({p: lines[p] for p in seated}, passed)


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
class FeeTier:
    """From the ``start``-th lost game of a series on, each lost game costs ``cents``."""

    start: int
    cents: int


@dataclass(frozen=True)
class Fees:
    """The money a player owes: the entry fee once, and per series played the table fee and
    the lost-game money by tiers (``tiers`` empty: one tier of ``lost_game_cents``). The
    team fee is owed once per team (by its first member, who pays it with his entry)."""

    entry_cents: int
    lost_game_cents: int = 0
    tiers: tuple[FeeTier, ...] = ()
    table_cents: int = 0
    team_cents: int = 0

    def ladder(self) -> tuple[FeeTier, ...]:
        return self.tiers or (FeeTier(1, self.lost_game_cents),)

    def lost_money(self, lost: int) -> int:
        """The lost-game money of one series with ``lost`` lost games: the n-th costs the
        cents of the last tier whose start ≤ n."""
        ladder = self.ladder()
        total = 0
        for i, tier in enumerate(ladder):
            last = ladder[i + 1].start - 1 if i + 1 < len(ladder) else lost
            total += max(0, min(lost, last) - tier.start + 1) * tier.cents
        return total

    def series_cents(self, lost: int) -> int:
        """What one series played costs: the table fee and its lost-game money."""
        return self.table_cents + self.lost_money(lost)


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
    won_series: tuple[int, ...] = ()  # per series, games won and lost
    lost_series: tuple[int, ...] = ()
    fees_series: tuple[int, ...] = ()  # per series: table fee and lost-game money, 0 unplayed
    penalty: int = 0  # penalty points, already taken off ``score`` and ``series``


@dataclass(frozen=True)
class Penalty:
    """Penalty points the organiser gave a player for one series (1–1000), with the reason:
    they come off his score of that series."""

    player: str
    series: int  # 1-based
    points: int
    reason: str = ""


MAX_PENALTY = 1000


def rank_event(
    players: Sequence[str], results: Sequence[TableResult], series_count: int, fees: Fees,
    final: int | None = None, penalties: Sequence[Penalty] = (),
) -> tuple[RankRow, ...]:  # fmt: skip
    """Every registered player's score over all tables and series, best first.

    Equal scores share a rank (1, 1, 3). Within equal scores the rows follow the tie-break of
    the tournament list (more games won, then fewer lost), then registration order.

    ``final`` is the number of the final series (:attr:`Seating.FINAL`), if one was seated:
    its players take the first places, ordered by the final's points, then by their rank
    before the final (score, won, lost); their score stays the sum of every series. Everyone
    else follows in the order of his score (docs/rules.md 3a).

    ``penalties`` come off the player's score of their series before anything is ranked.

    >>> t = TableResult(1, ("A", "B", "C"), {"A": 100, "B": 90, "C": 0}, {}, {})
    >>> rows = rank_event("ABC", [t], 1, Fees(0), penalties=[Penalty("A", 1, 20, "late")])
    >>> [(r.player, r.score, r.series, r.penalty) for r in rows][:2]
    [('B', 90, (90,), 0), ('A', 80, (80,), 20)]

    >>> pre = [TableResult(1, ("A", "B", "C", "D"), {"A": 9, "B": 3, "C": -4, "D": -8},
    ...                    {}, {}),
    ...        TableResult(1, ("E", "F", "G", "H"), {"E": 20, "F": 0, "G": -6, "H": -14},
    ...                    {}, {})]
    >>> fin = TableResult(2, ("E", "A", "B", "F"), {"E": -6, "A": 2, "B": 2, "F": 2}, {}, {})
    >>> rows = rank_event("ABCDEFGH", [*pre, fin], 2, Fees(0), final=2)
    >>> [(r.rank, r.player, r.score) for r in rows][:6]
    [(1, 'A', 11), (2, 'B', 5), (3, 'F', 2), (4, 'E', 14), (5, 'C', -4), (6, 'G', -6)]
    """
    index = {p: i for i, p in enumerate(players)}
    t = _series_tally(players, results, series_count, penalties)
    order = sorted(players, key=lambda p: (*order_key(t.score[p], t.won[p], t.lost[p]), index[p]))
    tie: dict[str, tuple[int, ...]] = {p: (0, t.score[p]) for p in players}
    if final is not None and 1 <= final <= series_count:
        finalists, final_tie = _final_first(players, t, final - 1, index)
        order = finalists + [p for p in order if p not in set(finalists)]
        tie.update(final_tie)
    rows: list[RankRow] = []
    for pos, p in enumerate(order):
        rank = rows[-1].rank if rows and tie[rows[-1].player] == tie[p] else pos + 1
        # tiers count the lost games of each series afresh
        per_fee = tuple(fees.series_cents(n) if seated else 0
                        for n, seated in zip(t.lost_s[p], t.played[p], strict=True))  # fmt: skip
        rows.append(RankRow(rank, p, t.score[p], t.won[p], t.lost[p],
                            fees.entry_cents + sum(per_fee), tuple(t.per_series[p]),
                            tuple(t.played[p]), tuple(t.won_s[p]), tuple(t.lost_s[p]), per_fee,
                            t.penalty[p]))  # fmt: skip
    return tuple(rows)


@dataclass
class _SeriesTally:
    """Every player's score, games won and lost, in all and per series, and penalties."""

    score: dict[str, int]
    won: dict[str, int]
    lost: dict[str, int]
    per_series: dict[str, list[int]]
    won_s: dict[str, list[int]]
    lost_s: dict[str, list[int]]
    played: dict[str, list[bool]]
    penalty: dict[str, int]


def _series_tally(players: Sequence[str], results: Sequence[TableResult], series_count: int,
                  penalties: Sequence[Penalty]) -> _SeriesTally:  # fmt: skip
    """The tables' results added up per player and series, the penalties taken off."""
    t = _SeriesTally(
        dict.fromkeys(players, 0), dict.fromkeys(players, 0), dict.fromkeys(players, 0),
        {p: [0] * series_count for p in players}, {p: [0] * series_count for p in players},
        {p: [0] * series_count for p in players}, {p: [False] * series_count for p in players},
        dict.fromkeys(players, 0),
    )  # fmt: skip
    for r in results:
        for p in r.players:
            if p not in t.score or not 1 <= r.series <= series_count:
                continue
            s, i = int(r.score.get(p, 0)), r.series - 1
            t.score[p] += s
            t.won[p] += int(r.won.get(p, 0))
            t.lost[p] += int(r.lost.get(p, 0))
            t.per_series[p][i] += s
            t.won_s[p][i] += int(r.won.get(p, 0))
            t.lost_s[p][i] += int(r.lost.get(p, 0))
            t.played[p][i] = True
    for pen in penalties:
        if pen.player in t.score and 1 <= pen.series <= series_count:
            t.score[pen.player] -= pen.points
            t.per_series[pen.player][pen.series - 1] -= pen.points
            t.penalty[pen.player] += pen.points
    return t


def _final_first(players: Sequence[str], t: _SeriesTally, f: int, index: Mapping[str, int]
                 ) -> tuple[list[str], dict[str, tuple[int, ...]]]:  # fmt: skip
    """The final's players in their order (the final's points, then their rank before it)
    and what ties them (docs/rules.md 3a)."""

    def before(p: str) -> tuple[int, int, int]:
        return order_key(t.score[p] - t.per_series[p][f], t.won[p] - t.won_s[p][f],
                         t.lost[p] - t.lost_s[p][f])  # fmt: skip

    finalists = sorted((p for p in players if t.played[p][f]),
                       key=lambda p: (-t.per_series[p][f], *before(p), index[p]))  # fmt: skip
    return finalists, {p: (1, t.per_series[p][f], *before(p)) for p in finalists}


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
    of the pot (shares), or a goods prize named by a text ("Gans"), worth no money."""

    kind: PayoutKind
    values: tuple[int | str, ...]
    places: int | None = None  # so many prizes; the last value repeats for the places after
    per_players: int | None = None  # one prize per so many players (rounded up)

    def count(self, field: int) -> int:
        """How many prizes a field of ``field`` players (or teams) gets."""
        if self.places is not None:
            return self.places
        if self.per_players:
            return -(-field // self.per_players)
        return len(self.values)

    def spread(self, field: int | None = None) -> tuple[int | str, ...]:
        """The value of each place paid: the last value repeats for the places after it."""
        k = len(self.values) if field is None else self.count(field)
        return self.values[:k] + self.values[-1:] * max(0, k - len(self.values))

    def amounts(self, pot_cents: int, field: int | None = None) -> tuple[int, ...]:
        """The money of each place paid: a goods prize is worth 0 cents (never money).

        >>> Payout(PayoutKind.SHARES, (50, "Gans", 20)).amounts(1000)
        (500, 0, 200)
        """
        values = tuple(v if isinstance(v, int) else 0 for v in self.spread(field))
        if self.kind is PayoutKind.FIXED:
            return values
        # shares: whole cents, rounded down; what rounding leaves stays in the pot
        return tuple(pot_cents * v // 100 for v in values)

    def goods(self, field: int | None = None) -> tuple[str | None, ...]:
        """The goods prize of each place paid, None where the place is paid in money."""
        return tuple(v if isinstance(v, str) else None for v in self.spread(field))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind.value, "values": list(self.values)}
        if self.places is not None:
            out["places"] = self.places
        if self.per_players is not None:
            out["per_players"] = self.per_players
        return out

    @staticmethod
    def from_json(data: Mapping[str, object]) -> Payout:
        """From the stored JSON, which :func:`read_payout` has checked."""
        values = data.get("values")
        places, per = data.get("places"), data.get("per_players")
        return Payout(PayoutKind(str(data["kind"])),
                      tuple(v if isinstance(v, str) else int(v) for v in values)
                      if isinstance(values, list) else (),
                      places if isinstance(places, int) else None,
                      per if isinstance(per, int) else None)  # fmt: skip


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


MAX_GOODS_NAME = 40


def check_payout(kind: str, values: Sequence[int | str], e: Errors, field: str = "payout") -> None:
    """The values of a payout: money (whole cents or percent) or a goods prize's name, which
    counts for nothing in the sums."""
    if kind not in ("fixed", "shares"):
        e.add(field, "Auszahlung: fest oder Anteile.")
        return
    if len(values) > 100:
        e.add(field, "Höchstens 100 Preise.")
    goods = [clean_name(v) for v in values if isinstance(v, str)]
    if any(not g or len(g) > MAX_GOODS_NAME for g in goods):
        e.add(field, "Ein Sachpreis hat einen Namen von 1 bis %(n)s Zeichen.", n=MAX_GOODS_NAME)
    elif any(not g.isprintable() or not any(c.isalpha() for c in g) or "/" in g for g in goods):
        # the page separates the prizes by "/" and tells a goods prize by its letters
        e.add(field, "Ein Sachpreis ist ein Name mit Buchstaben, ohne „/“ (z. B. Gans).")
    money = [v for v in values if isinstance(v, int)]
    if any(v < 0 for v in money):
        e.add(field, "Preise sind nicht negativ.")
    if kind == "shares" and sum(money) > 100:
        e.add(field, "Die Anteile ergeben %(sum)s %%, mehr als der ganze Topf.", sum=sum(money))
    if kind == "fixed" and any(v > 10_000_000 for v in money):
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


# --- Prize plans: overall, per series, per category, teams ------------------------------------


class PrizeKind(Enum):
    OVERALL = "overall"
    SERIES = "series"
    CATEGORY = "category"
    TEAM = "team"


@dataclass(frozen=True)
class Team:
    name: str
    members: tuple[str, ...]  # two (a tandem) or four players


@dataclass(frozen=True)
class PrizePlan:
    """Every payout of an event. A player takes one prize only, the first in this order:
    overall, then the series (in their order), then his category; the next in line moves up.
    Team prizes go to teams and stand beside a member's own prize."""

    payout: Payout
    series_prizes: Payout | None = None
    categories: tuple[str, ...] = ()
    category_prizes: Payout | None = None
    teams: tuple[Team, ...] = ()
    team_payout: Payout | None = None


@dataclass(frozen=True)
class Prize:
    kind: PrizeKind
    place: int  # the rank within its own list (equal scores share it)
    winner: str  # a player, or a team's name
    score: int
    cents: int
    series: int | None = None
    category: str | None = None
    members: tuple[str, ...] = ()
    goods: str | None = None  # a goods prize ("Gans") instead of money: cents is 0


@dataclass(frozen=True)
class Prizes:
    prizes: tuple[Prize, ...]
    pot_cents: int
    paid_cents: int
    rest_cents: int  # pot − payouts; negative when fixed prizes exceed the pot

    def cents_of(self, player: str) -> int:
        """A player's own prize (overall, series or category; team prizes not counted)."""
        return sum(p.cents for p in self.prizes if p.kind is not PrizeKind.TEAM
                   and p.winner == player)  # fmt: skip

    def goods_of(self, player: str) -> str | None:
        """A player's own goods prize, if his prize is one (team prizes not counted)."""
        return next((p.goods for p in self.prizes if p.kind is not PrizeKind.TEAM
                     and p.winner == player and p.goods), None)  # fmt: skip


@dataclass(frozen=True)
class _Entry:
    name: str
    score: int


def _pay(
    entries: Sequence[_Entry], payout: Payout, field: int, pot_cents: int, budget: list[int]
) -> list[tuple[int, _Entry, int, str | None]]:
    """(place, entry, cents, goods) for the winners of one list, best first: equal scores
    share the money of the places they hold together in equal parts (a cent over goes to the
    first of them); a goods prize cannot be shared, so each of them takes the goods of his own
    position in the list, in the list's order. Shares are capped by what is left in the pot
    (``budget[0]``), so shares never pay out more; goods take nothing from it."""
    amounts = payout.amounts(pot_cents, field)
    goods = payout.goods(field)
    out: list[tuple[int, _Entry, int, str | None]] = []
    i = 0
    while i < len(entries) and i < len(amounts):
        j = i
        while j + 1 < len(entries) and entries[j + 1].score == entries[i].score:
            j += 1
        total = sum(amounts[i : j + 1])
        if payout.kind is PayoutKind.SHARES:
            total = max(0, min(total, budget[0]))
        budget[0] -= total
        k = j - i + 1
        each, extra = divmod(total, k)
        for m in range(i, j + 1):
            out.append(
                (
                    i + 1,
                    entries[m],
                    each + (1 if m - i < extra else 0),
                    goods[m] if m < len(goods) else None,
                )
            )
        i = j + 1
    return out


def team_scores(rows: Sequence[RankRow], teams: Sequence[Team]) -> tuple[tuple[Team, int], ...]:
    """Each team with the sum of its members' scores, best first (equal sums: as listed)."""
    score = {r.player: r.score for r in rows}
    scored = [(t, sum(score.get(m, 0) for m in t.members)) for t in teams]
    return tuple(sorted(scored, key=lambda ts: -ts[1]))


def award(
    rows: Sequence[RankRow], plan: PrizePlan, pot_cents: int, category_of: Mapping[str, str]
) -> Prizes:
    """Every prize of the plan over the ranking ``rows`` (best first, as rank_event gives)."""
    budget = [pot_cents]
    prizes: list[Prize] = []
    taken: set[str] = set()
    field = sum(1 for r in rows if any(r.played)) or len(rows)
    overall = [_Entry(r.player, r.score) for r in rows]
    for place, entry, cents, goods in _pay(overall, plan.payout, field, pot_cents, budget):
        prizes.append(Prize(PrizeKind.OVERALL, place, entry.name, entry.score, cents,
                            goods=goods))  # fmt: skip
        taken.add(entry.name)
    if plan.series_prizes is not None:
        n_series = len(rows[0].series) if rows else 0
        index = {r.player: i for i, r in enumerate(rows)}
        for s in range(n_series):
            seated = [r for r in rows if r.played[s]]
            # the series' own list: its score, then more won, fewer lost, as the ranking
            seated.sort(key=lambda r: (*order_key(r.series[s], _at(r.won_series, s),
                                                  _at(r.lost_series, s)), index[r.player]))  # fmt: skip
            free = [_Entry(r.player, r.series[s]) for r in seated if r.player not in taken]
            for place, entry, cents, goods in _pay(free, plan.series_prizes, len(seated),
                                                   pot_cents, budget):  # fmt: skip
                prizes.append(Prize(PrizeKind.SERIES, place, entry.name, entry.score, cents,
                                    series=s + 1, goods=goods))  # fmt: skip
                taken.add(entry.name)
    if plan.category_prizes is not None:
        for cat in plan.categories:
            members = [r for r in rows if category_of.get(r.player) == cat and any(r.played)]
            free = [_Entry(r.player, r.score) for r in members if r.player not in taken]
            for place, entry, cents, goods in _pay(free, plan.category_prizes, len(members),
                                                   pot_cents, budget):  # fmt: skip
                prizes.append(Prize(PrizeKind.CATEGORY, place, entry.name, entry.score, cents,
                                    category=cat, goods=goods))  # fmt: skip
                taken.add(entry.name)
    if plan.team_payout is not None and plan.teams:
        scored = team_scores(rows, plan.teams)
        teams = {t.name: t for t, _ in scored}
        entries = [_Entry(t.name, s) for t, s in scored]
        for place, entry, cents, goods in _pay(entries, plan.team_payout, len(entries),
                                               pot_cents, budget):  # fmt: skip
            prizes.append(Prize(PrizeKind.TEAM, place, entry.name, entry.score, cents,
                                members=teams[entry.name].members, goods=goods))  # fmt: skip
    paid = sum(p.cents for p in prizes)
    return Prizes(tuple(prizes), pot_cents, paid, pot_cents - paid)


def _at(values: tuple[int, ...], i: int) -> int:
    return values[i] if i < len(values) else 0


# --- The cash check ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CashItem:
    series: int  # 0: the entry fee (and the team fee of a team's first member)
    due_cents: int
    paid_cents: int | None  # what was collected when it was ticked; None: not ticked


@dataclass(frozen=True)
class CashRow:
    player: str
    items: tuple[CashItem, ...]
    due_cents: int
    paid_cents: int

    @property
    def open_cents(self) -> int:
        return self.due_cents - self.paid_cents


@dataclass(frozen=True)
class CashCheck:
    rows: tuple[CashRow, ...]
    due_cents: int
    paid_cents: int

    @property
    def open_cents(self) -> int:
        return self.due_cents - self.paid_cents


def team_fee_payers(fees: Fees, teams: Sequence[Team]) -> dict[str, int]:
    """The team fee each player owes: a team's first member pays it for the team."""
    out: dict[str, int] = {}
    for t in teams:
        if t.members and fees.team_cents:
            out[t.members[0]] = out.get(t.members[0], 0) + fees.team_cents
    return out


def cash_check(
    rows: Sequence[RankRow], fees: Fees, teams: Sequence[Team],
    paid: Mapping[tuple[str, int], int],
) -> CashCheck:  # fmt: skip
    """Due and collected per player, item by item: the entry fee, then each series played.
    ``paid`` holds the cents collected per (player, series) ticked; a tick keeps what was due
    when it was set, so a later correction of a list shows up as a difference."""
    team_fee = team_fee_payers(fees, teams)
    out: list[CashRow] = []
    for r in rows:
        items = [CashItem(0, fees.entry_cents + team_fee.get(r.player, 0), paid.get((r.player, 0)))]
        for s, seated in enumerate(r.played, start=1):
            if seated or (r.player, s) in paid:
                items.append(CashItem(s, _at(r.fees_series, s - 1), paid.get((r.player, s))))
        due = sum(i.due_cents for i in items)
        got = sum(i.paid_cents or 0 for i in items)
        out.append(CashRow(r.player, tuple(items), due, got))
    return CashCheck(tuple(out), sum(c.due_cents for c in out), sum(c.paid_cents for c in out))


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
    series_prizes: Payout | None = None
    categories: tuple[str, ...] = ()
    category_prizes: Payout | None = None
    teams: tuple[Team, ...] = ()
    team_payout: Payout | None = None

    #: two lists per table, compared deal by deal (rules/double_entry.py)
    double_entry: bool = False
    #: a Schafkopf tournament's point scale (docs/rules.md 2.8), None: money (tariffs); the
    #: scale also stands in ``rules`` (every table's sheet counts by it)
    scale: Mapping[str, object] | None = None

    def plan(self) -> PrizePlan:
        return PrizePlan(self.payout, self.series_prizes, self.categories,
                         self.category_prizes, self.teams, self.team_payout)  # fmt: skip


def default_deals(game: str) -> dict[int, int]:
    """Deals per series at a table of four and of three, unless the event says otherwise.

    >>> default_deals("skat"), default_deals("schafkopf")
    ({4: 48, 3: 36}, {4: 32, 3: 0})
    """
    return dict(game_kind(game).series_deals)


def check_series_deals(game: str, deals: Mapping[int, int], e: Errors) -> None:
    """A series' deals per table size that let every player of a table deal equally often,
    where the game asks it (Skat: 48 at four, 36 at three); a message on ``deals.<size>``
    otherwise. Schafkopf tournaments play 20, 30 or 32 games a round: no such rule.

    >>> e = Errors(); check_series_deals("skat", {4: 50, 3: 30}, e); [(i.field, i.msg.de) for i in e.items]
    [('deals.4', 'Bei 4 Spielern am Tisch muss die Serie durch 4 teilbar sein (z. B. 48 oder 52).')]
    >>> e = Errors(); check_series_deals("schafkopf", {4: 30}, e); e.items
    []
    """
    if not game_kind(game).deal_equally:
        return
    for size, value in sorted(deals.items(), reverse=True):
        if size > 0 and value % size:
            below = value - value % size
            e.add(f"deals.{size}",
                  "Bei %(size)s Spielern am Tisch muss die Serie durch %(size)s teilbar sein "
                  "(z. B. %(below)s oder %(above)s).",
                  size=size, below=below or size, above=below + size if below else 2 * size)  # fmt: skip


def _event_name(r: Reader) -> str:
    """The event's name, cleaned ("" when none is given: the game and the day name it)."""
    raw_name = r.data.get("name")
    r.seen.add("name")
    if raw_name is not None and not isinstance(raw_name, str):
        r.errors.add("name", "Der Name ist Text.")
        return ""
    name = clean_name(raw_name) if isinstance(raw_name, str) else ""
    if len(name) > MAX_EVENT_NAME:
        r.errors.add("name", "Höchstens %(chars)s Zeichen.", chars=MAX_EVENT_NAME)
    return name


def _event_day(r: Reader, today: str) -> str:
    """The event's day (YYYY-MM-DD), today when none is given."""
    raw_day = r.data.get("date")
    r.seen.add("date")
    if raw_day is None:
        return today
    try:
        day = parse_day(raw_day).isoformat() if isinstance(raw_day, str) else ""
    except ValueError:
        day = ""
    if not day:
        r.errors.add("date", "Datum als JJJJ-MM-TT.")
    return day


def _event_deals(r: Reader, game: str | None) -> dict[int, int]:
    """The deals of a series per table size, the game's by default; 0 for a size the game
    does not seat."""
    e = r.errors
    # an unknown game is refused by the caller; its deals are read as the first game's
    deals = default_deals(game or next(iter(GAMES)))
    raw_deals = r.int_map("deals")
    if raw_deals is not None:
        for key, value in raw_deals.items():
            if key not in ("3", "4"):
                e.add("deals", "Spiele je Serie: „4“ und „3“.")
            elif not 1 <= value <= MAX_SERIES_DEALS:
                e.add(f"deals.{key}", "Spiele je Serie: 1 bis %(max)s.", max=MAX_SERIES_DEALS)
            else:
                deals[int(key)] = value
    if game is not None:
        for size in deals:
            if size not in game_kind(game).event_tables:
                deals[size] = 0  # Schafkopf has no tables of three
        if raw_deals is not None:
            check_series_deals(game, {int(k): deals[int(k)] for k in raw_deals
                                      if k in ("3", "4") and int(k) in deals}, e)  # fmt: skip
    return deals


def normalize_event(data: object, today: str) -> EventSpec:
    """Check a new event as the API sends it (the page builds the same object)."""
    r = Reader(data)
    e = r.errors
    game = r.choice("game", {k: k for k in GAMES})
    name = _event_name(r)
    day = _event_day(r, today)
    group = r.integer("group")
    deals = _event_deals(r, game)
    fees = read_fees(r.data.get("fees"), e)
    r.seen.add("fees")
    rules_in = r.data.get("rules")
    r.seen.add("rules")
    scale = read_scoring(r.data.get("scoring"), game, e)
    r.seen.add("scoring")
    if scale is not None and isinstance(rules_in, Mapping | None):
        # every table counts points on the scale; points are not money: no stake unless set
        rules_in = {"stake_cents": 0, **(rules_in or {}), "scale": scale}
    # an unknown game is refused above; the rules are still read as the first game's
    rules = read_rules(game or next(iter(GAMES)), rules_in, e if game else Errors())
    payout = read_payout(r.data.get("payout"), e)
    r.seen.add("payout")
    pot = r.integer("pot_cents")
    if pot is not None and not 0 <= pot <= 100 * MAX_FEE_CENTS:
        e.add("pot_cents", "Topf: 0 bis 1000000 €.")
    extra = read_prize_plan(r, e)
    double_entry = bool(r.boolean("double_entry"))
    r.reject_unknown()
    e.raise_if_any()
    assert game is not None
    if not name:
        name = f"{game_kind(game).label.de} {date.fromisoformat(day):%d.%m.%Y}"
    return EventSpec(name, day, game, group, deals, rules, fees, payout, pot, *extra,
                     double_entry=double_entry, scale=scale)  # fmt: skip


class ScoringKind(Enum):
    """How an event counts: the tables' zero-sum balance in money (tariffs in cents), or
    tournament points on the game's scale (docs/rules.md 2.8)."""

    MONEY = "money"
    POINTS = "points"


def read_scoring(data: object, game: str | None, e: Errors) -> Mapping[str, object] | None:
    """``{"kind": "money"}`` (the default) or ``{"kind": "points", "preset": name, "scale":
    {...}}`` (a Schafkopf tournament, docs/rules.md 2.8: the preset's figures, ``default``
    unless named, each overridden by ``scale``)."""
    if data is None:
        return None
    if not isinstance(data, Mapping) or set(data) - {"kind", "preset", "scale"}:
        e.add("scoring", 'Wertung: {"kind": "money"} oder {"kind": "points", "preset": …, '
              '"scale": {…}}.')  # fmt: skip
        return None
    kind = data.get("kind", ScoringKind.MONEY.value)
    if not isinstance(kind, str) or kind not in {k.value for k in ScoringKind}:
        e.add("scoring.kind", "Wertung: money oder points.")
        return None
    if kind == ScoringKind.MONEY.value:
        if data.get("scale") is not None:
            e.add("scoring.scale", "Eine Punkteskala nur mit „kind“: „points“.")
        if data.get("preset") is not None:
            e.add("scoring.preset", "Eine Vorlage nur mit „kind“: „points“.")
        return None
    if game is None:
        return None
    kind_of = game_kind(game)
    preset = data.get("preset")
    scale = data.get("scale")
    if preset is not None and kind_of.has_point_scale:
        if preset not in kind_of.point_presets:
            e.add("scoring.preset", "Vorlagen: %(names)s.", names=", ".join(kind_of.point_presets))
            return None
        if scale is not None and not isinstance(scale, Mapping):
            e.add("scoring.scale", 'Die Wertung: ein Objekt wie {"rufspiel": {"plain": 1}}.')
            return None
        if isinstance(scale, Mapping) and scale.get("preset", preset) != preset:
            e.add("scoring.scale.preset", "Die Vorlage steht in „preset“: eine genügt.")
            return None
        scale = {**(scale or {}), "preset": preset}
    return kind_of.read_point_scale(scale, e, "scoring.scale")


def _whole(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def read_fees(data: object, e: Errors) -> Fees:
    """``{"entry_cents", "lost_game_cents" | "lost_game_tiers", "table_cents", "team_cents"}``,
    whole cents from 0; the tiers ascend from the first lost game: ``[{"from": 1, "cents":
    50}, {"from": 4, "cents": 100}]``."""
    if data is None:
        return Fees(0, 0)
    if not isinstance(data, Mapping):
        e.add("fees", "Erwartet: ein Objekt mit ganzen Zahlen.")
        return Fees(0, 0)
    money: dict[str, int] = {}
    for key, value in data.items():
        if key == "lost_game_tiers":
            continue
        if key not in ("entry_cents", "lost_game_cents", "table_cents", "team_cents"):
            e.add("fees", "Gebühren: entry_cents, lost_game_cents, lost_game_tiers, table_cents, team_cents.")  # fmt: skip
        elif not _whole(value):
            e.add(f"fees.{key}", "Gebühr: ganze Cent, 0 bis 10000 €.")
        elif not 0 <= value <= MAX_FEE_CENTS:
            e.add(f"fees.{key}", "Gebühr: 0 bis 10000 €.")
        else:
            money[key] = value
    tiers: list[FeeTier] = []
    raw = data.get("lost_game_tiers")
    if raw is not None:
        field = "fees.lost_game_tiers"
        ok = isinstance(raw, list) and 0 < len(raw) <= 50
        for t in raw if ok and isinstance(raw, list) else []:
            if (not isinstance(t, Mapping) or set(t) != {"from", "cents"}
                    or not _whole(t["from"]) or not _whole(t["cents"])
                    or not 0 <= t["cents"] <= MAX_FEE_CENTS):  # fmt: skip
                ok = False
                break
            tiers.append(FeeTier(t["from"], t["cents"]))
        starts = [t.start for t in tiers]
        if not ok:
            e.add(field, 'Stufen: eine Liste wie [{"from": 1, "cents": 50}, {"from": 4, '
                  '"cents": 100}], ganze Cent ab 0.')  # fmt: skip
        elif starts[0] != 1 or any(b <= a for a, b in zip(starts, starts[1:], strict=False)):
            e.add(field, "Die Stufen beginnen beim 1. verlorenen Spiel und steigen an.")
        if "lost_game_cents" in data:
            e.add(field, "Entweder lost_game_cents oder lost_game_tiers.")
    first = tiers[0].cents if tiers else money.get("lost_game_cents", 0)
    return Fees(money.get("entry_cents", 0), first, tuple(tiers) if len(tiers) > 1 else (),
                money.get("table_cents", 0), money.get("team_cents", 0))  # fmt: skip


MAX_CATEGORIES = 20
MAX_TEAMS = 200


def read_optional_payout(r: Reader, name: str) -> Payout | None:
    raw = r.data.get(name)
    r.seen.add(name)
    return None if raw is None else read_payout(raw, r.errors, name)


def read_categories(raw: object, e: Errors) -> tuple[str, ...]:
    if raw is None:
        return ()
    if (not isinstance(raw, list) or not all(isinstance(c, str) and c.strip() for c in raw)
            or len(raw) > MAX_CATEGORIES):  # fmt: skip
        e.add("categories", "Kategorien: eine Liste von Namen, höchstens %(max)s.",
              max=MAX_CATEGORIES)  # fmt: skip
        return ()
    cats = tuple(" ".join(c.split()) for c in raw)
    if len(set(cats)) < len(cats) or any(len(c) > 40 for c in cats):
        e.add("categories", "Jede Kategorie einmal, höchstens 40 Zeichen.")
        return ()
    return cats


def read_teams(raw: object, e: Errors) -> tuple[Team, ...]:
    """``[{"name": "…", "members": ["…", "…"]}]``: two (a tandem) or four players, each
    player in one team only."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > MAX_TEAMS:
        e.add("teams", 'Mannschaften: eine Liste wie [{"name": "…", "members": ["…", "…"]}].')
        return ()
    teams: list[Team] = []
    seen: set[str] = set()
    for i, t in enumerate(raw):
        name = t.get("name") if isinstance(t, Mapping) else None
        members = t.get("members") if isinstance(t, Mapping) else None
        if (not isinstance(t, Mapping) or set(t) != {"name", "members"}
                or not isinstance(name, str) or not name.strip() or len(name) > 60
                or not isinstance(members, list)
                or not all(isinstance(m, str) and m.strip() for m in members)):  # fmt: skip
            e.add(f"teams.{i}", 'Eine Mannschaft: {"name": "…", "members": ["…", "…"]}.')
            continue
        names = tuple(" ".join(m.split()) for m in members)
        if len(names) not in (2, 4) or len({n.casefold() for n in names}) < len(names):
            e.add(f"teams.{i}.members", "Eine Mannschaft hat 2 (Tandem) oder 4 Spieler.")
            continue
        twice = [n for n in names if n.casefold() in seen]
        if twice:
            e.add(f"teams.{i}.members", "%(name)s spielt schon in einer anderen Mannschaft.",
                  name=twice[0])  # fmt: skip
            continue
        seen.update(n.casefold() for n in names)
        teams.append(Team(" ".join(name.split()), names))
    if len({t.name.casefold() for t in teams}) < len(teams):
        e.add("teams", "Jede Mannschaft braucht ihren eigenen Namen.")
    return tuple(teams)


def read_prize_plan(r: Reader, e: Errors) -> tuple[
    Payout | None, tuple[str, ...], Payout | None, tuple[Team, ...], Payout | None
]:  # fmt: skip
    """The plan's parts beside the overall payout: series prizes, categories and their
    prizes, teams and their payout (each optional)."""
    series = read_optional_payout(r, "series_prizes")
    r.seen.add("categories")
    cats = read_categories(r.data.get("categories"), e)
    category = read_optional_payout(r, "category_prizes")
    if category is not None and not cats and not e.has("categories"):
        e.add("category_prizes", "Kategoriepreise brauchen „categories“.")
    r.seen.add("teams")
    teams = read_teams(r.data.get("teams"), e)
    team = read_optional_payout(r, "team_payout")
    return series, cats, category, teams, team


def read_payout(data: object, e: Errors, field: str = "payout") -> Payout:
    """``{"kind": "fixed"|"shares", "values": [int | str, ...]}`` (a text is a goods prize,
    "Gans") and at most one of ``"places"``
    (so many prizes) or ``"per_players"`` (one prize per so many players); the last value
    repeats for the places after it. Missing: 50/30/20 % of the pot."""
    if data is None:
        return DEFAULT_PAYOUT
    r = Reader(data, Errors())
    kind = r.choice("kind", {"fixed": "fixed", "shares": "shares"})
    raw = r.data.get("values")
    r.seen.add("values")
    values: list[int | str] = []
    if not isinstance(raw, list) or not all(
        isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)) for v in raw
    ):
        r.errors.add("values", "Erwartet: eine Liste ganzer Zahlen oder Sachpreise (Text).")
    else:
        # a goods prize is kept as the one name rule has it
        values = [clean_name(v) if isinstance(v, str) else v for v in raw]
    places = r.integer("places")
    per = r.integer("per_players")
    if places is not None and per is not None:
        r.errors.add("places", "Entweder places oder per_players.")
    if places is not None and not 1 <= places <= 1000:
        r.errors.add("places", "Preise: 1 bis 1000.")
    if per is not None and not 1 <= per <= 1000:
        r.errors.add("per_players", "Ein Preis je 1 bis 1000 Spieler.")
    if (places is not None or per is not None) and not values:
        r.errors.add("values", "Bitte mindestens einen Betrag.")
    r.reject_unknown()
    if kind is not None and not r.errors:
        check_payout(kind, values, r.errors, "values")
        if kind == "shares" and places is not None and not r.errors:
            spread = Payout(PayoutKind.SHARES, tuple(values), places).amounts(100, 0)
            if sum(spread) > 100:
                r.errors.add("places", "Die Anteile ergeben %(sum)s %%, mehr als der ganze Topf.",
                             sum=sum(spread))  # fmt: skip
    for err in r.errors.items:
        sub = f"{field}.{err.field}" if err.field != "_" else field
        e.items.append(type(err)(sub, err.msg))
    if r.errors or kind is None:
        return DEFAULT_PAYOUT
    return Payout(PayoutKind(kind), tuple(values), places, per)
