"""Who is ahead, decided one way for every list: a sheet's strip, a club night's ranking and
its series lists, a group's standings.

* A list ranks by one figure (:func:`rank_figure`: the game's first ranking figure unless a
  group chose another); higher first, then more games won, then fewer lost (SkWO's tie order,
  :func:`order_key`); each list appends its last tie-break (registration order, the name).
* Equal scores share a rank: 1, 1, 3 (:func:`competition_ranks`).
* A sheet's leaders (:func:`leaders`) are everyone at the top figure, in seat order; nobody
  leads while every figure is 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .sheet import game as game_kind


def rank_figure(game: str) -> str:
    """The figure a game's lists rank by unless a group says otherwise.

    >>> rank_figure("skat"), rank_figure("schafkopf")
    ('seeger_fabian', 'balance')
    """
    return game_kind(game).rank_figures[0]


def order_key(score: int, won: int, lost: int) -> tuple[int, int, int]:
    """The sort key of every ranking, before the list's own last tie-break.

    >>> sorted([(10, 3, 1), (10, 4, 2), (12, 0, 9), (10, 4, 1)], key=lambda r: order_key(*r))
    [(12, 0, 9), (10, 4, 1), (10, 4, 2), (10, 3, 1)]
    """
    return (-score, -won, lost)


def competition_ranks(scores: Sequence[int]) -> list[int]:
    """Ranks of scores sorted highest first; equal scores share a rank.

    >>> competition_ranks([30, 30, 12, 5, 5])
    [1, 1, 3, 4, 4]
    """
    ranks: list[int] = []
    for i, s in enumerate(scores):
        ranks.append(ranks[i - 1] if i and scores[i - 1] == s else i + 1)
    return ranks


def leaders(players: Sequence[str], scores: Mapping[str, int]) -> list[str]:
    """Everyone who shares the top score, in seat order (a tie marks them all); nobody while
    every score is 0.

    >>> leaders(["A", "B", "C"], {"A": 5, "B": 5, "C": -10})
    ['A', 'B']
    >>> leaders(["A", "B"], {"A": 0, "B": 0})
    []
    """
    if not any(scores.values()):
        return []
    top = max(scores[p] for p in players)
    return [p for p in players if scores[p] == top]


def leader(players: Sequence[str], scores: Mapping[str, int]) -> str | None:
    """The first of the :func:`leaders` in seat order, or None.

    >>> leader(["A", "B", "C"], {"A": -5, "B": 5, "C": 0})
    'B'
    """
    top = leaders(players, scores)
    return top[0] if top else None
