"""The official tournament list (DSkV Spielliste, SkWO §5; docs/rules.md 1.9): one line per
deal with the declarer's list value in his column and every player's running list points,
and at the foot per player the columns of Seeger-Fabian. Built from a computed sheet (its
rows and final tallies), so the figures are the sheet's own: the foot's ``total`` is the
``seeger_fabian`` of the sheet's totals, by the same function."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...rules.sheet.base import ComputedSheet, DealKind, SheetSpec, Tallies, game


@dataclass(frozen=True)
class ListFoot:
    """One player's foot of the official tournament list (DSkV Spielliste, SkWO §5): the
    columns a table checks at the end of a series, ``total`` being his Seeger-Fabian."""

    list_points: int
    won: int
    lost: int
    #: +50 per own game won
    won_points: int
    #: −50 per own game lost (a negative number)
    lost_points: int
    #: games the others at the table lost (the dealer who sat out counts them too)
    others_lost: int
    #: 40 (at 3) or 30 (at 4) per game the others lost
    others_points: int
    total: int


def seeger_fabian_feet(players: Sequence[str], tallies: Tallies) -> dict[str, ListFoot] | None:
    """Seeger-Fabian column by column, per player; None where the table has no such list
    (five players). The one computation of Seeger-Fabian: the totals take its ``total``.

    >>> t = Tallies({"A": 24, "B": -96, "C": 0}, {"A": 1, "B": 0, "C": 0},
    ...             {"A": 0, "B": 1, "C": 0}, {"A": 1, "B": 0, "C": 1})
    >>> f = seeger_fabian_feet(("A", "B", "C"), t)
    >>> f["A"].total, f["B"].total, f["C"].total, f["B"].lost_points
    (114, -146, 40, -50)
    """
    n = len(players)
    if n not in (3, 4):
        return None
    bonus = 40 if n == 3 else 30
    out: dict[str, ListFoot] = {}
    for p in players:
        won, lost, others = tallies.won[p], tallies.lost[p], tallies.lost_by_others[p]
        out[p] = ListFoot(tallies.list[p], won, lost, 50 * won, -50 * lost, others,
                          bonus * others, tallies.list[p] + 50 * (won - lost) + bonus * others)  # fmt: skip
    return out


@dataclass(frozen=True)
class ListLine:
    """One deal on the list. ``entries`` holds the players whose column it writes to (the
    declarer's value, minus twice the value when lost; a Ramsch's losers); ``running`` each
    player's list points after it. A struck deal or one that no longer reads writes nothing
    (``counts`` False); a passed deal writes nothing either (``passed``)."""

    n: int
    dealer: str
    declarer: str | None
    won: bool | None
    counts: bool
    passed: bool
    entries: Mapping[str, int]
    running: Mapping[str, int]


@dataclass(frozen=True)
class TournamentList:
    """The whole list: players in seat order, the points per game the others lost (40 at a
    table of three, 30 at four), the lines and each player's foot."""

    players: tuple[str, ...]
    others_bonus: int
    lines: tuple[ListLine, ...]
    foot: Mapping[str, ListFoot]


def tournament_list(spec: SheetSpec, computed: ComputedSheet) -> TournamentList | None:
    """The list of a sheet whose game keeps Seeger-Fabian (Skat at three or four), else None.

    >>> from skatcalc.rules.sheet import DealRecord, compute_sheet
    >>> spec = SheetSpec("skat", ("A", "B", "C"), "A", {})
    >>> deals = [DealRecord(1, "A", ("B", "C", "A"), {"declarer": "B", "game": "grand",
    ...          "matadors": 1, "with": True, "declarer_points": 75}),
    ...          DealRecord(2, "B", ("C", "A", "B"), {"declarer": "C", "game": "clubs",
    ...          "matadors": 1, "with": True, "declarer_points": 50})]
    >>> t = tournament_list(spec, compute_sheet(spec, deals))
    >>> [(line.n, dict(line.entries)) for line in t.lines]
    [(1, {'B': 48}), (2, {'C': -48})]
    >>> dict(t.lines[-1].running), t.others_bonus
    ({'A': 0, 'B': 48, 'C': -48}, 40)
    >>> [(p, f.won, f.lost, f.others_lost, f.total) for p, f in t.foot.items()]
    [('A', 0, 0, 1, 40), ('B', 1, 0, 1, 138), ('C', 0, 1, 0, -98)]
    """
    if "seeger_fabian" not in game(spec.game).extra_figures:
        return None
    s = computed.state
    foot = seeger_fabian_feet(spec.players, Tallies(s.list_tot, s.won, s.lost, s.lost_by_others))
    if foot is None:
        return None
    running = dict.fromkeys(spec.players, 0)
    lines: list[ListLine] = []
    for row in computed.rows:
        counts = row.counts and row.outcome is not None
        out = row.outcome
        entries = {p: v for p, v in row.list.items() if v} if counts else {}
        for p, v in entries.items():
            running[p] += v
        lines.append(ListLine(
            row.n, row.dealer, row.declarer if counts else None,
            out.won if counts and out is not None else None, counts,
            counts and out is not None and out.kind is DealKind.PASSED, entries, dict(running),
        ))  # fmt: skip
    bonus = 40 if len(spec.players) == 3 else 30
    return TournamentList(spec.players, bonus, tuple(lines), foot)
