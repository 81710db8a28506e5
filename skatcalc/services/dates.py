"""Dates in a language, for the pages (``web/i18n.py`` in the page's language) and the PDFs
alike; Babel's medium format, kept in ``services/cache.py`` with every other process cache."""

from __future__ import annotations

from datetime import date, datetime

from babel.dates import format_date

from skatcalc.services import cache


def day(value: str | date | datetime, lang: str) -> str:
    """A date in ``lang``'s locale: 22.11.2026 / Nov 22, 2026."""
    if isinstance(value, str):
        # stored in UTC; the table lives in the server's local time
        value = (
            datetime.fromisoformat(value).astimezone()
            if len(value) > 10
            else date.fromisoformat(value)
        )
    return _medium_date(value if isinstance(value, date) and not isinstance(value, datetime)
                        else value.date(), lang)  # fmt: skip


def when(value: str, lang: str) -> str:
    """A stored time (UTC) as date and the server's local time: 22.11.2026, 21:03."""
    moment = datetime.fromisoformat(value).astimezone()
    return f"{day(moment, lang)}, {moment:%H:%M}"


def _medium_date(value: date, lang: str) -> str:
    # Babel takes ~0.5 ms a date; the list of sheets shows hundreds of them, mostly the same:
    # kept in cache.py with every other process cache
    return cache.kept(cache.DATES, (value, lang),
                      lambda: format_date(value, format="medium", locale=lang))  # fmt: skip
