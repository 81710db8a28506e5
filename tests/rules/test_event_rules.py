"""Seating, event ranking and prize list (skatcalc/rules/events.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatcalc.rules.common import InvalidDeal
from skatcalc.rules.events import (
    Fees,
    Payout,
    PayoutKind,
    RankRow,
    TableResult,
    by_ranking,
    draw,
    prize_list,
    rank_event,
    ranking_order,
    table_sizes,
)
from skatcalc.text import field_errors


def names(n: int) -> list[str]:
    return [f"P{i:03d}" for i in range(1, n + 1)]


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (6, (3, 3)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (11, (4, 4, 3)),
        (12, (4, 4, 4)),
        (13, (4, 3, 3, 3)),
        (110, (4,) * 26 + (3,) * 2),
    ],
)
def test_skat_tables_of_four_and_three_only_where_needed(
    count: int, sizes: tuple[int, ...]
) -> None:
    assert table_sizes("skat", count) == sizes


@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_skat_refuses_counts_that_cannot_all_play(count: int) -> None:
    with pytest.raises(InvalidDeal) as exc:
        table_sizes("skat", count)
    assert "players" in field_errors(exc.value, "de")
    assert str(count) in field_errors(exc.value, "en")["players"][0]


@pytest.mark.parametrize(("count", "tables"), [(4, 1), (8, 2), (12, 3), (112, 28)])
def test_schafkopf_tables_of_four(count: int, tables: int) -> None:
    assert table_sizes("schafkopf", count) == (4,) * tables


@pytest.mark.parametrize("count", [0, 1, 3, 5, 6, 7, 9, 10, 11])
def test_schafkopf_refuses_counts_not_a_multiple_of_four(count: int) -> None:
    with pytest.raises(InvalidDeal) as exc:
        table_sizes("schafkopf", count)
    assert "vier" in field_errors(exc.value, "de")["players"][0]


@given(st.integers(min_value=3, max_value=300).filter(lambda n: n != 5), st.integers())
def test_draw_seats_every_player_at_exactly_one_table(count: int, seed: int) -> None:
    players = names(count)
    tables = draw("skat", players, seed)
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == players
    sizes = [len(t.players) for t in tables]
    assert set(sizes) <= {3, 4}
    assert sizes.count(3) < 4  # four tables of three would be three tables of four
    assert sizes == sorted(sizes, reverse=True)  # tables of four first
    assert [t.number for t in tables] == list(range(1, len(tables) + 1))
    assert all(t.first_dealer == t.players[0] for t in tables)
    assert draw("skat", players, seed) == tables  # reproducible from the seed


@given(st.integers(min_value=1, max_value=60), st.integers())
def test_schafkopf_draw_laws(quads: int, seed: int) -> None:
    players = names(4 * quads)
    tables = draw("schafkopf", players, seed)
    assert all(len(t.players) == 4 for t in tables)
    assert sorted(p for t in tables for p in t.players) == players


def test_draw_depends_on_the_seed() -> None:
    players = names(11)
    assert draw("skat", players, 1) != draw("skat", players, 2)


def test_seating_by_ranking_puts_the_best_at_table_one() -> None:
    ranked = names(11)
    tables = by_ranking("skat", ranked)
    assert [t.players for t in tables] == [
        ("P001", "P002", "P003", "P004"),
        ("P005", "P006", "P007", "P008"),
        ("P009", "P010", "P011"),
    ]


def result(series: int, score: dict[str, int], won: dict[str, int] | None = None,
           lost: dict[str, int] | None = None) -> TableResult:  # fmt: skip
    return TableResult(series, tuple(score), score, won or {}, lost or {})


def test_ranking_sums_series_and_shares_equal_ranks() -> None:
    players = ["A", "B", "C", "D", "E"]
    results = [
        result(1, {"A": 500, "B": 300, "C": 300}, {"A": 5, "B": 3, "C": 4}, {"A": 1, "B": 2}),
        result(2, {"A": -100, "B": 200, "C": 200, "D": 900}, {"D": 9}, {"A": 3, "C": 1}),
    ]
    rows = rank_event(players, results, 2, Fees(1000, 50))
    got = [(r.rank, r.player, r.score, r.won, r.lost, r.fees_cents, r.series) for r in rows]
    # B and C tie on 500 and share rank 2; C first (more games won); E has not played.
    assert got == [
        (1, "D", 900, 9, 0, 1000, (0, 900)),
        (2, "C", 500, 4, 1, 1050, (300, 200)),
        (2, "B", 500, 3, 2, 1100, (300, 200)),
        (4, "A", 400, 5, 4, 1200, (500, -100)),
        (5, "E", 0, 0, 0, 1000, (0, 0)),
    ]
    assert rows[0].played == (False, True)
    assert rows[-1].played == (False, False)


def test_seating_by_ranking_puts_late_arrivals_last() -> None:
    players = ["Late", "A", "B"]
    rows = rank_event(players, [result(1, {"A": -50, "B": -10})], 1, Fees(0, 0))
    assert [r.player for r in rows] == ["Late", "B", "A"]  # 0 is above the minus scores
    assert ranking_order(rows) == ("B", "A", "Late")


ranks_strategy = st.lists(st.integers(min_value=-500, max_value=500), min_size=1, max_size=30)


@given(ranks_strategy)
def test_rank_is_one_plus_the_number_of_better_scores(scores: list[int]) -> None:
    players = [f"p{i}" for i in range(len(scores))]
    results = [result(1, dict(zip(players, scores, strict=True)))]
    rows = rank_event(players, results, 1, Fees(0, 0))
    assert [r.score for r in rows] == sorted(scores, reverse=True)
    for r in rows:
        assert r.rank == 1 + sum(1 for s in scores if s > r.score)
        assert sum(r.series) == r.score


def rows_of(scores: list[int]) -> tuple[RankRow, ...]:
    players = [f"p{i}" for i in range(len(scores))]
    return rank_event(players, [result(1, dict(zip(players, scores, strict=True)))], 1, Fees(0, 0))


@pytest.mark.parametrize(
    ("kind", "values", "pot", "scores", "cents", "rest"),
    [
        # fixed amounts, place by place
        ("fixed", (5000, 3000, 1000), 12000, [30, 20, 10, 0], [5000, 3000, 1000, 0], 3000),
        # shares of the pot, rounded down to the cent
        ("shares", (50, 30, 20), 10001, [3, 2, 1], [5000, 3000, 2000], 1),
        # a tie for second shares places 2 and 3: (3000 + 1000) / 2
        ("fixed", (5000, 3000, 1000), 9000, [30, 20, 20, 0], [5000, 2000, 2000, 0], 0),
        # an odd cent goes to the first of the tied
        ("fixed", (0, 101), 101, [9, 1, 1], [0, 51, 50], 0),
        # fixed prizes above the pot: the rest is negative (the club pays it)
        ("fixed", (2000,), 1500, [1, 0], [2000, 0], -500),
        # more prizes than players
        ("shares", (40, 30, 20, 10), 1000, [1], [400], 600),
    ],
)
def test_prize_list(kind: str, values: tuple[int, ...], pot: int, scores: list[int],
                    cents: list[int], rest: int) -> None:  # fmt: skip
    plist = prize_list(rows_of(scores), Payout(PayoutKind(kind), values), pot)
    assert [r.cents for r in plist.rows] == cents
    assert plist.rest_cents == rest
    assert plist.paid_cents + plist.rest_cents == pot


@given(ranks_strategy, st.lists(st.integers(0, 40), max_size=8), st.integers(0, 10**6))
def test_shares_never_pay_more_than_the_pot(scores: list[int], shares: list[int],
                                            pot: int) -> None:  # fmt: skip
    if sum(shares) > 100:
        return
    plist = prize_list(rows_of(scores), Payout(PayoutKind.SHARES, tuple(shares)), pot)
    assert 0 <= plist.paid_cents <= pot
    assert plist.paid_cents == sum(pot * s // 100 for s in shares[: len(scores)])
