"""One way to write a signed number (rules.common.number), wherever a score is shown."""

from __future__ import annotations

import pytest
from flask import Flask

from skatcalc.exports import pdf
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
