"""The fair draw from the second series on (docs/rules.md 3a): no two who already shared a
table share one again where that is possible, else as few as the seeded, bounded search finds;
the same seed gives the same tables."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skatcalc.games  # noqa: F401  (registers the games)
from skatcalc.rules.events import Table, draw, pairs_of, repeated_pairs, seat, table_sizes


def players(n: int) -> list[str]:
    return [f"P{i:02}" for i in range(n)]


def met_of(*series: tuple[Table, ...]) -> frozenset[frozenset[str]]:
    return pairs_of([t.players for tables in series for t in tables])


def repeats(tables: tuple[Table, ...], met: frozenset[frozenset[str]]) -> int:
    return repeated_pairs([t.players for t in tables], met)


@pytest.mark.parametrize("seed", [1, 2, 64, 1000, 2**31])
def test_eight_at_two_tables_repeat_four_pairs_the_fewest_possible(seed: int) -> None:
    # each new table of four takes at least two of an old one: 1 + 1 pairs, twice
    names = players(8)
    first = draw("schafkopf", names, 32)
    second = draw("schafkopf", names, seed, met_of(first))
    assert repeats(second, met_of(first)) == 4
    assert draw("schafkopf", names, seed, met_of(first)) == second  # reproducible


@pytest.mark.parametrize(
    ("game", "count", "fewest"),
    [("schafkopf", 12, 3), ("schafkopf", 16, 0), ("schafkopf", 40, 0), ("skat", 13, 0),
     ("skat", 9, 0), ("skat", 10, 1), ("skat", 240, 0)],
)  # fmt: skip
def test_the_second_series_repeats_no_pair_where_that_is_possible(
    game: str, count: int, fewest: int
) -> None:
    names = players(count)
    first = draw(game, names, 7)
    second = draw(game, names, 8, met_of(first))
    assert repeats(second, met_of(first)) == fewest
    assert sorted(p for t in second for p in t.players) == sorted(names)
    assert tuple(len(t.players) for t in second) == table_sizes(game, count)


def test_the_third_series_avoids_both_earlier_ones() -> None:
    names = players(16)
    first = draw("schafkopf", names, 1)
    second = draw("schafkopf", names, 2, met_of(first))
    third = draw("schafkopf", names, 3, met_of(first, second))
    assert repeats(third, met_of(first, second)) == 0


def test_without_anyone_met_the_draw_is_the_plain_shuffle() -> None:
    names = players(12)
    order = list(names)
    random.Random(99).shuffle(order)
    assert draw("schafkopf", names, 99) == seat("schafkopf", order)
    assert draw("schafkopf", names, 99, frozenset()) == seat("schafkopf", order)


@st.composite
def evenings(draw_: st.DrawFn) -> tuple[str, list[str], frozenset[frozenset[str]], int]:
    game = draw_(st.sampled_from(["skat", "schafkopf"]))
    count = draw_(st.integers(2, 12).map(lambda k: 4 * k) if game == "schafkopf"
                  else st.integers(6, 40).filter(lambda n: n != 5))  # fmt: skip
    names = players(count)
    before = [
        draw(game, names, draw_(st.integers(0, 10**6))) for _ in range(draw_(st.integers(1, 3)))
    ]
    return game, names, met_of(*before), draw_(st.integers(0, 2**31))


@settings(max_examples=40, deadline=None)
@given(evenings())
def test_the_fair_draw_seats_everyone_once_and_never_does_worse_than_the_plain_draw(
    case: tuple[str, list[str], frozenset[frozenset[str]], int],
) -> None:
    game, names, met, seed = case
    fair = draw(game, names, seed, met)
    assert sorted(p for t in fair for p in t.players) == sorted(names)
    assert tuple(len(t.players) for t in fair) == table_sizes(game, len(names))
    plain = draw(game, names, seed)  # the first candidate the search starts from
    assert repeats(fair, met) <= repeats(plain, met)
    assert draw(game, names, seed, met) == fair
