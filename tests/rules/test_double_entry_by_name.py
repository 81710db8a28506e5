"""Laws of the double-entry comparison (rules/double_entry.py): players are matched by name,
never by seat position, and the series' length rule at Skat."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skatcalc.rules.common import Errors
from skatcalc.rules.double_entry import compare
from skatcalc.rules.events import check_series_deals
from skatcalc.rules.sheet import Row

NAMES = ("Anna", "Bernd", "Carla", "Dieter")
values = st.lists(st.tuples(st.sampled_from(NAMES), st.integers(-500, 500)), min_size=1,
                  max_size=12)  # fmt: skip


def rows(deals: list[tuple[str, int]], seats: tuple[str, ...]) -> list[Row]:
    out = []
    for n, (who, v) in enumerate(deals, start=1):
        entries = dict.fromkeys(seats, 0) | {who: v}
        out.append(Row(n, seats[0], seats, {}, False, False, None, entries, entries, {}))
    return out


@given(values, st.permutations(NAMES))
def test_the_same_figures_under_the_same_names_agree_in_any_seat_order(
    deals: list[tuple[str, int]], seats_b: list[str]
) -> None:
    cmp = compare(NAMES, rows(deals, NAMES), rows(deals, tuple(seats_b)), seats_b)
    assert cmp.clean and cmp.agreed == tuple(range(1, len(deals) + 1)) and cmp.pending == 0


@given(values, st.integers(0, 3))
def test_a_figure_under_another_name_is_a_difference(deals: list[tuple[str, int]],
                                                     seat: int) -> None:  # fmt: skip
    """List B holding a stranger in one seat (a desk change that missed it) never agrees on a
    deal that gives that seat a figure, whatever the seat order."""
    seats_b = tuple("Xaver" if i == seat else p for i, p in enumerate(NAMES))
    moved = [("Xaver" if who == NAMES[seat] else who, v) for who, v in deals]
    cmp = compare(NAMES, rows(deals, NAMES), rows(moved, seats_b), seats_b)
    touched = {n for n, (who, v) in enumerate(deals, start=1) if who == NAMES[seat] and v}
    assert {d.n for d in cmp.differences} == touched


@given(st.integers(1, 200), st.integers(1, 200))
def test_a_skat_series_is_a_multiple_of_its_table_size(four: int, three: int) -> None:
    e = Errors()
    check_series_deals("skat", {4: four, 3: three}, e)
    assert {i.field for i in e.items} == ({"deals.4"} if four % 4 else set()) | (
        {"deals.3"} if three % 3 else set()
    )
    e = Errors()
    check_series_deals("schafkopf", {4: four}, e)
    assert not e.items
