"""Measuring what the caches hold costs what is new, not the whole sheet again: a save adds one
row to 48, and every cache it enters measured all 48 (bench/save.py)."""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass

from skatcalc.services import cache


@dataclass(frozen=True)
class Part:
    names: tuple[str, ...]
    figures: dict[str, int]


def test_a_frozen_value_is_measured_once_while_it_lives() -> None:
    part = Part(tuple(f"player {i}" for i in range(40)), {f"k{i}": i for i in range(40)})
    first = cache.approx_size(part)
    assert first >= 512
    # Frozen results are never changed; the size remembered for this object is what counts
    # (this change is what no caller does, made here to see that no walk happens).
    part.figures.update({f"x{i}": i for i in range(400)})
    assert cache.approx_size(part) == first
    assert cache.approx_size([part, part]) > first  # the list around it is measured


def test_the_remembered_size_goes_with_the_object() -> None:
    part = Part(tuple(f"p{i}" for i in range(60)), {})
    cache.approx_size(part)
    key = id(part)
    assert key in cache._FROZEN_SIZES
    del part
    gc.collect()
    assert key not in cache._FROZEN_SIZES


def test_kept_json_is_measured_once_and_stays_a_json_object() -> None:
    row = cache.KeptJson({f"field {i}": "x" * 40 for i in range(20)})
    first = cache.approx_size(row)
    row["later"] = "y" * 4000
    assert cache.approx_size(row) == first
    assert isinstance(row, dict) and row == dict(row)


def test_a_byte_bound_does_not_measure_what_it_replaces_or_drops() -> None:
    measured: list[object] = []

    def size_of(value: str) -> int:
        measured.append(value)
        return len(value)

    held: cache.ByteBounded[str, str] = cache.ByteBounded(10, size_of, keep_one=True)
    held.put("a", "aaaa")
    held.put("a", "bbbb")  # replaces
    held.put("c", "cccccccc")  # drops "a"
    assert measured == ["aaaa", "bbbb", "cccccccc"]
    assert held.bytes == 8 and len(held) == 1 and held.get("c") == "cccccccc"
    assert held.get("a") is None


def test_a_new_item_among_measured_alike_ones_is_taken_as_their_average() -> None:
    """A save adds one row to 48 measured before: it is not walked, but sized as they are."""
    rows = [Part(tuple(f"p{i}-{k}" for i in range(30)), {}) for k in range(10)]
    first = cache.approx_size(tuple(rows))
    new = Part(tuple(f"n{i}" for i in range(30)), {f"k{i}": i for i in range(400)})
    grown = cache.approx_size((*rows, new))
    each = [cache._FROZEN_SIZES[id(r)][1] for r in rows]
    assert cache._FROZEN_SIZES[id(new)][1] == sum(each) // len(each)
    assert grown - first == sum(each) // len(each) + 8  # the item and the tuple's one slot more
    # alone, with nothing alike beside it, an item is walked
    assert cache.approx_size(
        Part(tuple(f"q{i}" for i in range(30)), {f"k{i}": i for i in range(400)})
    ) > 4 * max(each)


def test_plain_values_count_once_each_as_before() -> None:
    names = [f"player {i}" for i in range(4)]
    figures = {n: -1000 - i for i, n in enumerate(names)}
    both = cache.approx_size([figures, dict(figures)])
    one = sys.getsizeof(figures)
    plain = sum(sys.getsizeof(n) for n in names) + sum(sys.getsizeof(v) for v in figures.values())
    assert both == sys.getsizeof([figures, dict(figures)]) + 2 * one + plain


def test_a_size_its_maker_worked_out_is_taken_without_a_walk() -> None:
    value = cache.known_size(cache.KeptJson({f"k{i}": "x" * 100 for i in range(50)}), 4321)
    assert cache.approx_size(value) == 4321
    assert cache.approx_size([value]) == sys.getsizeof([value]) + 4321
