"""Per-player statistics of a computed sheet (pure: reads the typed rows compute_sheet
produced; what counts as a game's own kinds of games its :class:`GameKind` says)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .sheet import GAMES, Row, game


def statistics(game_key: str, players: Sequence[str], rows: Sequence[Row],
               before: Mapping[str, Mapping[str, Any]] | None = None
               ) -> dict[str, dict[str, Any]]:  # fmt: skip
    """Deals taken part in, own games, won, lost, won %, best and worst deal, and game kinds.

    With ``before`` (the statistics of the rows that came before ``rows`` on the same sheet),
    the figures go on from there: ``statistics(g, ps, a + b)`` is
    ``statistics(g, ps, b, statistics(g, ps, a))``. ``before`` is not changed.

    Skat counts Grands and Nulls among a player's own games; Schafkopf counts solos (every
    game played alone, Wenz and Bettel included) and Sauspiele (partner games).

    >>> from skatcalc.rules.sheet import DealRecord, SheetSpec, compute_sheet
    >>> spec = SheetSpec("skat", ("A", "B", "C"), "C")
    >>> grand = {"game": "grand", "matadors": 1, "with": True, "won": True, "declarer": "A"}
    >>> rows = compute_sheet(spec, [DealRecord(1, "C", ("A", "B", "C"), grand)]).rows
    >>> s = statistics("skat", spec.players, rows)["A"]
    >>> s["own"], s["won_pct"], s["grands"], s["best"]
    (1, 100, 1, {'n': 1, 'delta': 96})
    """
    kind_of = game(game_key)
    # every game's columns, so a sheet's statistics have the same keys whatever its game
    columns = {col.key: 0 for kind in GAMES.values() for col in kind.stat_columns}
    out: dict[str, dict[str, Any]] = {
        p: {"played": 0, "own": 0, "won": 0, "lost": 0, "won_pct": None,
            "best": None, "worst": None, **columns} if before is None else dict(before[p])
        for p in players
    }  # fmt: skip
    for row in rows:
        if not row.counts:
            continue
        for p in players:
            s = out[p]
            if p in row.active:
                s["played"] += 1
            delta = row.deltas.get(p, 0)
            if p in row.active or delta:
                if s["best"] is None or delta > s["best"]["delta"]:
                    s["best"] = {"n": row.n, "delta": delta}
                if s["worst"] is None or delta < s["worst"]["delta"]:
                    s["worst"] = {"n": row.n, "delta": delta}
            result = row.own_result(p)
            if result is None:
                continue
            s["own"] += 1
            s["won" if result else "lost"] += 1
            contract = row.input.get("game")
            counted = kind_of.stat_kind(contract) if isinstance(contract, str) else None
            if counted is not None:
                s[counted] += 1
    for s in out.values():
        if s["own"]:
            s["won_pct"] = round(100 * s["won"] / s["own"])
    return out
