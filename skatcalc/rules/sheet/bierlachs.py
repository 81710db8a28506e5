"""Bierlachs, the pub's match play alongside the list (docs/rules.md 1.11): only minus points
are written; whoever first reaches the target in a round is the Bierlachs and pays the stake
to each other player. Pure bookkeeping over the deals' outcomes, kept by ``compute.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import Bierlachs, DealKind, DealOutcome


def start(players: Sequence[str]) -> Bierlachs:
    return Bierlachs(1, dict.fromkeys(players, 0), dict.fromkeys(players, 0))


def minus_points(out: DealOutcome, players: Sequence[str]) -> dict[str, int]:
    """The deal's minus points, each deal's list figure (Kontra and Bock included): a won
    game's value to each other player at the table (the one who sits out too), a lost game's
    to the declarer, a Ramsch's minus entries to those players; nothing else.

    >>> from skatcalc.rules.sheet.base import DealKind, DealOutcome
    >>> from skatcalc.rules.common import Msg
    >>> won = DealOutcome(DealKind.GAME, "B", ("B",), None, {"A": 0, "B": 72, "C": 0}, {},
    ...                   True, 72, Msg("Grand"), (), ())
    >>> minus_points(won, ("A", "B", "C"))
    {'A': 72, 'B': 0, 'C': 72}
    """
    minus = dict.fromkeys(players, 0)
    if out.kind is DealKind.GAME and out.declarer is not None:
        score = out.list.get(out.declarer, 0)
        if score > 0:
            for p in players:
                if p != out.declarer:
                    minus[p] = score
        else:
            minus[out.declarer] = -score
    elif out.kind is DealKind.RAMSCH:
        for p in players:
            minus[p] = max(0, -out.list.get(p, 0))
    return minus


def step(
    state: Bierlachs, minus: Mapping[str, int], target: int
) -> tuple[Bierlachs, tuple[str, ...]]:
    """The match after one more deal, and who became Bierlachs with it (two reaching the
    target in the same deal: both); the round then starts again from 0.

    >>> s, who = step(start("ABC"), {"A": 72, "B": 0, "C": 72}, 96)
    >>> s, who = step(s, {"A": 24, "B": 24, "C": 0}, 96)
    >>> who, s.round, dict(s.lost), dict(s.minus)
    (('A',), 2, {'A': 1, 'B': 0, 'C': 0}, {'A': 0, 'B': 0, 'C': 0})
    """
    now = {p: state.minus[p] + minus.get(p, 0) for p in state.minus}
    who = tuple(p for p in now if now[p] >= target)
    if not who:
        return Bierlachs(state.round, now, state.lost), ()
    lost = {p: state.lost[p] + (p in who) for p in state.lost}
    return Bierlachs(state.round + 1, dict.fromkeys(now, 0), lost), who


def cents(state: Bierlachs, stake_cents: int) -> dict[str, int]:
    """The settlement per Bierlachs: each pays the stake to each other player (sums to 0).

    >>> cents(Bierlachs(3, {}, {"A": 2, "B": 0, "C": 0}), 50)
    {'A': -200, 'B': 100, 'C': 100}
    """
    total = sum(state.lost.values())
    n = len(state.lost)
    return {p: stake_cents * (total - n * lost) for p, lost in state.lost.items()}
