"""Double entry: two lists kept for one table, compared deal by deal (docs/rules.md Part 3a).

Each list is an ordinary sheet; what is compared is each deal's computed row (its list
entries and zero-sum figures per player), never the raw input, so two phones that typed the
same game differently but reached the same figures agree. Deals are matched by their place
among the live (not struck) deals: "Spiel 3" is the third deal that counts on each list.
The ranking counts a deal once both lists have it and agree, with list A's figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .common import Msg, number
from .ranking import rank_figure
from .sheet import Row, Tallies
from .sheet import game as game_kind


@dataclass(frozen=True)
class Difference:
    """Deal ``n`` (its place among the live deals) reads differently on the two lists:
    ``a`` and ``b`` are the list entries per player (the declarer's value in his column)."""

    n: int
    a: Mapping[str, int]
    b: Mapping[str, int]


@dataclass(frozen=True)
class Comparison:
    """Where two lists of one table stand: the places both agree on, the differences, and
    how many deals do not count yet (on one list only, or differing)."""

    agreed: tuple[int, ...]
    differences: tuple[Difference, ...]
    pending: int
    played_a: int
    played_b: int

    @property
    def clean(self) -> bool:
        """Both lists hold the same deals with the same figures."""
        return not self.differences and self.played_a == self.played_b


def live_rows(rows: Sequence[Row]) -> tuple[Row, ...]:
    return tuple(r for r in rows if not r.struck)


def figures(row: Row, players: Sequence[str]) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """What must match: list entries and zero-sum figures per seat, and whether it counts."""
    return (
        tuple(int(row.list.get(p, 0)) for p in players),
        tuple(int(row.deltas.get(p, 0)) for p in players),
        row.counts,
    )


def compare(
    players: Sequence[str],
    a: Sequence[Row],
    b: Sequence[Row],
    players_b: Sequence[str] | None = None,
) -> Comparison:
    """Compare list A with list B deal by deal, **player by player by name** (``players_b``:
    list B's names, if it seats anybody list A does not: they are compared too, as 0 on list
    A). A seat's position never matters: two lists that put the same figures in the same
    seats under other names differ, and the same figures under the same names agree in any
    seat order.

    >>> from skatcalc.rules.sheet import Row
    >>> def row(n, v, who="A"): return Row(n, "A", ("A", "B", "C"), {}, False, False, None,
    ...     {"A": 0, "B": 0, "C": 0, who: v}, {"A": 0, "B": 0, "C": 0, who: v}, {})
    >>> c = compare(("A", "B", "C"), [row(1, 24), row(2, -72)], [row(1, 24), row(2, -96), row(3, 0)])
    >>> c.agreed, [d.n for d in c.differences], c.pending
    ((1,), [2], 2)
    >>> compare(("A", "B", "C"), [row(1, 24)], [row(1, 24)], ("C", "B", "A")).clean
    True
    >>> def row_d(n, v): return Row(n, "A", ("D", "B", "C"), {}, False, False, None,
    ...     {"D": v, "B": 0, "C": 0}, {"D": v, "B": 0, "C": 0}, {})
    >>> compare(("A", "B", "C"), [row(1, 24)], [row_d(1, 24)], ("D", "B", "C")).differences
    (Difference(n=1, a={'A': 24, 'B': 0, 'C': 0, 'D': 0}, b={'A': 0, 'B': 0, 'C': 0, 'D': 24}),)
    """
    la, lb = live_rows(a), live_rows(b)
    names = tuple(players) + tuple(p for p in (players_b or ()) if p not in players)
    agreed: list[int] = []
    diffs: list[Difference] = []
    for i, (ra, rb) in enumerate(zip(la, lb, strict=False), start=1):
        if figures(ra, names) == figures(rb, names):
            agreed.append(i)
        else:
            diffs.append(Difference(i, {p: int(ra.list.get(p, 0)) for p in names},
                                    {p: int(rb.list.get(p, 0)) for p in names}))  # fmt: skip
    pending = max(len(la), len(lb)) - len(agreed)
    return Comparison(tuple(agreed), tuple(diffs), pending, len(la), len(lb))


@dataclass(frozen=True)
class Counted:
    """A table's figures over the deals that count: ``score`` is the game's ranking figure
    (Seeger-Fabian for Skat, the balance for Schafkopf)."""

    score: Mapping[str, int]
    won: Mapping[str, int]
    lost: Mapping[str, int]


def counted(
    game: str, players: Sequence[str], rows: Sequence[Row], places: Sequence[int]
) -> Counted:
    """List A's figures over the live deals at ``places`` (1-based), totalled as the sheet
    totals them (the same ``extra_totals``), so a table's score is one code path."""
    kind = game_kind(game)
    live = live_rows(rows)
    take = set(places)
    zero = dict.fromkeys(players, 0)
    balance, list_tot, won, lost, by_others = (dict(zero) for _ in range(5))
    for i, r in enumerate(live, start=1):
        if i not in take or not r.counts or r.outcome is None:
            continue
        for p in players:
            balance[p] += int(r.deltas.get(p, 0))
            list_tot[p] += int(r.list.get(p, 0))
        result = r.outcome.party_won  # the one decision of won and lost (rules/sheet/base.py)
        if result is not None:
            for p in r.party:
                (won if result else lost)[p] += 1
            if not result and kind.counts_lost_by_others:
                for p in players:
                    if p not in r.party:
                        by_others[p] += 1
    extra = dict(kind.extra_totals(players, Tallies(list_tot, won, lost, by_others)))
    figures_by_name: dict[str, Mapping[str, int]] = {"balance": balance, **extra}
    # "nur Gute" (docs/rules.md 2.8): the live rows say the list is what the winners wrote
    written = any(r.written for r in live)
    score = list_tot if written else figures_by_name.get(rank_figure(game), balance)
    return Counted(dict(score), won, lost)


def figure_text(entries: Mapping[str, int], names: bool) -> str:
    """A deal's list entries as the table reads them: the declarer's value ("−72"), with
    the names where the two lists put it in different columns ("Anna −72")."""
    shown = [(p, v) for p, v in entries.items() if v]
    if not shown:
        return "0"
    if not names and len(shown) == 1:
        return number(shown[0][1], signed=True)
    return ", ".join(f"{p} {number(v, signed=True)}" for p, v in shown)


def difference_msg(d: Difference) -> Msg:
    """ "Spiel 3: Liste A −72, Liste B −96 — bitte prüfen".

    >>> difference_msg(Difference(3, {"A": -72, "B": 0}, {"A": -96, "B": 0})).de
    'Spiel 3: Liste A −72, Liste B −96 — bitte prüfen'
    >>> difference_msg(Difference(1, {"A": 24, "B": 0}, {"A": 0, "B": 24})).de
    'Spiel 1: Liste A A +24, Liste B B +24 — bitte prüfen'
    """
    cols_a = {p for p, v in d.a.items() if v}
    cols_b = {p for p, v in d.b.items() if v}
    names = cols_a != cols_b or len(cols_a) > 1
    return Msg(
        "Spiel %(n)s: Liste A %(a)s, Liste B %(b)s — bitte prüfen",
        n=d.n,
        a=figure_text(d.a, names),
        b=figure_text(d.b, names),
    )
