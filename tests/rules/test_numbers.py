"""One way to write a signed number (rules.common.number), wherever a score is shown."""

from __future__ import annotations

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from skatcalc.exports import charts, pdf
from skatcalc.exports.charts import running_totals_svg
from skatcalc.rules.common import number, signed
from skatcalc.web import i18n

CASES = [  # (n, signed, German, English)
    (0, False, "0", "0"),
    (0, True, "0", "0"),
    (72, True, "+72", "+72"),
    (72, False, "72", "72"),
    (-54, True, "\u221254", "\u221254"),
    (9999, True, "+9999", "+9999"),
    (10000, False, "10.000", "10,000"),
    (-1234567, True, "\u22121.234.567", "\u22121,234,567"),
]


@pytest.mark.parametrize(("n", "sign", "de", "en"), CASES)
def test_pages_write_numbers_one_way(app: Flask, n: int, sign: bool, de: str, en: str) -> None:
    assert number(n, "de", sign) == de and number(n, "en", sign) == en
    for lang, expected in (("de", de), ("en", en)):
        with app.test_request_context(f"/?lang={lang}"):
            assert i18n.num(n, sign) == expected
    # Explanations and the PDF use the same writing, ungrouped as before.
    assert pdf._n(n, sign) == number(n, signed=sign)
    if sign:
        assert signed(n) == number(n, signed=True)


def test_none_is_an_empty_cell(app: Flask) -> None:
    with app.test_request_context("/"):
        assert i18n.num(None) == ""
    assert pdf._n(None) == ""


def test_chart_labels_use_a_real_minus() -> None:
    svg = running_totals_svg(["A", "B"], [{"totals": {"A": 120, "B": -120}}], title="t")
    assert "\u2212" in svg and ">-" not in svg


@pytest.mark.parametrize(
    ("cents", "lang", "shown"),
    [
        (0, "de", "0,00 €"),
        (5, "en", "0.05 €"),
        (123456, "de", "1.234,56 €"),
        (123456, "en", "1,234.56 €"),
        (-250, "de", "−2,50 €"),
        (-100000000, "en", "−1,000,000.00 €"),
    ],
)
def test_money_is_written_one_way(cents: int, lang: str, shown: str) -> None:
    """Pages (i18n.money) and PDFs (pdf, event_pdf, standings_pdf) write amounts alike."""
    from skatcalc.rules.common import money

    assert money(cents, lang) == shown


@settings(max_examples=60, deadline=None)
@given(
    totals=st.lists(st.tuples(st.integers(-5000, 5000), st.integers(-5000, 5000)), max_size=70),
    width=st.sampled_from([360, 640]),
)
def test_chart_points_are_each_deals_x_and_each_totals_y(
    totals: list[tuple[int, int]], width: int
) -> None:
    """The points are written from each deal's x and each total's y once (a page after every
    save draws them all again): the same points as each worked out on its own."""
    svg = running_totals_svg(["A", "B"], [{"totals": {"A": a, "B": b}} for a, b in totals],
                             width=width)  # fmt: skip
    values = [0, *(v for t in totals for v in t)]
    lo, hi = min(values), max(values)
    hi = lo + 10 if lo == hi else hi
    step = charts._nice_step(hi - lo)
    lo, hi = (lo // step) * step, -((-hi) // step) * step
    pw, ph, n = width - 64, 260 - 60, max(len(totals), 1)
    for k in range(2):
        series = [0, *(t[k] for t in totals)]
        points = " ".join(
            f"{52 + pw * i / n:.0f},{14 + ph * (hi - v) / (hi - lo):.0f}"
            for i, v in enumerate(series)
        )
        assert f'points="{points}"' in svg
    one = "%.1f".__mod__  # as the template's format filter wrote them before
    for v in range(lo, hi + 1, step):  # the axis: each tick's line and label
        at = 14 + ph * (hi - v) / (hi - lo)
        assert f'y1="{one(at)}" y2="{one(at)}"' in svg
        assert f'y="{one(at + 4)}" text-anchor="end" fill="#666">{number(v)}<' in svg
    for k in range(2):  # each player's key
        key_x = 52 + k * (pw / 2)
        assert f'<rect x="{one(key_x)}"' in svg and f'<text x="{one(key_x + 16)}"' in svg
